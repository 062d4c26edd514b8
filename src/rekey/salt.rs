//! Changing a salt's bucket count on live data: which rows move and which reads change.

use serde::Serialize;

use crate::design::DesignDocument;
use crate::error::Result;
use crate::keyspec::Segment;

/// What changing the leading salt's bucket count from `from` to `to` does.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SaltWhatIf {
    /// Buckets before.
    pub from: u32,
    /// Buckets after.
    pub to: u32,
    /// The share of rows whose bucket (and so whose key) changes, for a hash uniform over its
    /// range: a row keeps its bucket when `h mod from == h mod to`, which holds for
    /// `min(from, to)` of every `lcm(from, to)` hash values.
    pub moved_share: f64,
    /// Each read of the new design whose scan count differs: `(name, scans before, after)`.
    pub reads: Vec<ReadChange>,
}

/// One read whose scans change with the bucket count.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadChange {
    /// The read's name.
    pub name: String,
    /// Scans under the old design.
    pub scans_before: usize,
    /// Scans under the new design.
    pub scans_after: usize,
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The share of uniform hash values whose bucket differs between `a` and `b` buckets.
pub fn moved_share(a: u32, b: u32) -> f64 {
    let (a, b) = (u64::from(a.max(1)), u64::from(b.max(1)));
    let lcm = a / gcd(a, b) * b;
    1.0 - a.min(b) as f64 / lcm as f64
}

fn leading_salt(doc: &DesignDocument) -> Option<u32> {
    match doc.key.segments.first()? {
        Segment::Salt(s) => Some(s.buckets),
        _ => None,
    }
}

/// When both designs' keys open with a salt and the counts differ: the rows that move and the
/// reads whose scans change (each design's reads planned on its own pre-split).
pub fn salt_what_if(old: &DesignDocument, new: &DesignDocument) -> Result<Option<SaltWhatIf>> {
    let (Some(from), Some(to)) = (leading_salt(old), leading_salt(new)) else {
        return Ok(None);
    };
    if from == to {
        return Ok(None);
    }
    let before = old.plan_reads(&old.presplit_keys(&[]).unwrap_or_default())?;
    let after = new.plan_reads(&new.presplit_keys(&[]).unwrap_or_default())?;
    let reads = after
        .iter()
        .filter_map(|a| {
            let b = before.iter().find(|b| b.name == a.name)?;
            (b.scans.len() != a.scans.len()).then(|| ReadChange {
                name: a.name.clone(),
                scans_before: b.scans.len(),
                scans_after: a.scans.len(),
            })
        })
        .collect();
    Ok(Some(SaltWhatIf {
        from,
        to,
        moved_share: moved_share(from, to),
        reads,
    }))
}
