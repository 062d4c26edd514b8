//! A file of rows read in chunks by several workers, each with its own engine: a chunk's first
//! pass ([`FirstPass`]) travels as bytes ([`FirstPass::chunk_bytes`]) and the chunks, added in
//! file order ([`FirstPass::append_chunk`]), are the first pass over the whole file — the same
//! count, time span, rows out of order and kept rows — so the analysis that counts the kept rows
//! gives one reader's report, byte for byte, for any number of chunks. Reading (parsing text,
//! converting cells) is what the workers share; the counting stays in one engine.
//!
//! The bytes: [`CHUNK_MAGIC`], [`CHUNK_VERSION`] (little-endian u16), the hash of the design
//! (u64), the length of the head (u32) and the head (postcard: the summary, what reading found,
//! the first and last row's times, the lengths, the estimate of its distinct keys), then the
//! kept rows as little-endian arrays:
//! the keys end to end, where each ends (u32), the qualifiers (u64) and the times (i64); then,
//! for each global Phoenix index of the design, its rows' index keys end to end and where each
//! ends (u32), so a chunked reading counts the index tables as one reader does.

use serde::{Deserialize, Serialize};

use super::super::*;
use super::partial::design_hash;
use super::{ChunkRows, FirstPass};
use crate::rows::{RowStats, ScanSummary};

/// The first bytes of a chunk's first pass.
pub const CHUNK_MAGIC: [u8; 4] = crate::support::magic::CHUNK;
/// The format version of a chunk's first pass.
pub const CHUNK_VERSION: u16 = 3;

#[derive(Serialize, Deserialize)]
struct Head {
    summary: ScanSummary,
    stats: RowStats,
    first_ms: Option<i64>,
    last_ms: Option<i64>,
    key_bytes: u64,
    rows: u64,
    qualifiers: bool,
    times: bool,
    /// The chunk's distinct keys, estimated (its HyperLogLog's registers).
    distinct: crate::analyze::DistinctKeys,
    /// Per global index of the design, the bytes of its rows' index keys.
    index_key_bytes: Vec<u64>,
}

/// The little-endian word of `W` bytes at `at` (zeros past the end: the lengths were checked
/// when the chunk was added).
#[inline]
fn word<const W: usize>(b: &[u8], at: usize) -> [u8; W] {
    b.get(at..at + W)
        .and_then(|w| w.try_into().ok())
        .unwrap_or([0; W])
}

impl ChunkRows {
    pub(in crate::analyze::run) fn rows(&self) -> usize {
        self.rows
    }

    pub(in crate::analyze::run) fn timed(&self) -> bool {
        self.times_at.is_some()
    }

    fn end(&self, i: usize) -> usize {
        u32::from_le_bytes(word(&self.bytes, self.ends_at + 4 * i)) as usize
    }

    /// Row `i`'s key.
    pub(in crate::analyze::run) fn key(&self, i: usize) -> &[u8] {
        let start = if i == 0 { 0 } else { self.end(i - 1) };
        let end = self.end(i);
        self.bytes
            .get(self.keys_at + start..self.keys_at + end)
            .unwrap_or(&[])
    }

    /// Every row's time in order (none when the rows carry none).
    pub(in crate::analyze::run) fn times(&self) -> impl Iterator<Item = i64> + '_ {
        let rows = if self.times_at.is_some() {
            self.rows
        } else {
            0
        };
        (0..rows)
            .map(move |i| i64::from_le_bytes(word(&self.bytes, self.times_at.unwrap_or(0) + 8 * i)))
    }

    /// Every row in order: its key, qualifier (0 without) and time.
    pub(in crate::analyze::run) fn each(
        &self,
        mut f: impl FnMut(&[u8], u64, Option<i64>) -> Result<()>,
    ) -> Result<()> {
        let b = &self.bytes[..];
        let mut start = 0usize;
        for i in 0..self.rows {
            let end = self.end(i);
            let key = b
                .get(self.keys_at + start..self.keys_at + end)
                .unwrap_or(&[]);
            start = end;
            let q = self
                .qualifiers_at
                .map_or(0, |at| u64::from_le_bytes(word(b, at + 8 * i)));
            let t = self
                .times_at
                .map(|at| i64::from_le_bytes(word(b, at + 8 * i)));
            f(key, q, t)?;
        }
        Ok(())
    }
}

impl super::Replay {
    /// Every kept row's time, in the order the rows (and their index keys) were kept: this
    /// reading's rows, then each chunk's; empty for untimed rows.
    pub(super) fn times_in_order(&self) -> std::borrow::Cow<'_, [i64]> {
        if self.chunks.is_empty() {
            return std::borrow::Cow::Borrowed(&self.times);
        }
        let mut all = self.times.clone();
        for c in &self.chunks {
            all.extend(c.times());
        }
        std::borrow::Cow::Owned(all)
    }
}

fn chunk_error(reason: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorKind::IllegalArgument,
        format!("not a chunk of rows of this design: {reason}"),
    )
    .at_path("chunk")
}

impl FirstPass {
    /// A design's global index keys travel in a chunk beside its data keys while they are kept;
    /// an error when they are not (then the file is read in one pass).
    pub(super) fn no_index_chunks(&self) -> Result<()> {
        match &self.indexes {
            Some(ix) if ix.keyer.len() > 0 && ix.kept_parts().is_none() => Err(Error::limit(
                "rows",
                "the chunk's index keys passed the memory kept for them (limits::MAX_REPLAY_BYTES): read the file in one pass",
            )),
            _ => Ok(()),
        }
    }

    /// The index keys a chunk carries: per global index, its kept keys and their ends.
    fn index_parts(&self) -> &[(Vec<u8>, Vec<u32>)] {
        self.indexes
            .as_ref()
            .and_then(|ix| ix.kept_parts())
            .unwrap_or_default()
    }

    /// This chunk's first pass as bytes, with what its reading found: the kept rows must hold
    /// every row read (a chunk past the cap, or a scan that also samples, profiles or keeps
    /// keys, is refused: read such a file in one pass).
    pub fn chunk_bytes(&self, doc: &DesignDocument, stats: &RowStats) -> Result<Vec<u8>> {
        let Some(r) = self.replay.as_ref().filter(|r| r.chunks.is_empty()) else {
            return Err(Error::limit(
                "rows",
                "the chunk's rows passed the memory kept for them (limits::MAX_REPLAY_BYTES): read the file in one pass",
            ));
        };
        if !self.scan.adds_up() {
            return Err(Error::new(
                ErrorKind::IllegalState,
                "a scan that samples, profiles or keeps keys reads the file in one pass, not in chunks",
            ));
        }
        self.no_index_chunks()?;
        let head = Head {
            summary: self.scan.summary,
            stats: stats.clone(),
            first_ms: r.times.first().copied(),
            last_ms: r.times.last().copied(),
            key_bytes: r.keys.len() as u64,
            rows: r.ends.len() as u64,
            qualifiers: self.qualifier.is_some(),
            times: !r.times.is_empty(),
            distinct: self.distinct.clone(),
            index_key_bytes: self
                .index_parts()
                .iter()
                .map(|(b, _)| b.len() as u64)
                .collect(),
        };
        let head = postcard::to_allocvec(&head).map_err(|e| {
            Error::new(
                ErrorKind::IllegalState,
                format!("the chunk could not be written: {e}"),
            )
        })?;
        let mut out = Vec::with_capacity(18 + head.len() + r.bytes());
        out.extend_from_slice(&CHUNK_MAGIC);
        out.extend_from_slice(&CHUNK_VERSION.to_le_bytes());
        out.extend_from_slice(&design_hash(doc).to_le_bytes());
        out.extend_from_slice(&u32::try_from(head.len()).unwrap_or(u32::MAX).to_le_bytes());
        out.extend_from_slice(&head);
        out.extend_from_slice(&r.keys);
        for e in &r.ends {
            out.extend_from_slice(&e.to_le_bytes());
        }
        for q in &r.qualifiers {
            out.extend_from_slice(&q.to_le_bytes());
        }
        for t in &r.times {
            out.extend_from_slice(&t.to_le_bytes());
        }
        for (keys, ends) in self.index_parts() {
            out.extend_from_slice(keys);
            for e in ends {
                out.extend_from_slice(&e.to_le_bytes());
            }
        }
        Ok(out)
    }

    /// Add the next chunk of the file ([`chunk_bytes`](Self::chunk_bytes) of the same design),
    /// in file order: its count and time span to the scan, its rows to the kept rows. Returns
    /// what its reading found. Nothing is added when the chunk is refused.
    pub fn append_chunk(&mut self, doc: &DesignDocument, bytes: Vec<u8>) -> Result<RowStats> {
        self.no_index_chunks()?;
        self.forget_quantiles();
        if bytes.get(..4) != Some(&CHUNK_MAGIC[..]) {
            return Err(chunk_error("it does not start with RKLC"));
        }
        let version = u16::from_le_bytes(word(&bytes, 4));
        if version != CHUNK_VERSION {
            return Err(chunk_error(format!(
                "version {version}, where this engine reads {CHUNK_VERSION}"
            )));
        }
        if u64::from_le_bytes(word(&bytes, 6)) != design_hash(doc) {
            return Err(chunk_error("it was read for another design"));
        }
        let head_len = u32::from_le_bytes(word(&bytes, 14)) as usize;
        let head: Head = postcard::from_bytes(bytes.get(18..18 + head_len).unwrap_or(&[]))
            .map_err(|e| chunk_error(format!("its head: {e}")))?;
        let n = usize::try_from(head.rows).map_err(|_| chunk_error("too many rows"))?;
        let key_len = usize::try_from(head.key_bytes).map_err(|_| chunk_error("too many keys"))?;
        // Where each part starts; their lengths add up to the chunk's.
        let keys_at = 18 + head_len;
        let sized = |at: usize, w: usize| n.checked_mul(w).and_then(|l| at.checked_add(l));
        let ends_at = keys_at
            .checked_add(key_len)
            .ok_or_else(|| chunk_error("its keys cut short"))?;
        let mut at = sized(ends_at, 4).ok_or_else(|| chunk_error("its key ends cut short"))?;
        let qualifiers_at = head.qualifiers.then_some(at);
        if head.qualifiers {
            at = sized(at, 8).ok_or_else(|| chunk_error("its qualifiers cut short"))?;
        }
        let times_at = head.times.then_some(at);
        if head.times {
            at = sized(at, 8).ok_or_else(|| chunk_error("its times cut short"))?;
        }
        let rows_end = at;
        let last_end = |ends_at: usize| match n {
            0 => 0,
            _ => u32::from_le_bytes(word(&bytes, ends_at + 4 * (n - 1))) as usize,
        };
        if last_end(ends_at) != key_len {
            return Err(chunk_error("its lengths disagree"));
        }
        // Each global index's keys of the same rows.
        let globals = self.indexes.as_ref().map_or(0, |ix| ix.keyer.len());
        if head.index_key_bytes.len() != globals {
            return Err(chunk_error(format!(
                "it carries {} index tables' keys, where the design has {globals} global indexes",
                head.index_key_bytes.len()
            )));
        }
        let mut parts = Vec::with_capacity(globals);
        for &len in &head.index_key_bytes {
            let len = usize::try_from(len).map_err(|_| chunk_error("too many index keys"))?;
            let ends_at = at
                .checked_add(len)
                .ok_or_else(|| chunk_error("its index keys cut short"))?;
            let end =
                sized(ends_at, 4).ok_or_else(|| chunk_error("its index key ends cut short"))?;
            let (Some(keys), Some(_)) = (bytes.get(at..ends_at), bytes.get(ends_at..end)) else {
                return Err(chunk_error("its index keys cut short"));
            };
            if last_end(ends_at) != len {
                return Err(chunk_error("its index keys' lengths disagree"));
            }
            let ends = (0..n)
                .map(|i| u32::from_le_bytes(word(&bytes, ends_at + 4 * i)))
                .collect::<Vec<u32>>();
            parts.push((keys.to_vec(), ends));
            at = end;
        }
        if at != bytes.len() {
            return Err(chunk_error("its lengths disagree"));
        }
        if head.qualifiers != self.qualifier.is_some() {
            return Err(chunk_error("its qualifiers disagree with the design's"));
        }
        let Some(r) = self.replay.as_mut() else {
            return Err(Error::limit(
                "rows",
                "the rows passed the memory kept for them (limits::MAX_REPLAY_BYTES): read the file in one pass",
            ));
        };
        if n > 0 && r.timed().is_some_and(|t| t != head.times) {
            return Err(chunk_error("rows with a time and rows without"));
        }
        let added = rows_end - keys_at;
        let index_added = bytes.len() - rows_end;
        let held = self.indexes.as_ref().map_or(0, |ix| ix.kept_bytes());
        if r.bytes() + held + added + index_added > self.cap {
            return Err(Error::limit(
                "rows",
                "the rows passed the memory kept for them (limits::MAX_REPLAY_BYTES): read the file in one pass",
            ));
        }
        if let Some(ix) = self.indexes.as_mut().filter(|_| globals > 0) {
            ix.append_kept(parts)?;
        }
        let mut bytes = bytes;
        // the index keys are kept with the other rows' index keys: the chunk holds its own
        bytes.truncate(rows_end);
        if n > 0 {
            r.chunk_bytes += added;
            r.chunks.push(ChunkRows {
                bytes,
                rows: n,
                keys_at,
                ends_at,
                qualifiers_at,
                times_at,
            });
        }
        self.scan.append(&head.summary, head.first_ms, head.last_ms);
        self.distinct.merge(&head.distinct);
        Ok(head.stats)
    }
}
