//! The search worker: one thread that runs one search at a time and prints its `info` lines.
//!
//! The single `bestmove` of a `go` is given by whichever comes first: the search ending (except
//! under `infinite`, whose answer waits for `stop` however soon the search is done), a `stop`
//! (answered on the session thread with the line of the last `info`), or a watchdog thread that
//! wakes at the deadline. So the answer does not wait for the busy search thread to
//! be scheduled again on a loaded machine: sleeping threads that wake up are scheduled promptly.
//! Before any `info`, the published line is the job's fallback (a legal answer found without
//! searching), so the session never waits for a search: not even one whose first iteration is
//! slow.

use crate::games::SearchJob;
use crate::protocol::answer;
use crate::search::{Info, Limits, SearchControl, time};
use crate::stream::Output;
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, unbounded};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// How long after the deadline the watchdog answers if the search has not.
const WATCHDOG_GRACE: Duration = Duration::from_millis(1);
/// How much longer the watchdog waits when the search has published nothing but the fallback
/// yet (its first iteration, a real search of about a millisecond, is still running on a busy
/// machine): the answer stays within a few milliseconds of the deadline and is a searched one.
const FALLBACK_GRACE: Duration = Duration::from_millis(4);

struct Job {
    search: Box<dyn SearchJob>,
    control: SearchControl,
    answer: Arc<Answer>,
}

/// The answer to one `go`: the best line its `info`s published, and whether `bestmove` is out.
struct Answer {
    output: Output,
    whole_line: bool,
    /// `go infinite`: the answer waits for `stop` even once the search has ended.
    until_stop: bool,
    state: Mutex<AnswerState>,
}

struct AnswerState {
    best: Vec<String>,
    given: bool,
    /// Whether the search has published a line of its own (beyond the fallback).
    searched: bool,
    /// When the `bestmove` went out before the search ended (stop or deadline).
    given_early: Option<Instant>,
}

impl Answer {
    /// An answer that starts from `fallback` (empty: `bestmove none`).
    fn new(output: Output, whole_line: bool, until_stop: bool, fallback: Vec<String>) -> Self {
        Answer {
            output,
            whole_line,
            until_stop,
            state: Mutex::new(AnswerState {
                best: fallback,
                given: false,
                searched: false,
                given_early: None,
            }),
        }
    }

    /// The `bestmove` line for a best line.
    fn bestmove(&self, line: &[String]) -> String {
        let moves = if self.whole_line {
            line.len()
        } else {
            line.len().min(1)
        };
        answer::bestmove(&line[..moves])
    }

    fn state(&self) -> MutexGuard<'_, AnswerState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Prints an `info` (none after the `bestmove`) and remembers its line if it is the best
    /// one (not a `multipv` 2 or later).
    fn info(&self, info: &Info) {
        let mut state = self.state();
        if state.given {
            return;
        }
        if !info.pv.is_empty() && info.multipv.is_none_or(|rank| rank == 1) {
            state.searched |= info.depth > 0;
            state.best.clone_from(&info.pv);
        }
        self.output.progress(&answer::info(info));
    }

    /// Gives the `bestmove` with the last published line (the fallback before any), unless it
    /// is out already.
    fn give_published(&self) {
        let mut state = self.state();
        if !state.given {
            self.output.line(&self.bestmove(&state.best));
            state.given = true;
            state.given_early = Some(Instant::now());
        }
    }

    /// The search has ended with its own final line: the `bestmove` goes out with it, unless
    /// it is out already or the answer waits for `stop` (then the line is kept for it). A
    /// search that ended without a line of its own (stopped before its first iteration
    /// finished) answers with the published one (the fallback), never `none` while a move is
    /// known.
    fn give_final(&self, best: &[String]) {
        let mut state = self.state();
        if state.given {
            return;
        }
        if !best.is_empty() {
            state.best = best.to_vec();
        }
        if !self.until_stop {
            self.output.line(&self.bestmove(&state.best));
            state.given = true;
        }
    }
}

/// Most search threads kept. Stopped searches wind down on their own threads while a new search
/// starts on a free one; only when all are still busy does a new search wait for the oldest.
const MAX_SEARCH_THREADS: usize = 4;

/// The searches: threads used in turn, so that a new search never waits for a stopped one that
/// has answered but is still winding down (on a loaded machine, or in a search's setup that does
/// not look at the stop flag, that can take a while). Each thread keeps its warm per-thread
/// tables from one search to the next.
pub struct Worker {
    output: Output,
    threads: Vec<SearchThread>,
    /// Answers searches at their deadlines (none if its thread could not start).
    watchdog: Option<Watchdog>,
    current: Option<usize>,
    /// Searches started so far, to find the thread that started one longest ago.
    started: u64,
}

impl Worker {
    /// Starts a search thread; searches write their answers to `output`.
    pub fn spawn(output: Output) -> Self {
        let watchdog = Watchdog::spawn();
        if watchdog.is_none() {
            log::warn!("no watchdog thread: searches answer their deadlines by themselves");
        }
        Worker {
            threads: vec![SearchThread::spawn(output.clone())],
            watchdog,
            output,
            current: None,
            started: 0,
        }
    }

    /// Starts a search under `limits` with the clock started at `received` (when the `go` line
    /// was read), keeping `overhead_ms` in reserve. The caller must have called
    /// [`Worker::finish`] first.
    pub fn start(
        &mut self,
        search: Box<dyn SearchJob>,
        limits: &Limits,
        overhead_ms: u64,
        received: Instant,
    ) {
        debug_assert!(self.current.is_none(), "finish() must come before start()");
        let chosen = match (0..self.threads.len()).find(|&i| self.threads[i].is_free()) {
            Some(free) => free,
            None if self.threads.len() < MAX_SEARCH_THREADS => {
                self.threads.push(SearchThread::spawn(self.output.clone()));
                self.threads.len() - 1
            }
            None => {
                let oldest = (0..self.threads.len())
                    .min_by_key(|&i| self.threads[i].serial)
                    .unwrap_or(0);
                log::debug!("every search thread is busy: waiting for the oldest search");
                self.threads[oldest].wait();
                oldest
            }
        };
        self.started += 1;
        let watchdog = self.watchdog.as_ref();
        if self.threads[chosen].start(search, limits, overhead_ms, received, watchdog) {
            self.threads[chosen].serial = self.started;
            self.current = Some(chosen);
        }
    }

    /// Ends the running search, if any: its `bestmove` goes out at once with the line of its
    /// last `info` (or its fallback); the search thread winds down on its own.
    pub fn finish(&mut self) {
        if let Some(i) = self.current.take() {
            self.threads[i].stop();
        }
    }
}

/// One search thread and the state of its search.
struct SearchThread {
    jobs: Option<Sender<Job>>,
    done: Receiver<()>,
    stop: Arc<AtomicBool>,
    answer: Option<Arc<Answer>>,
    output: Output,
    busy: bool,
    /// Which search this thread started last (the worker's count at the time).
    serial: u64,
    thread: Option<JoinHandle<()>>,
}

impl SearchThread {
    fn spawn(output: Output) -> Self {
        let (jobs, job_receiver) = unbounded::<Job>();
        let (done_sender, done) = unbounded();
        let answers = output.clone();
        let thread = thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                for job in job_receiver {
                    let answer = job.answer;
                    let mut report = |info: &Info| answer.info(info);
                    // A bug in a search must not take the engine down: report it, answer
                    // `bestmove none`, and keep serving.
                    let run = || job.search.run(&job.control, &mut report);
                    let best = panic::catch_unwind(AssertUnwindSafe(run)).unwrap_or_else(|_| {
                        output.line(&answer::info_string("internal error: the search failed"));
                        Vec::new()
                    });
                    answer.give_final(&best);
                    if let Some(at) = answer.state().given_early {
                        let late = at.elapsed();
                        if late > Duration::from_millis(20) {
                            log::debug!(
                                "a search ended {} ms after its bestmove",
                                late.as_millis()
                            );
                        }
                    }
                    if done_sender.send(()).is_err() {
                        break;
                    }
                }
            })
            .expect("the search thread must start");
        SearchThread {
            jobs: Some(jobs),
            done,
            stop: Arc::new(AtomicBool::new(false)),
            answer: None,
            output: answers,
            busy: false,
            serial: 0,
            thread: Some(thread),
        }
    }

    /// Hands a search to the (free) thread and arms the deadline watchdog; false if the thread
    /// is gone.
    fn start(
        &mut self,
        search: Box<dyn SearchJob>,
        limits: &Limits,
        overhead_ms: u64,
        received: Instant,
        watchdog: Option<&Watchdog>,
    ) -> bool {
        self.stop = Arc::new(AtomicBool::new(false));
        let control = SearchControl::starting_at(
            received,
            self.stop.clone(),
            time::budget(limits, overhead_ms),
            limits.nodes,
            limits.depth,
        );
        let fallback = search.fallback();
        let answer = Arc::new(Answer::new(
            self.output.clone(),
            search.answers_whole_line(),
            limits.infinite,
            fallback.clone(),
        ));
        if !fallback.is_empty() {
            // Depth 0: the fallback, so the client holds a legal move before any search.
            answer.info(&Info {
                pv: fallback,
                ..Info::default()
            });
        }
        let deadline = control.hard_deadline();
        let job = Job {
            search,
            control,
            answer: answer.clone(),
        };
        let Some(jobs) = &self.jobs else { return false };
        if jobs.send(job).is_err() {
            return false;
        }
        self.busy = true;
        if let (Some(deadline), Some(watchdog)) = (deadline, watchdog) {
            watchdog.arm(Watch {
                at: deadline + WATCHDOG_GRACE,
                extended: false,
                answer: answer.clone(),
                stop: self.stop.clone(),
            });
        }
        self.answer = Some(answer);
        true
    }

    /// Raises the stop flag and gives the published answer.
    fn stop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(answer) = &self.answer {
            answer.give_published();
        }
    }

    /// Waits until the thread has finished its search.
    fn wait(&mut self) {
        if self.busy {
            self.stop.store(true, Ordering::Relaxed);
            let _ = self.done.recv();
            self.busy = false;
        }
    }

    /// True if the thread has no search running (looks without waiting).
    fn is_free(&mut self) -> bool {
        if self.busy && self.done.try_recv().is_ok() {
            self.busy = false;
        }
        !self.busy
    }
}

impl Drop for SearchThread {
    fn drop(&mut self) {
        self.wait();
        self.jobs = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// One search's deadline: at `at` (up to [`FALLBACK_GRACE`] later while only the fallback is
/// published) its published line answers if the search has not, and the search is stopped. A
/// watch whose search answered already finds its answer given (and its search stopped).
struct Watch {
    at: Instant,
    /// Whether `at` was put off by the grace for a search with only its fallback.
    extended: bool,
    answer: Arc<Answer>,
    stop: Arc<AtomicBool>,
}

/// The thread that keeps the deadlines of the searches: one for the session, woken by each
/// new deadline and at the earliest one, so no thread is started per `go`.
struct Watchdog {
    watches: Sender<Watch>,
}

impl Watchdog {
    /// Starts the thread; `None` if it cannot start.
    fn spawn() -> Option<Watchdog> {
        let (watches, receiver) = unbounded::<Watch>();
        thread::Builder::new()
            .name("watchdog".into())
            .spawn(move || keep_watch(&receiver))
            .ok()?;
        Some(Watchdog { watches })
    }

    /// Adds a deadline.
    fn arm(&self, watch: Watch) {
        let _ = self.watches.send(watch);
    }
}

/// The watchdog's loop, until the worker is gone: answers every due watch.
fn keep_watch(receiver: &Receiver<Watch>) {
    let mut armed: Vec<Watch> = Vec::new();
    loop {
        let next = armed.iter().map(|w| w.at).min();
        let new = match next {
            None => receiver.recv().map_err(|_| RecvTimeoutError::Disconnected),
            Some(at) => receiver.recv_deadline(at),
        };
        match new {
            Ok(watch) => armed.push(watch),
            Err(RecvTimeoutError::Disconnected) => return,
            Err(RecvTimeoutError::Timeout) => {}
        }
        let now = Instant::now();
        armed.retain_mut(|w| {
            if w.at > now {
                return true;
            }
            if !w.extended && !w.answer.state().searched {
                w.at += FALLBACK_GRACE;
                w.extended = true;
                return true;
            }
            w.answer.give_published();
            w.stop.store(true, Ordering::Relaxed);
            false
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A writer whose bytes the test can read back.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl Write for Captured {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Captured {
        fn lines(&self) -> Vec<String> {
            String::from_utf8(self.0.lock().unwrap().clone())
                .unwrap()
                .lines()
                .map(String::from)
                .collect()
        }
    }

    fn info(pv: &[&str]) -> Info {
        Info {
            depth: 1,
            multipv: None,
            score: 0,
            nodes: 1,
            time_ms: 0,
            pv: pv.iter().map(|m| m.to_string()).collect(),
        }
    }

    #[test]
    fn one_bestmove_whoever_gives_it_and_no_info_after_it() {
        let captured = Captured::default();
        let answer = Answer::new(
            Output::new(Box::new(captured.clone())),
            false,
            false,
            vec!["a1=1".to_string()],
        );
        answer.info(&info(&["e5=7", "a1=2"]));
        answer.give_published();
        answer.info(&info(&["b2=3"]));
        answer.give_final(&["b2=3".to_string()]);
        answer.give_published();
        let lines = captured.lines();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].starts_with("info depth 1 "));
        assert_eq!(
            lines[1], "bestmove e5=7",
            "the first move of the published line"
        );
    }

    /// An answer for a search that gives whole lines (Blockudoku), with no fallback, printing
    /// to `captured`.
    fn whole_line_answer(captured: &Captured) -> Answer {
        Answer::new(
            Output::new(Box::new(captured.clone())),
            true,
            false,
            Vec::new(),
        )
    }

    #[test]
    fn a_stop_answers_the_best_line_not_the_last_multipv_line() {
        let captured = Captured::default();
        let answer = whole_line_answer(&captured);
        for (rank, pv) in [(1, "1@a9"), (2, "1@b9"), (3, "1@c9")] {
            answer.info(&Info {
                multipv: Some(rank),
                ..info(&[pv])
            });
        }
        answer.give_published();
        assert_eq!(captured.lines().last().unwrap(), "bestmove 1@a9");
    }

    #[test]
    fn a_whole_line_answer_and_a_final_answer() {
        let captured = Captured::default();
        let answer = whole_line_answer(&captured);
        answer.info(&info(&["1@a9", "2@b7"]));
        answer.give_final(&["2@c7".to_string(), "1@a9".to_string()]);
        answer.give_published();
        assert_eq!(captured.lines().last().unwrap(), "bestmove 2@c7 1@a9");
    }

    #[test]
    fn before_any_info_the_fallback_answers() {
        let captured = Captured::default();
        let output = Output::new(Box::new(captured.clone()));
        let answer = Answer::new(
            output.clone(),
            true,
            false,
            vec!["1@a9".into(), "2@a1".into()],
        );
        answer.give_published();
        answer.give_final(&["2@c7".to_string()]);
        let none = Answer::new(output, false, false, Vec::new());
        none.give_published();
        assert_eq!(captured.lines(), ["bestmove 1@a9 2@a1", "bestmove none"]);
    }

    #[test]
    fn a_search_ended_without_a_line_answers_the_fallback() {
        let captured = Captured::default();
        let output = Output::new(Box::new(captured.clone()));
        let answer = Answer::new(output.clone(), false, false, vec!["j14=3".into()]);
        answer.give_final(&[]);
        let none = Answer::new(output, false, false, Vec::new());
        none.give_final(&[]);
        assert_eq!(captured.lines(), ["bestmove j14=3", "bestmove none"]);
    }

    #[test]
    fn under_infinite_a_finished_search_answers_at_stop_with_its_final_line() {
        let captured = Captured::default();
        let output = Output::new(Box::new(captured.clone()));
        let answer = Answer::new(output.clone(), false, true, vec!["a1=1".into()]);
        answer.info(&info(&["b2=3"]));
        answer.give_final(&["c3=4".to_string()]);
        assert_eq!(captured.lines().len(), 1, "no bestmove before stop");
        answer.give_published();
        answer.give_published();
        let none = Answer::new(output, false, true, Vec::new());
        none.give_final(&[]);
        none.give_published();
        assert_eq!(
            captured.lines()[1..],
            ["bestmove c3=4", "bestmove none"],
            "one bestmove each, at stop"
        );
    }
}
