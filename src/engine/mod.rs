//! The protocol session: reads commands on a reader thread, keeps the current game and options,
//! runs searches on a worker thread, and writes every answer line whole.

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
    let inputs = reader::spawn(std::io::stdin());
    let mut session = Session::new(output);
    for input in inputs {
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
