//! A round's rules: positions with score and streak, scoring systems, placements and plans.

use super::board::{self, Board};
use super::piece::Piece;

/// How placements score. Survival is the engine's goal; the score is carried for the client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scoring {
    /// The app's score: +1 per cell; k >= 1 regions cleared: + 18 * k * ceil(k/2), and +9 when
    /// the previous placement cleared too (the streak).
    App,
    /// +1 per cell, +18 per region cleared.
    Simple,
    /// (regions cleared)^2, as in the Block Sudoku seed.
    Squared,
}

impl Scoring {
    /// The scoring systems by name.
    pub const ALL: [(&'static str, Scoring); 3] = [
        ("app", Scoring::App),
        ("simple", Scoring::Simple),
        ("squared", Scoring::Squared),
    ];

    /// Looks a scoring system up by name.
    pub fn parse(name: &str) -> Result<Scoring, String> {
        Self::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, s)| *s)
            .ok_or_else(|| format!("unknown scoring '{name}' (known: app, simple, squared)"))
    }

    /// The points of one placement of `cells` cells that cleared `cleared` regions.
    pub fn points(self, cells: u32, cleared: u32, streak: bool) -> u64 {
        let (cells, k) = (u64::from(cells), u64::from(cleared));
        match self {
            Scoring::App if k == 0 => cells,
            Scoring::App => cells + 18 * k * k.div_ceil(2) + if streak { 9 } else { 0 },
            Scoring::Simple => cells + 18 * k,
            Scoring::Squared => k * k,
        }
    }
}

/// The state between placements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Position {
    /// The filled cells.
    pub board: Board,
    /// Points so far.
    pub score: u64,
    /// Whether the last placement cleared a region.
    pub streak: bool,
}

impl Position {
    /// Places `piece` with its top-left corner on `anchor` (it must fit), clears, scores.
    /// Returns the number of regions cleared.
    pub fn place(&mut self, piece: &Piece, anchor: usize, scoring: Scoring) -> u32 {
        let (board, cleared) = self.board.place(piece.at(anchor));
        self.score += scoring.points(piece.cells, cleared, self.streak);
        self.streak = cleared > 0;
        self.board = board;
        cleared
    }
}

/// One placement of a plan: which piece of the hand (0-based slot) goes where (top-left cell).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Placement {
    /// Index of the piece in the hand.
    pub slot: u8,
    /// The top-left cell of the piece's bounding box.
    pub anchor: u8,
}

impl Placement {
    /// Notation `<slot>@<square>` with the slot counted from 1.
    pub fn notation(self) -> String {
        format!(
            "{}@{}",
            self.slot + 1,
            board::square_name(usize::from(self.anchor))
        )
    }

    /// Parses `<slot>@<square>` for a hand of `hand_len` pieces.
    pub fn parse(text: &str, hand_len: usize) -> Result<Placement, String> {
        let bad = || format!("bad placement '{text}': write <slot>@<square> such as 1@a9");
        let (slot, square) = text.split_once('@').ok_or_else(bad)?;
        let slot: usize = slot.parse().map_err(|_| bad())?;
        if !(1..=hand_len).contains(&slot) {
            return Err(format!(
                "placement '{text}': the hand has slots 1 to {hand_len}"
            ));
        }
        let anchor = board::parse_square(square).ok_or_else(bad)?;
        Ok(Placement {
            slot: (slot - 1) as u8,
            anchor: anchor as u8,
        })
    }
}

/// Plays a whole plan from `position`; an error names the first placement that does not fit
/// or reuses a slot.
pub fn play_plan(
    position: Position,
    hand: &[Piece],
    plan: &[Placement],
    scoring: Scoring,
) -> Result<Position, String> {
    let mut position = position;
    let mut used = 0u32;
    for p in plan {
        let slot = usize::from(p.slot);
        let piece = hand
            .get(slot)
            .ok_or_else(|| format!("{}: no such slot", p.notation()))?;
        if used >> slot & 1 == 1 {
            return Err(format!(
                "{}: slot {} is already placed",
                p.notation(),
                slot + 1
            ));
        }
        if piece.fits(position.board) >> p.anchor & 1 == 0 {
            return Err(format!("{}: the piece does not fit there", p.notation()));
        }
        used |= 1 << slot;
        position.place(piece, usize::from(p.anchor), scoring);
    }
    Ok(position)
}

/// Some order and placement of the whole hand that fits, found depth-first without judging it;
/// empty when the hand cannot be placed whole. At most 6 x 81 x 81 fit tests (a few ms), so it is
/// quick enough to run anywhere.
pub fn first_fit(position: Position, hand: &[Piece], scoring: Scoring) -> Vec<Placement> {
    fn place_rest(
        position: Position,
        hand: &[Piece],
        used: u32,
        scoring: Scoring,
        plan: &mut Vec<Placement>,
    ) -> bool {
        if plan.len() == hand.len() {
            return true;
        }
        for (slot, piece) in hand.iter().enumerate() {
            if used >> slot & 1 == 1 {
                continue;
            }
            for anchor in super::piece::cells_of(piece.fits(position.board)) {
                let mut next = position;
                next.place(piece, anchor, scoring);
                plan.push(Placement {
                    slot: slot as u8,
                    anchor: anchor as u8,
                });
                if place_rest(next, hand, used | 1 << slot, scoring, plan) {
                    return true;
                }
                plan.pop();
            }
        }
        false
    }
    let mut plan = Vec::with_capacity(hand.len());
    place_rest(position, hand, 0, scoring, &mut plan);
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn app_scoring_table() {
        let bonus: Vec<u64> = (1..=8).map(|k| Scoring::App.points(0, k, false)).collect();
        assert_eq!(bonus, vec![18, 36, 108, 144, 270, 324, 504, 576]);
        assert_eq!(Scoring::App.points(3, 1, true), 3 + 18 + 9);
        assert_eq!(Scoring::App.points(3, 0, true), 3);
        assert_eq!(Scoring::Simple.points(4, 2, false), 40);
        assert_eq!(Scoring::Squared.points(4, 3, false), 9);
    }

    #[test]
    fn streak_follows_clears() {
        let row: String = ["########.", "........."].join("/");
        let rest = ["........."; 7].join("/");
        let mut pos = Position {
            board: Board::parse(&format!("{row}/{rest}")).unwrap(),
            ..Position::default()
        };
        let mono = Piece::parse("#").unwrap();
        assert_eq!(pos.place(&mono, 8, Scoring::App), 1);
        assert!(pos.streak);
        assert_eq!(pos.score, 19);
        assert_eq!(pos.place(&mono, 40, Scoring::App), 0);
        assert!(!pos.streak);
    }

    #[test]
    fn first_fit_finds_the_order_that_places_the_whole_hand() {
        // Full but for the bottom-left corner: the square fits only after the monomino clears
        // every row.
        let text = format!("{}/.########", ["#########"; 8].join("/"));
        let board = Board::parse(&text).unwrap();
        let hand = [
            Piece::parse("###/###/###").unwrap(),
            Piece::parse("#").unwrap(),
        ];
        let start = Position {
            board,
            ..Position::default()
        };
        let plan = first_fit(start, &hand, Scoring::App);
        let names: Vec<String> = plan.iter().map(|p| p.notation()).collect();
        assert_eq!(names, ["2@a1", "1@a9"]);
        assert!(play_plan(start, &hand, &plan, Scoring::App).is_ok());
        let stuck = [Piece::parse("##").unwrap(), Piece::parse("#").unwrap()];
        assert!(first_fit(start, &stuck[..1], Scoring::App).is_empty());
        assert_eq!(first_fit(start, &stuck, Scoring::App).len(), 2);
    }

    #[test]
    fn placements_parse() {
        assert_eq!(
            Placement::parse("2@c7", 3),
            Ok(Placement {
                slot: 1,
                anchor: 20
            })
        );
        assert_eq!(Placement::parse("2@c7", 3).unwrap().notation(), "2@c7");
        assert!(Placement::parse("4@c7", 3).is_err());
        assert!(Placement::parse("1c7", 3).is_err());
        assert!(Placement::parse("1@z7", 3).is_err());
    }
}
