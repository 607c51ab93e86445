//! Blokus in protocol mode: `newgame blokus [variant NAME]` (see [`Variant::ALL`]: `classic`,
//! `two`, `three`, `duo`, `junior`, the Trigon and the Callisto variants), `position startpos
//! [moves <move> ...]`, `legal`, `show`, `go`.

use super::board::{Board, Variant};
use super::book::Book;
use super::game::Game;
use super::last_tree::{self, LastTree};
use super::level;
use super::mcts::{Mcts, MctsSearch};
use crate::games::{EngineOptions, GameSession, Legal, SearchJob};
use crate::search::{Info, Limits, SearchControl, iterative};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The game state the protocol sees.
pub struct BlokusSession {
    game: Game,
    /// The last search's tree, for the next search of this game (shared with the worker).
    last: Arc<Mutex<LastTree>>,
}

impl BlokusSession {
    /// A new game from `newgame` parameters.
    pub fn new(params: &[(String, String)]) -> Result<Self, String> {
        let mut variant = Variant::Classic;
        for (key, value) in params {
            match key.as_str() {
                "variant" => variant = Variant::parse(value)?,
                _ => return Err(format!("unknown blokus parameter '{key}' (known: variant)")),
            }
        }
        Ok(BlokusSession {
            game: Game::new(variant),
            last: Arc::default(),
        })
    }
}

impl BlokusSession {
    /// The legal moves of the colour to move, in notation.
    fn legal_names(&self) -> Vec<String> {
        let mut b = self.game.board.clone();
        let Some(c) = b.effective_to_play() else {
            return Vec::new();
        };
        let t = b.tables();
        self.game.legal(c).iter().map(|&m| t.move_name(m)).collect()
    }
}

/// Parses `startpos [moves <move> ...]` into a game (nothing is changed on error).
fn parse_position(variant: Variant, args: &[String]) -> Result<Game, String> {
    let mut game = Game::new(variant);
    match args.first().map(String::as_str) {
        Some("startpos") => {}
        Some(other) => return Err(format!("position needs startpos, got '{other}'")),
        None => return Err("position needs startpos".into()),
    }
    match args.get(1).map(String::as_str) {
        None => return Ok(game),
        Some("moves") => {}
        Some(other) => return Err(format!("expected 'moves' after startpos, got '{other}'")),
    }
    for (i, text) in args[2..].iter().enumerate() {
        game.play_text(text)
            .map_err(|e| format!("move {} ('{text}'): {e}", i + 1))?;
    }
    Ok(game)
}

impl GameSession for BlokusSession {
    fn name(&self) -> &'static str {
        "blokus"
    }

    fn set_position(&mut self, args: &[String]) -> Result<(), String> {
        self.game = parse_position(self.game.variant(), args)?;
        Ok(())
    }

    fn legal_moves(&self) -> Legal {
        self.legal_names().into()
    }

    fn show(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "blokus variant {} moves {}",
            self.game.variant().name(),
            self.game.board.nmoves()
        )];
        lines.extend(self.game.show());
        lines
    }

    fn search_job(
        &self,
        limits: &Limits,
        options: &EngineOptions,
    ) -> Result<Box<dyn SearchJob>, String> {
        // `go infinite` and several lines (`MultiPV`) analyse: they always search. The low
        // levels take the book's moves only for each colour's first two, as the reference
        // engine's do.
        let colours = self.game.board.ncolours();
        let book_here = level::uses_book(options.level, self.game.history.len(), colours);
        let book = (options.own_book && !limits.infinite && options.multipv == 1 && book_here)
            .then(|| Book::builtin(self.game.variant()))
            .flatten()
            .and_then(|book| book.lookup(self.game.variant(), &self.game.history))
            .filter(|&m| {
                let mut b = self.game.board.clone();
                b.effective_to_play().is_some_and(|c| b.is_legal(c, m))
            })
            .map(|m| self.game.board.tables().move_name(m));
        let mut board = self.game.board.clone();
        let playouts = board
            .effective_to_play()
            .and_then(|c| level::playout_budget(&board, c, options.level));
        Ok(Box::new(BlokusJob {
            fallback: self.legal_names().into_iter().take(1).collect(),
            book,
            board: self.game.board.clone(),
            history: self.game.history.clone(),
            seed: options.seed,
            threads: level::threads(playouts, options.threads),
            playouts,
            lines: options.multipv,
            last: Arc::clone(&self.last),
        }))
    }
}

/// A search of one position, owned by the worker thread.
struct BlokusJob {
    fallback: Vec<String>,
    /// The opening book's move here, played without a search.
    book: Option<String>,
    board: Board,
    history: Vec<(usize, u16)>,
    seed: u64,
    threads: usize,
    /// The playing level's playouts for this move (`None`: full strength).
    playouts: Option<u64>,
    /// How many best lines to report (`MultiPV`).
    lines: usize,
    /// The game's last search tree: taken if it serves this position, the new one kept.
    last: Arc<Mutex<LastTree>>,
}

impl SearchJob for BlokusJob {
    fn run(self: Box<Self>, control: &SearchControl, report: &mut dyn FnMut(&Info)) -> Vec<String> {
        if let Some(m) = self.book {
            return vec![m];
        }
        let reused = self
            .last
            .lock()
            .ok()
            .and_then(|mut last| last.take_for(&self.history, &self.board, self.seed));
        let reused_visits = reused.as_ref().map_or(0, Mcts::root_visits);
        let capped;
        let control = match self.playouts {
            Some(budget) => {
                capped =
                    control.capped(Some(last_tree::playouts_left(budget, reused_visits)), None);
                &capped
            }
            None => control,
        };
        let settings = SearchSettings {
            seed: self.seed,
            threads: self.threads,
            lines: self.lines,
        };
        let (mut line, tree) = search_tree(
            reused,
            &self.board,
            &self.history,
            &settings,
            control,
            report,
        );
        if let Ok(mut last) = self.last.lock() {
            last.keep(self.history, tree);
        }
        line.truncate(1);
        line
    }

    fn fallback(&self) -> Vec<String> {
        self.fallback.clone()
    }
}

/// How a search runs, beside its limits.
#[derive(Debug, Clone)]
pub struct SearchSettings {
    /// Seed of the playouts' random choices.
    pub seed: u64,
    /// Threads (root parallelism: each grows its own tree, the root visit counts are summed).
    pub threads: usize,
    /// How many best lines the search reports (`MultiPV`).
    pub lines: usize,
}

/// Searches `board` for the colour to move, growing `tree` (whose root must be `board`) when
/// given. Returns the best line in notation (empty when the game is over) and the main
/// thread's tree for reuse at the next move.
pub fn search_tree(
    tree: Option<Mcts>,
    board: &Board,
    history: &[(usize, u16)],
    settings: &SearchSettings,
    control: &SearchControl,
    report: &mut dyn FnMut(&Info),
) -> (Vec<String>, Option<Mcts>) {
    let (seed, threads) = (settings.seed, settings.threads);
    let mut b = board.clone();
    if b.skip_to_mover().is_none() {
        return (Vec::new(), None);
    }
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads.max(1))
            .map(|i| {
                let done = &done;
                let b = &b;
                scope.spawn(move || {
                    let mut m = Mcts::new(b, seed.wrapping_add(0x9E37 * i as u64));
                    m.set_history(history);
                    m.ensure_root();
                    while !done.load(Ordering::Relaxed) && !control.must_stop(0) {
                        for _ in 0..8 {
                            m.run_once();
                        }
                    }
                    m.root_stats()
                })
            })
            .collect();
        let mut main = match tree {
            Some(t) => MctsSearch::from_tree(t),
            None => MctsSearch::new(&b, seed),
        };
        main.lines = settings.lines.max(1);
        main.mcts.set_history(history);
        let pv = iterative::deepen(&mut main, control, report);
        done.store(true, Ordering::Relaxed);
        if helpers.is_empty() {
            return (pv, Some(main.mcts));
        }
        let mut total: Vec<(u16, u64)> = main
            .mcts
            .root_stats()
            .iter()
            .map(|s| (s.0, s.1 as u64))
            .collect();
        for h in helpers {
            if let Ok(stats) = h.join() {
                for (m, visits, _) in stats {
                    if let Some(e) = total.iter_mut().find(|e| e.0 == m) {
                        e.1 += visits as u64;
                    }
                }
            }
        }
        let Some(&(best, _)) = total.iter().max_by_key(|e| e.1) else {
            return (pv, Some(main.mcts));
        };
        let name = b.tables().move_name(best);
        let line = if pv.first() == Some(&name) {
            pv
        } else {
            vec![name]
        };
        (line, Some(main.mcts))
    })
}
