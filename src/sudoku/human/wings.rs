//! Wings: XY-Wing, XYZ-Wing and W-Wing.
use super::board::{Board, digit_list, digits};
use super::step::{Step, cell_list};
use super::technique::Technique;
use crate::sudoku::value_char;

/// The cells (outside `pattern`) that see every cell of `seen` and hold `digit`, as eliminations.
fn seeing_all(board: &Board, digit: u8, seen: &[usize], pattern: &[usize]) -> Vec<(usize, u8)> {
    board
        .peers(seen[0])
        .iter()
        .map(|&c| c as usize)
        .filter(|&c| {
            board.has(c, digit) && !pattern.contains(&c) && seen.iter().all(|&s| board.sees(c, s))
        })
        .map(|c| (c, digit))
        .collect()
}

/// XY-Wing (`xyz` false): a pivot {x,y} seeing pincers {x,z} and {y,z}: z leaves the cells that
/// see both pincers. XYZ-Wing (`xyz` true): the pivot is {x,y,z}; z leaves the cells that see
/// all three.
pub fn xy_wing(board: &Board, xyz: bool) -> Option<Step> {
    let technique = if xyz {
        Technique::XyzWing
    } else {
        Technique::XyWing
    };
    let pivot_size = if xyz { 3 } else { 2 };
    for pivot in 0..board.cells() {
        let pc = board.cands(pivot);
        if pc.count_ones() != pivot_size {
            continue;
        }
        let pincers: Vec<usize> = board
            .peers(pivot)
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| board.cands(c).count_ones() == 2)
            .collect();
        for (i, &p1) in pincers.iter().enumerate() {
            for &p2 in &pincers[i + 1..] {
                let (a, b) = (board.cands(p1), board.cands(p2));
                let z = a & b;
                if a == b || z.count_ones() != 1 {
                    continue;
                }
                let fits = if xyz {
                    a | b == pc
                } else {
                    z & pc == 0 && (a | b) & !z == pc
                };
                if !fits {
                    continue;
                }
                let digit = digits(z).next().expect("one common digit");
                let seen: Vec<usize> = if xyz {
                    vec![pivot, p1, p2]
                } else {
                    vec![p1, p2]
                };
                let cells = vec![pivot, p1, p2];
                let eliminations = seeing_all(board, digit, &seen, &cells);
                let reason = || {
                    format!(
                        "pivot {} {{{}}}, pincers {} {{{}}} and {} {{{}}}",
                        board.cell_name(pivot),
                        digit_list(pc),
                        board.cell_name(p1),
                        digit_list(a),
                        board.cell_name(p2),
                        digit_list(b)
                    )
                };
                if let Some(step) = Step::eliminating(technique, eliminations, cells, reason) {
                    return Some(step);
                }
            }
        }
    }
    None
}

/// W-Wing: two cells {x,y} that do not see each other, joined by a strong link on x whose ends
/// see one each: y leaves the cells that see both.
pub fn w_wing(board: &Board) -> Option<Step> {
    let pairs: Vec<usize> = (0..board.cells())
        .filter(|&c| board.cands(c).count_ones() == 2)
        .collect();
    for (i, &p) in pairs.iter().enumerate() {
        for &q in &pairs[i + 1..] {
            let mask = board.cands(p);
            if board.cands(q) != mask || board.sees(p, q) {
                continue;
            }
            for x in digits(mask) {
                let y = digits(mask & !(1 << (x - 1))).next().expect("two digits");
                for unit in 0..board.units() {
                    let places: Vec<usize> = board.places(unit, x).collect();
                    let [s1, s2] = places[..] else {
                        continue;
                    };
                    for (a, b) in [(s1, s2), (s2, s1)] {
                        if [a, b].iter().any(|c| *c == p || *c == q)
                            || !board.sees(a, p)
                            || !board.sees(b, q)
                        {
                            continue;
                        }
                        let cells = vec![p, q, a, b];
                        let eliminations = seeing_all(board, y, &[p, q], &cells);
                        let reason = || {
                            format!(
                                "{} and {} hold {{{}}}; {x} of {} is in {} or {}",
                                board.cell_name(p),
                                board.cell_name(q),
                                digit_list(mask),
                                board.unit_name(unit),
                                cell_list(board, &[a]),
                                cell_list(board, &[b]),
                                x = value_char(x),
                            )
                        };
                        if let Some(step) =
                            Step::eliminating(Technique::WWing, eliminations, cells, reason)
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

#[cfg(test)]
mod tests {
    use super::super::board::board_with;
    use super::*;

    #[test]
    fn xy_wing_and_xyz_wing() {
        // Pivot r1c1 {1,2}, pincers r1c5 {1,3} and r5c1 {2,3}: r5c5 cannot be 3.
        let b = board_with(&[(0, 0b011), (4, 0b101), (36, 0b110)]);
        let step = xy_wing(&b, false).unwrap();
        assert_eq!(step.eliminations, vec![(40, 3)]);
        // Pivot r1c1 {1,2,3}, pincers r1c5 {1,3} and r1c3 {2,3}: only row 1 sees all three.
        let b = board_with(&[(0, 0b111), (4, 0b101), (2, 0b110)]);
        let step = xy_wing(&b, true).unwrap();
        assert_eq!(
            step.eliminations,
            [1, 3, 5, 6, 7, 8].map(|c| (c, 3)).to_vec()
        );
    }

    #[test]
    fn w_wing_on_a_row() {
        // r1c1 and r5c5 hold {4,6}; 6 of row 9 only at r9c1 and r9c5: 4 leaves r1c5 and r5c1.
        let mut cands = vec![(0, 0b101000), (40, 0b101000)];
        cands.extend(
            (72..81)
                .filter(|&c| c != 72 && c != 76)
                .map(|c| (c, 0b11111_u32)),
        );
        let b = board_with(&cands);
        let step = w_wing(&b).unwrap();
        assert_eq!(step.eliminations, vec![(4, 4), (36, 4)]);
    }
}
