//! The analysis in blocks, so that it can be spread over threads or workers with the same
//! result as one pass.
//!
//! The workload restarts its random streams every
//! [`BLOCK_RECORDS`](crate::workload::BLOCK_RECORDS) records, so a block can be
//! generated on its own. Most of what the analyzer keeps does not depend on the order of the
//! writes: counters add up, HyperLogLog registers keep the larger value, the cell sample keeps
//! the smallest hashes with their counts; two counts of disjoint runs of blocks merge into
//! exactly the count of both; the key sample keeps the smallest priorities, a hash of each write's
//! position. The largest rows (filtered space-saving) do depend on the order. They start afresh
//! at every block, and blocks' sketches merge along a binary tree fixed by the
//! blocks' positions: the node over blocks `[j·2^l, (j+1)·2^l)` is the merge of
//! its two halves, and the run's sketch is its complete nodes merged left to right. One pass
//! over every block, or threads each counting a run of consecutive blocks, build the same
//! nodes, so the report is the same whatever the split. Auto-split is not cut in blocks: its
//! regions split as the writes arrive, so such a run is one pass.

use serde::{Deserialize, Serialize};

use super::largest::LargestRows;

/// A node of the tree: the largest rows of blocks `[index << level, (index + 1) << level)`.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Node {
    level: u32,
    index: u64,
    largest: LargestRows,
}

/// The complete nodes of the blocks counted so far, left to right: consecutive blocks pushed
/// one by one leave the largest aligned nodes they fill (as a binary counter's carries).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(super) struct SketchTree {
    nodes: Vec<Node>,
}

impl SketchTree {
    /// Add the largest rows of block `block`, which follows the blocks already pushed.
    pub(super) fn push_block(&mut self, block: u64, largest: LargestRows) {
        self.push(Node {
            level: 0,
            index: block,
            largest,
        });
    }

    /// Add `node`, which follows the nodes already pushed, merging it with its left sibling
    /// while there is one.
    fn push(&mut self, mut node: Node) {
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
            let mut largest = left.largest;
            largest.merge(&node.largest);
            node = Node {
                level: node.level.saturating_add(1),
                index: left.index / 2,
                largest,
            };
        }
        self.nodes.push(node);
    }

    /// Add every node of `later`, whose blocks follow these.
    pub(super) fn append(&mut self, later: SketchTree) {
        for n in later.nodes {
            self.push(n);
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

    /// The largest rows of every block pushed: the nodes merged left to right.
    pub(super) fn total(self) -> Option<LargestRows> {
        let mut nodes = self.nodes.into_iter();
        let mut total = nodes.next()?.largest;
        for n in nodes {
            total.merge(&n.largest);
        }
        Some(total)
    }
}
