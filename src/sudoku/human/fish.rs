//! Basic fish: X-Wing, Swordfish, Jellyfish. `size` rows (or columns) whose places for a digit
//! all lie in `size` columns (rows): the digit leaves the rest of those columns (rows).
use super::board::{Board, digits};
use super::step::Step;
use super::subsets::combinations;
use super::technique::Technique;
use crate::sudoku::value_char;

/// A basic fish of `size` base lines (2: X-Wing, 3: Swordfish, 4: Jellyfish).
pub fn basic(board: &Board, size: usize) -> Option<Step> {
    let n = board.size();
    let technique = match size {
        2 => Technique::XWing,
        3 => Technique::Swordfish,
        _ => Technique::Jellyfish,
    };
    for digit in 1..=n as u8 {
        // Base rows with cover columns, then base columns with cover rows.
        for (base_start, cover_start) in [(0, n), (n, 0)] {
            let lines: Vec<usize> = (base_start..base_start + n)
                .filter(|&u| {
                    (2..=size).contains(&(board.place_mask(u, digit).count_ones() as usize))
                })
                .collect();
            let mut found = None;
            combinations(&lines, size, &mut |base| {
                let covers = base.iter().fold(0, |m, &u| m | board.place_mask(u, digit));
                if covers.count_ones() as usize != size {
                    return false;
                }
                let base_index: Vec<usize> = base.iter().map(|&u| u - base_start).collect();
                let mut eliminations = Vec::new();
                let mut cells = Vec::new();
                for i in digits(covers) {
                    let cover = cover_start + i as usize - 1;
                    for (j, c) in board.unit(cover).iter().map(|&c| c as usize).enumerate() {
                        if !board.has(c, digit) {
                            continue;
                        }
                        if base_index.contains(&j) {
                            cells.push(c);
                        } else {
                            eliminations.push((c, digit));
                        }
                    }
                }
                let names: Vec<String> = base.iter().map(|&u| board.unit_name(u)).collect();
                let covers: Vec<String> = digits(covers)
                    .map(|i| board.unit_name(cover_start + i as usize - 1))
                    .collect();
                let reason = format!(
                    "{} of {} lie in {}",
                    value_char(digit),
                    names.join(", "),
                    covers.join(", ")
                );
                found = Step::eliminating(technique, eliminations, cells, reason);
                found.is_some()
            });
            if found.is_some() {
                return found;
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::{Grid, Shape};

    #[test]
    fn x_wing_on_rows() {
        // 5 can go only to columns 2 and 6 in rows 1 and 4.
        let grid = Grid::empty(Shape::CLASSIC);
        let mut masks = vec![0x1ff; 81];
        for row in [0, 3] {
            for col in 0..9 {
                if col != 1 && col != 5 {
                    masks[row * 9 + col] &= !(1 << 4);
                }
            }
        }
        let b = Board::with_candidates(&grid, &masks);
        let step = basic(&b, 2).unwrap();
        assert_eq!(step.technique, Technique::XWing);
        assert_eq!(step.cells, vec![1, 28, 5, 32]);
        assert!(step.eliminations.contains(&(10, 5)) && step.eliminations.contains(&(77, 5)));
        assert_eq!(step.eliminations.len(), 14);
    }
}
