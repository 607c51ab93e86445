//! Another engine process driven over the protocol, e.g. an older build of tessera in an A/B
//! match.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use super::cputime::process_cpu_time;

/// How long an engine may stay silent before it counts as hung.
const SILENCE: Duration = Duration::from_secs(60);

/// The lines of `source`, read on a thread of their own, as they come.
pub fn line_receiver(source: impl Read + Send + 'static) -> Receiver<String> {
    let (sender, lines) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(source).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

/// A running engine with line-wise access to its output.
pub struct ExternalEngine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    name: String,
}

impl ExternalEngine {
    /// Starts the engine at `path` and checks that it speaks the protocol (`isready`).
    pub fn start(path: &Path) -> Result<ExternalEngine, String> {
        let name = path.display().to_string();
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start {name}: {e}"))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let lines = line_receiver(stdout);
        let mut engine = ExternalEngine {
            child,
            stdin,
            lines,
            name,
        };
        engine.send("isready")?;
        engine.until("readyok")?;
        Ok(engine)
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("{}: {e}", self.name))
    }

    /// Reads lines up to the first that starts with `prefix`, which it returns; an `error`
    /// line before it is an error.
    pub fn until(&mut self, prefix: &str) -> Result<String, String> {
        loop {
            let line = match self.lines.recv_timeout(SILENCE) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("{}: no answer in {SILENCE:?}", self.name));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("{}: the engine closed its output", self.name));
                }
            };
            if line.starts_with(prefix) {
                return Ok(line);
            }
            if line.starts_with("error") {
                return Err(format!("{}: {line}", self.name));
            }
        }
    }

    /// CPU time the engine process has used so far (all its threads), where Linux tells.
    pub fn cpu_time(&self) -> Option<Duration> {
        process_cpu_time(self.child.id())
    }

    /// Sends `go <limits>` and returns the words after `bestmove`.
    pub fn bestmove(&mut self, limits: &str) -> Result<Vec<String>, String> {
        self.send(&format!("go {limits}"))?;
        let line = self.until("bestmove")?;
        Ok(line.split_whitespace().skip(1).map(String::from).collect())
    }
}

impl Drop for ExternalEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}
