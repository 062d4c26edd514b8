//! Readers of the key design: the key spec's text or JSON form and every segment kind.

use crate::keyspec::*;
use crate::keyspec::{len_32, render_byte, render_long};
use crate::keyspec::{
    BucketSpec, DecSpec, DictSpec, FieldArg, FixedSpec, HashSpec, Literal, Md5HexSpec, ModMode,
    NumSpec, Overflow, PadSide, RandomSpec, Render, RevtsSpec, SaltHash, SaltSpec, TimeSpec,
    TimeUnit, WhenSpec,
};
use crate::support::json::{
    bool_, i64_, list, string, strings, tag, u32_, u64_, u8_, unit, DeError, Json, Node, Obj, R,
};

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

crate::support::json::deserialize_through! {
    FieldType => field_type,
    KeySpec => key_spec,
    Segment => segment,
}
