//! Blockudoku between placements, on the engine's rules: the position (board, score, streak)
//! and placements of `tessera::games::blockudoku`, a hand of three fixed slots dealt from a
//! piece set, and the end of the game by the engine's rule (the rest of the hand cannot be
//! placed whole). Shared by the single state and the batched games.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use tessera::games::blockudoku::board::{self, Board, CELLS, SIZE};
use tessera::games::blockudoku::piece::{Piece, PieceSet, cells_of};
use tessera::games::blockudoku::rules::{Position, Scoring};
use tessera::games::blockudoku::search::can_place_all;

/// Slots of a hand.
pub const SLOTS: usize = 3;
/// Actions: slot * 81 + row * 9 + column, the top-left cell of the piece's bounding box.
pub const ACTIONS: usize = SLOTS * CELLS;
/// Side of the square that shows a piece in observations.
pub const PIECE_BOX: usize = 5;
/// A slot whose piece has been placed.
pub const EMPTY_SLOT: u16 = u16::MAX;

/// The pieces a game deals from (the piece set), then any other shape put in a hand by hand,
/// each with its plane for observations.
#[derive(Clone)]
pub struct Catalogue {
    /// The piece set's name.
    pub name: String,
    /// The set's pieces, then extra shapes.
    pub pieces: Vec<Piece>,
    /// Each piece drawn in the top-left corner of a 5x5 square, row-major.
    pub planes: Vec<[u8; PIECE_BOX * PIECE_BOX]>,
    /// How many of `pieces` are dealt (the set's own).
    pub dealt: usize,
}

impl Catalogue {
    /// The embedded piece set of that name.
    pub fn builtin(name: &str) -> Result<Catalogue, String> {
        let set = PieceSet::builtin(name)?;
        let mut catalogue = Catalogue {
            name: set.name,
            pieces: Vec::new(),
            planes: Vec::new(),
            dealt: set.pieces.len(),
        };
        for piece in set.pieces {
            catalogue.push(piece)?;
        }
        Ok(catalogue)
    }

    fn push(&mut self, piece: Piece) -> Result<u16, String> {
        let mut plane = [0u8; PIECE_BOX * PIECE_BOX];
        for cell in cells_of(piece.mask) {
            let (row, col) = (cell / SIZE, cell % SIZE);
            if row >= PIECE_BOX || col >= PIECE_BOX {
                return Err(format!(
                    "shape '{}' is larger than 5x5, which observations cannot show",
                    piece.shape
                ));
            }
            plane[row * PIECE_BOX + col] = 1;
        }
        self.pieces.push(piece);
        self.planes.push(plane);
        Ok((self.pieces.len() - 1) as u16)
    }

    /// The index of a piece given by name (1-based number in the set) or inline shape; a shape
    /// outside the set is added (it is never dealt).
    pub fn resolve(&mut self, token: &str) -> Result<u16, String> {
        let set = PieceSet {
            name: self.name.clone(),
            pieces: self.pieces[..self.dealt].to_vec(),
        };
        let piece = set.resolve(token)?;
        match self.pieces.iter().position(|p| *p == piece) {
            Some(index) => Ok(index as u16),
            None => self.push(piece),
        }
    }

    /// The piece at an index.
    pub fn piece(&self, index: u16) -> &Piece {
        &self.pieces[usize::from(index)]
    }
}

/// One game between placements.
#[derive(Clone)]
pub struct Game {
    /// Board, score and streak, as the engine keeps them.
    pub position: Position,
    /// Catalogue indexes of the hand's slots; [`EMPTY_SLOT`] once placed.
    pub hand: [u16; SLOTS],
    /// True once the rest of the hand cannot be placed whole: the game is lost.
    pub over: bool,
    /// Placements made so far.
    pub placements: u64,
    /// Hands dealt so far.
    pub hands: u64,
    rng: SmallRng,
}

impl Game {
    /// A new game on the empty board with a first hand dealt from `seed`.
    pub fn new(catalogue: &Catalogue, seed: u64) -> Game {
        let mut game = Game {
            position: Position::default(),
            hand: [EMPTY_SLOT; SLOTS],
            over: false,
            placements: 0,
            hands: 0,
            rng: SmallRng::seed_from_u64(seed),
        };
        game.deal(catalogue);
        game
    }

    /// Deals three pieces uniformly (with replacement) from the set, as the engine's self-play
    /// does, and judges the end.
    pub fn deal(&mut self, catalogue: &Catalogue) {
        for slot in &mut self.hand {
            *slot = self.rng.random_range(0..catalogue.dealt) as u16;
        }
        self.hands += 1;
        self.judge(catalogue);
    }

    /// The pieces still to place, in slot order, with their slots.
    pub fn remaining<'a>(&self, catalogue: &'a Catalogue) -> Vec<(usize, &'a Piece)> {
        (0..SLOTS)
            .filter(|&slot| self.hand[slot] != EMPTY_SLOT)
            .map(|slot| (slot, catalogue.piece(self.hand[slot])))
            .collect()
    }

    /// Sets whether the game is over: the rest of the hand cannot be placed whole.
    pub fn judge(&mut self, catalogue: &Catalogue) {
        let pieces: Vec<&Piece> = self
            .remaining(catalogue)
            .into_iter()
            .map(|(_, p)| p)
            .collect();
        self.over = !can_place_all(self.position.board, &pieces);
    }

    /// The anchors where the piece of `slot` fits (none for a placed slot or a finished game).
    pub fn fits(&self, catalogue: &Catalogue, slot: usize) -> u128 {
        match self.hand[slot] {
            EMPTY_SLOT => 0,
            _ if self.over => 0,
            index => catalogue.piece(index).fits(self.position.board),
        }
    }

    /// Whether an action (slot * 81 + cell) is legal now.
    pub fn is_legal(&self, catalogue: &Catalogue, action: usize) -> bool {
        action < ACTIONS && self.fits(catalogue, action / CELLS) >> (action % CELLS) & 1 == 1
    }

    /// Plays a legal action: places, clears, scores; deals a new hand once the hand is placed,
    /// and judges the end. Returns the points scored.
    pub fn play(&mut self, catalogue: &Catalogue, scoring: Scoring, action: usize) -> u64 {
        debug_assert!(self.is_legal(catalogue, action));
        let (slot, anchor) = (action / CELLS, action % CELLS);
        let before = self.position.score;
        self.position
            .place(catalogue.piece(self.hand[slot]), anchor, scoring);
        self.hand[slot] = EMPTY_SLOT;
        self.placements += 1;
        if self.hand.iter().all(|&s| s == EMPTY_SLOT) {
            self.deal(catalogue);
        } else {
            self.judge(catalogue);
        }
        self.position.score - before
    }

    /// Writes the action mask (1 = legal) into `out`.
    pub fn write_mask<T: From<bool>>(&self, catalogue: &Catalogue, out: &mut [T]) {
        for (slot, chunk) in out.chunks_exact_mut(CELLS).enumerate() {
            let fits = self.fits(catalogue, slot);
            for (cell, value) in chunk.iter_mut().enumerate() {
                *value = T::from(fits >> cell & 1 == 1);
            }
        }
    }

    /// Writes the board (1 = filled), row 0 at the top, into `out` (81 cells).
    pub fn write_board(&self, out: &mut [u8]) {
        let bits = self.position.board.0;
        for (cell, value) in out.iter_mut().enumerate() {
            *value = (bits >> cell & 1) as u8;
        }
    }

    /// Writes the hand's pieces, each in a 5x5 square (zeros for placed slots), into `out`.
    pub fn write_pieces(&self, catalogue: &Catalogue, out: &mut [u8]) {
        for (slot, chunk) in out.chunks_exact_mut(PIECE_BOX * PIECE_BOX).enumerate() {
            match self.hand[slot] {
                EMPTY_SLOT => chunk.fill(0),
                index => chunk.copy_from_slice(&catalogue.planes[usize::from(index)]),
            }
        }
    }
}

/// Parses a board in notation, refusing one with a full region as the protocol does.
pub fn parse_board(text: &str) -> Result<Board, String> {
    let parsed = Board::parse(text)?;
    if let Some(full) = board::REGIONS.iter().position(|&r| parsed.0 & r == r) {
        return Err(format!(
            "impossible board: region {} is full and would have been cleared",
            full + 1
        ));
    }
    Ok(parsed)
}
