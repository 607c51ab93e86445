//! Opening books: the move to play in the first positions of a game, found beforehand by deep
//! searches (`tessera book`), so those moves cost no thinking time and are better than a
//! short search finds. Every variant has a built-in book, `data/blokus/book_<variant>.txt`.
//!
//! Format: `#` starts a comment; `variant NAME` names the variant; every other line is the moves
//! from the start of the game (GTP notation, colours in turn from the first), then the book
//! move.

use super::board::{PASS, Variant};
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::OnceLock;

/// A book of any board family: positions, keyed by the moves that lead to them from the start
/// (colours in turn from the first), and their moves; `V` the family's variant, `M` its move.
#[derive(Debug)]
pub struct OpeningBook<V, M> {
    variant: V,
    moves: HashMap<Vec<M>, M>,
}

/// The book of the square, triangle and segment boards (GembloQ's: `gembloq::book`).
pub type Book = OpeningBook<Variant, u16>;

impl<V: Copy + PartialEq, M: Copy + Eq + Hash> OpeningBook<V, M> {
    /// Reads a book's text (see the module's format): `variant` parses the variant's name,
    /// `parse_move` a move of that variant.
    pub fn parse_with(
        text: &str,
        variant: impl Fn(&str) -> Result<V, String>,
        parse_move: impl Fn(V, &str) -> Result<M, String>,
    ) -> Result<Self, String> {
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
        Ok(OpeningBook { variant, moves })
    }

    /// The book move after the game's moves `history` (colour, move), if the game is the
    /// book's variant of `ncolours` colours, went in turn from the first colour without a
    /// `pass`, and is in the book.
    pub fn lookup_in_turn(
        &self,
        variant: V,
        ncolours: usize,
        history: &[(usize, M)],
        pass: Option<M>,
    ) -> Option<M> {
        let in_turn =
            (history.iter().enumerate()).all(|(k, &(c, m))| c == k % ncolours && Some(m) != pass);
        if variant != self.variant || !in_turn {
            return None;
        }
        let key: Vec<M> = history.iter().map(|&(_, m)| m).collect();
        self.moves.get(&key).copied()
    }

    /// The book's variant.
    pub fn variant(&self) -> V {
        self.variant
    }

    /// The positions and their book moves.
    pub fn lines(&self) -> impl Iterator<Item = (&[M], M)> {
        self.moves.iter().map(|(line, &m)| (line.as_slice(), m))
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

impl Book {
    /// Reads a book; every move must be one of the variant's placements.
    pub fn parse(text: &str) -> Result<Book, String> {
        Book::parse_with(text, Variant::parse, |v, s| v.tables().parse_move(s))
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
        self.lookup_in_turn(variant, variant.ncolours(), history, Some(PASS))
    }
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
            assert_eq!(book.variant(), variant, "{name}");
            assert!(book.len() > 10, "{name}: {}", book.len());
            let (t, nc) = (variant.tables(), variant.ncolours());
            let mut movegen = MoveGen::new(t);
            for (line, answer) in book.lines() {
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
