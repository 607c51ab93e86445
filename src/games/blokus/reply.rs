//! Last good replies (LGRF-2): after each simulation every move its player made is remembered
//! as the reply to the move before it, and to the two moves before it, when that player won
//! (or drew), and forgotten again when the player lost with it. The playouts try the remembered
//! reply to the latest two moves, then to the latest move, before drawing from their weights.

/// No reply remembered.
const NONE: u16 = u16::MAX;
/// Bits of the index into the table of replies to two moves (per player).
const PAIR_BITS: u32 = 20;

/// The replies of one search, per player.
pub struct Replies {
    /// Per player and move: the reply to that move.
    one: Vec<u16>,
    /// Per player and hashed pair of moves: the reply to that pair.
    two: Vec<u16>,
    nmoves: usize,
}

impl Replies {
    /// No replies yet, for moves numbered below `nmoves`.
    pub fn new(nmoves: usize) -> Replies {
        Replies {
            one: vec![NONE; 4 * nmoves],
            two: vec![NONE; 4 << PAIR_BITS],
            nmoves,
        }
    }

    #[inline]
    fn pair(&self, player: u8, last: u16, second_last: u16) -> usize {
        let h = (u64::from(last).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ u64::from(second_last).wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
            >> (64 - PAIR_BITS);
        (usize::from(player) << PAIR_BITS) | h as usize
    }

    /// The remembered replies of `player` after the moves `seq` ((player, move), newest last):
    /// to the latest two moves, then to the latest one.
    #[inline]
    pub fn candidates(&self, player: u8, seq: &[(u8, u16)]) -> [Option<u16>; 2] {
        let Some(&(_, last)) = seq.last() else {
            return [None, None];
        };
        let second_last = seq.len().checked_sub(2).map_or(NONE, |i| seq[i].1);
        let two = self.two[self.pair(player, last, second_last)];
        let one = self.one[usize::from(player) * self.nmoves + usize::from(last)];
        [(two != NONE).then_some(two), (one != NONE).then_some(one)]
    }

    /// Learns from a finished simulation: its moves `seq` (player, move) and whether each
    /// player won (a draw counts as won).
    pub fn learn(&mut self, seq: &[(u8, u16)], won: &[bool; 4]) {
        let mut second_last = NONE;
        for w in seq.windows(2) {
            let (last, (player, reply)) = (w[0].1, w[1]);
            let pair = self.pair(player, last, second_last);
            let one = usize::from(player) * self.nmoves + usize::from(last);
            if won[usize::from(player)] {
                self.two[pair] = reply;
                self.one[one] = reply;
            } else {
                if self.two[pair] == reply {
                    self.two[pair] = NONE;
                }
                if self.one[one] == reply {
                    self.one[one] = NONE;
                }
            }
            second_last = last;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winners_replies_are_kept_and_losers_forgotten() {
        let mut r = Replies::new(100);
        // Player 0 plays 1, player 1 answers 2, player 0 answers 3.
        let seq = [(0, 1), (1, 2), (0, 3)];
        r.learn(&seq, &[true, false, false, false]);
        assert_eq!(r.candidates(0, &seq[..2]), [Some(3), Some(3)]);
        assert_eq!(
            r.candidates(1, &seq[..1]),
            [None, None],
            "the loser's reply"
        );
        // After another first move, only the reply to the last move applies.
        assert_eq!(r.candidates(0, &[(0, 7), (1, 2)]), [None, Some(3)]);
        r.learn(&[(1, 2), (0, 3)], &[false, true, false, false]);
        assert_eq!(r.candidates(0, &[(0, 9), (1, 2)]), [None, None]);
        assert_eq!(
            r.candidates(0, &seq[..2]),
            [Some(3), None],
            "only the one-move reply was forgotten"
        );
    }
}
