//! Opening books: the move to play in the first positions of a game, found beforehand by deep
//! searches (`tessera book`), so those moves cost no thinking time and are better than a
//! short search finds. Every variant has a built-in book, `data/blokus/book_<variant>.txt`.
//!
//! Format: `#` starts a comment; `variant NAME` names the variant; every other line is the moves
//! from the start of the game (GTP notation, colours in turn from the first), then the book
//! move.

use super::board::{PASS, Variant};
use std::collections::HashMap;
use std::sync::OnceLock;

/// A book: positions, keyed by the moves that lead to them, and their moves.
#[derive(Debug)]
pub struct Book {
    variant: Variant,
    moves: HashMap<Vec<u16>, u16>,
}

impl Book {
    /// Reads a book; every move must be one of the variant's placements.
    pub fn parse(text: &str) -> Result<Book, String> {
        let (variant, moves) = read_lines(text, Variant::parse, |v, s| v.tables().parse_move(s))?;
        Ok(Book { variant, moves })
    }

    /// The built-in book of `variant` (every variant has one; the tests check that each parses).
    pub fn builtin(variant: Variant) -> Option<&'static Book> {
        static BOOKS: [OnceLock<Option<Book>>; Variant::ALL.len()] =
            [const { OnceLock::new() }; Variant::ALL.len()];
        let i = Variant::ALL.iter().position(|&(_, v)| v == variant)?;
        BOOKS[i]
            .get_or_init(|| Book::parse(builtin_text(variant)).ok())
            .as_ref()
    }

    /// The book move after the game's moves `history` (colour, move or [`PASS`]), if the game
    /// is the variant's, went in turn from the first colour without passing, and is in the book.
    pub fn lookup(&self, variant: Variant, history: &[(usize, u16)]) -> Option<u16> {
        if variant != self.variant {
            return None;
        }
        let nc = variant.ncolours();
        let in_turn = (history.iter().enumerate()).all(|(k, &(c, m))| c == k % nc && m != PASS);
        if !in_turn {
            return None;
        }
        let key: Vec<u16> = history.iter().map(|&(_, m)| m).collect();
        self.moves.get(&key).copied()
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the book is empty.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

/// Reads a book's text (see the module's format) for any board: `variant` parses the variant's
/// name, `parse_move` a move of that variant. Returns the variant and, per position, the moves
/// that lead to it and the book move.
pub fn read_lines<V: Copy, M: Eq + std::hash::Hash>(
    text: &str,
    variant: impl Fn(&str) -> Result<V, String>,
    parse_move: impl Fn(V, &str) -> Result<M, String>,
) -> Result<(V, HashMap<Vec<M>, M>), String> {
    let mut named = None;
    let mut moves = HashMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some(name) = line.strip_prefix("variant ") {
            named = Some(variant(name.trim())?);
            continue;
        }
        let v = named.ok_or(format!("line {}: a move before the variant", n + 1))?;
        let mut ids = (line.split_whitespace())
            .map(|s| parse_move(v, s))
            .collect::<Result<Vec<M>, String>>()
            .map_err(|e| format!("line {}: {e}", n + 1))?;
        let Some(answer) = ids.pop() else {
            continue;
        };
        moves.insert(ids, answer);
    }
    let variant = named.ok_or("the book names no variant")?;
    Ok((variant, moves))
}

/// The text of `variant`'s built-in book (`data/blokus/book_<variant>.txt`, built by `tessera
/// book`).
fn builtin_text(variant: Variant) -> &'static str {
    match variant {
        Variant::Classic => include_str!("../../../data/blokus/book_classic.txt"),
        Variant::Two => include_str!("../../../data/blokus/book_two.txt"),
        Variant::Three => include_str!("../../../data/blokus/book_three.txt"),
        Variant::Duo => include_str!("../../../data/blokus/book_duo.txt"),
        Variant::Junior => include_str!("../../../data/blokus/book_junior.txt"),
        Variant::Trigon => include_str!("../../../data/blokus/book_trigon.txt"),
        Variant::Trigon2 => include_str!("../../../data/blokus/book_trigon_2.txt"),
        Variant::Trigon3 => include_str!("../../../data/blokus/book_trigon_3.txt"),
        Variant::Callisto => include_str!("../../../data/blokus/book_callisto.txt"),
        Variant::Callisto2 => include_str!("../../../data/blokus/book_callisto_2.txt"),
        Variant::Callisto24 => include_str!("../../../data/blokus/book_callisto_2_4.txt"),
        Variant::Callisto3 => include_str!("../../../data/blokus/book_callisto_3.txt"),
        Variant::Nexos => include_str!("../../../data/blokus/book_nexos.txt"),
        Variant::Nexos2 => include_str!("../../../data/blokus/book_nexos_2.txt"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blokus::board::{Board, MoveGen};

    #[test]
    fn reads_and_finds_moves_in_turn_only() {
        let text = "# test\nvariant duo\ne10,d9,e9,f9,e8\ne10,d9,e9,e8,f8 k7,k6,l6,j5,k5\n";
        let book = Book::parse(text).unwrap();
        assert_eq!(book.len(), 2);
        let t = Variant::Duo.tables();
        let first = t.parse_move("e10,d9,e9,e8,f8").unwrap();
        let reply = t.parse_move("k7,k6,l6,j5,k5").unwrap();
        assert_eq!(
            book.lookup(Variant::Duo, &[]),
            t.parse_move("e10,d9,e9,f9,e8").ok()
        );
        assert_eq!(book.lookup(Variant::Duo, &[(0, first)]), Some(reply));
        assert_eq!(
            book.lookup(Variant::Duo, &[(1, first)]),
            None,
            "out of turn"
        );
        assert_eq!(book.lookup(Variant::Junior, &[]), None, "another variant");
        assert!(Book::parse("e10\n").is_err(), "no variant");
        assert!(Book::parse("variant duo\nz99\n").is_err(), "not a move");
    }

    /// Every variant has a built-in book, and every move of it is legal where it stands
    /// (colours in turn from the first).
    #[test]
    fn every_builtin_book_is_legal() {
        for (name, variant) in Variant::ALL {
            let book = Book::builtin(variant).unwrap_or_else(|| panic!("{name}: no book"));
            assert_eq!(book.variant, variant, "{name}");
            assert!(book.len() > 10, "{name}: {}", book.len());
            let (t, nc) = (variant.tables(), variant.ncolours());
            let mut movegen = MoveGen::new(t);
            for (line, &answer) in &book.moves {
                let mut b = Board::new(variant);
                for (k, &m) in line.iter().enumerate() {
                    assert!(b.is_legal(k % nc, m), "{name}: {}", t.move_name(m));
                    b.play(k % nc, m);
                }
                let mut legal = Vec::new();
                b.gen_moves(line.len() % nc, &mut movegen, &mut legal);
                assert!(legal.contains(&answer), "{name}: {}", t.move_name(answer));
            }
        }
    }
}
