//! The Blokus piece shapes, their names and their orientations.

/// A piece shape: its name (as the strongest open engine names it) and its cells `(x, y)`.
#[derive(Debug)]
pub struct Shape {
    /// Name, e.g. `F`, `I5`, `1`.
    pub name: &'static str,
    /// Cells: on square boards `(x, y)` with `y` upwards; on triangle boards (column, row
    /// from the top), the cell upward where column plus row is even (see `geometry`).
    pub cells: &'static [(i8, i8)],
}

const fn s(name: &'static str, cells: &'static [(i8, i8)]) -> Shape {
    Shape { name, cells }
}

/// The 21 pieces of Classic, Two-Player, Three-Player and Duo, smallest first.
pub const CLASSIC: &[Shape] = &[
    s("1", &[(0, 0)]),
    s("2", &[(0, 0), (1, 0)]),
    s("I3", &[(0, 0), (1, 0), (2, 0)]),
    s("V3", &[(0, 0), (1, 0), (0, 1)]),
    s("I4", &[(0, 0), (1, 0), (2, 0), (3, 0)]),
    s("L4", &[(0, 0), (1, 0), (2, 0), (0, 1)]),
    s("O", &[(0, 0), (1, 0), (0, 1), (1, 1)]),
    s("T4", &[(0, 0), (1, 0), (2, 0), (1, 1)]),
    s("Z4", &[(0, 0), (1, 0), (1, 1), (2, 1)]),
    s("F", &[(1, 0), (2, 0), (0, 1), (1, 1), (1, 2)]),
    s("I5", &[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]),
    s("L5", &[(0, 0), (1, 0), (2, 0), (3, 0), (0, 1)]),
    s("N", &[(0, 0), (1, 0), (2, 0), (2, 1), (3, 1)]),
    s("P", &[(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]),
    s("T5", &[(0, 0), (1, 0), (2, 0), (1, 1), (1, 2)]),
    s("U", &[(0, 0), (2, 0), (0, 1), (1, 1), (2, 1)]),
    s("V5", &[(0, 0), (1, 0), (2, 0), (0, 1), (0, 2)]),
    s("W", &[(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)]),
    s("X", &[(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)]),
    s("Y", &[(0, 0), (1, 0), (2, 0), (3, 0), (1, 1)]),
    s("Z5", &[(0, 0), (1, 0), (1, 1), (1, 2), (2, 2)]),
];

/// The 12 shapes of Junior (each colour has two of each).
pub const JUNIOR: &[Shape] = &[
    s("1", &[(0, 0)]),
    s("2", &[(0, 0), (1, 0)]),
    s("I3", &[(0, 0), (1, 0), (2, 0)]),
    s("V3", &[(0, 0), (1, 0), (0, 1)]),
    s("I4", &[(0, 0), (1, 0), (2, 0), (3, 0)]),
    s("L4", &[(0, 0), (1, 0), (2, 0), (0, 1)]),
    s("O", &[(0, 0), (1, 0), (0, 1), (1, 1)]),
    s("T4", &[(0, 0), (1, 0), (2, 0), (1, 1)]),
    s("Z4", &[(0, 0), (1, 0), (1, 1), (2, 1)]),
    s("I5", &[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]),
    s("L5", &[(0, 0), (1, 0), (2, 0), (3, 0), (0, 1)]),
    s("P", &[(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]),
];

/// The 12 shapes of Callisto, smallest first, with the reference engine's names (`I` and `V`
/// of three squares, `L` and `Z` of four); a colour has [`CALLISTO_COPIES`] of each.
pub const CALLISTO: &[Shape] = &[
    s("1", &[(0, 0)]),
    s("2", &[(0, 0), (1, 0)]),
    s("I", &[(0, 0), (1, 0), (2, 0)]),
    s("V", &[(0, 0), (1, 0), (0, 1)]),
    s("L", &[(0, 0), (1, 0), (2, 0), (0, 1)]),
    s("O", &[(0, 0), (1, 0), (0, 1), (1, 1)]),
    s("T4", &[(0, 0), (1, 0), (2, 0), (1, 1)]),
    s("Z", &[(0, 0), (1, 0), (1, 1), (2, 1)]),
    s("T5", &[(0, 0), (1, 0), (2, 0), (1, 1), (1, 2)]),
    s("U", &[(0, 0), (2, 0), (0, 1), (1, 1), (2, 1)]),
    s("W", &[(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)]),
    s("X", &[(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)]),
];

/// Copies of each [`CALLISTO`] shape a colour has: three single squares, two of each shape of
/// two to four squares, one of each of five (21 pieces, 71 squares).
pub const CALLISTO_COPIES: [u8; 12] = [3, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1];

/// The 22 pieces of Trigon (every shape of one to six triangles), smallest first; each drawn
/// row by row from the top, `#` a triangle, upward where column plus row is even.
pub const TRIGON: &[Shape] = &[
    // #
    s("1", &[(0, 0)]),
    // ##
    s("2", &[(0, 0), (1, 0)]),
    // ..# / .##
    s("I3", &[(2, 0), (1, 1), (2, 1)]),
    // ..## / .##.
    s("I4", &[(2, 0), (3, 0), (1, 1), (2, 1)]),
    // ## / ##
    s("C4", &[(0, 0), (1, 0), (0, 1), (1, 1)]),
    // ..#. / .###
    s("A4", &[(2, 0), (1, 1), (2, 1), (3, 1)]),
    // ..# / .## / ##.
    s("I5", &[(2, 0), (1, 1), (2, 1), (0, 2), (1, 2)]),
    // ..# / .## / .##
    s("L5", &[(2, 0), (1, 1), (2, 1), (1, 2), (2, 2)]),
    // ##. / ###
    s("C5", &[(0, 0), (1, 0), (0, 1), (1, 1), (2, 1)]),
    // ..#. / .### / .#..
    s("P5", &[(2, 0), (1, 1), (2, 1), (3, 1), (1, 2)]),
    // ..## / .##. / ##..
    s("I6", &[(2, 0), (3, 0), (1, 1), (2, 1), (0, 2), (1, 2)]),
    // ..## / .##. / .##.
    s("L6", &[(2, 0), (3, 0), (1, 1), (2, 1), (1, 2), (2, 2)]),
    // .##... / ..####
    s("V", &[(1, 0), (2, 0), (2, 1), (3, 1), (4, 1), (5, 1)]),
    // ## / ## / ##
    s("S", &[(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)]),
    // ..#. / .### / ##..
    s("P6", &[(2, 0), (1, 1), (2, 1), (3, 1), (0, 2), (1, 2)]),
    // ##. / ### / .#.
    s("F", &[(0, 0), (1, 0), (0, 1), (1, 1), (2, 1), (1, 2)]),
    // ..#.. / #####
    s("W", &[(2, 0), (0, 1), (1, 1), (2, 1), (3, 1), (4, 1)]),
    // ..#. / .### / .#.#
    s("A6", &[(2, 0), (1, 1), (2, 1), (3, 1), (1, 2), (3, 2)]),
    // ..#. / .##. / .###
    s("G", &[(2, 0), (1, 1), (2, 1), (1, 2), (2, 2), (3, 2)]),
    // #.. / ### / ##.
    s("Y", &[(0, 0), (0, 1), (1, 1), (2, 1), (0, 2), (1, 2)]),
    // .### / .###
    s("X", &[(1, 0), (2, 0), (3, 0), (1, 1), (2, 1), (3, 1)]),
    // ### / ###
    s("O", &[(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)]),
];

/// The 24 pieces of Nexos, smallest first: one to four unit segments of a square lattice, as
/// cells of the segment grid (see `geometry::Geometry::nexos`: a junction has even column and
/// row, a horizontal segment odd column and even row, a vertical one even column and odd row),
/// `y` upwards. A piece holds the junctions its straight runs pass through (two of its
/// segments in line, nothing else of it there), not those where it turns or branches.
pub const NEXOS: &[Shape] = &[
    s("1", &[(1, 0)]),
    s("I2", &[(0, 1), (0, 2), (0, 3)]),
    s("V2", &[(1, 2), (2, 1)]),
    s("I3", &[(0, 1), (0, 2), (0, 3), (0, 4), (0, 5)]),
    s("L3", &[(0, 1), (0, 2), (0, 3), (1, 4)]),
    s("T3", &[(1, 0), (2, 1), (3, 0)]),
    s("Z3", &[(1, 0), (2, 1), (3, 2)]),
    s("U3", &[(0, 1), (1, 2), (2, 1)]),
    s(
        "I4",
        &[(0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (0, 7)],
    ),
    s("L4", &[(0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (1, 6)]),
    s("Y", &[(1, 2), (2, 1), (2, 3), (2, 4), (2, 5)]),
    s("N", &[(0, 1), (1, 2), (2, 3), (2, 4), (2, 5)]),
    s("V4", &[(1, 4), (2, 4), (3, 4), (4, 1), (4, 2), (4, 3)]),
    s("W", &[(0, 1), (1, 2), (2, 3), (3, 4)]),
    s("Z4", &[(1, 0), (2, 1), (2, 2), (2, 3), (3, 4)]),
    s("T4", &[(1, 0), (2, 1), (2, 2), (2, 3), (3, 0)]),
    s("E", &[(1, 4), (2, 1), (2, 3), (3, 2)]),
    s("U4", &[(0, 1), (1, 2), (2, 2), (3, 2), (4, 1)]),
    s("X", &[(1, 2), (2, 1), (2, 3), (3, 2)]),
    s("F", &[(0, 1), (0, 3), (1, 0), (1, 2)]),
    s("H", &[(0, 1), (0, 3), (1, 2), (2, 3)]),
    s("J", &[(0, 3), (1, 4), (2, 1), (2, 2), (2, 3)]),
    s("G", &[(0, 3), (1, 2), (1, 4), (2, 1)]),
    s("O", &[(0, 1), (1, 0), (1, 2), (2, 1)]),
];

/// The 21 pieces of GembloQ, smallest first, with the reference engine's names (a number is
/// the piece's area in squares): right triangles of the GembloQ grid (see
/// `geometry::Geometry::gembloq`), column and row from the bottom; a square of a piece is four
/// triangles meeting at their right angles, a half-square of it two.
#[rustfmt::skip]
pub const GEMBLOQ: &[Shape] = &[
    s("1", &[(1, 0), (1, 1), (2, 0), (2, 1)]),
    s("1.5", &[(1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (4, 0)]),
    s("2", &[(3, 1), (3, 2), (4, 1), (4, 2), (5, 0), (5, 1), (6, 0), (6, 1)]),
    s("L2.5", &[(3, 1), (3, 2), (4, 1), (4, 2), (5, 0), (5, 1), (6, 0), (6, 1), (7, 1), (8, 1)]),
    s("I3", &[(1, 2), (1, 3), (2, 2), (2, 3), (3, 1), (3, 2), (4, 1), (4, 2), (5, 0), (5, 1),
        (6, 0), (6, 1)]),
    s("V", &[(3, 1), (3, 2), (4, 1), (4, 2), (5, 0), (5, 1), (6, 0), (6, 1), (7, 1), (7, 2),
        (8, 1), (8, 2)]),
    s("L3.5", &[(1, 2), (2, 2), (3, 1), (3, 2), (4, 1), (4, 2), (5, 0), (5, 1), (6, 0), (6, 1),
        (7, 1), (7, 2), (8, 1), (8, 2)]),
    s("I4", &[(3, 3), (3, 4), (4, 3), (4, 4), (5, 2), (5, 3), (6, 2), (6, 3), (7, 1), (7, 2),
        (8, 1), (8, 2), (9, 0), (9, 1), (10, 0), (10, 1)]),
    s("L4", &[(1, 2), (1, 3), (2, 2), (2, 3), (3, 1), (3, 2), (4, 1), (4, 2), (5, 0), (5, 1),
        (6, 0), (6, 1), (7, 1), (7, 2), (8, 1), (8, 2)]),
    s("T4", &[(1, 0), (1, 1), (2, 0), (2, 1), (3, 1), (3, 2), (4, 1), (4, 2), (5, 0), (5, 1),
        (5, 2), (5, 3), (6, 0), (6, 1), (6, 2), (6, 3)]),
    s("O", &[(3, 1), (3, 2), (4, 1), (4, 2), (5, 0), (5, 1), (5, 2), (5, 3), (6, 0), (6, 1),
        (6, 2), (6, 3), (7, 1), (7, 2), (8, 1), (8, 2)]),
    s("N4.5", &[(2, 4), (2, 5), (3, 1), (3, 2), (3, 3), (3, 4), (4, 1), (4, 2), (4, 3), (4, 4),
        (5, 0), (5, 1), (5, 2), (5, 3), (6, 0), (6, 1), (6, 2), (6, 3)]),
    s("L5", &[(3, 3), (3, 4), (4, 3), (4, 4), (5, 2), (5, 3), (6, 2), (6, 3), (7, 1), (7, 2),
        (8, 1), (8, 2), (9, 0), (9, 1), (10, 0), (10, 1), (11, 1), (11, 2), (12, 1), (12, 2)]),
    s("T5", &[(3, 1), (3, 2), (4, 1), (4, 2), (5, 2), (5, 3), (6, 2), (6, 3), (7, 1), (7, 2),
        (7, 3), (7, 4), (8, 1), (8, 2), (8, 3), (8, 4), (9, 0), (9, 1), (10, 0), (10, 1)]),
    s("N5", &[(1, 4), (1, 5), (2, 4), (2, 5), (3, 1), (3, 2), (3, 3), (3, 4), (4, 1), (4, 2),
        (4, 3), (4, 4), (5, 0), (5, 1), (5, 2), (5, 3), (6, 0), (6, 1), (6, 2), (6, 3)]),
    s("Y", &[(3, 1), (3, 2), (3, 3), (3, 4), (4, 1), (4, 2), (4, 3), (4, 4), (5, 2), (5, 3),
        (6, 2), (6, 3), (7, 1), (7, 2), (8, 1), (8, 2), (9, 0), (9, 1), (10, 0), (10, 1)]),
    s("Z", &[(3, 1), (3, 2), (4, 1), (4, 2), (5, 2), (5, 3), (6, 2), (6, 3), (7, 1), (7, 2),
        (8, 1), (8, 2), (9, 0), (9, 1), (10, 0), (10, 1), (11, 1), (11, 2), (12, 1), (12, 2)]),
    s("W", &[(3, 1), (3, 2), (4, 1), (4, 2), (5, 0), (5, 1), (6, 0), (6, 1), (7, 1), (7, 2),
        (8, 1), (8, 2), (9, 0), (9, 1), (10, 0), (10, 1), (11, 1), (11, 2), (12, 1), (12, 2)]),
    s("X", &[(1, 0), (1, 1), (1, 2), (1, 3), (2, 0), (2, 1), (2, 2), (2, 3), (3, 1), (3, 2),
        (4, 1), (4, 2), (5, 0), (5, 1), (5, 2), (5, 3), (6, 0), (6, 1), (6, 2), (6, 3)]),
    s("I5", &[(1, 4), (1, 5), (2, 4), (2, 5), (3, 3), (3, 4), (4, 3), (4, 4), (5, 2), (5, 3),
        (6, 2), (6, 3), (7, 1), (7, 2), (8, 1), (8, 2), (9, 0), (9, 1), (10, 0), (10, 1)]),
    s("P", &[(3, 3), (3, 4), (4, 3), (4, 4), (5, 2), (5, 3), (5, 4), (5, 5), (6, 2), (6, 3),
        (6, 4), (6, 5), (7, 1), (7, 2), (7, 3), (7, 4), (8, 1), (8, 2), (8, 3), (8, 4), (9, 0),
        (9, 1)]),
];

/// Every distinct orientation (rotations and mirror images) of a shape, each normalised so its
/// smallest x and y are 0 and its cells sorted.
pub fn orientations(shape: &Shape) -> Vec<Vec<(i8, i8)>> {
    square_orientations(shape, |v| v)
}

/// Every distinct orientation of a shape under the square grid's eight symmetries, each shifted
/// by `anchor` of its smallest x and y (the identity puts them at 0) and its cells sorted.
pub fn square_orientations(shape: &Shape, anchor: impl Fn(i8) -> i8) -> Vec<Vec<(i8, i8)>> {
    let mut seen: Vec<Vec<(i8, i8)>> = Vec::new();
    for t in 0..8 {
        let mut cells: Vec<(i8, i8)> = shape
            .cells
            .iter()
            .map(|&cell| square_symmetry(t, cell))
            .collect();
        let min_x = anchor(cells.iter().map(|c| c.0).min().unwrap_or(0));
        let min_y = anchor(cells.iter().map(|c| c.1).min().unwrap_or(0));
        for c in &mut cells {
            c.0 -= min_x;
            c.1 -= min_y;
        }
        cells.sort_unstable();
        if !seen.contains(&cells) {
            seen.push(cells);
        }
    }
    seen
}

/// The square grid's symmetry `t` (0..8: bit 2 mirrors x, bits 0-1 turn by quarters) of a cell.
pub fn square_symmetry(t: usize, (x, y): (i8, i8)) -> (i8, i8) {
    let (x, y) = if t & 4 != 0 { (-x, y) } else { (x, y) };
    match t & 3 {
        0 => (x, y),
        1 => (-y, x),
        2 => (-x, -y),
        _ => (y, -x),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_set_has_89_squares_and_91_orientations() {
        assert_eq!(CLASSIC.len(), 21);
        assert_eq!(CLASSIC.iter().map(|s| s.cells.len()).sum::<usize>(), 89);
        let total: usize = CLASSIC.iter().map(|s| orientations(s).len()).sum();
        assert_eq!(total, 91);
        let count =
            |name: &str| orientations(CLASSIC.iter().find(|s| s.name == name).unwrap()).len();
        assert_eq!(
            (count("X"), count("F"), count("I5"), count("O")),
            (1, 8, 2, 1)
        );
    }

    #[test]
    fn callisto_set_has_21_pieces_and_71_squares() {
        let pieces: u32 = CALLISTO_COPIES.iter().map(|&n| u32::from(n)).sum();
        let squares: usize = (CALLISTO.iter().zip(CALLISTO_COPIES))
            .map(|(s, n)| s.cells.len() * n as usize)
            .sum();
        assert_eq!((CALLISTO.len(), pieces, squares), (12, 21, 71));
    }

    /// Nexos: 84 segments in all; a junction belongs to a piece exactly where two of its
    /// segments meet in line and no third does.
    #[test]
    fn nexos_set_has_84_segments_and_only_straight_junctions() {
        let segment = |&(x, y): &(i8, i8)| (x + y) % 2 == 1;
        let segments: usize = NEXOS
            .iter()
            .map(|s| s.cells.iter().filter(|c| segment(c)).count())
            .sum();
        assert_eq!((NEXOS.len(), segments), (24, 84));
        for shape in NEXOS {
            let has = |x: i8, y: i8| shape.cells.contains(&(x, y));
            for x in 0..8 {
                for y in 0..8 {
                    if (x + y) % 2 == 1 || x % 2 == 1 {
                        continue;
                    }
                    let (w, e, s, n) = (has(x - 1, y), has(x + 1, y), has(x, y - 1), has(x, y + 1));
                    let meeting = [w, e, s, n].iter().filter(|&&b| b).count();
                    let straight = meeting == 2 && ((w && e) || (s && n));
                    assert_eq!(has(x, y), straight, "{} at {x},{y}", shape.name);
                }
            }
        }
    }

    #[test]
    fn junior_set_has_44_squares() {
        assert_eq!(JUNIOR.iter().map(|s| s.cells.len()).sum::<usize>(), 44);
    }
}
