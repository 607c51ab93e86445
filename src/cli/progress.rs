//! Progress of the long jobs (selfplay, tune, book, tune-prior): a bar on stderr with the count
//! done, the rate and the time left, drawn by `indicatif` only when stderr is a terminal (a run
//! logged to a file or read by a script stays quiet).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar over `total` steps of a job.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar over `total` items named `unit` (e.g. "games", "positions").
    pub fn new(total: u64, unit: &str) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        let template =
            format!("[{{bar:30}}] {{pos}}/{{len}} {unit} {{msg}} ({{elapsed}}, {{eta}} left)");
        if let Ok(style) = ProgressStyle::with_template(&template) {
            bar.set_style(style.progress_chars("#>."));
        }
        Progress { bar }
    }

    /// Sets how many items are done and a short note on them (e.g. "120 rounds, 1 death").
    pub fn set(&self, done: u64, note: String) {
        self.bar.set_position(done);
        self.bar.set_message(note);
    }

    /// Counts one more item done.
    pub fn step(&self) {
        self.bar.inc(1);
    }

    /// Prints a line on stderr above the bar (shown whether or not the bar is).
    pub fn note(&self, line: &str) {
        self.suspend(|| eprintln!("{line}"));
    }

    /// Runs `print` with the bar cleared away (for results printed on stdout meanwhile).
    pub fn suspend(&self, print: impl FnOnce()) {
        self.bar.suspend(print);
    }

    /// Removes the bar (the job's results follow on stdout).
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
