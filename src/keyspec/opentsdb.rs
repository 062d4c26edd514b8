//! OpenTSDB's row layout in the key language: `uid(f, W, [table])`, `baseTime(f)` and
//! `tags(values, tagk=[...])`, byte for byte what `TSDB.addPoint` writes (see
//! [`crate::hbase::opentsdb`]; `tests/engine/opentsdb/` holds the language against that port).

use super::ast::*;
use crate::error::{Error, ErrorKind, Result};
use crate::hbase::opentsdb::internal::max_unsigned_value_on_bytes;
use crate::support::json::quote;

/// Most UIDs one `uid(f, W)` assigns in order of first appearance (the table lives as long
/// as the compiled key: memory grows with the distinct values, so it is bounded).
pub const MAX_ASSIGNED_UIDS: usize = 1 << 20;

/// Most bytes of names all `uid(f, W)` segments of one compiled key keep, counted as they are
/// numbered (each name is kept twice: by name and by UID). Names are field values, which may
/// be kilobytes long: a million names of 4 KiB would be 8 GiB, past what a wasm module can
/// address, so the count alone does not bound the memory.
pub const MAX_UID_NAME_BYTES: usize = 64 << 20;

/// `id` big-endian on `width` bytes (what `UniqueId` stores), or `None` when it is negative
/// or above `Internal.getMaxUnsignedValueOnBytes(width)`.
pub(crate) fn uid_bytes(id: i64, width: u32, out: &mut Vec<u8>) -> Option<()> {
    let w = i32::try_from(width).ok()?;
    let max = max_unsigned_value_on_bytes(w).ok()?;
    if id < 0 || id > max {
        return None;
    }
    let b = id.to_be_bytes();
    out.extend_from_slice(b.get(8usize.checked_sub(width as usize)?..)?);
    Some(())
}

/// A UID's value back from its bytes (big-endian, at most 8).
pub(crate) fn uid_value(b: &[u8]) -> Option<i64> {
    if b.len() > 8 {
        return None;
    }
    let mut x = [0u8; 8];
    x.get_mut(8 - b.len()..)?.copy_from_slice(b);
    Some(i64::from_be_bytes(x))
}

fn invalid(path: &str, msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::Invalid, msg).at_path(path.to_string())
}

/// Width 1..=8 and every id in `0..=getMaxUnsignedValueOnBytes(width)`, names and ids distinct.
fn validate_ids(entries: &[(String, i64)], width: u32, at: &str) -> Result<()> {
    if !(1..=8).contains(&width) {
        return Err(invalid(
            at,
            format!("UID width must be 1 to 8 bytes, got {width}"),
        ));
    }
    let at = format!("{at}/entries");
    // By hash, not by scanning the entries before: a table may hold 10^5 names.
    let mut by_id: std::collections::HashMap<i64, &str> = Default::default();
    let mut names: std::collections::HashSet<&str> = Default::default();
    for (k, id) in entries {
        if uid_bytes(*id, width, &mut Vec::new()).is_none() {
            let max = max_unsigned_value_on_bytes(width as i32).unwrap_or(0);
            return Err(invalid(
                &at,
                format!(
                    "UID {id} of {} does not fit {width} bytes (0 to {max})",
                    quote(k)
                ),
            ));
        }
        if let Some(other) = by_id.insert(*id, k) {
            return Err(invalid(
                &at,
                format!("{} and {} have the same UID {id}", quote(k), quote(other)),
            ));
        }
        if !names.insert(k) {
            return Err(invalid(&at, format!("{} is listed twice", quote(k))));
        }
    }
    Ok(())
}

/// `uid(...)`'s checks.
pub(crate) fn validate_uid(u: &UidSpec, p: &str) -> Result<()> {
    if let Some(e) = &u.entries {
        if e.is_empty() {
            return Err(invalid(&format!("{p}/entries"), "the table is empty"));
        }
    }
    validate_ids(u.entries.as_deref().unwrap_or(&[]), u.width, p)
}

/// `tags(...)`'s checks, its value segments aside: one tag key per value, distinct UIDs that
/// fit the width.
pub(crate) fn validate_tags(t: &TagsSpec, p: &str) -> Result<()> {
    if t.of.is_empty() {
        return Err(invalid(
            &format!("{p}/of"),
            "tags(...) needs at least one tag value",
        ));
    }
    if t.tagk.len() != t.of.len() {
        return Err(invalid(
            &format!("{p}/tagk"),
            format!(
                "tags(...) has {} values and {} tag keys: give one tag key per value, in order",
                t.of.len(),
                t.tagk.len()
            ),
        ));
    }
    if let Some(i) = t.of.iter().position(|s| matches!(s, Segment::Tags(_))) {
        return Err(invalid(
            &format!("{p}/of/{i}"),
            "tags(...) cannot nest tags(...)",
        ));
    }
    validate_ids(&t.tagk, t.width, p)
}

/// The tag section as plain segments: each value after its tag-key UID, the pairs sorted by
/// tag-key UID bytes (`Bytes.MEMCMP` on `tagk + tagv`; tag-key UIDs are distinct, so their
/// bytes decide).
fn expand_one(t: &TagsSpec, out: &mut Vec<Segment>) {
    let mut pairs: Vec<(Vec<u8>, &Segment)> = t
        .tagk
        .iter()
        .zip(&t.of)
        .map(|((_, id), seg)| {
            let mut b = Vec::new();
            let _ = uid_bytes(*id, t.width, &mut b);
            (b, seg)
        })
        .collect();
    pairs.sort_by(|a, b| a.0.cmp(&b.0));
    for (k, seg) in pairs {
        out.push(Segment::Literal(Literal { bytes: k }));
        out.extend(expand(std::slice::from_ref(seg)));
    }
}

/// Whether any segment, nested ones included, is a `tags(...)`.
pub(crate) fn has_tags(segs: &[Segment]) -> bool {
    segs.iter().any(|s| match s {
        Segment::Tags(_) => true,
        Segment::When(w) => has_tags(&w.then),
        Segment::Salt(SaltSpec { of: Some(o), .. })
        | Segment::Hash15(HashSpec { of: Some(o) })
        | Segment::Md5(HashSpec { of: Some(o) })
        | Segment::Md5Hex(Md5HexSpec { of: Some(o), .. }) => has_tags(o),
        _ => false,
    })
}

/// Whether any segment, nested ones included, is a `uid(f, W)` without a table: it numbers
/// names in the order records arrive, so its bytes depend on every record before, and an
/// analysis of it cannot be cut into blocks counted apart (each would number from 1).
pub fn numbers_in_order(segs: &[Segment]) -> bool {
    segs.iter().any(|s| match s {
        Segment::Uid(u) => u.entries.is_none(),
        Segment::Tags(t) => numbers_in_order(&t.of),
        Segment::When(w) => numbers_in_order(&w.then),
        Segment::Salt(SaltSpec { of: Some(o), .. })
        | Segment::Hash15(HashSpec { of: Some(o) })
        | Segment::Md5(HashSpec { of: Some(o) })
        | Segment::Md5Hex(Md5HexSpec { of: Some(o), .. }) => numbers_in_order(o),
        _ => false,
    })
}

/// `segs` with every `tags(...)` replaced by its literal tag-key UIDs and values, in key
/// order (nested in `when` branches and hash sources too). What the compiled key lays out,
/// encodes and decodes.
pub(crate) fn expand(segs: &[Segment]) -> Vec<Segment> {
    let mut out = Vec::with_capacity(segs.len());
    for s in segs {
        match s {
            Segment::Tags(t) => expand_one(t, &mut out),
            Segment::When(w) => out.push(Segment::When(WhenSpec {
                then: expand(&w.then),
                ..w.clone()
            })),
            Segment::Salt(x) => out.push(Segment::Salt(SaltSpec {
                of: x.of.as_deref().map(expand),
                ..x.clone()
            })),
            Segment::Hash15(h) => out.push(Segment::Hash15(HashSpec {
                of: h.of.as_deref().map(expand),
            })),
            Segment::Md5(h) => out.push(Segment::Md5(HashSpec {
                of: h.of.as_deref().map(expand),
            })),
            Segment::Md5Hex(h) => out.push(Segment::Md5Hex(Md5HexSpec {
                of: h.of.as_deref().map(expand),
                ..h.clone()
            })),
            other => out.push(other.clone()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uid_bytes_fit_or_refuse() {
        let mut b = Vec::new();
        assert_eq!(uid_bytes(1, 3, &mut b), Some(()));
        assert_eq!(b, vec![0, 0, 1]);
        assert_eq!(uid_bytes(0xFF_FFFF + 1, 3, &mut Vec::new()), None);
        assert_eq!(uid_bytes(-1, 3, &mut Vec::new()), None);
        assert_eq!(uid_bytes(1, 9, &mut Vec::new()), None);
        let mut b = Vec::new();
        assert_eq!(uid_bytes(i64::MAX, 8, &mut b), Some(()));
        assert_eq!(uid_value(&b), Some(i64::MAX));
        assert_eq!(uid_value(&[0; 9]), None);
    }
}
