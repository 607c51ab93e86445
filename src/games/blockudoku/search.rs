//! The Blockudoku player: chooses the placements of a whole hand.
//!
//! Iterations (under the game-independent driver of [`crate::search::iterative`]):
//! 1. greedy: for each order of the hand, each piece where the evaluation likes it best
//!    (microseconds; every `go` has a legal plan at once; if greedy finds none, the full search
//!    decides, so a hand is lost only if no order and placement works);
//! 2. full: every order and placement, best first by a cheap evaluation; intermediate states
//!    deduplicated, clear-free sequences searched in one order only, final boards evaluated only
//!    as far as needed to know whether they enter the best 8 (exact branch-and-bound). From
//!    level 4 up it follows only the best placements of each node before the last piece (a
//!    beam, [`Caps::beam`], by the cheap value): at full strength the best
//!    [`super::level::BEAM`]. The beam plays better than the whole search: over every final
//!    board the learned evaluation finds the ones it overrates (ordering the beam by the
//!    tuples too played worse). Without a plan from iteration 1 the search is whole;
//! 3. and up: look-ahead: the best final boards of iteration 2 are compared by the mean value of
//!    the best greedy answer to sampled next hands (the same samples for every candidate), where
//!    a hand that cannot be placed counts as a death. Samples accumulate over iterations (8, +8,
//!    +16, ...) and each complete iteration drops the worse half of the candidates. Only hands
//!    dealt to a crowded board ([`LOOKAHEAD_FROM`] filled cells or more, changeable with
//!    [`HandSearch::lookahead_from`]) are looked ahead: on emptier boards the search ends after
//!    iteration 2, whatever the limits, so the time goes where losses start.
//!
//! [`HandSearch::level`] caps the search below full strength (see [`super::level`]);
//! [`HandSearch::lines`] asks each iteration for its best distinct final boards (`MultiPV`).

use super::board::{Board, CELLS};
use super::board_set::BoardSet;
use super::eval::{Evaluator, PieceState};
use super::eval_file::Evaluation;
use super::level::{Caps, Play};
use super::ntuple::{Frame, PieceTouches};
use super::piece::{Piece, PieceSet, cells_of};
use super::rules::{Placement, Position};
use crate::search::SearchControl;
use crate::search::iterative::{Iteration, IterativeSearch, Progress};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::rc::Rc;
use std::sync::Arc;

/// The value of a sampled hand that cannot be placed.
const DEATH: i64 = -1_000_000;
/// Nodes between two looks at the clock.
const CHECK_EVERY: u64 = 256;
/// Candidates the look-ahead compares.
const LOOKAHEAD_CANDIDATES: usize = 8;
/// Final boards the full search keeps when a look-ahead may follow (its candidates come from
/// them); without one only the best is kept, which lets more final boards be cut early.
const TOP: usize = LOOKAHEAD_CANDIDATES;
/// Sampled hands in the first look-ahead iteration.
const LOOKAHEAD_SAMPLES: usize = 8;
/// Boards with fewer filled cells are searched without look-ahead (see [`HandSearch::max_depth`]).
pub const LOOKAHEAD_FROM: u32 = 28;

/// A complete plan for the hand and where it leads.
#[derive(Debug, Clone, Copy)]
struct Candidate {
    board: Board,
    eval: i32,
    plan: [Placement; 3],
    len: u8,
}

impl Candidate {
    fn notation(&self) -> Vec<String> {
        self.plan[..usize::from(self.len)]
            .iter()
            .map(|p| p.notation())
            .collect()
    }
}

/// A child in the full search: (cheap evaluation, slot, anchor, board, nothing cleared yet).
type Child = (i32, u8, u8, Board, bool);

/// The placements of the last piece from one board: at most one per cell.
struct Leaves {
    anchors: [u8; CELLS],
    /// Scratch: an order of the leaves.
    order: [u8; CELLS],
    boards: [Board; CELLS],
    cleared: [bool; CELLS],
    cheap: [i32; CELLS],
}

/// The state of the look-ahead between iterations.
#[derive(Debug, Default)]
struct Lookahead {
    /// The candidates still compared.
    candidates: Vec<Candidate>,
    /// Their summed answer values over the samples so far.
    totals: Vec<i64>,
    /// Samples completed (every candidate has a value for each).
    samples: usize,
    /// The candidates dropped by [`Lookahead::halve`]: board, summed values, samples then.
    dropped: Vec<(Board, i64, usize)>,
}

impl Lookahead {
    /// The candidates with their mean values, best first: by total, ties to the better static
    /// evaluation (earlier in the list). Empty before the first sample.
    fn ranked(&self) -> Vec<(Candidate, i64)> {
        if self.samples == 0 {
            return Vec::new();
        }
        let mut order: Vec<usize> = (0..self.candidates.len()).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(self.totals[i]), i));
        order
            .iter()
            .map(|&i| (self.candidates[i], self.totals[i] / self.samples as i64))
            .collect()
    }

    /// Keeps the better half of the candidates (at least `least`, and two), in their original
    /// order.
    fn halve(&mut self, least: usize) {
        let keep = self.candidates.len().div_ceil(2).max(2).max(least);
        if self.samples == 0 || keep >= self.candidates.len() {
            return;
        }
        let mut order: Vec<usize> = (0..self.candidates.len()).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(self.totals[i]), i));
        for &i in &order[keep..] {
            self.dropped
                .push((self.candidates[i].board, self.totals[i], self.samples));
        }
        order.truncate(keep);
        order.sort_unstable();
        self.candidates = order.iter().map(|&i| self.candidates[i]).collect();
        self.totals = order.iter().map(|&i| self.totals[i]).collect();
    }
}

/// A search of one hand from one position.
pub struct HandSearch<'a> {
    set: &'a PieceSet,
    ev: Rc<Evaluator>,
    start: Position,
    hand: &'a [Piece],
    rng: SmallRng,
    nodes: u64,
    /// The boards after a clear already searched, with the slots still to place.
    seen: BoardSet,
    /// The children of the nodes on the current path, by depth (their memory is reused).
    children: [Vec<Child>; 3],
    /// The final boards of the node being searched.
    leaves: Box<Leaves>,
    /// The tuples each placement of each piece of the hand touches (empty without tuples):
    /// a final board's tuple value is its parent's plus the changes of these alone.
    touches: Vec<Arc<PieceTouches>>,
    /// The tuple frames of the boards on the current path of the full search, by depth (kept
    /// with `touches` from the start board's; unused without tuples).
    frames: [Frame; 3],
    best: Option<Candidate>,
    chosen: Option<Candidate>,
    /// The best distinct final boards of the full search, best first.
    top: Vec<Candidate>,
    /// How many final boards `top` keeps: [`TOP`] (or `lines` if more) when a look-ahead may
    /// follow, else `lines`.
    keep: usize,
    /// Whether a look-ahead follows the full search (see [`HandSearch::no_lookahead`]).
    looks_ahead: bool,
    /// How many best lines each iteration reports (`MultiPV`).
    lines: usize,
    /// What the level lets the search do.
    caps: Caps,
    /// The beam of the running full search (see [`Caps::beam`]).
    beam: Option<usize>,
    la: Lookahead,
    /// The fewest filled cells of a start board whose hand is looked ahead.
    lookahead_from: u32,
    /// The CPU has the popcnt instruction.
    popcnt: bool,
    full_done: bool,
    stopped: bool,
}

impl<'a> HandSearch<'a> {
    /// A search of `hand` (1 to 3 pieces) from `start` with the evaluation `eval` (an
    /// [`Evaluation`] or linear weights); `set` is what future hands are dealt from, `seed`
    /// drives the sampling of future hands.
    pub fn new(
        set: &'a PieceSet,
        eval: impl Into<Evaluation>,
        start: Position,
        hand: &'a [Piece],
        seed: u64,
    ) -> Self {
        let seed = seed ^ (start.board.0 as u64) ^ ((start.board.0 >> 64) as u64).rotate_left(17);
        let ev = cached_evaluator(set, eval.into());
        let touches = if ev.tuples().is_empty() {
            Vec::new()
        } else {
            hand.iter()
                .map(|p| match ev.touches(p) {
                    Some(touches) => touches.clone(),
                    None => Arc::new(PieceTouches::new(ev.tuples(), p.anchors(), |a| p.at(a))),
                })
                .collect()
        };
        HandSearch {
            set,
            ev,
            start,
            hand,
            rng: SmallRng::seed_from_u64(seed),
            nodes: 0,
            seen: SEEN.with(|seen| seen.take()),
            children: Default::default(),
            leaves: Box::new(Leaves {
                anchors: [0; CELLS],
                order: [0; CELLS],
                boards: [Board::EMPTY; CELLS],
                cleared: [false; CELLS],
                cheap: [0; CELLS],
            }),
            touches,
            frames: [Frame::NONE; 3],
            best: None,
            chosen: None,
            top: Vec::new(),
            keep: TOP,
            looks_ahead: false,
            lines: 1,
            caps: Caps::FULL,
            beam: None,
            la: Lookahead::default(),
            lookahead_from: LOOKAHEAD_FROM,
            popcnt: has_popcnt(),
            full_done: false,
            stopped: false,
        }
    }

    /// Looks ahead only from start boards with at least `cells` filled cells (0: always; the
    /// default is [`LOOKAHEAD_FROM`]).
    pub fn lookahead_from(mut self, cells: u32) -> Self {
        self.lookahead_from = cells;
        self
    }

    /// Plays at `level` (1 to [`crate::games::FULL_STRENGTH`], the default: see
    /// [`super::level`]).
    pub fn level(mut self, level: u32) -> Self {
        self.caps = Caps::of(level);
        self
    }

    /// Reports the best `lines` distinct final boards of each iteration (at least 1).
    pub fn lines(mut self, lines: usize) -> Self {
        self.lines = lines.max(1);
        self
    }

    /// True when no look-ahead follows the full search: the board is not crowded enough to be
    /// worth it, or the limits or the level stop at iteration 2.
    fn no_lookahead(&self, control: &SearchControl) -> bool {
        let at_most_two = |max: Option<u32>| max.is_some_and(|max| max <= 2);
        self.start.board.filled() < self.lookahead_from.max(self.caps.lookahead_from)
            || at_most_two(control.max_depth())
            || at_most_two(self.caps.max_depth)
    }

    fn eval(&self, board: Board) -> i32 {
        self.ev.full(board)
    }

    /// Iteration 1: the best greedy plan over all orders, or none if no order places the hand.
    fn greedy(&mut self) -> Option<Candidate> {
        #[cfg(target_arch = "x86_64")]
        if self.popcnt {
            // SAFETY: `new` found the popcnt instruction on this CPU.
            return unsafe { self.greedy_popcnt() };
        }
        self.greedy_body()
    }

    /// [`HandSearch::greedy`] compiled with the popcnt instruction.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn greedy_popcnt(&mut self) -> Option<Candidate> {
        self.greedy_body()
    }

    /// With more than one line asked for, every order's plan goes into `top`.
    #[inline(always)]
    fn greedy_body(&mut self) -> Option<Candidate> {
        let every = self.lines > 1;
        let mut best: Option<Candidate> = None;
        let mut first = FirstSteps::default();
        for order in distinct_orders(self.hand) {
            let floor = match best {
                Some(b) if !every => b.eval,
                _ => i32::MIN,
            };
            let Some(Some(candidate)) = greedy_plan(
                &self.ev,
                self.start.board,
                self.hand,
                &order,
                floor,
                &mut self.nodes,
                &mut self.leaves,
                &mut first,
            ) else {
                continue;
            };
            best = Some(candidate);
            if every {
                insert_distinct(&mut self.top, candidate, self.lines);
                best = self.top.first().copied();
            }
        }
        best
    }

    /// Iteration 1 of levels 1 and 2: the first order, hand order first, that places the whole
    /// hand one piece at a time by the level's rule.
    fn simple(&mut self, play: Play) -> Option<Candidate> {
        let orders = distinct_orders(self.hand);
        let mut first = FirstSteps::default();
        let candidate = orders.iter().find_map(|order| match play {
            Play::MostClears => self.most_clears(order),
            _ => greedy_plan(
                &self.ev,
                self.start.board,
                self.hand,
                order,
                i32::MIN,
                &mut self.nodes,
                &mut self.leaves,
                &mut first,
            )
            .flatten(),
        })?;
        Some(Candidate {
            eval: self.eval(candidate.board),
            ..candidate
        })
    }

    /// Places the hand in `order`, each piece where it clears the most regions, ties drawn at
    /// random; `None` if some piece finds no place. (The plan's `eval` is left at 0.) The nodes
    /// are the placements looked at one by one: those that clear, or the one drawn when none
    /// does (the others are one bit mask).
    fn most_clears(&mut self, order: &[usize]) -> Option<Candidate> {
        let mut board = self.start.board;
        let mut plan = [Placement { slot: 0, anchor: 0 }; 3];
        for (step, &slot) in order.iter().enumerate() {
            let piece = &self.hand[slot];
            let fits = piece.fits(board);
            let clearing = piece.clearing(board, fits);
            self.nodes += u64::from(clearing.count_ones().max(u32::from(fits != 0)));
            let mut best = (0, fits);
            for anchor in cells_of(clearing) {
                let cleared = board.place(piece.at(anchor)).1;
                if cleared > best.0 {
                    best = (cleared, 0);
                }
                if cleared == best.0 {
                    best.1 |= 1u128 << anchor;
                }
            }
            let ties = best.1;
            if ties == 0 {
                return None;
            }
            let anchor =
                cells_of(ties).nth(self.rng.random_range(0..ties.count_ones() as usize))?;
            board = board.place(piece.at(anchor)).0;
            plan[step] = Placement {
                slot: slot as u8,
                anchor: anchor as u8,
            };
        }
        Some(Candidate {
            board,
            eval: 0,
            plan,
            len: order.len() as u8,
        })
    }

    /// Iteration 2: every order and placement; keeps the best distinct final boards in `top`.
    /// Children are searched best first by the cheap evaluation, so that a search cut short
    /// has seen the likeliest plans; final boards are evaluated only as far as needed to know
    /// whether they enter `top` (exact: the piece features only subtract).
    /// `beam`: see [`Caps::beam`].
    fn full(&mut self, control: &SearchControl, progress: &mut Progress, beam: Option<usize>) {
        self.seen.clear();
        self.top.clear();
        self.looks_ahead = !self.no_lookahead(control);
        self.keep = if self.looks_ahead {
            TOP.max(self.lines)
        } else {
            self.lines
        };
        if let Some(greedy) = self.best {
            self.top.push(greedy);
        }
        let all = (1u8 << self.hand.len()) - 1;
        let mut plan = [Placement { slot: 0, anchor: 0 }; 3];
        // A beam would cut the one order in which clear-free sequences are searched: every
        // order is searched then, and the set of seen boards merges them.
        self.beam = beam;
        let clean_from = beam.is_none().then_some(0);
        if !self.touches.is_empty() {
            self.frames[0] = self.ev.tuples().frame(self.start.board);
        }
        self.dfs(
            self.start.board,
            all,
            clean_from,
            &mut plan,
            0,
            control,
            progress,
        );
        self.full_done = !self.stopped;
    }

    /// The value a final board must beat to enter `top`.
    #[inline]
    fn floor(&self) -> i32 {
        if self.top.len() < self.keep {
            i32::MIN
        } else {
            self.top[self.keep - 1].eval
        }
    }

    /// Puts a final board into `top` (sorted best first, distinct boards).
    fn offer(&mut self, leaf: Candidate, progress: &mut Progress) {
        if insert_distinct(&mut self.top, leaf, self.keep) == Some(0) {
            self.best = Some(leaf);
            progress.improved(&leaf.notation(), i64::from(leaf.eval), self.nodes);
        }
    }

    /// Searches the placements of the `remaining` slots from `board`. `clean_from` is `Some(s)`
    /// while no placement so far cleared anything and the last one placed slot `s - 1` (`Some(0)`
    /// at the root): such sequences are order-independent (the same cells filled, no region ever
    /// full), so a placement that clears nothing must then take a higher slot than the last one.
    #[allow(clippy::too_many_arguments)]
    fn dfs(
        &mut self,
        board: Board,
        remaining: u8,
        clean_from: Option<u8>,
        plan: &mut [Placement; 3],
        depth: usize,
        control: &SearchControl,
        progress: &mut Progress,
    ) {
        #[cfg(target_arch = "x86_64")]
        if self.popcnt {
            // SAFETY: `new` found the popcnt instruction on this CPU.
            unsafe {
                self.dfs_popcnt(board, remaining, clean_from, plan, depth, control, progress)
            };
            return;
        }
        self.dfs_body(board, remaining, clean_from, plan, depth, control, progress);
    }

    /// [`HandSearch::dfs`] compiled with the popcnt instruction (the evaluation counts bits a
    /// lot; the default x86-64 target counts them in software).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    #[allow(clippy::too_many_arguments)]
    fn dfs_popcnt(
        &mut self,
        board: Board,
        remaining: u8,
        clean_from: Option<u8>,
        plan: &mut [Placement; 3],
        depth: usize,
        control: &SearchControl,
        progress: &mut Progress,
    ) {
        self.dfs_body(board, remaining, clean_from, plan, depth, control, progress);
    }

    /// Moves the node count to `target` (every placement tried is a node, placed or not), looking
    /// at the control on each multiple of [`CHECK_EVERY`] on the way as if the nodes had been
    /// counted one by one; true once it says stop (then the count stays where it stopped).
    #[inline]
    fn advance(&mut self, target: u64, control: &SearchControl) -> bool {
        if self.stopped {
            return true;
        }
        while self.nodes / CHECK_EVERY < target / CHECK_EVERY {
            self.nodes = (self.nodes / CHECK_EVERY + 1) * CHECK_EVERY;
            if control.must_stop(self.nodes) {
                self.stopped = true;
                return true;
            }
        }
        self.nodes = target;
        false
    }

    /// The anchors of `slot`'s piece to place from `board`, and all its anchors (nodes are
    /// counted for all). While nothing was cleared (`clean_from` is `Some`), a placement of a
    /// slot below `from` that clears nothing repeats an ascending order searched elsewhere:
    /// only the clearing ones are placed.
    #[inline(always)]
    fn anchors_to_place(&self, board: Board, slot: usize, clean_from: Option<u8>) -> (u128, u128) {
        let piece = &self.hand[slot];
        let fits = piece.fits(board);
        if clean_from.is_some_and(|from| (slot as u8) < from) {
            (piece.clearing(board, fits), fits)
        } else {
            (fits, fits)
        }
    }

    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn dfs_body(
        &mut self,
        board: Board,
        remaining: u8,
        clean_from: Option<u8>,
        plan: &mut [Placement; 3],
        depth: usize,
        control: &SearchControl,
        progress: &mut Progress,
    ) {
        if remaining.count_ones() == 1 {
            let slot = remaining.trailing_zeros() as usize;
            self.last_piece(board, slot, clean_from, plan, depth, control, progress);
            return;
        }
        let mut children = std::mem::take(&mut self.children[depth]);
        children.clear();
        let hand = self.hand;
        for (slot, piece) in hand.iter().enumerate() {
            if remaining >> slot & 1 == 0 || self.has_twin_before(slot, remaining) {
                continue;
            }
            let rest = remaining & !(1 << slot);
            let (todo, fits) = self.anchors_to_place(board, slot, clean_from);
            let base = self.nodes;
            let checks = (base + u64::from(fits.count_ones())) / CHECK_EVERY != base / CHECK_EVERY;
            for anchor in cells_of(todo) {
                let below = fits & ((1u128 << anchor) - 1);
                if checks && self.advance(base + u64::from(below.count_ones()) + 1, control) {
                    self.children[depth] = children;
                    return;
                }
                let (next, cleared) = board.place(piece.at(anchor));
                let clean = cleared == 0 && clean_from.is_some();
                // Boards reached without any clear cannot be reached with one (they hold more
                // cells), and among themselves repeat only when two placements of different
                // pieces tile the same cells: rare enough to search twice rather than hash.
                if !clean && !self.seen.insert(next.0 | u128::from(rest) << 100) {
                    continue;
                }
                children.push((0, slot as u8, anchor as u8, next, clean));
            }
            if self.advance(base + u64::from(fits.count_ones()), control) {
                self.children[depth] = children;
                return;
            }
        }
        // The cheap values, for the order (in batches: see `Evaluator::cheap_many`).
        for chunk in children.chunks_mut(CELLS) {
            let leaves = &mut *self.leaves;
            for (b, c) in leaves.boards.iter_mut().zip(chunk.iter()) {
                *b = c.3;
            }
            let n = chunk.len();
            self.ev
                .cheap_many(&leaves.boards[..n], &mut leaves.cheap[..n]);
            for (c, &v) in chunk.iter_mut().zip(&leaves.cheap[..n]) {
                c.0 = v;
            }
        }
        children.sort_unstable_by_key(|c| std::cmp::Reverse(c.0));
        if let Some(width) = self.beam {
            children.truncate(width);
        }
        for &(_, slot, anchor, next, clean) in &children {
            plan[depth] = Placement { slot, anchor };
            if !self.touches.is_empty() {
                let (slot, anchor) = (usize::from(slot), usize::from(anchor));
                let tuples = self.ev.tuples();
                if next.0 == board.0 | hand[slot].at(anchor) {
                    self.frames[depth + 1] = self.frames[depth];
                    tuples.advance(&mut self.frames[depth + 1], self.touches[slot].at(anchor));
                } else {
                    self.frames[depth + 1] = tuples.frame(next);
                }
            }
            self.dfs(
                next,
                remaining & !(1 << slot),
                clean.then_some(slot + 1),
                plan,
                depth + 1,
                control,
                progress,
            );
            if self.stopped {
                break;
            }
        }
        self.children[depth] = children;
    }

    /// The placements of the last piece (`slot`) from `board`: each final board is evaluated
    /// only as far as needed to know whether it enters `top`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn last_piece(
        &mut self,
        board: Board,
        slot: usize,
        clean_from: Option<u8>,
        plan: &mut [Placement; 3],
        depth: usize,
        control: &SearchControl,
        progress: &mut Progress,
    ) {
        let piece = &self.hand[slot];
        let (todo, fits) = self.anchors_to_place(board, slot, clean_from);
        let clearing = if todo == fits {
            piece.clearing(board, fits)
        } else {
            todo
        };
        let use_state = self.ev.penalty_bound(PieceState::default()).is_some();
        // Every final board and its cheap value first (in a batch: see `Evaluator::cheap_many`):
        // all as if nothing were cleared, then the few that clear.
        let leaves = &mut *self.leaves;
        let mut n = 0;
        for anchor in cells_of(todo) {
            leaves.boards[n] = Board(board.0 | piece.at(anchor));
            leaves.cleared[n] = false;
            leaves.anchors[n] = anchor as u8;
            n += 1;
        }
        for anchor in cells_of(clearing & todo) {
            let i = (todo & ((1u128 << anchor) - 1)).count_ones() as usize;
            leaves.boards[i] = board.place(piece.at(anchor)).0;
            leaves.cleared[i] = true;
        }
        self.ev
            .cheap_many(&leaves.boards[..n], &mut leaves.cheap[..n]);
        // Before the last piece: what no placement without a clear can improve. Computed at the
        // first final board whose cheap value leaves it a chance.
        let mut state: Option<(u64, i32)> = None;
        let base = self.nodes;
        let end = base + u64::from(fits.count_ones());
        // Whether the clock is looked at on one of these nodes: then every node is counted in
        // turn, else only where the count is shown (a better plan).
        let checks = end / CHECK_EVERY != base / CHECK_EVERY;
        let mut floor = self.floor();
        for i in 0..n {
            let anchor = usize::from(self.leaves.anchors[i]);
            let node = || base + u64::from((fits & ((1u128 << anchor) - 1)).count_ones()) + 1;
            if checks && self.advance(node(), control) {
                return;
            }
            // (The quick bound is implied: it is never below the cheap value.)
            let cheap = self.leaves.cheap[i];
            if self.ev.cannot_beat(cheap, floor) {
                continue;
            }
            let (next, cleared) = (self.leaves.boards[i], self.leaves.cleared[i]);
            // The exact tuple value: the tuples only subtract, so the cut stays exact and, the
            // value being exact, as tight as without tuples.
            let partial = if self.touches.is_empty() {
                cheap
            } else if cleared {
                cheap + self.ev.tuple_value(next)
            } else {
                let touches = self.touches[slot].at(anchor);
                cheap + self.ev.tuples().value_after(&self.frames[depth], touches)
            };
            if self.ev.cannot_beat(partial, floor) {
                continue;
            }
            let (known, bound) = if !cleared && use_state {
                *state.get_or_insert_with(|| {
                    let s = self.ev.piece_state(board);
                    (s.unfit, self.ev.penalty_bound(s).unwrap_or(0))
                })
            } else {
                (0, 0)
            };
            if self.ev.cannot_beat(partial + bound, floor)
                || self.top.iter().any(|c| c.board == next)
            {
                continue;
            }
            if let Some(eval) = self.ev.finish_known(next, partial, floor, known) {
                plan[depth] = Placement {
                    slot: slot as u8,
                    anchor: anchor as u8,
                };
                let leaf = Candidate {
                    board: next,
                    eval,
                    plan: *plan,
                    len: depth as u8 + 1,
                };
                self.nodes = node();
                self.offer(leaf, progress);
                floor = self.floor();
            }
        }
        if checks {
            self.advance(end, control);
        } else {
            self.nodes = end;
        }
    }

    /// True if an earlier slot still to be placed holds the same shape (one order suffices).
    fn has_twin_before(&self, slot: usize, remaining: u8) -> bool {
        (0..slot).any(|s| remaining >> s & 1 == 1 && self.hand[s] == self.hand[slot])
    }

    /// Iterations 3+: compares the best candidates by look-ahead: each iteration draws `samples`
    /// more hands (the same for every candidate) and adds the value of the best answer to each;
    /// after a complete iteration the worse half of the candidates is dropped (successive
    /// halving), so later, bigger iterations spend their samples on the close contenders.
    /// Returns the leader and its mean value, or `None` if no sample was completed yet.
    fn lookahead(
        &mut self,
        samples: usize,
        control: &SearchControl,
        progress: &mut Progress,
    ) -> Option<(Candidate, i64)> {
        if self.la.candidates.is_empty() {
            let mut candidates = self.top.clone();
            candidates.truncate(LOOKAHEAD_CANDIDATES.max(self.lines));
            if candidates.len() < 2 {
                return None;
            }
            self.la.totals = vec![0; candidates.len()];
            self.la.candidates = candidates;
        } else {
            self.la.halve(self.lines);
        }
        let n = self.set.pieces.len();
        for _ in 0..samples {
            let hand: Vec<Piece> = (0..3)
                .map(|_| self.set.pieces[self.rng.random_range(0..n)].clone())
                .collect();
            let mut values = Vec::with_capacity(self.la.candidates.len());
            for i in 0..self.la.candidates.len() {
                let board = self.la.candidates[i].board;
                values.push(self.answer_value(board, &hand));
                if control.must_stop(self.nodes) {
                    self.stopped = true;
                    break;
                }
            }
            if self.stopped {
                break;
            }
            for (total, value) in self.la.totals.iter_mut().zip(values) {
                *total += value;
            }
            self.la.samples += 1;
            progress.tick(self.nodes);
        }
        if self.la.samples < LOOKAHEAD_SAMPLES {
            // Too few samples to overrule the static evaluation.
            return None;
        }
        self.la.ranked().first().copied()
    }

    /// The value of the best greedy answer to `hand` on `board`, or [`DEATH`] if no order of the
    /// hand can be placed whole.
    fn answer_value(&mut self, board: Board, hand: &[Piece]) -> i64 {
        #[cfg(target_arch = "x86_64")]
        if self.popcnt {
            // SAFETY: `new` found the popcnt instruction on this CPU.
            return unsafe { self.answer_value_popcnt(board, hand) };
        }
        self.answer_value_body(board, hand)
    }

    /// [`HandSearch::answer_value`] compiled with the popcnt instruction.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn answer_value_popcnt(&mut self, board: Board, hand: &[Piece]) -> i64 {
        self.answer_value_body(board, hand)
    }

    #[inline(always)]
    fn answer_value_body(&mut self, board: Board, hand: &[Piece]) -> i64 {
        let mut best: Option<i32> = None;
        let mut first = FirstSteps::default();
        for order in distinct_orders(hand) {
            let floor = best.unwrap_or(i32::MIN);
            match greedy_plan(
                &self.ev,
                board,
                hand,
                &order,
                floor,
                &mut self.nodes,
                &mut self.leaves,
                &mut first,
            ) {
                Some(Some(c)) => best = Some(c.eval),
                // Placed, but no better than an earlier order.
                Some(None) => best = best.or(Some(floor)),
                None => {}
            }
        }
        match best {
            Some(eval) => i64::from(eval),
            // Placeable only in a way greedy misses: a tight spot, valued twice as bad as now.
            None if can_place_all(board, hand) => i64::from(self.eval(board)) * 2,
            None => DEATH,
        }
    }
}

/// A final board of the hand that the look-ahead compared (see [`HandSearch::compared`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Compared {
    /// The board after the hand.
    pub board: Board,
    /// Its static evaluation.
    pub eval: i32,
    /// The summed values of the best greedy answers to the sampled hands ([`DEATH`] for a hand
    /// that cannot be placed).
    pub total: i64,
    /// How many sampled hands it was played against (fewer once successive halving dropped it).
    pub samples: usize,
    /// Whether the search chose it.
    pub chosen: bool,
}

impl HandSearch<'_> {
    /// The plan of the last iteration that produced one (after [`crate::search::iterative::deepen`]).
    pub fn chosen_plan(&self) -> Option<Vec<Placement>> {
        self.chosen.map(|c| c.plan[..usize::from(c.len)].to_vec())
    }

    /// The final boards the look-ahead compared, best first by the static evaluation, with their
    /// sampled values: the teacher's labels for a learned evaluation. Empty when no look-ahead
    /// iteration completed its first samples.
    pub fn compared(&self) -> Vec<Compared> {
        if self.la.samples < LOOKAHEAD_SAMPLES {
            return Vec::new();
        }
        let chosen = self.chosen.map(|c| c.board);
        let alive = self.la.candidates.iter().zip(&self.la.totals);
        let values = alive
            .map(|(c, &total)| (c.board, total, self.la.samples))
            .chain(self.la.dropped.iter().copied());
        let mut all: Vec<Compared> = values
            .filter_map(|(board, total, samples)| {
                let c = self.top.iter().find(|c| c.board == board)?;
                Some(Compared {
                    board,
                    eval: c.eval,
                    total,
                    samples,
                    chosen: chosen == Some(board),
                })
            })
            .collect();
        all.sort_by_key(|c| {
            let rank = self.top.iter().position(|t| t.board == c.board);
            rank.unwrap_or(usize::MAX)
        });
        all
    }

    fn iteration(
        &mut self,
        depth: u32,
        control: &SearchControl,
        progress: &mut Progress,
    ) -> Option<(Candidate, i64)> {
        match depth {
            1 => {
                self.top.clear();
                self.best = match self.caps.play {
                    Play::Search => self.greedy(),
                    play => self.simple(play),
                };
                if self.best.is_none() {
                    // No order places the hand the greedy way; the full search decides
                    // (whole, whatever the level: a hand that can be placed is placed).
                    self.full(control, progress, None);
                }
                self.best.map(|b| (b, i64::from(b.eval)))
            }
            2 => {
                self.full(control, progress, self.caps.beam);
                self.best.map(|b| (b, i64::from(b.eval)))
            }
            _ => self.lookahead(LOOKAHEAD_SAMPLES << (depth - 3), control, progress),
        }
    }

    /// The 2nd to `lines`-th best lines of iteration `depth` with their scores: the next
    /// distinct final boards of `top`, or of the look-ahead's ranking from iteration 3 on.
    fn others(&self, depth: u32) -> Vec<(Vec<String>, i64)> {
        if self.lines < 2 {
            return Vec::new();
        }
        let ranked: Vec<(Candidate, i64)> = if depth <= 2 {
            self.top.iter().map(|&c| (c, i64::from(c.eval))).collect()
        } else {
            self.la.ranked()
        };
        ranked
            .iter()
            .skip(1)
            .take(self.lines - 1)
            .map(|(c, score)| (c.notation(), *score))
            .collect()
    }
}

impl IterativeSearch for HandSearch<'_> {
    fn iterate(
        &mut self,
        depth: u32,
        control: &SearchControl,
        progress: &mut Progress,
    ) -> Option<Iteration> {
        match self.iteration(depth, control, progress) {
            Some((candidate, score)) => {
                self.chosen = Some(candidate);
                Some(Iteration {
                    pv: candidate.notation(),
                    score,
                    complete: !self.stopped,
                    others: self.others(depth),
                })
            }
            // Only iteration 1 may find nothing: the hand cannot be placed, the game is lost.
            None if depth == 1 => Some(Iteration {
                pv: Vec::new(),
                score: DEATH,
                complete: true,
                others: Vec::new(),
            }),
            None => None,
        }
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }

    fn max_depth(&self) -> Option<u32> {
        // With fewer than two distinct final boards there is nothing to look ahead for.
        let natural = self.full_done && (!self.looks_ahead || self.top.len() < 2);
        match (natural.then_some(2), self.caps.max_depth) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn lines(&self) -> usize {
        self.lines
    }
}

impl Drop for HandSearch<'_> {
    /// Gives the set of seen boards back to the thread, for the next search.
    fn drop(&mut self) {
        let seen = std::mem::take(&mut self.seen);
        SEEN.with(|cell| cell.set(seen));
    }
}

thread_local! {
    /// The set of seen boards of the last search on this thread (its memory is reused).
    static SEEN: std::cell::Cell<BoardSet> = std::cell::Cell::new(BoardSet::default());
    /// The last evaluator built on this thread, by piece set and evaluation: its tables take
    /// tens of microseconds to build, too much to redo every round.
    static EVALUATOR: std::cell::RefCell<Option<(PieceSet, Evaluation, Rc<Evaluator>)>> =
        const { std::cell::RefCell::new(None) };
}

/// The evaluator of `set` and `eval`, built once per thread while they stay the same
/// (shared, not copied: it holds the set's pieces, and copying them took a tenth of a round).
fn cached_evaluator(set: &PieceSet, eval: Evaluation) -> Rc<Evaluator> {
    EVALUATOR.with(|cell| {
        let mut cached = cell.borrow_mut();
        match &*cached {
            Some((s, e, ev)) if same_evaluation(e, &eval) && same_shapes(s, set) => Rc::clone(ev),
            _ => {
                let ev = Rc::new(Evaluator::new(set, eval.clone()));
                *cached = Some((set.clone(), eval, Rc::clone(&ev)));
                ev
            }
        }
    })
}

/// True if two evaluations are the same (the tables compared by address first: the same file
/// is shared, not copied).
fn same_evaluation(a: &Evaluation, b: &Evaluation) -> bool {
    a.weights == b.weights && (std::sync::Arc::ptr_eq(&a.tuples, &b.tuples) || a.tuples == b.tuples)
}

/// True if two piece sets hold the same shapes in the same order (a piece is its shape).
fn same_shapes(a: &PieceSet, b: &PieceSet) -> bool {
    a.pieces.len() == b.pieces.len()
        && a.pieces
            .iter()
            .zip(&b.pieces)
            .all(|(p, q)| p.mask == q.mask)
}

/// True if the CPU counts bits in one instruction.
fn has_popcnt() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Inserts `leaf` into `top` (best first, distinct boards, at most `keep`, a later board after
/// equal ones); its rank, or `None` if it did not enter.
fn insert_distinct(top: &mut Vec<Candidate>, leaf: Candidate, keep: usize) -> Option<usize> {
    if top.iter().any(|c| c.board == leaf.board) {
        return None;
    }
    let at = top.partition_point(|c| c.eval >= leaf.eval);
    if at >= keep {
        return None;
    }
    top.insert(at, leaf);
    top.truncate(keep);
    Some(at)
}

/// The orders in which to place a hand, skipping orders that swap identical pieces.
fn distinct_orders(hand: &[Piece]) -> Vec<Vec<usize>> {
    let mut orders: Vec<Vec<usize>> = Vec::new();
    let mut order: Vec<usize> = (0..hand.len()).collect();
    permute(&mut order, 0, &mut |o| {
        let shapes: Vec<&Piece> = o.iter().map(|&i| &hand[i]).collect();
        if !orders
            .iter()
            .any(|p| p.iter().map(|&i| &hand[i]).eq(shapes.iter().copied()))
        {
            orders.push(o.to_vec());
        }
    });
    orders
}

fn permute(items: &mut [usize], k: usize, visit: &mut dyn FnMut(&[usize])) {
    if k == items.len() {
        visit(items);
        return;
    }
    for i in k..items.len() {
        items.swap(k, i);
        permute(items, k + 1, visit);
        items.swap(k, i);
    }
}

/// The greedy choice for one piece: the best board after it by the evaluation (ties to the
/// lowest anchor), above `floor` if one is given (the last step of an order); the placements
/// looked at (every one that fits) are added to `nodes`.
#[derive(Debug, Clone, Copy)]
enum Step {
    /// The piece fits nowhere.
    Unplaceable,
    /// The piece fits, but no board after it beats the floor.
    NoBetter,
    /// The value, anchor and board of the best placement.
    Best(i32, usize, Board),
}

/// The first steps of the orders of one hand from one board, by slot: orders that start with
/// the same piece share their first greedy step (it has no floor), so it is computed once. With
/// the placements it looked at, so that a reused step counts its nodes as before (a node budget
/// plays the same).
#[derive(Debug, Default)]
struct FirstSteps([Option<(Step, u64)>; 3]);

/// Places the hand in `order`, each piece where the evaluation of the board after it is best.
/// `None` if some piece finds no place; `Some(None)` if the hand is placed but its final board
/// is not worth more than `final_floor` (the best of other orders, known to the caller).
/// `first` holds the first steps already taken from `start` by other orders of the same hand.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn greedy_plan(
    ev: &Evaluator,
    start: Board,
    hand: &[Piece],
    order: &[usize],
    final_floor: i32,
    nodes: &mut u64,
    leaves: &mut Leaves,
    first: &mut FirstSteps,
) -> Option<Option<Candidate>> {
    let mut board = start;
    let mut plan = [Placement { slot: 0, anchor: 0 }; 3];
    let mut eval = 0;
    for (step, &slot) in order.iter().enumerate() {
        let last = step + 1 == order.len();
        let floor = last.then_some(final_floor);
        let result = if step == 0 && !last {
            match first.0[slot] {
                Some((result, n)) => {
                    *nodes += n;
                    result
                }
                None => {
                    let before = *nodes;
                    let result = greedy_step(ev, board, &hand[slot], None, nodes, leaves);
                    first.0[slot] = Some((result, *nodes - before));
                    result
                }
            }
        } else {
            greedy_step(ev, board, &hand[slot], floor, nodes, leaves)
        };
        let (value, anchor, next) = match result {
            Step::Unplaceable => return None,
            // Only the last step has a floor of its own: placed, but no better.
            Step::NoBetter => return Some(None),
            Step::Best(value, anchor, next) => (value, anchor, next),
        };
        plan[step] = Placement {
            slot: slot as u8,
            anchor: anchor as u8,
        };
        board = next;
        eval = value;
    }
    Some(Some(Candidate {
        board,
        eval,
        plan,
        len: order.len() as u8,
    }))
}

/// One greedy step: `piece` from `board` (see [`Step`]).
#[inline(always)]
fn greedy_step(
    ev: &Evaluator,
    board: Board,
    piece: &Piece,
    final_floor: Option<i32>,
    nodes: &mut u64,
    leaves: &mut Leaves,
) -> Step {
    let mut best: Option<(i32, usize, Board)> = None;
    // Pieces unfit now stay unfit after a placement that clears nothing (computed lazily).
    let mut state: Option<(u64, i32)> = None;
    // The tuple values of the boards that clear nothing from the board's (computed lazily).
    let touches = ev.touches(piece);
    let mut frame: Option<Frame> = None;
    let bounded = ev.penalty_bound(PieceState::default()).is_some();
    // Every board after the piece and its cheap value first (in a batch: see
    // `Evaluator::cheap_many`).
    let fits = piece.fits(board);
    let clearing = piece.clearing(board, fits);
    let mut n = 0;
    for anchor in cells_of(fits) {
        let (next, cleared) = if clearing >> anchor & 1 == 1 {
            board.place(piece.at(anchor))
        } else {
            (Board(board.0 | piece.at(anchor)), 0)
        };
        leaves.boards[n] = next;
        leaves.cleared[n] = cleared > 0;
        leaves.anchors[n] = anchor as u8;
        n += 1;
    }
    ev.cheap_many(&leaves.boards[..n], &mut leaves.cheap[..n]);
    *nodes += n as u64;
    if n == 0 {
        return Step::Unplaceable;
    }
    // Best first by the cheap value (an upper bound of the full one), so that the first
    // boards set a high floor and the loop ends at the first that cannot reach it. Ties go
    // to the lowest anchor, as in anchor order.
    let order = &mut leaves.order[..n];
    for (i, o) in order.iter_mut().enumerate() {
        *o = i as u8;
    }
    order.sort_unstable_by_key(|&i| (std::cmp::Reverse(leaves.cheap[usize::from(i)]), i));
    for &i in order.iter() {
        let i = usize::from(i);
        let (anchor, next, cleared, cheap) = (
            usize::from(leaves.anchors[i]),
            leaves.boards[i],
            leaves.cleared[i],
            leaves.cheap[i],
        );
        // A board as good as the best so far wins if its anchor is lower.
        let mut floor = best.map_or(i32::MIN, |(v, a, _)| v - i32::from(anchor < a));
        if let Some(last) = final_floor {
            floor = floor.max(last);
        }
        // (The quick bound is implied: it is never below the cheap value.)
        if ev.cannot_beat(cheap, floor) {
            if best.is_some_and(|(v, _, _)| cheap < v)
                || final_floor.is_some_and(|last| cheap <= last)
            {
                // The rest are no better either.
                break;
            }
            continue;
        }
        let partial = match touches {
            Some(touches) if !cleared => {
                let frame = frame.get_or_insert_with(|| ev.tuples().frame(board));
                cheap + ev.tuples().value_after(frame, touches.at(anchor))
            }
            _ => cheap + ev.tuple_value(next),
        };
        if ev.cannot_beat(partial, floor) {
            continue;
        }
        let (known, bound) = if !cleared && bounded {
            *state.get_or_insert_with(|| {
                let s = ev.piece_state(board);
                (s.unfit, ev.penalty_bound(s).unwrap_or(0))
            })
        } else {
            (0, 0)
        };
        if ev.cannot_beat(partial + bound, floor) {
            continue;
        }
        if let Some(value) = ev.finish_known(next, partial, floor, known) {
            best = Some((value, anchor, next));
        }
    }
    match best {
        Some((value, anchor, next)) => Step::Best(value, anchor, next),
        None => Step::NoBetter,
    }
}

/// True if some order and placement of `hand` fits whole on `board` (pieces or references).
pub fn can_place_all<P: std::borrow::Borrow<Piece>>(board: Board, hand: &[P]) -> bool {
    fn go<P: std::borrow::Borrow<Piece>>(board: Board, hand: &[P], remaining: u8) -> bool {
        if remaining == 0 {
            return true;
        }
        (0..hand.len())
            .filter(|&s| remaining >> s & 1 == 1)
            .any(|slot| {
                let piece = hand[slot].borrow();
                cells_of(piece.fits(board))
                    .any(|a| go(board.place(piece.at(a)).0, hand, remaining & !(1 << slot)))
            })
    }
    go(board, hand, (1u8 << hand.len()) - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::FULL_STRENGTH;
    use crate::games::blockudoku::eval::{DEFAULT_WEIGHTS, evaluate};
    use crate::games::blockudoku::rules::{Scoring, play_plan};
    use crate::search::Info;
    use crate::search::time::Budget;
    use std::collections::HashSet;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    fn control(depth: u32) -> SearchControl {
        SearchControl::new(
            Arc::new(AtomicBool::new(false)),
            Budget {
                soft: None,
                hard: None,
            },
            None,
            Some(depth),
        )
    }

    /// A search of `hand` from `position` run to the end under `control`.
    fn searched<'a>(
        set: &'a PieceSet,
        position: Position,
        hand: &'a [Piece],
        control: &SearchControl,
    ) -> HandSearch<'a> {
        let mut search = HandSearch::new(set, DEFAULT_WEIGHTS, position, hand, 1);
        search.caps = WHOLE;
        crate::search::iterative::deepen(&mut search, control, &mut |_| {});
        search
    }

    /// Full strength without its beam: every order and placement (the exact search that these
    /// tests check against brute force).
    const WHOLE: Caps = Caps {
        beam: None,
        ..Caps::FULL
    };

    /// The best evaluation over every order and placement, by brute force.
    fn brute_best(set: &PieceSet, board: Board, hand: &[Piece], remaining: u8) -> Option<i32> {
        brute_best_by(
            &|b| evaluate(b, set, &DEFAULT_WEIGHTS),
            board,
            hand,
            remaining,
        )
    }

    /// The best `value` of a final board over every order and placement, by brute force.
    fn brute_best_by(
        value: &dyn Fn(Board) -> i32,
        board: Board,
        hand: &[Piece],
        remaining: u8,
    ) -> Option<i32> {
        if remaining == 0 {
            return Some(value(board));
        }
        let mut best = None;
        for slot in 0..hand.len() {
            if remaining >> slot & 1 == 0 {
                continue;
            }
            for anchor in cells_of(hand[slot].fits(board)) {
                let next = board.place(hand[slot].at(anchor)).0;
                if let Some(v) = brute_best_by(value, next, hand, remaining & !(1 << slot)) {
                    best = Some(best.map_or(v, |b: i32| b.max(v)));
                }
            }
        }
        best
    }

    /// Greedy by brute force: each piece in turn where the full value is highest, the lowest
    /// anchor among equals; the plan's anchors, or `None` if a piece finds no place.
    fn brute_greedy(
        set: &PieceSet,
        board: Board,
        hand: &[Piece],
        order: &[usize],
    ) -> Option<Vec<u8>> {
        let mut board = board;
        let mut anchors = Vec::new();
        for &slot in order {
            let piece = &hand[slot];
            let (_, anchor, next) = cells_of(piece.fits(board))
                .map(|a| {
                    let next = board.place(piece.at(a)).0;
                    (evaluate(next, set, &DEFAULT_WEIGHTS), a, next)
                })
                .max_by_key(|&(v, a, _)| (v, std::cmp::Reverse(a)))?;
            anchors.push(anchor as u8);
            board = next;
        }
        Some(anchors)
    }

    #[test]
    fn greedy_places_each_piece_where_the_full_value_is_best() {
        let set = PieceSet::builtin("standard47").unwrap();
        let ev = Evaluator::new(&set, DEFAULT_WEIGHTS);
        let mut leaves = Box::new(Leaves {
            anchors: [0; CELLS],
            order: [0; CELLS],
            boards: [Board::EMPTY; CELLS],
            cleared: [false; CELLS],
            cheap: [0; CELLS],
        });
        let mut rng = SmallRng::seed_from_u64(5);
        let mut placed = 0;
        for round in 0..60 {
            let board = Board::random(&mut rng, round % 45);
            let hand: Vec<Piece> = (0..3)
                .map(|_| set.pieces[rng.random_range(0..set.pieces.len())].clone())
                .collect();
            let mut first = FirstSteps::default();
            for order in distinct_orders(&hand) {
                let mut nodes = 0;
                let plan = greedy_plan(
                    &ev,
                    board,
                    &hand,
                    &order,
                    i32::MIN,
                    &mut nodes,
                    &mut leaves,
                    &mut first,
                );
                let expected = brute_greedy(&set, board, &hand, &order);
                let got = plan.map(|p| {
                    let c = p.expect("no floor: a placed hand has a plan");
                    c.plan[..3].iter().map(|p| p.anchor).collect::<Vec<u8>>()
                });
                assert_eq!(got, expected, "board {board} order {order:?}");
                placed += usize::from(expected.is_some());
                // A first step shared with an earlier order counts the same nodes as its own.
                let mut alone = 0;
                greedy_plan(
                    &ev,
                    board,
                    &hand,
                    &order,
                    i32::MIN,
                    &mut alone,
                    &mut leaves,
                    &mut FirstSteps::default(),
                );
                assert_eq!(nodes, alone, "board {board} order {order:?}");
            }
        }
        assert!(placed > 100, "{placed}");
    }

    /// An evaluation with the built-in weights and random tables on boxes, rows and columns.
    fn random_tuples(seed: u64) -> Evaluation {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut tuples = crate::games::blockudoku::ntuple::Tuples::none();
        for rect in [
            (0, 0, 3, 3),
            (3, 3, 3, 3),
            (6, 3, 3, 3),
            (4, 0, 1, 9),
            (0, 8, 9, 1),
        ] {
            let table: Vec<i32> = (0..1 << (rect.2 * rect.3))
                .map(|_| rng.random_range(-300..50))
                .collect();
            tuples.push(rect, &table).unwrap();
        }
        Evaluation {
            weights: DEFAULT_WEIGHTS,
            tuples: Arc::new(tuples),
        }
    }

    #[test]
    fn full_search_with_tuples_finds_the_best_final_board() {
        let set = PieceSet::builtin("standard47").unwrap();
        let eval = random_tuples(5);
        let reference = Evaluator::new(&set, eval.clone());
        let mut rng = SmallRng::seed_from_u64(8);
        let mut checked = 0;
        for round in 0..30 {
            let board = Board::random(&mut rng, 20 + round % 30);
            let hand: Vec<Piece> = (0..3)
                .map(|_| set.pieces[rng.random_range(0..set.pieces.len())].clone())
                .collect();
            let expected = brute_best_by(&|b| reference.full(b), board, &hand, 7);
            let position = Position {
                board,
                ..Position::default()
            };
            let mut search = HandSearch::new(&set, eval.clone(), position, &hand, 1);
            search.caps = WHOLE;
            crate::search::iterative::deepen(&mut search, &control(2), &mut |_| {});
            match (expected, search.chosen_plan()) {
                (None, plan) => assert_eq!(plan, None, "no plan exists"),
                (Some(value), Some(plan)) => {
                    let after = play_plan(position, &hand, &plan, Scoring::App).unwrap();
                    assert_eq!(reference.full(after.board), value);
                    checked += 1;
                }
                (Some(_), None) => panic!("a plan exists but the search found none"),
            }
        }
        assert!(checked > 10, "{checked}");
    }

    #[test]
    fn full_search_finds_the_best_plan_of_all_orders() {
        let set = PieceSet::builtin("standard47").unwrap();
        let mut rng = SmallRng::seed_from_u64(3);
        let mut checked = 0;
        for round in 0..40 {
            // Crowded random boards (about half full) with random hands.
            let board = Board::random(&mut rng, 30 + round % 20);
            let hand: Vec<Piece> = (0..3)
                .map(|_| set.pieces[rng.random_range(0..set.pieces.len())].clone())
                .collect();
            let expected = brute_best(&set, board, &hand, 7);
            let position = Position {
                board,
                ..Position::default()
            };
            let search = searched(&set, position, &hand, &control(2));
            match (expected, search.chosen_plan()) {
                (None, plan) => assert_eq!(plan, None, "no plan exists"),
                (Some(value), Some(plan)) => {
                    let after = play_plan(position, &hand, &plan, Scoring::App).unwrap();
                    assert_eq!(evaluate(after.board, &set, &DEFAULT_WEIGHTS), value);
                    checked += 1;
                }
                (Some(_), None) => panic!("a plan exists but the search found none"),
            }
        }
        assert!(checked > 10, "{checked}");
    }

    #[test]
    fn the_look_ahead_gets_eight_candidates_and_depth_two_only_the_best() {
        let set = PieceSet::builtin("standard47").unwrap();
        let hand: Vec<Piece> = [3, 17, 40].iter().map(|&i| set.pieces[i].clone()).collect();
        let position = Position::default();
        let two = searched(&set, position, &hand, &control(2));
        assert_eq!(two.top.len(), 1);
        let mut three =
            HandSearch::new(&set, DEFAULT_WEIGHTS, position, &hand, 1).lookahead_from(0);
        crate::search::iterative::deepen(&mut three, &control(3), &mut |_| {});
        assert_eq!(three.top.len(), TOP);
        assert_eq!(three.top[0].eval, two.top[0].eval);
        assert_eq!(three.top[0].board, two.top[0].board);
        assert!(three.top.windows(2).all(|w| w[0].eval >= w[1].eval));
        let value = brute_best(&set, Board::EMPTY, &hand, 7).unwrap();
        assert_eq!(two.top[0].eval, value);
    }

    #[test]
    fn only_hands_on_crowded_boards_are_looked_ahead() {
        let set = PieceSet::builtin("standard47").unwrap();
        let hand: Vec<Piece> = [3, 17, 40].iter().map(|&i| set.pieces[i].clone()).collect();
        let depths = |board: Board, from: u32| {
            let position = Position {
                board,
                ..Position::default()
            };
            let mut search =
                HandSearch::new(&set, DEFAULT_WEIGHTS, position, &hand, 1).lookahead_from(from);
            let mut depths = Vec::new();
            crate::search::iterative::deepen(&mut search, &control(4), &mut |info| {
                depths.push(info.depth)
            });
            (depths.last().copied(), search.top.len())
        };
        assert_eq!(depths(Board::EMPTY, LOOKAHEAD_FROM), (Some(2), 1));
        assert_eq!(depths(Board::EMPTY, 0), (Some(4), TOP));
        // 30 filled cells, no region full: the default looks ahead.
        let mut rows = vec!["##.##.##."; 5];
        rows.extend([".........", ".........", ".........", "........."]);
        let crowded = Board::parse(&rows.join("/")).unwrap();
        assert_eq!(crowded.filled(), 30);
        assert_eq!(depths(crowded, LOOKAHEAD_FROM), (Some(4), TOP));
        assert_eq!(depths(crowded, crowded.filled() + 1), (Some(2), 1));
    }

    #[test]
    fn a_node_budget_stops_on_the_first_look_at_the_clock_past_it() {
        let set = PieceSet::builtin("standard47").unwrap();
        let hand: Vec<Piece> = [1, 10, 30].iter().map(|&i| set.pieces[i].clone()).collect();
        let position = Position::default();
        // The greedy iteration counts its nodes without looking at the clock.
        let greedy = searched(&set, position, &hand, &control(1));
        let full = searched(&set, position, &hand, &control(2));
        assert!(full.nodes > greedy.nodes + 6000);
        for budget in [greedy.nodes + 1, greedy.nodes + 300, greedy.nodes + 5000] {
            let control = SearchControl::new(
                Arc::new(AtomicBool::new(false)),
                Budget {
                    soft: None,
                    hard: None,
                },
                Some(budget),
                Some(2),
            );
            let search = searched(&set, position, &hand, &control);
            assert_eq!(search.nodes, budget.div_ceil(CHECK_EVERY) * CHECK_EVERY);
            assert!(search.chosen_plan().is_some());
        }
    }

    /// Every distinct final board of `hand` from `board` with its evaluation, best first.
    fn brute_finals(set: &PieceSet, board: Board, hand: &[Piece]) -> Vec<i32> {
        fn walk(board: Board, hand: &[Piece], remaining: u8, out: &mut HashSet<Board>) {
            if remaining == 0 {
                out.insert(board);
                return;
            }
            for slot in (0..hand.len()).filter(|&s| remaining >> s & 1 == 1) {
                for anchor in cells_of(hand[slot].fits(board)) {
                    let next = board.place(hand[slot].at(anchor)).0;
                    walk(next, hand, remaining & !(1 << slot), out);
                }
            }
        }
        let mut boards = HashSet::new();
        walk(board, hand, (1 << hand.len()) - 1, &mut boards);
        let mut evals: Vec<i32> = boards
            .iter()
            .map(|&b| evaluate(b, set, &DEFAULT_WEIGHTS))
            .collect();
        evals.sort_unstable_by_key(|&v| std::cmp::Reverse(v));
        evals
    }

    /// The lines of the last report of a search run with `lines` lines at `level` under
    /// `control` (the best line then the others), and the search.
    fn reported<'a>(
        set: &'a PieceSet,
        position: Position,
        hand: &'a [Piece],
        control: &SearchControl,
        lines: usize,
        caps: Caps,
    ) -> (Vec<Info>, HandSearch<'a>) {
        let mut search = HandSearch::new(set, DEFAULT_WEIGHTS, position, hand, 1)
            .lookahead_from(0)
            .lines(lines);
        search.caps = caps;
        let mut infos = Vec::new();
        crate::search::iterative::deepen(&mut search, control, &mut |info| {
            infos.push(info.clone())
        });
        let last = infos.iter().rposition(|i| i.multipv == Some(1));
        let last = infos.split_off(last.unwrap_or(infos.len()));
        (last, search)
    }

    /// Checks that `lines` are legal whole-hand plans with distinct final boards, ranked 1, 2,
    /// ... by non-increasing score, the first the search's choice; returns the final boards.
    fn checked_lines(
        position: Position,
        hand: &[Piece],
        lines: &[Info],
        search: &HandSearch,
    ) -> Vec<Board> {
        let mut boards: Vec<Board> = Vec::new();
        for (i, info) in lines.iter().enumerate() {
            assert_eq!(info.multipv, Some(i + 1), "{lines:?}");
            let plan: Vec<Placement> = info
                .pv
                .iter()
                .map(|m| Placement::parse(m, hand.len()).unwrap())
                .collect();
            assert_eq!(plan.len(), hand.len());
            let after = play_plan(position, hand, &plan, Scoring::App).expect("a legal line");
            assert!(
                !boards.contains(&after.board),
                "a repeated board: {lines:?}"
            );
            boards.push(after.board);
        }
        assert!(
            lines.windows(2).all(|w| w[0].score >= w[1].score),
            "{lines:?}"
        );
        let chosen: Vec<String> = search
            .chosen_plan()
            .unwrap()
            .iter()
            .map(|p| p.notation())
            .collect();
        assert_eq!(lines[0].pv, chosen);
        boards
    }

    fn random_hand(set: &PieceSet, rng: &mut SmallRng) -> Vec<Piece> {
        (0..3)
            .map(|_| set.pieces[rng.random_range(0..set.pieces.len())].clone())
            .collect()
    }

    #[test]
    fn multipv_gives_the_best_distinct_final_boards_of_the_full_search() {
        let set = PieceSet::builtin("standard47").unwrap();
        let mut rng = SmallRng::seed_from_u64(21);
        let mut checked = 0;
        for round in 0..30 {
            let board = Board::random(&mut rng, 32 + round % 16);
            let hand = random_hand(&set, &mut rng);
            let position = Position {
                board,
                ..Position::default()
            };
            let finals = brute_finals(&set, board, &hand);
            if finals.is_empty() {
                continue;
            }
            for depth in [1, 2] {
                let (lines, search) = reported(&set, position, &hand, &control(depth), 6, WHOLE);
                let boards = checked_lines(position, &hand, &lines, &search);
                for (info, board) in lines.iter().zip(&boards) {
                    assert_eq!(
                        info.score,
                        i64::from(evaluate(*board, &set, &DEFAULT_WEIGHTS))
                    );
                }
                if depth == 2 {
                    // Exact: the 6 best distinct final boards (fewer if fewer exist).
                    let scores: Vec<i64> = lines.iter().map(|i| i.score).collect();
                    let best: Vec<i64> = finals.iter().take(6).map(|&v| i64::from(v)).collect();
                    assert_eq!(scores, best, "board {board}");
                    checked += usize::from(finals.len() >= 6);
                }
            }
        }
        assert!(checked > 10, "{checked}");
    }

    #[test]
    fn multipv_in_the_look_ahead_ranks_its_candidates_by_their_sampled_value() {
        let set = PieceSet::builtin("standard47").unwrap();
        let hand: Vec<Piece> = [3, 17, 40].iter().map(|&i| set.pieces[i].clone()).collect();
        let position = Position::default();
        for (depth, lines, expected) in [(3, 4, 4), (4, 3, 3), (4, 12, 12), (5, 5, 5)] {
            let (reported, search) =
                reported(&set, position, &hand, &control(depth), lines, Caps::FULL);
            assert_eq!(reported.len(), expected, "depth {depth} lines {lines}");
            assert!(reported.iter().all(|i| i.depth == depth));
            checked_lines(position, &hand, &reported, &search);
        }
    }

    #[test]
    fn more_lines_leave_the_best_line_of_one_unchanged() {
        let set = PieceSet::builtin("standard47").unwrap();
        let mut rng = SmallRng::seed_from_u64(8);
        for round in 0..12 {
            let board = Board::random(&mut rng, 20 + round);
            let hand = random_hand(&set, &mut rng);
            let position = Position {
                board,
                ..Position::default()
            };
            for (depth, lines) in [(1, 8), (2, 8), (4, 2)] {
                let one = reported(&set, position, &hand, &control(depth), 1, Caps::FULL).1;
                let many = reported(&set, position, &hand, &control(depth), lines, Caps::FULL).1;
                assert_eq!(one.chosen_plan(), many.chosen_plan(), "board {board}");
            }
        }
    }

    #[test]
    fn every_level_places_the_hand_deterministically_with_less_work_below() {
        let set = PieceSet::builtin("standard47").unwrap();
        let mut rng = SmallRng::seed_from_u64(33);
        let mut nodes = [0u64; FULL_STRENGTH as usize];
        for round in 0..24 {
            let board = Board::random(&mut rng, 10 + 2 * round);
            let hand = random_hand(&set, &mut rng);
            let position = Position {
                board,
                ..Position::default()
            };
            if brute_finals(&set, board, &hand).is_empty() {
                continue;
            }
            for level in 1..=FULL_STRENGTH {
                let run = |seed| {
                    let mut search =
                        HandSearch::new(&set, DEFAULT_WEIGHTS, position, &hand, seed).level(level);
                    crate::search::iterative::deepen(&mut search, &control(4), &mut |_| {});
                    (search.chosen_plan(), search.nodes)
                };
                let (plan, n) = run(5);
                let plan = plan.unwrap_or_else(|| panic!("level {level} places the hand"));
                assert!(play_plan(position, &hand, &plan, Scoring::App).is_ok());
                assert_eq!(run(5), (Some(plan), n), "the same seed, the same answer");
                nodes[level as usize - 1] += n;
            }
        }
        assert!(nodes.windows(2).all(|w| w[0] <= w[1]), "{nodes:?}");
        assert!(nodes[1] < nodes[2] && nodes[2] < nodes[3], "{nodes:?}");
        assert!(nodes[6] < nodes[9], "{nodes:?}");
    }

    #[test]
    fn level_one_draws_its_ties_by_the_seed() {
        let set = PieceSet::builtin("standard47").unwrap();
        let hand: Vec<Piece> = [3, 17, 40].iter().map(|&i| set.pieces[i].clone()).collect();
        let plans: HashSet<Vec<Placement>> = (0..8)
            .map(|seed| {
                let mut search =
                    HandSearch::new(&set, DEFAULT_WEIGHTS, Position::default(), &hand, seed)
                        .level(1);
                crate::search::iterative::deepen(&mut search, &control(4), &mut |_| {});
                search.chosen_plan().unwrap()
            })
            .collect();
        // Nothing clears on the empty board: every placement ties.
        assert!(plans.len() > 4, "{plans:?}");
        assert!(plans.iter().all(|p| p.iter().map(|p| p.slot).eq([0, 1, 2])));
    }

    #[test]
    fn level_one_clears_the_most_regions_it_can() {
        // The top row and the top-left box lack only a9 (two regions to clear), the bottom row
        // only i1 (one).
        let rows = [".########", "###......", "###......"];
        let text = format!(
            "{}/{}/########.",
            rows.join("/"),
            ["........."; 5].join("/")
        );
        let board = Board::parse(&text).unwrap();
        let set = PieceSet::builtin("standard47").unwrap();
        let hand = vec![Piece::parse("#").unwrap()];
        for seed in 0..4 {
            let mut search = HandSearch::new(
                &set,
                DEFAULT_WEIGHTS,
                Position {
                    board,
                    ..Position::default()
                },
                &hand,
                seed,
            )
            .level(1);
            crate::search::iterative::deepen(&mut search, &control(4), &mut |_| {});
            let plan = search.chosen_plan().unwrap();
            assert_eq!(plan[0].notation(), "1@a9");
        }
    }

    #[test]
    fn a_hand_that_fits_only_through_a_clear_is_placed() {
        // Row 0 is full but for a9-b9; the 3x3 square-less board has room only after the
        // domino clears row 0: the 5-line needs the cleared row.
        let rows = [
            "..#######",
            "#########",
            "#########",
            "#########",
            "#########",
            "#########",
            "#########",
            "#########",
            "#########",
        ];
        let board = Board::parse(&rows.join("/")).unwrap();
        let hand = vec![Piece::parse("#####").unwrap(), Piece::parse("##").unwrap()];
        let set = PieceSet::builtin("standard47").unwrap();
        let position = Position {
            board,
            ..Position::default()
        };
        let search = searched(&set, position, &hand, &control(1));
        let plan = search
            .chosen_plan()
            .expect("the domino first, then the line");
        assert_eq!(plan[0].slot, 1);
        assert!(play_plan(position, &hand, &plan, Scoring::App).is_ok());
        for level in 1..=FULL_STRENGTH {
            let mut search =
                HandSearch::new(&set, DEFAULT_WEIGHTS, position, &hand, 1).level(level);
            crate::search::iterative::deepen(&mut search, &control(4), &mut |_| {});
            let plan = search.chosen_plan().expect("placed at every level");
            assert!(play_plan(position, &hand, &plan, Scoring::App).is_ok());
        }
    }
}
