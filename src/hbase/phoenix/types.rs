//! Phoenix's SQL types (`org.apache.phoenix.schema.types.P*`) as row-key encoders: each type's
//! `toBytes(value, sortOrder)`, `pad` and `toObject(bytes, sortOrder)`.
//!
//! The encodings, in short: signed integers and DATE/TIME are big-endian with the sign bit
//! flipped; UNSIGNED_INT/UNSIGNED_LONG are plain big-endian and refuse negatives; FLOAT/DOUBLE
//! flip the sign bit of positives and every bit of negatives, then add one; TIMESTAMP is the
//! DATE long of its millisecond time plus a 4-byte count of the nanoseconds below the
//! millisecond; DECIMAL is base-100 ([`super::decimal`]); VARCHAR is UTF-8; CHAR is UTF-8 that
//! must be one byte per character; BOOLEAN is one byte. DESC inverts the bytes, except that
//! `PBoolean.toBytes(b, DESC)` maps true→`00`, false→`01` (not `fe`/`ff`).

use std::fmt;

use super::decimal::{self, Decimal};
use super::{illegal_data, SortOrder};
use crate::error::{Error, Result};
use crate::hbase::bytes::{to_bytes_string, to_string};

/// A Phoenix SQL type usable in a primary key (arrays, JSON, BSON and VARBINARY_ENCODED are
/// not covered).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum PhoenixType {
    /// `INTEGER` (`PInteger`): 4 bytes, sign bit flipped.
    Integer,
    /// `UNSIGNED_INT` (`PUnsignedInt`): 4 bytes big-endian, never negative.
    UnsignedInt,
    /// `BIGINT` (`PLong`): 8 bytes, sign bit flipped.
    Bigint,
    /// `UNSIGNED_LONG` (`PUnsignedLong`): 8 bytes big-endian, never negative.
    UnsignedLong,
    /// `SMALLINT` (`PSmallint`): 2 bytes, sign bit flipped.
    Smallint,
    /// `TINYINT` (`PTinyint`): 1 byte, sign bit flipped.
    Tinyint,
    /// `FLOAT` (`PFloat`): 4 bytes, order-preserving IEEE-754.
    Float,
    /// `DOUBLE` (`PDouble`): 8 bytes, order-preserving IEEE-754.
    Double,
    /// `DECIMAL(p, s)` (`PDecimal`): variable width, base 100.
    Decimal,
    /// `VARCHAR(n)` (`PVarchar`): variable width, UTF-8.
    Varchar,
    /// `CHAR(n)` (`PChar`): fixed width `n`, single-byte characters, padded with spaces.
    Char,
    /// `BOOLEAN` (`PBoolean`): 1 byte.
    Boolean,
    /// `DATE` (`PDate`): 8 bytes of epoch milliseconds, sign bit flipped.
    Date,
    /// `TIME` (`PTime`): as DATE.
    Time,
    /// `TIMESTAMP` (`PTimestamp`): 12 bytes, the DATE long plus sub-millisecond nanoseconds.
    Timestamp,
    /// `VARBINARY` (`PVarbinary`): variable width, raw bytes.
    Varbinary,
    /// `BINARY(n)` (`PBinary`): fixed width `n`, padded with zero bytes.
    Binary,
}

/// Every covered type, in the order above.
pub const ALL_TYPES: [PhoenixType; 17] = [
    PhoenixType::Integer,
    PhoenixType::UnsignedInt,
    PhoenixType::Bigint,
    PhoenixType::UnsignedLong,
    PhoenixType::Smallint,
    PhoenixType::Tinyint,
    PhoenixType::Float,
    PhoenixType::Double,
    PhoenixType::Decimal,
    PhoenixType::Varchar,
    PhoenixType::Char,
    PhoenixType::Boolean,
    PhoenixType::Date,
    PhoenixType::Time,
    PhoenixType::Timestamp,
    PhoenixType::Varbinary,
    PhoenixType::Binary,
];

/// A Java value handed to Phoenix, by its Java class (`Integer`, `Long`, `BigDecimal`,
/// `String`, `java.sql.Date`…). Each [`PhoenixType`] takes its natural class
/// ([`PhoenixType::accepts`]).
#[derive(Debug, Clone, PartialEq)]
pub enum PhoenixValue {
    /// `java.lang.Integer`: INTEGER, UNSIGNED_INT.
    Integer(i32),
    /// `java.lang.Long`: BIGINT, UNSIGNED_LONG.
    Long(i64),
    /// `java.lang.Short`: SMALLINT.
    Short(i16),
    /// `java.lang.Byte`: TINYINT.
    Byte(i8),
    /// `java.lang.Float`: FLOAT.
    Float(f32),
    /// `java.lang.Double`: DOUBLE.
    Double(f64),
    /// `java.math.BigDecimal`: DECIMAL.
    Decimal(Decimal),
    /// `java.lang.String` as UTF-16 code units (lone surrogates allowed): VARCHAR, CHAR.
    String(Vec<u16>),
    /// `java.lang.Boolean`: BOOLEAN.
    Boolean(bool),
    /// `java.sql.Date(millis)`: DATE (also TIME).
    Date(i64),
    /// `java.sql.Time(millis)`: TIME (also DATE).
    Time(i64),
    /// `java.sql.Timestamp`: TIMESTAMP (also DATE, TIME, which keep its milliseconds).
    Timestamp(Timestamp),
    /// `byte[]`: VARBINARY, BINARY.
    Bytes(Vec<u8>),
}

impl PhoenixValue {
    /// A `String` value from Rust text.
    pub fn string(s: &str) -> PhoenixValue {
        PhoenixValue::String(s.encode_utf16().collect())
    }

    /// The Java class name, for messages.
    pub fn class_name(&self) -> &'static str {
        match self {
            PhoenixValue::Integer(_) => "Integer",
            PhoenixValue::Long(_) => "Long",
            PhoenixValue::Short(_) => "Short",
            PhoenixValue::Byte(_) => "Byte",
            PhoenixValue::Float(_) => "Float",
            PhoenixValue::Double(_) => "Double",
            PhoenixValue::Decimal(_) => "BigDecimal",
            PhoenixValue::String(_) => "String",
            PhoenixValue::Boolean(_) => "Boolean",
            PhoenixValue::Date(_) => "Date",
            PhoenixValue::Time(_) => "Time",
            PhoenixValue::Timestamp(_) => "Timestamp",
            PhoenixValue::Bytes(_) => "byte[]",
        }
    }
}

impl fmt::Display for PhoenixValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PhoenixValue::Integer(v) => write!(f, "{v}"),
            PhoenixValue::Long(v) => write!(f, "{v}"),
            PhoenixValue::Short(v) => write!(f, "{v}"),
            PhoenixValue::Byte(v) => write!(f, "{v}"),
            PhoenixValue::Float(v) => f.write_str(&crate::hbase::bytes::java_float_to_string(*v)),
            PhoenixValue::Double(v) => f.write_str(&crate::hbase::bytes::java_double_to_string(*v)),
            PhoenixValue::Decimal(v) => write!(f, "{v}"),
            PhoenixValue::String(s) => write!(f, "{:?}", String::from_utf16_lossy(s)),
            PhoenixValue::Boolean(v) => write!(f, "{v}"),
            PhoenixValue::Date(ms) | PhoenixValue::Time(ms) => write!(f, "{ms} ms"),
            PhoenixValue::Timestamp(t) => write!(f, "{} ms + {} ns", t.get_time(), t.nanos()),
            PhoenixValue::Bytes(b) => write!(f, "{} bytes", b.len()),
        }
    }
}

/// A `java.sql.Timestamp`: whole seconds (as Java's `Date` keeps them, in milliseconds) and
/// nanoseconds `0..=999_999_999`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Timestamp {
    /// `Date.fastTime`: the time of the whole second, in milliseconds.
    seconds_millis: i64,
    /// `getNanos()`.
    nanos: i32,
}

impl Timestamp {
    /// `new Timestamp(millis)`: the sub-second milliseconds go to the nanoseconds (a negative
    /// time borrows a second, so nanos stay positive).
    pub fn from_millis(time: i64) -> Timestamp {
        let mut nanos = ((time % 1000) * 1_000_000) as i32;
        let mut seconds_millis = (time / 1000).wrapping_mul(1000);
        if nanos < 0 {
            nanos += 1_000_000_000;
            seconds_millis = (time / 1000).wrapping_sub(1).wrapping_mul(1000);
        }
        Timestamp {
            seconds_millis,
            nanos,
        }
    }

    /// `new Timestamp(seconds * 1000)` then `setNanos(nanos)` (Java `long` arithmetic).
    pub fn from_epoch_second(seconds: i64, nanos: i32) -> Result<Timestamp> {
        Timestamp::from_millis(seconds.wrapping_mul(1000)).with_nanos(nanos)
    }

    /// `setNanos(n)`: `IllegalArgument` outside `0..=999_999_999`.
    pub fn with_nanos(mut self, nanos: i32) -> Result<Timestamp> {
        if !(0..=999_999_999).contains(&nanos) {
            return Err(Error::arg(
                "nanos",
                format!("timestamp nanoseconds must be 0..=999999999, got {nanos}"),
            ));
        }
        self.nanos = nanos;
        Ok(self)
    }

    /// `getTime()`: epoch milliseconds, including the milliseconds held in the nanos.
    pub fn get_time(&self) -> i64 {
        self.seconds_millis
            .wrapping_add(i64::from(self.nanos / 1_000_000))
    }

    /// `getNanos()`.
    pub fn nanos(&self) -> i32 {
        self.nanos
    }
}

/// `PTimestamp.MAX_NANOS_VALUE_EXCLUSIVE`: the nanos field stores only what is below a
/// millisecond (the milliseconds are in the long).
const MAX_NANOS_VALUE_EXCLUSIVE: i32 = 1_000_000;

impl PhoenixType {
    /// The SQL name (`INTEGER`, `UNSIGNED_LONG`, `VARCHAR`…), as `PDataType.toString()`.
    pub fn sql_name(self) -> &'static str {
        match self {
            PhoenixType::Integer => "INTEGER",
            PhoenixType::UnsignedInt => "UNSIGNED_INT",
            PhoenixType::Bigint => "BIGINT",
            PhoenixType::UnsignedLong => "UNSIGNED_LONG",
            PhoenixType::Smallint => "SMALLINT",
            PhoenixType::Tinyint => "TINYINT",
            PhoenixType::Float => "FLOAT",
            PhoenixType::Double => "DOUBLE",
            PhoenixType::Decimal => "DECIMAL",
            PhoenixType::Varchar => "VARCHAR",
            PhoenixType::Char => "CHAR",
            PhoenixType::Boolean => "BOOLEAN",
            PhoenixType::Date => "DATE",
            PhoenixType::Time => "TIME",
            PhoenixType::Timestamp => "TIMESTAMP",
            PhoenixType::Varbinary => "VARBINARY",
            PhoenixType::Binary => "BINARY",
        }
    }

    /// The type for a SQL name (upper case, as Phoenix prints them).
    pub fn from_sql_name(name: &str) -> Option<PhoenixType> {
        ALL_TYPES.into_iter().find(|t| t.sql_name() == name)
    }

    /// The Java class that implements it (`PInteger`, `PLong`…).
    pub fn class_name(self) -> &'static str {
        match self {
            PhoenixType::Integer => "PInteger",
            PhoenixType::UnsignedInt => "PUnsignedInt",
            PhoenixType::Bigint => "PLong",
            PhoenixType::UnsignedLong => "PUnsignedLong",
            PhoenixType::Smallint => "PSmallint",
            PhoenixType::Tinyint => "PTinyint",
            PhoenixType::Float => "PFloat",
            PhoenixType::Double => "PDouble",
            PhoenixType::Decimal => "PDecimal",
            PhoenixType::Varchar => "PVarchar",
            PhoenixType::Char => "PChar",
            PhoenixType::Boolean => "PBoolean",
            PhoenixType::Date => "PDate",
            PhoenixType::Time => "PTime",
            PhoenixType::Timestamp => "PTimestamp",
            PhoenixType::Varbinary => "PVarbinary",
            PhoenixType::Binary => "PBinary",
        }
    }

    /// The type for a Java class name (`PInteger`…).
    pub fn from_class_name(name: &str) -> Option<PhoenixType> {
        ALL_TYPES.into_iter().find(|t| t.class_name() == name)
    }

    /// `isFixedWidth()`: fixed-width columns are written without a separator. CHAR and BINARY
    /// are fixed at their declared length.
    pub fn is_fixed_width(self) -> bool {
        !matches!(
            self,
            PhoenixType::Decimal | PhoenixType::Varchar | PhoenixType::Varbinary
        )
    }

    /// `getByteSize()`: the width of a fixed-width type; `None` for the variable-width types
    /// and for CHAR/BINARY, whose width is the column's declared length.
    pub fn byte_size(self) -> Option<usize> {
        Some(match self {
            PhoenixType::Integer | PhoenixType::UnsignedInt | PhoenixType::Float => 4,
            PhoenixType::Bigint
            | PhoenixType::UnsignedLong
            | PhoenixType::Double
            | PhoenixType::Date
            | PhoenixType::Time => 8,
            PhoenixType::Smallint => 2,
            PhoenixType::Tinyint | PhoenixType::Boolean => 1,
            PhoenixType::Timestamp => 12,
            PhoenixType::Decimal
            | PhoenixType::Varchar
            | PhoenixType::Char
            | PhoenixType::Varbinary
            | PhoenixType::Binary => return None,
        })
    }

    /// Whether a value of this Java class can be handed to this type.
    pub fn accepts(self, v: &PhoenixValue) -> bool {
        use PhoenixType as T;
        use PhoenixValue as V;
        matches!(
            (self, v),
            (T::Integer | T::UnsignedInt, V::Integer(_))
                | (T::Bigint | T::UnsignedLong, V::Long(_))
                | (T::Smallint, V::Short(_))
                | (T::Tinyint, V::Byte(_))
                | (T::Float, V::Float(_))
                | (T::Double, V::Double(_))
                | (T::Decimal, V::Decimal(_))
                | (T::Varchar | T::Char, V::String(_))
                | (T::Boolean, V::Boolean(_))
                | (T::Date | T::Time, V::Date(_) | V::Time(_) | V::Timestamp(_))
                | (T::Timestamp, V::Timestamp(_))
                | (T::Varbinary | T::Binary, V::Bytes(_))
        )
    }

    /// `P<Type>.INSTANCE.toBytes(value, sortOrder)`: the column bytes of one value (`None` is
    /// Java `null`). NULL is the empty array for DECIMAL, VARCHAR, CHAR and VARBINARY, epoch 0
    /// for DATE/TIME/TIMESTAMP, and `IllegalData` for the others; a CHAR with a multi-byte
    /// character and a negative UNSIGNED value are `IllegalData` too.
    pub fn to_bytes(self, value: Option<&PhoenixValue>, so: SortOrder) -> Result<Vec<u8>> {
        if let Some(v) = value {
            if !self.accepts(v) {
                return Err(Error::arg(
                    "value",
                    format!(
                        "{} takes a {} value, got a {} ({v})",
                        self.sql_name(),
                        natural_class(self),
                        v.class_name()
                    ),
                ));
            }
        }
        if self == PhoenixType::Boolean {
            // PBoolean overrides toBytes(Object, SortOrder): true^ASC → FALSE_BYTES.
            return match value {
                Some(PhoenixValue::Boolean(b)) => Ok(vec![u8::from(*b == (so == SortOrder::Asc))]),
                _ => Err(may_not_be_null(self)),
            };
        }
        if self == PhoenixType::Decimal {
            let d = match value {
                Some(PhoenixValue::Decimal(d)) => Some(d),
                _ => None,
            };
            return decimal::to_bytes(d, so);
        }
        Ok(so.apply(self.to_bytes_asc(value)?))
    }

    /// `toBytes(Object)`: the ascending bytes (every type but BOOLEAN and DECIMAL).
    fn to_bytes_asc(self, value: Option<&PhoenixValue>) -> Result<Vec<u8>> {
        use PhoenixValue as V;
        let Some(v) = value else {
            return match self {
                PhoenixType::Varchar | PhoenixType::Char | PhoenixType::Varbinary => Ok(Vec::new()),
                PhoenixType::Date | PhoenixType::Time => Ok(encode_long(0).to_vec()),
                PhoenixType::Timestamp => Ok(encode_timestamp(0, 0)),
                _ => Err(may_not_be_null(self)),
            };
        };
        Ok(match v {
            V::Integer(i) if self == PhoenixType::UnsignedInt => {
                if *i < 0 {
                    return Err(negative_unsigned(self, i64::from(*i)));
                }
                i.to_be_bytes().to_vec()
            }
            V::Integer(i) => (*i ^ i32::MIN).to_be_bytes().to_vec(),
            V::Long(l) if self == PhoenixType::UnsignedLong => {
                if *l < 0 {
                    return Err(negative_unsigned(self, *l));
                }
                l.to_be_bytes().to_vec()
            }
            V::Long(l) => encode_long(*l).to_vec(),
            V::Short(s) => (*s ^ i16::MIN).to_be_bytes().to_vec(),
            V::Byte(b) => vec![(*b as u8) ^ 0x80],
            V::Float(f) => encode_float(*f).to_vec(),
            V::Double(d) => encode_double(*d).to_vec(),
            V::String(s) => {
                let b = to_bytes_string(s);
                if self == PhoenixType::Char && b.len() != s.len() {
                    return Err(illegal_data(format!(
                        "CHAR holds single-byte characters only: {v} needs {} bytes for {} characters",
                        b.len(),
                        s.len()
                    )));
                }
                b
            }
            V::Date(ms) | V::Time(ms) => encode_long(*ms).to_vec(),
            V::Timestamp(t) if self == PhoenixType::Timestamp => {
                encode_timestamp(t.get_time(), t.nanos() % MAX_NANOS_VALUE_EXCLUSIVE)
            }
            V::Timestamp(t) => encode_long(t.get_time()).to_vec(),
            V::Bytes(b) => b.clone(),
            V::Decimal(_) | V::Boolean(_) => {
                return Err(Error::arg("value", "not reached: handled by the caller"))
            }
        })
    }

    /// `P<Type>.pad(bytes, maxLength, sortOrder)`: CHAR pads with spaces (`20`, or `df` for
    /// DESC) and BINARY with `00` (`ff` for DESC) up to `max_length`; longer values and other
    /// types are returned unchanged.
    pub fn pad(self, mut b: Vec<u8>, max_length: usize, so: SortOrder) -> Vec<u8> {
        let fill = match self {
            PhoenixType::Char => so.normalize(b' '),
            PhoenixType::Binary => so.normalize(0),
            _ => return b,
        };
        if b.len() < max_length {
            b.resize(max_length, fill);
        }
        b
    }

    /// `P<Type>.toObject(bytes, sortOrder)`: the value of stored column bytes (`None` for
    /// empty bytes, Phoenix's NULL). CHAR drops its padding spaces. Errors are Phoenix's:
    /// `IllegalData` for too few bytes, a negative UNSIGNED value, a multi-byte CHAR or a
    /// BOOLEAN wider than a byte.
    pub fn to_object(self, b: &[u8], so: SortOrder) -> Result<Option<PhoenixValue>> {
        use PhoenixValue as V;
        if b.is_empty() {
            return Ok(None);
        }
        if self == PhoenixType::Decimal {
            return Ok(decimal::from_bytes(b, so)?.map(V::Decimal));
        }
        if self == PhoenixType::Char {
            let fill = so.normalize(b' ');
            let len = b.iter().rposition(|&x| x != fill).map_or(0, |i| i + 1);
            let s = to_string(&so.apply(b.get(..len).unwrap_or_default().to_vec()));
            let units: Vec<u16> = s.encode_utf16().collect();
            if units.len() != len {
                return Err(illegal_data(
                    "CHAR holds single-byte characters only: the stored bytes are not",
                ));
            }
            return Ok(Some(V::String(units)));
        }
        let a = so.apply(b.to_vec());
        Ok(Some(match self {
            PhoenixType::Integer => V::Integer(i32::from_be_bytes(fixed(&a, self)?) ^ i32::MIN),
            PhoenixType::UnsignedInt => {
                let v = i32::from_be_bytes(fixed(&a, self)?);
                if v < 0 {
                    return Err(negative_unsigned(self, i64::from(v)));
                }
                V::Integer(v)
            }
            PhoenixType::Bigint => V::Long(decode_long(&a, self)?),
            PhoenixType::UnsignedLong => {
                let v = i64::from_be_bytes(fixed(&a, self)?);
                if v < 0 {
                    return Err(negative_unsigned(self, v));
                }
                V::Long(v)
            }
            PhoenixType::Smallint => V::Short(i16::from_be_bytes(fixed(&a, self)?) ^ i16::MIN),
            PhoenixType::Tinyint => V::Byte((fixed::<1>(&a, self)?[0] ^ 0x80) as i8),
            PhoenixType::Float => {
                let i = u32::from_be_bytes(fixed(&a, self)?).wrapping_sub(1) as i32;
                V::Float(f32::from_bits((i ^ ((!i >> 31) | i32::MIN)) as u32))
            }
            PhoenixType::Double => {
                let l = u64::from_be_bytes(fixed(&a, self)?).wrapping_sub(1) as i64;
                V::Double(f64::from_bits((l ^ ((!l >> 63) | i64::MIN)) as u64))
            }
            PhoenixType::Varchar => V::String(to_string(&a).encode_utf16().collect()),
            PhoenixType::Boolean => {
                if a.len() > 1 {
                    return Err(illegal_data("BOOLEAN may only be a single byte"));
                }
                // Java reads the stored byte: `bytes[0] == FALSE_BYTE ^ DESC` is false.
                let stored = b.first().copied().unwrap_or(0);
                V::Boolean((stored == 0) == (so == SortOrder::Desc))
            }
            PhoenixType::Date => V::Date(decode_long(&a, self)?),
            PhoenixType::Time => V::Time(decode_long(&a, self)?),
            PhoenixType::Timestamp => {
                let t = Timestamp::from_millis(decode_long(&a, self)?);
                let nanos = i32::from_be_bytes(fixed(a.get(8..).unwrap_or_default(), self)?);
                if nanos < 0 {
                    return Err(illegal_data("TIMESTAMP nanoseconds are negative"));
                }
                let n = if nanos < MAX_NANOS_VALUE_EXCLUSIVE {
                    t.nanos() + nanos
                } else {
                    nanos
                };
                V::Timestamp(t.with_nanos(n)?)
            }
            PhoenixType::Varbinary | PhoenixType::Binary => V::Bytes(a),
            PhoenixType::Decimal | PhoenixType::Char => return Ok(None),
        }))
    }
}

/// The Java class a type takes, for messages.
fn natural_class(t: PhoenixType) -> &'static str {
    match t {
        PhoenixType::Integer | PhoenixType::UnsignedInt => "Integer",
        PhoenixType::Bigint | PhoenixType::UnsignedLong => "Long",
        PhoenixType::Smallint => "Short",
        PhoenixType::Tinyint => "Byte",
        PhoenixType::Float => "Float",
        PhoenixType::Double => "Double",
        PhoenixType::Decimal => "BigDecimal",
        PhoenixType::Varchar | PhoenixType::Char => "String",
        PhoenixType::Boolean => "Boolean",
        PhoenixType::Date | PhoenixType::Time => "Date",
        PhoenixType::Timestamp => "Timestamp",
        PhoenixType::Varbinary | PhoenixType::Binary => "byte[]",
    }
}

fn may_not_be_null(t: PhoenixType) -> Error {
    illegal_data(format!("{} may not be null", t.sql_name()))
}

fn negative_unsigned(t: PhoenixType, v: i64) -> Error {
    illegal_data(format!("{} may not be negative, got {v}", t.sql_name()))
}

/// The first `N` bytes (`checkForSufficientLength`: fewer is `IllegalData`).
fn fixed<const N: usize>(b: &[u8], t: PhoenixType) -> Result<[u8; N]> {
    b.get(..N)
        .and_then(|s| <[u8; N]>::try_from(s).ok())
        .ok_or_else(|| {
            illegal_data(format!(
                "{} needs at least {N} bytes, got {}",
                t.sql_name(),
                b.len()
            ))
        })
}

/// `PLong.LongCodec.encodeLong`: big-endian with the sign bit flipped.
fn encode_long(v: i64) -> [u8; 8] {
    (v ^ i64::MIN).to_be_bytes()
}

fn decode_long(b: &[u8], t: PhoenixType) -> Result<i64> {
    Ok(i64::from_be_bytes(fixed(b, t)?) ^ i64::MIN)
}

/// `PFloat.FloatCodec.encodeFloat`: `floatToIntBits` (one NaN), then positives get the sign
/// bit set and negatives every bit flipped, plus one.
fn encode_float(f: f32) -> [u8; 4] {
    let i = if f.is_nan() {
        0x7fc0_0000
    } else {
        f.to_bits() as i32
    };
    (i ^ ((i >> 31) | i32::MIN)).wrapping_add(1).to_be_bytes()
}

/// `PDouble.DoubleCodec.encodeDouble`: as [`encode_float`] on 64 bits.
fn encode_double(d: f64) -> [u8; 8] {
    let l = if d.is_nan() {
        0x7ff8_0000_0000_0000
    } else {
        d.to_bits() as i64
    };
    (l ^ ((l >> 63) | i64::MIN)).wrapping_add(1).to_be_bytes()
}

/// `PTimestamp.toBytes`: the DATE long of the milliseconds, then the nanos below a millisecond.
fn encode_timestamp(millis: i64, nanos: i32) -> Vec<u8> {
    let mut out = encode_long(millis).to_vec();
    out.extend_from_slice(&nanos.to_be_bytes());
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
