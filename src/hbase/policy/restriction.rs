//! `RegionSplitRestriction` and the split-point half of `HRegion.checkSplit`: where a policy's
//! split point is cut back to a key prefix, and whether it may split the region at all.

use super::*;

/// A split restriction (`RegionSplitRestriction`), applied by `HRegion.checkSplit` to any
/// non-empty policy split point.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "type"
)]
pub enum SplitRestriction {
    /// `NoRegionSplitRestriction`.
    #[default]
    None,
    /// `KeyPrefixRegionSplitRestriction`: cut to the first `prefix_length` bytes (≤ 0: no-op).
    KeyPrefix {
        /// Prefix length in bytes; ≤ 0 disables it (HBase logs and ignores it).
        prefix_length: i32,
    },
    /// `DelimitedKeyPrefixRegionSplitRestriction`: cut just before the first delimiter.
    DelimitedKeyPrefix {
        /// The delimiter, compared as UTF-8 bytes; empty disables it.
        delimiter: String,
    },
}

impl SplitRestriction {
    /// `RegionSplitRestriction.create`: the type from the table value, else the conf, else
    /// `None`; an unknown type (the match is case-sensitive) is `None`. The parameters come
    /// from the table value, else the conf: a KeyPrefix length that is missing or not a
    /// Java `int` disables it; a Delimited delimiter is taken from the table only when
    /// non-empty.
    pub fn create(table_values: &Values, conf: &Values) -> SplitRestriction {
        let ty = table_values
            .get(RESTRICTION_TYPE_KEY)
            .or_else(|| conf.get(RESTRICTION_TYPE_KEY))
            .map_or("None", String::as_str);
        match ty {
            "KeyPrefix" => {
                let s = table_values
                    .get(RESTRICTION_PREFIX_LENGTH_KEY)
                    .or_else(|| conf.get(RESTRICTION_PREFIX_LENGTH_KEY));
                SplitRestriction::KeyPrefix {
                    prefix_length: s.and_then(|s| java_parse_int(s)).unwrap_or(0),
                }
            }
            "DelimitedKeyPrefix" => {
                let pick = |v: &Values| {
                    v.get(RESTRICTION_DELIMITER_KEY)
                        .filter(|d| !d.is_empty())
                        .cloned()
                };
                SplitRestriction::DelimitedKeyPrefix {
                    delimiter: pick(table_values)
                        .or_else(|| pick(conf))
                        .unwrap_or_default(),
                }
            }
            _ => SplitRestriction::None,
        }
    }

    /// The HBase class simple name of this restriction.
    pub fn class_name(&self) -> &'static str {
        match self {
            SplitRestriction::None => "NoRegionSplitRestriction",
            SplitRestriction::KeyPrefix { .. } => "KeyPrefixRegionSplitRestriction",
            SplitRestriction::DelimitedKeyPrefix { .. } => {
                "DelimitedKeyPrefixRegionSplitRestriction"
            }
        }
    }

    /// `getRestrictedSplitPoint`. A delimiter at index 0 gives an **empty** point (§13.10).
    pub fn restricted_split_point(&self, point: &[u8]) -> Vec<u8> {
        match self {
            SplitRestriction::None => point.to_vec(),
            SplitRestriction::KeyPrefix { prefix_length } => {
                truncate_prefix(point.to_vec(), *prefix_length)
            }
            SplitRestriction::DelimitedKeyPrefix { delimiter } => {
                truncate_at_delimiter(point.to_vec(), delimiter.as_bytes())
            }
        }
    }
}

/// The split-point half of `HRegion.checkSplit`: a non-empty `policy_point` goes through
/// `restriction`; the result is kept only if it lies in the region `[start, end)` (empty
/// bounds are open; an empty point lies only in a region with an empty start).
///
/// This is the region server's rule; the master also refuses a point equal to the region's
/// start key, see [`is_usable_split_row`].
pub fn check_split(
    policy_point: Option<Vec<u8>>,
    restriction: &SplitRestriction,
    region_start: &[u8],
    region_end: &[u8],
) -> Option<Vec<u8>> {
    let p = policy_point?;
    let p = if p.is_empty() {
        p
    } else {
        restriction.restricted_split_point(&p)
    };
    row_in_range(region_start, region_end, &p).then_some(p)
}

/// Whether `row` can really split the region `[start, end)` once the master's check is
/// added: `start < row` (or start empty) and `row < end` (or end empty).
pub fn is_usable_split_row(region_start: &[u8], region_end: &[u8], row: &[u8]) -> bool {
    (region_start.is_empty() || region_start < row) && (region_end.is_empty() || row < region_end)
}

/// `HRegion.rowIsInRange`: `[start, end)`, empty bounds open, unsigned byte order.
fn row_in_range(start: &[u8], end: &[u8], row: &[u8]) -> bool {
    (start.is_empty() || start <= row) && (end.is_empty() || row < end)
}
