//! Blokus SGF (`.blksgf`), the game record format of the reference Blokus program and its match
//! runner: reading a record's main line into a [`Game`], for GTP `loadsgf`.
//!
//! The format: SGF 4 syntax; the root node's `GM` names the variant (see [`GAME_NAMES`]:
//! `Blokus`, `Blokus Two-Player`, `Blokus Three-Player`, `Blokus Duo`, `Blokus Junior`, the
//! three of Trigon, the four of Callisto and `Nexos`, `Nexos Two-Player`); a move is a node
//! with one move property whose value is the piece's squares joined by commas
//! (`B[f9,e10,f10,g10,f11]`; Nexos: its segments). Move properties
//! are `B` / `W` in the two-colour variants (Duo, Junior, Callisto Two-Player; `1` / `2` as
//! some old records have them are read too) and `1` .. `4` (the colours in playing order) in
//! the others. Passes are implicit: a colour that cannot
//! move simply has no node. Variations are allowed; the main line (the first child at every
//! branch) is read. Of a file holding several games (a match runner's output) the first game is
//! read. Setup properties (`AB`, `AW`, `A1` .. `A4`, `AE`) are refused.
//!
//! Errors are returned as messages; nothing here panics on any input.

use super::board::Variant;
use super::game::Game;

/// The `GM` values (and `set_game` names) of the variants.
pub const GAME_NAMES: [(&str, Variant); 14] = [
    ("Blokus", Variant::Classic),
    ("Blokus Two-Player", Variant::Two),
    ("Blokus Three-Player", Variant::Three),
    ("Blokus Duo", Variant::Duo),
    ("Blokus Junior", Variant::Junior),
    ("Blokus Trigon", Variant::Trigon),
    ("Blokus Trigon Two-Player", Variant::Trigon2),
    ("Blokus Trigon Three-Player", Variant::Trigon3),
    ("Callisto", Variant::Callisto),
    ("Callisto Two-Player", Variant::Callisto2),
    ("Callisto Two-Player Four-Color", Variant::Callisto24),
    ("Callisto Three-Player", Variant::Callisto3),
    ("Nexos", Variant::Nexos),
    ("Nexos Two-Player", Variant::Nexos2),
];

/// The main line of a record: its variant and its moves as (colour index, squares text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The variant named by `GM`.
    pub variant: Variant,
    /// The moves in order: colour (0-based, in playing order) and the move's value.
    pub moves: Vec<(usize, String)>,
}

/// One node: its properties (identifier, values) in file order.
type Node = Vec<(String, Vec<String>)>;

/// Most nested variations accepted (a bound on the parser's stack).
const MAX_NESTING: usize = 100_000;

/// Parses the first game tree of `text` and returns the nodes of its main line.
fn main_line(text: &str) -> Result<Vec<Node>, String> {
    let bytes = text.as_bytes();
    let mut pos = 0;
    let skip_ws = |pos: &mut usize| {
        while *pos < bytes.len() && bytes[*pos].is_ascii_whitespace() {
            *pos += 1;
        }
    };
    // A UTF-8 byte order mark is tolerated.
    if text.starts_with('\u{feff}') {
        pos = 3;
    }
    skip_ws(&mut pos);
    if bytes.get(pos) != Some(&b'(') {
        return Err("not an SGF file: it does not start with '('".into());
    }
    pos += 1;
    // One entry per open tree: (on the main line, a subtree of it was opened already).
    let mut stack: Vec<(bool, bool)> = vec![(true, false)];
    let mut nodes: Vec<Node> = Vec::new();
    loop {
        skip_ws(&mut pos);
        let Some(&b) = bytes.get(pos) else {
            return Err("unexpected end of the SGF file (a ')' is missing)".into());
        };
        match b {
            b';' => {
                pos += 1;
                let (main, opened) = *stack.last().expect("an open tree");
                if opened {
                    return Err(format!(
                        "SGF syntax: a node after a variation at byte {pos}"
                    ));
                }
                let node = parse_node(text, &mut pos)?;
                if main {
                    nodes.push(node);
                }
            }
            b'(' => {
                pos += 1;
                if stack.len() >= MAX_NESTING {
                    return Err("SGF file nested too deeply".into());
                }
                let top = stack.last_mut().expect("an open tree");
                let main = top.0 && !top.1;
                top.1 = true;
                stack.push((main, false));
            }
            b')' => {
                pos += 1;
                stack.pop();
                if stack.is_empty() {
                    return Ok(nodes);
                }
            }
            other => {
                return Err(format!(
                    "SGF syntax: unexpected '{}' at byte {pos}",
                    char::from(other).escape_default()
                ));
            }
        }
    }
}

/// Parses the properties of one node; `pos` is just after its `;`.
fn parse_node(text: &str, pos: &mut usize) -> Result<Node, String> {
    let bytes = text.as_bytes();
    let mut node: Node = Vec::new();
    loop {
        while *pos < bytes.len() && bytes[*pos].is_ascii_whitespace() {
            *pos += 1;
        }
        match bytes.get(*pos) {
            None | Some(b';' | b'(' | b')') => return Ok(node),
            _ => {}
        }
        let start = *pos;
        while *pos < bytes.len() && bytes[*pos].is_ascii_alphanumeric() {
            *pos += 1;
        }
        if *pos == start {
            return Err(format!(
                "SGF syntax: expected a property at byte {start}, got '{}'",
                char::from(bytes[start]).escape_default()
            ));
        }
        let id = text[start..*pos].to_string();
        while *pos < bytes.len() && bytes[*pos].is_ascii_whitespace() {
            *pos += 1;
        }
        let mut values = Vec::new();
        while bytes.get(*pos) == Some(&b'[') {
            *pos += 1;
            let mut value = String::new();
            let mut chunk = *pos;
            loop {
                match bytes.get(*pos) {
                    None => return Err(format!("SGF syntax: the value of {id} is not closed")),
                    Some(b']') => {
                        value.push_str(&text[chunk..*pos]);
                        *pos += 1;
                        break;
                    }
                    Some(b'\\') => {
                        value.push_str(&text[chunk..*pos]);
                        *pos += 1;
                        // The escaped character is kept as it is (it may be multi-byte).
                        chunk = *pos;
                        if *pos < bytes.len() {
                            *pos += 1;
                            while *pos < bytes.len() && !text.is_char_boundary(*pos) {
                                *pos += 1;
                            }
                        }
                    }
                    Some(_) => *pos += 1,
                }
            }
            values.push(value);
            while *pos < bytes.len() && bytes[*pos].is_ascii_whitespace() {
                *pos += 1;
            }
        }
        if values.is_empty() {
            return Err(format!("SGF syntax: property {id} has no value"));
        }
        node.push((id, values));
    }
}

/// The colour a move property stands for in a game of `ncolours` colours, `None` if it is no
/// move property.
fn move_colour(ncolours: usize, id: &str) -> Option<usize> {
    if ncolours == 2 {
        match id {
            "B" | "1" => Some(0),
            "W" | "2" => Some(1),
            _ => None,
        }
    } else {
        match id {
            "1" | "BLUE" => Some(0),
            "2" | "YELLOW" => Some(1),
            "3" | "RED" => Some(2),
            "4" | "GREEN" => Some(3),
            _ => None,
        }
        .filter(|&c| c < ncolours)
    }
}

/// The `GM` (game) value of the first game in `text`.
pub fn game_name(text: &str) -> Result<String, String> {
    let nodes = main_line(text)?;
    let root = nodes.first().ok_or("the SGF game has no node")?;
    root.iter()
        .find(|(id, _)| id == "GM")
        .map(|(_, v)| v[0].trim().to_string())
        .ok_or_else(|| "the SGF game has no GM (game) property".to_string())
}

/// Reads the main line of the first game in `text`.
pub fn parse(text: &str) -> Result<Record, String> {
    let gm = game_name(text)?;
    let variant = GAME_NAMES
        .iter()
        .find(|(name, _)| *name == gm)
        .map(|&(_, v)| v)
        .ok_or_else(|| {
            let known: Vec<&str> = GAME_NAMES.iter().map(|(name, _)| *name).collect();
            format!("unsupported game '{gm}' (known: {})", known.join(", "))
        })?;
    let moves = main_line_moves(text, variant.ncolours())?;
    Ok(Record { variant, moves })
}

/// The moves of the main line of the first game in `text`, a game of `ncolours` colours: (colour
/// index, the move's value).
pub fn main_line_moves(text: &str, ncolours: usize) -> Result<Vec<(usize, String)>, String> {
    let nodes = main_line(text)?;
    let mut moves = Vec::new();
    for node in &nodes {
        let mut found = None;
        for (id, values) in node {
            if matches!(id.as_str(), "AB" | "AW" | "A1" | "A2" | "A3" | "A4" | "AE") {
                return Err(format!(
                    "setup properties ({id}) are not supported, only games from the empty board"
                ));
            }
            if ncolours > 2 && matches!(id.as_str(), "B" | "W") {
                return Err(format!(
                    "move property {id} in a game of {ncolours} colours (colours are 1 to {ncolours})"
                ));
            }
            let Some(c) = move_colour(ncolours, id) else {
                continue;
            };
            if found.is_some() {
                return Err(format!("node {} has two moves", moves.len() + 1));
            }
            // Very old records wrote a move as one value per square.
            found = Some((c, values.join(",")));
        }
        if let Some(m) = found {
            moves.push(m);
        }
    }
    Ok(moves)
}

/// How many of a record's `n` moves come before move `move_number` (1-based: `Some(1)` is the
/// empty board, `Some(n + 1)` the last position), all of them with `None`.
pub fn moves_before(n: usize, move_number: Option<usize>) -> Result<usize, String> {
    match move_number {
        None => Ok(n),
        Some(k) if (1..=n + 1).contains(&k) => Ok(k - 1),
        Some(k) => Err(format!(
            "move number {k} out of range: the record has {n} moves (1 to {})",
            n + 1
        )),
    }
}

/// The game after the record's moves before move `move_number` (1-based: `Some(1)` is the empty
/// board, `Some(k)` the position after `k - 1` moves, `Some(n + 1)` for a record of `n` moves
/// the last position), or after all of them with `None`. Every move is checked by the rules.
pub fn load(text: &str, move_number: Option<usize>) -> Result<Game, String> {
    let record = parse(text)?;
    let count = moves_before(record.moves.len(), move_number)?;
    let mut game = Game::new(record.variant);
    let t = game.board.tables();
    let names = record.variant.colour_names();
    for (i, (c, text)) in record.moves[..count].iter().enumerate() {
        t.parse_move(text)
            .and_then(|m| game.play(*c, m))
            .map_err(|e| format!("move {} ({} '{text}'): {e}", i + 1, names[*c]))?;
    }
    Ok(game)
}

/// [`load`] of a file.
pub fn load_file(path: &str, move_number: Option<usize>) -> Result<Game, String> {
    let text = read_file(path)?;
    load(&text, move_number).map_err(|e| format!("'{path}': {e}"))
}

/// The text of a record file.
pub fn read_file(path: &str) -> Result<String, String> {
    let text = std::fs::read(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
    String::from_utf8(text).map_err(|_| format!("'{path}' is not UTF-8 text"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DUO: &str = include_str!("../../../tests/data/blokus/duo-twogtp.blksgf");
    const CLASSIC: &str = include_str!("../../../tests/data/blokus/classic-twogtp.blksgf");
    const JUNIOR: &str = include_str!("../../../tests/data/blokus/junior-twogtp.blksgf");
    const TRIGON: &str = include_str!("../../../tests/data/blokus/trigon-twogtp.blksgf");
    const TRIGON_3: &str = include_str!("../../../tests/data/blokus/trigon3-twogtp.blksgf");

    /// The moves of a one-line record without variations, split by hand: (property, value).
    fn split_moves(text: &str) -> Vec<(String, String)> {
        text.trim()
            .trim_end_matches(')')
            .split(';')
            .skip(2)
            .map(|node| {
                let (id, rest) = node.split_once('[').unwrap();
                (id.to_string(), rest.trim_end_matches(']').to_string())
            })
            .collect()
    }

    /// The game reached by playing `moves` (colour from the property) through the checked path.
    fn replay(variant: Variant, moves: &[(String, String)]) -> Game {
        let mut g = Game::new(variant);
        for (id, mv) in moves {
            let c = match id.as_str() {
                "B" | "1" => 0,
                "W" | "2" => 1,
                "3" => 2,
                "4" => 3,
                _ => panic!("property {id}"),
            };
            let m = g.board.tables().parse_move(mv).unwrap();
            g.play(c, m).unwrap();
        }
        g
    }

    /// The error of a load that must fail.
    fn err(r: Result<Game, String>) -> String {
        match r {
            Ok(g) => panic!("loaded, {} moves", g.history.len()),
            Err(e) => e,
        }
    }

    fn same(a: &Game, b: &Game) {
        assert_eq!(a.variant(), b.variant());
        assert_eq!(a.history, b.history);
        assert_eq!(a.board.rows(), b.board.rows());
        assert_eq!(a.show(), b.show());
    }

    #[test]
    fn twogtp_records_load_as_their_moves_played() {
        for (text, variant, nmoves) in [
            (DUO, Variant::Duo, 32),
            (CLASSIC, Variant::Classic, 68),
            (JUNIOR, Variant::Junior, 38),
            (TRIGON, Variant::Trigon, 77),
            (TRIGON_3, Variant::Trigon3, 60),
        ] {
            let moves = split_moves(text);
            assert_eq!(moves.len(), nmoves);
            let g = load(text, None).unwrap();
            same(&g, &replay(variant, &moves));
            let mut b = g.board.clone();
            assert!(b.game_over(), "the match runner plays to the end");
        }
    }

    #[test]
    fn final_scores_agree_with_the_reference_program() {
        // `loadsgf` then `final_score` in the reference engine: B+16, 81 66 66 83, B+11.
        let duo = load(DUO, None).unwrap();
        let p = duo.board.player_points();
        assert_eq!(p[0] - p[1], 16);
        let classic = load(CLASSIC, None).unwrap();
        assert_eq!(
            (0..4).map(|c| classic.board.points(c)).collect::<Vec<_>>(),
            vec![81, 66, 66, 83]
        );
        let junior = load(JUNIOR, None).unwrap();
        let p = junior.board.player_points();
        assert_eq!(p[0] - p[1], 11);
        // Trigon: 102 95 103 90; Three-Player: 97 125 98.
        let trigon = load(TRIGON, None).unwrap();
        assert_eq!(
            (0..4).map(|c| trigon.board.points(c)).collect::<Vec<_>>(),
            vec![102, 95, 103, 90]
        );
        let trigon_3 = load(TRIGON_3, None).unwrap();
        assert_eq!(trigon_3.board.player_points(), vec![97, 125, 98]);
    }

    #[test]
    fn move_numbers_give_the_position_before_that_move() {
        let moves = split_moves(DUO);
        let n = moves.len();
        for k in [1, 2, 5, 17, n, n + 1] {
            let g = load(DUO, Some(k)).unwrap();
            assert_eq!(g.history.len(), k - 1, "move number {k}");
            same(&g, &replay(Variant::Duo, &moves[..k - 1]));
        }
        let empty = load(DUO, Some(1)).unwrap();
        same(&empty, &Game::new(Variant::Duo));
        same(&load(DUO, Some(n + 1)).unwrap(), &load(DUO, None).unwrap());
        let e = err(load(DUO, Some(0)));
        assert!(e.contains("out of range"), "{e}");
        let e = err(load(DUO, Some(n + 2)));
        assert_eq!(
            e,
            format!(
                "move number {} out of range: the record has 32 moves (1 to 33)",
                n + 2
            )
        );
    }

    #[test]
    fn implicit_passes_keep_the_turn_order() {
        // Black moves four times in a row at the end of the Duo record: white cannot move.
        let g = load(DUO, None).unwrap();
        let colours: Vec<usize> = g.history.iter().rev().take(4).map(|h| h.0).collect();
        assert_eq!(colours, vec![0, 0, 0, 0]);
        // After white's last move (move 28) black is to play; after black's next one, white
        // cannot move and black plays again.
        let mut b = load(DUO, Some(29)).unwrap().board;
        assert_eq!(b.effective_to_play(), Some(0));
        let mut b = load(DUO, Some(30)).unwrap().board;
        assert_eq!(b.to_play(), 1);
        assert_eq!(b.effective_to_play(), Some(0));
    }

    #[test]
    fn the_main_line_is_read_and_variations_skipped() {
        let text = "(;FF[4]CA[UTF-8]AP[x:1]GM[Blokus Duo]C[a comment \\] with a bracket]\n\
                    ;B[e10,e11](;W[j5];B[f12,f13,f14])(;W[i4,j4,j5]))\n(;GM[Blokus];1[a20])";
        let r = parse(text).unwrap();
        assert_eq!(r.variant, Variant::Duo);
        assert_eq!(
            r.moves,
            vec![
                (0, "e10,e11".to_string()),
                (1, "j5".to_string()),
                (0, "f12,f13,f14".to_string())
            ]
        );
        let g = load(text, None).unwrap();
        assert_eq!(g.history.len(), 3);
        // Squares in any order and case, whitespace between nodes and properties.
        let g2 = load(
            "  (\r\n;GM[Blokus Duo]\r\n;B [E11,e10]\n;W[J5]\n;B[f14,f12,F13])",
            None,
        )
        .unwrap();
        same(&g, &g2);
    }

    #[test]
    fn bad_records_are_errors() {
        let cases = [
            ("", "not an SGF file"),
            ("GM[Blokus]", "not an SGF file"),
            ("(;GM[Blokus Duo];B[e10]", "unexpected end"),
            ("(;GM[Blokus Duo];B[e10", "not closed"),
            ("(;GM[Blokus Duo];B)", "has no value"),
            ("(;GM[Blokus Duo];B[e10]}", "got '}'"),
            ("(;GM[Blokus Duo];[e10])", "expected a property"),
            ("(;B[e10])", "no GM"),
            ("(;GM[Go];B[e10])", "unsupported game 'Go'"),
            (
                "(;GM[Blokus Duo](;B[e10]);W[j5])",
                "a node after a variation",
            ),
            (
                "(;GM[Blokus Duo]AB[e10,e11];W[j5])",
                "setup properties (AB)",
            ),
            ("(;GM[Blokus];B[a20])", "a game of 4 colours"),
            ("(;GM[Blokus Duo];B[e10]W[j5])", "two moves"),
            ("(;GM[Blokus Duo];B[e10];W[j6])", "move 2 (white 'j6')"),
            (
                "(;GM[Blokus Duo];B[e10];W[j5];B[e10])",
                "move 3 (black 'e10'): illegal move",
            ),
            ("(;GM[Blokus Duo];B[e10,z99])", "bad square 'z99'"),
            ("(;GM[Blokus Duo];B[e10,e12])", "not the shape of any piece"),
            (
                "(;GM[Blokus];1[a20];2[t20];3[t1];4[a2])",
                "move 4 (green 'a2')",
            ),
            (
                "(;GM[Blokus Junior];B[e10];W[j5];B[f11];W[i4];B[g12])",
                "no piece 1 left",
            ),
        ];
        for (text, want) in cases {
            let e = err(load(text, None));
            assert!(e.contains(want), "{text:?}: {e}");
        }
        // A move number beyond a bad move is not reached: the position before it loads.
        assert!(load("(;GM[Blokus Duo];B[e10];W[j6])", Some(2)).is_ok());
        // Non-ASCII text and odd bytes never panic.
        for text in [
            "(;GM[Blokus Duo]C[é\\é];B[e10])",
            "(;GM[Blokus Duo]C[\\",
            "(\u{feff}",
        ] {
            let _ = load(text, None);
        }
        assert!(load("\u{feff}(;GM[Blokus Duo];B[e10])", None).is_ok());
    }

    #[test]
    fn load_file_reports_missing_and_bad_files() {
        let e = err(load_file("/nonexistent/dir/x.blksgf", None));
        assert!(
            e.starts_with("cannot read '/nonexistent/dir/x.blksgf'"),
            "{e}"
        );
        let dir = std::env::temp_dir().join(format!("tessera-sgf-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("bad.blksgf");
        std::fs::write(&bad, [b'(', b';', 0xff, b')']).unwrap();
        let e = err(load_file(bad.to_str().unwrap(), None));
        assert!(e.contains("not UTF-8"), "{e}");
        let good = dir.join("good.blksgf");
        std::fs::write(&good, DUO).unwrap();
        let g = load_file(good.to_str().unwrap(), Some(3)).unwrap();
        assert_eq!(g.history.len(), 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
