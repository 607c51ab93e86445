//! Each colour's legal placements, kept from one turn of the colour to the next: between two
//! of its turns a colour loses placements (squares and pieces are taken) and gains only those
//! at the attach points of its own last piece, so the list is filtered and topped up there
//! instead of generated again from every attach point; it is generated again when the colour's
//! rule stage changed (see [`Board::rule_stage`]). For callers that ask for the legal moves of
//! every position of a game (the Python environments); the searches generate their own.

use super::board::{Board, MoveGen, PASS};
use super::tables::{MoveBits, Tables};

/// The legal placements of each colour, each as of the last position it was asked for.
#[derive(Clone, Debug, Default)]
pub struct MoveLists {
    colours: [ColourMoves; 4],
}

#[derive(Clone, Debug, Default)]
struct ColourMoves {
    /// The legal placements when last brought up to date (`None`: never).
    moves: Option<Vec<u16>>,
    /// Their squares, in the same order: filtering reads them here, in a row, rather than
    /// from the large table of every placement.
    bits: Vec<MoveBits>,
    /// The board's placement count then.
    at_placement: usize,
    /// The colour's own placements then.
    own_placements: usize,
    /// The colour's rule stage then.
    stage: u8,
}

impl MoveLists {
    /// Lists to be filled as colours are asked for.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets every list (after the board changed other than by [`Board::play`]).
    pub fn clear(&mut self) {
        *self = Self::default();
    }

    /// The legal placements of colour `c` on `board`, whose placements so far are `history`
    /// (colour, placement; passes are not placements) in playing order.
    pub fn legal(
        &mut self,
        board: &mut Board,
        history: &[(usize, u16)],
        c: usize,
        mg: &mut MoveGen,
    ) -> &[u16] {
        let t: &Tables = board.tables();
        let own_now = board.placed(c);
        let stage = board.rule_stage(c);
        let entry = &mut self.colours[c];
        let known = entry.moves.is_some() && entry.stage == stage;
        let moves = entry.moves.get_or_insert_with(Vec::new);
        if !known || entry.at_placement != board.nmoves() {
            let own_last = history
                .iter()
                .rev()
                .find(|&&(colour, m)| colour == c && m != PASS);
            match (own_now.checked_sub(entry.own_placements), own_last) {
                // The colour placed nothing since: it can only have lost placements.
                (Some(0), _) if known => update(board, c, moves, &mut entry.bits, &[], mg),
                // One piece since, in the same rule stage: its attach points are the only new
                // ones.
                (Some(1), Some(&(_, m))) if known => {
                    update(board, c, moves, &mut entry.bits, t.attach(m), mg)
                }
                _ => {
                    moves.clear();
                    board.gen_moves(c, mg, moves);
                    let all_bits = t.all_bits();
                    entry.bits.clear();
                    entry
                        .bits
                        .extend(moves.iter().map(|&m| all_bits[m as usize]));
                }
            }
            entry.at_placement = board.nmoves();
            entry.own_placements = own_now;
            entry.stage = stage;
        }
        moves
    }
}

/// Brings `moves` (with their squares `bits`), the legal moves of colour `c` in an earlier
/// position of the same rule stage, up to date: drops those that became illegal and appends
/// those covering `new_corners`, the attach points colour `c` gained since. Exact when every
/// attach point live now but not then is in `new_corners`: a move legal now is a loose piece's
/// (legal then too) or covers a live attach point, and if that point was live then, the move was
/// legal then (squares and pieces are only taken, and the stage is the same).
fn update(
    board: &mut Board,
    c: usize,
    moves: &mut Vec<u16>,
    bits: &mut Vec<MoveBits>,
    new_corners: &[u16],
    mg: &mut MoveGen,
) {
    if board.is_out(c) {
        moves.clear();
        bits.clear();
        return;
    }
    let stamp = mg.new_stamp();
    let usable = board.left_mask(c);
    let joining = board.contact_pieces(c);
    let forbidden = board.forbidden_set(c);
    let mut kept = 0;
    for i in 0..moves.len() {
        let (m, b) = (moves[i], bits[i]);
        if usable & (1 << b.piece()) != 0 && !b.meets(forbidden) {
            mg.marks[m as usize] = stamp;
            moves[kept] = m;
            bits[kept] = b;
            kept += 1;
        }
    }
    moves.truncate(kept);
    bits.truncate(kept);
    for &p in new_corners {
        if board.is_attach(c, p as usize) {
            board.gen_moves_at(c, p as usize, joining, mg, stamp, moves);
        }
    }
    let all_bits = board.tables().all_bits();
    bits.extend(moves[kept..].iter().map(|&m| all_bits[m as usize]));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blokus::board::Variant;
    use crate::games::blokus::game::Game;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// Random games of every variant: the kept lists hold exactly the generated moves at every
    /// position, for the colour to move and for a colour asked out of turn.
    #[test]
    fn kept_lists_equal_generated_moves_in_random_games() {
        let mut rng = StdRng::seed_from_u64(11);
        let mut positions = 0;
        for (variant, v) in Variant::ALL {
            for _ in 0..4 {
                let mut game = Game::new(v);
                let mut lists = MoveLists::new();
                let mut mg = MoveGen::new(game.board.tables());
                while let Some(c) = game.board.effective_to_play() {
                    let mut expected = game.legal(c);
                    let mut kept = lists
                        .legal(&mut game.board, &game.history, c, &mut mg)
                        .to_vec();
                    expected.sort_unstable();
                    kept.sort_unstable();
                    assert_eq!(
                        kept,
                        expected,
                        "{variant}, placement {}",
                        game.board.nmoves()
                    );
                    if rng.random_bool(0.2) {
                        // Another colour out of turn, then the same again (no change).
                        let other = rng.random_range(0..game.board.ncolours());
                        let mut expected = game.legal(other);
                        let mut kept = lists
                            .legal(&mut game.board, &game.history, other, &mut mg)
                            .to_vec();
                        expected.sort_unstable();
                        kept.sort_unstable();
                        assert_eq!(kept, expected, "{variant}, colour {other} out of turn");
                    }
                    let legal = game.legal(c);
                    let m = legal[rng.random_range(0..legal.len())];
                    game.play(c, m).unwrap();
                    positions += 1;
                }
            }
        }
        assert!(positions > 1000, "{positions} positions");
    }
}
