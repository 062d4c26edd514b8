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
//! the keys end to end, where each ends (u32), the qualifiers (u64) and the times (i64).

use serde::{Deserialize, Serialize};

use super::rows::FirstPass;
use super::rows_partial::design_hash;
use super::*;
use crate::rows::{RowStats, ScanSummary};

/// The first bytes of a chunk's first pass.
pub const CHUNK_MAGIC: [u8; 4] = *b"RKLC";
/// The format version of a chunk's first pass.
pub const CHUNK_VERSION: u16 = 2;

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
}

fn chunk_error(reason: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorKind::IllegalArgument,
        format!("not a chunk of rows of this design: {reason}"),
    )
    .at_path("chunk")
}

/// `n` little-endian values of `W` bytes from `at` in `b`, or an error naming what is short.
fn le_array<const W: usize, T>(
    b: &[u8],
    at: &mut usize,
    n: usize,
    what: &str,
    from: fn([u8; W]) -> T,
) -> Result<Vec<T>> {
    let len = n
        .checked_mul(W)
        .ok_or_else(|| chunk_error(format!("{what}: {n} values")))?;
    let part = b
        .get(*at..*at + len)
        .ok_or_else(|| chunk_error(format!("{what} cut short")))?;
    *at += len;
    Ok(part
        .chunks_exact(W)
        .map(|c| from(c.try_into().unwrap_or([0; W])))
        .collect())
}

impl FirstPass {
    /// This chunk's first pass as bytes, with what its reading found: the kept rows must hold
    /// every row read (a chunk past the cap, or a scan that also samples, profiles or keeps
    /// keys, is refused: read such a file in one pass).
    pub fn chunk_bytes(&self, doc: &DesignDocument, stats: &RowStats) -> Result<Vec<u8>> {
        let Some(r) = &self.replay else {
            return Err(Error::limit(
                "rows",
                "the chunk's rows passed the memory kept for them (limits::MAX_REPLAY_BYTES): read the file in one pass",
            ));
        };
        if !self.scan.counts_only() {
            return Err(Error::new(
                ErrorKind::IllegalState,
                "a scan that samples, profiles or keeps keys reads the file in one pass, not in chunks",
            ));
        }
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
        Ok(out)
    }

    /// Add the next chunk of the file ([`chunk_bytes`](Self::chunk_bytes) of the same design),
    /// in file order: its count and time span to the scan, its rows to the kept rows. Returns
    /// what its reading found. Nothing is added when the chunk is refused.
    pub fn append_chunk(&mut self, doc: &DesignDocument, bytes: &[u8]) -> Result<RowStats> {
        if bytes.get(..4) != Some(&CHUNK_MAGIC[..]) {
            return Err(chunk_error("it does not start with RKLC"));
        }
        let word = |at: usize, n: usize| bytes.get(at..at + n).unwrap_or(&[]);
        let version = u16::from_le_bytes(word(4, 2).try_into().unwrap_or([0; 2]));
        if version != CHUNK_VERSION {
            return Err(chunk_error(format!(
                "version {version}, where this engine reads {CHUNK_VERSION}"
            )));
        }
        let hash = u64::from_le_bytes(word(6, 8).try_into().unwrap_or([0; 8]));
        if hash != design_hash(doc) {
            return Err(chunk_error("it was read for another design"));
        }
        let head_len = u32::from_le_bytes(word(14, 4).try_into().unwrap_or([0; 4])) as usize;
        let head: Head = postcard::from_bytes(word(18, head_len))
            .map_err(|e| chunk_error(format!("its head: {e}")))?;
        let mut at = 18 + head_len;
        let n = usize::try_from(head.rows).map_err(|_| chunk_error("too many rows"))?;
        let key_len = usize::try_from(head.key_bytes).map_err(|_| chunk_error("too many keys"))?;
        let keys = bytes
            .get(at..at + key_len)
            .ok_or_else(|| chunk_error("its keys cut short"))?;
        at += key_len;
        let ends = le_array(bytes, &mut at, n, "its key ends", u32::from_le_bytes)?;
        let quals = if head.qualifiers {
            le_array(bytes, &mut at, n, "its qualifiers", u64::from_le_bytes)?
        } else {
            Vec::new()
        };
        let times = if head.times {
            le_array(bytes, &mut at, n, "its times", i64::from_le_bytes)?
        } else {
            Vec::new()
        };
        if at != bytes.len() || ends.last().map_or(0, |&e| e as usize) != key_len {
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
        if !r.ends.is_empty() && (r.times.len() == r.ends.len()) != head.times {
            return Err(chunk_error("rows with a time and rows without"));
        }
        let base = r.keys.len();
        let added = keys.len() + 4 * n + 8 * (quals.len() + times.len());
        if r.bytes() + added > self.cap || u32::try_from(base + key_len).is_err() {
            return Err(Error::limit(
                "rows",
                "the rows passed the memory kept for them (limits::MAX_REPLAY_BYTES): read the file in one pass",
            ));
        }
        r.keys.extend_from_slice(keys);
        // base + end fits a u32: the last end is the largest, checked above.
        r.ends.extend(ends.iter().map(|&e| e + base as u32));
        r.qualifiers.extend_from_slice(&quals);
        r.times.extend_from_slice(&times);
        self.scan.append(&head.summary, head.first_ms, head.last_ms);
        self.distinct.merge(&head.distinct);
        Ok(head.stats)
    }
}
