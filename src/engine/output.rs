//! The one writer of answer lines: each line is written whole and flushed at once, whichever
//! thread sends it.

use std::io::Write;
use std::sync::{Arc, Mutex};

/// A cloneable handle on the answer stream.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    /// Wraps a writer (stdout in protocol mode, a buffer in tests).
    pub fn new(sink: Box<dyn Write + Send>) -> Self {
        Output {
            sink: Arc::new(Mutex::new(sink)),
        }
    }

    /// Writes one line and flushes it. A closed stream (the client went away) is ignored here:
    /// the reader sees the end of input and the session ends.
    pub fn line(&self, text: &str) {
        let mut sink = match self.sink.lock() {
            Ok(sink) => sink,
            Err(poisoned) => poisoned.into_inner(),
        };
        let mut bytes = Vec::with_capacity(text.len() + 1);
        bytes.extend_from_slice(text.as_bytes());
        bytes.push(b'\n');
        if sink.write_all(&bytes).and_then(|_| sink.flush()).is_err() {
            log::debug!("output closed; dropped: {text}");
        }
    }
}
