//! The engine's own search, run in-process through the protocol session of each game (the same
//! path as `newgame`, `position`, `pieces` and `go`), with the GIL released while it thinks.

use crate::errors::value_error;
use pyo3::prelude::*;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use tessera::games::{self, EngineOptions, FULL_STRENGTH, MAX_MULTIPV};
use tessera::search::{Info, Limits, SearchControl, time};

/// The `LookaheadFrom` default of protocol mode.
const LOOKAHEAD_FROM: u32 = 28;

/// A state expressed as the protocol commands that recreate it in a fresh session.
pub struct ProtocolState {
    /// `newgame <game>`.
    pub game: &'static str,
    /// The `newgame` parameters.
    pub params: Vec<(String, String)>,
    /// The tokens after `position`.
    pub position: Vec<String>,
    /// The tokens after `pieces` (Blockudoku), if any.
    pub pieces: Option<Vec<String>>,
}

/// What a search found: the line (for Blockudoku the whole hand's placements in play order)
/// and the last progress report.
#[pyclass(module = "tessera_engine._native", frozen, get_all)]
pub struct SearchResult {
    /// The best line in notation; empty when the side to move has no legal move.
    pub line: Vec<String>,
    /// Its evaluation in the game's units (higher is better for the side to move).
    pub score: i64,
    /// The deepest iteration reported.
    pub depth: u32,
    /// Nodes searched (Blokus: playouts).
    pub nodes: u64,
    /// Milliseconds spent.
    pub time_ms: u64,
    /// The best lines with their scores, best first (several with `multipv` above 1; else the
    /// best line alone).
    pub lines: Vec<(Vec<String>, i64)>,
}

impl SearchResult {
    /// The result of a search of a finished game: no move.
    pub fn empty() -> SearchResult {
        SearchResult {
            line: Vec::new(),
            score: 0,
            depth: 0,
            nodes: 0,
            time_ms: 0,
            lines: Vec::new(),
        }
    }
}

#[pymethods]
impl SearchResult {
    /// The move to play: the line's first move, or `None` without a legal move.
    #[getter]
    fn best_move(&self) -> Option<String> {
        self.line.first().cloned()
    }

    fn __repr__(&self) -> String {
        format!(
            "SearchResult(line={:?}, score={}, depth={}, nodes={}, time_ms={}, lines={})",
            self.line,
            self.score,
            self.depth,
            self.nodes,
            self.time_ms,
            self.lines.len()
        )
    }
}

/// The engine options of one search, as given from Python (the protocol's `setoption`s).
#[derive(Debug, Clone)]
pub struct Knobs {
    pub seed: u64,
    pub threads: usize,
    pub own_book: bool,
    pub lookahead_from: Option<u32>,
    pub level: u32,
    pub multipv: usize,
}

impl Knobs {
    /// The engine's options, checked: threads 1 to 64, lookahead_from 0 to 81, level 1 to 10,
    /// multipv 1 to 32.
    fn options(self) -> PyResult<EngineOptions> {
        if !(1..=64).contains(&self.threads) {
            return Err(value_error(format!(
                "threads must be 1 to 64, got {}",
                self.threads
            )));
        }
        let lookahead_from = self.lookahead_from.unwrap_or(LOOKAHEAD_FROM);
        if lookahead_from > 81 {
            return Err(value_error("lookahead_from must be 0 to 81"));
        }
        if !(1..=FULL_STRENGTH).contains(&self.level) {
            return Err(value_error(format!(
                "level must be 1 to {FULL_STRENGTH}, got {}",
                self.level
            )));
        }
        if !(1..=MAX_MULTIPV).contains(&self.multipv) {
            return Err(value_error(format!(
                "multipv must be 1 to {MAX_MULTIPV}, got {}",
                self.multipv
            )));
        }
        Ok(EngineOptions {
            seed: self.seed,
            threads: self.threads,
            own_book: self.own_book,
            lookahead_from,
            level: self.level,
            multipv: self.multipv,
            ..EngineOptions::default()
        })
    }

    /// The defaults with this seed, level and line count.
    pub fn new(seed: u64, level: u32, multipv: usize) -> Knobs {
        Knobs {
            seed,
            threads: 1,
            own_book: true,
            lookahead_from: None,
            level,
            multipv,
        }
    }
}

/// The limits and options of one search, as given from Python.
#[derive(Debug, Clone)]
pub struct SearchRequest {
    pub limits: Limits,
    pub options: EngineOptions,
}

impl SearchRequest {
    /// Checks the keyword arguments of `search`: at least one limit unless the engine's default
    /// movetime (1000 ms) is wanted; see [`Knobs::options`] for the rest.
    pub fn new(
        movetime: Option<u64>,
        nodes: Option<u64>,
        depth: Option<u32>,
        knobs: Knobs,
    ) -> PyResult<SearchRequest> {
        if depth == Some(0) {
            return Err(value_error("depth must be at least 1"));
        }
        Ok(SearchRequest {
            limits: Limits {
                movetime,
                nodes,
                depth,
                ..Limits::default()
            },
            options: knobs.options()?,
        })
    }
}

/// Runs the engine's search of `state` without the GIL and returns its result.
pub fn run(py: Python<'_>, state: ProtocolState, request: SearchRequest) -> PyResult<SearchResult> {
    py.detach(move || search_session(state, request))
        .map_err(value_error)
}

/// Builds the session, sets it up as the protocol would, and searches to the limits.
fn search_session(state: ProtocolState, request: SearchRequest) -> Result<SearchResult, String> {
    let mut session = games::new_game(state.game, &state.params)?;
    session.set_position(&state.position)?;
    if let Some(pieces) = &state.pieces {
        session.set_pieces(pieces)?;
    }
    let job = session.search_job(&request.limits, &request.options)?;
    let fallback = job.fallback();
    let control = SearchControl::new(
        Arc::new(AtomicBool::new(false)),
        time::budget(&request.limits, 0),
        request.limits.nodes,
        request.limits.depth,
    );
    let mut last = Info::default();
    let mut lines: Vec<(Vec<String>, i64)> = Vec::new();
    let line = job.run(&control, &mut |info: &Info| {
        let rank = info.multipv.unwrap_or(1);
        if rank == 1 {
            last = info.clone();
        }
        if rank > lines.len() {
            lines.resize(rank, (Vec::new(), 0));
        }
        lines[rank - 1] = (info.pv.clone(), info.score);
    });
    // As in protocol mode: a search without a line of its own answers the fallback (empty
    // when there is no legal move).
    let line = if line.is_empty() { fallback } else { line };
    // Line 1 is the move played (a search stopped before its first report answers another).
    lines.retain(|(pv, _)| !pv.is_empty());
    if !line.is_empty() && !lines.first().is_some_and(|(pv, _)| pv.starts_with(&line)) {
        lines = vec![(line.clone(), last.score)];
    }
    Ok(SearchResult {
        line,
        score: last.score,
        depth: last.depth,
        nodes: last.nodes,
        time_ms: last.time_ms,
        lines,
    })
}
