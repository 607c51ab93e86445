//! The protocol session: reads commands from stdin on the main thread, keeps the current game
//! and options, runs searches on a worker thread, and writes every answer line whole. No command
//! waits for a search, so the main thread is always back to reading at once.

mod output;
mod reader;
mod session;
mod worker;

pub use output::Output;
pub use session::Session;

use reader::Input;

/// Runs protocol mode on stdin/stdout until `quit` or end of input; returns the exit code.
pub fn run_stdio() -> i32 {
    let output = Output::new(Box::new(std::io::stdout()));
    let mut stdin = std::io::stdin().lock();
    let mut session = Session::new(output);
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
    0
}
