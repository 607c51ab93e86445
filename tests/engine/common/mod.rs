//! Drives the real `tessera` binary through pipes, the way a GUI does.

use std::io::Write;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A Blockudoku board (protocol notation) with one hole in every row, column and box, no two
/// holes touching: the monomino fits in 9 places, each clearing a row, a column and a box.
pub fn one_hole_per_region() -> String {
    let rows: Vec<String> = (0..9)
        .map(|r| {
            (0..9)
                .map(|c| if c == (3 * r + r / 3) % 9 { '.' } else { '#' })
                .collect()
        })
        .collect();
    rows.join("/")
}

/// How long any single answer may take before a test fails (generous: CI machines are loaded).
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// A running engine with line-wise access to its stdout.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    /// Starts the engine in protocol mode.
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the engine starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let lines = tessera::cli::external::line_receiver(stdout);
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
        }
    }

    /// Starts the engine and starts a Blockudoku game.
    pub fn blockudoku() -> Engine {
        let mut engine = Engine::start();
        engine.send("newgame blockudoku");
        engine
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Sends raw bytes.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("the engine reads");
        stdin.flush().expect("the engine reads");
    }

    /// The next answer line; fails the test after [`TIMEOUT`].
    pub fn recv(&mut self) -> String {
        match self.lines.recv_timeout(TIMEOUT) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => panic!("no answer within {TIMEOUT:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the engine closed its output"),
        }
    }

    /// An answer line if one comes within `wait`.
    pub fn try_recv(&mut self, wait: Duration) -> Option<String> {
        self.lines.recv_timeout(wait).ok()
    }

    /// Reads lines up to and including the first that starts with `prefix`.
    pub fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self.recv();
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    /// Sends `line` then `isready`; returns what came before `readyok`.
    pub fn ask(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.send("isready");
        let mut seen = self.until("readyok");
        seen.pop();
        seen
    }

    /// Sends `line`, expects exactly one `error` line in answer, and returns it.
    pub fn expect_error(&mut self, line: &str) -> String {
        let answers = self.ask(line);
        assert_eq!(answers.len(), 1, "one answer to {line:?}: {answers:?}");
        assert!(
            answers[0].starts_with("error "),
            "an error for {line:?}: {answers:?}"
        );
        answers[0].clone()
    }

    /// Runs `go` with the given arguments and returns (info lines, bestmove moves).
    pub fn go(&mut self, args: &str) -> (Vec<String>, Vec<String>) {
        self.send(&format!("go {args}"));
        let mut lines = self.until("bestmove");
        let best = lines.pop().expect("a bestmove line");
        let moves = best.split_whitespace().skip(1).map(String::from).collect();
        (lines, moves)
    }

    /// Closes stdin (end of input).
    pub fn close(&mut self) {
        self.stdin = None;
    }

    /// Waits for the process to exit; fails the test after [`TIMEOUT`].
    pub fn wait_exit(&mut self) -> ExitStatus {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait works") {
                return status;
            }
            assert!(started.elapsed() < TIMEOUT, "the engine did not exit");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
