//! Remote Pair: cells holding the same two digits {a,b}, linked by seeing one another, alternate
//! a and b along the chain. Two cells an odd number of links apart (three or more) hold a and b
//! between them, so a cell seeing both loses a and b.
use super::board::{Board, digit_list, digits};
use super::step::Step;
use super::technique::Technique;

/// A remote pair of four or more cells.
pub fn remote_pair(board: &Board) -> Option<Step> {
    let pairs: Vec<usize> = (0..board.cells())
        .filter(|&c| board.cands(c).count_ones() == 2)
        .collect();
    for (i, &first) in pairs.iter().enumerate() {
        let mask = board.cands(first);
        if pairs[..i].iter().any(|&c| board.cands(c) == mask) {
            continue; // this pair's cells were searched from an earlier cell
        }
        let cells: Vec<usize> = pairs[i..]
            .iter()
            .copied()
            .filter(|&c| board.cands(c) == mask)
            .collect();
        for (k, &from) in cells.iter().enumerate() {
            let distance = distances(board, &cells, k);
            for (j, &to) in cells.iter().enumerate() {
                let Some(d) = distance[j] else { continue };
                if d < 3 || d % 2 == 0 || to < from {
                    continue;
                }
                let eliminations: Vec<(usize, u8)> = board
                    .peers(from)
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| board.sees(c, to) && !cells.contains(&c))
                    .flat_map(|c| digits(board.cands(c) & mask).map(move |x| (c, x)))
                    .collect();
                let reason = || {
                    format!(
                        "{} and {} are {d} links apart on a chain of {{{}}} cells: one holds each",
                        board.cell_name(from),
                        board.cell_name(to),
                        digit_list(mask)
                    )
                };
                let used: Vec<usize> = cells
                    .iter()
                    .zip(&distance)
                    .filter(|(_, d)| d.is_some())
                    .map(|(&c, _)| c)
                    .collect();
                if let Some(step) =
                    Step::eliminating(Technique::RemotePair, eliminations, used, reason)
                {
                    return Some(step);
                }
            }
        }
    }
    None
}

/// Links (cells seeing each other) from `cells[start]` to every cell of `cells`, if reachable.
/// `None` everywhere but the start when an odd cycle makes the parities unclear.
fn distances(board: &Board, cells: &[usize], start: usize) -> Vec<Option<usize>> {
    let mut distance = vec![None; cells.len()];
    distance[start] = Some(0);
    let mut queue = vec![start];
    let mut next = 0;
    while next < queue.len() {
        let i = queue[next];
        next += 1;
        let d = distance[i].expect("queued cells have a distance");
        for j in 0..cells.len() {
            if !board.sees(cells[i], cells[j]) {
                continue;
            }
            match distance[j] {
                None => {
                    distance[j] = Some(d + 1);
                    queue.push(j);
                }
                Some(e) if e % 2 == d % 2 => {
                    let mut alone = vec![None; cells.len()];
                    alone[start] = Some(0);
                    return alone;
                }
                Some(_) => {}
            }
        }
    }
    distance
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::{Grid, Shape};

    #[test]
    fn four_cells_make_a_remote_pair() {
        // {2,7} in r1c1 - r1c5 - r4c5 - r4c8: r1c1 and r4c8 hold 2 and 7 between them, so
        // r1c8 and r4c1, seeing both, lose 2 and 7.
        let mut masks = vec![0x1ff; 81];
        for cell in [0, 4, 31, 34] {
            masks[cell] = 0b1000010;
        }
        let b = Board::with_candidates(&Grid::empty(Shape::CLASSIC), &masks);
        let step = remote_pair(&b).unwrap();
        assert!(step.eliminations.contains(&(7, 2)) && step.eliminations.contains(&(27, 7)));
        assert!(!step.eliminations.contains(&(8, 2)));
    }
}
