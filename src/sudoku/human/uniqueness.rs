//! Uniqueness: Unique Rectangle types 1 and 2, and BUG+1. They rely on the puzzle having one
//! solution (every path checks that first): a pattern that would allow two solutions cannot
//! appear in the solution.
use super::board::{Board, digit_list, digits};
use super::step::{Step, cell_list};
use super::technique::Technique;
use crate::sudoku::value_char;

/// Unique Rectangle type 1 (`kind` 1): three corners {a,b}, the fourth loses a and b. Type 2
/// (`kind` 2): two corners on a line {a,b}, the other two {a,b,c}: c leaves the cells seeing both.
pub fn unique_rectangle(board: &Board, kind: u8) -> Option<Step> {
    let n = board.size();
    let technique = if kind == 1 {
        Technique::UniqueRectangle1
    } else {
        Technique::UniqueRectangle2
    };
    for r1 in 0..n {
        for r2 in r1 + 1..n {
            for c1 in 0..n {
                for c2 in c1 + 1..n {
                    let corners = [r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2];
                    let boxes = {
                        let mut b: Vec<usize> = corners.iter().map(|&c| board.box_of(c)).collect();
                        b.sort_unstable();
                        b.dedup();
                        b.len()
                    };
                    if boxes != 2 || corners.iter().any(|&c| board.value(c) != 0) {
                        continue;
                    }
                    let common = corners.iter().fold(u32::MAX, |m, &c| m & board.cands(c));
                    if common.count_ones() < 2 {
                        continue;
                    }
                    for pair in pairs(common) {
                        let step = if kind == 1 {
                            type_1(board, &corners, pair)
                        } else {
                            type_2(board, &corners, pair)
                        };
                        if let Some(step) = step {
                            return Some(Step { technique, ..step });
                        }
                    }
                }
            }
        }
    }
    None
}

/// Every two-digit mask inside `mask`.
fn pairs(mask: u32) -> impl Iterator<Item = u32> {
    let list: Vec<u8> = digits(mask).collect();
    let mut out = Vec::new();
    for (i, &a) in list.iter().enumerate() {
        for &b in &list[i + 1..] {
            out.push(1 << (a - 1) | 1 << (b - 1));
        }
    }
    out.into_iter()
}

fn type_1(board: &Board, corners: &[usize; 4], pair: u32) -> Option<Step> {
    let extra: Vec<usize> = corners
        .iter()
        .copied()
        .filter(|&c| board.cands(c) != pair)
        .collect();
    let [target] = extra[..] else {
        return None;
    };
    let eliminations = digits(pair).map(|d| (target, d)).collect();
    let reason = || {
        format!(
            "{} would hold only {} in two ways",
            cell_list(board, corners),
            digit_list(pair)
        )
    };
    Step::eliminating(
        Technique::UniqueRectangle1,
        eliminations,
        corners.to_vec(),
        reason,
    )
}

fn type_2(board: &Board, corners: &[usize; 4], pair: u32) -> Option<Step> {
    let roof: Vec<usize> = corners
        .iter()
        .copied()
        .filter(|&c| board.cands(c) != pair)
        .collect();
    let [a, b] = roof[..] else {
        return None;
    };
    let extra = board.cands(a) & !pair;
    let on_line = board.row(a) == board.row(b) || board.col(a) == board.col(b);
    if !on_line || extra.count_ones() != 1 || board.cands(b) != board.cands(a) {
        return None;
    }
    let digit = digits(extra).next().expect("one extra digit");
    let eliminations: Vec<(usize, u8)> = (0..board.cells())
        .filter(|&c| {
            board.has(c, digit) && c != a && c != b && board.sees(c, a) && board.sees(c, b)
        })
        .map(|c| (c, digit))
        .collect();
    let reason = || {
        format!(
            "{} would hold only {} in two ways unless {} or {} is {}",
            cell_list(board, corners),
            digit_list(pair),
            board.cell_name(a),
            board.cell_name(b),
            value_char(digit)
        )
    };
    Step::eliminating(
        Technique::UniqueRectangle2,
        eliminations,
        corners.to_vec(),
        reason,
    )
}

/// BUG+1: every empty cell holds two candidates but one, which holds three, and each candidate
/// appears twice in each unit but one: the cell takes the digit that appears three times.
pub fn bug_plus_one(board: &Board) -> Option<Step> {
    let mut triple = None;
    for cell in 0..board.cells() {
        match board.cands(cell).count_ones() {
            0 | 2 => {}
            3 if triple.is_none() => triple = Some(cell),
            _ => return None,
        }
    }
    let cell = triple?;
    let [row, ..] = board.units_of(cell);
    let digit = digits(board.cands(cell)).find(|&d| board.places(row, d).count() == 3)?;
    for unit in 0..board.units() {
        for d in 1..=board.size() as u8 {
            let count = board.places(unit, d).count();
            let extra = usize::from(d == digit && board.units_of(cell).contains(&unit));
            if count != 0 && count != 2 + extra {
                return None;
            }
        }
    }
    let reason = || {
        format!(
            "all other cells hold two candidates; any digit but {} in {} leaves two solutions",
            value_char(digit),
            board.cell_name(cell)
        )
    };
    Some(Step::placing(Technique::BugPlusOne, cell, digit, reason()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::{Grid, Shape};

    fn board_with(cands: &[(usize, u32)]) -> Board {
        let mut masks = vec![0x1ff; 81];
        for &(cell, mask) in cands {
            masks[cell] = mask;
        }
        Board::with_candidates(&Grid::empty(Shape::CLASSIC), &masks)
    }

    #[test]
    fn unique_rectangles() {
        // r1c1, r1c4, r2c1 {1,2}; r2c4 {1,2,5}: r2c4 loses 1 and 2.
        let b = board_with(&[(0, 0b11), (3, 0b11), (9, 0b11), (12, 0b10011)]);
        let step = unique_rectangle(&b, 1).unwrap();
        assert_eq!(step.eliminations, vec![(12, 1), (12, 2)]);
        // r1c1, r1c4 {1,2}; r2c1, r2c4 {1,2,5}: 5 leaves row 2 elsewhere.
        let b = board_with(&[(0, 0b11), (3, 0b11), (9, 0b10011), (12, 0b10011)]);
        let step = unique_rectangle(&b, 2).unwrap();
        assert!(step.eliminations.contains(&(17, 5)) && !step.eliminations.contains(&(26, 5)));
    }
}
