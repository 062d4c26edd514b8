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

/// The sides a `fixed` segment pads on, by their document names.
const PAD_SIDES: [(&str, PadSide); 2] = [("right", PadSide::Right), ("left", PadSide::Left)];
/// What a `fixed` segment does with a longer value.
const OVERFLOWS: [(&str, Overflow); 2] = [
    ("reject", Overflow::Reject),
    ("truncate", Overflow::Truncate),
];
/// A `time` segment's field units.
const TIME_UNITS: [(&str, TimeUnit); 2] = [("ms", TimeUnit::Ms), ("s", TimeUnit::S)];

fn pad_side(n: &Node) -> R<PadSide> {
    unit(n, &PAD_SIDES)
}

fn overflow(n: &Node) -> R<Overflow> {
    unit(n, &OVERFLOWS)
}

fn time_unit(n: &Node) -> R<TimeUnit> {
    unit(n, &TIME_UNITS)
}

tagged_reader! {
    /// One [`Segment`]: `{"kind": "salt", ...}`.
    pub fn segment(n) -> Segment; "internally tagged enum Segment", tag "kind";
    /// The segment kinds and their members, as [`segment`] reads them.
    table SEGMENTS;
    /// The field in its type's own encoding (`Bytes.toBytes`).
    "field" => Segment::Field(FieldArg {
        /// The field it writes.
        field: req("field", string),
    }),
    /// The field's value as UTF-8 text.
    "str" => Segment::Str(FieldArg {
        /// The field it writes.
        field: req("field", string),
    }),
    /// The field's text padded or cut to `width` bytes.
    "fixed" => Segment::Fixed(FixedSpec {
        /// The field it writes.
        field: req("field", string),
        /// The width in bytes, at most 32,767.
        width: req("width", u32_),
        /// The padding byte.
        pad: or("pad", u8_, 0) = "0",
        /// The side padded.
        side: or("side", pad_side, PadSide::Right) = "\"right\"" of PAD_SIDES,
        /// A longer value is refused, or cut to the width.
        overflow: or("overflow", overflow, Overflow::Reject) = "\"reject\"" of OVERFLOWS,
    }),
    /// An integer as zero-padded decimal text of `width` digits.
    "dec" => Segment::Dec(DecSpec {
        /// The field it writes.
        field: req("field", string),
        /// Digits.
        width: req("width", u32_),
    }),
    /// The field as Java's `Bytes.toBytes(long)`; `sortable` flips the sign bit (and a
    /// negative float's bits) so the bytes sort as the numbers do.
    "long" => Segment::Long(NumSpec {
        /// The field it writes.
        field: req("field", string),
        /// Bytes that sort as the numbers do.
        sortable: or("sortable", bool_, false) = "false",
    }),
    /// The field as Java's `Bytes.toBytes(int)`; `sortable` flips the sign bit (and a
    /// negative float's bits) so the bytes sort as the numbers do.
    "int" => Segment::Int(NumSpec {
        /// The field it writes.
        field: req("field", string),
        /// Bytes that sort as the numbers do.
        sortable: or("sortable", bool_, false) = "false",
    }),
    /// The field as Java's `Bytes.toBytes(short)`; `sortable` flips the sign bit (and a
    /// negative float's bits) so the bytes sort as the numbers do.
    "short" => Segment::Short(NumSpec {
        /// The field it writes.
        field: req("field", string),
        /// Bytes that sort as the numbers do.
        sortable: or("sortable", bool_, false) = "false",
    }),
    /// The field as Java's `Bytes.toBytes(double)`; `sortable` flips the sign bit (and a
    /// negative float's bits) so the bytes sort as the numbers do.
    "double" => Segment::Double(NumSpec {
        /// The field it writes.
        field: req("field", string),
        /// Bytes that sort as the numbers do.
        sortable: or("sortable", bool_, false) = "false",
    }),
    /// The field as Java's `Bytes.toBytes(float)`; `sortable` flips the sign bit (and a
    /// negative float's bits) so the bytes sort as the numbers do.
    "float" => Segment::Float(NumSpec {
        /// The field it writes.
        field: req("field", string),
        /// Bytes that sort as the numbers do.
        sortable: or("sortable", bool_, false) = "false",
    }),
    /// A boolean as one byte (`Bytes.toBytes(boolean)`).
    "bool" => Segment::Bool(FieldArg {
        /// The field it writes.
        field: req("field", string),
    }),
    /// A decimal as `Bytes.toBytes(BigDecimal)`: a 4-byte scale and the unscaled value.
    "bigDecimal" => Segment::BigDecimal(FieldArg {
        /// The field it writes.
        field: req("field", string),
    }),
    /// Fixed bytes: a separator or a constant prefix (one of `text` and `hex`).
    "literal" => {
        /// The bytes as UTF-8 text.
        text: opt("text", string),
        /// The bytes as hex digits.
        hex: opt("hex", string),
    } => Segment::Literal(Literal::from_parts(text, hex).map_err(|m| n.error(m))?),
    /// A salt bucket: a hash of other segments' bytes modulo `buckets`.
    "salt" => Segment::Salt(SaltSpec {
        /// The segments whose bytes it hashes; absent, the segments after it.
        of: opt("of", segments),
        /// How many buckets.
        buckets: req("buckets", u32_),
        /// The hash: Java's `String.hashCode`, `Arrays.hashCode`, MD5, Phoenix's, HBaseWD's or
        /// OpenTSDB's.
        hash: or("hash", salt_hash, SaltHash::JavaString) = "\"javaString\"" of SALT_HASHES,
        /// How a negative hash becomes a bucket.
        modulo: or("mod", mod_mode, ModMode::AbsOfMod) = "\"absOfMod\"" of MOD_MODES,
        /// How the bucket is written: `byte`, `short`, `int`, `long`, `letter`, or
        /// `{"dec": W}`, `{"hex": W}`, `{"hexUpper": W}`, `{"bytes": W}`.
        render: or("as", render, render_byte()) = "\"byte\"",
    }),
    /// A random bucket drawn per write (seeded): spreads writes, costs a scan per bucket.
    "random" => Segment::Random(RandomSpec {
        /// How many buckets.
        buckets: req("buckets", u32_),
        /// The seed of the draws.
        seed: or("seed", u64_, 0) = "0",
        /// How the bucket is written: `byte`, `short`, `int`, `long`, `letter`, or
        /// `{"dec": W}`, `{"hex": W}`, `{"hexUpper": W}`, `{"bytes": W}`.
        render: or("as", render, render_byte()) = "\"byte\"",
    }),
    /// `(short)(hashCode & 0x7FFF)` of the segments' text, as two bytes.
    "hash15" => Segment::Hash15(HashSpec {
        /// The segments whose bytes it hashes; absent, the segments after it.
        of: opt("of", segments),
    }),
    /// The 16 bytes of the MD5 of the segments' bytes.
    "md5" => Segment::Md5(HashSpec {
        /// The segments whose bytes it hashes; absent, the segments after it.
        of: opt("of", segments),
    }),
    /// The MD5 of the segments' bytes as hex text, cut to `len` characters.
    "md5Hex" => Segment::Md5Hex(Md5HexSpec {
        /// The segments whose bytes it hashes; absent, the segments after it.
        of: opt("of", segments),
        /// Hex characters kept, 1 to 32.
        len: or("len", u32_, len_32()) = "32",
        /// Upper-case hex digits.
        upper: or("upper", bool_, false) = "false",
    }),
    /// The field's text reversed.
    "reverse" => Segment::Reverse(FieldArg {
        /// The field it writes.
        field: req("field", string),
    }),
    /// A reversed timestamp, `Long.MAX_VALUE − ts` (divided by `div` first): newest first.
    "revts" => Segment::Revts(RevtsSpec {
        /// The field it writes.
        field: req("field", string),
        /// Divide the time by this first (1000: seconds).
        div: opt("div", i64_),
        /// How the number is written (as `salt`'s `as`).
        render: or("as", render, render_long()) = "\"long\"",
    }),
    /// A time as text in a `SimpleDateFormat` pattern.
    "time" => Segment::Time(TimeSpec {
        /// The field it writes.
        field: req("field", string),
        /// The pattern, e.g. `yyyyMMddHH`.
        pattern: req("pattern", string),
        /// The field's unit.
        unit: or("unit", time_unit, TimeUnit::Ms) = "\"ms\"" of TIME_UNITS,
    }),
    /// An integer field's bucket: the value modulo `mod` or divided by `div`.
    "bucket" => Segment::Bucket(BucketSpec {
        /// The field it writes.
        field: req("field", string),
        /// The modulus.
        modulo: opt("mod", i64_),
        /// The divisor.
        div: opt("div", i64_),
        /// How the number is written (as `salt`'s `as`).
        render: or("as", render, render_long()) = "\"long\"",
    }),
    /// A value's id from a dictionary.
    "dict" => Segment::Dict(DictSpec {
        /// The field it writes.
        field: req("field", string),
        /// Each value and its integer id.
        entries: req("entries", dict_entries),
        /// How the id is written; absent, an 8-byte long.
        render: opt("as", render),
    }),
    /// A value's id from a dictionary, as a tag.
    "tag" => Segment::Tag(DictSpec {
        /// The field it writes.
        field: req("field", string),
        /// Each value and its integer id.
        entries: req("entries", dict_entries),
        /// How the id is written; absent, as `dict` writes it.
        render: opt("as", render),
    }),
    /// Segments written only for records whose field is one of `is`.
    "when" => Segment::When(WhenSpec {
        /// The field it writes.
        field: req("field", string),
        /// The values that select the segments.
        is: req("is", strings),
        /// The segments written then.
        then: req("then", segments),
    }),
    /// OpenTSDB's UID: the value's id in `width` bytes.
    "uid" => Segment::Uid(UidSpec {
        /// The field it writes.
        field: req("field", string),
        /// Bytes of the id (OpenTSDB's default 3).
        width: or("width", u32_, uid_width()) = "3",
        /// Known ids; absent (or for other values), ids are numbered as values first appear.
        entries: opt("entries", dict_entries),
    }),
    /// OpenTSDB's base time: the timestamp cut to the hour, 4 bytes of seconds.
    "baseTime" => Segment::BaseTime(FieldArg {
        /// The field it writes.
        field: req("field", string),
    }),
    /// OpenTSDB's tags: each tag key's UID and its value's, sorted by tag key UID.
    "tags" => Segment::Tags(TagsSpec {
        /// One `uid` segment per tag value.
        of: req("of", segments),
        /// Each tag key and its UID.
        tagk: req("tagk", dict_entries),
        /// Bytes of each UID.
        width: or("width", u32_, uid_width()) = "3",
    }),
    /// A Phoenix primary-key column in Phoenix's own encoding.
    "pk" => Segment::Pk(PkSpec {
        /// The field it writes.
        field: req("field", string),
        /// The column's SQL type.
        data_type: req("type", phoenix_type),
        /// `DESC`: the bytes inverted.
        desc: or("desc", bool_, false) = "false",
        /// VARCHAR/CHAR/BINARY/VARBINARY length, or DECIMAL precision.
        len: opt("len", i32_),
        /// DECIMAL scale.
        scale: opt("scale", i32_),
        /// The column may be NULL.
        nullable: or("nullable", bool_, false) = "false",
    }),
}

/// A Phoenix SQL type name (`"VARCHAR"`, `"UNSIGNED_LONG"`).
fn phoenix_type(n: &Node) -> R<crate::hbase::phoenix::PhoenixType> {
    use crate::hbase::phoenix::types::ALL_TYPES;
    let table: Vec<(&str, crate::hbase::phoenix::PhoenixType)> =
        ALL_TYPES.iter().map(|t| (t.sql_name(), *t)).collect();
    unit(n, &table)
}

/// A salt's hashes by their document names.
const SALT_HASHES: [(&str, SaltHash); 6] = [
    ("javaString", SaltHash::JavaString),
    ("arrays", SaltHash::Arrays),
    ("md5", SaltHash::Md5),
    ("phoenix", SaltHash::Phoenix),
    ("hbasewd", SaltHash::Hbasewd),
    ("opentsdb", SaltHash::Opentsdb),
];
/// How a salt turns a negative hash into a bucket.
const MOD_MODES: [(&str, ModMode); 3] = [
    ("absOfMod", ModMode::AbsOfMod),
    ("modOfAbs", ModMode::ModOfAbs),
    ("floorMod", ModMode::FloorMod),
];

fn salt_hash(n: &Node) -> R<SaltHash> {
    unit(n, &SALT_HASHES)
}

fn mod_mode(n: &Node) -> R<ModMode> {
    unit(n, &MOD_MODES)
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
    unit(n, &FIELD_TYPES)
}

/// The field types by their document names, as [`field_type`] reads them.
pub const FIELD_TYPES: [(&str, FieldType); 9] = [
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
