//! The protocol session: reads commands from stdin on the main thread, keeps the current game
//! and options, runs searches on a worker thread, and writes every answer line whole. No command
//! waits for a search, and no answer waits for the client to read it, so the main thread is
//! always back to reading at once.

mod session;
mod worker;

pub use session::Session;

use crate::stream::reader::{self, Input};
use crate::stream::{EXIT_PATIENCE, Output};

/// Runs protocol mode on stdin/stdout until `quit` or end of input; returns the exit code.
pub fn run_stdio() -> i32 {
    let output = Output::stdout();
    let mut stdin = std::io::stdin().lock();
    let mut session = Session::new(output.clone());
    while let Some(input) = reader::read_line(&mut stdin) {
        let go_on = match input {
            Input::Line(line, received) => session.handle_line(&line, received),
            Input::Rejected(why) => {
                session.reject(&why);
                true
            }
        };
        if !go_on {
            break;
        }
    }
    session.shutdown();
    output.drain(EXIT_PATIENCE);
    0
}
