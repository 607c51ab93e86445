//! Board geometries of the Blokus family: the cells a board has, which of them share an edge (a
//! colour may not touch itself there) and which share only a corner (a colour's next piece
//! must touch it there), how pieces turn, where a piece may lie, and how cells are named.
//!
//! Four grids: squares (Classic, Duo, Junior; Callisto's octagons, cut from a square with a
//! marked centre section), triangles (Trigon, a hexagon of triangles), line segments (Nexos,
//! see [`Geometry::nexos`]) and half unit squares (GembloQ, see [`Geometry::gembloq`]). Cells
//! are numbered
//! row by row from the bottom row up, left to right, on-board cells only: on a full square
//! board point `p` is column `p % size`, row `p / size`. Names are the reference
//! engine's: the column as letters (`a`..`z`, `aa`, `ab`, ...) and the row counted from the
//! bottom (`a1` is the bottom left cell of a square board).
//!
//! Triangles are placed on a grid of columns and rows: in each row upward and downward
//! triangles alternate, each column half a triangle side wide. Which cells touch is derived
//! from their corners (vertices): two triangles sharing two vertices share an edge, two
//! sharing one touch at a corner. GembloQ's right triangles touch the same way.

use super::pieces::{self, Shape};
use std::collections::HashMap;

/// The kind of cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grid {
    /// Unit squares.
    Square,
    /// Equilateral triangles, a hexagonal board.
    Triangle,
    /// Unit line segments of a square lattice and the junctions where they meet (Nexos).
    Segment,
    /// Right isosceles triangles, each half a unit square cut along a diagonal, the diagonals
    /// forming diamonds (GembloQ: a square of its pieces is a diamond of four triangles, a
    /// half-square two).
    RightTriangle,
}

/// Marks a grid cell that is not on the board.
const OFF: u16 = u16::MAX;

/// One board: its cells, their neighbours and their names.
#[derive(Debug)]
pub struct Geometry {
    /// Square cells or triangles.
    pub grid: Grid,
    /// Columns of the grid.
    pub width: usize,
    /// Rows of the grid.
    pub height: usize,
    /// Per point: column and row (from the bottom).
    coords: Vec<(u8, u8)>,
    /// Per grid cell (`row * width + column`): its point, or `OFF`.
    index: Vec<u16>,
    /// Per point: the cells sharing an edge with it.
    adj: Vec<Vec<u16>>,
    /// Per point: the cells sharing only a corner with it.
    diag: Vec<Vec<u16>>,
    /// Triangles: whether the row's and column's parity makes a cell point upward, see
    /// [`Geometry::points_up`].
    parity: usize,
    /// Per point: whether it lies in the board's centre section (Callisto's; empty on boards
    /// without one).
    centre_section: Vec<bool>,
}

/// A vertex of the triangle grid: horizontal position in half sides, line counted from the top.
type Vertex = (i32, i32);

/// The vertices of a triangle at column `x`, row `y` counted from the top.
fn triangle_vertices(x: i32, y: i32, up: bool) -> [Vertex; 3] {
    if up {
        [(x, y), (x - 1, y + 1), (x + 1, y + 1)]
    } else {
        [(x - 1, y), (x + 1, y), (x, y + 1)]
    }
}

/// The triangle with these vertices: column, row from the top, and whether it points up.
fn triangle_of(v: &[Vertex; 3]) -> (i32, i32, bool) {
    let top = v.iter().map(|p| p.1).min().unwrap_or(0);
    let on_top = v.iter().filter(|p| p.1 == top).count();
    let up = on_top == 1;
    // The apex is the vertex alone on its line.
    let apex_line = if up { top } else { top + 1 };
    let apex = v.iter().find(|p| p.1 == apex_line).map_or(0, |p| p.0);
    (apex, top, up)
}

/// Per cell (each given by its corners): the cells sharing an edge with it (two corners) and
/// those sharing only a corner, each list sorted; for tilings whose cells meet edge to edge.
fn touching(corners: &[Vec<Vertex>]) -> (Vec<Vec<u16>>, Vec<Vec<u16>>) {
    let mut at_vertex: HashMap<Vertex, Vec<u16>> = HashMap::new();
    for (p, vs) in corners.iter().enumerate() {
        for v in vs {
            at_vertex.entry(*v).or_default().push(p as u16);
        }
    }
    let (mut adj, mut diag) = (Vec::new(), Vec::new());
    for (p, vs) in corners.iter().enumerate() {
        let mut shared: Vec<(u16, usize)> = Vec::new();
        for v in vs {
            for &q in &at_vertex[v] {
                if q as usize == p {
                    continue;
                }
                match shared.iter_mut().find(|s| s.0 == q) {
                    Some(s) => s.1 += 1,
                    None => shared.push((q, 1)),
                }
            }
        }
        shared.sort_unstable();
        adj.push(shared.iter().filter(|s| s.1 == 2).map(|s| s.0).collect());
        diag.push(shared.iter().filter(|s| s.1 == 1).map(|s| s.0).collect());
    }
    (adj, diag)
}

/// GembloQ: where the right angle of the triangle at column `x`, row `y` lies: 0 top left,
/// 1 bottom right, 2 bottom left, 3 top right. Columns `2u` and `2u + 1` halve unit square `u`
/// of a row along a diagonal: from its bottom left corner up (types 0 and 1) where `u + y` is
/// odd, from its top left corner down (types 2 and 3) where it is even.
pub fn right_triangle_type(x: i32, y: i32) -> u8 {
    (2 * (x.div_euclid(2) + y + 1).rem_euclid(2) + x.rem_euclid(2)) as u8
}

/// The corners of the right triangle at column `x`, row `y` (from the bottom), in unit squares,
/// its right angle first.
fn right_triangle_corners(x: i32, y: i32) -> [Vertex; 3] {
    let u = x.div_euclid(2);
    let (bl, br, tl, tr) = ((u, y), (u + 1, y), (u, y + 1), (u + 1, y + 1));
    match right_triangle_type(x, y) {
        0 => [tl, tr, bl],
        1 => [br, tr, bl],
        2 => [bl, tl, br],
        _ => [tr, tl, br],
    }
}

/// The right triangle with these corners, right angle first: its column and row.
fn right_triangle_of(corners: &[Vertex; 3]) -> (i32, i32) {
    let u = corners.iter().map(|v| v.0).min().unwrap_or(0);
    let y = corners.iter().map(|v| v.1).min().unwrap_or(0);
    (2 * u + i32::from(corners[0].0 > u), y)
}

impl Geometry {
    /// A square board of `size` x `size` cells.
    pub fn square(size: usize) -> Geometry {
        Self::square_grid(size, |_, _| true)
    }

    /// Callisto's board: a `size` x `size` square cut to an octagon whose top, bottom, left and
    /// right sides are `edge` cells long (the corners cut at 45 degrees, in steps of one cell),
    /// with its centre section marked: the octagon of 24 cells (sides of 2) within the 6 x 6
    /// cells at the middle.
    pub fn callisto(size: usize, edge: usize) -> Geometry {
        let mut g = Self::square_grid(size, |x, y| in_octagon(x, y, size, edge));
        let offset = size / 2 - 3;
        g.centre_section = (0..g.npoints() as u16)
            .map(|p| {
                let (x, y) = g.coords(p);
                let (x, y) = (x.wrapping_sub(offset), y.wrapping_sub(offset));
                x < 6 && y < 6 && in_octagon(x, y, 6, 2)
            })
            .collect();
        g
    }

    /// The cells of a `width` x `height` grid of `grid` for which `on_board(column, row)`
    /// holds (rows from the bottom), with no neighbours yet.
    fn cells(
        grid: Grid,
        width: usize,
        height: usize,
        on_board: impl Fn(usize, usize) -> bool,
    ) -> Geometry {
        let mut index = vec![OFF; width * height];
        let mut coords = Vec::new();
        for y in 0..height {
            for x in 0..width {
                if on_board(x, y) {
                    index[y * width + x] = coords.len() as u16;
                    coords.push((x as u8, y as u8));
                }
            }
        }
        Geometry {
            grid,
            width,
            height,
            coords,
            index,
            adj: Vec::new(),
            diag: Vec::new(),
            parity: 0,
            centre_section: Vec::new(),
        }
    }

    /// The cells of a `size` x `size` square grid for which `on_board(column, row)` holds.
    fn square_grid(size: usize, on_board: impl Fn(usize, usize) -> bool) -> Geometry {
        let g = Self::cells(Grid::Square, size, size, on_board);
        let around = |steps: &[(i32, i32)]| -> Vec<Vec<u16>> {
            (0..g.npoints() as u16)
                .map(|p| {
                    let (x, y) = g.coords(p);
                    (steps.iter())
                        .filter_map(|(dx, dy)| g.point(x as i32 + dx, y as i32 + dy))
                        .collect()
                })
                .collect()
        };
        let adj = around(&[(1, 0), (-1, 0), (0, 1), (0, -1)]);
        let diag = around(&[(1, 1), (-1, 1), (1, -1), (-1, -1)]);
        Geometry { adj, diag, ..g }
    }

    /// The hexagonal Trigon board of edge `edge` triangles: `4 * edge - 1` columns and
    /// `2 * edge` rows, `6 * edge * edge` triangles.
    pub fn trigon(edge: usize) -> Geometry {
        let (width, height) = (4 * edge - 1, 2 * edge);
        // Row `y` from the top holds columns `edge - 1 - d ..= width - edge + d`, `d` its
        // distance from the nearer horizontal side.
        let on_board = |x: usize, y: usize| {
            let d = y.min(height - 1 - y);
            x + d + 1 >= edge && x + edge <= width + d
        };
        let mut g = Self::cells(Grid::Triangle, width, height, |x, row| {
            on_board(x, height - 1 - row)
        });
        // The top left corner cell (column edge - 1, top row) points up.
        g.parity = (edge - 1) % 2;
        let corners: Vec<Vec<Vertex>> = (0..g.npoints())
            .map(|p| {
                let (x, y) = g.top_down(p as u16);
                triangle_vertices(x, y, g.points_up(x, y)).to_vec()
            })
            .collect();
        (g.adj, g.diag) = touching(&corners);
        g
    }

    /// The Nexos board: the lines of a 12 x 12 square lattice, held as the cells of a 25 x 25
    /// grid. A cell with even column and row is a junction (a lattice point); one with an odd
    /// column and even row is a horizontal segment, one with an even column and odd row a
    /// vertical segment; those with both odd (the lattice's squares) are not on the board.
    /// Pieces cover segments and the junctions their straight runs pass through (which no
    /// other piece may then cross). Segments have no edge neighbours: a segment touches, at
    /// its ends, the segments continuing it and the four crossing it there (its corner
    /// neighbours, where a colour's next piece joins it); junctions touch nothing.
    pub fn nexos() -> Geometry {
        let size = 25;
        let mut g = Self::square_grid(size, |x, y| x % 2 == 0 || y % 2 == 0);
        g.grid = Grid::Segment;
        g.adj = vec![Vec::new(); g.npoints()];
        g.diag = (0..g.npoints() as u16)
            .map(|p| {
                let (x, y) = g.coords(p);
                let (x, y) = (x as i32, y as i32);
                let steps: &[(i32, i32)] = match (x % 2, y % 2) {
                    (1, _) => &[(-2, 0), (2, 0), (-1, -1), (1, 1), (-1, 1), (1, -1)],
                    (_, 1) => &[(0, -2), (0, 2), (-1, -1), (1, 1), (-1, 1), (1, -1)],
                    _ => &[],
                };
                (steps.iter())
                    .filter_map(|(dx, dy)| g.point(x + dx, y + dy))
                    .collect()
            })
            .collect();
        g
    }

    /// A GembloQ board: `2 * height` columns of right triangles (two to a unit square) and
    /// `height` rows, each row losing `(width - 4 * edge) / 2 - 1 - 2d` columns at both ends
    /// (none once that is not positive), `d` its distance from the nearer of the top and bottom
    /// rows (the reference engine's boards: height 28 and edge 13 for four colours, 22 and 4
    /// for two, 26 and 6 for three). Triangles touch along an edge when they share two
    /// corners (three neighbours), at a corner when they share one (eleven).
    pub fn gembloq(height: usize, edge: usize) -> Geometry {
        let width = 2 * height;
        let mut g = Self::cells(Grid::RightTriangle, width, height, |x, y| {
            let d = y.min(height - 1 - y);
            let cut = ((width - 4 * edge) / 2).saturating_sub(1 + 2 * d);
            x >= cut && x < width - cut
        });
        let corners: Vec<Vec<Vertex>> = (0..g.npoints() as u16)
            .map(|p| {
                let (x, y) = g.coords(p);
                right_triangle_corners(x as i32, y as i32).to_vec()
            })
            .collect();
        (g.adj, g.diag) = touching(&corners);
        g
    }

    /// What a cell of a move is called in messages: "square", "triangle" or "segment"
    /// (GembloQ's half-squares are triangles too).
    pub fn cell_word(&self) -> &'static str {
        match self.grid {
            Grid::Square => "square",
            Grid::Triangle | Grid::RightTriangle => "triangle",
            Grid::Segment => "segment",
        }
    }

    /// Whether point `p` is a junction of segments (Nexos), which scores nothing and names no
    /// move; false on other grids.
    #[inline]
    pub fn is_junction(&self, p: u16) -> bool {
        let (x, y) = self.coords(p);
        self.grid == Grid::Segment && x % 2 == 0 && y % 2 == 0
    }

    /// Number of cells.
    #[inline]
    pub fn npoints(&self) -> usize {
        self.coords.len()
    }

    /// Column and row (from the bottom) of point `p`.
    #[inline]
    pub fn coords(&self, p: u16) -> (usize, usize) {
        let (x, y) = self.coords[p as usize];
        (x as usize, y as usize)
    }

    /// The point at column `x`, row `y` (from the bottom), if on the board.
    pub fn point(&self, x: i32, y: i32) -> Option<u16> {
        if x < 0 || y < 0 || x as usize >= self.width || y as usize >= self.height {
            return None;
        }
        let p = self.index[y as usize * self.width + x as usize];
        (p != OFF).then_some(p)
    }

    /// Column and row counted from the top, the coordinates the triangle geometry works in.
    fn top_down(&self, p: u16) -> (i32, i32) {
        let (x, y) = self.coords(p);
        (x as i32, (self.height - 1 - y) as i32)
    }

    /// Triangles: whether the cell at column `x`, row `y` from the top points up.
    fn points_up(&self, x: i32, y: i32) -> bool {
        (x + y + self.parity as i32) % 2 == 0
    }

    /// Whether point `p` is a triangle pointing up (false on square boards).
    pub fn is_up(&self, p: u16) -> bool {
        let (x, y) = self.top_down(p);
        self.grid == Grid::Triangle && self.points_up(x, y)
    }

    /// Whether point `p` lies in the board's centre section (only Callisto's boards have one).
    #[inline]
    pub fn in_centre_section(&self, p: u16) -> bool {
        self.centre_section
            .get(p as usize)
            .copied()
            .unwrap_or(false)
    }

    /// The cells sharing an edge with `p`.
    #[inline]
    pub fn adj(&self, p: u16) -> &[u16] {
        &self.adj[p as usize]
    }

    /// The cells sharing only a corner with `p`.
    #[inline]
    pub fn diag(&self, p: u16) -> &[u16] {
        &self.diag[p as usize]
    }

    /// The centre of cell `p` in the plane, in cell (square) or side (triangle) units, `y` up.
    pub fn centre(&self, p: u16) -> (f32, f32) {
        let (x, y) = self.coords(p);
        match self.grid {
            Grid::Square => (x as f32, y as f32),
            // Half a lattice square per grid cell.
            Grid::Segment => (x as f32 / 2.0, y as f32 / 2.0),
            // The centroid of the triangle's corners, in unit squares.
            Grid::RightTriangle => {
                let c = right_triangle_corners(x as i32, y as i32);
                let sum = |f: fn(&Vertex) -> i32| c.iter().map(f).sum::<i32>() as f32 / 3.0;
                (sum(|v| v.0), sum(|v| v.1))
            }
            Grid::Triangle => {
                let h = 3f32.sqrt() / 2.0;
                // The centre sits a third of the height from the base.
                let lift = if self.is_up(p) {
                    h / 3.0
                } else {
                    2.0 * h / 3.0
                };
                (x as f32 / 2.0, y as f32 * h + lift)
            }
        }
    }

    /// The name of column `x`: `a`..`z`, then `aa`, `ab`, ...
    pub fn column_name(x: usize) -> String {
        let mut letters = Vec::new();
        let mut n = x + 1;
        while n > 0 {
            letters.push(b'a' + ((n - 1) % 26) as u8);
            n = (n - 1) / 26;
        }
        letters.reverse();
        String::from_utf8_lossy(&letters).into_owned()
    }

    /// The name of point `p`: column letters and row number, `a1` bottom left.
    pub fn point_name(&self, p: u16) -> String {
        let (x, y) = self.coords(p);
        format!("{}{}", Self::column_name(x), y + 1)
    }

    /// Parses a point name (lower case letters, then the row number).
    pub fn parse_point(&self, s: &str) -> Option<u16> {
        let split = s.find(|ch: char| !ch.is_ascii_lowercase())?;
        let (letters, digits) = s.split_at(split);
        if letters.is_empty() || letters.len() > 2 || digits.is_empty() || digits.len() > 2 {
            return None;
        }
        if !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let x = letters
            .bytes()
            .fold(0usize, |n, b| n * 26 + (b - b'a') as usize + 1)
            - 1;
        let y: usize = digits.parse().ok()?;
        self.point(x as i32, y as i32 - 1)
    }

    /// The squares around `p` whose status selects the placement lists tried at `p` (see
    /// `Tables::compatible`): its edge neighbours, then corner neighbours, up to `n`.
    pub fn status_points(&self, p: u16, n: usize) -> Vec<u16> {
        match self.grid {
            // Edge neighbours, then the diagonals along both diagonals.
            Grid::Square => {
                let (x, y) = self.coords(p);
                let (x, y) = (x as i32, y as i32);
                let steps = [
                    (1, 0),
                    (-1, 0),
                    (0, 1),
                    (0, -1),
                    (1, 1),
                    (-1, -1),
                    (1, -1),
                    (-1, 1),
                ];
                (steps.iter())
                    .filter_map(|(dx, dy)| self.point(x + dx, y + dy))
                    .take(n)
                    .collect()
            }
            Grid::Triangle | Grid::Segment | Grid::RightTriangle => self
                .adj(p)
                .iter()
                .chain(self.diag(p))
                .copied()
                .take(n)
                .collect(),
        }
    }

    /// Every placement of `shape` on the board, each as its cells (in the shape's cell order).
    pub fn placements(&self, shape: &Shape) -> Vec<Vec<u16>> {
        let mut out = Vec::new();
        match self.grid {
            Grid::Square => {
                for cells in pieces::orientations(shape) {
                    for oy in 0..self.height as i32 {
                        for ox in 0..self.width as i32 {
                            let at: Option<Vec<u16>> = (cells.iter())
                                .map(|&(x, y)| self.point(ox + i32::from(x), oy + i32::from(y)))
                                .collect();
                            out.extend(at);
                        }
                    }
                }
            }
            Grid::Segment => {
                // Shifts by even steps keep junctions on junctions.
                for cells in segment_orientations(shape) {
                    for oy in (0..self.height as i32).step_by(2) {
                        for ox in (0..self.width as i32).step_by(2) {
                            let at: Option<Vec<u16>> = (cells.iter())
                                .map(|&(x, y)| self.point(ox + i32::from(x), oy + i32::from(y)))
                                .collect();
                            out.extend(at);
                        }
                    }
                }
            }
            Grid::RightTriangle => {
                // Shifts by two columns and a row together, or by four columns, keep each
                // triangle's type.
                for cells in right_triangle_orientations(shape) {
                    for dy in -(self.height as i32)..self.height as i32 {
                        for du in -(self.width as i32) / 2..self.width as i32 / 2 {
                            if (du + dy) % 2 != 0 {
                                continue;
                            }
                            let at: Option<Vec<u16>> = (cells.iter())
                                .map(|&(x, y)| self.point(i32::from(x) + 2 * du, i32::from(y) + dy))
                                .collect();
                            out.extend(at);
                        }
                    }
                }
            }
            Grid::Triangle => {
                for cells in triangle_orientations(shape) {
                    // A shift keeps each cell's direction when its column and row steps
                    // together are even, given that shapes have an upward cell where column
                    // plus row is even.
                    for dy in -1..self.height as i32 {
                        for dx in -2..self.width as i32 {
                            if (dx + dy + self.parity as i32) % 2 != 0 {
                                continue;
                            }
                            let at: Option<Vec<u16>> = (cells.iter())
                                .map(|&(x, y)| {
                                    let (x, y) = (i32::from(x) + dx, i32::from(y) + dy);
                                    self.point(x, self.height as i32 - 1 - y)
                                })
                                .collect();
                            out.extend(at);
                        }
                    }
                }
            }
        }
        out
    }
}

/// Whether cell (`x`, `y`) of a `size` x `size` square lies in the octagon whose straight sides
/// are `edge` cells long: row `y`, at distance `d` from the nearer horizontal side, loses
/// `(size - edge) / 2 - d` cells at each end (none once that is not positive).
fn in_octagon(x: usize, y: usize, size: usize, edge: usize) -> bool {
    let d = y.min(size - 1 - y);
    let cut = ((size - edge) / 2).saturating_sub(d);
    x >= cut && x < size - cut
}

/// Every distinct orientation (quarter turns about a junction, each also mirrored) of a
/// segment shape, whose junctions have even column and row: each shifted by even steps to the
/// smallest column and row 0 or 1 (keeping junctions even) and sorted.
pub fn segment_orientations(shape: &Shape) -> Vec<Vec<(i8, i8)>> {
    // Shifts by even amounts keep junctions on even coordinates.
    super::pieces::square_orientations(shape, |v| v - v.rem_euclid(2))
}

/// Every distinct orientation (quarter turns, each also mirrored) of a GembloQ shape, whose
/// cells are right triangles (column, row from the bottom; see [`right_triangle_type`]): each
/// shifted to the smallest unit square column and row 0 (column 0 or 1 where the types ask
/// for it), sorted.
pub fn right_triangle_orientations(shape: &Shape) -> Vec<Vec<(i8, i8)>> {
    let mut seen: Vec<Vec<(i8, i8)>> = Vec::new();
    for mirror in [false, true] {
        for turns in 0..4 {
            let cells: Vec<(i32, i32)> = (shape.cells.iter())
                .map(|&(x, y)| {
                    let corners = right_triangle_corners(i32::from(x), i32::from(y)).map(|v| {
                        let (mut a, mut b) = if mirror { (-v.0, v.1) } else { v };
                        for _ in 0..turns {
                            (a, b) = (b, -a);
                        }
                        (a, b)
                    });
                    right_triangle_of(&corners)
                })
                .collect();
            let normal = normalize_right_triangles(&cells);
            if !seen.contains(&normal) {
                seen.push(normal);
            }
        }
    }
    seen
}

/// Right triangles shifted to the smallest unit square column and row 0, by a shift that keeps
/// their types (unit columns and rows together even); sorted.
fn normalize_right_triangles(cells: &[(i32, i32)]) -> Vec<(i8, i8)> {
    let min_u = cells.iter().map(|c| c.0.div_euclid(2)).min().unwrap_or(0);
    let min_y = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let (mut du, dy) = (-min_u, -min_y);
    if (du + dy) % 2 != 0 {
        du += 1;
    }
    let mut out: Vec<(i8, i8)> = (cells.iter())
        .map(|&(x, y)| ((x + 2 * du) as i8, (y + dy) as i8))
        .collect();
    out.sort_unstable();
    out
}

/// Every distinct orientation (six rotations, each also mirrored) of a triangle shape, whose
/// cells are (column, row from the top), upward where column plus row is even; each shifted to
/// the smallest row 0 and column 0 or 1 (keeping that parity) and sorted.
pub fn triangle_orientations(shape: &Shape) -> Vec<Vec<(i8, i8)>> {
    // Vertices in lattice coordinates (q, s): position q * (2, 0) + s * (1, 1) in (half
    // sides, lines), where a turn by 60 degrees is (q, s) -> (-s, q + s) and the mirror image
    // (x -> -x) is (q, s) -> (-q - s, s).
    let to_lattice = |(u, l): Vertex| ((u - l) / 2, l);
    let from_lattice = |(q, s): (i32, i32)| (2 * q + s, s);
    let mut seen: Vec<Vec<(i8, i8)>> = Vec::new();
    for mirror in [false, true] {
        for turns in 0..6 {
            let mut cells: Vec<(i32, i32)> = shape
                .cells
                .iter()
                .map(|&(x, y)| {
                    let (x, y) = (i32::from(x), i32::from(y));
                    let vs = triangle_vertices(x, y, (x + y) % 2 == 0).map(|v| {
                        let (mut q, mut s) = to_lattice(v);
                        if mirror {
                            (q, s) = (-q - s, s);
                        }
                        for _ in 0..turns {
                            (q, s) = (-s, q + s);
                        }
                        from_lattice((q, s))
                    });
                    let (x, y, _) = triangle_of(&vs);
                    (x, y)
                })
                .collect();
            let min_x = cells.iter().map(|c| c.0).min().unwrap_or(0);
            let min_y = cells.iter().map(|c| c.1).min().unwrap_or(0);
            let odd = (min_x + min_y).rem_euclid(2);
            let normal: Vec<(i8, i8)> = {
                for c in &mut cells {
                    c.0 -= min_x - odd;
                    c.1 -= min_y;
                }
                cells.sort_unstable();
                cells.iter().map(|&(x, y)| (x as i8, y as i8)).collect()
            };
            if !seen.contains(&normal) {
                seen.push(normal);
            }
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trigon_boards_have_six_edge_squared_triangles() {
        for edge in [8, 9] {
            let g = Geometry::trigon(edge);
            assert_eq!(g.npoints(), 6 * edge * edge);
            for p in 0..g.npoints() as u16 {
                let inner = g.adj(p).len() == 3;
                assert!(g.adj(p).len() <= 3 && g.diag(p).len() <= 9);
                if inner && g.diag(p).len() == 9 {
                    continue;
                }
                // Cells on the rim lose neighbours.
                assert!(g.adj(p).len() < 3 || g.diag(p).len() < 9, "{p}");
            }
            // Upward and downward triangles alternate along a row, and an edge neighbour
            // always points the other way.
            for p in 0..g.npoints() as u16 {
                assert!(g.adj(p).iter().all(|&q| g.is_up(q) != g.is_up(p)));
            }
        }
    }

    #[test]
    fn callisto_octagons_and_their_centre_sections() {
        // Four colours: 20x20 with sides of 6; two: 16x16 and three: 20x20, with sides of 2.
        for (size, edge, cells) in [(20, 6, 288), (16, 2, 144), (20, 2, 220)] {
            let g = Geometry::callisto(size, edge);
            assert_eq!(g.npoints(), cells);
            let centre: Vec<u16> = (0..g.npoints() as u16)
                .filter(|&p| g.in_centre_section(p))
                .collect();
            assert_eq!(centre.len(), 24);
            // The section's rows from the bottom: 2, 4, 6, 6, 4, 2 cells, around the middle.
            let names: Vec<String> = centre.iter().map(|&p| g.point_name(p)).collect();
            let (lo, hi) = (size / 2 - 3, size / 2 + 2);
            let name = |x: usize, y: usize| format!("{}{}", Geometry::column_name(x), y + 1);
            assert!(names.contains(&name(lo + 2, lo)) && names.contains(&name(hi - 2, hi)));
            assert!(names.contains(&name(lo, lo + 2)) && !names.contains(&name(lo + 1, lo)));
            assert!(names.contains(&name(lo + 1, lo + 1)));
            // Edge neighbours on the board only; the corners are cut.
            for p in 0..g.npoints() as u16 {
                assert!(g.adj(p).len() >= 2 && g.adj(p).len() <= 4);
            }
            assert_eq!(g.parse_point("a1"), None);
            let bottom: Vec<usize> = (0..size)
                .filter(|&x| g.point(x as i32, 0).is_some())
                .collect();
            assert_eq!(
                bottom,
                ((size - edge) / 2..(size + edge) / 2).collect::<Vec<_>>()
            );
        }
        assert!(!Geometry::square(20).in_centre_section(200));
    }

    #[test]
    fn names_follow_the_reference_engine() {
        let g = Geometry::trigon(9);
        assert_eq!((g.width, g.height), (35, 18));
        // The bottom row spans columns i..aa (8..=26), the middle rows the full width.
        assert_eq!(g.point_name(0), "i1");
        assert_eq!(g.parse_point("i1"), Some(0));
        assert_eq!(g.parse_point("h1"), None, "off the hexagon");
        let p = g.parse_point("ai9").unwrap();
        assert_eq!(g.coords(p), (34, 8));
        assert_eq!(g.point_name(p), "ai9");
        assert_eq!(g.parse_point("aj9"), None);
        let s = Geometry::square(20);
        assert_eq!(s.point_name(399), "t20");
        assert_eq!(s.parse_point("t20"), Some(399));
        assert_eq!(s.parse_point("u1"), None);
    }

    /// The pairs of triangles of `cells` that share an edge (two corners).
    fn shared_edges(cells: &[(i8, i8)]) -> usize {
        let corners: Vec<[Vertex; 3]> = (cells.iter())
            .map(|&(x, y)| right_triangle_corners(i32::from(x), i32::from(y)))
            .collect();
        let mut n = 0;
        for (i, a) in corners.iter().enumerate() {
            for b in &corners[i + 1..] {
                n += usize::from(a.iter().filter(|v| b.contains(v)).count() == 2);
            }
        }
        n
    }

    /// GembloQ's boards as the reference engine builds them: 1,564, 772 and 1,156 triangles,
    /// three edge and eleven corner neighbours inside, every piece turned onto the lattice.
    #[test]
    fn gembloq_boards_neighbours_and_orientations() {
        for (height, edge, cells) in [(28, 13, 1564), (22, 4, 772), (26, 6, 1156)] {
            let g = Geometry::gembloq(height, edge);
            assert_eq!(
                (g.npoints(), g.width, g.height),
                (cells, 2 * height, height)
            );
            for p in 0..g.npoints() as u16 {
                assert!(g.adj(p).len() <= 3 && g.diag(p).len() <= 11);
            }
            let full = (0..g.npoints() as u16).filter(|&p| g.diag(p).len() == 11);
            assert!(full.count() > cells / 2);
        }
        let g = Geometry::gembloq(22, 4);
        // The Two-Player board's bottom row spans columns 13..=30 (n..ae), its middle rows all.
        let bottom: Vec<i32> = (0..44).filter(|&x| g.point(x, 0).is_some()).collect();
        assert_eq!(bottom, (13..=30).collect::<Vec<_>>());
        assert_eq!(
            g.parse_point("ae1").map(|p| g.point_name(p)),
            Some("ae1".into())
        );
        // Triangle b11 (its right angle at the top right) touches the other half of its unit
        // square (a11), c11 and b12 along edges.
        let p = g.point(1, 10).unwrap();
        assert_eq!(right_triangle_type(1, 10), 3);
        let mut adj: Vec<String> = g.adj(p).iter().map(|&q| g.point_name(q)).collect();
        adj.sort();
        assert_eq!(adj, ["a11", "b12", "c11"]);
        let count = |name: &str| {
            let shape = pieces::GEMBLOQ.iter().find(|s| s.name == name).unwrap();
            let all = right_triangle_orientations(shape);
            // Turned onto the lattice, a piece keeps the edges its triangles share (a triangle
            // of the wrong type would lose some).
            for cells in &all {
                assert_eq!(shared_edges(cells), shared_edges(shape.cells), "{name}");
            }
            all.len()
        };
        let counts: Vec<usize> = ["1", "1.5", "2", "I3", "V", "T4", "O", "X", "P"]
            .iter()
            .map(|n| count(n))
            .collect();
        assert_eq!(counts, [1, 8, 2, 2, 4, 4, 1, 1, 8]);
    }

    #[test]
    fn triangle_turns_give_twelve_orientations_at_most() {
        let counts: Vec<usize> = pieces::TRIGON
            .iter()
            .map(|s| triangle_orientations(s).len())
            .collect();
        assert!(counts.iter().all(|&n| n <= 12 && 12 % n == 0), "{counts:?}");
        let count = |name: &str| {
            triangle_orientations(pieces::TRIGON.iter().find(|s| s.name == name).unwrap()).len()
        };
        // The hexagon has all symmetries; the single triangle points up or down.
        assert_eq!((count("O"), count("1"), count("2")), (1, 2, 3));
    }
}
