"""Pictures of positions as RGB arrays, drawn with whole-array NumPy operations."""

import numpy as np

CELL = 24
EMPTY = np.array([236, 236, 228], np.uint8)
FILLED = np.array([52, 101, 164], np.uint8)
GRID = np.array([160, 160, 160], np.uint8)
BOX_LINE = np.array([40, 40, 40], np.uint8)


def cells_to_rgb(cells: np.ndarray, palette: np.ndarray, cell: int = CELL) -> np.ndarray:
    """An image of a grid of small integers: each cell a square of its palette colour, with a
    one-pixel grid line on the top and left of each square."""
    image = palette[cells].repeat(cell, axis=0).repeat(cell, axis=1)
    image[::cell, :] = GRID
    image[:, ::cell] = GRID
    return image


def blockudoku_rgb(board: np.ndarray, hand: np.ndarray) -> np.ndarray:
    """The board with its 3x3 boxes outlined, and the hand's three pieces below it."""
    palette = np.stack([EMPTY, FILLED])
    top = cells_to_rgb(board, palette)
    top[:: 3 * CELL, :] = BOX_LINE
    top[:, :: 3 * CELL] = BOX_LINE
    small = CELL // 2
    pieces = [cells_to_rgb(piece, palette, small) for piece in hand]
    gap = np.full((5 * small, (9 * CELL - 15 * small) // 4, 3), 255, np.uint8)
    row = np.concatenate([gap, pieces[0], gap, pieces[1], gap, pieces[2], gap], axis=1)
    width = top.shape[1]
    row = row[:, :width] if row.shape[1] >= width else np.pad(
        row, ((0, 0), (0, width - row.shape[1]), (0, 0)), constant_values=255)
    spacer = np.full((small, width, 3), 255, np.uint8)
    return np.concatenate([top, spacer, row, spacer], axis=0)
