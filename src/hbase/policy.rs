//! HBase region split policies and split restrictions, as a pure model.
//!
//! Reproduces `ConstantSizeRegionSplitPolicy`, `IncreasingToUpperBoundRegionSplitPolicy`,
//! `SteppingSplitPolicy`, `KeyPrefixRegionSplitPolicy`, `DelimitedKeyPrefixRegionSplitPolicy`,
//! `DisabledRegionSplitPolicy`, the `RegionSplitRestriction` family and the split-point part
//! of `HRegion.checkSplit` (spec §11). Nothing here reads a clock or a random source: the
//! jitter draw is an input, so an auto-split simulator can replay a run exactly.
//!
//! Java integer semantics are copied on purpose: sizes are `long` and wrap (the
//! IncreasingToUpperBound limit `initial × count³` can wrap negative and then forces a split,
//! §13.10), and the `double → long` jitter cast saturates like Java's.

use std::collections::BTreeMap;

use crate::error::{Error, Result};

/// `hbase.hregion.max.filesize` default: 10 GiB.
pub const DEFAULT_MAX_FILE_SIZE: i64 = 10 * 1024 * 1024 * 1024;
/// `hbase.hregion.memstore.flush.size` default: 128 MiB.
pub const DEFAULT_MEMSTORE_FLUSH_SIZE: i64 = 128 * 1024 * 1024;
/// `hbase.hregion.max.filesize.jitter` default: ±12.5 % around the desired size.
pub const DEFAULT_JITTER: f64 = 0.25;
/// IncreasingToUpperBound stops growing the limit above this many regions of the table.
pub const MAX_REGION_COUNT_FOR_INCREASE: i32 = 100;

/// Table value naming the KeyPrefix policy's prefix length.
pub const KEY_PREFIX_POLICY_LENGTH_KEY: &str = "KeyPrefixRegionSplitPolicy.prefix_length";
/// Deprecated fallback key for the KeyPrefix policy's prefix length.
pub const KEY_PREFIX_POLICY_LENGTH_KEY_DEPRECATED: &str = "prefix_split_key_policy.prefix_length";
/// Table value naming the DelimitedKeyPrefix policy's delimiter.
pub const DELIMITED_POLICY_DELIMITER_KEY: &str = "DelimitedKeyPrefixRegionSplitPolicy.delimiter";
/// Table value / conf key choosing the split restriction type.
pub const RESTRICTION_TYPE_KEY: &str = "hbase.regionserver.region.split_restriction.type";
/// Table value / conf key with the KeyPrefix restriction's length.
pub const RESTRICTION_PREFIX_LENGTH_KEY: &str =
    "hbase.regionserver.region.split_restriction.prefix_length";
/// Table value / conf key with the DelimitedKeyPrefix restriction's delimiter.
pub const RESTRICTION_DELIMITER_KEY: &str = "hbase.regionserver.region.split_restriction.delimiter";

/// String-valued settings (a table descriptor's values or a configuration), by key.
pub type Values = BTreeMap<String, String>;

/// The split-related settings of a cluster and a table, before any jitter is drawn.
/// `Default` gives hbase-default.xml with no table overrides.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SplitConfig {
    /// `hbase.hregion.max.filesize` (conf).
    pub max_file_size: i64,
    /// The table descriptor's `MAX_FILESIZE`; `None` = unset (HBase reads -1). Used when > 0.
    pub table_max_file_size: Option<i64>,
    /// `hbase.hregion.max.filesize.jitter`: the jitter rate is `(draw − 0.5) × jitter`.
    pub jitter: f64,
    /// `hbase.hregion.memstore.flush.size` (conf).
    pub memstore_flush_size: i64,
    /// The table descriptor's `MEMSTORE_FLUSHSIZE`; `None` = unset (HBase reads -1).
    pub table_memstore_flush_size: Option<i64>,
    /// `hbase.increasing.policy.initial.size`; used when > 0.
    pub initial_size: Option<i64>,
    /// `hbase.hregion.split.overallfiles`: compare the sum of all stores (true) or each store.
    pub overall_hregion_files: bool,
}

impl Default for SplitConfig {
    fn default() -> Self {
        SplitConfig {
            max_file_size: DEFAULT_MAX_FILE_SIZE,
            table_max_file_size: None,
            jitter: DEFAULT_JITTER,
            memstore_flush_size: DEFAULT_MEMSTORE_FLUSH_SIZE,
            table_memstore_flush_size: None,
            initial_size: None,
            overall_hregion_files: true,
        }
    }
}

impl SplitConfig {
    /// The un-jittered desired max size (`ConstantSizeRegionSplitPolicy`).
    pub fn desired_max_file_size(&self) -> i64 {
        desired_max_file_size(self.table_max_file_size, self.max_file_size)
    }

    /// The IncreasingToUpperBound initial size.
    pub fn initial_size(&self) -> i64 {
        initial_size(
            self.initial_size,
            self.table_memstore_flush_size,
            self.memstore_flush_size,
        )
    }

    /// The flush size in force (`HRegion.getMemStoreFlushSize`).
    pub fn flush_size(&self) -> i64 {
        super::store::flush_size(self.table_memstore_flush_size, self.memstore_flush_size)
    }

    /// The jitter rate for a random draw `u` in [0, 1) (Java `nextFloat()`).
    pub fn jitter_rate(&self, u: f32) -> f64 {
        jitter_rate(u, self.jitter)
    }

    /// The limits a policy instance works with. `jitter_draw` is the `nextFloat()` draw the
    /// region server would make when configuring the policy; `None` disables jitter.
    pub fn limits(&self, jitter_draw: Option<f32>) -> PolicyLimits {
        let desired = self.desired_max_file_size();
        PolicyLimits {
            desired_max_file_size: match jitter_draw {
                Some(u) => apply_jitter(desired, self.jitter_rate(u)),
                None => desired,
            },
            initial_size: self.initial_size(),
            overall_hregion_files: self.overall_hregion_files,
        }
    }
}

/// The resolved numbers a configured policy instance compares store sizes against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PolicyLimits {
    /// The desired max size after jitter.
    pub desired_max_file_size: i64,
    /// The IncreasingToUpperBound / Stepping initial size.
    pub initial_size: i64,
    /// Whether the size check sums all stores.
    pub overall_hregion_files: bool,
}

/// Desired max size: the table's `MAX_FILESIZE` if > 0, else the configured
/// `hbase.hregion.max.filesize` (default 10 GiB). A configured value is not re-checked,
/// so a conf of 0 gives 0, as in HBase.
pub fn desired_max_file_size(table_max_file_size: Option<i64>, conf_max_file_size: i64) -> i64 {
    match table_max_file_size {
        Some(t) if t > 0 => t,
        _ => conf_max_file_size,
    }
}

/// Jitter rate from a `nextFloat()` draw `u` and the configured `jitter`:
/// `(u − 0.5) × jitter` in double precision.
pub fn jitter_rate(u: f32, jitter: f64) -> f64 {
    (f64::from(u) - 0.5) * jitter
}

/// Apply a jitter `rate` to `desired`: `delta = (long)(desired × rate)` (saturating cast,
/// NaN → 0, exactly Java's), `Long.MAX` when a positive rate would overflow, else
/// `desired + delta` with Java wrap-around.
pub fn apply_jitter(desired: i64, rate: f64) -> i64 {
    // `as` from f64 saturates and maps NaN to 0, which is Java's (long) cast.
    let delta = (desired as f64 * rate) as i64;
    if rate > 0.0 && delta > i64::MAX.wrapping_sub(desired) {
        i64::MAX
    } else {
        desired.wrapping_add(delta)
    }
}

/// IncreasingToUpperBound initial size: `conf_initial_size` if > 0; else twice the table's
/// memstore flush size if that (wrapping) product is > 0; else twice the configured flush
/// size (default 128 MiB), which is not corrected even when it is not positive.
pub fn initial_size(
    conf_initial_size: Option<i64>,
    table_memstore_flush_size: Option<i64>,
    conf_memstore_flush_size: i64,
) -> i64 {
    if let Some(i) = conf_initial_size.filter(|&i| i > 0) {
        return i;
    }
    // An unset table flush size reads as -1 in HBase, so its double is never positive.
    let from_table = table_memstore_flush_size.unwrap_or(-1).wrapping_mul(2);
    if from_table > 0 {
        from_table
    } else {
        conf_memstore_flush_size.wrapping_mul(2)
    }
}

/// The number of the table's regions on this server that count for the size limit: those
/// with replica id 0. `None` (no server services) counts as 0.
pub fn count_table_regions(online_replica_ids: Option<&[i32]>) -> i32 {
    online_replica_ids.map_or(0, |ids| {
        // Java casts the stream count (a long) to int; wrap the same way.
        ids.iter().filter(|&&r| r == 0).count() as i32
    })
}

/// One store (column family) of a region, as the split policies see it.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct StoreState {
    /// Store size in bytes.
    pub size: i64,
    /// False while the store still holds reference files from a previous split.
    pub can_split: bool,
    /// The store's own split point (the mid key row of its largest file), `None` when it
    /// offers none (reference files, or the mid row equals the file's first or last row).
    #[serde(with = "opt_hex")]
    pub split_point: Option<Vec<u8>>,
}

/// A region as the split decision sees it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RegionState {
    /// The `hbase:meta` region never splits.
    pub is_meta: bool,
    /// An unavailable (closing, closed) region never splits.
    pub available: bool,
    /// The region's stores, in the region's order (ties in the split point keep the first).
    pub stores: Vec<StoreState>,
}

impl Default for RegionState {
    fn default() -> Self {
        RegionState {
            is_meta: false,
            available: true,
            stores: Vec::new(),
        }
    }
}

impl RegionState {
    /// A plain available user region with these stores.
    pub fn with_stores(stores: Vec<StoreState>) -> Self {
        RegionState {
            stores,
            ..RegionState::default()
        }
    }

    /// `RegionSplitPolicy.canSplit`: not meta, available, and every store can split.
    pub fn can_split(&self) -> bool {
        !self.is_meta && self.available && self.stores.iter().all(|s| s.can_split)
    }
}

/// `ConstantSizeRegionSplitPolicy.isExceedSize`: with `overall` the (wrapping) sum of all
/// store sizes, else any single store, must be strictly greater than `limit`.
pub fn exceeds_size(stores: &[StoreState], limit: i64, overall: bool) -> bool {
    if overall {
        stores.iter().fold(0i64, |acc, s| acc.wrapping_add(s.size)) > limit
    } else {
        stores.iter().any(|s| s.size > limit)
    }
}

/// `RegionSplitPolicy.getSplitPoint`: the point of the largest store that offers one. A store
/// must be strictly larger than every earlier chosen one and than 0, so ties keep the earlier
/// store and size-0 (or negative) stores never supply a point (§13.10).
pub fn largest_store_split_point(stores: &[StoreState]) -> Option<Vec<u8>> {
    let mut best: Option<&Vec<u8>> = None;
    let mut largest = 0i64;
    for s in stores {
        if let Some(p) = &s.split_point {
            if largest < s.size {
                best = Some(p);
                largest = s.size;
            }
        }
    }
    best.cloned()
}

/// A region split policy, named as in a design document (`{"type": "stepping"}`,
/// `{"type": "keyPrefix", "prefixLength": 4}`).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "type"
)]
pub enum SplitPolicy {
    /// `ConstantSizeRegionSplitPolicy`: split above the desired max size.
    ConstantSize,
    /// `IncreasingToUpperBoundRegionSplitPolicy`: limit `min(desired, initial × count³)`.
    IncreasingToUpperBound,
    /// `SteppingSplitPolicy` (the HBase default): `initial` for the table's first region on
    /// the server, else the desired max size.
    #[default]
    Stepping,
    /// `KeyPrefixRegionSplitPolicy` (deprecated): IncreasingToUpperBound, with the split
    /// point cut to its first `prefix_length` bytes (no-op when ≤ 0).
    KeyPrefix {
        /// Prefix length in bytes; ≤ 0 disables the truncation.
        prefix_length: i32,
    },
    /// `DelimitedKeyPrefixRegionSplitPolicy` (deprecated): IncreasingToUpperBound, with the
    /// split point cut just before the first occurrence of the delimiter's UTF-8 bytes.
    DelimitedKeyPrefix {
        /// The delimiter; empty disables the truncation.
        delimiter: String,
    },
    /// `DisabledRegionSplitPolicy`: never splits automatically.
    Disabled,
}

impl SplitPolicy {
    /// The HBase class simple name of this policy.
    pub fn class_name(&self) -> &'static str {
        match self {
            SplitPolicy::ConstantSize => "ConstantSizeRegionSplitPolicy",
            SplitPolicy::IncreasingToUpperBound => "IncreasingToUpperBoundRegionSplitPolicy",
            SplitPolicy::Stepping => "SteppingSplitPolicy",
            SplitPolicy::KeyPrefix { .. } => "KeyPrefixRegionSplitPolicy",
            SplitPolicy::DelimitedKeyPrefix { .. } => "DelimitedKeyPrefixRegionSplitPolicy",
            SplitPolicy::Disabled => "DisabledRegionSplitPolicy",
        }
    }

    /// The policy for an HBase class name (simple or fully qualified, as given to
    /// `hbase.regionserver.region.split.policy` or a table's `SPLIT_POLICY`), configured from
    /// the table descriptor's values the way its `configureForRegion` does.
    pub fn from_class_name(name: &str, table_values: &Values) -> Result<SplitPolicy> {
        let simple = name.rsplit('.').next().unwrap_or(name);
        Ok(match simple {
            "ConstantSizeRegionSplitPolicy" => SplitPolicy::ConstantSize,
            "IncreasingToUpperBoundRegionSplitPolicy" => SplitPolicy::IncreasingToUpperBound,
            "SteppingSplitPolicy" => SplitPolicy::Stepping,
            "KeyPrefixRegionSplitPolicy" => SplitPolicy::key_prefix_from_table(table_values),
            "DelimitedKeyPrefixRegionSplitPolicy" => {
                SplitPolicy::delimited_from_table(table_values)
            }
            "DisabledRegionSplitPolicy" => SplitPolicy::Disabled,
            _ => {
                return Err(Error::arg(
                    "policy",
                    format!(
                        "unknown region split policy class {}",
                        crate::support::json::quote(name)
                    ),
                ))
            }
        })
    }

    /// KeyPrefix policy from table values: `KeyPrefixRegionSplitPolicy.prefix_length`, else
    /// the deprecated `prefix_split_key_policy.prefix_length`; missing or not a Java `int`
    /// -> 0 (no truncation).
    pub fn key_prefix_from_table(table_values: &Values) -> SplitPolicy {
        let s = table_values
            .get(KEY_PREFIX_POLICY_LENGTH_KEY)
            .or_else(|| table_values.get(KEY_PREFIX_POLICY_LENGTH_KEY_DEPRECATED));
        SplitPolicy::KeyPrefix {
            prefix_length: s.and_then(|s| java_parse_int(s)).unwrap_or(0),
        }
    }

    /// DelimitedKeyPrefix policy from table values (`…Policy.delimiter`; missing -> empty,
    /// meaning no truncation).
    pub fn delimited_from_table(table_values: &Values) -> SplitPolicy {
        SplitPolicy::DelimitedKeyPrefix {
            delimiter: table_values
                .get(DELIMITED_POLICY_DELIMITER_KEY)
                .cloned()
                .unwrap_or_default(),
        }
    }

    /// The size a region's stores are compared against, given how many of the table's
    /// regions (replica 0) are online on this server. ConstantSize ignores the count;
    /// Disabled answers `Long.MAX` (its `shouldSplit` is false regardless).
    pub fn size_to_check(&self, limits: &PolicyLimits, table_regions_count: i32) -> i64 {
        match self {
            SplitPolicy::ConstantSize => limits.desired_max_file_size,
            SplitPolicy::Disabled => i64::MAX,
            SplitPolicy::Stepping => stepping_size_to_check(
                limits.desired_max_file_size,
                limits.initial_size,
                table_regions_count,
            ),
            SplitPolicy::IncreasingToUpperBound
            | SplitPolicy::KeyPrefix { .. }
            | SplitPolicy::DelimitedKeyPrefix { .. } => increasing_size_to_check(
                limits.desired_max_file_size,
                limits.initial_size,
                table_regions_count,
            ),
        }
    }

    /// `shouldSplit`: the region can split and its stores exceed [`Self::size_to_check`].
    pub fn should_split(
        &self,
        limits: &PolicyLimits,
        region: &RegionState,
        table_regions_count: i32,
    ) -> bool {
        if matches!(self, SplitPolicy::Disabled) || !region.can_split() {
            return false;
        }
        let limit = self.size_to_check(limits, table_regions_count);
        exceeds_size(&region.stores, limit, limits.overall_hregion_files)
    }

    /// `getSplitPoint`: the largest store's point, truncated by the KeyPrefix / Delimited
    /// policies. Disabled still answers (HBase's `DisabledRegionSplitPolicy` does not
    /// override it; a forced split uses it).
    pub fn split_point(&self, stores: &[StoreState]) -> Option<Vec<u8>> {
        let p = largest_store_split_point(stores)?;
        Some(match self {
            SplitPolicy::KeyPrefix { prefix_length } => {
                // Only non-empty points are cut; an empty point stays empty.
                if p.is_empty() {
                    p
                } else {
                    truncate_prefix(p, *prefix_length)
                }
            }
            SplitPolicy::DelimitedKeyPrefix { delimiter } => {
                truncate_at_delimiter(p, delimiter.as_bytes())
            }
            _ => p,
        })
    }

    /// `HRegion.checkSplit`: `None` for meta / unavailable regions or when the policy says no
    /// (unless `force`); otherwise the policy point, restricted, and kept only if it lies in
    /// the region `[start, end)`.
    pub fn check_split(
        &self,
        limits: &PolicyLimits,
        region: &RegionState,
        table_regions_count: i32,
        restriction: &SplitRestriction,
        bounds: (&[u8], &[u8]),
        force: bool,
    ) -> Option<Vec<u8>> {
        if region.is_meta || !region.available {
            return None;
        }
        if !force && !self.should_split(limits, region, table_regions_count) {
            return None;
        }
        check_split(
            self.split_point(&region.stores),
            restriction,
            bounds.0,
            bounds.1,
        )
    }
}

/// IncreasingToUpperBound limit: `desired` when `count` is 0 or above 100, else
/// `min(desired, initial × count × count × count)` multiplied left to right with Java `long`
/// wrap-around (copied on purpose: a wrapped negative limit forces a split, §13.10).
pub fn increasing_size_to_check(desired: i64, initial: i64, table_regions_count: i32) -> i64 {
    if table_regions_count == 0 || table_regions_count > MAX_REGION_COUNT_FOR_INCREASE {
        return desired;
    }
    let c = i64::from(table_regions_count);
    desired.min(initial.wrapping_mul(c).wrapping_mul(c).wrapping_mul(c))
}

/// Stepping limit: `initial` when this is the table's only region on the server, else
/// `desired`.
pub fn stepping_size_to_check(desired: i64, initial: i64, table_regions_count: i32) -> i64 {
    if table_regions_count == 1 {
        initial
    } else {
        desired
    }
}

/// `Arrays.copyOf(p, min(len, p.length))` when `len > 0`, else `p` unchanged.
fn truncate_prefix(mut p: Vec<u8>, len: i32) -> Vec<u8> {
    if let Ok(n) = usize::try_from(len) {
        if n > 0 {
            p.truncate(n);
        }
    }
    p
}

/// Cut `p` just before the first occurrence of `delim` (not found: unchanged; empty `delim`:
/// unchanged, as HBase treats a missing or empty delimiter as "not configured").
fn truncate_at_delimiter(mut p: Vec<u8>, delim: &[u8]) -> Vec<u8> {
    if delim.is_empty() {
        return p;
    }
    if let Some(i) = p.windows(delim.len()).position(|w| w == delim) {
        p.truncate(i);
    }
    p
}

mod java_int;
mod restriction;

pub use java_int::java_parse_int;
pub use restriction::{check_split, is_usable_split_row, SplitRestriction};

/// Serde helper: `Option<Vec<u8>>` as a lowercase hex string or `null`.
mod opt_hex {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &Option<Vec<u8>>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(b) => {
                let mut out = String::with_capacity(b.len() * 2);
                for x in b {
                    out.push_str(&format!("{x:02x}"));
                }
                s.serialize_some(&out)
            }
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<u8>>, D::Error> {
        let Some(text) = Option::<String>::deserialize(d)? else {
            return Ok(None);
        };
        if text.len() % 2 != 0 {
            return Err(serde::de::Error::custom("hex string of odd length"));
        }
        (0..text.len())
            .step_by(2)
            .map(|i| {
                text.get(i..i + 2)
                    .and_then(|p| u8::from_str_radix(p, 16).ok())
                    .ok_or_else(|| {
                        serde::de::Error::custom(format!(
                            "bad hex {}",
                            crate::support::json::quote(&text)
                        ))
                    })
            })
            .collect::<Result<Vec<u8>, D::Error>>()
            .map(Some)
    }
}

#[cfg(test)]
mod tests;
