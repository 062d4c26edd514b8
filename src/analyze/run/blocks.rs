//! An analysis counted apart, block by block: runs of consecutive blocks
//! ([`AnalysisRun::for_blocks`]) on threads or workers, their partial counts added up
//! ([`AnalysisRun::combine`]) into the report one pass gives (see `analyzer/blocks.rs`).

use super::{analyze, run_to_end, AnalysisRun, AnalyzeOptions};
use crate::analyze::analyzer::PartialAnalysis;
use crate::analyze::AnalysisReport;
use crate::design::DesignDocument;
use crate::error::{Error, ErrorKind, Result};
use crate::keyspec::opentsdb::numbers_in_order;
use crate::workload::{WorkloadSpec, BLOCK_RECORDS};

impl AnalysisRun {
    /// Blocks of this run's workload ([`BLOCK_RECORDS`] records each; at least 1): the
    /// units [`for_blocks`](Self::for_blocks) counts apart. 1 with auto-split, whose regions
    /// split as the writes arrive, and with a key that numbers names in the order records
    /// arrive (`uid(f, W)` without a table): both are counted in one pass.
    pub fn blocks(&self) -> u64 {
        if self.fed || self.one_pass {
            return 1;
        }
        blocks_of(self.stream.spec().records, !self.analyzer.is_blocked())
    }

    /// A run of `doc`'s workload over blocks `first..end` only (see [`blocks`](Self::blocks)):
    /// one of several runs, on threads or workers, whose [`partial`](Self::partial) counts
    /// [`combine`](Self::combine) adds up into the report one run of every block gives.
    pub fn for_blocks(
        doc: &DesignDocument,
        opts: &AnalyzeOptions,
        first: u64,
        end: u64,
    ) -> Result<AnalysisRun> {
        let mut run = AnalysisRun::new(doc, opts)?;
        run.fingerprint = Some(fingerprint(doc, opts));
        let blocks = run.blocks();
        if first >= end || end > blocks {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!("blocks {first}..{end}: this run has blocks 0..{blocks}"),
            ));
        }
        if first > 0 {
            run.analyzer.start_at_block(first)?;
        }
        let records = run.stream.spec().records;
        let (a, b) = (
            first.saturating_mul(BLOCK_RECORDS).min(records),
            end.saturating_mul(BLOCK_RECORDS).min(records),
        );
        run.stream.seek(a, b);
        run.total = b - a;
        Ok(run)
    }

    /// Hand over the second half of the blocks this run of blocks has not begun, for another
    /// run to count ([`for_blocks`](Self::for_blocks)): this run now ends where they begin.
    /// `Some((first, end))`, the blocks handed over; `None` when fewer than two blocks are left
    /// unbegun (this run keeps them: handing one over would not finish sooner). A block is never
    /// cut, so the partial counts still meet at block edges. Workers that end early take work
    /// from the busiest this way, so the run lasts as long as the average share, not the
    /// slowest (the page's counting workers share the cores with its other threads).
    pub fn cede_half(&mut self) -> Result<Option<(u64, u64)>> {
        if self.fingerprint.is_none() {
            return Err(Error::new(
                ErrorKind::IllegalState,
                "only a run of blocks (for_blocks) hands blocks over",
            ));
        }
        let (next, end) = (self.stream.position(), self.stream.end());
        let (from, to) = (next.div_ceil(BLOCK_RECORDS), end.div_ceil(BLOCK_RECORDS));
        let left = to.saturating_sub(from);
        if left < 2 {
            return Ok(None);
        }
        let cut = to - left / 2;
        let cut_record = cut.saturating_mul(BLOCK_RECORDS).min(end);
        self.stream.end_at(cut_record);
        self.total = self.total.saturating_sub(end - cut_record);
        Ok(Some((cut, to)))
    }

    /// What this run counted, as bytes another thread or worker can send to
    /// [`combine`](Self::combine). Not with auto-split (one pass).
    pub fn partial(&self) -> Result<Vec<u8>> {
        let Some(fingerprint) = self.fingerprint else {
            return Err(Error::new(
                ErrorKind::IllegalState,
                "partial counts come from a run of blocks (for_blocks)",
            ));
        };
        let p = self.analyzer.partial(fingerprint)?;
        let bytes = postcard::to_allocvec(&p).map_err(|e| {
            Error::new(
                ErrorKind::IllegalState,
                format!("the partial counts could not be written: {e}"),
            )
        })?;
        Ok(super::seal::seal(bytes))
    }

    /// The run of `doc`'s whole workload from the [`partial`](Self::partial) counts of runs
    /// that together counted each of its blocks once ([`for_blocks`](Self::for_blocks)), in
    /// any order: its report is the one a single run gives.
    pub fn combine(
        doc: &DesignDocument,
        opts: &AnalyzeOptions,
        parts: &[&[u8]],
    ) -> Result<AnalysisRun> {
        let mut run = AnalysisRun::new(doc, opts)?;
        let fingerprint = fingerprint(doc, opts);
        run.fingerprint = Some(fingerprint);
        // Each partial counts at least one block: more partials than blocks cannot add up.
        // Checked before any is read, so a list of 10^5 partials is refused, not decoded.
        let blocks = run.blocks();
        if parts.len() as u64 > blocks {
            return Err(crate::limits::limit_error(
                "partials",
                format!("{} partial analyses", parts.len()),
                format!("{blocks}, the blocks of this workload"),
                "each partial counts at least one block",
            ));
        }
        // Every checksum before any partial is decoded: a partial changed on its way is
        // refused as such, whatever its place, at the cost of hashing its bytes.
        for (i, bytes) in parts.iter().enumerate() {
            super::seal::unseal(i, bytes)?;
        }
        // Read one at a time (its first block, then again in block order to absorb it), so
        // memory holds one decoded partial beside the run, never all of them.
        let read = |i: usize, bytes: &[u8]| -> Result<PartialAnalysis> {
            let bytes = super::seal::unseal(i, bytes)?;
            let p: PartialAnalysis = postcard::from_bytes(bytes).map_err(|e| {
                Error::new(
                    ErrorKind::Invalid,
                    format!("partial {i} is not a partial analysis: {e}"),
                )
            })?;
            if p.fingerprint != fingerprint {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!("partial {i} counted another design or other options"),
                ));
            }
            Ok(p)
        };
        let mut order = Vec::with_capacity(parts.len());
        for (i, bytes) in parts.iter().enumerate() {
            order.push((read(i, bytes)?.first_block(), i));
        }
        order.sort_unstable();
        for (_, i) in order {
            let bytes = parts.get(i).copied().unwrap_or_default();
            run.analyzer.absorb(read(i, bytes)?)?;
        }
        let counted = run.analyzer.block();
        if counted != blocks {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!("the partial analyses count blocks 0..{counted} of 0..{blocks}"),
            ));
        }
        run.done = run.total;
        Ok(run)
    }
}

/// A hash of the document and options an analysis counts (their JSON text).
fn fingerprint(doc: &DesignDocument, opts: &AnalyzeOptions) -> u64 {
    serde_json::to_vec(&(doc, opts))
        .map(|b| xxhash_rust::xxh3::xxh3_64(&b))
        .unwrap_or(0)
}

/// [`analyze`] on `threads` threads (0: every core; one on wasm32, which has none), each
/// counting a run of consecutive blocks: the same report as [`analyze`], in less time when the
/// workload has several blocks and no auto-split.
pub fn analyze_parallel(
    doc: &DesignDocument,
    opts: &AnalyzeOptions,
    threads: u32,
) -> Result<AnalysisReport> {
    // From the document alone: a run made only to count them would cut a sampleQuantiles
    // pre-split once more than the runs that count (a bad document fails in those).
    let records = doc
        .workload
        .as_ref()
        .map_or_else(|| WorkloadSpec::default().records, |w| w.records);
    let one_pass = doc.regions.as_ref().is_some_and(|r| r.auto_split.is_some())
        || numbers_in_order(&doc.key.segments);
    let blocks = blocks_of(records, one_pass);
    let n = crate::support::threads::count(threads).min(usize::try_from(blocks).unwrap_or(1));
    if n <= 1 {
        return analyze(doc, opts);
    }
    let ranges = block_ranges(blocks, n);
    let parts = crate::support::threads::map(&ranges, n, &|&(a, b)| {
        run_to_end(AnalysisRun::for_blocks(doc, opts, a, b)?)?.partial()
    });
    let parts = parts.into_iter().collect::<Result<Vec<_>>>()?;
    let parts: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    Ok(AnalysisRun::combine(doc, opts, &parts)?.finish())
}

/// The blocks of a workload of `records` records: one with auto-split, which is one pass.
fn blocks_of(records: u64, one_pass: bool) -> u64 {
    if one_pass {
        1
    } else {
        records.div_ceil(BLOCK_RECORDS).max(1)
    }
}

/// `blocks` cut into `n` runs of consecutive blocks as even as can be.
pub fn block_ranges(blocks: u64, n: usize) -> Vec<(u64, u64)> {
    let n = (n as u64).clamp(1, blocks.max(1));
    (0..n)
        .map(|i| (blocks * i / n, blocks * (i + 1) / n))
        .filter(|(a, b)| a < b)
        .collect()
}
