//! Opening books: the move to play in the first positions of a game, found beforehand by deep
//! searches (`tessera book`), so those moves cost no thinking time and are better than a
//! short search finds. The built-in Duo book is `data/blokus/book_duo.txt`.
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
        let mut variant = None;
        let mut moves = HashMap::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            if let Some(name) = line.strip_prefix("variant ") {
                variant = Some(Variant::parse(name.trim())?);
                continue;
            }
            let v = variant.ok_or(format!("line {}: a move before the variant", n + 1))?;
            let t = v.tables();
            let ids = (line.split_whitespace())
                .map(|s| t.parse_move(s))
                .collect::<Result<Vec<u16>, String>>()
                .map_err(|e| format!("line {}: {e}", n + 1))?;
            let Some((&answer, before)) = ids.split_last() else {
                continue;
            };
            moves.insert(before.to_vec(), answer);
        }
        let variant = variant.ok_or("the book names no variant")?;
        Ok(Book { variant, moves })
    }

    /// The built-in book of `variant`, if there is one.
    pub fn builtin(variant: Variant) -> Option<&'static Book> {
        static DUO: OnceLock<Option<Book>> = OnceLock::new();
        match variant {
            Variant::Duo => DUO
                .get_or_init(|| Book::parse(include_str!("../../../data/blokus/book_duo.txt")).ok())
                .as_ref(),
            _ => None,
        }
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

    /// Every move of the built-in Duo book is legal where it stands.
    #[test]
    fn the_builtin_duo_book_is_legal() {
        let book = Book::builtin(Variant::Duo).expect("a built-in Duo book");
        assert!(book.len() > 50, "{}", book.len());
        let t = Variant::Duo.tables();
        for (line, &answer) in &book.moves {
            let mut b = Board::new(Variant::Duo);
            for (k, &m) in line.iter().enumerate() {
                assert!(b.is_legal(k % 2, m));
                b.play(k % 2, m);
            }
            let mut legal = Vec::new();
            b.gen_moves(line.len() % 2, &mut MoveGen::new(t), &mut legal);
            assert!(legal.contains(&answer), "{}", t.move_name(answer));
        }
    }
}
