//! Uniqueness: Unique Rectangle types 1 and 2, and BUG+1. They rely on the puzzle having one
//! solution (every path checks that first): a pattern that would allow two solutions cannot
//! appear in the solution.
use super::board::{Board, digit_list, digits};
use super::step::{Step, cell_list};
use super::technique::Technique;
use crate::sudoku::value_char;

/// Unique Rectangle type 1 (`kind` 1): three corners {a,b}, the fourth loses a and b. Type 2
/// (`kind` 2): two corners on a line {a,b}, the other two {a,b,c}: c leaves the cells seeing both.
/// Type 4 (`kind` 4): two corners on a line {a,b}, and a confined to the other two in a unit they
/// share: those lose b.
pub fn unique_rectangle(board: &Board, kind: u8) -> Option<Step> {
    let technique = match kind {
        1 => Technique::UniqueRectangle1,
        2 => Technique::UniqueRectangle2,
        _ => Technique::UniqueRectangle4,
    };
    rectangles(board, |corners, pair| {
        let step = match kind {
            1 => type_1(board, corners, pair),
            2 => type_2(board, corners, pair),
            _ => type_4(board, corners, pair),
        };
        step.map(|step| Step { technique, ..step })
    })
}

/// Hidden Rectangle: a corner {a,b}; if a is confined to the rectangle in both the row and the
/// column of the opposite corner, that corner cannot be b.
pub fn hidden_rectangle(board: &Board) -> Option<Step> {
    rectangles(board, |corners, pair| {
        for (i, &corner) in corners.iter().enumerate() {
            if board.cands(corner) != pair {
                continue;
            }
            let opposite = corners[3 - i];
            let [row, col, _] = board.units_of(opposite);
            for a in digits(pair) {
                let b = digits(pair & !(1 << (a - 1))).next().expect("two digits");
                let confined = |unit: usize| board.places(unit, a).all(|c| corners.contains(&c));
                if !confined(row) || !confined(col) || !board.has(opposite, b) {
                    continue;
                }
                let reason = || {
                    format!(
                        "{} holds only {}; {} of row {} and column {} lies in the rectangle {}",
                        board.cell_name(corner),
                        digit_list(pair),
                        value_char(a),
                        board.row(opposite) + 1,
                        board.col(opposite) + 1,
                        cell_list(board, corners)
                    )
                };
                return Step::eliminating(
                    Technique::HiddenRectangle,
                    vec![(opposite, b)],
                    corners.to_vec(),
                    reason,
                );
            }
        }
        None
    })
}

/// The first step `f` finds on a rectangle: four empty corners in two rows, two columns and two
/// boxes (ordered top-left, top-right, bottom-left, bottom-right), with two digits all four hold.
fn rectangles(board: &Board, mut f: impl FnMut(&[usize; 4], u32) -> Option<Step>) -> Option<Step> {
    let n = board.size();
    for r1 in 0..n {
        for r2 in r1 + 1..n {
            for c1 in 0..n {
                for c2 in c1 + 1..n {
                    let corners = [r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2];
                    let same_band = board.box_of(corners[0]) == board.box_of(corners[2]);
                    let same_stack = board.box_of(corners[0]) == board.box_of(corners[1]);
                    if same_band == same_stack {
                        continue; // one box, or four
                    }
                    let common = corners.iter().fold(u32::MAX, |m, &c| m & board.cands(c));
                    if common.count_ones() < 2 {
                        continue;
                    }
                    for pair in pairs(common) {
                        if let Some(step) = f(&corners, pair) {
                            return Some(step);
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

fn type_4(board: &Board, corners: &[usize; 4], pair: u32) -> Option<Step> {
    let roof: Vec<usize> = corners
        .iter()
        .copied()
        .filter(|&c| board.cands(c) != pair)
        .collect();
    let [p, q] = roof[..] else {
        return None;
    };
    if board.row(p) != board.row(q) && board.col(p) != board.col(q) {
        return None;
    }
    let shared: Vec<usize> = board
        .units_of(p)
        .into_iter()
        .filter(|u| board.units_of(q).contains(u))
        .collect();
    for a in digits(pair) {
        let b = digits(pair & !(1 << (a - 1))).next().expect("two digits");
        let Some(&unit) = shared
            .iter()
            .find(|&&u| board.places(u, a).all(|c| c == p || c == q))
        else {
            continue;
        };
        let eliminations = vec![(p, b), (q, b)];
        let reason = || {
            format!(
                "{} would hold only {} in two ways; {} of {} is in {} or {}",
                cell_list(board, corners),
                digit_list(pair),
                value_char(a),
                board.unit_name(unit),
                board.cell_name(p),
                board.cell_name(q)
            )
        };
        return Step::eliminating(
            Technique::UniqueRectangle4,
            eliminations,
            corners.to_vec(),
            reason,
        );
    }
    None
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
    use super::super::board::board_with;
    use super::*;

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
        // r1c1, r1c4 {1,2}; r2c1, r2c4 {1,2,5,6}, 1 of row 2 only there: they lose 2.
        let mut cands = vec![(0, 0b11), (3, 0b11), (9, 0b110011), (12, 0b110011)];
        cands.extend((10..18).filter(|&c| c != 12).map(|c| (c, 0b111111110)));
        let b = board_with(&cands);
        let step = unique_rectangle(&b, 4).unwrap();
        assert_eq!(step.eliminations, vec![(9, 2), (12, 2)]);
    }

    #[test]
    fn hidden_rectangle_removes_the_deadly_digit() {
        // r1c1 {1,2}; 1 of row 2 and of column 4 only in the rectangle r1c1, r1c4, r2c1, r2c4:
        // r2c4 cannot be 2.
        let mut cands = vec![(0, 0b11)];
        cands.extend((10..18).filter(|&c| c != 12).map(|c| (c, 0b111111110)));
        cands.extend((2..9).map(|r| (r * 9 + 3, 0b111111110)));
        let b = board_with(&cands);
        let step = hidden_rectangle(&b).unwrap();
        assert_eq!(step.eliminations, vec![(12, 2)]);
    }
}
