//! GembloQ's Monte Carlo tree search: a tree over [`SearchPosition`]s whose nodes keep the
//! best moves by the [`Prior`] (PUCT selection on the prior's shares), playouts by
//! [`SearchPosition::playout`], each player's result (with the quality bonuses of
//! [`crate::games::blokus::quality`]) backed up to the moves of its colours. It
//! runs under the generic iterative driver, so that node budgets, deadlines, `stop` and
//! progress reports work as for the other variants.

use super::position::Position;
use super::prior::{Prior, TEMPERATURE};
use super::search_position::SearchPosition;
use crate::games::blokus::quality::Quality;
use crate::games::blokus::rng::Rng;
use crate::search::SearchControl;
use crate::search::iterative::{Iteration, IterativeSearch, Progress};

/// Children a node keeps: its moves of highest prior value.
const WIDTH: usize = 48;
/// Weight of the prior share against a child's mean result in selection.
const EXPLORATION: f32 = 1.2;
/// What an unvisited child is taken to be worth below the mean of its visited siblings.
const FIRST_PLAY: f32 = 0.1;
/// Visits of a leaf before it gets children.
const EXPAND_AT: u32 = 4;
/// Visits at which a child's own mean and its all-moves-as-first mean weigh the same
/// (RAVE: a move's results in every simulation where its colour played it later).
const RAVE_EQUAL: f32 = 1000.0;

/// A node: the move that led to it and its statistics.
#[derive(Debug, Clone)]
struct Node {
    /// The placement played.
    mv: u32,
    /// The colour that played it.
    colour: u8,
    /// Its share of the parent's prior.
    prior: f32,
    visits: u32,
    /// Sum of the results of the player of `colour`.
    value: f32,
    /// Simulations through the parent in which `colour` played `mv` later.
    rave_visits: u32,
    /// Sum of their results for the player of `colour`.
    rave_value: f32,
    /// Index of the first child; children lie together.
    first: u32,
    children: u32,
    /// Children made (none when the game is over here).
    expanded: bool,
}

impl Node {
    /// A node of `colour`'s move `mv` with its prior share and no visits or children yet.
    fn unvisited(mv: u32, colour: u8, prior: f32) -> Node {
        Node {
            mv,
            colour,
            prior,
            visits: 0,
            value: 0.0,
            rave_visits: 0,
            rave_value: 0.0,
            first: 0,
            children: 0,
            expanded: false,
        }
    }
}

/// The search tree of one position.
pub struct Tree {
    root: SearchPosition,
    /// The position of the current simulation (the root's copy, its buffers kept).
    scratch: Option<SearchPosition>,
    nodes: Vec<Node>,
    prior: Prior,
    rng: Rng,
    /// A value per triangle for the playouts (all zero between moves).
    marks: Vec<u8>,
    /// The local triangles of a playout move.
    local: Vec<u16>,
    /// The moves of the current simulation: (colour, placement).
    played: Vec<(u8, u32)>,
    /// Per placement: 1 + the colour that played it in the current simulation, else 0.
    played_by: Vec<u8>,
    /// A bit per placement, scratch space for the expansions (all clear between them).
    mark: Vec<u64>,
    /// The running statistics of the simulations' scores and lengths, for the results'
    /// quality bonuses.
    quality: Quality,
    /// Playouts run.
    pub playouts: u64,
}

impl Tree {
    /// A tree for colour `c` to move in `pos`; `seed` fixes its random choices.
    pub fn new(pos: &Position, c: usize, seed: u64) -> Tree {
        let mut root = SearchPosition::new(pos, c);
        root.index_root();
        Tree {
            prior: Prior::new(&root),
            scratch: Some(root.clone()),
            root,
            nodes: vec![Node::unvisited(0, 0, 1.0)],
            rng: Rng::new(seed),
            marks: vec![0; pos.placements().geo.npoints()],
            local: Vec::new(),
            played: Vec::new(),
            played_by: vec![0; pos.placements().len()],
            mark: vec![0; pos.placements().len().div_ceil(64)],
            quality: Quality::default(),
            playouts: 0,
        }
    }

    /// Gives node `i`, reached by the moves of `self.played`, children: the mover's [`WIDTH`]
    /// moves of highest prior value. Its legal moves are the root's brought up to date.
    fn expand(&mut self, i: usize, pos: &mut SearchPosition) {
        self.nodes[i].expanded = true;
        let Some(c) = pos.next_mover(&mut self.rng) else {
            return;
        };
        let moves = pos.legal_from(c, &self.root, &self.played, &mut self.mark);
        let values = self.prior.values(pos, c, &moves);
        let mut order: Vec<usize> = (0..moves.len()).collect();
        let by_value = |a: &usize, b: &usize| {
            values[*b]
                .total_cmp(&values[*a])
                .then(moves[*a].cmp(&moves[*b]))
        };
        if order.len() > WIDTH {
            order.select_nth_unstable_by(WIDTH, by_value);
            order.truncate(WIDTH);
        }
        order.sort_by(by_value);
        let top = values[order[0]];
        let weights: Vec<f32> = (order.iter())
            .map(|&k| ((values[k] - top) / TEMPERATURE).exp())
            .collect();
        let total: f32 = weights.iter().sum();
        self.nodes[i].first = self.nodes.len() as u32;
        self.nodes[i].children = order.len() as u32;
        for (&k, w) in order.iter().zip(weights) {
            self.nodes
                .push(Node::unvisited(moves[k], c as u8, w / total));
        }
    }

    /// The child of node `i` to descend to (PUCT).
    fn select(&self, i: usize) -> usize {
        let node = &self.nodes[i];
        let range = node.first as usize..(node.first + node.children) as usize;
        let (mut sum, mut visits) = (0.0f32, 0u32);
        for ch in &self.nodes[range.clone()] {
            sum += ch.value;
            visits += ch.visits;
        }
        let unvisited = if visits > 0 {
            sum / visits as f32 - FIRST_PLAY
        } else {
            0.5
        };
        let root = (node.visits.max(1) as f32).sqrt();
        let mut best = (f32::MIN, range.start);
        for (k, ch) in self.nodes[range.clone()].iter().enumerate() {
            let mean = match (ch.visits, ch.rave_visits) {
                (0, 0) => unvisited,
                (n, 0) => ch.value / n as f32,
                (n, r) => {
                    let (n, r) = (n as f32, r as f32);
                    let beta = r / (r + n + r * n / RAVE_EQUAL);
                    let own = if n > 0.0 { ch.value / n } else { 0.0 };
                    (1.0 - beta) * own + beta * ch.rave_value / r
                }
            };
            let score = mean + EXPLORATION * ch.prior * root / (1.0 + ch.visits as f32);
            if score > best.0 {
                best = (score, range.start + k);
            }
        }
        best.1
    }

    /// One descent, playout and update.
    pub fn run_once(&mut self) {
        let mut pos = (self.scratch.take()).unwrap_or_else(|| self.root.clone());
        pos.clone_from(&self.root);
        let mut path = vec![0usize];
        self.played.clear();
        let mut i = 0;
        loop {
            if !self.nodes[i].expanded {
                if i != 0 && self.nodes[i].visits + 1 < EXPAND_AT {
                    break;
                }
                self.expand(i, &mut pos);
            }
            if self.nodes[i].children == 0 {
                break;
            }
            i = self.select(i);
            let node = &self.nodes[i];
            pos.play(node.colour as usize, node.mv);
            self.played.push((node.colour, node.mv));
            path.push(i);
        }
        let won = pos.playout(
            &mut self.rng,
            &mut self.marks,
            &mut self.local,
            &mut self.played,
        );
        let results = (self.quality).scored(&won, &pos.points(), pos.pieces_on_board());
        let v = self.root.variant();
        for &(c, m) in &self.played {
            self.played_by[m as usize] = c + 1;
        }
        for &k in &path {
            let node = &mut self.nodes[k];
            node.visits += 1;
            node.value += results[v.player_of(node.colour as usize)];
            let children = node.first as usize..(node.first + node.children) as usize;
            for ch in &mut self.nodes[children] {
                if self.played_by[ch.mv as usize] == ch.colour + 1 {
                    ch.rave_visits += 1;
                    ch.rave_value += results[v.player_of(ch.colour as usize)];
                }
            }
        }
        for &(_, m) in &self.played {
            self.played_by[m as usize] = 0;
        }
        self.playouts += 1;
        self.scratch = Some(pos);
    }

    /// The root's visits (those of a tree kept from an earlier search included).
    pub fn root_visits(&self) -> u64 {
        u64::from(self.nodes[0].visits)
    }

    /// This tree moved down along `moves` (colour, placement) to `pos`, where colour `c` is
    /// to move, with a new `seed`: the subtree of that line if the tree grew it and its
    /// children are `c`'s moves, else `None`.
    pub fn descend(
        self,
        moves: &[(usize, u32)],
        pos: &Position,
        c: usize,
        seed: u64,
    ) -> Option<Tree> {
        let mut i = 0;
        for &(colour, m) in moves {
            let node = &self.nodes[i];
            let children = node.first as usize..(node.first + node.children) as usize;
            i = children.into_iter().find(|&k| {
                let ch = &self.nodes[k];
                ch.mv == m && usize::from(ch.colour) == colour
            })?;
        }
        let root = &self.nodes[i];
        if !root.expanded || root.children == 0 {
            return None;
        }
        if usize::from(self.nodes[root.first as usize].colour) != c {
            return None;
        }
        let mut nodes = vec![root.clone()];
        let mut queue = vec![(i, 0usize)];
        while let Some((old, new)) = queue.pop() {
            let node = &self.nodes[old];
            let first = nodes.len();
            nodes[new].first = first as u32;
            for k in 0..node.children as usize {
                nodes.push(self.nodes[node.first as usize + k].clone());
                queue.push((node.first as usize + k, first + k));
            }
        }
        let mut tree = Tree::new(pos, c, seed);
        tree.nodes = nodes;
        Some(tree)
    }

    /// The root's children: (placement, visits, mean result), most visited first.
    pub fn root_stats(&self) -> Vec<(u32, u32, f32)> {
        let root = &self.nodes[0];
        let mut out: Vec<(u32, u32, f32)> = (self.nodes
            [root.first as usize..(root.first + root.children) as usize])
            .iter()
            .map(|n| (n.mv, n.visits, n.value / n.visits.max(1) as f32))
            .collect();
        out.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.total_cmp(&a.2)));
        out
    }

    /// The most visited line from the root, up to `len` moves.
    fn line(&self, len: usize) -> Vec<u32> {
        let mut out = Vec::new();
        let mut i = 0;
        while out.len() < len && self.nodes[i].children > 0 {
            let node = &self.nodes[i];
            let range = node.first as usize..(node.first + node.children) as usize;
            let Some(best) = range.max_by_key(|&k| (self.nodes[k].visits, std::cmp::Reverse(k)))
            else {
                break;
            };
            if self.nodes[best].visits == 0 {
                break;
            }
            out.push(self.nodes[best].mv);
            i = best;
        }
        out
    }

    /// The move to play: the most visited root move (the prior's best before any playout).
    pub fn best_move(&mut self) -> Option<u32> {
        if !self.nodes[0].expanded {
            self.played.clear();
            let mut pos = self.root.clone();
            self.expand(0, &mut pos);
        }
        self.root_stats().first().map(|s| s.0)
    }
}

/// The GembloQ search under the iterative driver: iteration k runs a batch of playouts.
pub struct GembloqSearch {
    /// The tree.
    pub tree: Tree,
    best: Option<u32>,
}

impl GembloqSearch {
    /// A search growing `tree`.
    pub fn new(tree: Tree) -> GembloqSearch {
        GembloqSearch { tree, best: None }
    }

    /// The best line in notation and its score (the mean result, 0-100).
    fn report(&self) -> (Vec<String>, i64) {
        let p = self.tree.root.placements();
        let line: Vec<String> = self.tree.line(8).iter().map(|&m| p.name(m)).collect();
        let mean = self.tree.root_stats().first().map_or(0.5, |s| s.2);
        (line, (mean * 100.0).round().clamp(0.0, 100.0) as i64)
    }
}

impl IterativeSearch for GembloqSearch {
    fn iterate(
        &mut self,
        depth: u32,
        control: &SearchControl,
        progress: &mut Progress,
    ) -> Option<Iteration> {
        let Some(first) = self.tree.best_move() else {
            return Some(Iteration {
                pv: Vec::new(),
                score: 0,
                complete: false,
                others: Vec::new(),
            });
        };
        let p = self.tree.root.placements();
        if depth == 1 {
            self.best = Some(first);
            progress.improved(&[p.name(first)], 50, self.tree.playouts);
        }
        let batch = 16u64 << depth.min(12);
        let mut complete = true;
        for k in 0..batch {
            if control.must_stop(self.tree.playouts) {
                complete = false;
                break;
            }
            self.tree.run_once();
            if k % 8 == 7 {
                let best = self.tree.root_stats().first().map(|s| s.0);
                if best != self.best {
                    self.best = best;
                    let (pv, score) = self.report();
                    progress.improved(&pv, score, self.tree.playouts);
                } else {
                    progress.tick(self.tree.playouts);
                }
            }
        }
        let (mut pv, score) = self.report();
        if pv.is_empty() {
            pv = vec![p.name(first)];
        }
        Some(Iteration {
            pv,
            score,
            complete,
            others: Vec::new(),
        })
    }

    fn nodes(&self) -> u64 {
        self.tree.playouts
    }
}

#[cfg(test)]
mod tests {
    use super::super::variant::GembloqVariant;
    use super::*;

    /// A position some moves into a Two-Player game, by the prior's best moves.
    fn middle_game(moves: usize) -> (Position, usize) {
        let mut pos = Position::new(GembloqVariant::Two);
        for k in 0..moves {
            let c = pos.next_mover().expect("moves left");
            let mut t = Tree::new(&pos, c, k as u64);
            let m = t.best_move().expect("a move");
            pos.play(c, m);
        }
        (pos.clone(), pos.next_mover().expect("moves left"))
    }

    /// The subtree of the line played is kept with its visits; another line has none.
    #[test]
    fn a_tree_serves_the_position_its_line_reached() {
        let (pos, c) = middle_game(6);
        let mut t = Tree::new(&pos, c, 1);
        for _ in 0..200 {
            t.run_once();
        }
        let (best, visits, _) = t.root_stats()[0];
        let mut after = pos.clone();
        after.play(c, best);
        let next = after.next_mover().expect("moves left");
        let kept = t.descend(&[(c, best)], &after, next, 2).expect("subtree");
        assert_eq!(kept.root_visits(), u64::from(visits));
        let mut t = Tree::new(&pos, c, 1);
        t.run_once();
        let other = pos.legal(c).into_iter().find(|&m| m != t.root_stats()[0].0);
        let other = other.expect("two moves");
        let mut elsewhere = pos.clone();
        elsewhere.play(c, other);
        let next = elsewhere.next_mover().expect("moves left");
        assert!(t.descend(&[(c, other)], &elsewhere, next, 2).is_none());
    }

    #[test]
    fn a_short_search_plays_a_legal_move_and_a_seed_repeats_it() {
        let (pos, c) = middle_game(10);
        let run = |seed| {
            let mut t = Tree::new(&pos, c, seed);
            for _ in 0..300 {
                t.run_once();
            }
            (t.best_move(), t.root_stats())
        };
        let (m, stats) = run(7);
        let m = m.expect("a move");
        assert!(pos.check(c, m).is_ok());
        assert_eq!(stats.iter().map(|s| s.1).sum::<u32>(), 300);
        let (again, stats_again) = run(7);
        assert_eq!(Some(m), again);
        assert_eq!(stats, stats_again);
    }
}
