//! Readers of the `regions` section: pre-split, auto-split policy and config, assignment.

use crate::hbase::policy::{SplitConfig, SplitPolicy};
use crate::region::{Assignment, AutoSplit, PreSplit, RegionLayout};
use crate::region::{KeyEncoding, SaltStyle};
use crate::support::json::{
    bool_, f64_, i32_, i64_, string, strings, tag, u32_, unit, Json, Node, Obj, R,
};

/// A [`RegionLayout`].
pub fn region_layout(n: &Node) -> R<RegionLayout> {
    let o = Obj::new(
        n,
        "struct RegionLayout",
        &["presplit", "autoSplit", "regionServers", "assignment"],
        None,
        false,
    )?;
    let assignment = o.or("assignment", assignment, Assignment::RoundRobin)?;
    // Without `regionServers`, an explicit placement counts its own servers.
    Ok(RegionLayout {
        presplit: o.or("presplit", presplit, PreSplit::None)?,
        auto_split: o.opt("autoSplit", auto_split)?,
        region_servers: o.or("regionServers", u32_, assignment.server_count())?,
        assignment,
    })
}

/// An [`Assignment`]: a rule's name, or `{"servers": [...]}`, one server name per region.
pub fn assignment(n: &Node) -> R<Assignment> {
    if matches!(n.v, Json::Obj(_)) {
        let o = Obj::new(n, "enum Assignment", &["servers"], None, false)?;
        return Ok(Assignment::Servers(o.req("servers", strings)?));
    }
    let rule = unit(n, &[("roundRobin", false), ("balanced", true)])?;
    Ok(if rule {
        Assignment::Balanced
    } else {
        Assignment::RoundRobin
    })
}

const PRESPLIT_KINDS: &[&str] = &[
    "none",
    "explicit",
    "hexString",
    "decimalString",
    "uniform",
    "bytesSplit",
    "createTable",
    "saltBuckets",
    "sampleQuantiles",
];

/// A [`PreSplit`]: `{"kind": "hexString", "regions": 16}`.
pub fn presplit(n: &Node) -> R<PreSplit> {
    let k = tag(n, "internally tagged enum PreSplit", "kind", PRESPLIT_KINDS)?;
    let obj = |fields: &[&str]| Obj::new(n, "struct variant", fields, Some("kind"), false);
    let rows = |o: &Obj| -> R<(u32, Option<String>, Option<String>)> {
        Ok((
            o.req("regions", u32_)?,
            o.opt("firstRow", string)?,
            o.opt("lastRow", string)?,
        ))
    };
    const ROWS: &[&str] = &["regions", "firstRow", "lastRow"];
    Ok(match k {
        0 => {
            obj(&[])?;
            PreSplit::None
        }
        1 => {
            let o = obj(&["keys", "encoding"])?;
            PreSplit::Explicit {
                keys: o.req("keys", strings)?,
                encoding: o.or(
                    "encoding",
                    |n| {
                        unit(
                            n,
                            &[
                                ("stringBinary", KeyEncoding::StringBinary),
                                ("hex", KeyEncoding::Hex),
                            ],
                        )
                    },
                    KeyEncoding::StringBinary,
                )?,
            }
        }
        2 => {
            let (regions, first_row, last_row) = rows(&obj(ROWS)?)?;
            PreSplit::HexString {
                regions,
                first_row,
                last_row,
            }
        }
        3 => {
            let (regions, first_row, last_row) = rows(&obj(ROWS)?)?;
            PreSplit::DecimalString {
                regions,
                first_row,
                last_row,
            }
        }
        4 => {
            let (regions, first_row, last_row) = rows(&obj(ROWS)?)?;
            PreSplit::Uniform {
                regions,
                first_row,
                last_row,
            }
        }
        5 => {
            let o = obj(&["start", "end", "num"])?;
            PreSplit::BytesSplit {
                start: o.req("start", string)?,
                end: o.req("end", string)?,
                num: o.req("num", u32_)?,
            }
        }
        6 => {
            let o = obj(&["start", "end", "regions"])?;
            PreSplit::CreateTable {
                start: o.req("start", string)?,
                end: o.req("end", string)?,
                regions: o.req("regions", u32_)?,
            }
        }
        7 => {
            let o = obj(&["buckets", "style", "width"])?;
            PreSplit::SaltBuckets {
                buckets: o.req("buckets", u32_)?,
                style: o.or(
                    "style",
                    |n| {
                        unit(
                            n,
                            &[("byte", SaltStyle::Byte), ("decimal", SaltStyle::Decimal)],
                        )
                    },
                    SaltStyle::Byte,
                )?,
                width: o.opt("width", u32_)?,
            }
        }
        _ => {
            let o = obj(&["regions", "sample"])?;
            PreSplit::SampleQuantiles {
                regions: o.req("regions", u32_)?,
                sample: o.opt("sample", strings)?,
            }
        }
    })
}

/// An [`AutoSplit`].
pub fn auto_split(n: &Node) -> R<AutoSplit> {
    let o = Obj::new(n, "struct AutoSplit", &["policy", "config"], None, false)?;
    Ok(AutoSplit {
        policy: o.or("policy", split_policy, SplitPolicy::Stepping)?,
        config: o.or("config", split_config, SplitConfig::default())?,
    })
}

/// A [`SplitPolicy`]: `{"type": "keyPrefix", "prefixLength": 4}` (unknown keys ignored).
pub fn split_policy(n: &Node) -> R<SplitPolicy> {
    let k = tag(
        n,
        "internally tagged enum SplitPolicy",
        "type",
        &[
            "constantSize",
            "increasingToUpperBound",
            "stepping",
            "keyPrefix",
            "delimitedKeyPrefix",
            "disabled",
        ],
    )?;
    // Strict like every other object: a misspelt member would silently be a default.
    let obj = |fields: &[&str]| Obj::new(n, "struct variant", fields, Some("type"), false);
    if !matches!(k, 3 | 4) {
        obj(&[])?;
    }
    Ok(match k {
        0 => SplitPolicy::ConstantSize,
        1 => SplitPolicy::IncreasingToUpperBound,
        2 => SplitPolicy::Stepping,
        3 => SplitPolicy::KeyPrefix {
            prefix_length: obj(&["prefixLength"])?.req("prefixLength", i32_)?,
        },
        4 => SplitPolicy::DelimitedKeyPrefix {
            delimiter: obj(&["delimiter"])?.req("delimiter", string)?,
        },
        _ => SplitPolicy::Disabled,
    })
}

/// A [`SplitConfig`]: every field optional (defaults from hbase-default.xml); an unknown
/// member is an error (a misspelt `maxFilesize` would silently leave the 10 GiB default).
pub fn split_config(n: &Node) -> R<SplitConfig> {
    let o = Obj::new(
        n,
        "struct SplitConfig",
        &[
            "maxFileSize",
            "tableMaxFileSize",
            "jitter",
            "memstoreFlushSize",
            "tableMemstoreFlushSize",
            "initialSize",
            "overallHregionFiles",
        ],
        None,
        false,
    )?;
    let d = SplitConfig::default();
    Ok(SplitConfig {
        max_file_size: o.or("maxFileSize", i64_, d.max_file_size)?,
        table_max_file_size: o.opt("tableMaxFileSize", i64_)?,
        jitter: o.or("jitter", f64_, d.jitter)?,
        memstore_flush_size: o.or("memstoreFlushSize", i64_, d.memstore_flush_size)?,
        table_memstore_flush_size: o.opt("tableMemstoreFlushSize", i64_)?,
        initial_size: o.opt("initialSize", i64_)?,
        overall_hregion_files: o.or("overallHregionFiles", bool_, d.overall_hregion_files)?,
    })
}

/// What a design takes of a table's regions as `read_regions` gave them (its JSON form):
/// `presplit`, and `assignment` when present; the other members are ignored.
#[cfg(any(test, all(target_arch = "wasm32", not(feature = "vectors-only"))))]
pub(crate) fn table_regions(n: &Node) -> R<(PreSplit, Option<Assignment>)> {
    let o = Obj::new(
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
