//! The GTP game commands for GembloQ (`play`, `genmove`, `all_legal`, `final_score`,
//! `showboard`, `undo`, `clear_board`), answered as the reference engine answers them; the
//! Blokus GTP front end hands them here while a GembloQ game is set.

use super::book::GembloqBook;
use super::position::{Position, quarters_text};
use super::search::{GembloqSearch, Tree};
use super::variant::GembloqVariant;
use crate::games::FULL_STRENGTH;
use crate::games::blokus::gtp_colour::parse_colour;
use crate::games::blokus::last_tree;
use crate::games::blokus::level;
use crate::search::iterative;

/// How `genmove` searches: the seed and the client's limits (`tessera gtp`'s options).
#[derive(Debug, Clone, Copy, Default)]
pub struct Budget {
    /// Seed of the search's random choices (the front end moves it on with every `genmove`).
    pub seed: u64,
    /// Playing level (1-9 count playouts as the reference engine's levels; 10 or none: full
    /// strength).
    pub level: Option<u32>,
    /// Playouts per move.
    pub nodes: Option<u64>,
    /// Thinking time per move in milliseconds (1000 unless playouts are counted).
    pub movetime: Option<u64>,
    /// Do not play the built-in opening book's moves.
    pub nobook: bool,
}

/// A GembloQ game over GTP: the position and the moves that led to it.
pub struct GembloqGame {
    pos: Position,
    /// The placements so far: (colour, placement).
    history: Vec<(usize, u32)>,
    /// The last search's tree and the number of placements at its root.
    last: Option<(usize, Tree)>,
}

impl GembloqGame {
    /// A new game of `variant`.
    pub fn new(variant: GembloqVariant) -> GembloqGame {
        GembloqGame {
            pos: Position::new(variant),
            history: Vec::new(),
            last: None,
        }
    }

    /// The game after a record's moves: (colour, move text) in order, each checked.
    pub fn from_moves(variant: GembloqVariant, moves: &[(usize, String)]) -> Result<Self, String> {
        let mut g = GembloqGame::new(variant);
        let names = variant.colour_names();
        for (i, (c, text)) in moves.iter().enumerate() {
            g.play_text(*c, text)
                .map_err(|e| format!("move {} ({} '{text}'): {e}", i + 1, names[*c]))?;
        }
        Ok(g)
    }

    /// Plays a move in notation for colour `c` if legal; nothing changes otherwise.
    pub fn play_text(&mut self, c: usize, text: &str) -> Result<(), String> {
        let p = self.pos.placements();
        let m = p.parse(text).map_err(|e| format!("invalid move: {e}"))?;
        self.pos
            .check(c, m)
            .map_err(|e| format!("illegal move '{}': {e}", p.name(m)))?;
        self.pos.play(c, m);
        self.history.push((c, m));
        Ok(())
    }

    /// Answers a game command (`None`: not one of them); `genmove` searches within `budget`.
    pub fn command(
        &mut self,
        name: &str,
        args: &[&str],
        budget: &Budget,
    ) -> Option<Result<String, String>> {
        let v = self.pos.variant();
        let colour = || parse_colour(args.first().copied(), v.ncolours());
        Some(match name {
            "clear_board" => {
                *self = GembloqGame::new(v);
                Ok(String::new())
            }
            "play" => colour().and_then(|c| {
                let text = args[1..].join("");
                if text.is_empty() {
                    return Err("missing move argument".into());
                }
                if text.eq_ignore_ascii_case("pass") {
                    return Err("play pass not supported".into());
                }
                self.play_text(c, &text).map(|()| String::new())
            }),
            "genmove" => colour().map(|c| self.genmove(c, budget)),
            "all_legal" => colour().map(|c| {
                let p = self.pos.placements();
                let names: Vec<String> = self.pos.legal(c).iter().map(|&m| p.name(m)).collect();
                names.join("\n")
            }),
            "final_score" => Ok(self.final_score()),
            "showboard" => Ok(format!("\n{}", self.show().join("\n"))),
            "undo" => {
                if self.history.pop().is_none() {
                    return Some(Err("cannot undo".into()));
                }
                let moves = std::mem::take(&mut self.history);
                *self = GembloqGame::new(v);
                for (c, m) in moves {
                    self.pos.play(c, m);
                    self.history.push((c, m));
                }
                Ok(String::new())
            }
            _ => return None,
        })
    }

    fn genmove(&mut self, c: usize, budget: &Budget) -> String {
        if !self.pos.has_moves(c) {
            return "pass".to_string();
        }
        if let Some(m) = self.book_move(c, budget) {
            self.pos.play(c, m);
            self.history.push((c, m));
            return self.pos.placements().name(m);
        }
        let seed = budget.seed;
        let placed = (0..super::placements::PIECES)
            .filter(|&k| !self.pos.has_piece(c, k))
            .count();
        let level = budget.level.unwrap_or(FULL_STRENGTH);
        let budget_playouts = level::gembloq_playout_budget(self.pos.variant(), placed, level);
        let reused = (self.last.take())
            .filter(|(at, _)| *at <= self.history.len())
            .and_then(|(at, tree)| tree.descend(&self.history[at..], &self.pos, c, seed));
        let tree = reused.unwrap_or_else(|| Tree::new(&self.pos, c, seed));
        // A level counts the root's visits, those kept from the last search included (as the
        // reference engine's levels do).
        let level_playouts =
            budget_playouts.map(|p| last_tree::playouts_left(p, tree.root_visits()));
        let control = last_tree::genmove_control(budget.movetime, budget.nodes, level_playouts);
        let mut search = GembloqSearch::new(tree);
        let report = &mut |info: &crate::search::Info| {
            log::debug!(
                "nodes {} time {} score {} pv {}",
                info.nodes,
                info.time_ms,
                info.score,
                info.pv.join(" ")
            );
        };
        let line = iterative::deepen(&mut search, &control, report);
        let p = self.pos.placements();
        let chosen = (line.first())
            .and_then(|text| p.parse(text).ok())
            .or_else(|| search.tree.best_move());
        self.last = Some((self.history.len(), search.tree));
        match chosen {
            Some(m) if self.pos.check(c, m).is_ok() => {
                self.pos.play(c, m);
                self.history.push((c, m));
                p.name(m)
            }
            _ => "pass".to_string(),
        }
    }

    /// The built-in book's move for colour `c` here, where the level takes the book (every
    /// colour's first two moves, and more from level 4 up, as for the other variants) and the
    /// game went in turn.
    fn book_move(&self, c: usize, budget: &Budget) -> Option<u32> {
        let v = self.pos.variant();
        let level = budget.level.unwrap_or(FULL_STRENGTH);
        let n = self.history.len();
        if budget.nobook || !level::uses_book(level, n, v.ncolours()) || n % v.ncolours() != c {
            return None;
        }
        let m = GembloqBook::builtin(v)?.lookup(v, &self.history)?;
        self.pos.check(c, m).is_ok().then_some(m)
    }

    /// Each colour's points (more than two players), else `B+N`, `W+N` or `0`.
    fn final_score(&self) -> String {
        let v = self.pos.variant();
        if v.nplayers() > 2 {
            let texts: Vec<String> = (0..v.ncolours())
                .map(|c| quarters_text(self.pos.quarters(c)))
                .collect();
            return texts.join(" ");
        }
        let p = self.pos.player_quarters();
        let d = p[0] - p[1];
        match d.cmp(&0) {
            std::cmp::Ordering::Greater => format!("B+{}", quarters_text(d)),
            std::cmp::Ordering::Less => format!("W+{}", quarters_text(-d)),
            std::cmp::Ordering::Equal => "0".to_string(),
        }
    }

    /// Lines showing the position to people: the board (rows numbered from the bottom), each
    /// colour's points and pieces left, who is to play.
    fn show(&self) -> Vec<String> {
        let pos = &self.pos;
        let p = pos.placements();
        let v = pos.variant();
        let mut lines: Vec<String> = (pos.rows().into_iter().enumerate())
            .map(|(i, row)| format!("{:>2} {row}", p.geo.height - i))
            .collect();
        for (c, name) in v.colour_names().iter().enumerate() {
            let left: Vec<&str> = (0..p.shapes.len())
                .filter(|&k| pos.has_piece(c, k))
                .map(|k| p.shapes[k].name)
                .collect();
            lines.push(format!(
                "{} {name} points {} pieces left {}: {}",
                c + 1,
                quarters_text(pos.quarters(c)),
                left.len(),
                if left.is_empty() {
                    "-".to_string()
                } else {
                    left.join(" ")
                }
            ));
        }
        lines.push(match pos.next_mover() {
            Some(c) => format!("to play {} {}", c + 1, v.colour_names()[c]),
            None => "game over".to_string(),
        });
        lines
    }
}
