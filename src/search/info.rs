//! The progress report of a search, as sent in `info` lines.

/// One `info depth .. score .. nodes .. nps .. time .. pv ..` report.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Info {
    /// Iteration depth completed (or reached).
    pub depth: u32,
    /// The rank of this line among the best ones (1 = best) when the search reports several
    /// (`MultiPV` above 1); `None` otherwise.
    pub multipv: Option<usize>,
    /// The evaluation of the best line, in the game's units (higher is better for the mover).
    pub score: i64,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// The best line; for Blockudoku the placements of the whole hand in play order.
    pub pv: Vec<String>,
}

impl Info {
    /// Nodes per second so far.
    pub fn nps(&self) -> u64 {
        let per_ms = self.nodes.saturating_mul(1000);
        per_ms.checked_div(self.time_ms).unwrap_or(per_ms)
    }
}
