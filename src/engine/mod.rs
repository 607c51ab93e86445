//! The session.
/// Runs protocol mode on stdin/stdout; returns the exit code.
pub fn run_stdio() -> i32 { 0 }
