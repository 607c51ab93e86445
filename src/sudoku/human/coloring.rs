//! Simple colors: the strong links of one digit joined into clusters, each cell colored by the
//! parity of its distance. One color is the digit's places in the solution. Trap: a cell seeing
//! both colors loses the digit. Wrap: a color that sees itself is false everywhere.
use super::board::Board;
use super::step::{Step, cell_list};
use super::technique::Technique;
use crate::sudoku::value_char;

/// A simple-colors wrap (`wrap`) or trap.
pub fn simple_colors(board: &Board, wrap: bool) -> Option<Step> {
    let n = board.size();
    for digit in 1..=n as u8 {
        let mut neighbours = vec![Vec::new(); board.cells()];
        for unit in 0..board.units() {
            let places: Vec<usize> = board.places(unit, digit).collect();
            if let [a, b] = places[..] {
                neighbours[a].push(b);
                neighbours[b].push(a);
            }
        }
        let mut color = vec![0u8; board.cells()];
        for start in 0..board.cells() {
            if color[start] != 0 || neighbours[start].is_empty() {
                continue;
            }
            let cluster = paint(&neighbours, &mut color, start);
            if let Some(step) = cluster_step(board, digit, &cluster, &color, wrap) {
                return Some(step);
            }
        }
    }
    None
}

/// Colors the cluster of `start` with 1 and 2 (breadth first); returns its cells.
fn paint(neighbours: &[Vec<usize>], color: &mut [u8], start: usize) -> Vec<usize> {
    color[start] = 1;
    let mut cluster = vec![start];
    let mut next = 0;
    while next < cluster.len() {
        let cell = cluster[next];
        next += 1;
        for &other in &neighbours[cell] {
            if color[other] == 0 {
                color[other] = 3 - color[cell];
                cluster.push(other);
            }
        }
    }
    cluster
}

fn cluster_step(
    board: &Board,
    digit: u8,
    cluster: &[usize],
    color: &[u8],
    wrap: bool,
) -> Option<Step> {
    let of = |k: u8| -> Vec<usize> { cluster.iter().copied().filter(|&c| color[c] == k).collect() };
    let (ones, twos) = (of(1), of(2));
    let d = value_char(digit);
    if !wrap {
        return trap(board, digit, cluster, &ones, &twos);
    }
    for (same, other) in [(&ones, &twos), (&twos, &ones)] {
        let clash = same.iter().enumerate().find_map(|(i, &a)| {
            same[i + 1..]
                .iter()
                .find(|&&b| board.sees(a, b))
                .map(|&b| (a, b))
        });
        if let Some((a, b)) = clash {
            let reason = || {
                format!(
                    "{d}: {} and {} share a color and see each other, so {} hold {d}",
                    board.cell_name(a),
                    board.cell_name(b),
                    cell_list(board, other)
                )
            };
            let eliminations = same.iter().map(|&c| (c, digit)).collect();
            return Step::eliminating(
                Technique::SimpleColorsWrap,
                eliminations,
                cluster.to_vec(),
                reason,
            );
        }
    }
    None
}

/// The cells off the cluster that see both colors lose the digit.
fn trap(
    board: &Board,
    digit: u8,
    cluster: &[usize],
    ones: &[usize],
    twos: &[usize],
) -> Option<Step> {
    let eliminations: Vec<(usize, u8)> = (0..board.cells())
        .filter(|&c| {
            board.has(c, digit)
                && !cluster.contains(&c)
                && ones.iter().any(|&a| board.sees(c, a))
                && twos.iter().any(|&b| board.sees(c, b))
        })
        .map(|c| (c, digit))
        .collect();
    let reason = || {
        format!(
            "{} is in all of {} or all of {}",
            value_char(digit),
            cell_list(board, ones),
            cell_list(board, twos)
        )
    };
    Step::eliminating(
        Technique::SimpleColorsTrap,
        eliminations,
        cluster.to_vec(),
        reason,
    )
}
