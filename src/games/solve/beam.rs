//! The beam search a long exhaustive search pauses for ([`Shared::beam`]).

use super::*;

/// A beam search's node: a position, its canonical form, its score (lower is better), and
/// the index of its parent in the layer before with the jump that leads here.
#[derive(Clone, Copy)]
pub(super) struct BeamChild<K> {
    pub(super) key: K,
    pub(super) pos: K,
    pub(super) score: i32,
    pub(super) parent: u32,
    pub(super) jump: u16,
}

impl<K: Bits> Shared<K> {
    /// The heuristic a beam search ranks positions by: the number of adjacent pairs of
    /// holes with a peg in one and not the other (the length of the boundary between pegs
    /// and holes; compact groups of pegs are easier to clear). Lower is better. It only
    /// orders the beam: a game the beam finds is a game whatever the heuristic. (Adding the
    /// pegs' squared distance to the goal made wiegleb's beam slower: docs/experiments.md,
    /// "Figures that were in code comments".)
    pub(super) fn score(&self, pos: K) -> i32 {
        let mut s = 0;
        for &(a, b) in &self.pairs {
            let (x, y) = (pos & K::bit(a) != K::zero(), pos & K::bit(b) != K::zero());
            s += i32::from(x != y);
        }
        s
    }

    /// A beam search of width `width`: layer by layer from `start`, the children of the
    /// kept positions that no pagoda function rules out, each canonical form once, and of
    /// those the `width` best by [`Shared::score`] (ties by canonical form, so that the
    /// beam, and the game it finds, do not depend on the number of threads). Returns a
    /// game reaching the goal, or `None` when the beam empties first, which proves nothing.
    pub(super) fn beam(&self, start: K, width: usize) -> Option<Vec<u16>> {
        use rayon::prelude::*;
        let mut links: Vec<Vec<(u32, u16)>> = Vec::new();
        let mut frontier: Vec<(K, [i64; PAGODAS])> = vec![(start, self.weights(start))];
        // `links[k]`: per position of layer `k + 1`, its parent in layer `k` and the jump.
        let path = |links: &[Vec<(u32, u16)>], mut at: u32, last: u16| {
            let mut jumps = vec![last];
            for layer in links.iter().rev() {
                let (parent, jump) = layer[at as usize];
                jumps.push(jump);
                at = parent;
            }
            jumps.reverse();
            jumps
        };
        while !frontier.is_empty() {
            let mut children: Vec<BeamChild<K>> = frontier
                .par_iter()
                .enumerate()
                .flat_map_iter(|(i, &(pos, weights))| {
                    let img = self.moves.images(pos, self.moves.subgroup_order());
                    let mut out = Vec::new();
                    self.moves.each_jump(pos, |j| {
                        if self.hopeless(&self.child_weights(&weights, j)) {
                            return;
                        }
                        let child = pos ^ self.moves.mask(j);
                        let key = self.moves.canonical_child(&img, j);
                        if child.count_ones() > self.goal_pegs && self.table.contains(key.to_u128())
                        {
                            return;
                        }
                        out.push(BeamChild {
                            key,
                            pos: child,
                            score: self.score(child),
                            parent: i as u32,
                            jump: j as u16,
                        });
                    });
                    out
                })
                .collect();
            if children.is_empty() {
                return None;
            }
            if children[0].pos.count_ones() <= self.goal_pegs {
                let mut met: Vec<&BeamChild<K>> =
                    children.iter().filter(|c| self.met(c.pos)).collect();
                met.sort_unstable_by_key(|c| (c.parent, c.jump));
                return met.first().map(|c| path(&links, c.parent, c.jump));
            }
            children.par_sort_unstable_by_key(|c| (c.key, c.parent, c.jump));
            children.dedup_by_key(|c| c.key);
            if children.len() > width {
                children.select_nth_unstable_by_key(width, |c| (c.score, c.key));
                children.truncate(width);
                children.par_sort_unstable_by_key(|c| c.key);
            }
            links.push(children.iter().map(|c| (c.parent, c.jump)).collect());
            frontier = children
                .par_iter()
                .map(|c| {
                    let weights = &frontier[c.parent as usize].1;
                    (c.pos, self.child_weights(weights, c.jump as usize))
                })
                .collect();
        }
        None
    }
}
