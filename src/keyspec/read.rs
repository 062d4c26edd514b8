//! Readers of the key design: the key spec's text or JSON form and every segment kind.

use crate::keyspec::*;
use crate::keyspec::{len_32, render_byte, render_long, uid_width};
use crate::keyspec::{
    BucketSpec, DecSpec, DictSpec, FieldArg, FixedSpec, HashSpec, Literal, Md5HexSpec, ModMode,
    NumSpec, Overflow, PadSide, RandomSpec, Render, RevtsSpec, SaltHash, SaltSpec, TimeSpec,
    TimeUnit, WhenSpec,
};
use crate::keyspec::{PkSpec, TagsSpec, UidSpec};
use crate::support::json::{
    bool_, i32_, i64_, list, read_object, string, strings, tagged_reader, u32_, u64_, u8_, unit,
    DeError, Json, Node, R,
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
        Json::Obj(_) => Ok(read_object!(
            n,
            "struct KeySpecObject",
            None,
            KeySpec {
                segments: req("segments", segments),
            }
        )),
        _ => {
            Err(n.invalid_type("a key design: the text form as a string, or {\"segments\": [...]}"))
        }
    }
}

fn segments(n: &Node) -> R<Vec<Segment>> {
    list(n, segment)
}

fn pad_side(n: &Node) -> R<PadSide> {
    unit(n, &[("right", PadSide::Right), ("left", PadSide::Left)])
}

fn overflow(n: &Node) -> R<Overflow> {
    unit(
        n,
        &[
            ("reject", Overflow::Reject),
            ("truncate", Overflow::Truncate),
        ],
    )
}

fn time_unit(n: &Node) -> R<TimeUnit> {
    unit(n, &[("ms", TimeUnit::Ms), ("s", TimeUnit::S)])
}

tagged_reader! {
    /// One [`Segment`]: `{"kind": "salt", ...}`.
    pub fn segment(n) -> Segment; "internally tagged enum Segment", tag "kind";
    /// The segment kinds and their members, as [`segment`] reads them.
    table SEGMENTS;
    "field" => Segment::Field(FieldArg {
        field: req("field", string),
    }),
    "str" => Segment::Str(FieldArg {
        field: req("field", string),
    }),
    "fixed" => Segment::Fixed(FixedSpec {
        field: req("field", string),
        width: req("width", u32_),
        pad: or("pad", u8_, 0),
        side: or("side", pad_side, PadSide::Right),
        overflow: or("overflow", overflow, Overflow::Reject),
    }),
    "dec" => Segment::Dec(DecSpec {
        field: req("field", string),
        width: req("width", u32_),
    }),
    "long" => Segment::Long(NumSpec {
        field: req("field", string),
        sortable: or("sortable", bool_, false),
    }),
    "int" => Segment::Int(NumSpec {
        field: req("field", string),
        sortable: or("sortable", bool_, false),
    }),
    "short" => Segment::Short(NumSpec {
        field: req("field", string),
        sortable: or("sortable", bool_, false),
    }),
    "double" => Segment::Double(NumSpec {
        field: req("field", string),
        sortable: or("sortable", bool_, false),
    }),
    "float" => Segment::Float(NumSpec {
        field: req("field", string),
        sortable: or("sortable", bool_, false),
    }),
    "bool" => Segment::Bool(FieldArg {
        field: req("field", string),
    }),
    "bigDecimal" => Segment::BigDecimal(FieldArg {
        field: req("field", string),
    }),
    "literal" => {
        text: opt("text", string),
        hex: opt("hex", string),
    } => Segment::Literal(Literal::from_parts(text, hex).map_err(|m| n.error(m))?),
    "salt" => Segment::Salt(SaltSpec {
        of: opt("of", segments),
        buckets: req("buckets", u32_),
        hash: or("hash", salt_hash, SaltHash::JavaString),
        modulo: or("mod", mod_mode, ModMode::AbsOfMod),
        render: or("as", render, render_byte()),
    }),
    "random" => Segment::Random(RandomSpec {
        buckets: req("buckets", u32_),
        seed: or("seed", u64_, 0),
        render: or("as", render, render_byte()),
    }),
    "hash15" => Segment::Hash15(HashSpec {
        of: opt("of", segments),
    }),
    "md5" => Segment::Md5(HashSpec {
        of: opt("of", segments),
    }),
    "md5Hex" => Segment::Md5Hex(Md5HexSpec {
        of: opt("of", segments),
        len: or("len", u32_, len_32()),
        upper: or("upper", bool_, false),
    }),
    "reverse" => Segment::Reverse(FieldArg {
        field: req("field", string),
    }),
    "revts" => Segment::Revts(RevtsSpec {
        field: req("field", string),
        div: opt("div", i64_),
        render: or("as", render, render_long()),
    }),
    "time" => Segment::Time(TimeSpec {
        field: req("field", string),
        pattern: req("pattern", string),
        unit: or("unit", time_unit, TimeUnit::Ms),
    }),
    "bucket" => Segment::Bucket(BucketSpec {
        field: req("field", string),
        modulo: opt("mod", i64_),
        div: opt("div", i64_),
        render: or("as", render, render_long()),
    }),
    "dict" => Segment::Dict(DictSpec {
        field: req("field", string),
        entries: req("entries", dict_entries),
        render: opt("as", render),
    }),
    "tag" => Segment::Tag(DictSpec {
        field: req("field", string),
        entries: req("entries", dict_entries),
        render: opt("as", render),
    }),
    "when" => Segment::When(WhenSpec {
        field: req("field", string),
        is: req("is", strings),
        then: req("then", segments),
    }),
    "uid" => Segment::Uid(UidSpec {
        field: req("field", string),
        width: or("width", u32_, uid_width()),
        entries: opt("entries", dict_entries),
    }),
    "baseTime" => Segment::BaseTime(FieldArg {
        field: req("field", string),
    }),
    "tags" => Segment::Tags(TagsSpec {
        of: req("of", segments),
        tagk: req("tagk", dict_entries),
        width: or("width", u32_, uid_width()),
    }),
    "pk" => Segment::Pk(PkSpec {
        field: req("field", string),
        data_type: req("type", phoenix_type),
        desc: or("desc", bool_, false),
        len: opt("len", i32_),
        scale: opt("scale", i32_),
        nullable: or("nullable", bool_, false),
    }),
}

/// A Phoenix SQL type name (`"VARCHAR"`, `"UNSIGNED_LONG"`).
fn phoenix_type(n: &Node) -> R<crate::hbase::phoenix::PhoenixType> {
    use crate::hbase::phoenix::types::ALL_TYPES;
    let table: Vec<(&str, crate::hbase::phoenix::PhoenixType)> =
        ALL_TYPES.iter().map(|t| (t.sql_name(), *t)).collect();
    unit(n, &table)
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
    let mut seen = std::collections::HashSet::with_capacity(entries.len());
    for (k, at, v) in entries {
        if !seen.insert(k.as_str()) {
            let k = crate::support::json::quote(k);
            return Err(DeError::new(format!("value {k} is listed twice"), *at));
        }
        out.push((k.clone(), i64_(v).map_err(|e| e.key(k))?));
    }
    Ok(out)
}

/// A [`FieldType`] name.
pub fn field_type(n: &Node) -> R<FieldType> {
    unit(n, FIELD_TYPES)
}

/// The field types by their document names, as [`field_type`] reads them.
pub const FIELD_TYPES: &[(&str, FieldType)] = &[
    ("string", FieldType::String),
    ("long", FieldType::Long),
    ("int", FieldType::Int),
    ("short", FieldType::Short),
    ("double", FieldType::Double),
    ("float", FieldType::Float),
    ("boolean", FieldType::Boolean),
    ("bigDecimal", FieldType::BigDecimal),
    ("timestamp", FieldType::Timestamp),
];

crate::support::json::deserialize_through! {
    FieldType => field_type,
    KeySpec => key_spec,
    Segment => segment,
}
