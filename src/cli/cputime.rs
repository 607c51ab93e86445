//! CPU time of threads and processes, for honest per-move timings on a shared machine.

use std::time::Duration;

/// Clock ticks per second of `/proc/<pid>/stat` (Linux's USER_HZ, 100 on every common build).
const USER_HZ: u64 = 100;

/// CPU time the calling thread has used, from Linux's `/proc/thread-self/schedstat`; `None`
/// where that is not available (then callers fall back to wall time).
pub fn thread_cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// CPU time (user + system, all threads) that process `pid` has used, from Linux's
/// `/proc/<pid>/stat`, in steps of 10 ms; `None` where that is not available.
pub fn process_cpu_time(pid: u32) -> Option<Duration> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces; fields after its closing ')' are plain.
    let fields: Vec<&str> = text.rsplit_once(')')?.1.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 1000 / USER_HZ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_process_cpu_time_grows_with_work() {
        let pid = std::process::id();
        let before = process_cpu_time(pid).expect("Linux /proc");
        let mut x = 1u64;
        let start = thread_cpu_time().expect("Linux /proc");
        while thread_cpu_time().expect("Linux /proc") - start < Duration::from_millis(60) {
            for k in 0..10_000u64 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(k);
            }
        }
        std::hint::black_box(x);
        let after = process_cpu_time(pid).expect("Linux /proc");
        assert!(
            after >= before + Duration::from_millis(40),
            "{before:?} -> {after:?}"
        );
    }
}
