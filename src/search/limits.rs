//! The limits a `go` command sets.

/// What the client allows the search: any combination; none at all means the documented default.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits {
    /// Think exactly this long (milliseconds).
    pub movetime: Option<u64>,
    /// Stop after completing this iteration depth.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// The mover's remaining clock (milliseconds).
    pub time: Option<u64>,
    /// The mover's increment per move (milliseconds).
    pub inc: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
}

impl Limits {
    /// Limits that bound nothing by time (depth or nodes may still bound the search).
    pub fn is_untimed(&self) -> bool {
        self.movetime.is_none() && self.time.is_none()
    }
}
