//! The key-design AST: one type behind both the text form and the JSON form.
//!
//! The JSON form of every segment is an object with a `kind` naming it; the text form writes
//! the same segment as a call with the same name (`salt(phone, 10, as=dec(2))`), a bare field
//! name (`phone`) or a quoted literal (`"_"`).

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

/// A row key design: the segments whose bytes are concatenated, in order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct KeySpec {
    /// The segments, first byte first.
    pub segments: Vec<Segment>,
}

impl Serialize for KeySpec {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry("segments", &self.segments)?;
        m.end()
    }
}

/// One segment of a row key.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Segment {
    /// A field in the default encoding of its declared type (`Bytes.toBytes` of the value).
    Field(FieldArg),
    /// `Bytes.toBytes(String.valueOf(value))`: the value as UTF-8 text (variable width).
    Str(FieldArg),
    /// The value's text padded or cut to a fixed number of bytes.
    Fixed(FixedSpec),
    /// An integer as decimal digits, zero-padded to a width (`String.format("%0Nd")`).
    Dec(DecSpec),
    /// `Bytes.toBytes(long)`, 8 bytes; `sortable` flips the sign bit so negatives sort first.
    Long(NumSpec),
    /// `Bytes.toBytes(int)`, 4 bytes; `sortable` flips the sign bit.
    Int(NumSpec),
    /// `Bytes.toBytes(short)`, 2 bytes; `sortable` flips the sign bit.
    Short(NumSpec),
    /// `Bytes.toBytes(double)`, 8 bytes; `sortable` makes byte order follow numeric order.
    Double(NumSpec),
    /// `Bytes.toBytes(float)`, 4 bytes; `sortable` makes byte order follow numeric order.
    Float(NumSpec),
    /// `Bytes.toBytes(boolean)`: `ff` or `00`.
    Bool(FieldArg),
    /// `Bytes.toBytes(BigDecimal)`: 4-byte scale then the unscaled two's complement (variable).
    BigDecimal(FieldArg),
    /// Constant bytes: a separator, a table prefix.
    Literal(Literal),
    /// A salt bucket: `hash(source) mod buckets`, rendered as a byte, digits or hex.
    Salt(SaltSpec),
    /// A random salt bucket from a seeded generator (write-only workloads).
    Random(RandomSpec),
    /// `Bytes.toBytes((short)(s.hashCode() & 0x7FFF))` of the source text: 2 bytes (seed 004).
    Hash15(HashSpec),
    /// The raw 16-byte MD5 digest of the source bytes.
    Md5(HashSpec),
    /// `MD5Hash.getMD5AsHex(source)`, its first `len` characters, lower or upper case.
    Md5Hex(Md5HexSpec),
    /// `new StringBuilder(text).reverse()` of the value's text, as UTF-8.
    Reverse(FieldArg),
    /// `Bytes.toBytes(Long.MAX_VALUE - ts)` (or `- ts/div`): newest rows sort first.
    Revts(RevtsSpec),
    /// A timestamp formatted in UTC with a pattern (`yyyyMMddHHmmss`, `MM-dd`, ...).
    Time(TimeSpec),
    /// A time bucket: `ts mod N` or `floor(ts / period)`.
    Bucket(BucketSpec),
    /// A dictionary id: the value looked up in a fixed table (seed 001's LOG_TYPES).
    Dict(DictSpec),
    /// A record-type tag: like `dict`, one byte by default (seed 001's CUSTOMER++ table).
    Tag(DictSpec),
    /// Segments present only when a field has one of the listed values.
    When(WhenSpec),
    /// An OpenTSDB UID: the value's id from a table, or assigned in order of first
    /// appearance, big-endian on a fixed width (`tsd.storage.uid.width.*`, default 3).
    Uid(UidSpec),
    /// OpenTSDB's row base time: `Internal.baseTime` (`ts - ts % 3600` in seconds, of
    /// `ts / 1000` for millisecond values) as a 4-byte int.
    BaseTime(FieldArg),
    /// OpenTSDB's tag section: each value after its tag-key UID, pairs sorted by tag-key UID
    /// (`Tags.resolveAll`'s `Bytes.MEMCMP` order). The tag-key UIDs are constants of the
    /// design, so the order is fixed when the key is compiled.
    Tags(TagsSpec),
    /// One column of an Apache Phoenix primary key, encoded as `PTableImpl.newKey` writes
    /// it. Consecutive `pk(...)` segments are one primary key, in column order; they end the
    /// key, after at most a `salt(N, hash=phoenix)` (Phoenix's `SALT_BUCKETS`).
    Pk(PkSpec),
}

/// `pk(field, TYPE(len, scale), desc, nullable)`: a Phoenix primary-key column.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PkSpec {
    /// The field the column's value comes from (the column has the field's name).
    pub field: String,
    /// The Phoenix SQL type.
    #[serde(rename = "type")]
    pub data_type: crate::hbase::phoenix::PhoenixType,
    /// Descending: the column's bytes inverted (and `ff` after a variable-width value).
    #[serde(default, skip_serializing_if = "is_false")]
    pub desc: bool,
    /// VARCHAR/CHAR/BINARY/VARBINARY length, or DECIMAL precision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub len: Option<i32>,
    /// DECIMAL scale.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<i32>,
    /// The column may be NULL (declared without `NOT NULL`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub nullable: bool,
}

/// A segment that reads one field.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FieldArg {
    /// The field name.
    pub field: String,
}

/// Where `fixed` puts the pad bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum PadSide {
    /// Value first, pad bytes after it (`padTail`): keeps prefix order.
    #[default]
    Right,
    /// Pad bytes first, value after it (`padHead`): right-aligned numbers.
    Left,
}

/// What `fixed` does with a value longer than the width.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Overflow {
    /// Refuse to encode the record.
    #[default]
    Reject,
    /// Keep the first `width` bytes (the key is no longer invertible).
    Truncate,
}

/// `fixed(field, width, pad=..., side=..., overflow=...)`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FixedSpec {
    /// The field name.
    pub field: String,
    /// Width in bytes.
    pub width: u32,
    /// Pad byte (default `00`).
    #[serde(default, skip_serializing_if = "is_zero_u8")]
    pub pad: u8,
    /// Which side gets the padding.
    #[serde(default, skip_serializing_if = "is_default")]
    pub side: PadSide,
    /// Over-long values: reject or truncate.
    #[serde(default, skip_serializing_if = "is_default")]
    pub overflow: Overflow,
}

/// `dec(field, width)`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DecSpec {
    /// The field name.
    pub field: String,
    /// Number of digits.
    pub width: u32,
}

/// `long(field)`, `int(field, sortable)`, ...
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NumSpec {
    /// The field name.
    pub field: String,
    /// Order-preserving variant: the sign bit flipped (and, for floats, all bits of negatives).
    #[serde(default, skip_serializing_if = "is_false")]
    pub sortable: bool,
}

/// Constant bytes. JSON: `{"text": "_"}` for UTF-8 text or `{"hex": "00ff"}` for any bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(into = "LiteralRepr")]
pub struct Literal {
    /// The bytes.
    pub bytes: Vec<u8>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct LiteralRepr {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    hex: Option<String>,
}

impl Literal {
    /// The literal of a JSON form `{"text": …}` or `{"hex": …}` (exactly one of them).
    pub(crate) fn from_parts(
        text: Option<String>,
        hex: Option<String>,
    ) -> std::result::Result<Self, String> {
        match (text, hex) {
            (Some(t), None) => Ok(Literal {
                bytes: t.into_bytes(),
            }),
            (None, Some(h)) => parse_hex(&h).map(|bytes| Literal { bytes }),
            _ => Err("a literal needs exactly one of `text` (UTF-8) or `hex` (bytes)".into()),
        }
    }
}

impl From<Literal> for LiteralRepr {
    fn from(l: Literal) -> Self {
        match String::from_utf8(l.bytes) {
            Ok(t) if !t.chars().any(char::is_control) => LiteralRepr {
                text: Some(t),
                hex: None,
            },
            Ok(t) => LiteralRepr {
                text: None,
                hex: Some(to_hex(t.as_bytes())),
            },
            Err(e) => LiteralRepr {
                text: None,
                hex: Some(to_hex(e.as_bytes())),
            },
        }
    }
}

pub(crate) fn to_hex(b: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(b.len() * 2);
    for &x in b {
        s.push(char::from(HEX[usize::from(x >> 4)]));
        s.push(char::from(HEX[usize::from(x & 15)]));
    }
    s
}

pub(crate) fn parse_hex(h: &str) -> std::result::Result<Vec<u8>, String> {
    let digits: Vec<u32> = h
        .chars()
        .map(|c| c.to_digit(16))
        .collect::<Option<Vec<u32>>>()
        .ok_or_else(|| format!("`{h}` is not hex: expected digits 0-9, a-f"))?;
    if digits.len() % 2 != 0 {
        return Err(format!("`{h}` has an odd number of hex digits"));
    }
    Ok(digits
        .chunks(2)
        .map(|p| match p {
            [a, b] => ((a << 4) | b) as u8,
            _ => 0,
        })
        .collect())
}

/// The hash behind a salt bucket.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SaltHash {
    /// Java `String.hashCode()` of the source text, then `mod`.
    #[default]
    JavaString,
    /// `Arrays.hashCode(byte[])` of the source bytes, then `mod`.
    Arrays,
    /// The MD5 digest of the source bytes read as an unsigned 128-bit number, mod buckets.
    Md5,
    /// Phoenix `SaltingUtil.getSaltingByte`: `|Arrays.hashCode % n|` as one byte.
    Phoenix,
    /// HBaseWD `OneByteSimpleHash`: `(long)Math.abs(Arrays.hashCode) % n` as one byte.
    Hbasewd,
    /// OpenTSDB `RowKey.prefixKeyWithSalt`: `|Arrays.hashCode % n|` as `width` salt bytes.
    Opentsdb,
}

impl SaltHash {
    /// The name the key language writes after `hash=`.
    pub fn name(self) -> &'static str {
        match self {
            SaltHash::JavaString => "javaString",
            SaltHash::Arrays => "arrays",
            SaltHash::Md5 => "md5",
            SaltHash::Phoenix => "phoenix",
            SaltHash::Hbasewd => "hbasewd",
            SaltHash::Opentsdb => "opentsdb",
        }
    }
}

/// How a negative Java hash is brought into `0..n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ModMode {
    /// `Math.abs(h % n)`: always in `0..n`.
    #[default]
    AbsOfMod,
    /// `Math.abs(h) % n`: negative when `h == Integer.MIN_VALUE` (a real-world bug, kept).
    ModOfAbs,
    /// `Math.floorMod(h, n)`.
    FloorMod,
}

/// How a number (salt bucket, dictionary id, time bucket) becomes bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Render {
    /// One byte: the low 8 bits (`(byte) n`).
    Byte,
    /// `Bytes.toBytes((short) n)`.
    Short,
    /// `Bytes.toBytes((int) n)`.
    Int,
    /// `Bytes.toBytes((long) n)`.
    Long,
    /// Decimal digits zero-padded to the width (`String.format("%0Nd")`).
    Dec(u32),
    /// Lowercase hex digits zero-padded to the width.
    Hex(u32),
    /// Uppercase hex digits zero-padded to the width.
    HexUpper(u32),
    /// OpenTSDB `getSaltBytes`: `width` bytes, big-endian (widths 5..8 repeat the low 4).
    Bytes(u32),
    /// One lowercase letter: 0 -> `a`, 1 -> `b`, ... (seed 001's `a-foo0003`); at most 26.
    Letter,
}

/// `salt(source?, buckets, hash=..., mod=..., as=...)`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SaltSpec {
    /// What is hashed: these segments; absent = every segment after this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub of: Option<Vec<Segment>>,
    /// Number of buckets (regions the writes spread over).
    pub buckets: u32,
    /// The hash function.
    #[serde(default, skip_serializing_if = "is_default")]
    pub hash: SaltHash,
    /// How a negative hash is folded into range (Java-string and Arrays hashes).
    #[serde(default, rename = "mod", skip_serializing_if = "is_default")]
    pub modulo: ModMode,
    /// How the bucket number is written (default one byte).
    #[serde(
        default = "render_byte",
        rename = "as",
        skip_serializing_if = "is_render_byte"
    )]
    pub render: Render,
}

/// `random(buckets, seed=..., as=...)`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RandomSpec {
    /// Number of buckets.
    pub buckets: u32,
    /// Seed of the generator, so runs are reproducible.
    #[serde(default, skip_serializing_if = "is_zero_u64")]
    pub seed: u64,
    /// How the bucket number is written (default one byte).
    #[serde(
        default = "render_byte",
        rename = "as",
        skip_serializing_if = "is_render_byte"
    )]
    pub render: Render,
}

/// `hash15(source?)`, `md5(source?)`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HashSpec {
    /// What is hashed: these segments; absent = every segment after this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub of: Option<Vec<Segment>>,
}

/// `md5Hex(source?, len, upper)`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Md5HexSpec {
    /// What is hashed: these segments; absent = every segment after this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub of: Option<Vec<Segment>>,
    /// How many hex characters to keep (1..=32).
    #[serde(default = "len_32", skip_serializing_if = "is_32")]
    pub len: u32,
    /// Uppercase hex (seed 003) instead of `getMD5AsHex`'s lowercase.
    #[serde(default, skip_serializing_if = "is_false")]
    pub upper: bool,
}

/// The unit a timestamp field is stored in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum TimeUnit {
    /// Milliseconds since the epoch (Java `System.currentTimeMillis()`).
    #[default]
    Ms,
    /// Seconds since the epoch.
    S,
}

/// `revts(field, div=1000, as=...)`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RevtsSpec {
    /// The timestamp (or sequence) field.
    pub field: String,
    /// Reverse `ts / div` instead of `ts` (seed 000's `Long.MAX_VALUE - timestamp/1000`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub div: Option<i64>,
    /// How the reversed number is written (default 8-byte long).
    #[serde(
        default = "render_long",
        rename = "as",
        skip_serializing_if = "is_render_long"
    )]
    pub render: Render,
}

/// `time(field, "pattern", unit=...)`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TimeSpec {
    /// The timestamp field.
    pub field: String,
    /// A `SimpleDateFormat`-style pattern, evaluated in UTC.
    pub pattern: String,
    /// Unit of the field's value (default milliseconds).
    #[serde(default, skip_serializing_if = "is_default")]
    pub unit: TimeUnit,
}

/// `bucket(field, mod=N)` or `bucket(field, div=P)`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BucketSpec {
    /// The numeric field.
    pub field: String,
    /// `ts % N` (Java remainder).
    #[serde(default, rename = "mod", skip_serializing_if = "Option::is_none")]
    pub modulo: Option<i64>,
    /// `floor(ts / P)`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub div: Option<i64>,
    /// How the bucket is written (default 8-byte long).
    #[serde(
        default = "render_long",
        rename = "as",
        skip_serializing_if = "is_render_long"
    )]
    pub render: Render,
}

/// `dict(field, ["a"=1, ...], as=...)` and `tag(...)`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DictSpec {
    /// The field looked up.
    pub field: String,
    /// Value text -> id, in declaration order.
    #[serde(serialize_with = "ordered_entries::serialize")]
    pub entries: Vec<(String, i64)>,
    /// How the id is written (default: long for `dict`, byte for `tag`).
    #[serde(default, rename = "as", skip_serializing_if = "Option::is_none")]
    pub render: Option<Render>,
}

/// `when(field, values, segments)`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WhenSpec {
    /// The field tested.
    pub field: String,
    /// The values (as text) for which the segments are present.
    pub is: Vec<String>,
    /// The segments written when the field matches.
    pub then: Vec<Segment>,
}

/// `uid(field, width, [table])`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UidSpec {
    /// The field whose text is the name (metric, tag value).
    pub field: String,
    /// Width in bytes, 1..=8 (OpenTSDB's default 3).
    #[serde(default = "uid_width", skip_serializing_if = "is_uid_width")]
    pub width: u32,
    /// Name -> UID; absent: UIDs 1, 2, 3, ... in order of first appearance, per field.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "ordered_entries::serialize_opt"
    )]
    pub entries: Option<Vec<(String, i64)>>,
}

/// `tags(values, tagk=[...], width=W)`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TagsSpec {
    /// The tag values, one segment per tag key (usually `uid(...)`), in `tagk`'s order.
    pub of: Vec<Segment>,
    /// Tag key name -> tag-key UID, one per value segment.
    #[serde(serialize_with = "ordered_entries::serialize")]
    pub tagk: Vec<(String, i64)>,
    /// Tag-key UID width in bytes, 1..=8 (default 3).
    #[serde(default = "uid_width", skip_serializing_if = "is_uid_width")]
    pub width: u32,
}

pub(crate) fn uid_width() -> u32 {
    3
}
fn is_uid_width(v: &u32) -> bool {
    *v == 3
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}
fn is_false(b: &bool) -> bool {
    !*b
}
fn is_zero_u8(v: &u8) -> bool {
    *v == 0
}
fn is_zero_u64(v: &u64) -> bool {
    *v == 0
}
pub(crate) fn len_32() -> u32 {
    32
}
fn is_32(v: &u32) -> bool {
    *v == 32
}
pub(crate) fn render_byte() -> Render {
    Render::Byte
}
pub(crate) fn render_long() -> Render {
    Render::Long
}
fn is_render_byte(r: &Render) -> bool {
    *r == Render::Byte
}
fn is_render_long(r: &Render) -> bool {
    *r == Render::Long
}

/// `Vec<(String, i64)>` as a JSON object that keeps its order.
mod ordered_entries {
    use super::*;

    pub fn serialize<S: Serializer>(
        v: &[(String, i64)],
        s: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(v.len()))?;
        for (k, id) in v {
            m.serialize_entry(k, id)?;
        }
        m.end()
    }

    pub fn serialize_opt<S: Serializer>(
        v: &Option<Vec<(String, i64)>>,
        s: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serialize(v.as_deref().unwrap_or(&[]), s)
    }
}
