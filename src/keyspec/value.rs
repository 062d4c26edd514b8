//! Record values: the typed [`FieldValue`] the encoder reads, and its conversion from and to
//! JSON (a `long` may arrive as a JSON number or a decimal string, so 64-bit values survive
//! JavaScript).

use crate::hbase::bigint::BigInt;
use serde_json::Value;

use crate::error::{Error, ErrorKind, Result};
use crate::hbase::bytes::{self, BigDecimal};
use crate::keyspec::FieldType;

/// One field's value, already parsed for its declared type. Records given as a slice of
/// these (indexed like the field declarations) skip JSON entirely in the encoder's hot loop.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldValue {
    /// Absent: encoding a segment that needs it is an error naming the field.
    Null,
    /// Text (any well-formed string).
    Str(String),
    /// Text as Java UTF-16 code units, for strings with unpaired surrogates.
    Utf16(Vec<u16>),
    /// `long`, `int`, `short` and timestamps.
    Long(i64),
    /// `double` and `float`.
    Double(f64),
    /// `boolean`.
    Bool(bool),
    /// `BigDecimal`.
    Decimal(BigDecimal),
}

impl FieldValue {
    /// What kind of value this is, for messages ("a string", "an integer", ...).
    pub fn what(&self) -> &'static str {
        match self {
            FieldValue::Null => "no value",
            FieldValue::Str(_) | FieldValue::Utf16(_) => "a string",
            FieldValue::Long(_) => "an integer",
            FieldValue::Double(_) => "a floating-point number",
            FieldValue::Bool(_) => "a boolean",
            FieldValue::Decimal(_) => "a decimal",
        }
    }
}

/// Largest integer a JavaScript number holds exactly; larger longs are written as strings.
const JS_SAFE: i64 = (1 << 53) - 1;

fn bad(field: &str, expected: &str, got: &Value) -> Error {
    let shown = match got {
        Value::String(s) if s.chars().count() > 40 => {
            format!("\"{}…\"", s.chars().take(40).collect::<String>())
        }
        other => crate::support::json::json_text(other),
    };
    Error::new(
        ErrorKind::Invalid,
        format!("field `{field}`: expected {expected}, got {shown}"),
    )
    .at_path(field.to_string())
}

fn int_range(ty: FieldType) -> (i64, i64, &'static str) {
    match ty {
        FieldType::Int => (i64::from(i32::MIN), i64::from(i32::MAX), "an int (32-bit)"),
        FieldType::Short => (i64::from(i16::MIN), i64::from(i16::MAX), "a short (16-bit)"),
        FieldType::Timestamp => (i64::MIN, i64::MAX, "a timestamp (milliseconds as a number or decimal string, or an ISO date such as 2021-09-07T10:00:00Z)"),
        _ => (i64::MIN, i64::MAX, "a long (a JSON number or a decimal string)"),
    }
}

/// Parse Java `new BigDecimal(String)` syntax: `-12.50`, `1E+3`, `7.9e-13`. Text past
/// [`MAX_DECIMAL_DIGITS`](crate::limits::MAX_DECIMAL_DIGITS) is `None` (callers that can say
/// why check [`check_decimal_digits`](crate::limits::check_decimal_digits) first): the parse is
/// quadratic in the digits.
pub(crate) fn parse_big_decimal(s: &str) -> Option<BigDecimal> {
    if s.len() > crate::limits::MAX_DECIMAL_DIGITS
        && crate::limits::check_decimal_digits("", s).is_err()
    {
        return None;
    }
    let (mant, exp) = match s.find(['e', 'E']) {
        Some(i) => (s.get(..i)?, s.get(i + 1..)?),
        None => (s, "0"),
    };
    let exp: i64 = exp.strip_prefix('+').unwrap_or(exp).parse().ok()?;
    let (neg, mant) = match mant.as_bytes().first() {
        Some(b'-') => (true, mant.get(1..)?),
        Some(b'+') => (false, mant.get(1..)?),
        _ => (false, mant),
    };
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    if !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits = format!("{int}{frac}");
    let mut unscaled = BigInt::parse_decimal(&digits)?;
    if neg {
        unscaled = unscaled.neg();
    }
    let scale = i64::try_from(frac.len()).ok()?.checked_sub(exp)?;
    Some(BigDecimal::new(unscaled, i32::try_from(scale).ok()?))
}

impl FieldValue {
    /// Convert a JSON value for the field `name` of type `field_type`. `null` becomes
    /// [`FieldValue::Null`].
    pub fn from_json(name: &str, field_type: FieldType, v: &Value) -> Result<FieldValue> {
        if v.is_null() {
            return Ok(FieldValue::Null);
        }
        Ok(match field_type {
            FieldType::String => match v {
                Value::String(s) => FieldValue::Str(s.clone()),
                _ => return Err(bad(name, "a string", v)),
            },
            ty @ (FieldType::Long | FieldType::Int | FieldType::Short | FieldType::Timestamp) => {
                let (lo, hi, what) = int_range(ty);
                let n = match v {
                    Value::Number(n) => n.as_i64().or_else(|| {
                        n.as_f64()
                            .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
                            .map(|f| f as i64)
                    }),
                    Value::String(s) => s.trim().parse::<i64>().ok().or_else(|| {
                        if ty == FieldType::Timestamp {
                            super::time::parse_iso(s.trim())
                        } else {
                            None
                        }
                    }),
                    _ => None,
                };
                match n {
                    Some(n) if n >= lo && n <= hi => FieldValue::Long(n),
                    _ => return Err(bad(name, what, v)),
                }
            }
            FieldType::Double | FieldType::Float => {
                let d = match v {
                    Value::Number(n) => n.as_f64(),
                    Value::String(s) => match s.trim() {
                        "NaN" => Some(f64::NAN),
                        "Infinity" => Some(f64::INFINITY),
                        "-Infinity" => Some(f64::NEG_INFINITY),
                        t => t.parse::<f64>().ok(),
                    },
                    _ => None,
                };
                match d {
                    Some(d) => FieldValue::Double(d),
                    None => return Err(bad(name, "a number (or \"NaN\", \"Infinity\")", v)),
                }
            }
            FieldType::Boolean => match v {
                Value::Bool(b) => FieldValue::Bool(*b),
                _ => return Err(bad(name, "true or false", v)),
            },
            FieldType::BigDecimal => {
                let text = match v {
                    Value::Number(n) => n.to_string(),
                    Value::String(s) => s.trim().to_string(),
                    _ => return Err(bad(name, "a decimal number (e.g. \"123.45\")", v)),
                };
                crate::limits::check_decimal_digits(name, &text)?;
                match parse_big_decimal(&text) {
                    Some(d) => FieldValue::Decimal(d),
                    None => return Err(bad(name, "a decimal number (e.g. \"123.45\")", v)),
                }
            }
        })
    }

    /// The value as JSON: longs beyond 2^53 as decimal strings, BigDecimal as its Java text.
    pub fn to_json(&self, ty: FieldType) -> Value {
        match self {
            FieldValue::Null => Value::Null,
            FieldValue::Str(s) => Value::String(s.clone()),
            FieldValue::Utf16(u) => Value::String(String::from_utf16_lossy(u)),
            FieldValue::Long(n) if (-JS_SAFE..=JS_SAFE).contains(n) => Value::from(*n),
            FieldValue::Long(n) => Value::String(n.to_string()),
            FieldValue::Double(d) => {
                let d = if ty == FieldType::Float {
                    f64::from(*d as f32)
                } else {
                    *d
                };
                serde_json::Number::from_f64(d)
                    .map(Value::Number)
                    .unwrap_or_else(|| Value::String(bytes::java_double_to_string(d)))
            }
            FieldValue::Bool(b) => Value::Bool(*b),
            FieldValue::Decimal(d) => Value::String(d.to_java_string()),
        }
    }

    /// Java's `String.valueOf(value)` as UTF-8, appended to `out`.
    pub(crate) fn push_text(&self, ty: FieldType, field: &str, out: &mut Vec<u8>) -> Result<()> {
        match self {
            FieldValue::Null => return Err(missing(field)),
            FieldValue::Str(s) => out.extend_from_slice(s.as_bytes()),
            FieldValue::Utf16(u) => out.extend_from_slice(&bytes::to_bytes_string(u)),
            FieldValue::Long(n) => {
                if *n < 0 {
                    out.push(b'-');
                }
                let mut buf = [0u8; 20];
                out.extend_from_slice(digits(n.unsigned_abs(), &mut buf));
            }
            FieldValue::Double(d) => {
                let s = if ty == FieldType::Float {
                    bytes::java_float_to_string(*d as f32)
                } else {
                    bytes::java_double_to_string(*d)
                };
                out.extend_from_slice(s.as_bytes());
            }
            FieldValue::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
            FieldValue::Decimal(d) => out.extend_from_slice(d.to_java_string().as_bytes()),
        }
        Ok(())
    }

    /// Java's `String.valueOf(value)` as UTF-16 code units, appended to `out`.
    pub(crate) fn push_units(&self, ty: FieldType, field: &str, out: &mut Vec<u16>) -> Result<()> {
        match self {
            FieldValue::Str(s) => out.extend(s.encode_utf16()),
            FieldValue::Utf16(u) => out.extend_from_slice(u),
            other => {
                let mut b = Vec::new();
                other.push_text(ty, field, &mut b)?;
                out.extend(String::from_utf8_lossy(&b).encode_utf16());
            }
        }
        Ok(())
    }

    /// Does the value's text equal `s`?
    pub(crate) fn text_eq(&self, ty: FieldType, s: &str) -> bool {
        match self {
            FieldValue::Str(x) => x == s,
            FieldValue::Null => false,
            other => {
                let mut b = Vec::new();
                other.push_text(ty, "", &mut b).is_ok() && b == s.as_bytes()
            }
        }
    }

    /// Parse `String.valueOf` text back into a value of type `ty`.
    pub(crate) fn from_text(ty: FieldType, text: &str) -> Option<FieldValue> {
        Some(match ty {
            FieldType::String => FieldValue::Str(text.to_string()),
            FieldType::Long | FieldType::Timestamp => FieldValue::Long(text.parse().ok()?),
            FieldType::Int => FieldValue::Long(i64::from(text.parse::<i32>().ok()?)),
            FieldType::Short => FieldValue::Long(i64::from(text.parse::<i16>().ok()?)),
            FieldType::Double | FieldType::Float => FieldValue::Double(match text {
                "NaN" => f64::NAN,
                "Infinity" => f64::INFINITY,
                "-Infinity" => f64::NEG_INFINITY,
                t => t.parse().ok()?,
            }),
            FieldType::Boolean => FieldValue::Bool(match text {
                "true" => true,
                "false" => false,
                _ => return None,
            }),
            FieldType::BigDecimal => FieldValue::Decimal(parse_big_decimal(text)?),
        })
    }
}

/// The decimal digits of `n`, without allocating: two per division, from a pair table (one
/// digit per division was a quarter of `md5Hex(str(order))`'s cost besides the MD5).
pub(crate) fn digits(mut n: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut i = buf.len();
    let mut put = |i: usize, pair: usize| {
        if let (Some(d), Some(s)) = (buf.get_mut(i..i + 2), DIGIT_PAIRS.get(pair..pair + 2)) {
            d.copy_from_slice(s);
        }
    };
    while n >= 100 {
        i -= 2;
        put(i, (n % 100) as usize * 2);
        n /= 100;
    }
    if n >= 10 {
        i -= 2;
        put(i, n as usize * 2);
    } else {
        i -= 1;
        if let Some(slot) = buf.get_mut(i) {
            *slot = b'0' + n as u8;
        }
    }
    buf.get(i..).unwrap_or(&[])
}

/// "00" to "99".
pub(crate) const DIGIT_PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

pub(crate) fn missing(field: &str) -> Error {
    Error::new(
        ErrorKind::Invalid,
        format!("field `{field}` has no value in the record, and the key needs it"),
    )
    .at_path(field.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `digits` against `u64::to_string` at every length and at the edges of each.
    #[test]
    fn digits_match_to_string() {
        let mut r = 0x9E37_79B9_7F4A_7C15u64;
        let mut xs = vec![0, 9, 10, 99, 100, 101, u64::MAX, u64::MAX - 1];
        for k in 1..20 {
            let p = 10u64.pow(k);
            xs.extend([p - 1, p, p + 1]);
        }
        for _ in 0..5000 {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            xs.extend([r, r >> (r % 64)]);
        }
        for x in xs {
            let mut buf = [0u8; 20];
            assert_eq!(digits(x, &mut buf), x.to_string().as_bytes(), "{x}");
        }
    }

    /// `v` read as the field `f` of type `t`.
    fn read(t: FieldType, v: &serde_json::Value) -> Result<FieldValue> {
        FieldValue::from_json("f", t, v)
    }

    #[test]
    fn longs_from_numbers_and_strings() {
        let d = FieldType::Long;
        assert_eq!(
            read(d, &serde_json::json!(5)).ok(),
            Some(FieldValue::Long(5))
        );
        assert_eq!(
            read(d, &serde_json::json!("9223372036854775807")).ok(),
            Some(FieldValue::Long(i64::MAX))
        );
        let e = read(d, &serde_json::json!("12x")).err();
        assert!(e.is_some_and(|e| e.message.contains("field `f`") && e.message.contains("long")));
        assert!(read(FieldType::Short, &serde_json::json!(40000)).is_err());
        assert!(read(d, &serde_json::json!(1.5)).is_err());
    }

    #[test]
    fn big_decimal_text() {
        let d = parse_big_decimal("123.123");
        assert_eq!(d, Some(BigDecimal::new(BigInt::from(123_123), 3)));
        assert_eq!(
            parse_big_decimal("1E+3"),
            Some(BigDecimal::new(BigInt::from(1), -3))
        );
        assert_eq!(
            parse_big_decimal("-0.00"),
            Some(BigDecimal::new(BigInt::from(0), 2))
        );
        assert_eq!(parse_big_decimal("."), None);
        assert_eq!(parse_big_decimal("1e99999999999"), None);
    }

    #[test]
    fn timestamps_accept_iso() {
        let d = FieldType::Timestamp;
        assert_eq!(
            read(d, &serde_json::json!("2021-11-30T16:41:21.900Z")).ok(),
            Some(FieldValue::Long(1_638_290_481_900))
        );
    }

    #[test]
    fn json_out_keeps_precision() {
        assert_eq!(
            FieldValue::Long(i64::MAX).to_json(FieldType::Long),
            serde_json::json!("9223372036854775807")
        );
        assert_eq!(
            FieldValue::Long(7).to_json(FieldType::Long),
            serde_json::json!(7)
        );
    }
}
