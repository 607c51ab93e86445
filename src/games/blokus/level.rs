//! Playing levels for people, calibrated against the reference engine (Pentobi): level k below
//! full strength searches until the root has a fixed number of visits (those of the subtree kept
//! from the last search included, as Pentobi counts them), a share of what Pentobi's level k
//! searches, so that a player who knows its ladder finds the same one here. The share evens
//! out the cost of a playout (ours are dearer on the 14x14 board) and what a few playouts are
//! worth at the bottom of the ladder; it was set from matches against Pentobi at each level
//! (docs/measurements.md, Blokus levels). From level 4 up the budget grows along the game (a
//! colour's later moves have fewer choices and faster playouts) and the first moves of a colour
//! get less.

use super::board::{Board, Variant};
use super::gembloq::variant::GembloqVariant;
use crate::games::FULL_STRENGTH;

/// Pentobi's playouts per move at levels 1..9 on the 20x20 board (Classic, Two-Player,
/// Three-Player).
const CLASSIC: [f64; 9] = [
    3.0, 30.0, 90.0, 181.0, 667.0, 5028.0, 69809.0, 349044.0, 1745221.0,
];
/// Pentobi's playouts per move at levels 1..9 on the 14x14 board (Duo, Junior).
const DUO: [f64; 9] = [
    3.0, 21.0, 77.0, 213.0, 861.0, 7280.0, 221867.0, 1109339.0, 5546695.0,
];
/// Pentobi's playouts per move at levels 1..9 on the Trigon boards.
const TRIGON: [f64; 9] = [
    100.0, 246.0, 457.0, 876.0, 1882.0, 5506.0, 19819.0, 99092.0, 495465.0,
];
/// Pentobi's playouts per move at levels 1..9 in Callisto Two-Player.
const CALLISTO_2: [f64; 9] = [
    30.0, 87.0, 300.0, 1017.0, 4729.0, 20435.0, 122778.0, 613905.0, 3069529.0,
];
/// Pentobi's playouts per move at levels 1..9 in Nexos (both forms).
const NEXOS: [f64; 9] = [
    250.0, 347.0, 625.0, 1223.0, 3117.0, 8270.0, 20954.0, 104774.0, 523877.0,
];
/// The share in Nexos: 0.55 of Pentobi's count from level 4 up; below that, the counts as they
/// are. Nexos Two-Player at level 6 (2026-11-29): at 0.55, 12 of 20 games won at 0.59 of
/// Pentobi's CPU a game; at 0.72, 7.5 of 9 at 0.90; at 0.4 (every level), 3 of 9 at 0.51; at
/// 0.2, none of 5; at Pentobi's count, 1.34 times its CPU.
const NEXOS_SHARE: [f64; 9] = from_level_4(0.55, 0.55);
/// A share of levels 1-9 that leaves levels 1-3 at Pentobi's counts and is `middle` at levels 4
/// and 5, `high` from level 6 (where the budget grows along the game).
const fn from_level_4(middle: f64, high: f64) -> [f64; 9] {
    [1.0, 1.0, 1.0, middle, middle, high, high, high, high]
}
/// The share in Callisto Two-Player: 0.87 of Pentobi's count from level 4 up (the same CPU as
/// Pentobi's at level 6: 1.00 over 6 games, 2026-11-29; the cheaper playouts had brought 0.66,
/// set on 2026-11-27, to 0.76 of it); below that, the counts as they are.
const CALLISTO_2_SHARE: [f64; 9] = from_level_4(0.87, 0.87);
/// The share in Callisto of three and four colours: 0.87 from level 4 up (one colour against
/// three Pentobis at level 6 costs 1.01 of the CPU of each of theirs over 4 games, 2026-11-29;
/// 0.63, set on 2026-11-27, had fallen to 0.72; Callisto Three-Player takes it unmeasured).
const CALLISTO_SHARE: [f64; 9] = from_level_4(0.87, 0.87);
/// The share in Callisto Two-Player Four-Colour, where kept trees serve more of the next
/// search: 0.97 from level 4 up (0.83 had fallen to 0.86 of Pentobi's CPU at level 6 over 6
/// games, 2026-11-29).
const CALLISTO_2_4_SHARE: [f64; 9] = from_level_4(0.97, 0.97);
/// The share in Trigon and Trigon Three-Player: from level 4 up, where the budget grows along
/// the game, a level searches Pentobi's count (one colour against three Pentobis then costs the
/// same CPU a colour as each of theirs: 1.01 at level 6 over 8 games, 2026-11-29; the cheaper
/// playouts had brought 0.65, set on 2026-11-27, to 0.68 of it; at level 5, 1.1 cost 1.08 over
/// 8); below that, the counts as they are.
const TRIGON_SHARE: [f64; 9] = from_level_4(1.0, 1.0);
/// The share in Trigon Two-Player, where kept trees serve more of the next search: 1.1 from
/// level 4 up (0.85, set on 2026-11-27, had fallen to 0.77 of Pentobi's CPU at level 6; 1.1
/// cost 0.92 of it over 6 games, 1.15 cost 1.05 over 8 and 1.2 1.10 over 6, 2026-11-29).
const TRIGON_2_SHARE: [f64; 9] = from_level_4(1.1, 1.1);
/// The share of those playouts tessera searches at each level, 20x20 board (level 6: 0.87,
/// re-fitted when the playouts got 13-15% cheaper: 0.9 cost 1.03 of Pentobi's CPU one colour
/// against three over 40 games, 0.95 cost 1.07 over 60, 2026-11-29; 0.85 had cost 1.01).
const CLASSIC_SHARE: [f64; 9] = [1.0, 1.5, 1.4, 1.0, 0.7, 0.87, 0.6, 0.6, 0.6];
/// The share of those playouts tessera searches at each level, 14x14 board (level 5 about
/// Pentobi's CPU, 2026-11-27; level 6 re-fitted twice when the playouts got cheaper: 0.78 had
/// fallen to 0.80 of its CPU, 0.97 cost 0.97 of it in 100 Duo games; then 1.05 costs 1.00 in
/// 200; level 7: 0.55 cost 0.63 of Pentobi's CPU over 4 games, 0.87 costs 1.00 over 40;
/// level 8: 0.8 cost 0.89 over 40 games, 2026-11-29; with the tree of 12 M nodes, 4 games at
/// each of 0.9, 1.0 and 1.1 cost 67, 82 and 98 s a game against Pentobi's 84 s over the 12,
/// 2026-11-30).
const DUO_SHARE: [f64; 9] = [2.0, 1.0, 1.0, 0.7, 0.8, 1.05, 0.87, 1.0, 0.55];
/// The share in GembloQ of four colours: 0.55 of Pentobi's counts from level 4 up (0.87 of
/// Pentobi's CPU at level 6 over 20 games; at 0.9, with the playouts that search a colour's
/// last moves out, 1.47, 0.85 before, 2026-11-29); below that, the counts as they are.
const GEMBLOQ_SHARE: [f64; 9] = from_level_4(0.55, 0.55);
/// The share in GembloQ Three-Player: 0.6 from level 4 up (0.85 of Pentobi's CPU at level 6
/// over 20 games; at 0.9 with those playouts 1.12, 0.77 before, 2026-11-29).
const GEMBLOQ_3_SHARE: [f64; 9] = from_level_4(0.6, 0.6);
/// The share in GembloQ Two-Player: 0.7 from level 4 up (at 0.9, 1.13 of Pentobi's CPU at level
/// 6 with the playouts that search a colour's last moves out, 0.64 before, 2026-11-29).
const GEMBLOQ_2_SHARE: [f64; 9] = from_level_4(0.7, 0.7);
/// The share in GembloQ Two-Player Four-Color: 0.65 from level 4 up (0.95 of Pentobi's CPU at
/// level 6 with the playouts that search a colour's last moves out, 2026-11-29).
const GEMBLOQ_2_4_SHARE: [f64; 9] = from_level_4(0.65, 0.65);
/// The first level whose budget follows the game's progress, and that plays the whole opening
/// book.
const GROWING_FROM: u32 = 4;

/// The threads a search with this level budget uses: a level's playouts are counted on one
/// tree, full strength uses the `asked` threads.
pub fn threads(playouts: Option<u64>, asked: usize) -> usize {
    if playouts.is_some() { 1 } else { asked.max(1) }
}

/// Whether a search at `level` takes the opening book's move after `moves_played` moves of a
/// game of `colours` colours: always from level 4 up, below that only for each colour's first
/// two moves.
pub fn uses_book(level: u32, moves_played: usize, colours: usize) -> bool {
    level >= GROWING_FROM || moves_played < 2 * colours
}

/// The reference engine's ladders: the boards whose levels count alike.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Ladder {
    /// The 20x20 board: Classic, Two-Player, Three-Player.
    Classic,
    /// The 14x14 board: Duo, Junior.
    Duo,
    /// The Trigon boards.
    Trigon,
    /// Callisto with three or four colours (Pentobi gives them the Trigon counts).
    Callisto,
    /// Callisto Two-Player.
    Callisto2,
    /// Nexos (Pentobi's schedule along the game is Trigon's).
    Nexos,
}

impl Ladder {
    fn of(variant: Variant) -> Ladder {
        match variant {
            Variant::Duo | Variant::Junior => Ladder::Duo,
            Variant::Trigon | Variant::Trigon2 | Variant::Trigon3 => Ladder::Trigon,
            Variant::Callisto | Variant::Callisto24 | Variant::Callisto3 => Ladder::Callisto,
            Variant::Callisto2 => Ladder::Callisto2,
            Variant::Nexos | Variant::Nexos2 => Ladder::Nexos,
            Variant::Classic | Variant::Two | Variant::Three => Ladder::Classic,
        }
    }

    /// Pentobi's playouts per move at levels 1..9 on this ladder's boards.
    fn counts(self) -> [f64; 9] {
        match self {
            Ladder::Classic => CLASSIC,
            Ladder::Duo => DUO,
            Ladder::Trigon | Ladder::Callisto => TRIGON,
            Ladder::Callisto2 => CALLISTO_2,
            Ladder::Nexos => NEXOS,
        }
    }

    /// How the budget of a colour's move scales with the pieces it has placed, as Pentobi's
    /// does: it grows by about a tenth per piece (from 0.7), with less for the opening moves,
    /// where there are fewer choices and the search prunes.
    fn progress_factor(self, placed: usize) -> f64 {
        let growth = 0.7 * (0.1 * placed as f64).exp();
        let opening = match (self, placed) {
            (Ladder::Duo, 0) => 0.6,
            (Ladder::Classic, 0 | 1)
            | (Ladder::Trigon | Ladder::Nexos | Ladder::Callisto | Ladder::Callisto2, 0) => 0.2,
            (Ladder::Classic, 2) => 0.3,
            (Ladder::Trigon | Ladder::Nexos, 1) => 0.5,
            (Ladder::Trigon | Ladder::Nexos, 2) | (Ladder::Callisto, 1) => 0.6,
            (Ladder::Trigon | Ladder::Nexos, 3) => 0.8,
            (Ladder::Callisto2, 1) => 0.2,
            _ => 1.0,
        };
        growth * opening
    }
}

/// Our share of Pentobi's counts in `variant`: the variants of a ladder share its counts and
/// schedule, not our costs (two players of four colours keep more of their trees).
fn share(variant: Variant) -> [f64; 9] {
    match variant {
        Variant::Classic | Variant::Two | Variant::Three => CLASSIC_SHARE,
        Variant::Duo | Variant::Junior => DUO_SHARE,
        Variant::Trigon | Variant::Trigon3 => TRIGON_SHARE,
        Variant::Trigon2 => TRIGON_2_SHARE,
        Variant::Callisto | Variant::Callisto3 => CALLISTO_SHARE,
        Variant::Callisto24 => CALLISTO_2_4_SHARE,
        Variant::Callisto2 => CALLISTO_2_SHARE,
        Variant::Nexos | Variant::Nexos2 => NEXOS_SHARE,
    }
}

/// Pentobi's playouts at `level` in `variant` times our share there.
fn playouts(variant: Variant, level: u32) -> f64 {
    let i = level.clamp(1, 9) as usize - 1;
    Ladder::of(variant).counts()[i] * share(variant)[i]
}

/// The playouts colour `c` may spend on its move at `level` (the root's visits, those kept
/// from the last search included); `None` at full strength.
pub fn playout_budget(board: &Board, c: usize, level: u32) -> Option<u64> {
    let ladder = Ladder::of(board.variant);
    let count = |i: usize| playouts(board.variant, i as u32 + 1);
    budget(count, ladder, board.placed(c), level)
}

/// The playouts a colour that has placed `placed` pieces may spend on its move at `level` in
/// GembloQ `variant`; `None` at full strength. Pentobi counts the Two-Player board as the
/// 20x20 one with Duo's schedule along the game, the four-colour and Three-Player boards as
/// Trigon's.
pub fn gembloq_playout_budget(variant: GembloqVariant, placed: usize, level: u32) -> Option<u64> {
    let (counts, ladder, share) = match variant {
        GembloqVariant::Two => (CLASSIC, Ladder::Duo, GEMBLOQ_2_SHARE),
        GembloqVariant::TwoFour => (TRIGON, Ladder::Trigon, GEMBLOQ_2_4_SHARE),
        GembloqVariant::Three => (TRIGON, Ladder::Trigon, GEMBLOQ_3_SHARE),
        GembloqVariant::Four => (TRIGON, Ladder::Trigon, GEMBLOQ_SHARE),
    };
    budget(|i| counts[i] * share[i], ladder, placed, level)
}

/// The budget at `level` from its count (`count(level - 1)`), growing along the game on
/// `ladder`'s schedule from level 4 up.
fn budget(count: impl Fn(usize) -> f64, ladder: Ladder, placed: usize, level: u32) -> Option<u64> {
    if level >= FULL_STRENGTH {
        return None;
    }
    let level = level.clamp(1, 9);
    let factor = if level >= GROWING_FROM {
        ladder.progress_factor(placed)
    } else {
        1.0
    };
    Some((count(level as usize - 1) * factor).ceil().max(1.0) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_rise_with_the_level_and_full_strength_has_none() {
        for (counts, shares) in [(CLASSIC, CLASSIC_SHARE), (DUO, DUO_SHARE)] {
            let ours: Vec<f64> = counts.iter().zip(shares).map(|(c, s)| c * s).collect();
            assert!(ours.windows(2).all(|w| w[0] < w[1]), "{ours:?}");
        }
        for variant in [Variant::Classic, Variant::Duo, Variant::Junior] {
            assert_eq!(playout_budget(&Board::new(variant), 0, FULL_STRENGTH), None);
        }
        // A first move: levels 1-3 spend their whole budget, higher ones a part of it
        // (Duo level 5: 861 * 0.8 * 0.7 * 0.6; Classic level 4: 181 * 0.7 * 0.2).
        let duo = Board::new(Variant::Duo);
        assert_eq!(playout_budget(&duo, 0, 1), Some(6));
        assert_eq!(playout_budget(&duo, 0, 5), Some(290));
        let classic = Board::new(Variant::Classic);
        assert_eq!(playout_budget(&classic, 0, 3), Some(126));
        assert_eq!(playout_budget(&classic, 0, 4), Some(26));
    }

    /// The variants of a ladder share its counts, not our share of them: at level 6 Trigon
    /// Two-Player searches 1.1 of Pentobi's Trigon count, four-colour Trigon 1.0 (levels 4
    /// and 5 too), and Callisto's forms have shares of their own.
    #[test]
    fn shares_follow_the_variant() {
        assert_eq!(playouts(Variant::Trigon2, 6), 5506.0 * 1.1);
        assert_eq!(playouts(Variant::Trigon, 6), 5506.0 * 1.0);
        assert_eq!(playouts(Variant::Trigon, 5), 1882.0 * 1.0);
        assert_eq!(playouts(Variant::Callisto24, 6), 5506.0 * 0.97);
        assert_eq!(playouts(Variant::Callisto3, 6), 5506.0 * 0.87);
        assert_eq!(playouts(Variant::Callisto2, 6), 20435.0 * 0.87);
        let (two, four) = (Board::new(Variant::Trigon2), Board::new(Variant::Trigon));
        assert!(playout_budget(&two, 0, 6) > playout_budget(&four, 0, 6));
    }

    /// GembloQ Two-Player follows Pentobi's 20x20 counts with Duo's schedule, the other forms
    /// Trigon's (level 6, a colour's first move: 5028 * 0.7 * 0.7 * 0.6 and
    /// 5506 * 0.55 * 0.7 * 0.2; Two-Player Four-Color 5506 * 0.65 * 0.7 * 0.2).
    #[test]
    fn gembloq_budgets_follow_the_reference_ladders() {
        assert_eq!(
            gembloq_playout_budget(GembloqVariant::Two, 0, 6),
            Some(1479)
        );
        assert_eq!(
            gembloq_playout_budget(GembloqVariant::Four, 0, 6),
            Some(424)
        );
        assert_eq!(
            gembloq_playout_budget(GembloqVariant::TwoFour, 0, 6),
            Some(502)
        );
        assert_eq!(
            gembloq_playout_budget(GembloqVariant::Three, 0, 2),
            Some(246)
        );
        assert_eq!(
            gembloq_playout_budget(GembloqVariant::TwoFour, 0, FULL_STRENGTH),
            None
        );
        let two = |placed| gembloq_playout_budget(GembloqVariant::Two, placed, 6);
        assert!(two(10) > two(3));
    }

    #[test]
    fn low_levels_take_the_book_for_each_colours_first_two_moves() {
        assert!(uses_book(1, 3, 2));
        assert!(!uses_book(3, 4, 2));
        assert!(uses_book(3, 7, 4));
        assert!(uses_book(4, 30, 2));
        assert!(uses_book(FULL_STRENGTH, 30, 4));
    }

    #[test]
    fn later_moves_get_more_playouts() {
        assert!(Ladder::Duo.progress_factor(10) > Ladder::Duo.progress_factor(3));
        assert!(Ladder::Classic.progress_factor(3) > Ladder::Classic.progress_factor(0));
        assert!(Ladder::Trigon.progress_factor(4) > Ladder::Trigon.progress_factor(3));
        // Callisto Two-Player has its own counts: level 6, a second move,
        // 20435 * 0.87 * 0.7e^0.1 * 0.2.
        let mut b = Board::new(Variant::Callisto2);
        assert_eq!(Ladder::of(b.variant), Ladder::Callisto2);
        let t = b.tables();
        let mut mg = crate::games::blokus::board::MoveGen::new(t);
        let mut moves = Vec::new();
        b.gen_moves(0, &mut mg, &mut moves);
        b.play(0, moves[0]);
        assert_eq!(playout_budget(&b, 0, 6), Some(2751));
    }
}
