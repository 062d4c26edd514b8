//! A verification in pieces (Spark's partitions, each counted where it lies): a [`Verifier`]
//! that counted or held one piece's rows travels as bytes ([`Verifier::partial`]) and the
//! pieces merge exactly ([`Verifier::merge`]): the bucket tallies are sums, the held rows a
//! union by key, so the merged comparison is the one a single reader of both exports makes.
//!
//! The bytes: [`VERIFY_MAGIC`], [`VERIFY_VERSION`] (little-endian u16), a hash of the design
//! the rows were read with (u64), a hash of the body (u64, so a changed byte is refused rather
//! than merged into another answer), then the body (postcard: the non-empty tallies per side,
//! the held rows, whether every differing row was held).

use serde::{Deserialize, Serialize};

use super::{Tally, Verifier, BUCKETS};
use crate::error::{Error, ErrorKind, Result};
use crate::keyspec::ROW_DIGEST_BYTES;

/// The first bytes of a verification's partial.
pub const VERIFY_MAGIC: [u8; 4] = crate::support::magic::VERIFY;
/// The format version of a verification's partial.
pub const VERIFY_VERSION: u16 = 2;

const HEAD: usize = 4 + 2 + 8 + 8;

/// One bucket's tally: (bucket, rows, sum, mix, bytes).
type BucketTally = (u32, u64, u64, u64, u64);

/// The held rows: each row (key, then digest) and its count, old rows +1 and new −1.
type HeldRows = Vec<(Vec<u8>, i64)>;

#[derive(Serialize, Deserialize)]
struct Body {
    /// Per side, each bucket with rows.
    tallies: [Vec<BucketTally>; 2],
    /// The held rows, sorted.
    held: HeldRows,
    complete: bool,
    /// The rounds settled: missing, extra, changed, and the first differences (key, kind).
    settled: (u64, u64, u64, Vec<(Vec<u8>, u8)>),
}

/// A difference's kind as a byte.
const KINDS: [&str; 3] = ["missing", "extra", "changed"];

fn bad(why: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorKind::IllegalArgument,
        format!("not a verification partial of this design: {why}"),
    )
    .at_path("partial")
}

impl Verifier {
    fn design_hash(&self) -> u64 {
        super::h(self.doc.to_json().as_bytes(), 3)
    }

    /// What this verifier counted and held, as bytes to [`merge`](Self::merge) into another
    /// verifier of the same new design.
    pub fn partial(&self) -> Result<Vec<u8>> {
        let tallies = [0, 1].map(|s| {
            self.tallies[s]
                .iter()
                .enumerate()
                .filter(|(_, t)| t.rows > 0)
                .map(|(b, t)| (b as u32, t.rows, t.sum, t.mix, t.bytes))
                .collect()
        });
        let mut held: HeldRows = self.held.iter().map(|(r, &n)| (r.to_vec(), n)).collect();
        held.sort_unstable();
        let st = &self.settled;
        let first = st
            .first
            .iter()
            .map(|(k, kind)| {
                (
                    k.clone(),
                    KINDS.iter().position(|x| x == kind).unwrap_or(0) as u8,
                )
            })
            .collect();
        let body = postcard::to_allocvec(&Body {
            tallies,
            held,
            complete: self.complete,
            settled: (st.missing, st.extra, st.changed, first),
        })
        .map_err(|e| Error::new(ErrorKind::IllegalState, format!("a partial: {e}")))?;
        let mut out = Vec::with_capacity(HEAD + body.len());
        out.extend_from_slice(&VERIFY_MAGIC);
        out.extend_from_slice(&VERIFY_VERSION.to_le_bytes());
        out.extend_from_slice(&self.design_hash().to_le_bytes());
        out.extend_from_slice(&super::h(&body, 4).to_le_bytes());
        out.extend_from_slice(&body);
        Ok(out)
    }

    /// Add another piece's [`partial`](Self::partial): its tallies (before the count ends) and
    /// its held rows, added to these (a row on both sides cancels; up to
    /// [`MAX_HELD_BYTES`](super::MAX_HELD_BYTES) held at once, past which the counts are lower
    /// bounds, as one reader's are). Nothing is added when the partial is refused.
    pub fn merge(&mut self, bytes: &[u8]) -> Result<()> {
        let word = |at: usize| -> [u8; 8] {
            bytes
                .get(at..at + 8)
                .and_then(|w| w.try_into().ok())
                .unwrap_or([0; 8])
        };
        if bytes.get(..4) != Some(&VERIFY_MAGIC[..]) || bytes.len() < HEAD {
            return Err(bad("it does not start with RKLV"));
        }
        let version = u16::from_le_bytes([bytes[4], bytes[5]]);
        if version != VERIFY_VERSION {
            return Err(bad(format!(
                "version {version}, where this engine reads {VERIFY_VERSION}"
            )));
        }
        if u64::from_le_bytes(word(6)) != self.design_hash() {
            return Err(bad("it was read for another design"));
        }
        let body = &bytes[HEAD..];
        if u64::from_le_bytes(word(14)) != super::h(body, 4) {
            return Err(bad("its bytes were changed"));
        }
        let body: Body = postcard::from_bytes(body).map_err(|e| bad(format!("its body: {e}")))?;
        let counted = body.tallies.iter().any(|t| !t.is_empty());
        if counted && self.differing.is_some() {
            return Err(Error::new(
                ErrorKind::IllegalState,
                "the count has ended: merge the counts' partials before the held rows'",
            ));
        }
        if body
            .tallies
            .iter()
            .flatten()
            .any(|t| t.0 as usize >= BUCKETS)
        {
            return Err(bad("a bucket out of range"));
        }
        if body
            .held
            .iter()
            .any(|(r, n)| r.len() < ROW_DIGEST_BYTES || *n == 0)
        {
            return Err(bad("a held row without its digest, or held 0 times"));
        }
        let (missing, extra, changed, first) = body.settled;
        let kinds: Option<Vec<(Vec<u8>, &'static str)>> = first
            .into_iter()
            .map(|(k, i)| KINDS.get(i as usize).map(|kind| (k, *kind)))
            .collect();
        let Some(kinds) = kinds else {
            return Err(bad("a difference of no kind"));
        };
        for (s, tallies) in body.tallies.iter().enumerate() {
            for &(b, rows, sum, mix, bytes) in tallies {
                if let Some(t) = self.tallies[s].get_mut(b as usize) {
                    *t = Tally {
                        rows: t.rows.saturating_add(rows),
                        sum: t.sum.wrapping_add(sum),
                        mix: t.mix.wrapping_add(mix),
                        bytes: t.bytes.saturating_add(bytes),
                    };
                }
            }
        }
        self.complete &= body.complete;
        if body
            .held
            .iter()
            .any(|(r, n)| r.len() < ROW_DIGEST_BYTES || *n == 0)
        {
            return Err(bad("a held row without its digest, or held 0 times"));
        }
        for (row, n) in body.held {
            self.held_add(&row, n);
        }
        // rounds settled elsewhere (Spark's driver, a round at a time): their buckets are
        // disjoint from any held here, so their counts add
        let st = &mut self.settled;
        st.missing += missing;
        st.extra += extra;
        st.changed += changed;
        st.first.extend(kinds);
        st.keep_first();
        Ok(())
    }

    /// The buckets whose rows differ (ending the count: [`end_count`](Self::end_count)), for
    /// the pieces that hold their rows ([`hold_in`](Self::hold_in)).
    pub fn differing_buckets(&mut self) -> Vec<u32> {
        if self.differing.is_none() {
            self.end_count();
        }
        let d = self.differing.as_deref().unwrap_or_default();
        (0..d.len() as u32)
            .filter(|&b| d.get(b as usize) == Some(&true))
            .collect()
    }

    /// A verifier of one piece for the second pass: it [`hold`](Self::hold)s the rows of
    /// `buckets` (another verifier's [`differing_buckets`](Self::differing_buckets)), having
    /// counted nothing itself.
    pub fn hold_in(&mut self, buckets: &[u32]) -> Result<()> {
        let mut d = vec![false; BUCKETS];
        for &b in buckets {
            *d.get_mut(b as usize)
                .ok_or_else(|| Error::arg("buckets", format!("bucket {b} of {BUCKETS}")))? = true;
        }
        self.differing = Some(d);
        Ok(())
    }
}
