//! Readers of the `regions` section: pre-split, auto-split policy and config, assignment.

use crate::hbase::policy::{SplitConfig, SplitPolicy};
use crate::region::{Assignment, AutoSplit, PreSplit, RegionLayout};
use crate::region::{KeyEncoding, SaltStyle, SplitBy, MAX_SERVERS};
use crate::support::json::{
    bool_, bytes_i64, f64_, i32_, object_reader, read_object, string, strings, tagged_reader, u32_,
    unit, Json, Node, R,
};

object_reader! {
    /// A [`RegionLayout`].
    pub fn region_layout(n) -> RegionLayout; "struct RegionLayout";
    /// The `regions` section's members, as [`region_layout`] reads them.
    table REGION_LAYOUT;
    {
        /// The split keys the table is created with ([`presplit`](#presplit)).
        presplit: or("presplit", presplit, PreSplit::None) = r#"{"kind": "none"}"#,
        /// Automatic splitting as the regions grow ([`autoSplit`](#autosplit)). Absent: the
        /// regions stay as pre-split.
        auto_split: opt("autoSplit", auto_split),
        /// How many region servers the regions are spread over. Absent: 1, or with
        /// `assignment: {"servers": [...]}` the number of distinct names.
        region_servers: opt("regionServers", u32_) in 1 ..= MAX_SERVERS,
        /// Which server each region goes to: a rule's name, or `{"servers": [...]}`, one
        /// server name per pre-split region (see
        /// [below](#regionservers-and-assignment)).
        assignment: or("assignment", assignment, Assignment::RoundRobin) = r#""roundRobin""# of ASSIGNMENT_RULES,
    } => RegionLayout {
        // Without `regionServers`, an explicit placement counts its own servers.
        region_servers: region_servers.unwrap_or_else(|| assignment.server_count()),
        presplit,
        auto_split,
        assignment,
    }
}

/// The placement rules by their document names (`true`: balanced).
const ASSIGNMENT_RULES: [(&str, bool); 2] = [("roundRobin", false), ("balanced", true)];

/// An [`Assignment`]: a rule's name, or `{"servers": [...]}`, one server name per region.
pub fn assignment(n: &Node) -> R<Assignment> {
    if matches!(n.v, Json::Obj(_)) {
        return Ok(read_object!(n, "enum Assignment", None, {
            servers: req("servers", strings),
        } => Assignment::Servers(servers)));
    }
    let rule = unit(n, &ASSIGNMENT_RULES)?;
    Ok(if rule {
        Assignment::Balanced
    } else {
        Assignment::RoundRobin
    })
}

/// How explicit split keys are spelt.
const KEY_ENCODINGS: [(&str, KeyEncoding); 2] = [
    ("stringBinary", KeyEncoding::StringBinary),
    ("hex", KeyEncoding::Hex),
];
/// The salt bucket styles of a `saltBuckets` pre-split.
const SALT_STYLES: [(&str, SaltStyle); 2] =
    [("byte", SaltStyle::Byte), ("decimal", SaltStyle::Decimal)];

fn key_encoding(n: &Node) -> R<KeyEncoding> {
    unit(n, &KEY_ENCODINGS)
}

fn salt_style(n: &Node) -> R<SaltStyle> {
    unit(n, &SALT_STYLES)
}

const SPLIT_BY: [(&str, SplitBy); 2] = [("rows", SplitBy::Rows), ("bytes", SplitBy::Bytes)];

fn split_by(n: &Node) -> R<SplitBy> {
    unit(n, &SPLIT_BY)
}

tagged_reader! {
    /// A [`PreSplit`]: `{"kind": "hexString", "regions": 16}`.
    pub fn presplit(n) -> PreSplit; "internally tagged enum PreSplit", tag "kind";
    /// The pre-split kinds and their members, as [`presplit`] reads them.
    table PRESPLITS;
    /// No split keys: one region. Where does auto-split take it?
    "none" => PreSplit::None {},
    /// The keys given: a `SPLITS` list, or an existing table's regions.
    "explicit" => PreSplit::Explicit {
        /// The split keys, in ascending byte order (fewer than 100,000).
        keys: req("keys", strings),
        /// How the keys are spelt: `Bytes.toStringBinary` text, or two hex digits per byte.
        encoding: or("encoding", key_encoding, KeyEncoding::StringBinary) = r#""stringBinary""# of KEY_ENCODINGS,
    },
    /// `RegionSplitter`'s `HexStringSplit`: `regions − 1` keys of lower-case hex digits,
    /// evenly spaced. For keys that start with MD5 hex text.
    "hexString" => PreSplit::HexString {
        /// How many regions (1 to 100,000; 1 gives no split keys).
        regions: req("regions", u32_),
        /// The first row, hex digits; absent, `00000000`.
        first_row: opt("firstRow", string),
        /// The last row, hex digits (its length is the key width); absent, `FFFFFFFF`.
        last_row: opt("lastRow", string),
    },
    /// `RegionSplitter`'s `DecimalStringSplit`. For keys that start with evenly spread
    /// decimal digits.
    "decimalString" => PreSplit::DecimalString {
        /// How many regions (1 to 100,000; 1 gives no split keys).
        regions: req("regions", u32_),
        /// The first row, decimal digits; absent, `00000000`.
        first_row: opt("firstRow", string),
        /// The last row, decimal digits (its length is the key width); absent, `99999999`.
        last_row: opt("lastRow", string),
    },
    /// `RegionSplitter`'s `UniformSplit`: evenly spaced raw bytes. For keys that start with
    /// random bytes (a binary hash).
    "uniform" => PreSplit::Uniform {
        /// How many regions (1 to 100,000; 1 gives no split keys).
        regions: req("regions", u32_),
        /// The first row, as toStringBinary text; absent, empty.
        first_row: opt("firstRow", string),
        /// The last row, as toStringBinary text; absent, eight `\xFF`.
        last_row: opt("lastRow", string),
    },
    /// All `num + 2` keys of `Bytes.split(start, end, num)`, both ends included: `num + 3`
    /// regions. Over hex text it leaves empty regions (seed 001's trap).
    "bytesSplit" => PreSplit::BytesSplit {
        /// The first key, as toStringBinary text.
        start: req("start", string),
        /// The last key, as toStringBinary text.
        end: req("end", string),
        /// Keys between them, 1 to 99,999.
        num: req("num", u32_),
    },
    /// `Admin.createTable(desc, startKey, endKey, numRegions)`: `regions − 1` keys from
    /// `start` to `end`, both included.
    "createTable" => PreSplit::CreateTable {
        /// The first split key, as toStringBinary text.
        start: req("start", string),
        /// The last split key, as toStringBinary text, after `start`.
        end: req("end", string),
        /// How many regions, at least 3.
        regions: req("regions", u32_),
    },
    /// One region per salt bucket: `byte` gives `\x01` … (Phoenix's salt split points),
    /// `decimal` zero-padded text `01` ….
    "saltBuckets" => PreSplit::SaltBuckets {
        /// How many buckets (at most 256 as bytes, 100,000 as text).
        buckets: req("buckets", u32_),
        /// Bytes or decimal text.
        style: or("style", salt_style, SaltStyle::Byte) = r#""byte""# of SALT_STYLES,
        /// Digits of a decimal bucket, up to 18; absent, the digits of `buckets − 1`.
        width: opt("width", u32_),
    },
    /// The `regions − 1` quantiles of a sample of keys: regions with equal row counts for data
    /// like the sample. For keys without a uniform prefix; a key that opens with salt buckets
    /// keeps each bucket whole (each starts a region, or a region holds whole buckets).
    "sampleQuantiles" => PreSplit::SampleQuantiles {
        /// How many regions (1 to 100,000; 1 gives no split keys).
        regions: req("regions", u32_),
        /// Row keys as toStringBinary text, any order; absent, the keys of the workload's
        /// first 10,000 records (or, over a file of rows, every row's key up to a million).
        sample: opt("sample", strings),
        /// `rows`: regions of equal row counts; `bytes`: of equal bytes, each key weighed with
        /// the workload's `valueSize` as the analysis counts a write.
        by: or("by", split_by, SplitBy::Rows) = r#""rows""# of SPLIT_BY,
    },
}

object_reader! {
    /// An [`AutoSplit`].
    pub fn auto_split(n) -> AutoSplit; "struct AutoSplit";
    /// The `autoSplit` members, as [`auto_split`] reads them.
    table AUTO_SPLIT;
    AutoSplit {
        /// The split policy.
        policy: or("policy", split_policy, SplitPolicy::Stepping) = r#"{"type": "stepping"}"#,
        /// The sizes the policy compares against; absent members take HBase's defaults.
        config: or("config", split_config, SplitConfig::default()) = "{}",
    }
}

tagged_reader! {
    /// A [`SplitPolicy`]: `{"type": "keyPrefix", "prefixLength": 4}`. Strict like every
    /// other object: a misspelt member would silently be a default.
    pub fn split_policy(n) -> SplitPolicy; "internally tagged enum SplitPolicy", tag "type";
    /// The split policies and their members, as [`split_policy`] reads them.
    table SPLIT_POLICIES;
    /// `ConstantSizeRegionSplitPolicy`: splits past the desired max size. The classic
    /// fixed rule.
    "constantSize" => SplitPolicy::ConstantSize {},
    /// `IncreasingToUpperBoundRegionSplitPolicy`: min(desired max size, initial size × n³),
    /// n = the table's regions on that server. HBase 0.94 to 1.x's default.
    "increasingToUpperBound" => SplitPolicy::IncreasingToUpperBound {},
    /// `SteppingSplitPolicy`: the initial size while the region is the table's only one on
    /// its server, else the desired max size. HBase 2's default.
    "stepping" => SplitPolicy::Stepping {},
    /// `KeyPrefixRegionSplitPolicy` (deprecated): as `increasingToUpperBound`, the split
    /// point cut to its first `prefixLength` bytes.
    "keyPrefix" => SplitPolicy::KeyPrefix {
        /// Bytes kept of the split point; 0 or less: no cut.
        prefix_length: req("prefixLength", i32_),
    },
    /// `DelimitedKeyPrefixRegionSplitPolicy` (deprecated): as `increasingToUpperBound`, the
    /// split point cut just before the first `delimiter`.
    "delimitedKeyPrefix" => SplitPolicy::DelimitedKeyPrefix {
        /// The delimiter, as text; empty: no cut.
        delimiter: req("delimiter", string),
    },
    /// `DisabledRegionSplitPolicy`: never splits.
    "disabled" => SplitPolicy::Disabled {},
}

object_reader! {
    /// A [`SplitConfig`]: every field optional (defaults from hbase-default.xml); an unknown
    /// member is an error (a misspelt `maxFilesize` would silently leave the 10 GiB default).
    pub fn split_config(n) -> SplitConfig; "struct SplitConfig";
    /// The `autoSplit.config` members, as [`split_config`] reads them.
    table SPLIT_CONFIG;
    SplitConfig {
        /// `hbase.hregion.max.filesize`: bytes (10 GiB), or a size with a unit such as `"4 MiB"`.
        max_file_size: or("maxFileSize", bytes_i64, SplitConfig::default().max_file_size) = "10737418240",
        /// The table's `MAX_FILESIZE`; when above 0 it is the desired max size instead of
        /// `maxFileSize`.
        table_max_file_size: opt("tableMaxFileSize", bytes_i64),
        /// `hbase.hregion.max.filesize.jitter`: each region's size limit is moved by
        /// (u − 0.5) × jitter of itself, u one draw per region (the analysis draws it from the
        /// run's seed and the region's start key, life at each region open). 0 turns it off.
        jitter: or("jitter", f64_, SplitConfig::default().jitter) = "0.25",
        /// `hbase.hregion.memstore.flush.size`: bytes (128 MiB), or a size with a unit such as
        /// `"1 MiB"`. A region's memstore flushes at it, and only then is its size checked.
        memstore_flush_size: or("memstoreFlushSize", bytes_i64, SplitConfig::default().memstore_flush_size) = "134217728",
        /// The table's `MEMSTORE_FLUSHSIZE`: when above 0, the flush size in place of
        /// `memstoreFlushSize` (and the initial size's base).
        table_memstore_flush_size: opt("tableMemstoreFlushSize", bytes_i64),
        /// `hbase.increasing.policy.initial.size`. The initial size is this when above 0, else
        /// twice `tableMemstoreFlushSize` when that is above 0, else twice
        /// `memstoreFlushSize` (256 MiB).
        initial_size: opt("initialSize", bytes_i64),
        /// `hbase.hregion.split.overallfiles`. Accepted; the analysis models one store per
        /// region, so it changes nothing.
        overall_hregion_files: or("overallHregionFiles", bool_, SplitConfig::default().overall_hregion_files) = "true",
    }
}

/// What a design takes of a table's regions as `read_regions` gave them (its JSON form):
/// `presplit`, and `assignment` when present; the other members are ignored.
#[cfg(any(
    test,
    all(
        target_arch = "wasm32",
        not(feature = "vectors-only"),
        any(feature = "library", feature = "fast")
    )
))]
pub(crate) fn table_regions(n: &Node) -> R<(PreSplit, Option<Assignment>)> {
    // Lenient: the list's other members (regions, load) are not the design's.
    let o = crate::support::json::Obj::new(
        n,
        "struct RegionList",
        &["presplit", "assignment"],
        None,
        true,
    )?;
    Ok((
        o.req("presplit", presplit)?,
        o.opt("assignment", assignment)?,
    ))
}

crate::support::json::deserialize_through! {
    RegionLayout => region_layout,
    PreSplit => presplit,
    AutoSplit => auto_split,
    Assignment => assignment,
    SplitPolicy => split_policy,
    SplitConfig => split_config,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_region_list_reads_back_as_presplit_and_placement() {
        // What readRegions gives, as JSON, is what onTableRegions takes.
        let list = crate::region::read_regions("create 't', 'f', SPLITS => ['b', 'd']", None)
            .unwrap_or_else(|e| panic!("{e}"));
        let text = serde_json::to_string(&list).unwrap_or_default();
        let n = crate::support::json::parse(&text).unwrap_or_else(|e| panic!("{e}"));
        let (presplit, placement) = table_regions(&n).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(presplit, list.presplit);
        assert_eq!(placement, list.assignment);
        let bad = crate::support::json::parse("[1]").unwrap_or_else(|e| panic!("{e}"));
        assert!(table_regions(&bad).is_err());
    }
}
