//! The `hbase` section: the table and cluster a design runs on, as far as months of its life
//! depend on them (the family's TTL, the bytes a cell takes on disk, the release line, the
//! normalizer's and the balancer's settings). `life` reads it; options given to a run go over it.
//!
//! ```json
//! "hbase": {"ttlSeconds": 2592000, "compressionRatio": 0.3, "version": "2.6",
//!           "normalizationEnabled": true}
//! ```

use serde::Serialize;

use crate::error::{Error, ErrorKind, Result};
use crate::hbase::version::{HBaseVersion, VERSIONS};
use crate::support::json::{bool_, f64_, object_reader, u32_, u64_, unit, Node, R};

/// The longest TTL a design may give: 100 years, in seconds.
pub const MAX_TTL_SECONDS: u64 = 100 * 365 * 86_400;
/// The longest column family name (its length is one byte in a KeyValue; HBase allows 127).
pub const MAX_FAMILY_BYTES: u32 = 127;
/// The longest qualifier a design may count (bytes; HBase's own limit is far larger).
pub const MAX_QUALIFIER_BYTES: u32 = 65_535;

/// The table and cluster settings a table's life depends on.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TableSpec {
    /// The column family's `TTL` in seconds; absent: FOREVER.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl_seconds: Option<u64>,
    /// On-disk bytes per KeyValue byte after encoding and compression.
    pub compression_ratio: f64,
    /// The column family name's bytes in each cell.
    pub family_bytes: u32,
    /// The column qualifier's bytes in each cell.
    pub qualifier_bytes: u32,
    /// The HBase release line.
    pub version: HBaseVersion,
    /// The table's `NORMALIZATION_ENABLED`.
    pub normalization_enabled: bool,
    /// `hbase.normalizer.merge.min_region_size.mb`.
    pub normalizer_merge_min_region_size_mb: u64,
    /// `hbase.regions.slop`.
    pub balancer_slop: f64,
}

impl Default for TableSpec {
    fn default() -> Self {
        TableSpec {
            ttl_seconds: None,
            compression_ratio: 1.0,
            family_bytes: 1,
            qualifier_bytes: 1,
            version: HBaseVersion::V2_6,
            normalization_enabled: false,
            normalizer_merge_min_region_size_mb: 1,
            balancer_slop: 0.2,
        }
    }
}

impl TableSpec {
    /// How its cells are counted (`hbase::store::CellBytes`).
    pub fn cell_bytes(&self) -> crate::hbase::store::CellBytes {
        crate::hbase::store::CellBytes {
            family_bytes: self.family_bytes,
            qualifier_bytes: self.qualifier_bytes,
            compression_ratio: self.compression_ratio,
        }
    }

    /// Every member in its range; the error at `/hbase/<member>`.
    pub fn validate(&self) -> Result<()> {
        let bad = |member: &str, what: String| {
            Err(Error::new(ErrorKind::Invalid, what).at_path(format!("/hbase/{member}")))
        };
        if let Some(t) = self.ttl_seconds {
            if !(60..=MAX_TTL_SECONDS).contains(&t) {
                return bad(
                    "ttlSeconds",
                    format!("a TTL of {t} s: expected 60 to {MAX_TTL_SECONDS}"),
                );
            }
        }
        let r = self.compression_ratio;
        if !(r.is_finite() && (0.01..=4.0).contains(&r)) {
            return bad("compressionRatio", format!("{r}: expected 0.01 to 4"));
        }
        if !(1..=MAX_FAMILY_BYTES).contains(&self.family_bytes) {
            return bad(
                "familyBytes",
                format!("{}: expected 1 to {MAX_FAMILY_BYTES}", self.family_bytes),
            );
        }
        if self.qualifier_bytes > MAX_QUALIFIER_BYTES {
            return bad(
                "qualifierBytes",
                format!(
                    "{}: expected 0 to {MAX_QUALIFIER_BYTES}",
                    self.qualifier_bytes
                ),
            );
        }
        if self.normalizer_merge_min_region_size_mb > 1 << 30 {
            return bad(
                "normalizerMergeMinRegionSizeMb",
                format!(
                    "{}: expected 0 to {}",
                    self.normalizer_merge_min_region_size_mb,
                    1u64 << 30
                ),
            );
        }
        let s = self.balancer_slop;
        if !(s.is_finite() && (0.0..=10.0).contains(&s)) {
            return bad("balancerSlop", format!("{s}: expected 0 to 10"));
        }
        Ok(())
    }
}

/// A release line by its name (`"2.5"`, `"2.6"`, `"3"`).
fn version(n: &Node) -> R<HBaseVersion> {
    unit(n, &VERSIONS)
}

object_reader! {
    /// A [`TableSpec`].
    pub(crate) fn table_spec(n) -> TableSpec; "struct TableSpec";
    /// The `hbase` members, as [`table_spec`] reads them.
    table TABLE;
    TableSpec {
        /// The column family's `TTL` in seconds (60 s to 100 years); absent: FOREVER. Cells
        /// older than it are dropped at compactions, whole files of them before one.
        ttl_seconds: opt("ttlSeconds", u64_) in 60 ..= MAX_TTL_SECONDS,
        /// On-disk bytes per KeyValue byte after data block encoding and compression, 0.01
        /// to 4 (1: none; Snappy on text is often 0.3 to 0.5).
        compression_ratio: or("compressionRatio", f64_, 1.0) = "1",
        /// The column family name's bytes in each cell (`d`: 1).
        family_bytes: or("familyBytes", u32_, 1) = "1" in 1 ..= MAX_FAMILY_BYTES,
        /// The column qualifier's bytes in each cell.
        qualifier_bytes: or("qualifierBytes", u32_, 1) = "1" in 0 ..= MAX_QUALIFIER_BYTES,
        /// The HBase release line, where 2.5/2.6 and 3.x differ (`overallfiles`, the
        /// balancer's cost functions).
        version: or("version", version, HBaseVersion::V2_6) = r#""2.6""# of VERSIONS,
        /// The table's `NORMALIZATION_ENABLED` (false by default: the normalizer then never
        /// touches the table).
        normalization_enabled: or("normalizationEnabled", bool_, false) = "false",
        /// `hbase.normalizer.merge.min_region_size.mb`: 1 as `hbase-default.xml` ships it (the
        /// Java constant is 0), so regions emptied by the TTL (0 MB) are never merged.
        normalizer_merge_min_region_size_mb: or("normalizerMergeMinRegionSizeMb", u64_, 1) = "1" in 0 ..= 1_073_741_824,
        /// `hbase.regions.slop`: the balancer runs when a server is this share above or below
        /// the mean region count.
        balancer_slop: or("balancerSlop", f64_, 0.2) = "0.2",
    }
}
