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
use crate::keyspec::KeySpec;
use crate::keyspec::{len_32, render_byte, render_long};
use crate::keyspec::{
    BucketSpec, DecSpec, DictSpec, FieldArg, FixedSpec, HashSpec, Literal, Md5HexSpec, ModMode,
    NumSpec, Overflow, PadSide, RandomSpec, Render, RevtsSpec, SaltHash, SaltSpec, Segment,
    TimeSpec, TimeUnit, WhenSpec,
};
use crate::layout::{Assignment, AutoSplit, KeyEncoding, PreSplit, RegionLayout, SaltStyle};
use crate::policy::{SplitConfig, SplitPolicy};
use crate::scan::ReadPattern;
use crate::workload::{self, Generator, ListOrder, WorkloadSpec};

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
        key: o.opt("key", string)?,
        key_binary: o.opt("keyBinary", string)?,
        note: o.opt("note", string)?,
    })
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
// The key design.
// ------------------------------------------------------------------------------------------

/// A [`KeySpec`]: the text form as a string (parsed and validated), or `{"segments": [...]}`.
pub fn key_spec(n: &Node) -> R<KeySpec> {
    match &n.v {
        // A text-form error keeps its own line and column (the JSON path says it is the key's).
        Json::Str(s) => KeySpec::parse_text(s).map_err(|e| {
            let d = n.error(e.message);
            match (e.location.line, e.location.column) {
                (Some(line), Some(column)) => d.within(line, column),
                _ => d,
            }
        }),
        Json::Obj(_) => {
            let o = Obj::new(n, "struct KeySpecObject", &["segments"], None, false)?;
            Ok(KeySpec {
                segments: o.req("segments", segments)?,
            })
        }
        _ => {
            Err(n.invalid_type("a key design: the text form as a string, or {\"segments\": [...]}"))
        }
    }
}

fn segments(n: &Node) -> R<Vec<Segment>> {
    list(n, segment)
}

const SEGMENT_KINDS: &[&str] = &[
    "field",
    "str",
    "fixed",
    "dec",
    "long",
    "int",
    "short",
    "double",
    "float",
    "bool",
    "bigDecimal",
    "literal",
    "salt",
    "random",
    "hash15",
    "md5",
    "md5Hex",
    "reverse",
    "revts",
    "time",
    "bucket",
    "dict",
    "tag",
    "when",
];

/// One [`Segment`]: `{"kind": "salt", ...}`.
pub fn segment(n: &Node) -> R<Segment> {
    let k = tag(n, "internally tagged enum Segment", "kind", SEGMENT_KINDS)?;
    let obj = |what, fields: &[&str]| Obj::new(n, what, fields, Some("kind"), false);
    let field_arg = || -> R<FieldArg> {
        let o = obj("struct FieldArg", &["field"])?;
        Ok(FieldArg {
            field: o.req("field", string)?,
        })
    };
    let num = || -> R<NumSpec> {
        let o = obj("struct NumSpec", &["field", "sortable"])?;
        Ok(NumSpec {
            field: o.req("field", string)?,
            sortable: o.or("sortable", bool_, false)?,
        })
    };
    let of = |o: &Obj| o.opt("of", segments);
    let hash = || -> R<HashSpec> {
        let o = obj("struct HashSpec", &["of"])?;
        Ok(HashSpec { of: of(&o)? })
    };
    let dict = || -> R<DictSpec> {
        let o = obj("struct DictSpec", &["field", "entries", "as"])?;
        Ok(DictSpec {
            field: o.req("field", string)?,
            entries: o.req("entries", dict_entries)?,
            render: o.opt("as", render)?,
        })
    };
    Ok(match k {
        0 => Segment::Field(field_arg()?),
        1 => Segment::Str(field_arg()?),
        2 => {
            let o = obj(
                "struct FixedSpec",
                &["field", "width", "pad", "side", "overflow"],
            )?;
            Segment::Fixed(FixedSpec {
                field: o.req("field", string)?,
                width: o.req("width", u32_)?,
                pad: o.or("pad", u8_, 0)?,
                side: o.or(
                    "side",
                    |n| unit(n, &[("right", PadSide::Right), ("left", PadSide::Left)]),
                    PadSide::Right,
                )?,
                overflow: o.or(
                    "overflow",
                    |n| {
                        unit(
                            n,
                            &[
                                ("reject", Overflow::Reject),
                                ("truncate", Overflow::Truncate),
                            ],
                        )
                    },
                    Overflow::Reject,
                )?,
            })
        }
        3 => {
            let o = obj("struct DecSpec", &["field", "width"])?;
            Segment::Dec(DecSpec {
                field: o.req("field", string)?,
                width: o.req("width", u32_)?,
            })
        }
        4 => Segment::Long(num()?),
        5 => Segment::Int(num()?),
        6 => Segment::Short(num()?),
        7 => Segment::Double(num()?),
        8 => Segment::Float(num()?),
        9 => Segment::Bool(field_arg()?),
        10 => Segment::BigDecimal(field_arg()?),
        11 => {
            let o = obj("struct LiteralRepr", &["text", "hex"])?;
            let (text, hex) = (o.opt("text", string)?, o.opt("hex", string)?);
            Segment::Literal(Literal::from_parts(text, hex).map_err(|m| n.error(m))?)
        }
        12 => {
            let o = obj("struct SaltSpec", &["of", "buckets", "hash", "mod", "as"])?;
            Segment::Salt(SaltSpec {
                of: of(&o)?,
                buckets: o.req("buckets", u32_)?,
                hash: o.or("hash", salt_hash, SaltHash::JavaString)?,
                modulo: o.or("mod", mod_mode, ModMode::AbsOfMod)?,
                render: o.or("as", render, render_byte())?,
            })
        }
        13 => {
            let o = obj("struct RandomSpec", &["buckets", "seed", "as"])?;
            Segment::Random(RandomSpec {
                buckets: o.req("buckets", u32_)?,
                seed: o.or("seed", u64_, 0)?,
                render: o.or("as", render, render_byte())?,
            })
        }
        14 => Segment::Hash15(hash()?),
        15 => Segment::Md5(hash()?),
        16 => {
            let o = obj("struct Md5HexSpec", &["of", "len", "upper"])?;
            Segment::Md5Hex(Md5HexSpec {
                of: of(&o)?,
                len: o.or("len", u32_, len_32())?,
                upper: o.or("upper", bool_, false)?,
            })
        }
        17 => Segment::Reverse(field_arg()?),
        18 => {
            let o = obj("struct RevtsSpec", &["field", "div", "as"])?;
            Segment::Revts(RevtsSpec {
                field: o.req("field", string)?,
                div: o.opt("div", i64_)?,
                render: o.or("as", render, render_long())?,
            })
        }
        19 => {
            let o = obj("struct TimeSpec", &["field", "pattern", "unit"])?;
            Segment::Time(TimeSpec {
                field: o.req("field", string)?,
                pattern: o.req("pattern", string)?,
                unit: o.or(
                    "unit",
                    |n| unit(n, &[("ms", TimeUnit::Ms), ("s", TimeUnit::S)]),
                    TimeUnit::Ms,
                )?,
            })
        }
        20 => {
            let o = obj("struct BucketSpec", &["field", "mod", "div", "as"])?;
            Segment::Bucket(BucketSpec {
                field: o.req("field", string)?,
                modulo: o.opt("mod", i64_)?,
                div: o.opt("div", i64_)?,
                render: o.or("as", render, render_long())?,
            })
        }
        21 => Segment::Dict(dict()?),
        22 => Segment::Tag(dict()?),
        _ => {
            let o = obj("struct WhenSpec", &["field", "is", "then"])?;
            Segment::When(WhenSpec {
                field: o.req("field", string)?,
                is: o.req("is", strings)?,
                then: o.req("then", segments)?,
            })
        }
    })
}

fn salt_hash(n: &Node) -> R<SaltHash> {
    use SaltHash::*;
    unit(
        n,
        &[
            ("javaString", JavaString),
            ("arrays", Arrays),
            ("md5", Md5),
            ("phoenix", Phoenix),
            ("hbasewd", Hbasewd),
            ("opentsdb", Opentsdb),
        ],
    )
}

fn mod_mode(n: &Node) -> R<ModMode> {
    use ModMode::*;
    unit(
        n,
        &[
            ("absOfMod", AbsOfMod),
            ("modOfAbs", ModOfAbs),
            ("floorMod", FloorMod),
        ],
    )
}

/// A [`Render`]: `"byte"`, `"short"`, `"int"`, `"long"`, `"letter"`, or `{"dec": 2}`,
/// `{"hex": 2}`, `{"hexUpper": 2}`, `{"bytes": 4}`.
fn render(n: &Node) -> R<Render> {
    const UNITS: &[(&str, Render)] = &[
        ("byte", Render::Byte),
        ("short", Render::Short),
        ("int", Render::Int),
        ("long", Render::Long),
        ("letter", Render::Letter),
    ];
    const WIDTHS: &[&str] = &["dec", "hex", "hexUpper", "bytes"];
    match &n.v {
        Json::Str(_) => unit(n, UNITS),
        Json::Obj(e) => match e.as_slice() {
            [(k, at, v)] => {
                let w = |f: fn(u32) -> Render| u32_(v).map(f).map_err(|e| e.key(k));
                match k.as_str() {
                    "dec" => w(Render::Dec),
                    "hex" => w(Render::Hex),
                    "hexUpper" => w(Render::HexUpper),
                    "bytes" => w(Render::Bytes),
                    _ => Err(DeError::new(
                        format!(
                            "unknown variant `{k}`, expected one of `byte`, `short`, `int`, `long`, `dec`, `hex`, `hexUpper`, `bytes`, `letter`"
                        ),
                        *at,
                    )),
                }
            }
            _ => Err(n.error(format!(
                "expected a render name or a map with a single key ({})",
                WIDTHS.join(", ")
            ))),
        },
        _ => Err(n.invalid_type("enum Render")),
    }
}

/// Dictionary entries: an object mapping each value to its integer id, in document order.
fn dict_entries(n: &Node) -> R<Vec<(String, i64)>> {
    let Json::Obj(entries) = &n.v else {
        return Err(n.invalid_type("an object mapping each value to its integer id"));
    };
    let mut out: Vec<(String, i64)> = Vec::with_capacity(entries.len());
    for (k, at, v) in entries {
        if out.iter().any(|(x, _)| x == k) {
            return Err(DeError::new(format!("value `{k}` is listed twice"), *at));
        }
        out.push((k.clone(), i64_(v).map_err(|e| e.key(k))?));
    }
    Ok(out)
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
        start_time: o.or("startTime", i64_, d.start_time)?,
    })
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
                start: o.opt("start", i64_)?,
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
// Regions.
// ------------------------------------------------------------------------------------------

/// A [`RegionLayout`].
pub fn region_layout(n: &Node) -> R<RegionLayout> {
    let o = Obj::new(
        n,
        "struct RegionLayout",
        &["presplit", "autoSplit", "regionServers", "assignment"],
        None,
        false,
    )?;
    Ok(RegionLayout {
        presplit: o.or("presplit", presplit, PreSplit::None)?,
        auto_split: o.opt("autoSplit", auto_split)?,
        region_servers: o.or(
            "regionServers",
            u32_,
            RegionLayout::default().region_servers,
        )?,
        assignment: o.or("assignment", assignment, Assignment::RoundRobin)?,
    })
}

/// An [`Assignment`] name.
pub fn assignment(n: &Node) -> R<Assignment> {
    unit(
        n,
        &[
            ("roundRobin", Assignment::RoundRobin),
            ("balanced", Assignment::Balanced),
        ],
    )
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
    let obj = |fields: &[&str]| Obj::new(n, "struct variant", fields, Some("type"), true);
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

/// A [`SplitConfig`]: every field optional (defaults from hbase-default.xml), unknown keys
/// ignored.
pub fn split_config(n: &Node) -> R<SplitConfig> {
    let o = Obj::new(n, "struct SplitConfig", &[], None, true)?;
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
                n: o.req("n", u64_)?,
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
