//! Reading the document types from a [`crate::json::Node`] tree: one plain function per type, with
//! the field names, defaults and `deny_unknown_fields` rules that the JSON format documents
//! (docs/keyspec.md, presets/*.json). See [`crate::json`] for why this is not `#[derive]`d.
//!
//! Each type also implements `serde::Deserialize` through these functions (a value is read
//! into a tree first), so `serde_json::from_str::<DesignDocument>` and friends keep working
//! for callers and tests, with the same rules and messages.

use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::analyze::AnalyzeOptions;
use crate::design::{DesignDocument, Example, FieldDecl, FieldType};
use crate::error::{ErrorKind, Result};
use crate::inspect::InspectOptions;
use crate::json::{
    bool_, f64_, f64s, i32_, i64_, list, map, string, strings, tag, u32_, u64_, u8_, unit, value,
    values, DeError, Json, Node, Obj, R,
};
use crate::keyspec::{KeySpec, Segment};
use crate::layout::{Assignment, AutoSplit, PreSplit, RegionLayout};
use crate::policy::{SplitConfig, SplitPolicy};
use crate::scan::ReadPattern;
use crate::workload::{self, Generator, ListOrder, WorkloadSpec};

mod keyspec;
mod regions;

pub use keyspec::{key_spec, segment};
pub use regions::{assignment, auto_split, presplit, region_layout, split_config, split_policy};

/// Parse `text` and read it with `f`; errors are `Parse` errors with the JSON pointer, line
/// and column.
pub fn from_json<T>(text: &str, f: fn(&Node) -> R<T>) -> Result<T> {
    let n = crate::json::parse(text)?;
    f(&n).map_err(|e| e.into_error(ErrorKind::Parse, text))
}

// ------------------------------------------------------------------------------------------
// The design document.
// ------------------------------------------------------------------------------------------

/// A [`DesignDocument`] (not yet validated).
pub fn design(n: &Node) -> R<DesignDocument> {
    let o = Obj::new(
        n,
        "struct DesignDocument",
        &[
            "v",
            "name",
            "description",
            "fields",
            "key",
            "workload",
            "regions",
            "reads",
            "latestFirst",
            "examples",
        ],
        None,
        false,
    )?;
    Ok(DesignDocument {
        v: o.req("v", u32_)?,
        name: o.opt("name", string)?,
        description: o.opt("description", string)?,
        fields: o.or("fields", |n| list(n, field_decl), Vec::new())?,
        key: o.req("key", key_spec)?,
        workload: o.opt("workload", workload)?,
        regions: o.opt("regions", region_layout)?,
        reads: o.or("reads", |n| list(n, read_pattern), Vec::new())?,
        latest_first: o.or("latestFirst", bool_, false)?,
        examples: o.or("examples", |n| list(n, example), Vec::new())?,
    })
}

fn example(n: &Node) -> R<Example> {
    let o = Obj::new(
        n,
        "struct Example",
        &["record", "key", "keyBinary", "note"],
        None,
        false,
    )?;
    Ok(Example {
        record: o.req("record", map)?,
        key: o.opt("key", hex_key)?,
        key_binary: o.opt("keyBinary", string)?,
        note: o.opt("note", string)?,
    })
}

/// An example's row key as hex (`Bytes.fromHex`: even length, either case): checked here so
/// a typo is an error at its path rather than a key that never matches.
fn hex_key(n: &Node) -> R<String> {
    let s = string(n)?;
    match crate::bytes::from_hex(&s) {
        Ok(_) => Ok(s),
        Err(e) => Err(n.error(format!("not a row key in hex: {}", e.message))),
    }
}

/// A [`FieldType`] name.
pub fn field_type(n: &Node) -> R<FieldType> {
    use FieldType::*;
    unit(
        n,
        &[
            ("string", String),
            ("long", Long),
            ("int", Int),
            ("short", Short),
            ("double", Double),
            ("float", Float),
            ("boolean", Boolean),
            ("bigDecimal", BigDecimal),
            ("timestamp", Timestamp),
        ],
    )
}

fn field_decl(n: &Node) -> R<FieldDecl> {
    let o = Obj::new(
        n,
        "struct FieldDecl",
        &["name", "type", "cardinality", "generator"],
        None,
        false,
    )?;
    Ok(FieldDecl {
        name: o.req("name", string)?,
        field_type: o.req("type", field_type)?,
        cardinality: o.opt("cardinality", u64_)?,
        generator: o.opt("generator", generator)?,
    })
}

// ------------------------------------------------------------------------------------------
// Workload.
// ------------------------------------------------------------------------------------------

/// A [`WorkloadSpec`].
pub fn workload(n: &Node) -> R<WorkloadSpec> {
    let o = Obj::new(
        n,
        "struct WorkloadSpec",
        &["records", "seed", "writeRate", "valueSize", "startTime"],
        None,
        false,
    )?;
    let d = WorkloadSpec::default();
    Ok(WorkloadSpec {
        records: o.req("records", u64_)?,
        seed: o.or("seed", u64_, 0)?,
        write_rate: o.or("writeRate", f64_, d.write_rate)?,
        value_size: o.or("valueSize", u64_, d.value_size)?,
        start_time: o.or("startTime", epoch_ms, d.start_time)?,
    })
}

/// A time: ms since the epoch, or an ISO-8601 date-time as records take it
/// (`2021-09-01T00:00:00Z`, an offset, or a bare date at midnight UTC).
fn epoch_ms(n: &Node) -> R<i64> {
    match &n.v {
        Json::Str(s) => crate::keyspec::time::parse_iso(s.trim()).ok_or_else(|| {
            n.error(format!("`{s}` is not a time: give ms since the epoch or an ISO-8601 date-time such as 2021-09-01T00:00:00Z"))
        }),
        _ => i64_(n),
    }
}

const GENERATOR_KINDS: &[&str] = &[
    "sequence",
    "clock",
    "uniformInt",
    "uniformDouble",
    "uniformString",
    "zipf",
    "latest",
    "hotspot",
    "weighted",
    "phone",
    "uuid",
    "list",
    "constant",
    "boolean",
];

/// A [`Generator`]: `{"kind": "zipf", "n": 1000, "s": 1.1}`.
pub fn generator(n: &Node) -> R<Generator> {
    let k = tag(
        n,
        "internally tagged enum Generator",
        "kind",
        GENERATOR_KINDS,
    )?;
    let obj = |fields: &[&str]| Obj::new(n, "struct variant", fields, Some("kind"), false);
    Ok(match k {
        0 => {
            let o = obj(&["start", "step"])?;
            Generator::Sequence {
                start: o.or("start", i64_, 0)?,
                step: o.or("step", i64_, workload::one())?,
            }
        }
        1 => {
            let o = obj(&["start", "rate", "jitterMs"])?;
            Generator::Clock {
                start: o.opt("start", epoch_ms)?,
                rate: o.opt("rate", f64_)?,
                jitter_ms: o.or("jitterMs", u64_, 0)?,
            }
        }
        2 => {
            let o = obj(&["min", "max"])?;
            Generator::UniformInt {
                min: o.req("min", i64_)?,
                max: o.req("max", i64_)?,
            }
        }
        3 => {
            let o = obj(&["min", "max"])?;
            Generator::UniformDouble {
                min: o.or("min", f64_, 0.0)?,
                max: o.or("max", f64_, workload::one_f())?,
            }
        }
        4 => {
            let o = obj(&["length", "alphabet"])?;
            Generator::UniformString {
                length: o.req("length", u32_)?,
                alphabet: o.opt("alphabet", string)?,
            }
        }
        5 => {
            let o = obj(&["n", "s", "offset", "scramble"])?;
            Generator::Zipf {
                n: o.req("n", u64_)?,
                s: o.or("s", f64_, workload::default_zipf_s())?,
                offset: o.or("offset", i64_, 0)?,
                scramble: o.or("scramble", bool_, workload::yes())?,
            }
        }
        6 => {
            let o = obj(&["s", "window", "offset"])?;
            Generator::Latest {
                s: o.or("s", f64_, workload::default_zipf_s())?,
                window: o.opt("window", u64_)?,
                offset: o.or("offset", i64_, 0)?,
            }
        }
        7 => {
            let o = obj(&["min", "max", "hotSetFraction", "hotOpFraction"])?;
            Generator::Hotspot {
                min: o.req("min", i64_)?,
                max: o.req("max", i64_)?,
                hot_set_fraction: o.or("hotSetFraction", f64_, workload::default_hot_set())?,
                hot_op_fraction: o.or("hotOpFraction", f64_, workload::default_hot_op())?,
            }
        }
        8 => {
            let o = obj(&["values", "weights"])?;
            Generator::Weighted {
                values: o.req("values", values)?,
                weights: o.req("weights", f64s)?,
            }
        }
        9 => {
            let o = obj(&["prefixes", "digits", "distinct", "s"])?;
            Generator::Phone {
                prefixes: match o.get("prefixes") {
                    None => workload::default_phone_prefixes(),
                    Some(_) => o.req("prefixes", strings)?,
                },
                digits: o.or("digits", u32_, workload::default_phone_digits())?,
                distinct: o.opt("distinct", u64_)?,
                s: o.opt("s", f64_)?,
            }
        }
        10 => {
            let o = obj(&["compact", "upperCase"])?;
            Generator::Uuid {
                compact: o.or("compact", bool_, false)?,
                upper_case: o.or("upperCase", bool_, false)?,
            }
        }
        11 => {
            let o = obj(&["values", "order"])?;
            Generator::List {
                values: o.req("values", values)?,
                order: o.or(
                    "order",
                    |n| {
                        unit(
                            n,
                            &[
                                ("uniform", ListOrder::Uniform),
                                ("sequential", ListOrder::Sequential),
                            ],
                        )
                    },
                    ListOrder::Uniform,
                )?,
            }
        }
        12 => {
            let o = obj(&["value"])?;
            Generator::Constant {
                value: o.req("value", value)?,
            }
        }
        _ => {
            let o = obj(&["p"])?;
            Generator::Boolean {
                p: o.or("p", f64_, workload::half())?,
            }
        }
    })
}

// ------------------------------------------------------------------------------------------
// Reads and options.
// ------------------------------------------------------------------------------------------

/// A [`ReadPattern`]: `{"type": "prefix", "record": {...}}`.
pub fn read_pattern(n: &Node) -> R<ReadPattern> {
    let k = tag(
        n,
        "internally tagged enum ReadPattern",
        "type",
        &["get", "prefix", "range", "latest"],
    )?;
    let obj = |fields: &[&str]| Obj::new(n, "struct variant", fields, Some("type"), false);
    Ok(match k {
        0 | 1 => {
            let o = obj(&["name", "record"])?;
            let (name, record) = (o.opt("name", string)?, o.req("record", map)?);
            if k == 0 {
                ReadPattern::Get { name, record }
            } else {
                ReadPattern::Prefix { name, record }
            }
        }
        2 => {
            let o = obj(&["name", "from", "to"])?;
            ReadPattern::Range {
                name: o.opt("name", string)?,
                from: o.req("from", map)?,
                to: o.req("to", map)?,
            }
        }
        _ => {
            let o = obj(&["name", "record", "n"])?;
            ReadPattern::Latest {
                name: o.opt("name", string)?,
                record: o.req("record", map)?,
                n: o.req("n", |n| match u64_(n)? {
                    0 => Err(n.error("a latest read returns at least 1 row (`n` >= 1)")),
                    v => Ok(v),
                })?,
            }
        }
    })
}

/// [`AnalyzeOptions`]: every field optional.
pub fn analyze_options(n: &Node) -> R<AnalyzeOptions> {
    let o = Obj::new(
        n,
        "struct AnalyzeOptions",
        &[
            "windows",
            "sampleSize",
            "regionSampleSize",
            "gridBuckets",
            "presplitSample",
        ],
        None,
        false,
    )?;
    let d = AnalyzeOptions::default();
    Ok(AnalyzeOptions {
        windows: o.or("windows", u32_, d.windows)?,
        sample_size: o.or("sampleSize", u32_, d.sample_size)?,
        region_sample_size: o.or("regionSampleSize", u32_, d.region_sample_size)?,
        grid_buckets: o.or("gridBuckets", u32_, d.grid_buckets)?,
        presplit_sample: o.or("presplitSample", u32_, d.presplit_sample)?,
    })
}

/// [`InspectOptions`]: `{type, regions}`.
pub fn inspect_options(n: &Node) -> R<InspectOptions> {
    let o = Obj::new(
        n,
        "struct InspectOptions",
        &["type", "regions"],
        None,
        false,
    )?;
    Ok(InspectOptions {
        value_type: o.req("type", field_type)?,
        regions: o.req("regions", u32_)?,
    })
}

// ------------------------------------------------------------------------------------------
// serde::Deserialize through the readers.
// ------------------------------------------------------------------------------------------

/// Collects any serde input into a [`Node`] (object keys in input order, duplicates kept).
struct NodeVisitor;

impl<'de> serde::de::Visitor<'de> for NodeVisitor {
    type Value = Node;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> std::result::Result<Node, E> {
        Ok(leaf(Json::Bool(b)))
    }
    fn visit_u64<E>(self, u: u64) -> std::result::Result<Node, E> {
        Ok(leaf(Json::U(u)))
    }
    fn visit_i64<E>(self, i: i64) -> std::result::Result<Node, E> {
        Ok(leaf(if i >= 0 {
            Json::U(i as u64)
        } else {
            Json::I(i)
        }))
    }
    fn visit_f64<E>(self, f: f64) -> std::result::Result<Node, E> {
        Ok(leaf(Json::F(f)))
    }
    fn visit_str<E>(self, s: &str) -> std::result::Result<Node, E> {
        Ok(leaf(Json::Str(s.to_string())))
    }
    fn visit_unit<E>(self) -> std::result::Result<Node, E> {
        Ok(leaf(Json::Null))
    }
    fn visit_none<E>(self) -> std::result::Result<Node, E> {
        Ok(leaf(Json::Null))
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Node, D::Error> {
        d.deserialize_any(NodeVisitor)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(
        self,
        mut seq: A,
    ) -> std::result::Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(x) = seq.next_element_seed(NodeSeed)? {
            items.push(x);
        }
        Ok(leaf(Json::Arr(items)))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(
        self,
        mut m: A,
    ) -> std::result::Result<Node, A::Error> {
        let mut entries = Vec::new();
        while let Some(k) = m.next_key::<String>()? {
            let v = m.next_value_seed(NodeSeed)?;
            entries.push((k, 0, v));
        }
        Ok(leaf(Json::Obj(entries)))
    }
}

struct NodeSeed;

impl<'de> serde::de::DeserializeSeed<'de> for NodeSeed {
    type Value = Node;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Node, D::Error> {
        d.deserialize_any(NodeVisitor)
    }
}

fn leaf(v: Json) -> Node {
    Node { v, pos: 0 }
}

/// Read `T` from any serde input through its reader `f`; the error message names the path.
fn through<'de, D: Deserializer<'de>, T>(
    d: D,
    f: fn(&Node) -> R<T>,
) -> std::result::Result<T, D::Error> {
    let n = d.deserialize_any(NodeVisitor)?;
    f(&n).map_err(|e| {
        let msg = match e.pointer() {
            p if p.is_empty() => e.message().to_string(),
            p => format!("{p}: {}", e.message()),
        };
        serde::de::Error::custom(msg)
    })
}

macro_rules! deserialize_through {
    ($($t:ty => $f:path),* $(,)?) => {$(
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
                through(d, $f)
            }
        }
    )*};
}

deserialize_through! {
    DesignDocument => design,
    FieldType => field_type,
    KeySpec => key_spec,
    Segment => segment,
    WorkloadSpec => workload,
    Generator => generator,
    RegionLayout => region_layout,
    PreSplit => presplit,
    AutoSplit => auto_split,
    Assignment => assignment,
    SplitPolicy => split_policy,
    SplitConfig => split_config,
    ReadPattern => read_pattern,
    AnalyzeOptions => analyze_options,
    InspectOptions => inspect_options,
}

/// A `serde_json::Value` read with `f` (for values that arrive already parsed).
pub fn from_value<T>(v: &Value, f: fn(&Node) -> R<T>) -> R<T> {
    f(&Node::from_value(v))
}
