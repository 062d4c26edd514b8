//! Verifying a rekey across two key designs: every row of the old table, its key computed by
//! the new design, is in the new table once, with the same cells. HBase's HashTable/SyncTable
//! compare tables of one key; here the two exports (files of rows, the old table's and the new
//! one's) are both read through the new design, each row as its new key and a digest of its
//! values, and compared in bounded memory:
//!
//! 1. **count**: each row lands in one of [`BUCKETS`] buckets by its new key's hash; per side
//!    and bucket a count and two order-free sums of `hash(key, digest)`. Equal buckets hold the
//!    same rows (the chance two different multisets tie on both 64-bit sums is about 2^-128);
//! 2. **hold**: only the rows of the buckets that differ are read again and held (at most
//!    [`MAX_HELD_BYTES`] of keys), their keys matched exactly: a key on the old side only is a
//!    row **missing** from the new table, on the new side only an **extra** row, on both with
//!    another digest a **changed** row.
//!
//! A reading gives each row as its key under [`Verifier::design`] (the new design itself)
//! followed by the row's 16-byte digest ([`crate::keyspec::row_digest`], every field's value, a
//! null included): a rows session's `keep_keys_with_digests`, or
//! [`crate::analyze::encode_stream_with_digests`]. The digest stays outside the key, so a key
//! ends as the table's does (a Phoenix primary key, a salt over the rest of the key).

use std::collections::HashMap;

use serde::Serialize;

use crate::design::DesignDocument;
use crate::error::{Error, ErrorKind, Result};
use crate::hbase::bytes::to_string_binary;
use crate::keyspec::Segment;
use crate::keyspec::ROW_DIGEST_BYTES;

mod partial;
pub use partial::{VERIFY_MAGIC, VERIFY_VERSION};

/// Buckets the first pass counts in.
pub const BUCKETS: usize = 4096;

/// Most key bytes the second pass holds (both sides): beyond, the counts are lower bounds,
/// said.
pub const MAX_HELD_BYTES: usize = 256 << 20;

/// Differences named, at most.
pub const FIRST_DIFFERENCES: usize = 20;

/// Which export a row is from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
    /// Every old row is in the new table once with its fields, and nothing else is.
    pub equal: bool,
    /// The counts above are exact (else the differing rows passed [`MAX_HELD_BYTES`] and the
    /// counts are of the rows held: lower bounds).
    pub complete: bool,
    /// The first differences, by new key.
    pub first: Vec<Difference>,
}

/// The comparison, fed with the two exports' rows read through [`Verifier::design`].
#[derive(Debug)]
pub struct Verifier {
    doc: DesignDocument,
    tallies: [Vec<Tally>; 2],
    differing: Option<Vec<bool>>,
    held: [HashMap<Vec<u8>, Vec<[u8; 16]>>; 2],
    held_bytes: usize,
    complete: bool,
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
            held: [HashMap::new(), HashMap::new()],
            held_bytes: 0,
            complete: true,
        })
    }

    /// The design both exports are read with, each key followed by its row's digest: the new
    /// design (its regions left out: they do not change a key).
    pub fn design(&self) -> &DesignDocument {
        &self.doc
    }

    /// Each of `keys` (end to end, `offsets` from 0, as a reading's keys) as (new key,
    /// digest).
    fn rows<'a>(
        &self,
        keys: &'a [u8],
        offsets: &'a [u32],
    ) -> impl Iterator<Item = Result<(&'a [u8], &'a [u8])>> + 'a {
        let digest = ROW_DIGEST_BYTES;
        offsets.windows(2).map(move |w| {
            let (a, b) = match w {
                [a, b] => (*a as usize, *b as usize),
                _ => (0, 0),
            };
            let k = keys
                .get(a..b)
                .ok_or_else(|| Error::arg("offsets", "an offset past the keys, or going back"))?;
            if k.len() < digest {
                return Err(Error::arg(
                    "keys",
                    "a key shorter than its row's digest: not read with digests (keepKeys(true))",
                ));
            }
            Ok(k.split_at(k.len() - digest))
        })
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
        for row in self.rows(keys, offsets) {
            let (key, digest) = row?;
            let bucket = (h(key, 0) % BUCKETS as u64) as usize;
            let both = h(digest, h(key, 1));
            adds.push((bucket, both, h(digest, h(key, 2))));
        }
        let t = &mut self.tallies[side(s)];
        for (bucket, a, b) in adds {
            if let Some(x) = t.get_mut(bucket) {
                x.rows += 1;
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
        n
    }

    /// The second pass: hold the rows of a slice that fall in a differing bucket.
    pub fn hold(&mut self, s: Side, keys: &[u8], offsets: &[u32]) -> Result<()> {
        if self.differing.is_none() {
            self.end_count();
        }
        let mut kept = Vec::new();
        for row in self.rows(keys, offsets) {
            let (key, digest) = row?;
            let bucket = (h(key, 0) % BUCKETS as u64) as usize;
            if self
                .differing
                .as_ref()
                .is_some_and(|d| d.get(bucket) == Some(&true))
            {
                let mut md = [0u8; 16];
                md.copy_from_slice(digest);
                kept.push((key.to_vec(), md));
            }
        }
        for (key, md) in kept {
            if self.held_bytes + key.len() + 16 > MAX_HELD_BYTES {
                self.complete = false;
                continue;
            }
            self.held_bytes += key.len() + 16;
            self.held[side(s)].entry(key).or_default().push(md);
        }
        Ok(())
    }

    /// The comparison.
    pub fn finish(mut self) -> VerifyReport {
        let rows = |t: &[Tally]| t.iter().map(|x| x.rows).sum::<u64>();
        let (old_rows, new_rows) = (rows(&self.tallies[0]), rows(&self.tallies[1]));
        let differing = match &self.differing {
            Some(d) => d.iter().filter(|&&x| x).count(),
            None => self.end_count(),
        };
        let [old, new] = std::mem::take(&mut self.held);
        let (mut missing, mut extra, mut changed) = (0u64, 0u64, 0u64);
        let mut first: Vec<(Vec<u8>, &'static str)> = Vec::new();
        let mut keys: Vec<&Vec<u8>> = old
            .keys()
            .chain(new.keys().filter(|k| !old.contains_key(*k)))
            .collect();
        keys.sort_unstable();
        for k in keys {
            let mut a = old.get(k).cloned().unwrap_or_default();
            let mut b = new.get(k).cloned().unwrap_or_default();
            a.sort_unstable();
            b.sort_unstable();
            // matched digests are equal rows; of the rest, pairs are changed rows
            let (mut i, mut j) = (0, 0);
            let (mut only_a, mut only_b) = (0u64, 0u64);
            while i < a.len() || j < b.len() {
                match (a.get(i), b.get(j)) {
                    (Some(x), Some(y)) if x == y => {
                        i += 1;
                        j += 1;
                    }
                    (Some(x), Some(y)) if x < y => {
                        only_a += 1;
                        i += 1;
                    }
                    (Some(_), None) => {
                        only_a += 1;
                        i += 1;
                    }
                    _ => {
                        only_b += 1;
                        j += 1;
                    }
                }
            }
            let c = only_a.min(only_b);
            changed += c;
            missing += only_a - c;
            extra += only_b - c;
            let kind = if c > 0 {
                Some("changed")
            } else if only_a > 0 {
                Some("missing")
            } else if only_b > 0 {
                Some("extra")
            } else {
                None
            };
            if let Some(kind) = kind {
                if first.len() < FIRST_DIFFERENCES {
                    first.push((k.clone(), kind));
                }
            }
        }
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
        VerifyReport {
            old_rows,
            new_rows,
            buckets: BUCKETS,
            differing_buckets: differing,
            missing,
            extra,
            changed,
            equal: differing == 0,
            complete: self.complete,
            first,
        }
    }
}

/// A verification of two files the engine reads itself (Python's `verify` of two paths).
#[cfg(feature = "rows")]
mod files;
#[cfg(feature = "rows")]
pub use files::Export;
