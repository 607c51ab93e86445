//! A pool of `--jobs` threads working through a list: each item is computed once, by whichever
//! thread takes it next, and the results come back in the list's order.

use super::progress::Progress;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// `f(i, item)` for every item, `jobs` at a time, with a progress bar over the items (named
/// `unit`) on a terminal.
pub fn map<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    unit: &str,
    f: impl Fn(usize, &T) -> R + Sync,
) -> Vec<R> {
    let progress = Progress::new(items.len() as u64, unit);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let result = f(i, item);
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(result);
                    progress.step();
                }
            });
        }
    });
    progress.finish();
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_item_once_in_order() {
        let items: Vec<u64> = (0..100).collect();
        for jobs in [1, 3] {
            let out = super::map(&items, jobs, "items", |i, &x| (i as u64) * 1000 + x * x);
            let want: Vec<u64> = (0..100).map(|x| x * 1000 + x * x).collect();
            assert_eq!(out, want);
        }
    }
}
