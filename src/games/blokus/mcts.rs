//! Monte Carlo tree search for any number of colours: each node keeps the mean result of the
//! player who made its move (partner colours of Two-Player share a result; in Three-Player the
//! shared fourth colour plays for whoever's turn it is with it). Children start with a value
//! and a prior share from a quick judgement of local features (piece size, opponents' corners
//! covered or crowded, own corners wasted, own free squares fenced off, room around new
//! corners); early in the game only large pieces are considered. Selection adds to a child's
//! value an exploration bonus proportional to its prior share; all-moves-as-first (RAVE)
//! results are mixed into the values with weights that fall with the distance. Playouts (see
//! `playout`) keep incremental move lists and, on the Trigon boards, try the last good replies
//! learnt from the simulations (see `reply`); results carry quality bonuses (see `quality`).
//! The move played, and each move of a line, is the one with the most weighted wins (value
//! times count: its prior's virtual wins, real results and RAVE results), as the reference
//! engine chooses; a leaf is expanded on its first real visit.

use super::board::{Board, MoveGen, Variant};
use super::considered;
use super::node_stats::NodeStats;
use super::playout::{BuiltAt, Local, Playout};
use super::prior::{self, Kinds};
use super::quality::Quality;
use super::reply::{self, Played, Replies};
use super::rng::Rng;
use super::tables::prefetch;
use super::tree_memory;
use crate::isa;
use crate::search::SearchControl;
use crate::search::iterative::{Iteration, IterativeSearch, Progress};
use std::sync::Mutex;

/// Exploration constant: a child's bonus is its prior share times this, times sqrt(N) ln(N+1)
/// for N parent visits, over the child's count.
const EXPLORE: f32 = 0.5;
/// The exploration constant of Callisto Two-Player: 0.8 of the others, as the reference
/// engine's constants stand there against Duo's (50 of 80 games at 3,000 playouts against
/// [`EXPLORE`], 2026-11-27).
const EXPLORE_CALLISTO_2: f32 = 0.4;

/// The exploration constant of `variant`.
fn explore(variant: Variant) -> f32 {
    if variant == Variant::Callisto2 {
        EXPLORE_CALLISTO_2
    } else {
        EXPLORE
    }
}

/// Weight of an all-moves-as-first (RAVE) result in a child's value, for a move played right
/// after the node (less the later it came).
const RAVE_WEIGHT: f32 = 0.7;
/// Children whose count passed this get no more RAVE results.
const RAVE_CHILD_MAX: f32 = 2000.0;
/// Nodes visited more than this give their children no more RAVE results.
const RAVE_PARENT_MAX: u32 = 25_000;
/// Virtual count of a child's initial value.
const PRIOR_COUNT: f32 = 3.0;
/// A leaf is expanded on this real visit, at any depth, so that its prior guides the next
/// playouts through it. Waiting longer, more the deeper the leaf (42efc46), cost strength:
/// with that commit's playout-list change, undone together, 109.5 of 200 Duo games against it
/// at equal playouts (2026-11-27); alone, at about equal CPU (the reference engine's
/// threshold, 1 + 0.5 x depth real visits, 16% fewer instructions a playout), 33 of 76
/// against it, and expanding on the third real visit 100 of 200 (2026-11-29; see
/// docs/measurements.md).
const EXPAND_AT: u32 = 1;
/// How many children ahead an expansion prefetches a placement's tables (info and window).
const INFO_AHEAD: usize = 8;
/// How many children ahead an expansion prefetches a placement's neighbour lists.
const NEIGHBOURS_AHEAD: usize = 4;
/// The tree's size limit (32 bytes a node with its [`NodeStats`], 384 MB): when a playout
/// finds it this full, the tree is pruned.
const MAX_NODES: usize = 12_000_000;
/// Room kept for one more expansion (more than any position's legal moves).
const EXPANSION_ROOM: usize = 20_000;
/// The most simulations whose root means a search carries to the next root of the game (the
/// reference engine's count).
const CARRIED_MEANS: f32 = 100.0;
/// Pruning drops the children of nodes with fewer real visits than this, doubling it until the
/// tree is at most half full.
const PRUNE_FIRST_COUNT: u32 = 16;

/// A node a simulation's descent passed, with what its playout needs to start the list of the
/// colour of the node's children from them (see [`Playout::seed`]).
#[derive(Debug, Clone, Copy)]
struct Passed {
    node: u32,
    /// The length of the children's colour's corner points at the node.
    corners: u16,
    /// Placements made before the node.
    nmoves: u16,
    /// The children's colour's rule stage at the node.
    stage: u8,
    /// Whether the children are that colour's playout moves there.
    seeds: bool,
}

/// A node's move and place in the tree (its results and prior are in [`NodeStats`]): 16 bytes,
/// the fields ordered by size.
#[derive(Debug, Clone, Copy)]
struct Node {
    first_child: u32,
    /// Real visits.
    real: u32,
    /// Fewer than the moves of any board (at most [`LIST_CAP`](super::playout) of them).
    nchildren: u16,
    mv: u16,
    colour: u8,
    player: u8,
    expanded: bool,
}

const _: () = assert!(size_of::<Node>() == 16);

impl Node {
    /// The places of the node's children.
    #[inline]
    fn children(&self) -> std::ops::Range<usize> {
        self.first_child as usize..self.first_child as usize + self.nchildren as usize
    }
}

/// A new tree's root, before any visit.
const ROOT_NODE: Node = Node {
    mv: 0,
    colour: 0,
    player: 0,
    expanded: false,
    first_child: 0,
    nchildren: 0,
    real: 0,
};

/// A new tree's root's results and prior (visits, value, prior).
const ROOT_STATS: (f32, f32, f32) = (0.0, 0.0, 1.0);

/// The search tree over one root position.
pub struct Mcts {
    root: Board,
    nodes: Vec<Node>,
    /// Per node, its results and prior.
    stats: NodeStats,
    rng: Rng,
    mg: MoveGen,
    buf: Vec<u16>,
    /// Scratch: the judgements of the moves being expanded.
    scores: Vec<f32>,
    /// The local squares for the priors of the node being expanded.
    local: Local,
    /// The kinds of squares for the priors of the node being expanded.
    kinds: Box<Kinds>,
    playout: Playout,
    /// The last good replies learnt from the simulations, kept while the tree is (none on
    /// the boards that do without, see [`reply::used_on`]).
    replies: Option<Replies>,
    quality: Quality,
    /// The latest moves of the simulation (colour, move), newest last, at most 3.
    recent: Vec<(u8, u16)>,
    /// The game's latest moves before the root (colour, move), newest last, at most 3.
    root_recent: Vec<(u8, u16)>,
    path: Vec<u32>,
    /// The expanded nodes of the simulation's descent, one per node of `path` (the node
    /// whose child it is).
    passed: Vec<Passed>,
    /// The simulation's moves.
    seq: Vec<Played>,
    /// Scratch of the RAVE update: per player, its moves of the simulation with their index
    /// in it, in order.
    by_player: [Vec<(u16, u16)>; 4],
    playouts: u64,
    /// The sum of every player's results over `root_count` simulations: this search's, after
    /// those of the search before it in the game (see [`Mcts::reroot`]). Their means are the
    /// base of the children's initial values.
    root_sums: [f32; 4],
    root_count: f32,
    /// The size at which the tree is pruned ([`MAX_NODES`] but in tests).
    node_limit: usize,
    /// Scratch of [`Mcts::compact`]: a bit per node, set for the nodes kept.
    kept: Vec<u64>,
    /// The most nodes the tree held before a compaction (its storage's pages touched).
    peak_nodes: usize,
    /// Expansions whose moves came from a node of the descent (checked against a new list).
    #[cfg(test)]
    from_descent: u64,
}

/// The node storage of the last tree dropped, kept (emptied) for the next search: a tree that
/// grows into memory it already touched pays no page faults (fresh pages cost about a tenth of
/// the CPU of a level's search of a few thousand playouts, whose tree holds up to a million
/// nodes). Only the storage of a tree of at most [`SPARE_MAX`] nodes is kept (its room is
/// reserved for [`MAX_NODES`], but only the pages touched hold memory).
static SPARE: Mutex<Option<NodeStorage>> = Mutex::new(None);
/// A tree's nodes and their results.
type NodeStorage = (Vec<Node>, NodeStats);
/// The largest node storage kept for the next search (64 MB with the results).
const SPARE_MAX: usize = 1 << 21;

/// Empty node storage for a new tree: the spare one if there is one, with room for
/// [`MAX_NODES`] reserved (see [`tree_memory::reserve`]).
fn node_storage() -> NodeStorage {
    let spare = SPARE.lock().ok().and_then(|mut s| s.take());
    let (mut nodes, mut stats) = spare.unwrap_or_default();
    tree_memory::reserve(&mut nodes, MAX_NODES);
    stats.reserve(MAX_NODES);
    (nodes, stats)
}

/// Keeps the (emptied) storage of a tree that held at most `peak` nodes for the next one,
/// unless it is too large or a spare is kept already.
fn keep_storage(mut nodes: Vec<Node>, mut stats: NodeStats, peak: usize) {
    if peak > SPARE_MAX {
        return;
    }
    if let Ok(mut spare) = SPARE.lock()
        && spare.is_none()
    {
        nodes.clear();
        stats.truncate(0);
        *spare = Some((nodes, stats));
    }
}

impl Drop for Mcts {
    fn drop(&mut self) {
        let peak = self.peak_nodes.max(self.nodes.len());
        keep_storage(
            std::mem::take(&mut self.nodes),
            std::mem::take(&mut self.stats),
            peak,
        );
    }
}

impl Mcts {
    /// A search of `root` with the given seed.
    pub fn new(root: &Board, seed: u64) -> Mcts {
        let mut root = root.clone();
        root.skip_to_mover();
        let t = root.tables();
        let replies =
            reply::used_on(t).then(|| Replies::new(reply::nkeys(root.variant), t.moves.len()));
        let (mut nodes, mut stats) = node_storage();
        nodes.push(ROOT_NODE);
        let (visits, value, prior) = ROOT_STATS;
        stats.push(visits, value, prior);
        Mcts {
            root,
            nodes,
            stats,
            rng: Rng::new(seed),
            mg: MoveGen::new(t),
            buf: Vec::new(),
            scores: Vec::new(),
            local: Local::new(),
            kinds: Box::default(),
            playout: Playout::new(t),
            replies,
            quality: Quality::default(),
            recent: Vec::new(),
            root_recent: Vec::new(),
            path: Vec::new(),
            passed: Vec::new(),
            seq: Vec::new(),
            by_player: Default::default(),
            playouts: 0,
            root_sums: [0.0; 4],
            root_count: 0.0,
            node_limit: MAX_NODES,
            kept: Vec::new(),
            peak_nodes: 0,
            #[cfg(test)]
            from_descent: 0,
        }
    }

    /// Starts the search of `root` afresh with the given seed, as [`Mcts::new`] would, keeping
    /// the storage (nodes, move lists, scratch) for the board's tables; false (and nothing
    /// changed) if `root` is on other tables.
    pub fn restart(&mut self, root: &Board, seed: u64) -> bool {
        if !std::ptr::eq(root.tables(), self.root.tables()) {
            return false;
        }
        let mut root = root.clone();
        root.skip_to_mover();
        self.root = root;
        self.peak_nodes = self.peak_nodes.max(self.nodes.len());
        self.nodes.truncate(1);
        self.nodes[0] = ROOT_NODE;
        self.stats.truncate(0);
        let (visits, value, prior) = ROOT_STATS;
        self.stats.push(visits, value, prior);
        self.rng = Rng::new(seed);
        self.quality = Quality::default();
        if let Some(replies) = &mut self.replies {
            replies.forget_all();
        }
        self.recent.clear();
        self.root_recent.clear();
        self.playouts = 0;
        self.root_sums = [0.0; 4];
        self.root_count = 0.0;
        true
    }

    /// Playouts run so far.
    pub fn playouts(&self) -> u64 {
        self.playouts
    }

    /// The root's real visits, those reused with the tree included.
    pub fn root_visits(&self) -> u64 {
        self.nodes[0].real as u64
    }

    /// Every player's mean result over the simulations from the root (win 1, loss 0, ranks
    /// between, with the quality bonuses, so a mean may stray a little outside 0..1): this
    /// search's, after a share of the last search's in the game (see [`Mcts::reroot`]); `None`
    /// before the first.
    pub fn root_means(&self) -> Option<[f32; 4]> {
        let n = self.root_count;
        (n > 0.0).then(|| self.root_sums.map(|s| s / n))
    }

    /// The root position.
    pub fn root(&self) -> &Board {
        &self.root
    }

    isa::twin! {
        fn expand / expand_v3 = expand_body(&mut self, node: usize, b: &mut Board)
    }

    #[inline(always)]
    fn expand_body(&mut self, node: usize, b: &mut Board) {
        self.nodes[node].expanded = true;
        let Some(c) = self.gen_children(b) else {
            return;
        };
        let player = b.player_of(c) as u8;
        let t = b.tables();
        let first = self.nodes.len() as u32;
        if let Some(start) = considered::first_piece_start(b, c) {
            self.buf
                .retain(|&m| t.moves[m as usize].points().contains(&start));
        }
        considered::keep_central(b, &mut self.buf);
        let base = self.root_means().map_or(0.5, |m| m[player as usize]);
        let opp = b.opponents_mask(c);
        self.local.set(b, c, &self.recent);
        let mut scores = std::mem::take(&mut self.scores);
        let weights = prior::weights(b);
        self.kinds.set(b, c, opp, weights);
        scores.clear();
        for (i, &m) in self.buf.iter().enumerate() {
            // The tables read for a child are mostly out of the first-level cache: ask for
            // those of the children a few steps ahead, the neighbour lists once their
            // placement's info has arrived.
            if let Some(&ahead) = self.buf.get(i + INFO_AHEAD) {
                t.prefetch_info(ahead);
            }
            if let Some(&ahead) = self.buf.get(i + NEIGHBOURS_AHEAD) {
                t.prefetch_neighbours(ahead);
            }
            let local = self.local.touches(t, m);
            scores.push(self.kinds.score(t, m, local, weights));
        }
        if prior::pulls_to_centre(t) {
            for (s, &m) in scores.iter_mut().zip(&self.buf) {
                *s += prior::centre_pull(b, c, m);
            }
        }
        let best = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        // The scores become the prior weights.
        for s in scores.iter_mut() {
            *s = ((*s - best) / prior::TEMPERATURE).exp();
        }
        let total: f32 = scores.iter().sum();
        self.nodes.extend(self.buf.iter().map(|&m| Node {
            mv: m,
            colour: c as u8,
            player,
            expanded: false,
            first_child: 0,
            nchildren: 0,
            real: 0,
        }));
        (self.stats).extend(
            scores
                .iter()
                .map(|&w| (PRIOR_COUNT, PRIOR_COUNT * base * w.sqrt(), w / total)),
        );
        self.stats.index_children(&self.buf);
        self.scores = scores;
        let nd = &mut self.nodes[node];
        nd.first_child = first;
        nd.nchildren = self.buf.len() as u16;
    }

    /// Puts in `buf` the moves of the children of a node at `b`, and answers their colour
    /// (`None` at the game's end): the colour to move skips to the next with a legal move, and
    /// early on only the larger pieces are worth a look (all pieces when none of those fits).
    /// The colour to play is tried first, so that most expansions generate its moves once
    /// without asking first whether it has any.
    #[inline(always)]
    fn gen_children(&mut self, b: &mut Board) -> Option<usize> {
        let pieces = self.playout.considered(b.nmoves(), b.ncolours());
        let all = self.playout.all_pieces();
        let c = b.to_play();
        if self.children_from_descent(b, c, pieces) && !self.buf.is_empty() {
            return Some(c);
        }
        let (mg, buf) = (&mut self.mg, &mut self.buf);
        let mut gen_at = |b: &mut Board, c: usize| {
            buf.clear();
            b.gen_moves_of(c, pieces, mg, buf);
            if buf.is_empty() && pieces != all {
                b.gen_moves_of(c, all, mg, buf);
            }
            !buf.is_empty()
        };
        if gen_at(b, c) {
            return Some(c);
        }
        let c = b.skip_to_mover()?;
        gen_at(b, c);
        Some(c)
    }

    /// Puts in `buf` colour `c`'s legal moves of `pieces` at `b`, in the order of
    /// [`Board::gen_moves_of`], from the children of the deepest node of the simulation's
    /// descent where `c` was to move: those still legal, then the moves at the corner points
    /// its move since then opened. A move legal now was legal there (squares and corner points
    /// only close, pieces only go), and a move keeps the first live corner point it covers,
    /// so the order holds. False (and `buf` not set) where no such node is known, or where
    /// the lists differ in kind: other pieces considered, another rule stage, the children
    /// filtered in the opening, loose pieces.
    #[inline(always)]
    fn children_from_descent(&mut self, b: &mut Board, c: usize, pieces: u32) -> bool {
        let t = b.tables();
        if t.rules.loose != 0 || b.is_out(c) {
            return false;
        }
        let nodes = &self.nodes;
        let colour_at = |p: &Passed| nodes[nodes[p.node as usize].first_child as usize].colour;
        let Some(&then) = self
            .passed
            .iter()
            .rev()
            .find(|p| colour_at(p) as usize == c)
        else {
            return false;
        };
        if !then.seeds || then.stage != b.rule_stage(c) {
            return false;
        }
        let nd = self.nodes[then.node as usize];
        let children = nd.children();
        let want = self.playout.considered(then.nmoves as usize, b.ncolours());
        let piece = t.moves[self.nodes[children.start].mv as usize].piece;
        let listed = if want >> piece & 1 != 0 {
            want
        } else {
            self.playout.all_pieces()
        };
        if listed != pieces {
            return false;
        }
        // The live corner points added since, at the end of the list once the dead are dropped.
        let opened = (b.attach_points(c)[then.corners as usize..].iter())
            .filter(|&&p| b.is_free_for(c, p as usize))
            .count();
        let live = b.live_attach_points(c).len();
        let stamp = self.mg.new_stamp();
        let (forbidden, all_bits) = (b.forbidden_set(c), t.all_bits());
        self.buf.clear();
        let children = &self.nodes[children];
        for (i, ch) in children.iter().enumerate() {
            if let Some(ahead) = children.get(i + INFO_AHEAD) {
                prefetch(&all_bits[ahead.mv as usize]);
            }
            let bits = all_bits[ch.mv as usize];
            if b.left(c, bits.piece() as usize) > 0 && !bits.meets(forbidden) {
                self.mg.marks[ch.mv as usize] = stamp;
                self.buf.push(ch.mv);
            }
        }
        let usable = pieces & b.contact_pieces(c);
        for i in live - opened..live {
            let p = b.attach_points(c)[i] as usize;
            b.gen_moves_at(c, p, usable, &mut self.mg, stamp, &mut self.buf);
        }
        #[cfg(test)]
        {
            let mut fresh = Vec::new();
            (b.clone()).gen_moves_of(c, pieces, &mut MoveGen::new(t), &mut fresh);
            assert_eq!(
                fresh, self.buf,
                "the moves brought up to date are the moves"
            );
            self.from_descent += 1;
        }
        true
    }

    fn select(&self, node: usize) -> usize {
        let nd = &self.nodes[node];
        let n = nd.real as f32;
        let factor = explore(self.root.variant) * n.sqrt() * (n + 1.0).ln();
        (self.stats).best_score(nd.first_child as usize, nd.nchildren as usize, factor)
    }

    isa::twin! {
        /// One playout from the root: descend, expand, play out, back up.
        pub fn run_once / run_once_v3 = run_once_body(&mut self)
    }

    #[inline(always)]
    fn run_once_body(&mut self) {
        if self.nodes.len() + EXPANSION_ROOM >= self.node_limit {
            self.prune();
        }
        let mut b = self.root.clone();
        self.path.clear();
        self.passed.clear();
        self.seq.clear();
        self.recent.clear();
        self.recent.extend_from_slice(&self.root_recent);
        let mut node = 0usize;
        let res;
        loop {
            let nd = self.nodes[node];
            if !nd.expanded {
                if (node == 0 || nd.real >= EXPAND_AT)
                    && self.nodes.len() + EXPANSION_ROOM < self.node_limit
                {
                    self.expand(node, &mut b);
                } else {
                    self.seed_lists(&b);
                    self.playout.run(
                        &mut b,
                        &mut self.recent,
                        &mut self.rng,
                        &mut self.seq,
                        self.replies.as_ref(),
                    );
                    res = self.quality.results(&b);
                    break;
                }
            }
            if self.nodes[node].nchildren == 0 {
                res = self.quality.results(&b);
                break;
            }
            let c = self.nodes[self.nodes[node].first_child as usize].colour as usize;
            self.passed.push(Passed {
                node: node as u32,
                corners: b.attach_points(c).len() as u16,
                nmoves: b.nmoves() as u16,
                stage: b.rule_stage(c),
                seeds: considered::tree_moves_are_playout_moves(&b, c),
            });
            let child = self.select(node);
            let ch = self.nodes[child];
            if ch.expanded {
                // Its children's results arrive while the move is played.
                (self.stats).prefetch_for_selection(ch.first_child as usize, ch.nchildren as usize);
            }
            b.play(ch.colour as usize, ch.mv);
            self.push_recent(ch.colour, ch.mv);
            self.seq.push(Played {
                player: ch.player,
                key: reply::key(b.variant, ch.colour as usize, ch.player as usize),
                mv: ch.mv,
            });
            self.path.push(child as u32);
            node = child;
        }
        let stats = &mut self.stats;
        for &i in &self.path {
            let i = i as usize;
            let nd = &mut self.nodes[i];
            stats.visits[i] += 1.0;
            nd.real += 1;
            stats.value[i] += res[nd.player as usize];
        }
        for (s, r) in self.root_sums.iter_mut().zip(&res) {
            *s += r;
        }
        self.root_count += 1.0;
        stats.visits[0] += 1.0;
        self.nodes[0].real += 1;
        self.playouts += 1;
        if let Some(replies) = &mut self.replies {
            replies.learn(&self.seq, &reply::winners(&res, b.variant.nplayers()));
        }
        self.update_rave(&res);
    }

    /// Starts the playout's list of each colour from the children of the deepest node of the
    /// descent where that colour was to move, instead of generating it again at its turn (the
    /// same list: see [`Playout::seed`]); `b` is the board at the end of the descent.
    #[inline(always)]
    fn seed_lists(&mut self, b: &Board) {
        self.playout.new_simulation();
        let nc = b.ncolours();
        let mut done = 0u8;
        for (i, p) in self.passed.iter().enumerate().rev() {
            let nd = self.nodes[p.node as usize];
            let first = nd.first_child as usize;
            let c = self.nodes[first].colour as usize;
            if done >> c & 1 != 0 {
                continue;
            }
            done |= 1 << c;
            if p.seeds && !b.is_out(c) {
                // The children are the considered pieces' moves, or all moves when none of
                // those was legal (as a playout list falls back to every piece).
                let want = self.playout.considered(p.nmoves as usize, nc);
                let piece = b.tables().moves[self.nodes[first].mv as usize].piece;
                let pieces = if want >> piece & 1 != 0 {
                    want
                } else {
                    self.playout.all_pieces()
                };
                let children = &self.nodes[first..first + nd.nchildren as usize];
                let since = self.path[i..].iter().map(|&k| self.nodes[k as usize]);
                let then = BuiltAt {
                    pieces,
                    corners: p.corners as usize,
                    stage: p.stage,
                };
                self.playout.seed(
                    b,
                    c,
                    then,
                    children.iter().map(|ch| ch.mv),
                    since.filter(|n| n.colour as usize == c).map(|n| n.mv),
                );
            }
            if done.count_ones() as usize == nc {
                break;
            }
        }
    }

    /// All moves as first: every child of a node on the path whose move its player made later
    /// in this simulation gets the simulation's result, weighted less the later it came. The
    /// children are found from the simulation's moves (by a binary search among them sorted by
    /// move), not the other way round: a simulation's later moves are far fewer than a node's
    /// children, and a move is made at most once in a game.
    #[inline(always)]
    fn update_rave(&mut self, res: &[f32; 4]) {
        let len = self.seq.len();
        let by_player = &mut self.by_player;
        by_player.iter_mut().for_each(Vec::clear);
        for (j, p) in self.seq.iter().enumerate() {
            by_player[p.player as usize & 3].push((j as u16, p.mv));
        }
        for i in (0..=self.path.len()).rev() {
            let parent = if i == 0 { 0 } else { self.path[i - 1] as usize };
            let nd = self.nodes[parent];
            // The next node's children by move arrive while this one's are updated.
            if i > 0 {
                let next = self.nodes[if i == 1 { 0 } else { self.path[i - 2] as usize }];
                (self.stats).prefetch_by_move(next.first_child as usize, next.nchildren as usize);
            }
            if !nd.expanded || nd.nchildren == 0 || i >= len || nd.real > RAVE_PARENT_MAX {
                continue;
            }
            let dist = 1.0 / (len - i) as f32;
            let (first, n) = (nd.first_child as usize, nd.nchildren as usize);
            // The children are one colour's moves, so one player's.
            let player = self.nodes[first].player;
            let r = res[player as usize];
            // The player's moves after the one made at this node.
            let moves = &self.by_player[player as usize & 3];
            let after = moves.partition_point(|&(j, _)| j as usize <= i);
            for &(j, mv) in &moves[after..] {
                let Some(k) = self.stats.child_of(first, n, mv) else {
                    continue;
                };
                let (visits, value) = (
                    &mut self.stats.visits[first + k],
                    &mut self.stats.value[first + k],
                );
                if *visits <= RAVE_CHILD_MAX {
                    let w = RAVE_WEIGHT * (1.0 - (j as usize - i) as f32 * dist);
                    *visits += w;
                    *value += w * r;
                }
            }
        }
    }

    fn push_recent(&mut self, c: u8, m: u16) {
        if self.recent.len() == 3 {
            self.recent.remove(0);
        }
        self.recent.push((c, m));
    }

    /// Root moves with their real visits and mean values, best first: the most weighted wins
    /// (ties: the most visits).
    pub fn root_stats(&self) -> Vec<(u16, u32, f32)> {
        let nd = &self.nodes[0];
        let mut v: Vec<(f32, (u16, u32, f32))> = nd
            .children()
            .map(|i| {
                let ch = &self.nodes[i];
                let value = self.stats.value[i];
                (value, (ch.mv, ch.real, value / self.stats.visits[i]))
            })
            .collect();
        v.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.1.cmp(&a.1.1)));
        v.into_iter().map(|(_, s)| s).collect()
    }

    /// The best root move, as [`Mcts::root_stats`] puts first (the most weighted wins, ties:
    /// the most visits, then the first child), without sorting them all.
    pub fn best_root_move(&self) -> Option<u16> {
        let nd = &self.nodes[0];
        let mut best: Option<usize> = None;
        for i in nd.children() {
            let better = best.is_none_or(|b| self.more_wins(i, b));
            if better {
                best = Some(i);
            }
        }
        best.map(|i| self.nodes[i].mv)
    }

    /// Whether node `a` has more weighted wins than node `b` (ties: more real visits).
    fn more_wins(&self, a: usize, b: usize) -> bool {
        let (value, nodes) = (&self.stats.value, &self.nodes);
        (value[a].total_cmp(&value[b])).then(nodes[a].real.cmp(&nodes[b].real))
            == std::cmp::Ordering::Greater
    }

    /// The lead in weighted wins of the best root move over the second, and the root's win
    /// rate for its player (at least 0.1; 1 before 100 playouts): the best move is taken as
    /// settled once the playouts left times that rate are fewer than the lead (`None` without
    /// root moves).
    pub fn final_lead(&self) -> Option<(f32, f32)> {
        let nd = &self.nodes[0];
        let mut wins = nd.children().map(|i| self.stats.value[i]);
        let mut best = wins.next()?;
        let mut second = 0.0f32;
        for w in wins {
            if w > best {
                second = best;
                best = w;
            } else if w > second {
                second = w;
            }
        }
        let player = self.nodes[nd.first_child as usize].player as usize;
        let rate = if self.root_count > 100.0 {
            (self.root_sums[player] / self.root_count).max(0.1)
        } else {
            1.0
        };
        Some((best - second, rate))
    }

    /// The best line from the root (moves with the colours that make them): the moves with
    /// the most weighted wins.
    pub fn pv(&self, max_len: usize) -> Vec<(usize, u16)> {
        self.line_below(0, Vec::new(), max_len)
    }

    /// The line that starts with root move `m` and goes on along the best moves.
    pub fn pv_after(&self, m: u16, max_len: usize) -> Vec<(usize, u16)> {
        let nd = &self.nodes[0];
        let child = nd.children().find(|&i| self.nodes[i].mv == m);
        match child {
            Some(i) => {
                let first = (self.nodes[i].colour as usize, m);
                self.line_below(i, vec![first], max_len)
            }
            None => Vec::new(),
        }
    }

    /// `out` followed by the best moves (most weighted wins) below `node`, up to `max_len`
    /// moves in all.
    fn line_below(
        &self,
        node: usize,
        mut out: Vec<(usize, u16)>,
        max_len: usize,
    ) -> Vec<(usize, u16)> {
        let mut node = node;
        while out.len() < max_len {
            let nd = &self.nodes[node];
            if nd.nchildren == 0 {
                break;
            }
            let best = nd.children().max_by(|&a, &b| {
                let (value, nodes) = (&self.stats.value, &self.nodes);
                (value[a].total_cmp(&value[b])).then(nodes[a].real.cmp(&nodes[b].real))
            });
            let Some(best) = best else { break };
            if self.nodes[best].real == 0 && node != 0 {
                break;
            }
            out.push((self.nodes[best].colour as usize, self.nodes[best].mv));
            node = best;
        }
        out
    }

    /// Moves the root down the tree along `moves` (colour, move; passes are skipped), keeping
    /// the subtree below; `board` is the position after them. False (and the tree is unusable)
    /// if the tree does not know that line.
    pub fn reroot(&mut self, moves: &[(usize, u16)], board: &Board) -> bool {
        if !std::ptr::eq(board.tables(), self.root.tables()) {
            return false;
        }
        let mut node = 0usize;
        for &(c, m) in moves {
            if m == super::board::PASS {
                continue;
            }
            let nd = self.nodes[node];
            if !nd.expanded {
                return false;
            }
            let found = nd
                .children()
                .find(|&i| self.nodes[i].mv == m && self.nodes[i].colour as usize == c);
            let Some(next) = found else {
                return false;
            };
            node = next;
        }
        let mut root = board.clone();
        let mover = root.skip_to_mover();
        let nd = self.nodes[node];
        if nd.expanded && nd.nchildren > 0 {
            let first = self.nodes[nd.first_child as usize].colour as usize;
            if Some(first) != mover {
                return false;
            }
        }
        self.compact(node, 0);
        self.root = root;
        // The bonuses are relative to this search's simulations.
        self.quality = Quality::default();
        self.playouts = 0;
        // The last root's means stand in for the new root's, with the weight of at most
        // [`CARRIED_MEANS`] simulations, until its own simulations outweigh them.
        if self.root_count > CARRIED_MEANS {
            let scale = CARRIED_MEANS / self.root_count;
            self.root_sums = self.root_sums.map(|s| s * scale);
            self.root_count = CARRIED_MEANS;
        }
        true
    }

    /// Frees room in a full tree, as the reference engine does: the nodes with few real visits
    /// lose their children (and become leaves again, to be expanded afresh when visited
    /// enough), with the threshold doubled until the tree is at most half full.
    fn prune(&mut self) {
        let mut min_real = PRUNE_FIRST_COUNT;
        while self.nodes.len() > self.node_limit / 2 && min_real < u32::MAX / 2 {
            self.compact(0, min_real);
            min_real *= 2;
        }
    }

    /// Rebuilds the tree as the subtree under `top`, keeping the children of `top` and of the
    /// nodes with at least `min_real` real visits; the other expanded nodes become leaves. In
    /// place: a node's children lie after it, so the kept nodes move down in their order and
    /// the storage (its memory already touched) stays.
    fn compact(&mut self, top: usize, min_real: u32) {
        self.peak_nodes = self.peak_nodes.max(self.nodes.len());
        let kept = &mut self.kept;
        kept.clear();
        kept.resize(self.nodes.len().div_ceil(64), 0);
        let mark = |kept: &mut Vec<u64>, i: usize| kept[i >> 6] |= 1 << (i & 63);
        mark(kept, top);
        let mut stack = vec![top];
        while let Some(i) = stack.pop() {
            let nd = &mut self.nodes[i];
            if !nd.expanded || nd.nchildren == 0 {
                continue;
            }
            if i != top && nd.real < min_real {
                nd.expanded = false;
                nd.first_child = 0;
                nd.nchildren = 0;
                continue;
            }
            let children = nd.children();
            for k in children {
                mark(kept, k);
                stack.push(k);
            }
        }
        // A kept node's new place: the kept nodes before it.
        let mut before = Vec::with_capacity(kept.len());
        let mut n = 0u32;
        for &w in kept.iter() {
            before.push(n);
            n += w.count_ones();
        }
        let place =
            |i: usize| before[i >> 6] + (kept[i >> 6] & ((1u64 << (i & 63)) - 1)).count_ones();
        for (w, &word) in kept.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let mut nd = self.nodes[i];
                if nd.expanded && nd.nchildren > 0 {
                    nd.first_child = place(nd.first_child as usize);
                }
                let j = place(i) as usize;
                self.nodes[j] = nd;
                self.stats.copy(i, j);
            }
        }
        self.nodes.truncate(n as usize);
        self.stats.truncate(n as usize);
    }

    /// Tells the search the game's moves before the root (colour, move id or PASS), for the
    /// playouts' and priors' answers to the latest moves.
    pub fn set_history(&mut self, history: &[(usize, u16)]) {
        let mut moves: Vec<(u8, u16)> = history
            .iter()
            .filter(|&&(_, m)| m != super::board::PASS)
            .map(|&(c, m)| (c as u8, m))
            .collect();
        let skip = moves.len().saturating_sub(3);
        self.root_recent = moves.split_off(skip);
        self.recent = self.root_recent.clone();
    }

    /// Expands the root (so a best move exists) without any playout.
    pub fn ensure_root(&mut self) {
        if !self.nodes[0].expanded {
            let mut b = self.root.clone();
            // No descent to take the moves from.
            self.passed.clear();
            self.expand(0, &mut b);
        }
    }
}

/// A root move's mean result as the protocol's score, 0..=100 (the mean includes the quality
/// bonuses, hence the clamp).
fn protocol_score(mean: f32) -> i64 {
    (mean * 100.0).round().clamp(0.0, 100.0) as i64
}

/// The search under the iterative driver: iteration k runs a batch of playouts.
pub struct MctsSearch {
    /// The tree.
    pub mcts: Mcts,
    /// How many best lines each iteration reports (`MultiPV`): the best root moves.
    pub lines: usize,
    best: Option<u16>,
}

impl MctsSearch {
    /// A search of `root`.
    pub fn new(root: &Board, seed: u64) -> Self {
        Self::from_tree(Mcts::new(root, seed))
    }

    /// A search that goes on growing an existing tree.
    pub fn from_tree(mcts: Mcts) -> Self {
        MctsSearch {
            mcts,
            lines: 1,
            best: None,
        }
    }

    fn line(&self) -> (Vec<String>, i64) {
        let t = self.mcts.root.tables();
        let pv = self.mcts.pv(8);
        let stats = self.mcts.root_stats();
        let score = stats.first().map_or(0, |s| protocol_score(s.2));
        (pv.iter().map(|&(_, m)| t.move_name(m)).collect(), score)
    }

    /// The lines after the best one when several are asked for: the next best root moves,
    /// each with its own best continuation and mean result.
    fn other_lines(&self) -> Vec<(Vec<String>, i64)> {
        let t = self.mcts.root.tables();
        let stats = self.mcts.root_stats();
        stats
            .iter()
            .skip(1)
            .take(self.lines.saturating_sub(1))
            .map(|&(m, _, mean)| {
                let line = self.mcts.pv_after(m, 8);
                (
                    line.iter().map(|&(_, m)| t.move_name(m)).collect(),
                    protocol_score(mean),
                )
            })
            .collect()
    }

    /// True when the best move (the most weighted wins) is taken as settled: its lead in
    /// wins is more than the playouts left times the root's win rate (see
    /// [`Mcts::final_lead`]), the playouts counted exactly under a node budget and estimated
    /// (with a margin) from the rate so far under a deadline.
    fn decided(&self, control: &SearchControl, started: u64) -> bool {
        if self.mcts.playouts - started < 200 {
            return false;
        }
        let by_nodes = control.nodes_left(self.mcts.playouts).map(|n| n as f64);
        let elapsed = control.elapsed().as_secs_f64();
        let by_time = control
            .remaining()
            .filter(|_| elapsed >= 0.01)
            .map(|remaining| self.mcts.playouts as f64 / elapsed * remaining.as_secs_f64() * 1.2);
        let Some(left) = by_nodes.into_iter().chain(by_time).reduce(f64::min) else {
            return false;
        };
        if self.mcts.nodes[0].nchildren <= 1 {
            return true;
        }
        self.mcts
            .final_lead()
            .is_some_and(|(lead, rate)| lead as f64 > left * rate as f64)
    }
}

impl IterativeSearch for MctsSearch {
    fn iterate(
        &mut self,
        depth: u32,
        control: &SearchControl,
        progress: &mut Progress,
    ) -> Option<Iteration> {
        self.mcts.ensure_root();
        let batch = 64u64 << depth.min(12);
        let started = self.mcts.playouts;
        let mut complete = true;
        if self.mcts.root_stats().is_empty() {
            return Some(Iteration {
                pv: Vec::new(),
                score: 0,
                complete: false,
                others: Vec::new(),
            });
        }
        if depth == 1 {
            let (pv, score) = self.line();
            self.best = self.mcts.best_root_move();
            progress.improved(&pv, score, self.mcts.playouts);
        }
        for i in 0..batch {
            if control.must_stop(self.mcts.playouts) {
                complete = false;
                break;
            }
            self.mcts.run_once();
            if i % 32 == 31 {
                let best = self.mcts.best_root_move();
                if best != self.best {
                    self.best = best;
                    let (pv, score) = self.line();
                    progress.improved(&pv, score, self.mcts.playouts);
                } else {
                    progress.tick(self.mcts.playouts);
                }
                if self.decided(control, started.min(self.mcts.playouts)) {
                    complete = false;
                    break;
                }
            }
        }
        let (pv, score) = self.line();
        Some(Iteration {
            pv,
            score,
            complete,
            others: self.other_lines(),
        })
    }

    fn nodes(&self) -> u64 {
        self.mcts.playouts
    }

    fn lines(&self) -> usize {
        self.lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blokus::board::Variant;

    fn search(variant: Variant, seed: u64, playouts: usize) -> Vec<(u16, u32, f32)> {
        let mut m = Mcts::new(&Board::new(variant), seed);
        for _ in 0..playouts {
            m.run_once();
        }
        m.root_stats()
    }

    /// Colour `c`'s legal moves with five-square pieces.
    fn pentomino_moves(b: &mut Board, c: usize) -> usize {
        let mut out = Vec::new();
        b.gen_moves_sized(c, 5, 5, &mut MoveGen::new(b.tables()), &mut out);
        out.len()
    }

    #[test]
    fn same_seed_same_tree_and_only_legal_root_moves() {
        let a = search(Variant::Duo, 5, 300);
        let b = search(Variant::Duo, 5, 300);
        // The first moves are only the five-square pieces (of the 414 legal moves).
        let mut board = Board::new(Variant::Duo);
        let n5 = pentomino_moves(&mut board, 0);
        assert!(n5 < 414);
        assert_eq!(a.len(), n5);
        assert_eq!(
            a.iter().map(|s| (s.0, s.1)).collect::<Vec<_>>(),
            b.iter().map(|s| (s.0, s.1)).collect::<Vec<_>>()
        );
        assert_eq!(a.iter().map(|s| s.1 as usize).sum::<usize>(), 300);
        assert!(a.iter().all(|s| board.is_legal(0, s.0)));
        assert!(a[0].1 > 0);
        assert!(
            a.iter()
                .all(|s| board.tables().moves[s.0 as usize].size == 5)
        );
    }

    /// The best root move without sorting is the first of the sorted root moves.
    #[test]
    fn the_best_root_move_is_the_first_of_the_root_stats() {
        for (v, seed) in [
            (Variant::Duo, 3),
            (Variant::Classic, 4),
            (Variant::Trigon2, 5),
        ] {
            let mut m = Mcts::new(&Board::new(v), seed);
            assert_eq!(
                m.best_root_move(),
                None,
                "no root moves before the first visit"
            );
            for n in 0..300 {
                m.run_once();
                if n % 50 == 0 {
                    assert_eq!(m.best_root_move(), m.root_stats().first().map(|s| s.0));
                }
            }
        }
    }

    /// Every expanded node's children sorted by move find each child of theirs (and no other
    /// move), also after the tree is compacted; RAVE results only add to a node's weight: at
    /// least its prior's count and real visits, more for some.
    #[test]
    fn children_by_move_and_rave_results() {
        for (v, seed) in [(Variant::Duo, 8), (Variant::Three, 9)] {
            let mut m = Mcts::new(&Board::new(v), seed);
            // Small enough that the tree is compacted on the way.
            m.node_limit = EXPANSION_ROOM + 10_000;
            for _ in 0..200 {
                m.run_once();
            }
            let mut found = 0;
            for nd in m.nodes.iter().filter(|nd| nd.expanded) {
                let (first, n) = (nd.first_child as usize, nd.nchildren as usize);
                let children = &m.nodes[first..first + n];
                for (k, ch) in children.iter().enumerate() {
                    assert_eq!(m.stats.child_of(first, n, ch.mv), Some(k), "{v:?}");
                    let other = ch.mv ^ 1;
                    let place = children.iter().position(|c| c.mv == other);
                    assert_eq!(m.stats.child_of(first, n, other), place, "{v:?}");
                    found += 1;
                }
            }
            assert!(found > 1000, "{v:?}: {found}");
            let prior_and_real = |i: usize| PRIOR_COUNT + m.nodes[i].real as f32;
            let visits = &m.stats.visits;
            assert!((1..m.nodes.len()).all(|i| visits[i] >= prior_and_real(i)));
            assert!(
                (1..m.nodes.len()).any(|i| visits[i] > prior_and_real(i) + 0.01),
                "some move got RAVE results ({v:?})"
            );
        }
    }

    /// Many expansions past the opening's rounds (a quarter at least, in a shallow tree of four
    /// colours) take their moves from a node of the descent
    /// (each such list is checked against a new one under test, see
    /// [`Mcts::children_from_descent`]).
    #[test]
    fn expansions_bring_the_descents_moves_up_to_date() {
        for (v, seed, moves_before) in [
            (Variant::Duo, 3, 12),
            (Variant::Classic, 4, 12),
            (Variant::Trigon, 5, 40),
            (Variant::Nexos, 6, 12),
        ] {
            let mut b = Board::new(v);
            let t = b.tables();
            let (mut rng, mut mg, mut moves) = (Rng::new(seed), MoveGen::new(t), Vec::new());
            for _ in 0..moves_before {
                let Some(c) = b.skip_to_mover() else { break };
                moves.clear();
                b.gen_moves(c, &mut mg, &mut moves);
                b.play(c, moves[rng.below(moves.len())]);
            }
            let mut m = Mcts::new(&b, seed);
            for _ in 0..200 {
                m.run_once();
            }
            let expansions = m.nodes.iter().filter(|n| n.expanded).count() as u64;
            assert!(
                4 * m.from_descent > expansions,
                "{v:?}: {} of {expansions}",
                m.from_descent
            );
        }
    }

    #[test]
    fn playouts_end_games_in_every_variant() {
        for (_, v) in Variant::ALL {
            let stats = search(v, 1, 20);
            assert!(!stats.is_empty(), "{v:?}");
        }
    }

    #[test]
    fn the_tree_is_reused_along_the_moves_played() {
        let start = Board::new(Variant::Duo);
        let mut m = Mcts::new(&start, 2);
        for _ in 0..400 {
            m.run_once();
        }
        let best = m.root_stats()[0];
        let mut after = start.clone();
        after.play(0, best.0);
        let kept = m.nodes.len();
        let means = m.root_means().unwrap();
        assert!(m.reroot(&[(0, best.0)], &after));
        assert!(m.nodes.len() < kept);
        assert!(well_formed(&m));
        assert_eq!(m.playouts(), 0);
        assert_eq!(m.nodes[0].real, best.1, "the subtree keeps its visits");
        // The last root's means carry over, weighing 100 simulations.
        let carried = m.root_means().unwrap();
        assert!(means.iter().zip(carried).all(|(a, b)| (a - b).abs() < 1e-5));
        assert_eq!(m.root_count, CARRIED_MEANS);
        m.ensure_root();
        let stats = m.root_stats();
        assert_eq!(
            stats.len(),
            pentomino_moves(&mut after, 1),
            "white's first moves"
        );
        assert!(stats.iter().all(|s| after.is_legal(1, s.0)));
        m.run_once();
        assert_eq!(m.root_count, CARRIED_MEANS + 1.0);
        // A line the tree does not know is refused.
        let mut other = Mcts::new(&start, 2);
        let e10 = start.tables().parse_move("e10").unwrap();
        let mut b = start.clone();
        b.play(0, e10);
        b.play(1, start.tables().parse_move("j5").unwrap());
        assert!(!other.reroot(&[(0, e10), (1, 0)], &b));
    }

    /// Every expanded node's children lie inside the tree, after the root.
    fn well_formed(m: &Mcts) -> bool {
        m.nodes.iter().enumerate().all(|(i, n)| {
            !n.expanded
                || n.nchildren == 0
                || (n.first_child as usize > i && n.children().end <= m.nodes.len())
        })
    }

    #[test]
    fn a_full_tree_is_pruned_and_the_search_goes_on() {
        let start = Board::new(Variant::Duo);
        let mut m = Mcts::new(&start, 5);
        m.node_limit = EXPANSION_ROOM + 60_000;
        let mut pruned = false;
        let mut before = 0;
        for _ in 0..3000 {
            before = before.max(m.nodes.len());
            m.run_once();
            pruned |= m.nodes.len() < before;
            assert!(
                m.nodes.len() < m.node_limit,
                "the tree stays under its limit"
            );
        }
        assert!(pruned, "the limit was reached and the tree pruned");
        assert!(well_formed(&m));
        assert_eq!(m.playouts(), 3000);
        assert_eq!(m.nodes[0].real, 3000, "the root keeps every visit");
        let visits: u32 = m.root_stats().iter().map(|s| s.1).sum();
        assert_eq!(visits, 3000, "and its children theirs");
        let mut b = start.clone();
        assert!(m.root_stats().iter().all(|s| b.is_legal(0, s.0)));
        assert!(b.has_moves(0));
    }

    /// Under a node budget the search ends once the best move is settled, and
    /// answers the move a search to the whole budget answers.
    #[test]
    fn a_node_budget_ends_early_once_the_best_move_is_decided() {
        use crate::search::iterative::deepen;
        use crate::search::time::Budget;
        use std::sync::Arc;
        use std::sync::atomic::AtomicBool;
        let mut b = Board::new(Variant::Duo);
        let t = b.tables();
        let (mut rng, mut mg, mut moves) = (Rng::new(11), MoveGen::new(t), Vec::new());
        for _ in 0..20 {
            let Some(c) = b.skip_to_mover() else { break };
            moves.clear();
            b.gen_moves(c, &mut mg, &mut moves);
            b.play(c, moves[rng.below(moves.len())]);
        }
        let budget = 6000;
        let unlimited = Budget {
            soft: None,
            hard: None,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let control = SearchControl::new(stop, unlimited, Some(budget), None);
        let mut early = MctsSearch::new(&b, 7);
        let pv = deepen(&mut early, &control, &mut |_| {});
        assert!(early.mcts.playouts() < budget, "stopped early");
        let best = early.mcts.root_stats()[0].0;
        assert_eq!(pv[0], t.move_name(best));
        let mut full = Mcts::new(&b, 7);
        for _ in 0..budget {
            full.run_once();
        }
        assert_eq!(full.root_stats()[0].0, best, "the same move");
    }

    #[test]
    fn three_player_fourth_colour_rotates() {
        let mut b = Board::new(Variant::Three);
        assert_eq!(b.player_of(3), 0);
        let m = b.tables().parse_move("a1").unwrap();
        b.play(3, m);
        assert_eq!(b.player_of(3), 1);
        assert_eq!(
            b.player_points().len(),
            3,
            "the fourth colour scores for nobody"
        );
    }

    /// The root's moves, visits and values after `playouts` playouts from a position a few
    /// random moves into a game of `variant`.
    #[cfg(target_arch = "x86_64")]
    fn root_after(variant: Variant, playouts: usize) -> Vec<(u16, u32, f32)> {
        let mut b = Board::new(variant);
        let t = b.tables();
        let (mut rng, mut mg, mut moves) = (Rng::new(5), MoveGen::new(t), Vec::new());
        for _ in 0..2 * variant.ncolours() {
            let Some(c) = b.skip_to_mover() else { break };
            moves.clear();
            b.gen_moves(c, &mut mg, &mut moves);
            b.play(c, moves[rng.below(moves.len())]);
        }
        let mut m = Mcts::new(&b, 3);
        for _ in 0..playouts {
            m.run_once();
        }
        m.root_stats()
    }

    /// The x86-64-v3 copies (where this CPU has them, see `isa`) and the baseline ones search
    /// alike: the same visits and the same values, bit for bit.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn both_instruction_set_copies_search_alike() {
        for variant in [Variant::Duo, Variant::Classic, Variant::Trigon] {
            let fast = root_after(variant, 400);
            let baseline = isa::baseline_only(|| root_after(variant, 400));
            assert_eq!(fast.len(), baseline.len(), "{variant:?}");
            for (a, b) in fast.iter().zip(&baseline) {
                assert_eq!((a.0, a.1), (b.0, b.1), "{variant:?}");
                assert_eq!(a.2.to_bits(), b.2.to_bits(), "{variant:?}");
            }
            assert!(fast.iter().map(|s| s.1).sum::<u32>() > 0);
        }
    }
}
