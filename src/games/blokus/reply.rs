//! Last good replies with forgetting (LGRF-2: Baier and Drake, "The Power of Forgetting:
//! Improving the Last-Good-Reply Policy in Monte Carlo Go", 2010), kept as the reference engine
//! keeps them. After each simulation, every move of it but the first (those of the tree and of
//! the playout alike) is the reply of its colour to the move before it and to the two moves
//! before it: remembered when the colour's player won the simulation (a draw, an equal best
//! result, counts as won), forgotten (if it is still the one remembered) when the player lost.
//! The playouts play a colour's remembered reply to the latest two moves, else to the latest
//! move, when it is legal, before drawing from their weights.
//!
//! Replies are kept per colour, not per player, whoever made the moves replied to: in
//! Two-Player the two colours of a player answer different colours. Three-Player's shared
//! fourth colour keeps a set per player playing it. The pairs of moves go to a hash table
//! without collision checks; a reply found is checked for legality anyway.

use super::board::Variant;
use super::geometry::Grid;
use super::tables::{Tables, prefetch};

/// No reply remembered; also the move before the simulation's first.
pub const NONE: u16 = u16::MAX;
/// Bits of the index into a colour's table of replies to two moves.
const PAIR_BITS: u32 = 19;

/// A move of a simulation: the player who made it, its reply key (see [`key`]) and the move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Played {
    /// The player who controlled the colour (the one whose result counts for the move).
    pub player: u8,
    /// The colour's reply key.
    pub key: u8,
    /// The move.
    pub mv: u16,
}

/// Whether the playouts use last good replies on the boards of `t`: on the Trigon boards, where
/// they scored 68 of 120 games (57%, 95% interval 48-66%) in Trigon Two-Player against the
/// same engine without them (800 and 2,500 playouts, 2026-11-26) at the same speed. The square
/// boards do without: with them, Duo at level 6 won 107 of 200 games against the reference
/// engine's level 6 (54.5% of 600 without) and the household game ranked 2.62 of 40 (2.52 of
/// 120 without), 2026-11-29.
pub fn used_on(t: &Tables) -> bool {
    t.geo.grid == Grid::Triangle
}

/// The key of colour `c` played by `player` in `variant`: the colour, except Three-Player's
/// shared fourth colour, which has one per player (3 + player).
#[inline]
pub fn key(variant: Variant, c: usize, player: usize) -> u8 {
    if variant == Variant::Three && c == 3 {
        (3 + player) as u8
    } else {
        c as u8
    }
}

/// Number of reply keys in `variant`.
pub fn nkeys(variant: Variant) -> usize {
    if variant == Variant::Three {
        6
    } else {
        variant.ncolours()
    }
}

/// The replies of one search (kept while its tree is), per reply key.
pub struct Replies {
    /// Per key and move: the key's reply to that move.
    one: Vec<u16>,
    /// Per key and hashed pair (latest move, the one before): the key's reply to the pair.
    two: Vec<u16>,
    nmoves: usize,
}

impl Replies {
    /// No replies yet, for `nkeys` keys and moves numbered below `nmoves`.
    pub fn new(nkeys: usize, nmoves: usize) -> Replies {
        assert!(nmoves < NONE as usize);
        Replies {
            one: vec![NONE; nkeys * nmoves],
            two: vec![NONE; nkeys << PAIR_BITS],
            nmoves,
        }
    }

    /// Forgets every reply (a new search from another position).
    pub fn forget_all(&mut self) {
        self.one.fill(NONE);
        self.two.fill(NONE);
    }

    #[inline]
    fn one_index(&self, key: u8, last: u16) -> usize {
        usize::from(key) * self.nmoves + usize::from(last)
    }

    #[inline]
    fn pair_index(key: u8, last: u16, second_last: u16) -> usize {
        let h = (u64::from(last).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ u64::from(second_last).wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
            >> (64 - PAIR_BITS);
        (usize::from(key) << PAIR_BITS) | h as usize
    }

    /// The remembered replies of `key` after the simulation's moves `seq` (newest last): to
    /// the latest two moves, then to the latest one ([`NONE`] where there is none).
    #[inline]
    pub fn get(&self, key: u8, seq: &[Played]) -> [u16; 2] {
        let Some(last) = seq.last() else {
            return [NONE; 2];
        };
        let second_last = seq.len().checked_sub(2).map_or(NONE, |i| seq[i].mv);
        [
            self.two[Self::pair_index(key, last.mv, second_last)],
            self.one[self.one_index(key, last.mv)],
        ]
    }

    /// Asks for the entries [`Replies::get`] will read for `key` after `seq`, so that they
    /// arrive while the latest move is played.
    #[inline]
    pub fn prefetch(&self, key: u8, seq: &[Played]) {
        if let Some(last) = seq.last() {
            let second_last = seq.len().checked_sub(2).map_or(NONE, |i| seq[i].mv);
            prefetch(&self.two[Self::pair_index(key, last.mv, second_last)]);
            prefetch(&self.one[self.one_index(key, last.mv)]);
        }
    }

    /// Learns from a finished simulation: its moves `seq` and whether each player won.
    pub fn learn(&mut self, seq: &[Played], won: &[bool; 4]) {
        let mut second_last = NONE;
        for w in seq.windows(2) {
            let (last, reply) = (w[0].mv, w[1]);
            let pair = Self::pair_index(reply.key, last, second_last);
            let one = self.one_index(reply.key, last);
            if won[usize::from(reply.player)] {
                self.two[pair] = reply.mv;
                self.one[one] = reply.mv;
            } else {
                if self.two[pair] == reply.mv {
                    self.two[pair] = NONE;
                }
                if self.one[one] == reply.mv {
                    self.one[one] = NONE;
                }
            }
            second_last = last;
        }
    }

    /// Remembers `reply` as `key`'s reply to `last` alone (for tests).
    #[cfg(test)]
    pub fn set_one(&mut self, key: u8, last: u16, reply: u16) {
        let i = self.one_index(key, last);
        self.one[i] = reply;
    }
}

/// Which players won a simulation with results `res` (per player, `nplayers` of them): those
/// with the best result.
pub fn winners(res: &[f32; 4], nplayers: usize) -> [bool; 4] {
    let best = res[..nplayers]
        .iter()
        .copied()
        .fold(f32::NEG_INFINITY, f32::max);
    std::array::from_fn(|i| i < nplayers && res[i] >= best)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(player: u8, key: u8, mv: u16) -> Played {
        Played { player, key, mv }
    }

    /// Two players, four colours (keys) in turn, as in Two-Player.
    fn two_player_line(moves: &[u16]) -> Vec<Played> {
        (moves.iter().enumerate())
            .map(|(i, &m)| played((i % 2) as u8, (i % 4) as u8, m))
            .collect()
    }

    #[test]
    fn winners_replies_are_remembered_for_the_same_moves_only() {
        let mut r = Replies::new(4, 100);
        let seq = two_player_line(&[10, 11, 12, 13, 14]);
        r.learn(&seq, &[true, false, false, false]);
        // Colour 2 (player 0) answered 11 after 10, 11 with 12; colour 0 answered 13 with 14.
        assert_eq!(r.get(2, &seq[..2]), [12, 12]);
        assert_eq!(r.get(0, &seq[..4]), [14, 14]);
        // Nothing for the first move, nor for the loser's colours, nor for another colour.
        assert_eq!(r.get(0, &[]), [NONE, NONE]);
        assert_eq!(r.get(1, &seq[..1]), [NONE, NONE], "the loser's reply");
        assert_eq!(r.get(3, &seq[..3]), [NONE, NONE], "the loser's reply");
        assert_eq!(
            r.get(0, &seq[..2]),
            [NONE, NONE],
            "colour 2's reply, not 0's"
        );
        // After another move before the latest, only the reply to the latest applies.
        let other = two_player_line(&[50, 11]);
        assert_eq!(r.get(2, &other), [NONE, 12]);
    }

    #[test]
    fn a_losers_reply_is_forgotten_and_a_new_winners_one_replaces_it() {
        let mut r = Replies::new(4, 100);
        let seq = two_player_line(&[10, 11, 12]);
        r.learn(&seq, &[true, false, false, false]);
        assert_eq!(r.get(2, &seq[..2]), [12, 12]);
        // The same reply to 11 after another move loses: forgotten as the reply to 11, kept
        // as the reply to (10, 11).
        let lost = two_player_line(&[50, 11, 12]);
        r.learn(&lost, &[false, true, false, false]);
        assert_eq!(r.get(2, &lost[..2]), [NONE, NONE]);
        assert_eq!(r.get(2, &seq[..2]), [12, NONE]);
        // A loser forgets only its own reply: another one stays.
        r.learn(
            &two_player_line(&[10, 11, 13]),
            &[true, false, false, false],
        );
        r.learn(&seq, &[false, true, false, false]);
        assert_eq!(r.get(2, &seq[..2]), [13, 13]);
        // A draw keeps both players' replies.
        let mut d = Replies::new(4, 100);
        d.learn(&seq, &winners(&[0.5, 0.5, 0.0, 0.0], 2));
        assert_eq!(d.get(1, &seq[..1]), [11, 11]);
        assert_eq!(d.get(2, &seq[..2]), [12, 12]);
    }

    #[test]
    fn winners_are_the_best_results_among_the_players() {
        assert_eq!(
            winners(&[0.9, 0.1, 0.0, 0.0], 2),
            [true, false, false, false]
        );
        assert_eq!(
            winners(&[0.2, 0.7, 0.7, 0.0], 3),
            [false, true, true, false]
        );
        assert_eq!(
            winners(&[-0.2, 0.1, 0.0, 0.0], 2),
            [false, true, false, false]
        );
    }

    #[test]
    fn three_player_shared_colour_keys_by_player() {
        assert_eq!(nkeys(Variant::Three), 6);
        assert_eq!(key(Variant::Three, 3, 2), 5);
        assert_eq!(key(Variant::Three, 1, 1), 1);
        assert_eq!(key(Variant::Trigon2, 3, 1), 3);
        assert_eq!(nkeys(Variant::Trigon2), 4);
        assert!(used_on(Variant::Trigon2.tables()));
        assert!(!used_on(Variant::Duo.tables()));
    }
}
