//! Singles: Full House, Naked Single, Hidden Single.
use super::board::{Board, digits};
use super::step::Step;
use super::technique::Technique;
use crate::sudoku::value_char;

/// The last empty cell of a unit.
pub fn full_house(board: &Board) -> Option<Step> {
    (0..board.units()).find_map(|unit| {
        let mut empty = board
            .unit(unit)
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| board.value(c) == 0);
        let cell = empty.next()?;
        if empty.next().is_some() || board.cands(cell).count_ones() != 1 {
            return None;
        }
        let digit = digits(board.cands(cell)).next()?;
        let reason = format!("last empty cell of {}", board.unit_name(unit));
        Some(Step::placing(Technique::FullHouse, cell, digit, reason))
    })
}

/// A cell with one candidate left.
pub fn naked_single(board: &Board) -> Option<Step> {
    (0..board.cells()).find_map(|cell| {
        let cands = board.cands(cell);
        (cands.count_ones() == 1).then(|| {
            let digit = digits(cands).next().expect("one candidate");
            let reason = format!("only candidate left in {}", board.cell_name(cell));
            Step::placing(Technique::NakedSingle, cell, digit, reason)
        })
    })
}

/// A digit with one place left in a unit (boxes first, then rows, then columns).
pub fn hidden_single(board: &Board) -> Option<Step> {
    let n = board.size();
    let order = (2 * n..3 * n).chain(0..2 * n);
    for unit in order {
        for digit in 1..=n as u8 {
            let mut places = board.places(unit, digit);
            if let (Some(cell), None) = (places.next(), places.next()) {
                let reason = format!(
                    "only place for {} in {}",
                    value_char(digit),
                    board.unit_name(unit)
                );
                return Some(Step::placing(Technique::HiddenSingle, cell, digit, reason));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::{Grid, Shape};

    fn board(line: &str) -> Board {
        Board::new(&Grid::parse(Shape::CLASSIC, line).unwrap())
    }

    #[test]
    fn finds_each_single() {
        // Row 1 misses only its last cell.
        let b = board(&format!("12345678.{}", ".".repeat(72)));
        let step = full_house(&b).unwrap();
        assert_eq!(step.placements, vec![(8, 9)]);
        assert_eq!(
            step.describe(&b),
            "Full House: r1c9=9 (last empty cell of row 1)"
        );
        // r1c1 sees 1-8 in its row and column: 9 is its only candidate.
        let b = board(&format!(
            ".1234{}5{}6{}7{}8{}",
            ".".repeat(13),
            ".".repeat(8),
            ".".repeat(8),
            ".".repeat(8),
            ".".repeat(35)
        ));
        assert_eq!(naked_single(&b).unwrap().placements, vec![(0, 9)]);
        // 5 in rows 2 and 3 and columns 2 and 3 (r2c4, r3c7, r4c2, r7c3) leaves r1c1 the only 5 of box 1.
        let mut line = vec!['.'; 81];
        for cell in [12, 24, 28, 56] {
            line[cell] = '5';
        }
        let b = board(&line.iter().collect::<String>());
        let step = hidden_single(&b).unwrap();
        assert_eq!(step.placements, vec![(0, 5)]);
        assert!(step.reason.contains("box 1"));
    }
}
