//! An analyzer's blocks: where one ends and the next begins, and what a run of blocks counted
//! ([`PartialAnalysis`]), to be added to the counts of the runs before and after it (see
//! `blocks.rs` for why the result is the same as one pass).

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use super::*;
use crate::error::{Error, ErrorKind};
use crate::workload::BLOCK_RECORDS;

/// What an analyzer counted over a run of consecutive blocks, to be added to another
/// analyzer's counts of the same design and options ([`Analyzer::absorb`]). Sent between
/// threads or workers as bytes ([`AnalysisRun::partial`](crate::analyze::AnalysisRun::partial)).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PartialAnalysis {
    /// Identifies the design and options counted (the run sets it; absorbing a partial of
    /// another design is refused).
    pub fingerprint: u64,
    writes: u64,
    bytes: u64,
    outside: u64,
    regions: Vec<RegionCounts>,
    server_windows: Vec<u64>,
    server_rows: Vec<u64>,
    server_bytes: Vec<u64>,
    distinct: Distinct,
    cells: Distinct,
    cell_sample: CellSample,
    sample: KeySample,
    grid: Vec<u64>,
    tree: SketchTree,
    /// The rows counted exactly; `None` without exact counting or past its cap.
    exact: Option<Box<ExactRows>>,
}

/// One region's counts in a [`PartialAnalysis`].
#[derive(Debug, Clone, Serialize, Deserialize)]
struct RegionCounts {
    rows: u64,
    bytes: u64,
    windows: Vec<u64>,
    distinct: Distinct,
    cells: Distinct,
}

impl PartialAnalysis {
    /// The first block it counted.
    pub fn first_block(&self) -> u64 {
        self.tree.first_block()
    }

    /// The block after the last it counted.
    pub fn end_block(&self) -> u64 {
        self.tree.end_block()
    }
}

fn mismatch(what: &str) -> Error {
    Error::new(
        ErrorKind::Invalid,
        format!("a partial analysis of another layout or options: its {what} differ"),
    )
}

/// `a[i] += b[i]` (saturating) when both have the same length.
fn add_all(a: &mut [u64], b: &[u64], what: &str) -> Result<()> {
    if a.len() != b.len() {
        return Err(mismatch(what));
    }
    for (x, y) in a.iter_mut().zip(b) {
        *x = x.saturating_add(*y);
    }
    Ok(())
}

impl Analyzer {
    /// Whether this analyzer counts in blocks (not with auto-split).
    pub fn is_blocked(&self) -> bool {
        self.opts.auto_split.is_none()
    }

    /// Writes counted in the current block.
    fn block_writes(&self) -> u64 {
        if self.is_blocked() {
            BLOCK_RECORDS.saturating_sub(self.block_left)
        } else {
            self.writes
        }
    }

    /// The block being counted ends: its sketch joins the tree and the next block begins.
    #[cold]
    #[inline(never)]
    pub(super) fn next_block(&mut self) {
        let done = std::mem::replace(
            &mut self.largest,
            LargestRows::new(self.opts.versions.is_some()),
        );
        self.tree.push_block(self.block, done);
        self.begin_block(self.block.saturating_add(1));
    }

    /// Count block `block` from now on: an empty sketch of the largest rows, the stream's
    /// position at the block's first record.
    fn begin_block(&mut self, block: u64) {
        self.block = block;
        self.block_left = BLOCK_RECORDS;
        self.next_index = block.saturating_mul(BLOCK_RECORDS);
        self.largest = LargestRows::new(self.opts.versions.is_some());
    }

    /// Count from block `block` on (its first write is the block's first record), as one of
    /// several analyzers that each count a run of consecutive blocks. Only before any write,
    /// and not with auto-split.
    pub fn start_at_block(&mut self, block: u64) -> Result<()> {
        if !self.is_blocked() {
            return Err(Error::new(
                ErrorKind::IllegalState,
                "a run with auto-split is counted in one pass, from its first record",
            ));
        }
        if self.writes > 0 || !self.tree.is_empty() {
            return Err(Error::new(
                ErrorKind::IllegalState,
                "an analyzer starts at a block before its first write",
            ));
        }
        self.begin_block(block);
        Ok(())
    }

    /// The largest rows over every block counted.
    pub(super) fn final_largest(&self) -> Cow<'_, LargestRows> {
        if self.tree.is_empty() {
            return Cow::Borrowed(&self.largest);
        }
        let mut tree = self.tree.clone();
        if self.block_writes() > 0 {
            tree.push_block(self.block, self.largest.clone());
        }
        tree.total()
            .map_or(Cow::Borrowed(&self.largest), Cow::Owned)
    }

    /// What this analyzer counted, to be [absorbed](Self::absorb) by another.
    pub fn partial(&self, fingerprint: u64) -> Result<PartialAnalysis> {
        if !self.is_blocked() {
            return Err(Error::new(
                ErrorKind::IllegalState,
                "a run with auto-split is counted in one pass: it has no partial counts",
            ));
        }
        let mut tree = self.tree.clone();
        if self.block_writes() > 0 || tree.is_empty() {
            tree.push_block(self.block, self.largest.clone());
        }
        Ok(PartialAnalysis {
            fingerprint,
            writes: self.writes,
            bytes: self.bytes,
            outside: self.outside,
            regions: self
                .regions
                .iter()
                .map(|r| RegionCounts {
                    rows: r.rows,
                    bytes: r.bytes,
                    windows: r.windows.clone(),
                    distinct: r.distinct.clone(),
                    cells: r.cells.clone(),
                })
                .collect(),
            server_windows: self.server_windows.clone(),
            server_rows: self.server_rows.clone(),
            server_bytes: self.server_bytes.clone(),
            distinct: self.distinct.clone(),
            cells: self.cells.clone(),
            cell_sample: self.cell_sample.clone(),
            sample: self.sample.clone(),
            grid: self.grid.clone(),
            tree,
            exact: self.exact.clone(),
        })
    }

    /// Add the counts of `p`, whose blocks follow those counted here (the first partial
    /// absorbed by an analyzer without writes starts at block 0). Afterwards this analyzer
    /// stands at the start of the block after `p`'s.
    pub fn absorb(&mut self, p: PartialAnalysis) -> Result<()> {
        if !self.is_blocked() {
            return Err(Error::new(
                ErrorKind::IllegalState,
                "a run with auto-split is counted in one pass: it takes no partial counts",
            ));
        }
        if self.block_writes() > 0 {
            return Err(Error::new(
                ErrorKind::IllegalState,
                "partial counts are added between blocks, not in the middle of one",
            ));
        }
        let expected = if self.tree.is_empty() {
            0
        } else {
            self.tree.end_block()
        };
        if p.first_block() != expected {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!(
                    "partial analyses must follow each other: blocks from {expected} expected, got blocks {}..{}",
                    p.first_block(),
                    p.end_block()
                ),
            ));
        }
        self.add_counts(&p)?;
        // Exact only while both are: a run past the cap alone puts the union past it.
        self.exact = match (self.exact.take(), p.exact) {
            (Some(mut a), Some(b)) => a.merge(&b).then_some(a),
            _ => None,
        };
        self.tree.append(p.tree);
        self.begin_block(self.tree.end_block());
        self.sample_bytes.set(self.sample.bytes());
        Ok(())
    }
}

/// A user's rows counted apart at their positions ([`Analyzer::start_at_row`],
/// [`Analyzer::absorb_rows`]): every count, the HyperLogLog registers, the cell sample, the
/// key sample (its priorities hash each row's position in the table) and the exact rows merge
/// into what one pass over the table counts, in any order and any tree of merges. The
/// largest-rows sketch does not (it depends on the order of the writes): while the rows are
/// counted exactly the report gives the exact largest rows, the same as one pass's; past the
/// cap both give the sketch's estimates with their bounds (`largestRowsExact: false`), one
/// pass's from its blocks, a merge's from the chunks' sketches merged, which are other
/// estimates of the same rows, each within its bounds.
impl Analyzer {
    /// Count from the table's row `index` on (0-based, in the order a single pass would read
    /// the rows): its key sample priorities and block follow from it. Only before any write,
    /// and not with auto-split.
    pub fn start_at_row(&mut self, index: u64) -> Result<()> {
        self.start_at_block(index / BLOCK_RECORDS)?;
        self.next_index = index;
        self.block_left = BLOCK_RECORDS - index % BLOCK_RECORDS;
        Ok(())
    }

    /// Add the counts of `p`, a partial of rows at other positions of the same table
    /// ([`start_at_row`](Self::start_at_row)), in any order. The largest-rows sketches are
    /// merged too, for when the exact rows pass the cap. Nothing is added when it is refused.
    pub fn absorb_rows(&mut self, p: PartialAnalysis) -> Result<()> {
        if !self.is_blocked() {
            return Err(Error::new(
                ErrorKind::IllegalState,
                "a run with auto-split is counted in one pass: it takes no partial counts",
            ));
        }
        // Exact only while both are: a run past the cap alone puts the union past it.
        let exact = match (self.exact.as_deref(), p.exact.as_deref()) {
            (Some(mine), Some(theirs)) => {
                let mut e = mine.clone();
                e.merge(theirs).then_some(e)
            }
            _ => None,
        };
        // Added into a copy (without the exact rows, merged above), so a refused partial
        // leaves this analyzer as it was.
        let held = self.exact.take();
        match self.clone().absorbed_rows(&p) {
            Ok(mut merged) => {
                merged.exact = exact.map(Box::new);
                *self = merged;
                Ok(())
            }
            Err(e) => {
                self.exact = held;
                Err(e)
            }
        }
    }

    /// `p`'s counts and mergeable sketches added to this analyzer's: what both ways of taking
    /// a partial ([`absorb`](Self::absorb), [`absorb_rows`](Self::absorb_rows)) add alike.
    fn add_counts(&mut self, p: &PartialAnalysis) -> Result<()> {
        if p.regions.len() != self.regions.len() {
            return Err(mismatch("regions"));
        }
        for (r, c) in self.regions.iter_mut().zip(&p.regions) {
            add_all(&mut r.windows, &c.windows, "windows")?;
            r.rows = r.rows.saturating_add(c.rows);
            r.bytes = r.bytes.saturating_add(c.bytes);
            if !r.distinct.merge(&c.distinct) || !r.cells.merge(&c.cells) {
                return Err(mismatch("sketches"));
            }
        }
        add_all(&mut self.server_windows, &p.server_windows, "servers")?;
        add_all(&mut self.server_rows, &p.server_rows, "servers")?;
        add_all(&mut self.server_bytes, &p.server_bytes, "servers")?;
        add_all(&mut self.grid, &p.grid, "grid buckets")?;
        if !self.distinct.merge(&p.distinct)
            || !self.cells.merge(&p.cells)
            || !self.cell_sample.merge(&p.cell_sample)
            || !self.sample.merge(&p.sample)
        {
            return Err(mismatch("sketches"));
        }
        self.writes = self.writes.saturating_add(p.writes);
        self.bytes = self.bytes.saturating_add(p.bytes);
        self.outside = self.outside.saturating_add(p.outside);
        Ok(())
    }

    /// `self` with `p`'s counts and sketches added (all but the exact rows).
    fn absorbed_rows(mut self, p: &PartialAnalysis) -> Result<Analyzer> {
        self.add_counts(p)?;
        // This analyzer's own sketch (its tree's blocks, then the block being counted) and
        // `p`'s, merged: rows the sketches of apart chunks monitored, with their bounds.
        let mut tree = std::mem::take(&mut self.tree);
        if self.block_writes() > 0 || tree.is_empty() {
            tree.push_block(self.block, self.largest.clone());
        }
        let mut largest = tree.total().unwrap_or_else(|| self.largest.clone());
        if let Some(theirs) = p.tree.clone().total() {
            largest.merge(&theirs);
        }
        self.largest = largest;
        self.sample_bytes.set(self.sample.bytes());
        Ok(self)
    }
}
