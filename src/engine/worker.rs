//! The search worker: one thread that runs one search at a time and prints its `info` lines and
//! its single `bestmove`.

use super::Output;
use crate::games::SearchJob;
use crate::protocol::answer;
use crate::search::{Limits, SearchControl, time};
use crossbeam_channel::{Receiver, Sender, unbounded};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};

struct Job {
    search: Box<dyn SearchJob>,
    control: SearchControl,
}

/// The worker thread and the state of its current search.
pub struct Worker {
    jobs: Option<Sender<Job>>,
    done: Receiver<()>,
    stop: Arc<AtomicBool>,
    busy: bool,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// Starts the worker thread; it writes its answers to `output`.
    pub fn spawn(output: Output) -> Self {
        let (jobs, job_receiver) = unbounded::<Job>();
        let (done_sender, done) = unbounded();
        let thread = thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                for job in job_receiver {
                    let mut report = |info: &crate::search::Info| output.line(&answer::info(info));
                    // A bug in a search must not take the engine down: report it, answer
                    // `bestmove none`, and keep serving.
                    let run = || job.search.run(&job.control, &mut report);
                    let best = panic::catch_unwind(AssertUnwindSafe(run)).unwrap_or_else(|_| {
                        output.line(&answer::info_string("internal error: the search failed"));
                        Vec::new()
                    });
                    output.line(&answer::bestmove(&best));
                    if done_sender.send(()).is_err() {
                        break;
                    }
                }
            })
            .expect("the search thread must start");
        Worker {
            jobs: Some(jobs),
            done,
            stop: Arc::new(AtomicBool::new(false)),
            busy: false,
            thread: Some(thread),
        }
    }

    /// Starts a search under `limits` (the clock starts now), keeping `overhead_ms` in reserve.
    /// The caller must have called [`Worker::finish`] first.
    pub fn start(&mut self, search: Box<dyn SearchJob>, limits: &Limits, overhead_ms: u64) {
        debug_assert!(!self.busy, "finish() must come before start()");
        self.stop = Arc::new(AtomicBool::new(false));
        let control = SearchControl::new(
            self.stop.clone(),
            time::budget(limits, overhead_ms),
            limits.nodes,
            limits.depth,
        );
        if let Some(jobs) = &self.jobs
            && jobs.send(Job { search, control }).is_ok()
        {
            self.busy = true;
        }
    }

    /// Stops the running search, if any, and waits until its `bestmove` is out.
    pub fn finish(&mut self) {
        if self.busy {
            self.stop.store(true, Ordering::Relaxed);
            let _ = self.done.recv();
            self.busy = false;
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.finish();
        self.jobs = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
