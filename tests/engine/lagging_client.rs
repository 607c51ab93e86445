//! A client that writes ahead and reads behind, as a busy GUI does: each batch of commands is
//! written whole before anything is read, their answers are far larger than a pipe holds, and
//! only the answers up to the batch's first synchronisation answer (`readyok`) are read before
//! the next batch goes out. The engine must keep reading its input all the while: the run ends
//! in bounded time with every command answered, in protocol mode and in GTP mode.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

/// How long one batch may take before the run counts as deadlocked (a batch takes well under a
/// second when the engine keeps reading).
const BATCH_BOUND: Duration = Duration::from_secs(30);

/// What the lagging client saw: every answer line, in order.
struct Run {
    lines: Vec<String>,
}

impl Run {
    fn count(&self, starts: &str) -> usize {
        self.lines.iter().filter(|l| l.starts_with(starts)).count()
    }
}

/// Starts `tessera args`, writes `setup` then each batch whole, reading after each batch only
/// up to the first line equal to `sync`; at the end sends `last` and closes the input, then
/// reads everything left. Fails if a batch is not through within [`BATCH_BOUND`].
fn lagging_run(args: &[&str], setup: &[String], batches: &[Vec<String>], sync: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the engine starts");
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let text = |lines: &[String]| lines.iter().map(|l| format!("{l}\n")).collect::<String>();
    let setup = text(setup);
    let count = batches.len();
    let batches: Vec<String> = batches.iter().map(|b| text(b)).collect();
    let sync = sync.to_string();
    let (progress, events) = channel();
    let client = std::thread::spawn(move || {
        let mut seen = Vec::new();
        let mut read_to_sync = |seen: &mut Vec<String>| {
            let mut line = String::new();
            loop {
                line.clear();
                if output.read_line(&mut line).unwrap_or(0) == 0 {
                    return false;
                }
                let answer = line.trim_end_matches('\n').to_string();
                let done = answer == sync;
                seen.push(answer);
                if done {
                    return true;
                }
            }
        };
        input.write_all(setup.as_bytes()).unwrap();
        for batch in &batches {
            if input.write_all(batch.as_bytes()).is_err() || input.flush().is_err() {
                return seen;
            }
            if !read_to_sync(&mut seen) {
                return seen;
            }
            let _ = progress.send(());
        }
        drop(input);
        while read_to_sync(&mut seen) {}
        let _ = progress.send(());
        seen
    });
    for batch in 0..=count {
        match events.recv_timeout(BATCH_BOUND) {
            Ok(()) => {}
            Err(RecvTimeoutError::Timeout) => {
                let _ = child.kill();
                panic!(
                    "deadlock: batch {} of {count} not through in {BATCH_BOUND:?} (the \
                     engine stopped reading while its output was full)",
                    batch + 1
                );
            }
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    let lines = client.join().expect("the client ends");
    let status = child.wait().expect("the engine exits");
    assert!(status.success(), "exit code 0: {status:?}");
    Run { lines }
}

/// The first `n` moves of a Duo game, each the first of `legal` (a realistic long
/// `position` line).
fn duo_moves(n: usize) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut moves: Vec<String> = Vec::new();
    writeln!(input, "newgame blokus variant duo").unwrap();
    for _ in 0..n {
        writeln!(input, "position startpos moves {}", moves.join(" ")).unwrap();
        writeln!(input, "legal").unwrap();
        input.flush().unwrap();
        let mut line = String::new();
        output.read_line(&mut line).unwrap();
        let first = line.split_whitespace().nth(1).expect("a legal move");
        moves.push(first.to_string());
    }
    drop(input);
    child.wait().unwrap();
    moves
}

#[test]
fn a_client_that_reads_behind_never_deadlocks_the_engine() {
    let moves = duo_moves(16);
    let batches = 3;
    let per_batch = 700;
    // Each batch: 700 x (a 100-200 byte position, legal: 3-6 KB), with isready in the middle and
    // at the end. About 90 KB in, 3 MB out: more than a pipe's buffer both ways.
    let batch: Vec<String> = (0..per_batch)
        .flat_map(|i| {
            let position = format!("position startpos moves {}", moves[..8 + i % 7].join(" "));
            let mut lines = vec![position, "legal".to_string()];
            if i == per_batch / 2 || i == per_batch - 1 {
                lines.push("isready".to_string());
            }
            lines
        })
        .collect();
    let input_bytes: usize = batch.iter().map(|l| l.len() + 1).sum();
    assert!(input_bytes > 70_000, "{input_bytes} bytes a batch");
    let setup = vec!["newgame blokus variant duo".to_string()];
    let run = lagging_run(&[], &setup, &vec![batch; batches], "readyok");
    assert_eq!(run.count("readyok"), 2 * batches, "every isready answered");
    assert_eq!(
        run.count("legal"),
        per_batch * batches,
        "every legal answered"
    );
    assert_eq!(
        run.lines.len(),
        (per_batch + 2) * batches,
        "nothing but legal and readyok"
    );
    let out_bytes: usize = run.lines.iter().map(|l| l.len() + 1).sum();
    assert!(out_bytes > 500_000, "{out_bytes} bytes of answers");
    // The same answer to the same position, wherever it fell in the run.
    let first = &run.lines[1];
    let same = run.lines.iter().filter(|l| *l == first).count();
    assert!(
        same >= per_batch * batches / 7,
        "{same} answers equal to the first"
    );
}

#[test]
fn a_gtp_client_that_reads_behind_never_deadlocks_the_engine() {
    let moves = duo_moves(10);
    let batches = 4;
    let per_batch = 400;
    // Each batch: 400 x (clear_board, 4 to 10 plays, all_legal), `name` in the middle and at the end.
    let batch: Vec<String> = (0..per_batch)
        .flat_map(|i| {
            let mut lines = vec!["clear_board".to_string()];
            for (k, mv) in moves.iter().enumerate().take(4 + i % 7) {
                lines.push(format!("play {} {mv}", if k % 2 == 0 { "b" } else { "w" }));
            }
            lines.push(format!("all_legal {}", if i % 2 == 0 { "b" } else { "w" }));
            if i == per_batch / 2 || i == per_batch - 1 {
                lines.push("name".to_string());
            }
            lines
        })
        .collect();
    let commands = batch.len() * batches;
    let setup = vec!["set_game Blokus Duo".to_string()];
    let run = lagging_run(&["gtp"], &setup, &vec![batch; batches], "= tessera");
    let answers = run.count("=") + run.count("?");
    assert_eq!(answers, commands + 1, "every command answered once");
    assert_eq!(
        run.count("?"),
        0,
        "{:?}",
        run.lines.iter().find(|l| l.starts_with('?'))
    );
    assert_eq!(run.count("= tessera"), 2 * batches);
    let out_bytes: usize = run.lines.iter().map(|l| l.len() + 1).sum();
    assert!(out_bytes > 500_000, "{out_bytes} bytes of answers");
}
