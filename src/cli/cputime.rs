//! CPU time of the calling thread, for honest per-move timings on a shared machine.

use std::time::Duration;

/// CPU time the calling thread has used, from Linux's `/proc/thread-self/schedstat`; `None`
/// where that is not available (then callers fall back to wall time).
pub fn thread_cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}
