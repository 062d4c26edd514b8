//! Readers of the `regions` section: pre-split, auto-split policy and config, assignment.

use super::*;
use crate::layout::{KeyEncoding, SaltStyle};

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
    let servers = assignment.placement().map_or(1, |p| p.names.len().max(1));
    Ok(RegionLayout {
        presplit: o.or("presplit", presplit, PreSplit::None)?,
        auto_split: o.opt("autoSplit", auto_split)?,
        region_servers: o.or(
            "regionServers",
            u32_,
            u32::try_from(servers).unwrap_or(u32::MAX),
        )?,
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
