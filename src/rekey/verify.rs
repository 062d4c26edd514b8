//! Verifying a rekey across two key designs: every row of the old table, its key computed by
//! the new design, is in the new table once, with the same cells. HBase's HashTable/SyncTable
//! compare tables of one key; here the two exports (files of rows, the old table's and the new
//! one's) are both read through the new design, each row as its new key and a digest of its
//! values, and compared in bounded memory:
//!
//! 1. **count**: each row lands in one of [`BUCKETS`] buckets by its new key's hash; per side
//!    and bucket a count and two order-free sums of `hash(key, digest)`. Equal buckets hold the
//!    same rows (the chance two different multisets tie on both 64-bit sums is about 2^-128);
//! 2. **hold**: only the rows of the buckets that differ are read again, each as its key and
//!    digest counted +1 on the old side and −1 on the new: a row on both sides cancels, so what
//!    stays held is what differs, matched exactly by key: a key with old rows left only is a
//!    row **missing** from the new table, with new rows left only an **extra** row, with both
//!    (other digests) a **changed** row. The differing buckets are read in rounds whose rows
//!    fit [`MAX_HELD_BYTES`], each round settled before the next, so the counts are exact at
//!    any size; [`Verifier::next_read`] says what to read next.
//!
//! A reading gives each row as its key under [`Verifier::design`] (the new design itself)
//! followed by the row's 16-byte digest ([`crate::keyspec::row_digest`], every field's value, a
//! null included): a rows session's `keep_keys_with_digests`, or
//! [`crate::analyze::encode_stream_with_digests`]. The digest stays outside the key, so a key
//! ends as the table's does (a Phoenix primary key, a salt over the rest of the key).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::design::DesignDocument;
use crate::error::{Error, ErrorKind, Result};
use crate::hbase::bytes::to_string_binary;
use crate::keyspec::{Segment, ROW_DIGEST_BYTES};
use crate::support::fast_hash::Fast;

mod partial;
pub use partial::{VERIFY_MAGIC, VERIFY_VERSION};

#[cfg(feature = "rows")]
mod columns;
#[cfg(feature = "rows")]
pub use columns::{compare_as, plan, verify_design, ExportSample, VerifyOptions};

/// Buckets the first pass counts in.
pub const BUCKETS: usize = 4096;

/// Most bytes of rows (key and digest) a round of the second pass holds at once: the rounds
/// are cut to fit it; only a bucket whose rows alone pass it makes the counts lower bounds,
/// said.
pub const MAX_HELD_BYTES: usize = 256 << 20;

/// Differences named, at most.
pub const FIRST_DIFFERENCES: usize = 20;

/// Which export a row is from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The old table's rows.
    Old,
    /// The new table's rows.
    New,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Tally {
    rows: u64,
    sum: u64,
    mix: u64,
    /// Bytes of its rows (key and digest): what holding them costs, for the rounds.
    bytes: u64,
}

/// One difference, named by the new key.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Difference {
    /// `missing` (an old row not in the new table), `extra` (a new row with no old one),
    /// `changed` (the key on both sides, the fields not the same).
    pub kind: &'static str,
    /// The new key, toStringBinary.
    pub key: String,
    /// The new key, hex.
    pub key_hex: String,
    /// The new key read through the new design (`salt 03 · device=dev-7…`).
    pub fields: Option<String>,
}

/// A column compared: both exports hold it, read as one type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ComparedColumn {
    /// The column's name.
    pub column: String,
    /// The design's field that reads it, when its name is not the column's (`--map`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// The type both sides are read as (a field type: `long`, `string`, `timestamp` in ms…).
    #[serde(rename = "as")]
    pub as_type: String,
    /// Its type in the old export, as the file says it.
    pub old: String,
    /// Its type in the new export.
    pub new: String,
}

/// A column not compared, and why: `--ignore`, `not in --columns`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IgnoredColumn {
    /// The column's name.
    pub column: String,
    /// Why it is not compared.
    pub why: String,
}

/// Which columns a verification compares, from both exports' columns (`columns::plan`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VerifyColumns {
    /// The columns compared, in the old export's order, then the new one's.
    pub compared: Vec<ComparedColumn>,
    /// The columns the user left out, and why.
    pub ignored: Vec<IgnoredColumn>,
    /// Columns only the old export holds.
    pub only_old: Vec<String>,
    /// Columns only the new export holds.
    pub only_new: Vec<String>,
}

impl VerifyColumns {
    /// The columns one export holds and the user did not say to leave out: each makes the
    /// exports unequal.
    pub fn unexpected(&self) -> Vec<&str> {
        self.only_old
            .iter()
            .chain(&self.only_new)
            .filter(|c| !self.ignored.iter().any(|i| &i.column == *c))
            .map(String::as_str)
            .collect()
    }
}

/// What the comparison found.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VerifyReport {
    /// Rows read from the old table's export.
    pub old_rows: u64,
    /// Rows read from the new table's export.
    pub new_rows: u64,
    /// Buckets compared.
    pub buckets: usize,
    /// Buckets whose rows differ.
    pub differing_buckets: usize,
    /// Old rows with no row under their new key in the new table.
    pub missing: u64,
    /// New rows with no old row.
    pub extra: u64,
    /// Rows under the same key on both sides with other fields.
    pub changed: u64,
    /// Every old row is in the new table once with the same values in every column compared,
    /// nothing else is, and no column is in one export only unless ignored.
    pub equal: bool,
    /// The counts above are exact (else the differing rows passed [`MAX_HELD_BYTES`] and the
    /// counts are of the rows held: lower bounds).
    pub complete: bool,
    /// The first differences, by new key.
    pub first: Vec<Difference>,
    /// The columns compared (every column both exports hold, unless ignored), each with the
    /// type both sides were read as; empty when the verifier was given no exports' columns.
    pub compared: Vec<ComparedColumn>,
    /// The columns not compared, and why.
    pub ignored: Vec<IgnoredColumn>,
    /// Columns only the old export holds (not equal unless ignored).
    pub only_old: Vec<String>,
    /// Columns only the new export holds (not equal unless ignored).
    pub only_new: Vec<String>,
}

/// One read a verification needs, handed out by [`Verifier::next_read`]: all of one side's
/// export, its rows counted (`buckets` none) or only those of `buckets` held. A shell (the CLI,
/// Python, Spark's driver) reads what it is told and feeds the rows; the rounds are the engine's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VerifyRead {
    /// The export to read.
    pub side: Side,
    /// The buckets whose rows this read holds; none: the first pass, every row counted.
    pub buckets: Option<Vec<u32>>,
}

/// The differences of the rounds settled so far.
#[derive(Debug, Default)]
struct Settled {
    missing: u64,
    extra: u64,
    changed: u64,
    /// The first differences by key (at most [`FIRST_DIFFERENCES`]).
    first: Vec<(Vec<u8>, &'static str)>,
}

impl Settled {
    /// Only the first [`FIRST_DIFFERENCES`] differences, by key.
    fn keep_first(&mut self) {
        self.first.sort_unstable();
        self.first.truncate(FIRST_DIFFERENCES);
    }
}

/// The comparison, fed with the two exports' rows read through [`Verifier::design`].
#[derive(Debug)]
pub struct Verifier {
    doc: DesignDocument,
    tallies: [Vec<Tally>; 2],
    differing: Option<Vec<bool>>,
    /// Buckets that differ, counted when the count ends.
    differing_count: Option<usize>,
    /// The rounds' differences settled so far ([`settle`](Self::settle)).
    settled: Settled,
    /// Most bytes of rows held at once.
    max_held: usize,
    /// The second pass's rows (key, then digest): old rows +1, new −1, a row at 0 dropped. A
    /// sum, so pieces merge by adding and a row on both sides leaves nothing held.
    held: HashMap<Box<[u8]>, i64, Fast>,
    held_bytes: usize,
    /// A row could not be held (the cap): from then on rows only cancel, never join, so every
    /// count stays a lower bound whatever order the rows come in.
    full: bool,
    complete: bool,
    /// The columns compared ([`with_columns`](Self::with_columns)), for the report.
    columns: VerifyColumns,
    /// Reads handed out by [`next_read`](Self::next_read).
    reads: usize,
    /// The second pass's rounds, cut when the count ends.
    plan: Option<Vec<Vec<u32>>>,
}

fn side(s: Side) -> usize {
    match s {
        Side::Old => 0,
        Side::New => 1,
    }
}

/// A hash of `bytes` with `seed`.
fn h(bytes: &[u8], seed: u64) -> u64 {
    xxhash_rust::xxh3::xxh3_64_with_seed(bytes, seed)
}

impl Verifier {
    /// A comparison through `new` (the new design). Refused: a key with a random salt (its
    /// keys cannot be computed again).
    pub fn new(new: &DesignDocument) -> Result<Verifier> {
        if new
            .key
            .segments
            .iter()
            .any(|s| matches!(s, Segment::Random(_)))
        {
            return Err(Error::new(
                ErrorKind::IllegalArgument,
                "the new design's key has a random salt: its keys cannot be computed again",
            )
            .at_path("/key"));
        }
        let mut doc = new.clone();
        doc.regions = None;
        doc.validate()?;
        Ok(Verifier {
            doc,
            tallies: [
                vec![Tally::default(); BUCKETS],
                vec![Tally::default(); BUCKETS],
            ],
            differing: None,
            differing_count: None,
            settled: Settled::default(),
            max_held: MAX_HELD_BYTES,
            held: HashMap::default(),
            held_bytes: 0,
            full: false,
            complete: true,
            columns: VerifyColumns::default(),
            reads: 0,
            plan: None,
        })
    }

    /// A comparison of two exports: `new` (the new design, or just its key) fitted to the old
    /// export, and every column both exports hold compared unless `opts` leaves it out
    /// ([`verify_design`]). Read both exports through [`design`](Self::design).
    #[cfg(feature = "rows")]
    pub fn for_exports(
        new: DesignDocument,
        old_export: ExportSample<'_>,
        new_export: ExportSample<'_>,
        opts: &VerifyOptions,
    ) -> Result<Verifier> {
        let (doc, columns) = verify_design(new, old_export, new_export, opts)?;
        Ok(Verifier::new(&doc)?.with_columns(columns))
    }

    /// The columns the report says were compared (a verifier of pieces is made from the
    /// design [`verify_design`] gave; its driver reports the columns).
    pub fn with_columns(mut self, columns: VerifyColumns) -> Verifier {
        self.columns = columns;
        self
    }

    /// The design both exports are read with, each key followed by its row's digest: the new
    /// design (its regions left out: they do not change a key).
    pub fn design(&self) -> &DesignDocument {
        &self.doc
    }

    /// Each of `keys` (end to end, `offsets` from 0, as a reading's keys) as the row (its key,
    /// then its digest) and where its digest starts.
    fn rows<'a>(
        keys: &'a [u8],
        offsets: &'a [u32],
    ) -> impl Iterator<Item = Result<(&'a [u8], usize)>> + 'a {
        offsets.windows(2).map(move |w| {
            let (a, b) = match w {
                [a, b] => (*a as usize, *b as usize),
                _ => (0, 0),
            };
            let k = keys
                .get(a..b)
                .ok_or_else(|| Error::arg("offsets", "an offset past the keys, or going back"))?;
            if k.len() < ROW_DIGEST_BYTES {
                return Err(Error::arg(
                    "keys",
                    "a key shorter than its row's digest: not read with digests (keepKeys(true))",
                ));
            }
            Ok((k, k.len() - ROW_DIGEST_BYTES))
        })
    }

    /// `n` more of `row` (key, then digest) held: a row at 0 is dropped. Once a row could not
    /// be held for the cap, rows only cancel.
    fn held_add(&mut self, row: &[u8], n: i64) {
        if let Some(c) = self.held.get_mut(row) {
            *c += n;
            if *c == 0 {
                self.held.remove(row);
                self.held_bytes -= row.len();
            }
            return;
        }
        if self.full || self.held_bytes + row.len() > self.max_held {
            self.full = true;
            self.complete = false;
            return;
        }
        self.held_bytes += row.len();
        self.held.insert(row.into(), n);
    }

    /// A slice of `s`'s rows to the pass under way: counted until the count ends, then held
    /// (the rows of the round's buckets).
    pub fn feed(&mut self, s: Side, keys: &[u8], offsets: &[u32]) -> Result<()> {
        if self.differing.is_none() {
            self.count(s, keys, offsets)
        } else {
            self.hold(s, keys, offsets)
        }
    }

    /// The first pass: count each row of a slice.
    pub fn count(&mut self, s: Side, keys: &[u8], offsets: &[u32]) -> Result<()> {
        if self.differing.is_some() {
            return Err(Error::new(
                ErrorKind::IllegalState,
                "the count has ended: hold() the rows of the differing buckets",
            ));
        }
        let mut adds = Vec::new();
        for row in Self::rows(keys, offsets) {
            let (row, at) = row?;
            let (key, digest) = row.split_at(at);
            let bucket = (h(key, 0) % BUCKETS as u64) as usize;
            let both = h(digest, h(key, 1));
            adds.push((bucket, both, h(digest, h(key, 2)), row.len() as u64));
        }
        let t = &mut self.tallies[side(s)];
        for (bucket, a, b, len) in adds {
            if let Some(x) = t.get_mut(bucket) {
                x.rows += 1;
                x.bytes += len;
                x.sum = x.sum.wrapping_add(a);
                x.mix = x.mix.wrapping_add(b.rotate_left(17) ^ a);
            }
        }
        Ok(())
    }

    /// Ends the first pass: the buckets that differ (0: the exports hold the same rows).
    pub fn end_count(&mut self) -> usize {
        let [old, new] = &self.tallies;
        let d: Vec<bool> = old.iter().zip(new).map(|(a, b)| a != b).collect();
        let n = d.iter().filter(|&&x| x).count();
        self.differing = Some(d);
        self.differing_count = Some(n);
        n
    }

    /// Hold at most `bytes` of rows at once (the default, and most, [`MAX_HELD_BYTES`]): the
    /// rounds [`next_read`](Self::next_read) hands out are cut to fit it.
    pub fn hold_at_most(&mut self, bytes: usize) {
        self.max_held = bytes.min(MAX_HELD_BYTES);
    }

    /// Ends the count: the differing buckets in rounds, each round's rows (both sides') within
    /// what is held at once, so every count is exact whatever the table's size. None: the
    /// exports hold the same rows. [`next_read`](Self::next_read) walks them.
    fn rounds(&mut self) -> Vec<Vec<u32>> {
        if self.differing_count.is_none() {
            self.end_count();
        }
        let d = self.differing.clone().unwrap_or_default();
        let mut rounds: Vec<Vec<u32>> = Vec::new();
        let mut bytes = 0u64;
        for (b, _) in d.iter().enumerate().filter(|(_, &x)| x) {
            let cost = self.tallies[0][b].bytes + self.tallies[1][b].bytes;
            if rounds.is_empty() || bytes + cost > self.max_held as u64 {
                rounds.push(Vec::new());
                bytes = 0;
            }
            bytes += cost;
            if let Some(r) = rounds.last_mut() {
                r.push(b as u32);
            }
        }
        rounds
    }

    /// Ends a round: the rows still held (the round's differences) counted and the first
    /// differences kept, the rows let go. Rows of different buckets never match, so each
    /// round's count is final.
    fn settle(&mut self) {
        let mut left: Vec<(&[u8], &[u8], i64)> = self
            .held
            .iter()
            .map(|(row, &n)| {
                let (k, d) = row.split_at(row.len() - ROW_DIGEST_BYTES);
                (k, d, n)
            })
            .collect();
        left.sort_unstable();
        let s = &mut self.settled;
        for rows in left.chunk_by(|a, b| a.0 == b.0) {
            let only_a: u64 = rows.iter().map(|r| r.2.max(0) as u64).sum();
            let only_b: u64 = rows.iter().map(|r| (-r.2).max(0) as u64).sum();
            let c = only_a.min(only_b);
            s.changed += c;
            s.missing += only_a - c;
            s.extra += only_b - c;
            let kind = if c > 0 {
                "changed"
            } else if only_a > 0 {
                "missing"
            } else {
                "extra"
            };
            s.first.push((rows[0].0.to_vec(), kind));
        }
        s.keep_first();
        self.held.clear();
        self.held_bytes = 0;
        self.full = false;
    }

    /// The read to make next, or none when the comparison can [`finish`](Self::finish): the
    /// old export, then the new one, counted; then per round both again, the round's buckets
    /// held, each round settled when the next read is asked for. Every shell (the CLI, Python,
    /// Spark's driver) walks this one plan, so none keeps its own loop of rounds.
    pub fn next_read(&mut self) -> Result<Option<VerifyRead>> {
        let n = self.reads;
        let side = if n % 2 == 0 { Side::Old } else { Side::New };
        if n < 2 {
            self.reads += 1;
            return Ok(Some(VerifyRead {
                side,
                buckets: None,
            }));
        }
        let plan = match self.plan.take() {
            Some(p) => p,
            None => self.rounds(),
        };
        let round = (n - 2) / 2;
        let at = plan.get(round).cloned();
        let ran = plan.len();
        self.plan = Some(plan);
        if side == Side::Old && (1..=ran).contains(&round) {
            // the round before has been read on both sides
            self.settle();
        }
        let Some(buckets) = at else {
            // done, the last round settled: an odd count past the plan answers none from now on
            self.reads = 3 + 2 * ran;
            return Ok(None);
        };
        if side == Side::Old {
            self.hold_in(&buckets)?;
        }
        self.reads += 1;
        Ok(Some(VerifyRead {
            side,
            buckets: Some(buckets),
        }))
    }

    /// The second pass: hold the rows of a slice that fall in a differing bucket.
    pub fn hold(&mut self, s: Side, keys: &[u8], offsets: &[u32]) -> Result<()> {
        if self.differing.is_none() {
            self.end_count();
        }
        let n = match s {
            Side::Old => 1,
            Side::New => -1,
        };
        for row in Self::rows(keys, offsets) {
            let (row, at) = row?;
            let bucket = (h(&row[..at], 0) % BUCKETS as u64) as usize;
            if self
                .differing
                .as_ref()
                .is_some_and(|d| d.get(bucket) == Some(&true))
            {
                self.held_add(row, n);
            }
        }
        Ok(())
    }

    /// The comparison (the rows still held settled first).
    pub fn finish(mut self) -> VerifyReport {
        let rows = |t: &[Tally]| t.iter().map(|x| x.rows).sum::<u64>();
        let (old_rows, new_rows) = (rows(&self.tallies[0]), rows(&self.tallies[1]));
        let differing = match self.differing_count {
            Some(n) => n,
            None => self.end_count(),
        };
        self.settle();
        let Settled {
            missing,
            extra,
            changed,
            first,
        } = std::mem::take(&mut self.settled);
        let fields = self.doc.key_fields();
        let label = |k: &[u8]| {
            crate::keyspec::decode_boundaries(&self.doc.key, &fields, &[k.to_vec()])
                .ok()
                .and_then(|b| b.into_iter().next())
                .map(|b| b.label)
        };
        let first = first
            .into_iter()
            .map(|(k, kind)| Difference {
                kind,
                key: to_string_binary(&k),
                key_hex: crate::hbase::bytes::to_hex(&k),
                fields: label(&k),
            })
            .collect();
        let columns_agree = self.columns.unexpected().is_empty();
        let VerifyColumns {
            compared,
            ignored,
            only_old,
            only_new,
        } = std::mem::take(&mut self.columns);
        VerifyReport {
            old_rows,
            new_rows,
            buckets: BUCKETS,
            differing_buckets: differing,
            missing,
            extra,
            changed,
            equal: differing == 0 && columns_agree,
            complete: self.complete,
            first,
            compared,
            ignored,
            only_old,
            only_new,
        }
    }
}

/// A verification of two files the engine reads itself (Python's `verify` of two paths).
#[cfg(feature = "rows")]
mod files;
#[cfg(feature = "rows")]
pub use files::Export;
