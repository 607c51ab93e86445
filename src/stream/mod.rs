//! The two ends of a text front end (protocol mode, GTP): command lines read from the input,
//! answer lines written to the output without ever waiting for the client to read them.

pub mod output;
pub mod reader;

pub use output::Output;

use std::time::Duration;

/// How long the process waits at exit for a client that takes none of its last answers.
pub const EXIT_PATIENCE: Duration = Duration::from_secs(5);
