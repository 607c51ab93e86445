//! Naked and hidden subsets (pairs, triples, quadruples), and the locked pairs and triples: a
//! naked subset inside one box and one line, removing its digits from both.
use super::board::{Board, digit_list, digits};
use super::step::{Step, cell_list};
use super::technique::Technique;

/// A naked subset of `size` cells whose digits leave both its box and its line.
pub fn locked(board: &Board, size: usize) -> Option<Step> {
    let n = board.size();
    naked_in(board, size, 2 * n..3 * n, true)
}

/// A naked subset of `size` cells (one that is not locked), boxes first, then rows, columns.
pub fn naked(board: &Board, size: usize) -> Option<Step> {
    let n = board.size();
    naked_in(board, size, (2 * n..3 * n).chain(0..2 * n), false)
}

fn naked_in(
    board: &Board,
    size: usize,
    units: impl Iterator<Item = usize>,
    want_locked: bool,
) -> Option<Step> {
    for unit in units {
        let cells: Vec<usize> = board
            .unit(unit)
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| (1..=size).contains(&(board.cands(c).count_ones() as usize)))
            .collect();
        let mut found = None;
        combinations(&cells, size, &mut |chosen| {
            let mask = chosen.iter().fold(0, |m, &c| m | board.cands(c));
            if mask.count_ones() as usize != size {
                return false;
            }
            found = naked_step(board, size, chosen, mask, want_locked);
            found.is_some()
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// The step of a naked subset, if it eliminates and is locked exactly when `want_locked`.
fn naked_step(
    board: &Board,
    size: usize,
    cells: &[usize],
    mask: u32,
    want_locked: bool,
) -> Option<Step> {
    let shared: Vec<usize> = board
        .units_of(cells[0])
        .into_iter()
        .filter(|u| cells.iter().all(|&c| board.units_of(c).contains(u)))
        .collect();
    let home_box = board.units_of(cells[0])[2];
    let (mut in_box, mut outside_box) = (false, false);
    let mut eliminations = Vec::new();
    for &unit in &shared {
        for &c in board.unit(unit) {
            let c = c as usize;
            if cells.contains(&c) || board.cands(c) & mask == 0 {
                continue;
            }
            if unit == home_box {
                in_box = true;
            } else if board.box_of(c) + 2 * board.size() != home_box {
                outside_box = true;
            }
            for d in digits(board.cands(c) & mask) {
                if !eliminations.contains(&(c, d)) {
                    eliminations.push((c, d));
                }
            }
        }
    }
    let is_locked = size < 4 && shared.len() == 2 && in_box && outside_box;
    if is_locked != want_locked {
        return None;
    }
    let technique = match (is_locked, size) {
        (true, 2) => Technique::LockedPair,
        (true, _) => Technique::LockedTriple,
        (false, 2) => Technique::NakedPair,
        (false, 3) => Technique::NakedTriple,
        _ => Technique::NakedQuad,
    };
    let reason = || {
        format!(
            "{} hold only {} in {}",
            cell_list(board, cells),
            digit_list(mask),
            board.unit_name(shared[0])
        )
    };
    Step::eliminating(technique, eliminations, cells.to_vec(), reason)
}

/// A hidden subset: `size` digits of a unit with places in `size` cells only; the cells lose
/// their other candidates. Boxes first, then rows, columns.
pub fn hidden(board: &Board, size: usize) -> Option<Step> {
    let n = board.size();
    let technique = match size {
        2 => Technique::HiddenPair,
        3 => Technique::HiddenTriple,
        _ => Technique::HiddenQuad,
    };
    for unit in (2 * n..3 * n).chain(0..2 * n) {
        let free: Vec<usize> = (1..=n)
            .filter(|&d| {
                (1..=size).contains(&(board.place_mask(unit, d as u8).count_ones() as usize))
            })
            .collect();
        let mut found = None;
        combinations(&free, size, &mut |chosen| {
            let places = chosen
                .iter()
                .fold(0, |m, &d| m | board.place_mask(unit, d as u8));
            if places.count_ones() as usize != size {
                return false;
            }
            let keep = chosen.iter().fold(0u32, |m, &d| m | 1 << (d - 1));
            let cells: Vec<usize> = digits(places)
                .map(|i| board.unit(unit)[i as usize - 1] as usize)
                .collect();
            let eliminations: Vec<(usize, u8)> = cells
                .iter()
                .flat_map(|&c| digits(board.cands(c) & !keep).map(move |d| (c, d)))
                .collect();
            let reason = || {
                format!(
                    "{} only in {} of {}",
                    digit_list(keep),
                    cell_list(board, &cells),
                    board.unit_name(unit)
                )
            };
            found = Step::eliminating(technique, eliminations, cells.clone(), reason);
            found.is_some()
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Calls `f` on every `size`-subset of `items` in lexicographic order until it returns true.
pub fn combinations(items: &[usize], size: usize, f: &mut impl FnMut(&[usize]) -> bool) -> bool {
    fn go(
        items: &[usize],
        size: usize,
        start: usize,
        chosen: &mut Vec<usize>,
        f: &mut impl FnMut(&[usize]) -> bool,
    ) -> bool {
        if chosen.len() == size {
            return f(chosen);
        }
        for i in start..items.len() {
            if items.len() - i < size - chosen.len() {
                break;
            }
            chosen.push(items[i]);
            if go(items, size, i + 1, chosen, f) {
                return true;
            }
            chosen.pop();
        }
        false
    }
    go(items, size, 0, &mut Vec::with_capacity(size), f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::{Grid, Shape};

    fn board_with(line: &str, cands: &[(usize, &str)]) -> Board {
        let grid = Grid::parse(Shape::CLASSIC, line).unwrap();
        let mut masks = vec![0x1ff; 81];
        for &(cell, list) in cands {
            masks[cell] = list.bytes().fold(0, |m, b| m | 1 << (b - b'1'));
        }
        Board::with_candidates(&grid, &masks)
    }

    #[test]
    fn naked_pair_in_a_row_and_locked_pair_in_a_box() {
        let empty = ".".repeat(81);
        // r1c1 and r1c5 hold {3,7}: the rest of row 1 loses 3 and 7.
        let b = board_with(&empty, &[(0, "37"), (4, "37")]);
        let step = naked(&b, 2).unwrap();
        assert_eq!(step.technique, Technique::NakedPair);
        assert!(step.eliminations.contains(&(8, 3)) && !step.eliminations.contains(&(9, 3)));
        // r1c1 and r1c2 hold {3,7}: box 1 and row 1 both lose them.
        let b = board_with(&empty, &[(0, "37"), (1, "37")]);
        let step = locked(&b, 2).unwrap();
        assert_eq!(step.technique, Technique::LockedPair);
        assert!(step.eliminations.contains(&(8, 7)) && step.eliminations.contains(&(9, 7)));
    }

    #[test]
    fn hidden_pair_in_a_box() {
        // 1 and 2 only in r1c1 and r2c2 of box 1.
        let others: Vec<(usize, &str)> = [1, 2, 9, 11, 18, 19, 20]
            .into_iter()
            .map(|c| (c, "3456789"))
            .collect();
        let b = board_with(&".".repeat(81), &others);
        let step = hidden(&b, 2).unwrap();
        assert_eq!(step.technique, Technique::HiddenPair);
        assert_eq!(step.cells, vec![0, 10]);
        assert!(step.eliminations.contains(&(0, 9)));
    }

    #[test]
    fn combinations_in_order() {
        let mut seen = Vec::new();
        combinations(&[1, 2, 3, 4], 3, &mut |c| {
            seen.push(c.to_vec());
            false
        });
        assert_eq!(seen.len(), 4);
        assert_eq!(seen[0], vec![1, 2, 3]);
    }
}
