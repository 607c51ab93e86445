//! Reading puzzle files: one grid per line, comments and blank lines skipped.
use std::io::{self, Read};
use std::path::Path;

use crate::sudoku::{Grid, Shape};

/// The whole input: the file, or standard input for `None` or `-`.
pub fn read_input(file: Option<&Path>) -> Result<String, String> {
    match file {
        Some(path) if path != Path::new("-") => std::fs::read_to_string(path)
            .map_err(|e| format!("error: cannot read {}: {e}", path.display())),
        _ => {
            let mut text = String::new();
            io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| format!("error: cannot read standard input: {e}"))?;
            Ok(text)
        }
    }
}

/// The puzzle lines with their 1-based line numbers: trimmed, without blank and `#` lines.
pub fn puzzle_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
}

/// Parses one line with the given shape, or the shape its length implies.
pub fn parse_line(shape: Option<Shape>, line: &str) -> Result<Grid, String> {
    let shape = match shape {
        Some(shape) => shape,
        None => {
            let cells = line.chars().count();
            Shape::from_cell_count(cells).ok_or_else(|| {
                format!(
                    "cannot infer the box shape from {cells} cells \
                     (16, 81, 256 or 625 expected); use --box MxN"
                )
            })?
        }
    };
    Grid::parse(shape, line).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skips_comments_and_blank_lines() {
        let text = "# header\n\n 1234 \n#x\n....\n";
        let lines: Vec<_> = puzzle_lines(text).collect();
        assert_eq!(lines, vec![(3, "1234"), (5, "....")]);
    }

    #[test]
    fn infers_square_shapes_only() {
        assert!(parse_line(None, &".".repeat(16)).is_ok());
        assert!(
            parse_line(None, &".".repeat(36))
                .unwrap_err()
                .contains("--box")
        );
        let six: Shape = "2x3".parse().unwrap();
        assert!(parse_line(Some(six), &".".repeat(36)).is_ok());
    }
}
