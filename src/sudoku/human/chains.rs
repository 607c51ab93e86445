//! Chains: X-Chain (one digit), XY-Chain (bivalue cells), and AIC (any strong and weak links).
//!
//! An alternating inference chain starts at a candidate assumed false and alternates strong
//! links (if one is false the other is true: the two places of a digit in a unit, the two digits
//! of a cell) and weak links (if one is true the other is false: same cell, or same digit in
//! cells that see each other), ending on a strong link. Then the first or the last candidate is
//! true, and any candidate weakly linked to both is false. The search is breadth first from each
//! start, so the shortest chain of a start is found first; of all starts' chains the
//! one removing the most candidates is taken.
use super::board::{Board, bit, digits};
use super::step::Step;
use super::technique::Technique;
use crate::sudoku::value_char;

/// A candidate: `cell * N + digit - 1`.
type Node = usize;

/// A chain's candidates, and the candidates it removes.
type Found = (Vec<Node>, Vec<(usize, u8)>);

/// Which links a chain kind may use.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// One digit: strong links in units, weak links between cells.
    X,
    /// Strong links inside bivalue cells, weak links between cells on one digit.
    Xy,
    /// Every link.
    Any,
}

struct Chains<'a> {
    board: &'a Board,
    kind: Kind,
    n: usize,
}

impl Chains<'_> {
    fn cell(&self, node: Node) -> usize {
        node / self.n
    }

    fn digit(&self, node: Node) -> u8 {
        (node % self.n) as u8 + 1
    }

    fn node(&self, cell: usize, digit: u8) -> Node {
        cell * self.n + digit as usize - 1
    }

    /// The candidates a false `node` makes true.
    fn strong(&self, node: Node, out: &mut Vec<Node>) {
        let (cell, digit) = (self.cell(node), self.digit(node));
        let b = self.board;
        if self.kind != Kind::X && b.cands(cell).count_ones() == 2 {
            let other = digits(b.cands(cell) & !bit(digit))
                .next()
                .expect("two digits");
            out.push(self.node(cell, other));
        }
        if self.kind != Kind::Xy {
            for unit in b.units_of(cell) {
                let mut places = b.places(unit, digit).filter(|&c| c != cell);
                if let (Some(other), None) = (places.next(), places.next()) {
                    out.push(self.node(other, digit));
                }
            }
        }
    }

    /// The candidates a true `node` makes false.
    fn weak(&self, node: Node, out: &mut Vec<Node>) {
        let (cell, digit) = (self.cell(node), self.digit(node));
        let b = self.board;
        if self.kind == Kind::Any {
            for d in digits(b.cands(cell) & !bit(digit)) {
                out.push(self.node(cell, d));
            }
        }
        for &p in b.peers(cell) {
            let p = p as usize;
            let wanted = self.kind != Kind::Xy || b.cands(p).count_ones() == 2;
            if wanted && b.has(p, digit) {
                out.push(self.node(p, digit));
            }
        }
    }

    /// True if `a` being true makes `b` false.
    fn weakly_linked(&self, a: Node, b: Node) -> bool {
        let (ca, cb) = (self.cell(a), self.cell(b));
        a != b && ((ca == cb) || (self.digit(a) == self.digit(b) && self.board.sees(ca, cb)))
    }

    /// The candidates weakly linked to both ends, off the chain.
    fn eliminations(&self, start: Node, end: Node, chain: &[Node]) -> Vec<(usize, u8)> {
        let b = self.board;
        let mut out = Vec::new();
        let mut consider = |cell: usize, digit: u8| {
            let x = self.node(cell, digit);
            if b.has(cell, digit)
                && !chain.contains(&x)
                && self.weakly_linked(x, start)
                && self.weakly_linked(x, end)
                && !out.contains(&(cell, digit))
            {
                out.push((cell, digit));
            }
        };
        let (cs, ce) = (self.cell(start), self.cell(end));
        if cs == ce {
            for d in digits(b.cands(cs)) {
                consider(cs, d);
            }
        } else if self.digit(start) == self.digit(end) {
            for &p in b.peers(cs) {
                consider(p as usize, self.digit(start));
            }
        } else {
            consider(cs, self.digit(end));
            consider(ce, self.digit(start));
        }
        out
    }

    /// The shortest productive chain from `start` (assumed false), as its nodes.
    fn from(&self, start: Node, parent: &mut [u32]) -> Option<Found> {
        parent.fill(u32::MAX);
        // State 2 * node + 1: node true; 2 * node: node false.
        let mut queue = vec![2 * start];
        parent[2 * start] = 2 * start as u32;
        let mut next = 0;
        let mut links = Vec::new();
        while next < queue.len() {
            let state = queue[next];
            next += 1;
            let (node, on) = (state / 2, state % 2 == 1);
            links.clear();
            if on {
                self.weak(node, &mut links);
            } else {
                self.strong(node, &mut links);
            }
            for &to in &links {
                let to_state = 2 * to + usize::from(!on);
                if parent[to_state] != u32::MAX {
                    continue;
                }
                parent[to_state] = state as u32;
                queue.push(to_state);
                if on || to == start {
                    continue;
                }
                let same_digit = self.digit(to) == self.digit(start);
                if self.kind == Kind::Xy && (!same_digit || self.cell(to) == self.cell(start)) {
                    continue;
                }
                // The chain is only walked back for ends that remove something.
                if self.eliminations(start, to, &[]).is_empty() {
                    continue;
                }
                let chain = self.walk_back(to_state, parent);
                let eliminations = self.eliminations(start, to, &chain);
                if !eliminations.is_empty() {
                    return Some((chain, eliminations));
                }
            }
        }
        None
    }

    fn walk_back(&self, mut state: usize, parent: &[u32]) -> Vec<Node> {
        let mut chain = vec![state / 2];
        while parent[state] as usize != state {
            state = parent[state] as usize;
            chain.push(state / 2);
        }
        chain.reverse();
        chain
    }

    /// `(r1c2)5=(r1c7)5-(r3c8)5=(r3c2)5`: the chain in Eureka-like notation.
    fn notation(&self, chain: &[Node]) -> String {
        let mut text = String::new();
        for (i, &node) in chain.iter().enumerate() {
            if i > 0 {
                text.push(if i % 2 == 1 { '=' } else { '-' });
            }
            text.push_str(&format!(
                "({}){}",
                self.board.cell_name(self.cell(node)),
                value_char(self.digit(node))
            ));
        }
        text
    }
}

/// The chain of `technique`'s kind (X-Chain, XY-Chain or AIC) that removes the most candidates
/// (the shortest of those first found), as HoDoKu picks among chains.
pub fn chain(board: &Board, technique: Technique) -> Option<Step> {
    let kind = match technique {
        Technique::XChain => Kind::X,
        Technique::XyChain => Kind::Xy,
        _ => Kind::Any,
    };
    let n = board.size();
    let chains = Chains { board, kind, n };
    let mut parent = vec![u32::MAX; 2 * board.cells() * n];
    let mut best: Option<Found> = None;
    for cell in 0..board.cells() {
        if kind == Kind::Xy && board.cands(cell).count_ones() != 2 {
            continue;
        }
        for digit in digits(board.cands(cell)) {
            let start = chains.node(cell, digit);
            if let Some(found) = chains.from(start, &mut parent) {
                let better = best.as_ref().is_none_or(|(chain, elims)| {
                    (found.1.len(), std::cmp::Reverse(found.0.len()))
                        > (elims.len(), std::cmp::Reverse(chain.len()))
                });
                if better {
                    best = Some(found);
                }
            }
        }
    }
    let (chain, eliminations) = best?;
    let cells: Vec<usize> = chain.iter().map(|&x| chains.cell(x)).collect();
    let reason = || format!("{}: one end is true", chains.notation(&chain));
    Step::eliminating(technique, eliminations, cells, reason)
}

#[cfg(test)]
mod tests {
    use super::super::board::board_with;
    use super::*;

    #[test]
    fn xy_chain_through_bivalue_cells() {
        // r1c1 {1,2} - r1c5 {2,3} - r5c5 {3,1}: r1c1 or r5c5 is 1, so r5c1 is not.
        let b = board_with(&[(0, 0b011), (4, 0b110), (40, 0b101)]);
        let step = chain(&b, Technique::XyChain).unwrap();
        assert_eq!(step.technique, Technique::XyChain);
        assert_eq!(step.eliminations, vec![(36, 1)]);
        assert!(step.reason.starts_with('('), "{}", step.reason);
        // Every AIC step is sound here too: 1 leaves r5c1 (and nothing the chain needs).
        let aic = chain(&b, Technique::Aic).unwrap();
        assert!(!aic.eliminations.is_empty());
    }

    #[test]
    fn x_chain_on_one_digit() {
        // 4 of row 1 only at c1, c5; of row 6 only at c1, c6 (a skyscraper): r2c6, r3c6, r4c5
        // and r5c5 lose 4.
        let mut cands = Vec::new();
        for (row, keep) in [(0, [0, 4]), (5, [45, 50])] {
            for cell in row * 9..row * 9 + 9 {
                if !keep.contains(&cell) {
                    cands.push((cell, 0x1ff & !(1 << 3)));
                }
            }
        }
        let b = board_with(&cands);
        let step = chain(&b, Technique::XChain).unwrap();
        let mut removed = step.eliminations.clone();
        removed.sort_unstable();
        assert_eq!(removed, [14, 23, 31, 40].map(|c| (c, 4)).to_vec());
    }
}
