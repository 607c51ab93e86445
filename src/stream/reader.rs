//! Command lines from the input: splits it into lines and refuses what cannot be a command line
//! (too long, not UTF-8). The session reads them on its own thread, with no hand-over to another
//! thread per line (a wake-up saved per command); end of input counts as `quit`.

use std::io::BufRead;
use std::time::Instant;

/// Longest accepted line in bytes; longer lines are refused whole.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// What the reader passes on.
pub enum Input {
    /// A line of text without its ending, and when it was read.
    Line(String, Instant),
    /// A line that was refused, with the reason.
    Rejected(String),
}

/// Reads one line, keeping at most [`MAX_LINE_BYTES`]; `None` at end of input.
pub fn read_line(source: &mut impl BufRead) -> Option<Input> {
    let mut line = Vec::new();
    let mut too_long = false;
    let mut seen_any = false;
    loop {
        let chunk = match source.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => &[],
        };
        if chunk.is_empty() {
            if !seen_any {
                return None;
            }
            break;
        }
        seen_any = true;
        let (part, used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(at) => (&chunk[..at], at + 1, true),
            None => (chunk, chunk.len(), false),
        };
        if line.len() + part.len() > MAX_LINE_BYTES {
            too_long = true;
        } else {
            line.extend_from_slice(part);
        }
        source.consume(used);
        if done {
            break;
        }
    }
    if too_long {
        return Some(Input::Rejected(format!(
            "line longer than {MAX_LINE_BYTES} bytes"
        )));
    }
    match String::from_utf8(line) {
        Ok(text) => Some(Input::Line(text, Instant::now())),
        Err(_) => Some(Input::Rejected("line is not valid UTF-8".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufReader;

    fn lines(bytes: &[u8]) -> Vec<Result<String, String>> {
        let mut source = BufReader::with_capacity(7, bytes);
        std::iter::from_fn(|| read_line(&mut source))
            .map(|input| match input {
                Input::Line(l, _) => Ok(l),
                Input::Rejected(r) => Err(r),
            })
            .collect()
    }

    #[test]
    fn splits_lines_across_buffer_boundaries() {
        let got = lines(b"isready\r\nposition board x\nquit");
        assert_eq!(
            got,
            vec![
                Ok("isready\r".into()),
                Ok("position board x".into()),
                Ok("quit".into())
            ]
        );
    }

    #[test]
    fn refuses_garbage_and_overlong_lines_but_goes_on() {
        let mut input = vec![0xff, 0xfe, b'\n'];
        input.extend(std::iter::repeat_n(b'a', MAX_LINE_BYTES + 5));
        input.extend_from_slice(b"\nisready\n");
        let got = lines(&input);
        assert_eq!(got.len(), 3);
        assert!(got[0].as_ref().unwrap_err().contains("UTF-8"));
        assert!(got[1].as_ref().unwrap_err().contains("longer"));
        assert_eq!(got[2], Ok("isready".into()));
    }
}
