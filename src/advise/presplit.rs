//! Pre-splits and the key: how many regions a pre-split makes, which pre-split matches a key's
//! first segment (salt buckets, MD5 hex, a binary hash), and how a candidate names one. What
//! the candidates, the capacity arithmetic and the region plan share.

use crate::keyspec::{Render, SaltHash, Segment};
use crate::region::{PreSplit, RegionLayout, SaltStyle};

/// How many regions a pre-split creates (a `sampleQuantiles` one at most `regions`).
pub(crate) fn region_count(p: &PreSplit) -> u32 {
    match p {
        PreSplit::None => 1,
        PreSplit::Explicit { keys, .. } => u32::try_from(keys.len()).unwrap_or(u32::MAX - 1) + 1,
        PreSplit::HexString { regions, .. }
        | PreSplit::DecimalString { regions, .. }
        | PreSplit::Uniform { regions, .. }
        | PreSplit::SampleQuantiles { regions, .. }
        | PreSplit::CreateTable { regions, .. } => *regions,
        PreSplit::BytesSplit { num, .. } => num.saturating_add(3),
        PreSplit::SaltBuckets { buckets, .. } => *buckets,
    }
}

/// Digits of `n - 1` (at least 1).
pub(super) fn digits(n: u32) -> u32 {
    n.saturating_sub(1).max(1).ilog10() + 1
}

pub(super) fn hash_name(h: SaltHash) -> &'static str {
    match h {
        SaltHash::JavaString => "javaString",
        SaltHash::Arrays => "arrays",
        SaltHash::Md5 => "md5",
        SaltHash::Phoenix => "phoenix",
        SaltHash::Hbasewd => "hbasewd",
        SaltHash::Opentsdb => "opentsdb",
    }
}

/// The pre-split that matches a key starting with `prefix`, with `regions` regions; `None`
/// when no kind fits better than a sample.
pub(crate) fn matched_presplit(prefix: &Segment, regions: u32) -> Option<PreSplit> {
    match prefix {
        Segment::Salt(s) => match s.render {
            Render::Byte | Render::Bytes(1) => Some(PreSplit::SaltBuckets {
                buckets: s.buckets,
                style: SaltStyle::Byte,
                width: None,
            }),
            Render::Dec(w) => Some(PreSplit::SaltBuckets {
                buckets: s.buckets,
                style: SaltStyle::Decimal,
                width: Some(w),
            }),
            _ => None,
        },
        Segment::Random(r) => match r.render {
            Render::Byte => Some(PreSplit::SaltBuckets {
                buckets: r.buckets,
                style: SaltStyle::Byte,
                width: None,
            }),
            Render::Dec(w) => Some(PreSplit::SaltBuckets {
                buckets: r.buckets,
                style: SaltStyle::Decimal,
                width: Some(w),
            }),
            _ => None,
        },
        // RegionSplitter's HexStringSplit writes lower-case digits: an upper-case MD5 prefix
        // gets the same points upper-cased (as explicit keys).
        Segment::Md5Hex(h) => {
            let width = h.len.min(8);
            let hex = PreSplit::HexString {
                regions,
                first_row: Some("0".repeat(width as usize)),
                last_row: Some("f".repeat(width as usize)),
            };
            if !h.upper {
                return Some(hex);
            }
            let layout = RegionLayout {
                presplit: hex,
                ..RegionLayout::default()
            };
            let keys = layout.split_keys(&[]).ok()?;
            Some(PreSplit::Explicit {
                keys: keys
                    .iter()
                    .map(|k| String::from_utf8_lossy(k).to_uppercase())
                    .collect(),
                encoding: crate::region::KeyEncoding::StringBinary,
            })
        }
        Segment::Md5(_) => Some(PreSplit::Uniform {
            regions,
            first_row: None,
            last_row: None,
        }),
        // `(short)(hashCode & 0x7FFF)`: two bytes from 00 00 to 7F FF.
        Segment::Hash15(_) => Some(PreSplit::Uniform {
            regions,
            first_row: None,
            last_row: Some("\\x7F\\xFF".into()),
        }),
        _ => None,
    }
}

pub(super) fn describe_presplit(p: &PreSplit) -> String {
    match p {
        PreSplit::SaltBuckets { buckets, .. } => format!("saltBuckets pre-split ({buckets})"),
        other => format!(
            "{} pre-split ({} regions)",
            other.kind(),
            region_count(other)
        ),
    }
}
