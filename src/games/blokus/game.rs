//! A game record: the board plus the moves that led to it, with checked play, passes and undo.

use super::board::{Board, MoveGen, PASS, Variant};
use super::geometry::Geometry;
use super::tables::Contact;

/// A board and its history.
#[derive(Clone)]
pub struct Game {
    /// The current position.
    pub board: Board,
    /// The moves so far: (colour, move id or [`PASS`]).
    pub history: Vec<(usize, u16)>,
}

impl Game {
    /// A new game of `variant`.
    pub fn new(variant: Variant) -> Game {
        Game {
            board: Board::new(variant),
            history: Vec::new(),
        }
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.board.variant
    }

    /// Legal moves of colour `c`.
    pub fn legal(&self, c: usize) -> Vec<u16> {
        let mut b = self.board.clone();
        let mut mg = MoveGen::new(b.tables());
        let mut out = Vec::new();
        b.gen_moves(c, &mut mg, &mut out);
        out
    }

    /// Plays move `m` for colour `c` if legal; nothing changes otherwise.
    pub fn play(&mut self, c: usize, m: u16) -> Result<(), String> {
        let t = self.board.tables();
        let mi = &t.moves[m as usize];
        if self.board.left(c, mi.piece as usize) == 0 {
            return Err(format!(
                "illegal move '{}': {} has no piece {} left",
                t.move_name(m),
                self.variant().colour_names()[c],
                t.shapes[mi.piece as usize].name
            ));
        }
        if !self.board.is_legal(c, m) {
            let b = &self.board;
            let word = t.geo.cell_word();
            let free = mi.points().iter().all(|&p| b.is_free_for(c, p as usize));
            let why = if t.rules.contact == Contact::Corner {
                if b.is_first_piece(c) {
                    self.first_piece_rule(c)
                } else {
                    format!(
                        "a piece must touch its own colour at a corner, never along an edge, and cover only empty {word}s"
                    )
                }
            } else if !free {
                "a piece must cover only empty squares".to_string()
            } else if t.is_loose(mi.piece as usize) {
                "a single square may not go in the centre section".to_string()
            } else if !b.contact_open(c) {
                "a colour's first two pieces are single squares".to_string()
            } else {
                "a piece must touch its own colour along an edge".to_string()
            };
            return Err(format!(
                "illegal move '{}' for {}: {why}",
                t.move_name(m),
                self.variant().colour_names()[c]
            ));
        }
        self.board.play(c, m);
        self.history.push((c, m));
        Ok(())
    }

    /// The rule a colour's first piece broke: the starting points it must cover, by name.
    fn first_piece_rule(&self, c: usize) -> String {
        let variant = self.variant();
        let t = self.board.tables();
        let starts = variant.starts(c);
        let names: Vec<String> = starts.iter().map(|&p| t.point_name(p)).collect();
        let word = t.geo.cell_word();
        match starts.len() {
            1 => format!(
                "a colour's first piece must cover its starting {word} {}",
                names[0]
            ),
            _ if variant.shared_starts() => format!(
                "a colour's first piece must cover one of the starting points ({})",
                names.join(" ")
            ),
            _ => format!(
                "a colour's first piece must cover one of its starting {word}s ({})",
                names.join(" ")
            ),
        }
    }

    /// Plays a move in notation for the next colour that can move (`pass` only for a colour
    /// that has no legal move).
    pub fn play_text(&mut self, text: &str) -> Result<(), String> {
        if text == "pass" {
            let c = self.board.to_play();
            if self.board.has_moves(c) {
                return Err(format!(
                    "illegal pass: {} has a legal move",
                    self.variant().colour_names()[c]
                ));
            }
            self.board.pass(c);
            self.history.push((c, PASS));
            return Ok(());
        }
        let m = self.board.tables().parse_move(text)?;
        let Some(c) = self.board.effective_to_play() else {
            return Err(format!("move '{text}' after the end of the game"));
        };
        self.play(c, m)?;
        Ok(())
    }

    /// Takes back the last placement (and any passes after it); false if there is none.
    pub fn undo(&mut self) -> bool {
        while let Some(&(_, m)) = self.history.last() {
            if m != PASS {
                break;
            }
            self.history.pop();
        }
        if self.history.pop().is_none() {
            return false;
        }
        let moves = std::mem::take(&mut self.history);
        let mut g = Game::new(self.variant());
        for (c, m) in moves {
            if m == PASS {
                g.board.pass(c);
            } else {
                g.board.play(c, m);
            }
            g.history.push((c, m));
        }
        *self = g;
        true
    }

    /// Lines showing the position to people.
    pub fn show(&self) -> Vec<String> {
        let b = &self.board;
        let t = b.tables();
        let v = self.variant();
        let names = v.colour_names();
        let mut lines = Vec::new();
        let geo = &t.geo;
        // Columns past `z` have two letters.
        let w = if geo.width > 26 { 3 } else { 2 };
        let header: String = (0..geo.width)
            .map(|x| format!("{:>w$}", Geometry::column_name(x)))
            .collect();
        lines.push(format!("   {header}"));
        for (i, row) in b.rows().iter().enumerate() {
            let cells: String = row.chars().map(|ch| format!("{ch:>w$}")).collect();
            lines.push(format!("{:>2} {cells}", geo.height - i));
        }
        let mut bc = b.clone();
        let mover = bc.effective_to_play();
        for (c, name) in names.iter().enumerate() {
            let left: Vec<&str> = (0..t.npieces())
                .flat_map(|k| std::iter::repeat_n(t.shapes[k].name, b.left(c, k) as usize))
                .collect();
            lines.push(format!(
                "{} {name} points {} pieces left {}: {}",
                c + 1,
                b.points(c),
                left.len(),
                if left.is_empty() {
                    "-".to_string()
                } else {
                    left.join(" ")
                }
            ));
        }
        lines.push(match mover {
            Some(c) => format!("to play {} {}", c + 1, names[c]),
            None => format!("game over, points {:?}", b.player_points()),
        });
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undo_restores_the_position() {
        let mut g = Game::new(Variant::Duo);
        g.play_text("e10,e11").unwrap();
        g.play_text("j5").unwrap();
        assert_eq!(g.legal(0).len(), g.clone().legal(0).len());
        let before = g.legal(0);
        g.play_text("f12,f13,f14").unwrap();
        assert!(g.undo());
        assert_eq!(g.legal(0), before);
        assert_eq!(g.board.to_play(), 0);
        assert!(g.play_text("pass").is_err(), "black can move");
        assert!(g.play_text("e10").is_err(), "occupied");
        assert_eq!(g.history.len(), 2);
    }
}
