//! The course framework's board files: v12 (`m n` then N rows of N tokens, `.` empty) and v14
//! (`key = value` lines: `rows`, `columns`, `board` with `+`/`-` owner marks, `taboo-moves`,
//! `scores`, `current-player`, `allowed-squares1/2`).

use super::rules::{Game, Mode, Move, starting_cells};
use crate::sudoku::{Grid, Shape};

fn number(token: &str) -> Result<usize, String> {
    token
        .parse()
        .map_err(|_| format!("expected a number, got '{token}'"))
}

/// `(r,c) -> v` lists and `(r,c)` lists: all the numbers in order.
fn numbers(text: &str) -> Result<Vec<usize>, String> {
    text.replace(['[', ']', '(', ')', ',', '-', '>'], " ")
        .split_whitespace()
        .map(number)
        .collect()
}

/// Parses a board file of either version; `mode` is the play mode (v14 files do not hold it;
/// v12 files are classic only). Random mode without allowed squares uses `seed`.
pub fn parse_board_file(text: &str, mode: Mode, seed: u64) -> Result<Game, String> {
    if text.contains('=') {
        parse_v14(text, mode, seed)
    } else {
        parse_v12(text, mode, seed)
    }
}

fn shape_of(m: usize, n: usize) -> Result<Shape, String> {
    Shape::new(m, n).map_err(|e| e.to_string())
}

fn fill(game: &mut Game, tokens: &[&str], territory: bool) -> Result<(), String> {
    let n = game.size();
    if tokens.len() != n * n {
        return Err(format!(
            "the board has {} squares, expected {}",
            tokens.len(),
            n * n
        ));
    }
    let mut values = vec![0u8; n * n];
    for (cell, token) in tokens.iter().enumerate() {
        if *token == "." {
            continue;
        }
        let (digits, mark) = match token.strip_suffix(['+', '-']) {
            Some(d) => (d, token.chars().last()),
            None => (*token, None),
        };
        let value = number(digits)?;
        if value == 0 || value > n {
            return Err(format!("value {value} out of range"));
        }
        values[cell] = value as u8;
        if territory {
            game.owner[cell] = match mark {
                Some('+') => 1,
                Some('-') => 2,
                _ => 0,
            };
        }
    }
    game.grid = Grid::from_values(game.grid.shape(), &values).map_err(|e| e.to_string())?;
    Ok(())
}

fn parse_v12(text: &str, mode: Mode, seed: u64) -> Result<Game, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() < 2 {
        return Err("not a board file".into());
    }
    let shape = shape_of(number(words[0])?, number(words[1])?)?;
    let mut game = Game::new(shape, mode, seed);
    fill(&mut game, &words[2..], false)?;
    Ok(game)
}

fn properties(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        let line = line.trim_end();
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if line.starts_with(' ') {
            if let Some(last) = out.last_mut() {
                last.1.push(' ');
                last.1.push_str(line.trim());
            }
        } else {
            let (key, value) = line.split_once('=').unwrap_or((line, ""));
            out.push((key.trim().to_string(), value.trim().to_string()));
        }
    }
    out
}

fn parse_v14(text: &str, mode: Mode, seed: u64) -> Result<Game, String> {
    let props = properties(text);
    let get = |key: &str| {
        props
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    let m = number(get("rows").ok_or("no rows")?)?;
    let n = number(get("columns").ok_or("no columns")?)?;
    let shape = shape_of(m, n)?;
    let size = shape.size();
    let mut game = Game::new(shape, mode, seed);
    let board: Vec<&str> = get("board").ok_or("no board")?.split_whitespace().collect();
    fill(&mut game, &board, mode.is_territory())?;
    if let Some(text) = get("taboo-moves") {
        let items = numbers(text)?;
        for t in items.chunks(3) {
            if t.len() != 3 || t[0] >= size || t[1] >= size || t[2] == 0 || t[2] > size {
                return Err("bad taboo move".into());
            }
            game.taboo.push(Move {
                cell: (t[0] * size + t[1]) as u16,
                value: t[2] as u8,
            });
        }
    }
    if let Some(text) = get("scores") {
        let items = numbers(text)?;
        if items.len() != 2 {
            return Err("scores needs two numbers".into());
        }
        game.scores = [items[0] as u32, items[1] as u32];
    }
    if let Some(text) = get("current-player") {
        game.turn = match text {
            "1" => 0,
            "2" => 1,
            _ => return Err(format!("bad current-player '{text}'")),
        };
    }
    if mode.is_territory() {
        let mut allowed = starting_cells(mode, size, seed);
        for (p, key) in ["allowed-squares1", "allowed-squares2"].iter().enumerate() {
            if let Some(text) = get(key) {
                let items = numbers(text)?;
                allowed[p] = vec![false; size * size];
                for sq in items.chunks(2) {
                    if sq.len() != 2 || sq[0] >= size || sq[1] >= size {
                        return Err(format!("bad square in {key}"));
                    }
                    allowed[p][sq[0] * size + sq[1]] = true;
                }
            }
        }
        game.allowed = allowed;
    }
    Ok(game)
}
