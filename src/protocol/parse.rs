//! Parsing command lines with nom.

use super::Command;
use crate::search::Limits;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_till1};
use nom::character::complete::space0;
use nom::combinator::all_consuming;
use nom::multi::many0;
use nom::sequence::{delimited, preceded};
use nom::{IResult, Parser};
use std::fmt;

/// Why a line is not a command; shown to the client as `error <message>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn err(message: impl Into<String>) -> ParseError {
    ParseError(message.into())
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// One token: a run of characters other than spaces and tabs, after optional blanks.
fn token(input: &str) -> IResult<&str, &str> {
    preceded(space0, take_till1(is_blank)).parse(input)
}

/// All tokens of the rest of a line.
fn tokens(input: &str) -> IResult<&str, Vec<&str>> {
    all_consuming(delimited(space0, many0(token), space0)).parse(input)
}

/// A command keyword, which must stand alone as a token.
fn keyword(input: &str) -> IResult<&str, &str> {
    let words = alt((
        tag("tei"),
        tag("isready"),
        tag("setoption"),
        tag("newgame"),
        tag("position"),
        tag("pieces"),
        tag("go"),
        tag("stop"),
        tag("show"),
        tag("legal"),
        tag("hint"),
        tag("quit"),
    ));
    let (rest, word) = preceded(space0, words).parse(input)?;
    // "goat" must not parse as "go" + "at".
    match rest.chars().next() {
        Some(c) if !is_blank(c) => Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::Tag,
        ))),
        _ => Ok((rest, word)),
    }
}

/// Parses one line (without its line ending). `Ok(None)` for a blank line.
pub fn parse_line(line: &str) -> Result<Option<Command>, ParseError> {
    let line = line.trim_end_matches(['\r', '\n']);
    let Ok((_, words)) = tokens(line) else {
        return Err(err("could not read the line"));
    };
    if words.is_empty() {
        return Ok(None);
    }
    let Ok((rest, word)) = keyword(line) else {
        return Err(err(format!("unknown command '{}'", clip(words[0]))));
    };
    let args: Vec<&str> = tokens(rest).map(|(_, t)| t).unwrap_or_default();
    let no_args = |command: Command| {
        if args.is_empty() {
            Ok(command)
        } else {
            Err(err(format!(
                "{word} takes no arguments, got '{}'",
                clip(args[0])
            )))
        }
    };
    let owned = |t: &[&str]| t.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let command = match word {
        "tei" => no_args(Command::Tei),
        "isready" => no_args(Command::IsReady),
        "stop" => no_args(Command::Stop),
        "show" => no_args(Command::Show),
        "legal" => no_args(Command::Legal),
        "quit" => no_args(Command::Quit),
        "setoption" => parse_setoption(&args),
        "newgame" => parse_newgame(&args),
        "position" => Ok(Command::Position(owned(&args))),
        "pieces" => Ok(Command::Pieces(owned(&args))),
        "hint" => Ok(Command::Hint(owned(&args))),
        "go" => parse_go(&args).map(Command::Go),
        _ => unreachable!("keyword() accepts only the words above"),
    }?;
    Ok(Some(command))
}

/// Keeps error messages short when a client sends a huge token.
fn clip(s: &str) -> String {
    const MAX: usize = 40;
    match s.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}...", &s[..at]),
        None => s.to_string(),
    }
}

/// `setoption name <words> value <words>`; the name may have spaces, the value may be empty.
fn parse_setoption(args: &[&str]) -> Result<Command, ParseError> {
    if args.first() != Some(&"name") {
        return Err(err("setoption needs 'name <name> value <value>'"));
    }
    let value_at = args.iter().position(|&w| w == "value");
    let name_end = value_at.unwrap_or(args.len());
    let name = args[1..name_end].join(" ");
    if name.is_empty() {
        return Err(err("setoption needs an option name after 'name'"));
    }
    let value = value_at
        .map(|at| args[at + 1..].join(" "))
        .unwrap_or_default();
    Ok(Command::SetOption { name, value })
}

/// `newgame <game> [<key> <value>]...`.
fn parse_newgame(args: &[&str]) -> Result<Command, ParseError> {
    let Some((game, rest)) = args.split_first() else {
        return Err(err("newgame needs a game name"));
    };
    if rest.len() % 2 != 0 {
        return Err(err(format!(
            "newgame parameter '{}' has no value",
            clip(rest[rest.len() - 1])
        )));
    }
    let params = rest
        .chunks(2)
        .map(|kv| (kv[0].to_string(), kv[1].to_string()))
        .collect();
    Ok(Command::NewGame {
        game: game.to_string(),
        params,
    })
}

/// A non-negative integer argument.
fn number<T: std::str::FromStr>(name: &str, value: Option<&&str>) -> Result<T, ParseError> {
    let Some(value) = value else {
        return Err(err(format!("go {name} needs a value")));
    };
    let digits = all_consuming(nom::character::complete::digit1::<&str, nom::error::Error<&str>>)
        .parse(value)
        .is_ok();
    match value.parse::<T>() {
        Ok(n) if digits => Ok(n),
        _ => Err(err(format!(
            "go {name} needs a non-negative integer, got '{}'",
            clip(value)
        ))),
    }
}

/// `go [movetime <ms>] [depth <n>] [nodes <n>] [time <ms>] [inc <ms>] [infinite]`.
fn parse_go(args: &[&str]) -> Result<Limits, ParseError> {
    let mut limits = Limits::default();
    let mut i = 0;
    while i < args.len() {
        let name = args[i];
        let value = args.get(i + 1);
        match name {
            "infinite" => {
                limits.infinite = true;
                i += 1;
                continue;
            }
            "movetime" => limits.movetime = Some(number(name, value)?),
            "depth" => limits.depth = Some(number(name, value)?),
            "nodes" => limits.nodes = Some(number(name, value)?),
            "time" => limits.time = Some(number(name, value)?),
            "inc" => limits.inc = Some(number(name, value)?),
            _ => return Err(err(format!("unknown go parameter '{}'", clip(name)))),
        }
        i += 2;
    }
    if limits.depth == Some(0) {
        return Err(err("go depth must be at least 1"));
    }
    Ok(limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Command {
        parse_line(line).unwrap().unwrap()
    }

    #[test]
    fn simple_commands_and_blank_lines() {
        assert_eq!(parse("tei"), Command::Tei);
        assert_eq!(parse("  isready \r"), Command::IsReady);
        assert_eq!(parse_line("   \t "), Ok(None));
        assert!(parse_line("goat").is_err());
        assert!(parse_line("TEI").is_err());
        assert!(parse_line("stop now").is_err());
    }

    #[test]
    fn go_limits() {
        let limits = parse("go movetime 250 depth 3\tnodes 1000 time 5000 inc 50 infinite");
        assert_eq!(
            limits,
            Command::Go(Limits {
                movetime: Some(250),
                depth: Some(3),
                nodes: Some(1000),
                time: Some(5000),
                inc: Some(50),
                infinite: true
            })
        );
        assert!(
            parse_line("go movetime -5")
                .unwrap_err()
                .0
                .contains("non-negative")
        );
        assert!(parse_line("go movetime abc").is_err());
        assert!(parse_line("go movetime").is_err());
        assert!(parse_line("go depth 0").is_err());
        assert!(parse_line("go ponder").is_err());
        assert!(parse_line("go movetime 99999999999999999999999").is_err());
    }

    #[test]
    fn setoption_and_newgame() {
        assert_eq!(
            parse("setoption name Move Overhead value 30"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: "30".into()
            }
        );
        assert!(parse_line("setoption value 3").is_err());
        assert_eq!(
            parse("newgame blockudoku pieceset woodoku49"),
            Command::NewGame {
                game: "blockudoku".into(),
                params: vec![("pieceset".into(), "woodoku49".into())]
            }
        );
        assert!(parse_line("newgame").is_err());
        assert!(parse_line("newgame blockudoku pieceset").is_err());
    }
}
