//! The search tree's results and priors, one array per field (a struct of arrays beside the
//! nodes): the loops over a node's children (selection, the RAVE update) read only these, and
//! read them contiguously, so that selection scores several children an instruction.

use super::tables::prefetch;
use super::tree_memory;
use crate::isa;

/// Results and priors per node, indexed as the tree's nodes.
#[derive(Debug, Default)]
pub struct NodeStats {
    /// Weight of the results in `value`: the prior's virtual count, real visits, RAVE results.
    pub visits: Vec<f32>,
    /// Weighted sum of the results of the player who made the node's move.
    pub value: Vec<f32>,
    /// The share of the node's move in its parent's prior weights.
    pub prior: Vec<f32>,
    /// In the places of each node's children: those children sorted by move, each as its move
    /// (high 16 bits) and its place among them (low 16 bits), so that the RAVE update finds
    /// the child of a move by a binary search (0 at the root).
    pub by_move: Vec<u32>,
    /// Scratch of the sort of [`NodeStats::index_children`] (not per node).
    scratch: Vec<u32>,
}

/// Four-byte fields in a cache line.
const FLOATS_A_LINE: usize = 16;
/// The most cache lines of one array prefetched for one node's children.
const PREFETCH_LINES: usize = 8;

/// From this many children on, a node's children are sorted by move with a radix sort (the
/// first moves of the triangle boards run into thousands).
const RADIX_FROM: usize = 128;

/// Sorts `keys` (each a move in the high 16 bits over a distinct low half) by move, two
/// counting passes of a byte each.
fn radix_sort(keys: &mut [u32], tmp: &mut Vec<u32>) {
    tmp.clear();
    tmp.resize(keys.len(), 0);
    let mut counts = [[0u32; 256]; 2];
    for &k in keys.iter() {
        counts[0][(k >> 16 & 255) as usize] += 1;
        counts[1][(k >> 24) as usize] += 1;
    }
    for c in &mut counts {
        let mut sum = 0;
        for x in c.iter_mut() {
            let n = *x;
            *x = sum;
            sum += n;
        }
    }
    for &k in keys.iter() {
        let b = (k >> 16 & 255) as usize;
        tmp[counts[0][b] as usize] = k;
        counts[0][b] += 1;
    }
    for &k in tmp.iter() {
        let b = (k >> 24) as usize;
        keys[counts[1][b] as usize] = k;
        counts[1][b] += 1;
    }
}

impl NodeStats {
    /// Appends a node with these results and prior, and no real visit.
    #[inline]
    pub fn push(&mut self, visits: f32, value: f32, prior: f32) {
        self.visits.push(visits);
        self.value.push(value);
        self.prior.push(prior);
        self.by_move.push(0);
    }

    /// Appends nodes with these results and priors (visits, value, prior), and no real visit.
    #[inline]
    pub fn extend(&mut self, nodes: impl ExactSizeIterator<Item = (f32, f32, f32)> + Clone) {
        self.visits.extend(nodes.clone().map(|n| n.0));
        self.value.extend(nodes.clone().map(|n| n.1));
        self.prior.extend(nodes.map(|n| n.2));
    }

    /// Sorts the children just appended, whose moves are `moves` (in their order), by move
    /// (see `by_move`).
    pub fn index_children(&mut self, moves: &[u16]) {
        let start = self.by_move.len();
        let places = moves.iter().enumerate();
        (self.by_move).extend(places.map(|(k, &m)| u32::from(m) << 16 | k as u32));
        let keys = &mut self.by_move[start..];
        if keys.len() < RADIX_FROM {
            keys.sort_unstable();
        } else {
            radix_sort(keys, &mut self.scratch);
        }
    }

    /// The place among the children `first..first + n` (sorted by `index_children`) of the
    /// child with move `m`, if one has it.
    #[inline]
    pub fn child_of(&self, first: usize, n: usize, m: u16) -> Option<usize> {
        let sorted = &self.by_move[first..first + n];
        let key = u32::from(m) << 16;
        let at = sorted.partition_point(|&e| e < key);
        match sorted.get(at) {
            Some(&e) if e >> 16 == u32::from(m) => Some((e & 0xFFFF) as usize),
            _ => None,
        }
    }

    /// Keeps the first `n` nodes.
    pub fn truncate(&mut self, n: usize) {
        self.visits.truncate(n);
        self.value.truncate(n);
        self.prior.truncate(n);
        self.by_move.truncate(n);
    }

    /// Copies node `from`'s fields to node `to`.
    pub fn copy(&mut self, from: usize, to: usize) {
        self.visits[to] = self.visits[from];
        self.value[to] = self.value[from];
        self.prior[to] = self.prior[from];
        self.by_move[to] = self.by_move[from];
    }

    /// Prefetches the head of what selection reads of the children `first..first + n`: their
    /// values, priors and visits, up to [`PREFETCH_LINES`] cache lines of each (the processor
    /// streams the rest).
    #[inline]
    pub fn prefetch_for_selection(&self, first: usize, n: usize) {
        let end = (first + n).min(self.visits.len());
        for i in (first..end).step_by(FLOATS_A_LINE).take(PREFETCH_LINES) {
            prefetch(&self.value[i]);
            prefetch(&self.prior[i]);
            prefetch(&self.visits[i]);
        }
    }

    /// Prefetches the children `first..first + n` sorted by move (see `by_move`), which the
    /// RAVE update searches, up to [`PREFETCH_LINES`] cache lines.
    #[inline]
    pub fn prefetch_by_move(&self, first: usize, n: usize) {
        let end = (first + n).min(self.by_move.len());
        for i in (first..end).step_by(FLOATS_A_LINE).take(PREFETCH_LINES) {
            prefetch(&self.by_move[i]);
        }
    }

    /// Reserves room for `n` nodes in every array, once (see [`tree_memory::reserve`]).
    pub fn reserve(&mut self, n: usize) {
        tree_memory::reserve(&mut self.visits, n);
        tree_memory::reserve(&mut self.value, n);
        tree_memory::reserve(&mut self.prior, n);
        tree_memory::reserve(&mut self.by_move, n);
    }

    /// Among the nodes `first..first + n`, the first with the highest selection score
    /// `(value + prior * factor) / visits` (exactly as those scores compare one by one, first
    /// to last, keeping a strictly higher one: the same child).
    #[inline]
    pub fn best_score(&self, first: usize, n: usize, factor: f32) -> usize {
        let range = first..first + n;
        first
            + best_score(
                &self.value[range.clone()],
                &self.prior[range.clone()],
                &self.visits[range],
                factor,
            )
    }
}

/// Children scored side by side: the width of the lanes of [`best_score`].
const LANES: usize = 8;

/// The first `chunks` chunks of [`LANES`] values of `s`.
#[inline]
fn chunked(s: &[f32], chunks: usize) -> &[[f32; LANES]] {
    s[..chunks * LANES].as_chunks().0
}

isa::twin! {
    /// The index of the first of the highest scores `(value[i] + prior[i] * factor) / visits[i]` (0
    /// when empty). Each of [`LANES`] lanes keeps its own first highest score, the lanes advancing
    /// a chunk at a time (the compiler turns a chunk into a few vector instructions); then the best
    /// lane, ties to the lowest index, and the last few one by one. The scores are the same
    /// floating-point operations as one by one, and no score is NaN (the visits are at least the
    /// prior's virtual count), so the answer is that of the one-by-one scan.
    fn best_score / best_score_v3 = best_score_body(
        value: &[f32],
        prior: &[f32],
        visits: &[f32],
        factor: f32,
    ) -> usize
}

#[inline(always)]
fn best_score_body(value: &[f32], prior: &[f32], visits: &[f32], factor: f32) -> usize {
    let n = value.len().min(prior.len()).min(visits.len());
    let chunks = n / LANES;
    let mut top = [f32::NEG_INFINITY; LANES];
    // The chunk of each lane's best, as a float so that the lanes pick it as they pick the
    // scores (exact below 2^24 chunks).
    let mut at = [0.0f32; LANES];
    let (v, p, w) = (
        chunked(value, chunks),
        chunked(prior, chunks),
        chunked(visits, chunks),
    );
    for (k, ((v, p), w)) in v.iter().zip(p).zip(w).enumerate() {
        let k = k as f32;
        for l in 0..LANES {
            let s = (v[l] + p[l] * factor) / w[l];
            let better = s > top[l];
            top[l] = if better { s } else { top[l] };
            at[l] = if better { k } else { at[l] };
        }
    }
    let mut best = 0;
    let mut best_score = f32::NEG_INFINITY;
    if chunks > 0 {
        for l in 0..LANES {
            let i = at[l] as usize * LANES + l;
            if top[l] > best_score || (top[l] == best_score && i < best) {
                best_score = top[l];
                best = i;
            }
        }
    }
    for i in chunks * LANES..n {
        let s = (value[i] + prior[i] * factor) / visits[i];
        if s > best_score {
            best_score = s;
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blokus::rng::Rng;

    /// The one-by-one scan the lanes must match.
    fn scan(value: &[f32], prior: &[f32], visits: &[f32], factor: f32) -> usize {
        let mut best = 0;
        let mut best_score = f32::NEG_INFINITY;
        for i in 0..value.len() {
            let s = (value[i] + prior[i] * factor) / visits[i];
            if s > best_score {
                best_score = s;
                best = i;
            }
        }
        best
    }

    /// Children sorted by move find each of their moves, in the short sort and in the radix
    /// sort, and find no other move.
    #[test]
    fn children_sorted_by_move_find_their_moves() {
        let mut rng = Rng::new(3);
        for n in [1, 7, RADIX_FROM - 1, RADIX_FROM, 2_500] {
            let mut stats = NodeStats::default();
            stats.push(0.0, 0.0, 0.0);
            let mut moves: Vec<u16> = Vec::new();
            while moves.len() < n {
                let m = rng.below(40_000) as u16;
                if !moves.contains(&m) {
                    moves.push(m);
                }
            }
            stats.index_children(&moves);
            let sorted = &stats.by_move[1..];
            assert!(sorted.windows(2).all(|w| w[0] < w[1]), "{n}");
            for (k, &m) in moves.iter().enumerate() {
                assert_eq!(stats.child_of(1, n, m), Some(k), "{n}");
            }
            let absent = (0..40_000u16).find(|m| !moves.contains(m)).unwrap();
            assert_eq!(stats.child_of(1, n, absent), None);
        }
    }

    /// The lanes pick the child the one-by-one scan picks, ties included (values drawn from
    /// a few levels so that equal scores are common), at every length around the lane width.
    #[test]
    fn the_lanes_pick_the_first_best_child() {
        let mut rng = Rng::new(12);
        let mut ties = 0;
        for n in 0..70 {
            for round in 0..40 {
                let levels = if round % 2 == 0 { 3 } else { 1000 };
                let draw = |rng: &mut Rng| rng.below(levels) as f32 / levels as f32;
                let value: Vec<f32> = (0..n).map(|_| draw(&mut rng)).collect();
                let prior: Vec<f32> = (0..n).map(|_| draw(&mut rng)).collect();
                let visits: Vec<f32> = (0..n).map(|_| 3.0 + rng.below(3) as f32).collect();
                let factor = [0.0, 0.5, 3.7][round % 3];
                let want = scan(&value, &prior, &visits, factor);
                assert_eq!(
                    best_score(&value, &prior, &visits, factor),
                    want,
                    "{n} {round}"
                );
                let score = |i: usize| (value[i] + prior[i] * factor) / visits[i];
                ties += usize::from((want + 1..n).any(|i| score(i) == score(want)));
            }
        }
        assert!(ties > 100, "ties tested: {ties}");
    }
}
