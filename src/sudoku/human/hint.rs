//! The protocol's `hint`: the next step for a grid, optionally with the candidates a player
//! keeps.
//!
//! `hint [box MxN] <grid> [candidates <list>]` (grids up to 16x16): the grid is N*N characters (`.` or `0` empty),
//! rows optionally separated by `/`; the shape comes from `box` or, for square boxes, from the
//! length. `candidates` lists every cell row-major, comma-separated: the candidate digits of an
//! empty cell (`A` = 10, ...), anything (e.g. `.`) for a filled cell. The answer is
//! `hint <technique-id> place <cells> eliminate <cells> cells <cells> text <words>`, each list
//! comma-separated `r<row>c<col>=<digit>` (rows and columns from 1) or `-`; `hint solved` for a
//! full grid.
use super::board::Board;
use super::path::{check_candidates, next_step, unique_solution};
use super::step::Step;
use crate::sudoku::{Grid, Shape, char_value, value_char};

/// The largest grid side a hint is given for (larger grids could hold the session too long).
const MAX_HINT_SIZE: usize = 16;

/// The `hint` answer line for the command's arguments, or the reason it is refused.
pub fn hint(args: &[String]) -> Result<String, String> {
    let mut rest = args;
    let mut shape = None;
    if let [key, value, tail @ ..] = rest
        && key == "box"
    {
        shape = Some(value.parse::<Shape>().map_err(|e| e.to_string())?);
        rest = tail;
    }
    let (grid_text, rest) = rest
        .split_first()
        .ok_or("hint needs a grid: hint [box MxN] <grid> [candidates <list>]")?;
    let cands = match rest {
        [] => None,
        [key, list] if key == "candidates" => Some(list.as_str()),
        _ => return Err("hint takes a grid, then optionally 'candidates <list>'".to_string()),
    };
    let cells: String = grid_text.chars().filter(|&c| c != '/').collect();
    let shape = match shape {
        Some(shape) => shape,
        None => Shape::from_cell_count(cells.chars().count()).ok_or_else(|| {
            format!(
                "cannot infer the box shape from {} cells; give 'box MxN'",
                cells.chars().count()
            )
        })?,
    };
    if shape.size() > MAX_HINT_SIZE {
        return Err(format!(
            "hint takes grids up to {MAX_HINT_SIZE}x{MAX_HINT_SIZE}, not {0}x{0}",
            shape.size()
        ));
    }
    let grid = Grid::parse(shape, &cells).map_err(|e| e.to_string())?;
    let solution = unique_solution(&grid).map_err(|e| e.to_string())?;
    let board = match cands {
        Some(list) => Board::with_candidates(&grid, &parse_candidates(&grid, list)?),
        None => Board::new(&grid),
    };
    check_candidates(&board, &solution).map_err(|e| format!("contradictory candidates: {e}"))?;
    if board.is_solved() {
        return Ok("hint solved".to_string());
    }
    let step = next_step(&board, &solution).expect("brute force always applies");
    Ok(answer(&board, &step))
}

/// The candidate masks of a `candidates` list.
fn parse_candidates(grid: &Grid, list: &str) -> Result<Vec<u32>, String> {
    let entries: Vec<&str> = list.split(',').collect();
    let cells = grid.shape().cells();
    if entries.len() != cells {
        return Err(format!(
            "candidates: expected {cells} comma-separated entries, found {}",
            entries.len()
        ));
    }
    let n = grid.size();
    entries
        .iter()
        .enumerate()
        .map(|(cell, entry)| {
            if grid.get(cell) != 0 {
                return Ok(0);
            }
            entry
                .chars()
                .try_fold(0u32, |mask, ch| match char_value(ch) {
                    Some(d) if d >= 1 && usize::from(d) <= n => Ok(mask | 1 << (d - 1)),
                    _ => Err(format!(
                        "candidates: bad digit {ch:?} for r{}c{}",
                        cell / n + 1,
                        cell % n + 1
                    )),
                })
        })
        .collect()
}

/// `hint <id> place ... eliminate ... cells ... text ...`.
fn answer(board: &Board, step: &Step) -> String {
    let list = |items: Vec<String>| {
        if items.is_empty() {
            "-".to_string()
        } else {
            items.join(",")
        }
    };
    let pairs = |list: &[(usize, u8)]| {
        list.iter()
            .map(|&(c, d)| format!("{}={}", board.cell_name(c), value_char(d)))
            .collect()
    };
    format!(
        "hint {} place {} eliminate {} cells {} text {}",
        step.technique.id(),
        list(pairs(&step.placements)),
        list(pairs(&step.eliminations)),
        list(step.cells.iter().map(|&c| board.cell_name(c)).collect()),
        step.describe(board)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn hints_the_next_step_with_or_without_candidates() {
        let grid = ".2../.41./2143/432.";
        assert_eq!(
            hint(&args(grid)).unwrap(),
            "hint full-house place r4c4=1 eliminate - cells r4c4 text Full House: r4c4=1 \
             (last empty cell of row 4)"
        );
        // With r1c1 kept to {1,3} and r4c4's 1 ignored for a filled cell, the hint is the same.
        let cands = "13,.,3,4,3,.,.,2,.,.,.,.,.,.,.,1";
        let with = hint(&args(&format!("{grid} candidates {cands}"))).unwrap();
        assert!(with.starts_with("hint full-house place r4c4=1 "), "{with}");
        let full = "1234/3412/2143/4321";
        assert_eq!(hint(&args(full)).unwrap(), "hint solved");
        let six = "box 2x3 ......64..1.....35......36.4..5....2";
        assert!(hint(&args(six)).unwrap().starts_with("hint "));
    }

    #[test]
    fn refuses_bad_input() {
        for (line, why) in [
            ("", "needs a grid"),
            (".2../.41./2143/43", "cannot infer"),
            ("box 9x9 ....", "unsupported"),
            ("box 5x5 ....", "up to 16x16"),
            (".2../.41./2143/432x", "bad character"),
            ("22../.41./2143/432.", "contradictory clues"),
            ("..../..../..../....", "several solutions"),
            (".2../.41./2143/432. candidates 1", "expected 16"),
            (".2../.41./2143/432. cands 1", "optionally"),
            (
                ".2../.41./2143/432. candidates 1,2,3,4,5,6,7,8,9,1,2,3,4,5,6,7",
                "bad digit '5' for r2c1",
            ),
        ] {
            let err = hint(&args(line)).unwrap_err();
            assert!(err.contains(why), "{line}: {err}");
        }
        // r1c1 is 1 in the solution; candidates without it contradict the grid.
        let cands = "23,.,3,4,3,.,.,2,.,.,.,.,.,.,.,1";
        let err = hint(&args(&format!(".2../.41./2143/432. candidates {cands}"))).unwrap_err();
        assert!(
            err.starts_with("contradictory candidates: the candidates of r1c1"),
            "{err}"
        );
    }
}
