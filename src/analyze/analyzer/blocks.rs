//! The analysis in blocks, so that it can be spread over threads or workers with the same
//! result as one pass.
//!
//! The workload restarts its random streams every
//! [`BLOCK_RECORDS`](crate::workload::BLOCK_RECORDS) records, so a block can be
//! generated on its own. Most of what the analyzer keeps does not depend on the order of the
//! writes: counters add up, HyperLogLog registers keep the larger value, the cell sample keeps
//! the smallest hashes with their counts; two counts of disjoint runs of blocks merge into
//! exactly the count of both. The key sample (Algorithm L) and the largest rows (filtered
//! space-saving) do depend on the order. Those two start afresh at every block, from a random
//! stream seeded by the block ([`BlockSketch`]), and blocks' sketches merge along a binary tree
//! fixed by the blocks' positions: the node over blocks `[j·2^l, (j+1)·2^l)` is the merge of
//! its two halves, and the run's sketch is its complete nodes merged left to right. One pass
//! over every block, or threads each counting a run of consecutive blocks, build the same
//! nodes, so the report is the same whatever the split. Auto-split is not cut in blocks: its
//! regions split as the writes arrive, so such a run is one pass.

use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

use super::largest::LargestRows;
use super::reservoir::Reservoir;
use crate::workload::block_seed;

/// What a block (or a run of blocks) leaves that depends on the order of its writes.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct BlockSketch {
    /// The key sample.
    pub(super) sample: Reservoir<Vec<u8>>,
    /// The largest rows.
    pub(super) largest: LargestRows,
}

impl BlockSketch {
    /// An empty sketch.
    pub(super) fn new(track_cells: bool) -> BlockSketch {
        BlockSketch {
            sample: Reservoir::default(),
            largest: LargestRows::new(track_cells),
        }
    }

    /// `self` then `later`, the sample kept to `cap` keys; `rng` draws the sample's merge.
    fn merge(self, later: BlockSketch, cap: usize, rng: &mut Xoshiro256PlusPlus) -> BlockSketch {
        let mut largest = self.largest;
        largest.merge(&later.largest);
        BlockSketch {
            sample: Reservoir::merge(self.sample, later.sample, cap, rng),
            largest,
        }
    }

    /// Bytes of the keys its sample holds.
    pub(super) fn sample_bytes(&self) -> usize {
        self.sample.items.iter().map(Vec::len).sum()
    }
}

/// A node of the tree: the sketch of blocks `[index << level, (index + 1) << level)`.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Node {
    level: u32,
    index: u64,
    sketch: BlockSketch,
}

/// The random stream a merge draws from: seeded by the analysis seed and the node it makes
/// (`level` `u32::MAX`: the final left-to-right merge, by the right operand's first block).
fn merge_rng(seed: u64, level: u32, index: u64) -> Xoshiro256PlusPlus {
    let node = (u64::from(level) << 48) ^ index;
    Xoshiro256PlusPlus::seed_from_u64(block_seed(
        seed ^ 0x5eed_b10c_5eed_b10c,
        node.wrapping_add(1),
    ))
}

/// The complete nodes of the blocks counted so far, left to right: consecutive blocks pushed
/// one by one leave the largest aligned nodes they fill (as a binary counter's carries).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(super) struct SketchTree {
    nodes: Vec<Node>,
}

impl SketchTree {
    /// Add the sketch of block `block`, which follows the blocks already pushed.
    pub(super) fn push_block(&mut self, block: u64, sketch: BlockSketch, cap: usize, seed: u64) {
        self.push(
            Node {
                level: 0,
                index: block,
                sketch,
            },
            cap,
            seed,
        );
    }

    /// Add `node`, which follows the nodes already pushed, merging it with its left sibling
    /// while there is one.
    fn push(&mut self, mut node: Node, cap: usize, seed: u64) {
        while let Some(top) = self.nodes.last() {
            let sibling = top.level == node.level
                && top.index % 2 == 0
                && top.index.checked_add(1) == Some(node.index);
            if !sibling {
                break;
            }
            let Some(left) = self.nodes.pop() else {
                break;
            };
            let (level, index) = (node.level.saturating_add(1), left.index / 2);
            let mut rng = merge_rng(seed, level, index);
            node = Node {
                level,
                index,
                sketch: left.sketch.merge(node.sketch, cap, &mut rng),
            };
        }
        self.nodes.push(node);
    }

    /// Add every node of `later`, whose blocks follow these.
    pub(super) fn append(&mut self, later: SketchTree, cap: usize, seed: u64) {
        for n in later.nodes {
            self.push(n, cap, seed);
        }
    }

    /// No block pushed yet.
    pub(super) fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The first block after the blocks pushed (0 when none).
    pub(super) fn end_block(&self) -> u64 {
        self.nodes.last().map_or(0, |n| {
            n.index
                .saturating_add(1)
                .checked_shl(n.level)
                .unwrap_or(u64::MAX)
        })
    }

    /// The first block pushed (0 when none).
    pub(super) fn first_block(&self) -> u64 {
        self.nodes
            .first()
            .map_or(0, |n| n.index.checked_shl(n.level).unwrap_or(u64::MAX))
    }

    /// Bytes of the keys the nodes' samples hold.
    pub(super) fn sample_bytes(&self) -> usize {
        self.nodes.iter().map(|n| n.sketch.sample_bytes()).sum()
    }

    /// The sketch of every block pushed: the nodes merged left to right.
    pub(super) fn total(self, cap: usize, seed: u64) -> Option<BlockSketch> {
        let mut nodes = self.nodes.into_iter();
        let first = nodes.next()?;
        Some(nodes.fold(first.sketch, |acc, n| {
            let block = n.index.checked_shl(n.level).unwrap_or(u64::MAX);
            let mut rng = merge_rng(seed, u32::MAX, block);
            acc.merge(n.sketch, cap, &mut rng)
        }))
    }
}
