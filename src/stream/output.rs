//! The one writer of answer lines: each line is written whole, whichever thread sends it, and
//! no sender ever waits for the client to read.
//!
//! On a pipe a line goes straight out when the pipe has room (one non-blocking write: the usual
//! case, no hand-over to another thread); when the client lags and the pipe is full, the line
//! joins a backlog that a writer thread hands to the client at its own pace. So the session
//! always goes back to reading commands (`stop`, `isready`, `quit` are seen), and a client that
//! writes ahead and reads behind cannot deadlock the engine. The backlog is bounded for search
//! progress: while more than [`BACKLOG_FOR_PROGRESS`] bytes wait, `info` lines of searches are
//! dropped (each `bestmove` still carries its search's last line); every other answer is kept.
//! Files, terminals and test buffers are written on the caller's thread.

use std::collections::VecDeque;
use std::io::{ErrorKind, Write};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Waiting bytes above which search progress lines are dropped.
pub const BACKLOG_FOR_PROGRESS: usize = 1 << 20;

/// A cloneable handle on the answer stream.
#[derive(Clone)]
pub struct Output {
    shared: Arc<Shared>,
}

struct Shared {
    state: Mutex<State>,
    /// Signals the writer thread (a backlog to write) and [`Output::drain`] (progress).
    changed: Condvar,
}

struct State {
    sink: Sink,
    /// Bytes waiting for the writer thread, in order.
    backlog: VecDeque<u8>,
    /// Whether the writer thread is writing bytes it took from the backlog.
    writing: bool,
    /// Bytes the writer thread has written so far.
    written: u64,
    /// The client closed the stream: everything is dropped from then on.
    closed: bool,
    /// Progress lines dropped for a lagging client.
    dropped: u64,
}

enum Sink {
    /// Written on the caller's thread (a file, a terminal, a test buffer).
    Direct(Box<dyn Write + Send>),
    /// A pipe or socket: straight out through `try_first` while it has room and nothing waits,
    /// else through the writer thread.
    Paced {
        try_first: Option<Box<dyn Write + Send>>,
    },
}

impl Output {
    /// Writes on the caller's thread to `sink` (a file, a terminal, a buffer in tests).
    pub fn new(sink: Box<dyn Write + Send>) -> Self {
        Self::with_sink(Sink::Direct(sink))
    }

    /// The process's standard output: paced through a writer thread when it is a pipe or a
    /// socket (where a lagging client would otherwise hold the writer), direct otherwise.
    pub fn stdout() -> Self {
        match stdout_kind() {
            StdoutKind::Pipe(try_first) => Self::paced(Box::new(std::io::stdout()), try_first),
            StdoutKind::Other => Self::new(Box::new(std::io::stdout())),
        }
    }

    /// Paced output: `try_first` (a non-blocking writer to the same stream, if there is one)
    /// while it takes the bytes, then the writer thread through `blocking`.
    fn paced(blocking: Box<dyn Write + Send>, try_first: Option<Box<dyn Write + Send>>) -> Self {
        let output = Self::with_sink(Sink::Paced { try_first });
        let shared = output.shared.clone();
        let spawned = std::thread::Builder::new()
            .name("output".into())
            .spawn(move || write_backlog(&shared, blocking));
        if spawned.is_err() {
            log::warn!("no output thread: answers are written directly");
            output.lock().sink = Sink::Direct(Box::new(std::io::stdout()));
        }
        output
    }

    fn with_sink(sink: Sink) -> Self {
        Output {
            shared: Arc::new(Shared {
                state: Mutex::new(State {
                    sink,
                    backlog: VecDeque::new(),
                    writing: false,
                    written: 0,
                    closed: false,
                    dropped: 0,
                }),
                changed: Condvar::new(),
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.shared.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Writes one answer line.
    pub fn line(&self, text: &str) {
        self.send(text, false);
    }

    /// Writes one line of search progress (`info`), unless a lagging client has more than
    /// [`BACKLOG_FOR_PROGRESS`] bytes waiting.
    pub fn progress(&self, text: &str) {
        self.send(text, true);
    }

    fn send(&self, text: &str, droppable: bool) {
        let mut bytes = Vec::with_capacity(text.len() + 1);
        bytes.extend_from_slice(text.as_bytes());
        bytes.push(b'\n');
        let mut state = self.lock();
        if state.closed {
            return;
        }
        let waiting = state.backlog.len();
        let idle = waiting == 0 && !state.writing;
        let mut rest: &[u8] = &bytes;
        match &mut state.sink {
            Sink::Direct(sink) => {
                if sink.write_all(rest).and_then(|_| sink.flush()).is_err() {
                    log::debug!("output closed; dropped: {text}");
                    state.closed = true;
                }
                return;
            }
            Sink::Paced { try_first } => {
                if droppable && waiting > BACKLOG_FOR_PROGRESS {
                    state.dropped += 1;
                    if state.dropped.is_power_of_two() {
                        log::debug!(
                            "{} progress lines dropped for a lagging client",
                            state.dropped
                        );
                    }
                    return;
                }
                if let (true, Some(writer)) = (idle, try_first) {
                    match write_without_waiting(writer.as_mut(), rest) {
                        Ok(written) => rest = &rest[written..],
                        Err(_) => {
                            state.closed = true;
                            return;
                        }
                    }
                }
            }
        }
        if !rest.is_empty() {
            state.backlog.extend(rest);
            self.shared.changed.notify_all();
        }
    }

    /// Waits until every line is written, the client closed the stream, or `patience` passed
    /// without the client taking any byte (a client that no longer reads must not keep the
    /// process alive). Called before the process exits.
    pub fn drain(&self, patience: Duration) {
        let mut state = self.lock();
        let mut last = (state.written, Instant::now());
        while !state.closed && (state.writing || !state.backlog.is_empty()) {
            if state.written != last.0 {
                last = (state.written, Instant::now());
            }
            let waited = last.1.elapsed();
            if waited >= patience {
                log::warn!(
                    "the client took no output for {patience:?}: {} bytes not written",
                    state.backlog.len()
                );
                return;
            }
            state = self
                .shared
                .changed
                .wait_timeout(state, patience - waited)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

/// Writes as much of `bytes` as the non-blocking `writer` takes now; the count written, or an
/// error when the stream is closed.
fn write_without_waiting(writer: &mut dyn Write, bytes: &[u8]) -> std::io::Result<usize> {
    let mut written = 0;
    while written < bytes.len() {
        match writer.write(&bytes[written..]) {
            Ok(0) => break,
            Ok(n) => written += n,
            Err(e) if e.kind() == ErrorKind::WouldBlock => break,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(written)
}

/// The writer thread: hands the backlog to the client, blocking as long as the client takes.
fn write_backlog(shared: &Shared, mut sink: Box<dyn Write + Send>) {
    let lock = || shared.state.lock().unwrap_or_else(|e| e.into_inner());
    let mut state = lock();
    loop {
        while state.backlog.is_empty() {
            state = shared
                .changed
                .wait(state)
                .unwrap_or_else(|e| e.into_inner());
        }
        let bytes: Vec<u8> = state.backlog.drain(..).collect();
        state.writing = true;
        drop(state);
        let ok = sink.write_all(&bytes).and_then(|_| sink.flush()).is_ok();
        state = lock();
        state.writing = false;
        state.written += bytes.len() as u64;
        if !ok {
            state.closed = true;
            state.backlog.clear();
        }
        shared.changed.notify_all();
    }
}

/// What the standard output is.
enum StdoutKind {
    /// A pipe or socket, with a non-blocking writer to it where the platform allows one.
    Pipe(Option<Box<dyn Write + Send>>),
    /// A file or a terminal.
    Other,
}

#[cfg(target_os = "linux")]
fn stdout_kind() -> StdoutKind {
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    const STDOUT: &str = "/proc/self/fd/1";
    let Ok(kind) = std::fs::metadata(STDOUT).map(|m| m.file_type()) else {
        return StdoutKind::Other;
    };
    if kind.is_fifo() {
        // A second open file description of the same pipe, non-blocking: the flag does not
        // reach the client's end or fd 1 (which the writer thread uses, blocking).
        let reopened = std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(STDOUT);
        let try_first = reopened
            .ok()
            .map(|file| Box::new(file) as Box<dyn Write + Send>);
        return StdoutKind::Pipe(try_first);
    }
    if kind.is_socket() {
        return StdoutKind::Pipe(None);
    }
    StdoutKind::Other
}

#[cfg(not(target_os = "linux"))]
fn stdout_kind() -> StdoutKind {
    // Without a way to write without waiting, every line goes through the writer thread.
    use std::io::IsTerminal;
    if std::io::stdout().is_terminal() {
        StdoutKind::Other
    } else {
        StdoutKind::Pipe(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::{Receiver, Sender, channel};

    /// A non-blocking writer that takes `room` bytes, then would block.
    struct Room {
        room: usize,
        taken: Arc<Mutex<Vec<u8>>>,
    }

    impl Write for Room {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            if self.room == 0 {
                return Err(ErrorKind::WouldBlock.into());
            }
            let n = bytes.len().min(self.room);
            self.room -= n;
            self.taken.lock().unwrap().extend_from_slice(&bytes[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// A blocking writer that takes each write only when the test lets it (a lagging client).
    struct Gate {
        open: Receiver<()>,
        taken: Arc<Mutex<Vec<u8>>>,
    }

    impl Write for Gate {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.open
                .recv()
                .map_err(|_| std::io::Error::from(ErrorKind::BrokenPipe))?;
            self.taken.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn lagging(room: usize) -> (Output, Sender<()>, Arc<Mutex<Vec<u8>>>) {
        let taken = Arc::new(Mutex::new(Vec::new()));
        let (gate, open) = channel();
        let output = Output::paced(
            Box::new(Gate {
                open,
                taken: taken.clone(),
            }),
            Some(Box::new(Room {
                room,
                taken: taken.clone(),
            })),
        );
        (output, gate, taken)
    }

    fn text(taken: &Arc<Mutex<Vec<u8>>>) -> String {
        String::from_utf8(taken.lock().unwrap().clone()).unwrap()
    }

    #[test]
    fn lines_go_straight_out_while_there_is_room_then_wait_in_order() {
        let (output, gate, taken) = lagging(12);
        output.line("readyok");
        assert_eq!(text(&taken), "readyok\n", "straight out");
        output.line("bestmove a1=1");
        output.line("readyok");
        assert_eq!(
            text(&taken),
            "readyok\nbest",
            "the sender never waits for the client"
        );
        for _ in 0..3 {
            gate.send(()).unwrap();
        }
        output.drain(Duration::from_secs(10));
        assert_eq!(text(&taken), "readyok\nbestmove a1=1\nreadyok\n");
    }

    #[test]
    fn progress_is_dropped_only_past_the_bound_and_answers_always_kept() {
        let (output, gate, taken) = lagging(0);
        let info = format!("info {}", "x".repeat(1000));
        // The writer takes the first line and waits for the client with it; what follows
        // stays in the backlog.
        output.progress(&info);
        let started = std::time::Instant::now();
        while !output.lock().writing {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "the writer starts"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        for _ in 1..2000 {
            output.progress(&info);
        }
        output.line("bestmove a1=1");
        let waiting = output.lock().backlog.len();
        assert!(
            waiting > BACKLOG_FOR_PROGRESS && waiting < BACKLOG_FOR_PROGRESS + 3000,
            "{waiting}"
        );
        assert!(output.lock().dropped > 900);
        drop(gate);
        output.drain(Duration::from_secs(10));
        assert!(output.lock().closed, "a client gone closes the stream");
        output.line("readyok");
        assert!(!text(&taken).contains("readyok"));
    }

    #[test]
    fn drain_gives_up_on_a_client_that_takes_nothing() {
        let (output, _gate, _) = lagging(0);
        output.line("bestmove none");
        let started = Instant::now();
        output.drain(Duration::from_millis(50));
        assert!(started.elapsed() >= Duration::from_millis(50));
    }
}
