//! Locked candidates: a digit of a box confined to one line (pointing), or of a line confined
//! to one box (claiming).
use super::board::Board;
use super::step::{Step, cell_list};
use super::technique::Technique;
use crate::sudoku::value_char;

/// Pointing: in a box, `digit` lies in one row or column only; it leaves the rest of that line.
pub fn pointing(board: &Board) -> Option<Step> {
    let n = board.size();
    confined(board, Technique::Pointing, 2 * n..3 * n, |cell| {
        let [row, col, _] = board.units_of(cell);
        [row, col]
    })
}

/// Claiming: in a row or column, `digit` lies in one box only; it leaves the rest of the box.
pub fn claiming(board: &Board) -> Option<Step> {
    let n = board.size();
    confined(board, Technique::Claiming, 0..2 * n, |cell| {
        [board.units_of(cell)[2]; 2]
    })
}

/// The first unit of `units` whose places for a digit all share one of the units `around`
/// gives of its first place, with candidates to remove in that other unit.
fn confined(
    board: &Board,
    technique: Technique,
    units: std::ops::Range<usize>,
    around: impl Fn(usize) -> [usize; 2],
) -> Option<Step> {
    let n = board.size();
    for unit in units {
        for digit in 1..=n as u8 {
            let places: Vec<usize> = board.places(unit, digit).collect();
            let Some(&first) = places.first() else {
                continue;
            };
            for other in around(first) {
                if !places.iter().all(|&c| board.units_of(c).contains(&other)) {
                    continue;
                }
                let eliminations: Vec<(usize, u8)> = board
                    .places(other, digit)
                    .filter(|c| !places.contains(c))
                    .map(|c| (c, digit))
                    .collect();
                let reason = || {
                    format!(
                        "{} of {} lie in {}: {}",
                        value_char(digit),
                        board.unit_name(unit),
                        board.unit_name(other),
                        cell_list(board, &places)
                    )
                };
                if let Some(step) =
                    Step::eliminating(technique, eliminations, places.clone(), reason)
                {
                    return Some(step);
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

    /// An empty board without `digit` in `cells`.
    fn without(digit: u8, cells: impl Iterator<Item = usize>) -> Board {
        let mut masks = vec![0x1ff; 81];
        for c in cells {
            masks[c] &= !(1 << (digit - 1));
        }
        Board::with_candidates(&Grid::empty(Shape::CLASSIC), &masks)
    }

    #[test]
    fn pointing_and_claiming() {
        // Box 1 keeps its 1s in row 1 only: row 1 loses 1 outside box 1.
        let b = without(1, [9, 10, 11, 18, 19, 20].into_iter());
        let step = pointing(&b).unwrap();
        assert_eq!(step.cells, vec![0, 1, 2]);
        assert_eq!(
            step.eliminations,
            (3..9).map(|c| (c, 1)).collect::<Vec<_>>()
        );
        // Row 1 keeps its 1s in box 1 only: box 1 loses 1 outside row 1.
        let b = without(1, 3..9);
        assert!(pointing(&b).is_none());
        let step = claiming(&b).unwrap();
        assert_eq!(
            step.eliminations,
            [9, 10, 11, 18, 19, 20].map(|c| (c, 1)).to_vec()
        );
        assert!(
            step.describe(&b)
                .starts_with("Locked Candidates Type 2 (Claiming): r2c1<>1")
        );
    }
}
