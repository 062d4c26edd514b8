//! Readers of the `regions` section: pre-split, auto-split policy and config, assignment.

use crate::hbase::policy::{SplitConfig, SplitPolicy};
use crate::region::{Assignment, AutoSplit, PreSplit, RegionLayout};
use crate::region::{KeyEncoding, SaltStyle};
use crate::support::json::{
    bool_, f64_, i32_, i64_, read_object, string, strings, tagged_reader, u32_, unit, Json, Node, R,
};

/// A [`RegionLayout`].
pub fn region_layout(n: &Node) -> R<RegionLayout> {
    Ok(read_object!(n, "struct RegionLayout", None, {
        presplit: or("presplit", presplit, PreSplit::None),
        auto_split: opt("autoSplit", auto_split),
        region_servers: opt("regionServers", u32_),
        assignment: or("assignment", assignment, Assignment::RoundRobin),
    } => RegionLayout {
        // Without `regionServers`, an explicit placement counts its own servers.
        region_servers: region_servers.unwrap_or_else(|| assignment.server_count()),
        presplit,
        auto_split,
        assignment,
    }))
}

/// An [`Assignment`]: a rule's name, or `{"servers": [...]}`, one server name per region.
pub fn assignment(n: &Node) -> R<Assignment> {
    if matches!(n.v, Json::Obj(_)) {
        return Ok(read_object!(n, "enum Assignment", None, {
            servers: req("servers", strings),
        } => Assignment::Servers(servers)));
    }
    let rule = unit(n, &[("roundRobin", false), ("balanced", true)])?;
    Ok(if rule {
        Assignment::Balanced
    } else {
        Assignment::RoundRobin
    })
}

fn key_encoding(n: &Node) -> R<KeyEncoding> {
    unit(
        n,
        &[
            ("stringBinary", KeyEncoding::StringBinary),
            ("hex", KeyEncoding::Hex),
        ],
    )
}

fn salt_style(n: &Node) -> R<SaltStyle> {
    unit(
        n,
        &[("byte", SaltStyle::Byte), ("decimal", SaltStyle::Decimal)],
    )
}

tagged_reader! {
    /// A [`PreSplit`]: `{"kind": "hexString", "regions": 16}`.
    pub fn presplit(n) -> PreSplit; "internally tagged enum PreSplit", tag "kind";
    /// The pre-split kinds and their members, as [`presplit`] reads them.
    table PRESPLITS;
    "none" => PreSplit::None {},
    "explicit" => PreSplit::Explicit {
        keys: req("keys", strings),
        encoding: or("encoding", key_encoding, KeyEncoding::StringBinary),
    },
    "hexString" => PreSplit::HexString {
        regions: req("regions", u32_),
        first_row: opt("firstRow", string),
        last_row: opt("lastRow", string),
    },
    "decimalString" => PreSplit::DecimalString {
        regions: req("regions", u32_),
        first_row: opt("firstRow", string),
        last_row: opt("lastRow", string),
    },
    "uniform" => PreSplit::Uniform {
        regions: req("regions", u32_),
        first_row: opt("firstRow", string),
        last_row: opt("lastRow", string),
    },
    "bytesSplit" => PreSplit::BytesSplit {
        start: req("start", string),
        end: req("end", string),
        num: req("num", u32_),
    },
    "createTable" => PreSplit::CreateTable {
        start: req("start", string),
        end: req("end", string),
        regions: req("regions", u32_),
    },
    "saltBuckets" => PreSplit::SaltBuckets {
        buckets: req("buckets", u32_),
        style: or("style", salt_style, SaltStyle::Byte),
        width: opt("width", u32_),
    },
    "sampleQuantiles" => PreSplit::SampleQuantiles {
        regions: req("regions", u32_),
        sample: opt("sample", strings),
    },
}

/// An [`AutoSplit`].
pub fn auto_split(n: &Node) -> R<AutoSplit> {
    Ok(read_object!(
        n,
        "struct AutoSplit",
        None,
        AutoSplit {
            policy: or("policy", split_policy, SplitPolicy::Stepping),
            config: or("config", split_config, SplitConfig::default()),
        }
    ))
}

tagged_reader! {
    /// A [`SplitPolicy`]: `{"type": "keyPrefix", "prefixLength": 4}`. Strict like every
    /// other object: a misspelt member would silently be a default.
    pub fn split_policy(n) -> SplitPolicy; "internally tagged enum SplitPolicy", tag "type";
    /// The split policies and their members, as [`split_policy`] reads them.
    table SPLIT_POLICIES;
    "constantSize" => SplitPolicy::ConstantSize {},
    "increasingToUpperBound" => SplitPolicy::IncreasingToUpperBound {},
    "stepping" => SplitPolicy::Stepping {},
    "keyPrefix" => SplitPolicy::KeyPrefix {
        prefix_length: req("prefixLength", i32_),
    },
    "delimitedKeyPrefix" => SplitPolicy::DelimitedKeyPrefix {
        delimiter: req("delimiter", string),
    },
    "disabled" => SplitPolicy::Disabled {},
}

/// A [`SplitConfig`]: every field optional (defaults from hbase-default.xml); an unknown
/// member is an error (a misspelt `maxFilesize` would silently leave the 10 GiB default).
pub fn split_config(n: &Node) -> R<SplitConfig> {
    let d = SplitConfig::default();
    Ok(read_object!(
        n,
        "struct SplitConfig",
        None,
        SplitConfig {
            max_file_size: or("maxFileSize", i64_, d.max_file_size),
            table_max_file_size: opt("tableMaxFileSize", i64_),
            jitter: or("jitter", f64_, d.jitter),
            memstore_flush_size: or("memstoreFlushSize", i64_, d.memstore_flush_size),
            table_memstore_flush_size: opt("tableMemstoreFlushSize", i64_),
            initial_size: opt("initialSize", i64_),
            overall_hregion_files: or("overallHregionFiles", bool_, d.overall_hregion_files),
        }
    ))
}

/// What a design takes of a table's regions as `read_regions` gave them (its JSON form):
/// `presplit`, and `assignment` when present; the other members are ignored.
#[cfg(any(test, all(target_arch = "wasm32", not(feature = "vectors-only"))))]
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
