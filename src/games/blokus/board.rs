//! The Blokus position: variants, placement rules, move generation from attach points, passes,
//! game end and scores.
//!
//! The rules are those of the tables (see [`tables::Rules`]): in Blokus and Trigon a piece
//! touches its own colour only at corners, and each colour's first piece covers a starting
//! point; in Callisto a piece touches its own colour along an edge, there are no starting
//! points, and the loose single squares go on any free square outside the centre section,
//! each colour placing two of them before any other piece.

use super::tables::{self, BITS_BYTES, MAX_PIECE, MAX_POINTS, SQUARE_SLOTS, SquareBits, Tables};
use crate::isa;

/// Most pieces in a set.
pub const MAX_PIECES: usize = 24;

/// The variants: the five on square boards, the three of Trigon, the four of Callisto and the
/// two of Nexos.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// 20x20, four colours, four players.
    Classic,
    /// 20x20, four colours, two players (colours 1+3 against 2+4).
    Two,
    /// 20x20, four colours, three players; the fourth colour is played in turn by all three.
    Three,
    /// 14x14, two colours.
    Duo,
    /// 14x14, two colours, 12 shapes twice each, no bonus.
    Junior,
    /// Trigon: a hexagon of 486 triangles, four colours, four players.
    Trigon,
    /// Trigon, four colours, two players (colours 1+3 against 2+4).
    Trigon2,
    /// Trigon on a hexagon of 384 triangles, three colours, three players.
    Trigon3,
    /// Callisto: a 20x20 octagon of 288 squares, four colours, four players.
    Callisto,
    /// Callisto on a 16x16 octagon of 144 squares, two colours.
    Callisto2,
    /// Callisto on the four-colour board, two players (colours 1+3 against 2+4).
    Callisto24,
    /// Callisto on a 20x20 octagon of 220 squares, three colours, three players.
    Callisto3,
    /// Nexos: pieces of line segments on a 12x12 lattice, four colours, four players.
    Nexos,
    /// Nexos, four colours, two players (colours 1+3 against 2+4).
    Nexos2,
}

/// Colour names in four-colour variants, in playing order.
pub const COLOUR_NAMES_4: [&str; 4] = ["blue", "yellow", "red", "green"];
/// Colour names in two-colour variants.
pub const COLOUR_NAMES_2: [&str; 2] = ["black", "white"];

impl Variant {
    /// All variants with their protocol names.
    pub const ALL: [(&'static str, Variant); 14] = [
        ("classic", Variant::Classic),
        ("two", Variant::Two),
        ("three", Variant::Three),
        ("duo", Variant::Duo),
        ("junior", Variant::Junior),
        ("trigon", Variant::Trigon),
        ("trigon_2", Variant::Trigon2),
        ("trigon_3", Variant::Trigon3),
        ("callisto", Variant::Callisto),
        ("callisto_2", Variant::Callisto2),
        ("callisto_2_4", Variant::Callisto24),
        ("callisto_3", Variant::Callisto3),
        ("nexos", Variant::Nexos),
        ("nexos_2", Variant::Nexos2),
    ];

    /// The protocol name.
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, v)| *v == self)
            .map_or("?", |(n, _)| n)
    }

    /// Parses a protocol name.
    pub fn parse(s: &str) -> Result<Variant, String> {
        Self::ALL
            .iter()
            .find(|(n, _)| *n == s)
            .map(|&(_, v)| v)
            .ok_or_else(|| {
                let known: Vec<&str> = Self::ALL.iter().map(|(n, _)| *n).collect();
                format!("unknown blokus variant '{s}' (known: {})", known.join(", "))
            })
    }

    /// The placement tables of this variant.
    pub fn tables(self) -> &'static Tables {
        match self {
            Variant::Classic | Variant::Two | Variant::Three => tables::classic(),
            Variant::Duo => tables::duo(),
            Variant::Junior => tables::junior(),
            Variant::Trigon | Variant::Trigon2 => tables::trigon(),
            Variant::Trigon3 => tables::trigon_3(),
            Variant::Callisto | Variant::Callisto24 => tables::callisto(),
            Variant::Callisto2 => tables::callisto_2(),
            Variant::Callisto3 => tables::callisto_3(),
            Variant::Nexos | Variant::Nexos2 => tables::nexos(),
        }
    }

    /// Number of colours.
    pub fn ncolours(self) -> usize {
        match self {
            Variant::Duo | Variant::Junior | Variant::Callisto2 => 2,
            Variant::Trigon3 | Variant::Callisto3 => 3,
            _ => 4,
        }
    }

    /// Number of players.
    pub fn nplayers(self) -> usize {
        match self {
            Variant::Classic | Variant::Trigon | Variant::Callisto | Variant::Nexos => 4,
            Variant::Three | Variant::Trigon3 | Variant::Callisto3 => 3,
            _ => 2,
        }
    }

    /// Whether two players share the board's four colours, each playing two (colours 1+3
    /// against 2+4).
    pub fn two_colours_each(self) -> bool {
        matches!(
            self,
            Variant::Two | Variant::Trigon2 | Variant::Callisto24 | Variant::Nexos2
        )
    }

    /// Whether a search rewards the player left with more live corner points at the end (as
    /// the reference engine does): two-player games of four colours, and Callisto Two-Player.
    pub fn rewards_live_corners(self) -> bool {
        self.two_colours_each() || self == Variant::Callisto2
    }

    /// Whether the starting points are shared: each colour's first piece covers any one of
    /// them (Trigon), rather than its own corner or point.
    pub fn shared_starts(self) -> bool {
        matches!(self, Variant::Trigon | Variant::Trigon2 | Variant::Trigon3)
    }

    /// The bonuses: points for placing all pieces, and more when the last was the single
    /// square (+15 and +5 with the 21 classic pieces and Trigon's, +10 and none in Nexos, none
    /// in Junior and Callisto).
    pub fn bonus(self) -> (i32, i32) {
        match self {
            Variant::Junior
            | Variant::Callisto
            | Variant::Callisto2
            | Variant::Callisto24
            | Variant::Callisto3 => (0, 0),
            Variant::Nexos | Variant::Nexos2 => (10, 0),
            _ => (15, 5),
        }
    }

    /// Whether equal points go to the later player (Callisto): the player whose colours move
    /// later ranks above.
    pub fn later_player_wins_ties(self) -> bool {
        matches!(
            self,
            Variant::Callisto | Variant::Callisto2 | Variant::Callisto24 | Variant::Callisto3
        )
    }

    /// The starting squares of each colour: one of its own on square boards, the six shared
    /// ones of Trigon, none in Callisto, in Nexos the four segments around a junction of its
    /// own (the fifth from the board's sides).
    pub fn starts(self, c: usize) -> Vec<u16> {
        let t = self.tables();
        let names: &[&str] = match self {
            Variant::Duo | Variant::Junior => &[["e10", "j5"][c]],
            Variant::Classic | Variant::Two | Variant::Three => &[["a20", "t20", "t1", "a1"][c]],
            Variant::Trigon | Variant::Trigon2 => &["r15", "r4", "j12", "j7", "z12", "z7"],
            Variant::Trigon3 => &["p14", "p3", "h11", "h6", "x11", "x6"],
            Variant::Callisto | Variant::Callisto2 | Variant::Callisto24 | Variant::Callisto3 => {
                &[]
            }
            Variant::Nexos | Variant::Nexos2 => &[
                ["e22", "d21", "f21", "e20"],
                ["u22", "t21", "v21", "u20"],
                ["u6", "t5", "v5", "u4"],
                ["e6", "d5", "f5", "e4"],
            ][c],
        };
        names
            .iter()
            .map(|n| t.parse_point(n).expect("valid start"))
            .collect()
    }

    /// The colour names, in playing order.
    pub fn colour_names(self) -> &'static [&'static str] {
        match self.ncolours() {
            2 => &COLOUR_NAMES_2,
            n => &COLOUR_NAMES_4[..n],
        }
    }
}

/// The move id used for a pass in histories and searches.
pub const PASS: u16 = u16::MAX;

/// A position: who covers what, which squares each colour may still use, pieces left, scores.
#[derive(Clone)]
pub struct Board {
    /// The variant.
    pub variant: Variant,
    t: &'static Tables,
    ncolours: u8,
    /// Bit `c` set: colour `c` may not cover the square (occupied, or edge-adjacent to `c`);
    /// `tables::PAD` and the slots past it are forbidden to no one.
    forbidden: [u8; SQUARE_SLOTS],
    /// Per colour: the squares it may not cover (as `forbidden`).
    forbidden_sets: [SquareBits; 4],
    /// Bit `c` set: the square is (or was) a corner point of colour `c`.
    attach_bits: [u8; MAX_POINTS],
    /// Per colour: the squares that are (or were) its corner points (as `attach_bits`).
    attach_sets: [SquareBits; 4],
    /// 0 empty, else colour + 1.
    owner: [u8; MAX_POINTS],
    attach: [[u16; MAX_POINTS]; 4],
    attach_len: [u16; 4],
    left: [[u8; MAX_PIECES]; 4],
    /// Per colour: the pieces it has left (bit `k`: piece `k`), as `left` says.
    left_bits: [u32; 4],
    pieces_left: [u8; 4],
    /// Per colour: loose pieces placed (see [`tables::Rules::loose`]).
    loose_placed: [u8; 4],
    squares: [u16; 4],
    /// Per colour: the points of its pieces placed (loose pieces score nothing).
    scored: [u16; 4],
    last_mono: [bool; 4],
    to_play: u8,
    /// Bit `c` set: colour `c` is known to have no legal move (for good: attach points never
    /// come back, and loose pieces only lose squares).
    out: u8,
    nmoves: u16,
}

/// Scratch space for move generation (a marker per move id to avoid duplicates).
pub struct MoveGen {
    /// The stamp each move was last marked with.
    pub marks: Vec<u32>,
    stamp: u32,
}

impl MoveGen {
    /// Scratch for the given tables.
    pub fn new(t: &Tables) -> Self {
        MoveGen {
            marks: vec![0; t.moves.len()],
            stamp: 0,
        }
    }

    /// A new stamp: no move is marked with it yet.
    #[inline]
    pub fn new_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.marks.iter_mut().for_each(|m| *m = 0);
            self.stamp = 1;
        }
        self.stamp
    }
}

impl Board {
    /// The empty board of a variant, first colour to play.
    pub fn new(variant: Variant) -> Board {
        let t = variant.tables();
        let mut b = Board {
            variant,
            t,
            ncolours: variant.ncolours() as u8,
            forbidden: [0; SQUARE_SLOTS],
            forbidden_sets: [[0; BITS_BYTES]; 4],
            attach_bits: [0; MAX_POINTS],
            attach_sets: [[0; BITS_BYTES]; 4],
            owner: [0; MAX_POINTS],
            attach: [[0; MAX_POINTS]; 4],
            attach_len: [0; 4],
            left: [[0; MAX_PIECES]; 4],
            left_bits: [0; 4],
            pieces_left: [0; 4],
            loose_placed: [0; 4],
            squares: [0; 4],
            scored: [0; 4],
            last_mono: [false; 4],
            to_play: 0,
            out: 0,
            nmoves: 0,
        };
        for c in 0..variant.ncolours() {
            for s in variant.starts(c) {
                b.attach_bits[s as usize] |= 1 << c;
                tables::set_bit(&mut b.attach_sets[c], s);
                b.attach[c][b.attach_len[c] as usize] = s;
                b.attach_len[c] += 1;
            }
            b.left[c][..t.npieces()].copy_from_slice(t.copies);
            b.left_bits[c] =
                (t.copies.iter().enumerate()).fold(0, |acc, (k, &n)| acc | u32::from(n > 0) << k);
            b.pieces_left[c] = t.total_pieces() as u8;
        }
        b
    }

    /// The placement tables.
    #[inline]
    pub fn tables(&self) -> &'static Tables {
        self.t
    }

    /// Number of colours.
    #[inline]
    pub fn ncolours(&self) -> usize {
        self.ncolours as usize
    }

    /// The colour whose turn it is by order (it may have no legal move).
    #[inline]
    pub fn to_play(&self) -> usize {
        self.to_play as usize
    }

    /// Number of placements made so far.
    #[inline]
    pub fn nmoves(&self) -> usize {
        self.nmoves as usize
    }

    /// The colour after `c`.
    #[inline]
    pub fn next_colour(&self, c: usize) -> usize {
        (c + 1) % self.ncolours as usize
    }

    /// Owner of a square: `None` if empty.
    #[inline]
    pub fn owner(&self, p: usize) -> Option<usize> {
        self.owner[p].checked_sub(1).map(usize::from)
    }

    /// Copies of piece `k` colour `c` has left.
    #[inline]
    pub fn left(&self, c: usize, k: usize) -> u8 {
        self.left[c][k]
    }

    /// The pieces colour `c` has left, as a bit mask (bit `k`: piece `k`).
    #[inline]
    pub fn left_mask(&self, c: usize) -> u32 {
        self.left_bits[c]
    }

    /// Number of pieces colour `c` has left.
    #[inline]
    pub fn pieces_left(&self, c: usize) -> usize {
        self.pieces_left[c] as usize
    }

    /// Pieces colour `c` has placed.
    #[inline]
    pub fn placed(&self, c: usize) -> usize {
        self.t.total_pieces() - self.pieces_left[c] as usize
    }

    /// Squares covered by colour `c`.
    pub fn squares(&self, c: usize) -> u32 {
        self.squares[c] as u32
    }

    /// Points of colour `c`: squares placed (Nexos: segments), not counting loose pieces
    /// (Callisto's single squares), and the variant's bonuses (see [`Variant::bonus`]) with all
    /// pieces placed.
    pub fn points(&self, c: usize) -> i32 {
        let mut p = self.scored[c] as i32;
        if self.pieces_left[c] == 0 {
            let (all, mono) = self.variant.bonus();
            p += all;
            if self.last_mono[c] {
                p += mono;
            }
        }
        p
    }

    /// The colours that may not cover square `p` (bit `c`: colour `c`); `p` may be
    /// `tables::PAD`, forbidden to no one.
    #[inline]
    pub fn forbidden_at(&self, p: u16) -> u8 {
        self.forbidden[p as usize & (SQUARE_SLOTS - 1)]
    }

    /// Whether colour `c` may place move `m` here (ignores whose turn it is): on free squares,
    /// a loose piece outside the centre section, any other piece touching an attach point of
    /// its colour once the colour has placed the loose pieces it places first.
    #[inline]
    pub fn is_legal(&self, c: usize, m: u16) -> bool {
        let t = self.t;
        let mi = &t.moves[m as usize];
        let k = mi.piece as usize;
        if self.left[c][k] == 0 {
            return false;
        }
        let bit = 1u8 << c;
        let pts = mi.points();
        if !pts.iter().all(|&p| self.forbidden[p as usize] & bit == 0) {
            return false;
        }
        if t.is_loose(k) {
            return !pts.iter().any(|&p| t.geo.in_centre_section(p));
        }
        self.contact_open(c) && pts.iter().any(|&p| self.attach_bits[p as usize] & bit != 0)
    }

    /// Whether colour `c` has placed the loose pieces it must place before its other pieces,
    /// which join it at its attach points (always so without loose pieces).
    #[inline]
    pub fn contact_open(&self, c: usize) -> bool {
        self.loose_placed[c] >= self.t.rules.loose_first
    }

    /// The pieces colour `c` may place at its attach points now (bit k: piece k): those it has
    /// left but the loose ones, none before [`Board::contact_open`].
    #[inline]
    pub fn contact_pieces(&self, c: usize) -> u32 {
        if self.contact_open(c) {
            self.left_mask(c) & !self.t.rules.loose
        } else {
            0
        }
    }

    /// The stage of the placement rules colour `c` is in: it changes with the colour's first
    /// piece on shared starting points (the other starts are no longer its own) and with the
    /// last loose piece it must place first (its other pieces may now join any of its pieces).
    /// Within a stage a colour's placement only loses legal moves to other placements and gains
    /// them only at the attach points of its own new piece, so lists of legal moves kept from
    /// turn to turn stay exact by filtering and adding there; a new stage needs new lists.
    #[inline]
    pub fn rule_stage(&self, c: usize) -> u8 {
        let started = self.variant.shared_starts() && !self.is_first_piece(c);
        let joined = self.t.rules.loose_first > 0 && self.contact_open(c);
        u8::from(started) + u8::from(joined)
    }

    /// Calls `visit` with the legal placements of colour `c`'s loose pieces among `pieces`
    /// (bit k: piece k) until it answers false.
    #[inline]
    pub fn for_loose_moves(&self, c: usize, pieces: u32, mut visit: impl FnMut(u16) -> bool) {
        let t = self.t;
        if pieces & t.rules.loose == 0 || self.left_mask(c) & pieces & t.rules.loose == 0 {
            return;
        }
        let all_bits = t.all_bits();
        let forbidden = &self.forbidden_sets[c];
        for &m in t.loose_moves() {
            let bits = all_bits[m as usize];
            if pieces >> bits.piece() & 1 != 0
                && self.left[c][bits.piece() as usize] > 0
                && !bits.meets(forbidden)
                && !visit(m)
            {
                return;
            }
        }
    }

    isa::twin! {
        /// Places move `m` for colour `c` (which must be legal); the turn passes to the next
        /// colour.
        pub fn play / play_v3 = play_body(&mut self, c: usize, m: u16)
    }

    #[inline(always)]
    fn play_body(&mut self, c: usize, m: u16) {
        let t = self.t;
        let mi = &t.moves[m as usize];
        let bit = 1u8 << c;
        if self.variant.shared_starts() && self.is_first_piece(c) {
            // The other starting points are no longer this colour's to start from.
            for s in self.variant.starts(c) {
                self.attach_bits[s as usize] &= !bit;
                self.attach_sets[c][(s as usize >> 3) & 63] &= !(1 << (s & 7));
            }
            self.attach_len[c] = 0;
        }
        for &p in mi.points() {
            self.forbidden[p as usize] = 0xFF;
            self.owner[p as usize] = c as u8 + 1;
        }
        let placed = t.all_placed()[m as usize];
        for set in &mut self.forbidden_sets {
            placed.add_to(set);
        }
        for &p in t.adj(m) {
            self.forbidden[p as usize] |= bit;
            tables::set_bit(&mut self.forbidden_sets[c], p);
        }
        for &p in t.attach(m) {
            let p = p as usize;
            if self.forbidden[p] & bit == 0 && self.attach_bits[p] & bit == 0 {
                self.attach_bits[p] |= bit;
                tables::set_bit(&mut self.attach_sets[c], p as u16);
                self.attach[c][self.attach_len[c] as usize] = p as u16;
                self.attach_len[c] += 1;
            }
        }
        let k = mi.piece as usize;
        self.left[c][k] -= 1;
        self.left_bits[c] &= !(u32::from(self.left[c][k] == 0) << k);
        self.pieces_left[c] -= 1;
        self.loose_placed[c] += u8::from(t.is_loose(k));
        self.squares[c] += mi.size as u16;
        self.scored[c] += t.score(k);
        self.last_mono[c] = mi.size == 1;
        self.to_play = self.next_colour(c) as u8;
        self.nmoves += 1;
    }

    /// Whether colour `c` has placed no piece yet.
    #[inline]
    pub fn is_first_piece(&self, c: usize) -> bool {
        self.pieces_left[c] as usize == self.t.total_pieces()
    }

    /// Colour `c` passes (it must have no legal move): the turn goes on.
    pub fn pass(&mut self, c: usize) {
        self.out |= 1 << c;
        self.to_play = self.next_colour(c) as u8;
    }

    /// Drops corner points that became unusable; returns the live ones.
    fn live_attach(&mut self, c: usize) -> &[u16] {
        let bit = 1u8 << c;
        let mut n = 0;
        let len = self.attach_len[c] as usize;
        for i in 0..len {
            let p = self.attach[c][i];
            if self.forbidden[p as usize] & bit == 0 {
                self.attach[c][n] = p;
                n += 1;
            }
        }
        self.attach_len[c] = n as u16;
        &self.attach[c][..n]
    }

    /// The number of live corner points of colour `c` (those it may still cover).
    pub fn live_attach_count(&self, c: usize) -> usize {
        let bit = 1u8 << c;
        self.attach[c][..self.attach_len[c] as usize]
            .iter()
            .filter(|&&p| self.forbidden[p as usize] & bit == 0)
            .count()
    }

    /// Colour `c`'s corner points in the order they came, some of them perhaps no longer
    /// live: only the move generation drops the dead ones, so within a simulation's descent
    /// (which only plays) a colour's list grows at its end.
    #[inline]
    pub fn attach_points(&self, c: usize) -> &[u16] {
        &self.attach[c][..self.attach_len[c] as usize]
    }

    /// The live corner points of colour `c` (those it may still cover).
    pub fn live_attach_points(&mut self, c: usize) -> &[u16] {
        self.live_attach(c)
    }

    /// The status of square `p` for colour `c`: bit i set where colour `c` may not cover
    /// status point i of `p` (see [`Tables::compatible`]).
    #[inline]
    pub fn status(&self, c: usize, p: usize) -> u8 {
        self.t
            .status_points(p)
            .iter()
            .enumerate()
            .fold(0, |acc, (i, &q)| {
                acc | (((self.forbidden[q as usize] >> c) & 1) << i)
            })
    }

    /// The squares colour `c` may not cover.
    #[inline]
    pub fn forbidden_set(&self, c: usize) -> &SquareBits {
        &self.forbidden_sets[c]
    }

    /// The squares that are (or were) colour `c`'s corner points, those it may no longer
    /// cover too.
    #[inline]
    pub fn attach_set(&self, c: usize) -> &SquareBits {
        &self.attach_sets[c]
    }

    /// Whether colour `c` may cover every square of move `m` (pieces left are not checked).
    #[inline]
    pub fn is_free_move(&self, c: usize, m: u16) -> bool {
        self.forbidden_bits(m) & (1 << c) == 0
    }

    /// The colours that may not cover some square of move `m` (bit `c`: colour `c`).
    #[inline]
    pub fn forbidden_bits(&self, m: u16) -> u8 {
        self.t.moves[m as usize]
            .padded()
            .iter()
            .fold(0, |acc, &p| acc | self.forbidden[p as usize])
    }

    /// Appends the legal moves of colour `c` with pieces of `min_size..=max_size` squares.
    pub fn gen_moves_sized(
        &mut self,
        c: usize,
        min_size: u8,
        max_size: u8,
        mg: &mut MoveGen,
        out: &mut Vec<u16>,
    ) {
        let t = self.t;
        let mut sized = 0u32;
        for k in 0..t.npieces() {
            let size = t.shapes[k].cells.len() as u8;
            if size >= min_size && size <= max_size {
                sized |= 1 << k;
            }
        }
        self.gen_moves_of(c, sized, mg, out);
    }

    /// Appends the legal moves of colour `c` with the pieces of `pieces` (bit k: piece k), in
    /// the order of [`Board::gen_moves`] (its moves of other pieces left out).
    pub fn gen_moves_of(&mut self, c: usize, pieces: u32, mg: &mut MoveGen, out: &mut Vec<u16>) {
        if self.out & (1 << c) != 0 {
            return;
        }
        let stamp = mg.new_stamp();
        self.for_loose_moves(c, pieces, |m| {
            mg.marks[m as usize] = stamp;
            out.push(m);
            true
        });
        let contact = self.contact_pieces(c);
        if contact == 0 {
            return;
        }
        // The dead corner points are dropped whatever the pieces, as by `gen_moves`.
        let n = self.live_attach(c).len();
        let usable = pieces & contact;
        for i in 0..n * usize::from(usable != 0) {
            let p = self.attach[c][i] as usize;
            self.gen_moves_at(c, p, usable, mg, stamp, out);
        }
    }

    /// Appends the legal moves of colour `c` covering its live attach point `p` with a piece of
    /// `usable` (bit k: piece k; of [`Board::contact_pieces`]) that `mg` has not marked with
    /// `stamp`, and marks them.
    #[inline(always)]
    pub fn gen_moves_at(
        &self,
        c: usize,
        p: usize,
        usable: u32,
        mg: &mut MoveGen,
        stamp: u32,
        out: &mut Vec<u16>,
    ) {
        let all_bits = self.t.all_bits();
        let forbidden = &self.forbidden_sets[c];
        // Only the placements that leave the blocked squares around `p` alone.
        self.t.for_usable_runs(p, self.status(c, p), usable, |run| {
            for &m in run {
                let mark = &mut mg.marks[m as usize];
                if *mark != stamp && !all_bits[m as usize].meets(forbidden) {
                    *mark = stamp;
                    out.push(m);
                }
            }
        });
    }

    /// Appends all legal moves of colour `c`.
    pub fn gen_moves(&mut self, c: usize, mg: &mut MoveGen, out: &mut Vec<u16>) {
        self.gen_moves_sized(c, 1, MAX_PIECE as u8, mg, out);
    }

    /// Whether colour `c` has a legal move; remembers when it has none.
    pub fn has_moves(&mut self, c: usize) -> bool {
        if self.out & (1 << c) != 0 {
            return false;
        }
        let t = self.t;
        let bit = 1u8 << c;
        let mut loose = false;
        self.for_loose_moves(c, t.rules.loose, |_| {
            loose = true;
            false
        });
        if loose {
            return true;
        }
        let usable = self.contact_pieces(c);
        let n = if usable == 0 {
            0
        } else {
            self.live_attach(c).len()
        };
        for i in 0..n {
            let p = self.attach[c][i] as usize;
            for k in 0..t.npieces() {
                if usable >> k & 1 == 0 {
                    continue;
                }
                for &m in t.at(p, k) {
                    let mi = &t.moves[m as usize];
                    if mi
                        .points()
                        .iter()
                        .all(|&q| self.forbidden[q as usize] & bit == 0)
                    {
                        return true;
                    }
                }
            }
        }
        self.out |= 1 << c;
        false
    }

    /// The colour that moves next: `to_play` or the first after it with a legal move; `None`
    /// when the game is over.
    pub fn effective_to_play(&mut self) -> Option<usize> {
        let mut c = self.to_play as usize;
        for _ in 0..self.ncolours {
            if self.has_moves(c) {
                return Some(c);
            }
            c = self.next_colour(c);
        }
        None
    }

    /// Skips colours without a legal move; returns the colour to move, `None` at game end.
    pub fn skip_to_mover(&mut self) -> Option<usize> {
        let c = self.effective_to_play()?;
        self.to_play = c as u8;
        Some(c)
    }

    /// True when no colour can move.
    pub fn game_over(&mut self) -> bool {
        self.effective_to_play().is_none()
    }

    /// The player who controls colour `c` now (Three-Player: the fourth colour rotates).
    pub fn player_of(&self, c: usize) -> usize {
        match self.variant {
            v if v.two_colours_each() => c % 2,
            Variant::Three if c == 3 => (21 - self.pieces_left[3] as usize) % 3,
            _ => c,
        }
    }

    /// Points of each player (Two-Player: the sum of both colours; Three-Player: without the
    /// shared fourth colour).
    pub fn player_points(&self) -> Vec<i32> {
        match self.variant {
            v if v.two_colours_each() => vec![
                self.points(0) + self.points(2),
                self.points(1) + self.points(3),
            ],
            Variant::Three => (0..3).map(|c| self.points(c)).collect(),
            _ => (0..self.ncolours()).map(|c| self.points(c)).collect(),
        }
    }

    /// Game result per player: 1 for the single winner, 0 for the single loser, ranks in
    /// between spread evenly, ties sharing the mean of their ranks (Callisto: a tie goes to the
    /// later player).
    pub fn player_results(&self) -> Vec<f32> {
        let later = self.variant.later_player_wins_ties();
        // Points in thousandths, the later player's a thousandth more when it wins ties.
        let pts: Vec<i64> = (self.player_points().iter().enumerate())
            .map(|(i, &p)| 1000 * i64::from(p) + if later { i as i64 } else { 0 })
            .collect();
        let n = pts.len();
        pts.iter()
            .map(|&p| {
                let below = pts.iter().filter(|&&q| q < p).count() as f32;
                let equal = pts.iter().filter(|&&q| q == p).count() as f32;
                (below + (equal - 1.0) / 2.0) / (n - 1) as f32
            })
            .collect()
    }

    /// Makes colour `c` the one to play (GTP lets any colour move next).
    pub fn set_to_play(&mut self, c: usize) {
        self.to_play = c as u8;
    }

    /// Colours (bits) for which square `p` is a live corner point.
    #[inline]
    pub fn attach_mask(&self, p: usize) -> u8 {
        self.attach_bits[p] & !self.forbidden[p]
    }

    /// [`Board::attach_mask`] of every square at once, into `out` (zero past the board's
    /// squares).
    #[inline]
    pub fn attach_masks(&self, out: &mut [u8; SQUARE_SLOTS]) {
        for ((o, &a), &f) in out.iter_mut().zip(&self.attach_bits).zip(&self.forbidden) {
            *o = a & !f;
        }
    }

    /// Bit mask of the colours played by other players than the one controlling `c`.
    pub fn opponents_mask(&self, c: usize) -> u8 {
        let me = self.player_of(c);
        let mut mask = 0;
        for o in 0..self.ncolours() {
            if o != c && (self.player_of(o) != me || self.variant == Variant::Three && o == 3) {
                mask |= 1 << o;
            }
        }
        mask
    }

    /// Whether colour `c` is known to have no legal move left.
    #[inline]
    pub fn is_out(&self, c: usize) -> bool {
        self.out & (1 << c) != 0
    }

    /// Whether square `p` is a live corner point of colour `c`.
    #[inline]
    pub fn is_attach(&self, c: usize, p: usize) -> bool {
        self.attach_bits[p] & (1 << c) != 0 && self.forbidden[p] & (1 << c) == 0
    }

    /// Whether colour `c` may cover square `p` (as far as that square goes).
    #[inline]
    pub fn is_free_for(&self, c: usize, p: usize) -> bool {
        self.forbidden[p] & (1 << c) == 0
    }

    /// The rows of the board's grid, top row first: `.` empty (`,` in the centre section), `1`..`4`
    /// the colours, a space off the board (Trigon's hexagon and Callisto's octagon within their
    /// grids).
    pub fn rows(&self) -> Vec<String> {
        let geo = &self.t.geo;
        (0..geo.height as i32)
            .rev()
            .map(|y| {
                (0..geo.width as i32)
                    .map(|x| match geo.point(x, y) {
                        None => ' ',
                        Some(p) => match self.owner[p as usize] {
                            0 if geo.in_centre_section(p) => ',',
                            0 => '.',
                            o => (b'0' + o) as char,
                        },
                    })
                    .collect()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn legal(b: &mut Board, c: usize) -> Vec<u16> {
        let mut mg = MoveGen::new(b.tables());
        let mut out = Vec::new();
        b.gen_moves(c, &mut mg, &mut out);
        out
    }

    fn mv(b: &Board, s: &str) -> u16 {
        b.tables().parse_move(s).unwrap()
    }

    #[test]
    fn first_move_counts() {
        let mut duo = Board::new(Variant::Duo);
        assert_eq!(legal(&mut duo, 0).len(), 414);
        assert_eq!(legal(&mut duo, 1).len(), 414);
        let mut classic = Board::new(Variant::Classic);
        for c in 0..4 {
            assert_eq!(legal(&mut classic, c).len(), 58);
        }
        let mut junior = Board::new(Variant::Junior);
        assert!(legal(&mut junior, 0).len() < 414);
    }

    #[test]
    fn first_move_must_cover_the_start() {
        let b = Board::new(Variant::Duo);
        assert!(b.is_legal(0, mv(&b, "e10")));
        assert!(!b.is_legal(0, mv(&b, "e9")));
        assert!(!b.is_legal(0, mv(&b, "j5")), "the other colour's start");
        assert!(b.is_legal(1, mv(&b, "j5,j6")));
    }

    #[test]
    fn corners_required_edges_forbidden() {
        let mut b = Board::new(Variant::Duo);
        b.play(0, mv(&b, "e10,f10"));
        assert!(b.is_legal(0, mv(&b, "g11,g12,g13")), "corner contact");
        assert!(
            b.is_legal(0, mv(&b, "d9,d8,d7")),
            "corner contact below left"
        );
        assert!(
            !b.is_legal(0, mv(&b, "g10,h10,i10")),
            "edge contact with own colour"
        );
        assert!(!b.is_legal(0, mv(&b, "h12,h13,h14")), "no contact at all");
        assert!(!b.is_legal(0, mv(&b, "e10")), "overlap");
        assert!(!b.is_legal(0, mv(&b, "g11,h11")), "piece 2 already used");
        b.play(1, mv(&b, "j5,j6,j7,j8,j9"));
        b.play(0, mv(&b, "g11,g12,g13"));
        // White may touch black along an edge, as long as it has a corner of its own.
        assert!(
            b.is_legal(1, mv(&b, "i10,h10,g10,g9")),
            "edge contact with black is fine"
        );
        assert!(!b.is_legal(1, mv(&b, "g10,g9")), "but no corner of white");
    }

    /// The square sets follow the forbidden squares and the corner points, and the mask of
    /// pieces left the counts, through whole games (Trigon: its shared starting points too).
    #[test]
    fn forbidden_sets_match_forbidden_squares() {
        use crate::games::blokus::rng::Rng;
        let mut rng = Rng::new(7);
        for v in [Variant::Duo, Variant::Classic, Variant::Trigon] {
            let mut b = Board::new(v);
            let t = b.tables();
            let mut mg = MoveGen::new(t);
            while let Some(c) = b.skip_to_mover() {
                let mut moves = Vec::new();
                b.gen_moves(c, &mut mg, &mut moves);
                b.play(c, moves[rng.below(moves.len())]);
                for c in 0..b.ncolours() {
                    let counted = (0..t.npieces()).filter(|&k| b.left(c, k) > 0);
                    let mask = counted.fold(0, |acc, k| acc | 1 << k);
                    assert_eq!(b.left_mask(c), mask);
                    for p in 0..t.npoints() {
                        let set = b.forbidden_set(c)[p / 8] >> (p % 8) & 1 != 0;
                        assert_eq!(set, !b.is_free_for(c, p));
                        let corner = b.attach_set(c)[p / 8] >> (p % 8) & 1 != 0;
                        assert_eq!(corner, b.attach_bits[p] >> c & 1 != 0);
                    }
                    for (m, mi) in t.moves.iter().enumerate() {
                        let blocked = t.bits(m as u16).meets(b.forbidden_set(c));
                        assert_eq!(blocked, !b.is_free_move(c, m as u16));
                        assert_eq!(t.bits(m as u16).piece(), mi.piece);
                    }
                }
            }
        }
    }

    /// Trigon: each colour's first piece covers any of the six shared starting points; after
    /// it, the others are no longer that colour's, and it goes on from its corners.
    #[test]
    fn trigon_starts_are_shared_then_corners_take_over() {
        let mut b = Board::new(Variant::Trigon);
        // The reference engine counts 2,478 first placements for any colour.
        assert_eq!(legal(&mut b, 0).len(), 2478);
        assert_eq!(legal(&mut b, 3).len(), 2478);
        assert_eq!(Variant::Trigon.starts(0), Variant::Trigon.starts(2));
        assert!(!b.is_legal(0, mv(&b, "r14")), "off the starting points");
        b.play(0, mv(&b, "r15"));
        assert!(
            !b.is_legal(0, mv(&b, "r4")),
            "another start is no longer blue's"
        );
        assert!(b.is_legal(1, mv(&b, "r4")), "but still yellow's");
        assert!(!b.is_legal(1, mv(&b, "r15")), "covered");
        let t = b.tables();
        let r15 = t.parse_point("r15").unwrap();
        let two = t.shapes.iter().position(|s| s.name == "2").unwrap();
        let (mut corner, mut edge) = (0, 0);
        for (m, mi) in t.moves.iter().enumerate() {
            if mi.piece as usize != two {
                continue;
            }
            let pts = mi.points();
            let touches_edge = pts.iter().any(|&p| t.geo.adj(r15).contains(&p));
            let touches_corner = pts.iter().any(|&p| t.geo.diag(r15).contains(&p));
            if touches_edge {
                assert!(!b.is_legal(0, m as u16), "{}", t.move_name(m as u16));
                edge += 1;
            } else if touches_corner {
                assert!(b.is_legal(0, m as u16), "{}", t.move_name(m as u16));
                corner += 1;
            }
        }
        assert!(corner > 5 && edge > 2, "{corner} {edge}");
        assert_eq!(legal(&mut b, 0).len(), {
            let mut n = 0;
            for m in 0..t.moves.len() as u16 {
                n += usize::from(b.is_legal(0, m));
            }
            n
        });
    }

    /// Callisto: each colour's first two pieces are single squares, anywhere outside the centre
    /// section (the reference engine lists 120 first moves on the two-colour board, 264 on the
    /// four-colour one and 196 on the three-colour one).
    #[test]
    fn callisto_first_two_moves_are_single_squares() {
        for (v, n) in [
            (Variant::Callisto2, 120),
            (Variant::Callisto, 264),
            (Variant::Callisto24, 264),
            (Variant::Callisto3, 196),
        ] {
            let mut b = Board::new(v);
            assert!(v.starts(0).is_empty());
            for c in 0..b.ncolours() {
                let moves = legal(&mut b, c);
                assert_eq!(moves.len(), n, "{v:?}");
                assert!(
                    moves
                        .iter()
                        .all(|&m| b.tables().moves[m as usize].size == 1)
                );
            }
        }
        let mut b = Board::new(Variant::Callisto2);
        assert!(
            !b.is_legal(0, mv(&b, "h3,h4")),
            "not before the single squares"
        );
        b.play(0, mv(&b, "h3"));
        // After one single square the second piece is a single square too, even beside it.
        assert!(!b.is_legal(0, mv(&b, "h4,h5")));
        assert!(!b.is_legal(0, mv(&b, "g4,h4,i4,h5,h6")));
        assert!(
            b.is_legal(0, mv(&b, "h4")),
            "a single square beside the first"
        );
        assert!(b.is_legal(0, mv(&b, "a8")), "or anywhere else");
        assert_eq!(legal(&mut b, 0).len(), 119);
        b.play(1, mv(&b, "h14"));
        b.play(0, mv(&b, "a8"));
        assert!(b.is_legal(0, mv(&b, "h4,h5")), "now the other pieces");
        assert!(b.is_legal(0, mv(&b, "b8,c8,d8")), "at either single square");
        assert!(
            !b.is_legal(1, mv(&b, "h13,h12")),
            "white has one single square"
        );
        let moves = legal(&mut b, 0);
        assert!(
            moves
                .iter()
                .any(|&m| b.tables().moves[m as usize].size == 5)
        );
        assert_eq!(moves.len(), {
            let t = b.tables();
            (0..t.moves.len() as u16)
                .filter(|&m| b.is_legal(0, m))
                .count()
        });
    }

    #[test]
    fn callisto_single_squares_keep_out_of_the_centre_section() {
        let mut b = Board::new(Variant::Callisto2);
        // The section spans columns f..k and rows 6..11 of the 16x16 board.
        for centre in [
            "h6", "i6", "g7", "j7", "f8", "k8", "f9", "k9", "h9", "g10", "h11",
        ] {
            assert!(!b.is_legal(0, mv(&b, centre)), "{centre}");
        }
        for outside in ["g6", "f7", "e8", "l9", "f10", "g11", "h12", "h5"] {
            assert!(b.is_legal(0, mv(&b, outside)), "{outside}");
        }
        b.play(0, mv(&b, "h5"));
        b.play(1, mv(&b, "a8"));
        b.play(0, mv(&b, "g5"));
        // Other pieces may enter the section; single squares may not, even touching.
        assert!(b.is_legal(0, mv(&b, "h6,h7")));
        assert!(!b.is_legal(0, mv(&b, "h6")));
        b.play(1, mv(&b, "p8"));
        b.play(0, mv(&b, "h6,h7"));
        assert!(
            !b.is_legal(0, mv(&b, "h8")),
            "beside its own piece, still in it"
        );
        assert!(b.is_legal(0, mv(&b, "f5")));
        let t = b.tables();
        let centre = (0..t.npoints() as u16)
            .filter(|&p| t.geo.in_centre_section(p))
            .count();
        assert_eq!(centre, 24);
        assert!(legal(&mut b, 0).iter().all(|&m| {
            let mi = &t.moves[m as usize];
            mi.size > 1 || !t.geo.in_centre_section(mi.points()[0])
        }));
    }

    #[test]
    fn callisto_pieces_touch_their_own_colour_along_an_edge() {
        let mut b = Board::new(Variant::Callisto2);
        for m in ["h3", "h14", "c8", "n9"] {
            let c = b.to_play();
            b.play(c, mv(&b, m));
        }
        assert!(b.is_legal(0, mv(&b, "h4,h5")), "along the top edge of h3");
        assert!(b.is_legal(0, mv(&b, "g3,f3")), "along its left edge");
        assert!(b.is_legal(0, mv(&b, "h2,g2")), "below it");
        assert!(!b.is_legal(0, mv(&b, "i4,i5")), "a corner is not enough");
        assert!(!b.is_legal(0, mv(&b, "g4,f4")), "nor the other corner");
        assert!(!b.is_legal(0, mv(&b, "j3,k3")), "nor no contact");
        assert!(
            !b.is_legal(0, mv(&b, "h13,h12")),
            "nor another colour's edge"
        );
        assert!(!b.is_legal(0, mv(&b, "h3,h4")), "nor an occupied square");
        b.play(0, mv(&b, "h4,h5"));
        // Edges of its own colour are fine (no edge ban), and so is touching the other colour.
        assert!(b.is_legal(0, mv(&b, "i4,i5,i6")));
        b.play(1, mv(&b, "h13,h12,h11"));
        assert!(b.is_legal(0, mv(&b, "g6,h6,h7,h8")));
        assert!(b.is_legal(1, mv(&b, "h10,h9,h8")), "along white's own edge");
        assert!(
            b.is_legal(1, mv(&b, "i9,i10,i11")),
            "any edge of its pieces"
        );
    }

    #[test]
    fn callisto_scores_count_no_single_squares_and_no_bonus() {
        let mut b = Board::new(Variant::Callisto2);
        for m in ["h3", "h14", "c8", "n9", "h4,h5,h6", "h13,h12"] {
            let c = b.to_play();
            b.play(c, mv(&b, m));
        }
        assert_eq!((b.points(0), b.points(1)), (3, 2));
        assert_eq!((b.squares(0), b.squares(1)), (5, 4));
        assert_eq!(b.player_points(), vec![3, 2]);
        // All 21 pieces placed: 68 points, no bonus, even with a single square last.
        b.left[0] = [0; MAX_PIECES];
        b.left_bits[0] = 0;
        b.pieces_left[0] = 0;
        b.scored[0] = 68;
        b.last_mono[0] = true;
        assert_eq!(b.points(0), 68);
        // Equal points: the later player wins.
        b.scored[1] = 68;
        assert_eq!(b.player_results(), vec![0.0, 1.0]);
        let mut four = Board::new(Variant::Callisto);
        four.scored = [10, 12, 12, 10];
        assert_eq!(four.player_results(), vec![0.0, 2.0 / 3.0, 1.0, 1.0 / 3.0]);
        let mut teams = Board::new(Variant::Callisto24);
        teams.scored = [10, 12, 12, 10];
        assert_eq!(teams.player_points(), vec![22, 22]);
        assert_eq!(teams.player_results(), vec![0.0, 1.0]);
        // Elsewhere ties are shared.
        let mut classic = Board::new(Variant::Classic);
        classic.scored = [10, 12, 12, 10];
        assert_eq!(
            classic.player_results(),
            vec![1.0 / 6.0, 5.0 / 6.0, 5.0 / 6.0, 1.0 / 6.0]
        );
    }

    /// A Callisto game ends when no colour can place a piece, single squares included: the
    /// last holes are filled with them.
    #[test]
    fn callisto_games_end_when_no_colour_can_move() {
        use crate::games::blokus::rng::Rng;
        let mut rng = Rng::new(5);
        for v in [Variant::Callisto2, Variant::Callisto3] {
            let mut b = Board::new(v);
            let mut mg = MoveGen::new(b.tables());
            while let Some(c) = b.skip_to_mover() {
                let mut moves = Vec::new();
                b.gen_moves(c, &mut mg, &mut moves);
                assert!(moves.iter().all(|&m| b.is_legal(c, m)));
                b.play(c, moves[rng.below(moves.len())]);
            }
            let t = b.tables();
            for c in 0..b.ncolours() {
                assert!((0..t.moves.len() as u16).all(|m| !b.is_legal(c, m)));
                if b.left(c, 0) > 0 {
                    // A colour with single squares left has filled every square it may.
                    assert!(
                        (0..t.npoints() as u16).all(|p| {
                            b.owner(p as usize).is_some() || t.geo.in_centre_section(p)
                        })
                    );
                }
            }
        }
    }

    /// Nexos: 515 first moves a colour, each on one of its four starting segments; a piece
    /// joins its colour at a segment's end, never crosses a junction a straight run covers,
    /// and scores its segments (+10 with every piece placed, nothing more for the single
    /// segment last).
    #[test]
    fn nexos_segments_junctions_and_scores() {
        for v in [Variant::Nexos, Variant::Nexos2] {
            let mut b = Board::new(v);
            for c in 0..4 {
                let moves = legal(&mut b, c);
                assert_eq!(moves.len(), 515);
                let starts = v.starts(c);
                let t = b.tables();
                assert!(moves.iter().all(|&m| {
                    (t.moves[m as usize].points().iter()).any(|p| starts.contains(p))
                }));
            }
        }
        let mut b = Board::new(Variant::Nexos);
        let bar = mv(&b, "e22,e20");
        // The bar covers its two segments and the junction e21 between them.
        assert_eq!(b.tables().moves[bar as usize].size, 3);
        b.play(0, bar);
        assert_eq!(b.points(0), 2);
        let t = b.tables();
        assert!(!b.is_legal(0, mv(&b, "b21,d21,f21")), "crosses e21");
        assert!(b.is_legal(0, mv(&b, "f21")), "at the bar's end");
        assert!(b.is_legal(0, mv(&b, "e18,f17")), "at the bar's other end");
        assert!(!b.is_legal(0, mv(&b, "g20")), "touches nothing of blue");
        assert_eq!(
            t.score(t.moves[mv(&b, "e18,f17") as usize].piece as usize),
            2
        );
        b.left[0] = [0; MAX_PIECES];
        b.left_bits[0] = 0;
        b.pieces_left[0] = 0;
        b.last_mono[0] = true;
        assert_eq!(b.points(0), 2 + 10, "no bonus for the single segment");
    }

    #[test]
    fn bonuses_and_results() {
        let mut b = Board::new(Variant::Duo);
        b.left[0] = [0; MAX_PIECES];
        b.left_bits[0] = 0;
        b.pieces_left[0] = 0;
        b.scored[0] = 89;
        b.last_mono[0] = true;
        assert_eq!(b.points(0), 109);
        b.last_mono[0] = false;
        assert_eq!(b.points(0), 104);
        assert_eq!(b.player_results(), vec![1.0, 0.0]);
        let mut j = Board::new(Variant::Junior);
        j.pieces_left[1] = 0;
        j.scored[1] = 88;
        assert_eq!(j.points(1), 88, "no bonus in junior");
        let c = Board::new(Variant::Classic);
        assert_eq!(c.player_results(), vec![0.5; 4]);
    }
}
