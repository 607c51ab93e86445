//! GembloQ's opening books: the books of [`crate::games::blokus::book`] (same text format, built
//! by `tessera book --variant gembloq...`) over GembloQ's placements. Every form has a built-in
//! book, `data/blokus/book_<variant>.txt`.

use super::variant::GembloqVariant;
use crate::games::blokus::book::OpeningBook;
use std::sync::OnceLock;

/// A GembloQ book: positions, keyed by the placements that lead to them, and their moves.
pub type GembloqBook = OpeningBook<GembloqVariant, u32>;

impl GembloqBook {
    /// Reads a book; every move must be one of the variant's placements.
    pub fn parse(text: &str) -> Result<GembloqBook, String> {
        let variant = |name: &str| {
            GembloqVariant::parse(name).ok_or(format!("unknown GembloQ variant '{name}'"))
        };
        GembloqBook::parse_with(text, variant, |v, s| v.placements().parse(s))
    }

    /// The built-in book of `variant` (the tests check that each parses).
    pub fn builtin(variant: GembloqVariant) -> Option<&'static GembloqBook> {
        static BOOKS: [OnceLock<Option<GembloqBook>>; GembloqVariant::ALL.len()] =
            [const { OnceLock::new() }; GembloqVariant::ALL.len()];
        let i = (GembloqVariant::ALL.iter()).position(|&(_, _, v)| v == variant)?;
        BOOKS[i]
            .get_or_init(|| GembloqBook::parse(builtin_text(variant)).ok())
            .as_ref()
    }

    /// The book move after the game's placements `history` (colour, placement), if the game
    /// is the variant's, went in turn from the first colour, and is in the book.
    pub fn lookup(&self, variant: GembloqVariant, history: &[(usize, u32)]) -> Option<u32> {
        self.lookup_in_turn(variant, variant.ncolours(), history, None)
    }
}

/// The text of `variant`'s built-in book.
fn builtin_text(variant: GembloqVariant) -> &'static str {
    match variant {
        GembloqVariant::Four => include_str!("../../../../data/blokus/book_gembloq.txt"),
        GembloqVariant::Two => include_str!("../../../../data/blokus/book_gembloq_2.txt"),
        GembloqVariant::Three => include_str!("../../../../data/blokus/book_gembloq_3.txt"),
        GembloqVariant::TwoFour => include_str!("../../../../data/blokus/book_gembloq_2_4.txt"),
    }
}

#[cfg(test)]
mod tests {
    use super::super::position::Position;
    use super::*;

    #[test]
    fn reads_and_finds_moves_in_turn_only() {
        let v = GembloqVariant::Two;
        let mut pos = Position::new(v);
        let p = v.placements();
        let first = pos.legal(0)[0];
        pos.play(0, first);
        let reply = pos.legal(1)[0];
        let text = format!(
            "# test\nvariant gembloq_2\n{}\n{} {}\n",
            p.name(first),
            p.name(first),
            p.name(reply)
        );
        let book = GembloqBook::parse(&text).unwrap();
        assert_eq!(book.len(), 2);
        assert_eq!(book.lookup(v, &[]), Some(first));
        assert_eq!(book.lookup(v, &[(0, first)]), Some(reply));
        assert_eq!(book.lookup(v, &[(1, first)]), None, "out of turn");
        assert_eq!(
            book.lookup(GembloqVariant::Four, &[]),
            None,
            "another variant"
        );
        assert!(GembloqBook::parse("a1\n").is_err(), "no variant");
        assert!(GembloqBook::parse("variant gembloq_2\nzz99\n").is_err());
        assert!(GembloqBook::parse("variant nonesuch\n").is_err());
    }

    /// Every form has a built-in book, and every move of it is legal where it stands (colours
    /// in turn from the first).
    #[test]
    fn every_builtin_book_is_legal() {
        for (name, _, variant) in GembloqVariant::ALL {
            let book = GembloqBook::builtin(variant).unwrap_or_else(|| panic!("{name}: no book"));
            assert_eq!(book.variant(), variant, "{name}");
            assert!(book.len() > 5, "{name}: {}", book.len());
            let (p, nc) = (variant.placements(), variant.ncolours());
            for (line, answer) in book.lines() {
                let mut pos = Position::new(variant);
                for (k, &m) in line.iter().enumerate() {
                    assert!(pos.check(k % nc, m).is_ok(), "{name}: {}", p.name(m));
                    pos.play(k % nc, m);
                }
                let c = line.len() % nc;
                assert!(pos.check(c, answer).is_ok(), "{name}: {}", p.name(answer));
            }
        }
    }
}
