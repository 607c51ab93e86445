//! Fish: X-Wing, Swordfish, Jellyfish. `size` rows (or columns) whose places for a digit all lie
//! in `size` columns (rows): the digit leaves the rest of those columns (rows). Finned fish: the
//! extra places (fins) lie in one box, and only the cells of that box are cleared; sashimi when a
//! base line keeps at most one place outside the fins.
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
                let reason = || {
                    format!(
                        "{} of {} lie in {}",
                        value_char(digit),
                        names.join(", "),
                        covers.join(", ")
                    )
                };
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

/// A finned (or, with `sashimi`, a sashimi) fish of `size` base lines.
pub fn finned(board: &Board, size: usize, sashimi: bool) -> Option<Step> {
    let n = board.size();
    let technique = match (size, sashimi) {
        (2, false) => Technique::FinnedXWing,
        (2, true) => Technique::SashimiXWing,
        (3, false) => Technique::FinnedSwordfish,
        (3, true) => Technique::SashimiSwordfish,
        (_, false) => Technique::FinnedJellyfish,
        (_, true) => Technique::SashimiJellyfish,
    };
    for digit in 1..=n as u8 {
        for (base_start, cover_start) in [(0, n), (n, 0)] {
            // Fins lie in one box: at most a box's width of extra cover lines.
            let width = if base_start == 0 {
                board.shape().box_cols()
            } else {
                board.shape().box_rows()
            };
            let masks: Vec<u32> = (base_start..base_start + n)
                .map(|u| board.place_mask(u, digit))
                .collect();
            let lines: Vec<usize> = (base_start..base_start + n)
                .filter(|&u| {
                    let k = masks[u - base_start].count_ones() as usize;
                    (1..=size + width).contains(&k)
                })
                .collect();
            let mut found = None;
            combinations(&lines, size, &mut |base| {
                let union = base.iter().fold(0, |m, &u| m | masks[u - base_start]);
                let spread = union.count_ones() as usize;
                if spread <= size || spread > size + width {
                    return false;
                }
                let columns: Vec<usize> = digits(union).map(|i| i as usize - 1).collect();
                combinations(&columns, size, &mut |covers| {
                    let fish = Fish {
                        digit,
                        base,
                        masks: &masks,
                        base_start,
                        covers,
                        cover_start,
                    };
                    found =
                        finned_step(board, &fish, sashimi).map(|step| Step { technique, ..step });
                    found.is_some()
                })
            });
            if found.is_some() {
                return found;
            }
        }
    }
    None
}

/// A fish being tried: base lines (units) and cover lines (indices from `cover_start`), with
/// the digit's place masks of all lines of the base kind (from `base_start`).
struct Fish<'a> {
    digit: u8,
    base: &'a [usize],
    masks: &'a [u32],
    base_start: usize,
    covers: &'a [usize],
    cover_start: usize,
}

/// The finned fish on `base` lines with cover lines `covers` (indices), if its fins lie in one
/// box, it is sashimi exactly when asked, and it eliminates.
fn finned_step(board: &Board, fish: &Fish, sashimi: bool) -> Option<Step> {
    let Fish {
        digit,
        base,
        masks,
        base_start,
        covers,
        cover_start,
    } = *fish;
    let cover_mask = covers.iter().fold(0u32, |m, &i| m | 1 << i);
    let mut fin_box = None;
    let mut thin = false;
    for &u in base {
        let places = masks[u - base_start];
        thin |= (places & cover_mask).count_ones() <= 1;
        for i in digits(places & !cover_mask) {
            let b = board.box_of(board.unit(u)[i as usize - 1] as usize);
            if *fin_box.get_or_insert(b) != b {
                return None;
            }
        }
    }
    let fin_box = fin_box?;
    if thin != sashimi {
        return None;
    }
    let base_cells: Vec<usize> = base.iter().flat_map(|&u| board.places(u, digit)).collect();
    let mut eliminations = Vec::new();
    for &i in covers {
        for c in board.places(cover_start + i, digit) {
            if board.box_of(c) == fin_box && !base_cells.contains(&c) {
                eliminations.push((c, digit));
            }
        }
    }
    let reason = || {
        let names: Vec<String> = base.iter().map(|&u| board.unit_name(u)).collect();
        let cover_names: Vec<String> = covers
            .iter()
            .map(|&i| board.unit_name(cover_start + i))
            .collect();
        let fins: Vec<usize> = base_cells
            .iter()
            .copied()
            .filter(|&c| {
                let line = if cover_start == 0 {
                    board.row(c)
                } else {
                    board.col(c)
                };
                cover_mask >> line & 1 == 0
            })
            .collect();
        format!(
            "{} of {} lie in {} but for the fins {}",
            value_char(digit),
            names.join(", "),
            cover_names.join(", "),
            super::step::cell_list(board, &fins)
        )
    };
    Step::eliminating(
        Technique::FinnedXWing,
        eliminations,
        base_cells.clone(),
        reason,
    )
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

    #[test]
    fn finned_x_wing() {
        // 5 of row 1 only at c2, c6; of row 4 at c2, c6 and the fin r4c4: r5c6 and r6c6 (in the
        // fin's box and column 6) lose 5.
        let grid = Grid::empty(Shape::CLASSIC);
        let mut masks = vec![0x1ff; 81];
        for (row, keep) in [(0, vec![1, 5]), (3, vec![1, 3, 5])] {
            for col in 0..9 {
                if !keep.contains(&col) {
                    masks[row * 9 + col] &= !(1 << 4);
                }
            }
        }
        let b = Board::with_candidates(&grid, &masks);
        assert!(basic(&b, 2).is_none());
        let step = finned(&b, 2, false).unwrap();
        assert_eq!(step.technique, Technique::FinnedXWing);
        assert_eq!(step.eliminations, vec![(41, 5), (50, 5)]);
    }
}
