"""The n-tuples of the learned Blockudoku evaluation: rectangles of cells whose filled pattern
indexes a table, and which table entries the board's symmetries tie together.

A tuple is (row, col, height, width); bit i * width + j of its index is the cell
(row + i, col + j), filled or not. The engine reads the same rectangles from the evaluation file
(`src/games/blockudoku/ntuple.rs`), so this order of the bits is the file's.
"""

import numpy as np

SIZE = 9

# The 9 boxes, the 9 rows and the 9 columns.
DEFAULT_TUPLES = (
    [(r, c, 3, 3) for r in (0, 3, 6) for c in (0, 3, 6)]
    + [(r, 0, 1, SIZE) for r in range(SIZE)]
    + [(0, c, SIZE, 1) for c in range(SIZE)]
)

# The 8 symmetries of the square board (every one maps boxes to boxes, lines to lines).
SYMMETRIES = (
    lambda r, c: (r, c),
    lambda r, c: (c, SIZE - 1 - r),
    lambda r, c: (SIZE - 1 - r, SIZE - 1 - c),
    lambda r, c: (SIZE - 1 - c, r),
    lambda r, c: (r, SIZE - 1 - c),
    lambda r, c: (SIZE - 1 - r, c),
    lambda r, c: (c, r),
    lambda r, c: (SIZE - 1 - c, SIZE - 1 - r),
)


def cells(tuple_):
    """The cells of a tuple in the order of its index bits."""
    r0, c0, h, w = tuple_
    return [(r0 + i, c0 + j) for i in range(h) for j in range(w)]


def shared_entries(tuples):
    """For every tuple, an array mapping each of its indexes to a shared parameter: entries that
    a symmetry of the board maps onto each other share one. Returns (maps, parameter count)."""
    sizes = [1 << (h * w) for (_, _, h, w) in tuples]
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    parent = list(range(int(offsets[-1])))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    by_cells = {frozenset(cells(t)): k for k, t in enumerate(tuples)}
    for k, t in enumerate(tuples):
        own = cells(t)
        for g in SYMMETRIES:
            image = [g(r, c) for r, c in own]
            target = by_cells.get(frozenset(image))
            if target is None:
                continue
            position = {cell: bit for bit, cell in enumerate(cells(tuples[target]))}
            moved = [position[cell] for cell in image]
            for index in range(sizes[k]):
                other = 0
                for bit, to in enumerate(moved):
                    if index >> bit & 1:
                        other |= 1 << to
                a, b = find(offsets[k] + index), find(offsets[target] + other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    roots = np.array([find(x) for x in range(len(parent))])
    _, shared = np.unique(roots, return_inverse=True)
    maps = [shared[offsets[k] : offsets[k + 1]] for k in range(len(tuples))]
    return maps, int(shared.max()) + 1


def parse_boards(texts):
    """Boards in protocol notation (9 rows of '#'/'.' joined by '/') as a [n x 81] bool array."""
    raw = np.frombuffer("".join(texts).encode("ascii"), dtype=np.uint8)
    rows = raw.reshape(len(texts), SIZE * SIZE + SIZE - 1)
    keep = np.array([i % (SIZE + 1) != SIZE for i in range(SIZE * SIZE + SIZE - 1)])
    return rows[:, keep] == ord("#")


def indexes(boards, tuples):
    """The index of every tuple on every board: [n x tuples] int array."""
    out = np.zeros((len(boards), len(tuples)), dtype=np.int64)
    for k, t in enumerate(tuples):
        for bit, (r, c) in enumerate(cells(t)):
            out[:, k] |= boards[:, r * SIZE + c].astype(np.int64) << bit
    return out
