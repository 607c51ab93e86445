//! Single-digit patterns: Skyscraper, 2-String Kite, Turbot Fish (two strong links joined by a
//! weak one) and Empty Rectangle.
use super::board::Board;
use super::step::{Step, cell_list};
use super::technique::Technique;
use crate::sudoku::value_char;

/// A strong link: the only two places of a digit in a unit.
#[derive(Clone, Copy)]
struct Link {
    unit: usize,
    cells: [usize; 2],
}

/// The strong links of `digit`.
fn links(board: &Board, digit: u8) -> Vec<Link> {
    (0..board.units())
        .filter_map(|unit| {
            let mut places = board.places(unit, digit);
            match (places.next(), places.next(), places.next()) {
                (Some(a), Some(b), None) => Some(Link {
                    unit,
                    cells: [a, b],
                }),
                _ => None,
            }
        })
        .collect()
}

/// The kind of a two-link chain `a1 = a2 - b1 = b2` by its units.
fn kind(board: &Board, a: Link, b: Link, a2: usize, b1: usize) -> Technique {
    let n = board.size();
    let (ka, kb) = (a.unit / n, b.unit / n);
    if ka == kb && ka < 2 {
        Technique::Skyscraper
    } else if ka < 2 && kb < 2 && board.box_of(a2) == board.box_of(b1) {
        Technique::TwoStringKite
    } else {
        Technique::TurbotFish
    }
}

/// A chain of two strong links joined by a weak one, of the kind `technique`: the digit leaves
/// the cells that see both ends.
pub fn turbot(board: &Board, technique: Technique) -> Option<Step> {
    let n = board.size();
    for digit in 1..=n as u8 {
        let links = links(board, digit);
        for (i, &a) in links.iter().enumerate() {
            for &b in &links[i + 1..] {
                for [a1, a2] in [a.cells, [a.cells[1], a.cells[0]]] {
                    for [b1, b2] in [b.cells, [b.cells[1], b.cells[0]]] {
                        let cells = [a1, a2, b1, b2];
                        let distinct = (0..4).all(|x| (x + 1..4).all(|y| cells[x] != cells[y]));
                        if !distinct
                            || !board.sees(a2, b1)
                            || kind(board, a, b, a2, b1) != technique
                        {
                            continue;
                        }
                        let parallel =
                            board.row(a1) == board.row(b2) || board.col(a1) == board.col(b2);
                        if technique == Technique::Skyscraper && parallel {
                            continue; // an X-Wing
                        }
                        let eliminations: Vec<(usize, u8)> = (0..board.cells())
                            .filter(|&c| {
                                board.has(c, digit)
                                    && !cells.contains(&c)
                                    && board.sees(c, a1)
                                    && board.sees(c, b2)
                            })
                            .map(|c| (c, digit))
                            .collect();
                        let reason = || {
                            format!(
                                "{d} in {} or {} ({}: {}, {}: {}; {} sees {})",
                                board.cell_name(a1),
                                board.cell_name(b2),
                                board.unit_name(a.unit),
                                cell_list(board, &a.cells),
                                board.unit_name(b.unit),
                                cell_list(board, &b.cells),
                                board.cell_name(a2),
                                board.cell_name(b1),
                                d = value_char(digit),
                            )
                        };
                        if let Some(step) =
                            Step::eliminating(technique, eliminations, cells.to_vec(), reason)
                        {
                            return Some(step);
                        }
                    }
                }
            }
        }
    }
    None
}

/// Empty Rectangle: a box whose places for a digit lie on one row and one column of it, and a
/// strong link in a line crossing that row (or column) outside the box.
pub fn empty_rectangle(board: &Board) -> Option<Step> {
    let n = board.size();
    let (m, w) = (board.shape().box_rows(), board.shape().box_cols());
    for digit in 1..=n as u8 {
        let links = links(board, digit);
        for b in 0..n {
            let box_unit = 2 * n + b;
            let places: Vec<usize> = board.places(box_unit, digit).collect();
            if places.len() < 2 {
                continue;
            }
            let (r0, c0) = (b / m * m, b % m * w);
            for r in r0..r0 + m {
                for c in c0..c0 + w {
                    let on_cross = places
                        .iter()
                        .all(|&p| board.row(p) == r || board.col(p) == c);
                    let in_row_only = places.iter().all(|&p| board.row(p) == r);
                    let in_col_only = places.iter().all(|&p| board.col(p) == c);
                    if !on_cross || in_row_only || in_col_only {
                        continue;
                    }
                    for link in &links {
                        // A column link with one end on row r outside the box: its other end's
                        // row meets column c at the elimination (and the same with rows).
                        let kind = link.unit / n;
                        for [near, far] in [link.cells, [link.cells[1], link.cells[0]]] {
                            if board.box_of(near) == b || board.box_of(far) == b {
                                continue;
                            }
                            let target = match kind {
                                1 if board.row(near) == r => board.row(far) * n + c,
                                0 if board.col(near) == c => r * n + board.col(far),
                                _ => continue,
                            };
                            if board.box_of(target) == b || !board.has(target, digit) {
                                continue;
                            }
                            let mut cells = places.clone();
                            cells.extend([near, far]);
                            let reason = || {
                                format!(
                                    "{} of {} lie on row {} and column {}; {}: {}",
                                    value_char(digit),
                                    board.unit_name(box_unit),
                                    r + 1,
                                    c + 1,
                                    board.unit_name(link.unit),
                                    cell_list(board, &link.cells)
                                )
                            };
                            return Step::eliminating(
                                Technique::EmptyRectangle,
                                vec![(target, digit)],
                                cells,
                                reason,
                            );
                        }
                    }
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::{Grid, Shape};

    /// An empty board where `digit` may go only to `cells` in the given rows.
    fn only_in_rows(digit: u8, rows: &[usize], cells: &[usize]) -> Board {
        let mut masks = vec![0x1ff; 81];
        for &r in rows {
            for (c, mask) in masks.iter_mut().enumerate().skip(r * 9).take(9) {
                if !cells.contains(&c) {
                    *mask &= !(1 << (digit - 1));
                }
            }
        }
        Board::with_candidates(&Grid::empty(Shape::CLASSIC), &masks)
    }

    #[test]
    fn skyscraper_on_two_rows() {
        // 4 in row 1 only at c1, c5; in row 6 only at c1, c6: r1c5 or r6c6 holds 4.
        let b = only_in_rows(4, &[0, 5], &[0, 4, 45, 50]);
        let step = turbot(&b, Technique::Skyscraper).unwrap();
        // r2c6, r3c6 (box 2, column 6) and r4c5, r5c5 (column 5, box 5) see both ends.
        assert_eq!(step.eliminations, [14, 23, 31, 40].map(|c| (c, 4)).to_vec());
    }

    #[test]
    fn two_string_kite() {
        // 7 in row 1 only at c2, c8; in column 1 only at r3, r7: r1c2 and r3c1 share box 1, so
        // r1c8 or r7c1 holds 7 and r7c8 loses it.
        let mut masks = vec![0x1ff; 81];
        for c in 0..9 {
            if c != 1 && c != 7 {
                masks[c] &= !(1 << 6);
            }
            if c != 2 && c != 6 {
                masks[c * 9] &= !(1 << 6);
            }
        }
        let b = Board::with_candidates(&Grid::empty(Shape::CLASSIC), &masks);
        let step = turbot(&b, Technique::TwoStringKite).unwrap();
        assert_eq!(step.eliminations, vec![(6 * 9 + 7, 7)]);
    }
}
