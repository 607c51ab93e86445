//! One step of a solution path: the technique, the cells and digits it reads, and what it
//! places and eliminates.
use super::board::Board;
use super::technique::Technique;
use crate::sudoku::value_char;

/// One application of a technique.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The technique used.
    pub technique: Technique,
    /// Cells (row-major indices) and digits set.
    pub placements: Vec<(usize, u8)>,
    /// Cells and the candidates removed from them.
    pub eliminations: Vec<(usize, u8)>,
    /// The cells of the pattern.
    pub cells: Vec<usize>,
    /// Why it holds, in words (e.g. `only place for 5 in box 2`).
    pub reason: String,
}

impl Step {
    /// A step that places `digit` in `cell`.
    pub fn placing(technique: Technique, cell: usize, digit: u8, reason: String) -> Step {
        Step {
            technique,
            placements: vec![(cell, digit)],
            eliminations: Vec::new(),
            cells: vec![cell],
            reason,
        }
    }

    /// A step that removes candidates, or `None` when it removes none (`reason` is only
    /// written for a step).
    pub fn eliminating(
        technique: Technique,
        eliminations: Vec<(usize, u8)>,
        cells: Vec<usize>,
        reason: impl FnOnce() -> String,
    ) -> Option<Step> {
        (!eliminations.is_empty()).then(|| Step {
            technique,
            placements: Vec::new(),
            eliminations,
            cells,
            reason: reason(),
        })
    }

    /// Applies the step to `board`.
    pub fn apply(&self, board: &mut Board) {
        for &(cell, digit) in &self.placements {
            board.place(cell, digit);
        }
        for &(cell, digit) in &self.eliminations {
            board.eliminate(cell, digit);
        }
    }

    /// The step in words: `Hidden Single: r3c4=5 (only place for 5 in box 2)`.
    pub fn describe(&self, board: &Board) -> String {
        let placed = self
            .placements
            .iter()
            .map(|&(c, d)| format!("{}={}", board.cell_name(c), value_char(d)));
        let removed = self
            .eliminations
            .iter()
            .map(|&(c, d)| format!("{}<>{}", board.cell_name(c), value_char(d)));
        let actions: Vec<String> = placed.chain(removed).collect();
        format!(
            "{}: {} ({})",
            self.technique,
            actions.join(", "),
            self.reason
        )
    }
}

/// `r1c2,r1c5`: the names of several cells.
pub fn cell_list(board: &Board, cells: &[usize]) -> String {
    let names: Vec<String> = cells.iter().map(|&c| board.cell_name(c)).collect();
    names.join(",")
}
