//! One cell of a user's file into the value a key field declares: the rules every reader
//! shares, so a CSV, a Parquet file and JSON Lines holding the same rows give the same keys.

use crate::keyspec::{FieldType, FieldValue};
use crate::workload::ValueSlot;

/// One cell as a reader found it, before the field's type is applied.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cell<'a> {
    /// No value: an empty CSV field, a JSON `null` or a missing member, an Arrow null.
    Null,
    /// Text, to be parsed by the field's type (CSV, JSON strings, Arrow strings).
    Text(&'a str),
    /// A whole number (Arrow integers, JSON integers).
    Int(i64),
    /// An unsigned whole number past `i64::MAX` (Arrow `UInt64`).
    BigUint(u64),
    /// A floating-point number.
    Float(f64),
    /// A boolean.
    Bool(bool),
    /// An instant, ms since the epoch (Arrow timestamps and dates, already in ms).
    TimeMs(i64),
    /// A decimal: its unscaled value and scale (Arrow `Decimal128`).
    Decimal(i128, i8),
}

/// The unit of integers in a column read as time (a `timestamp` field or the `--time`
/// column): epoch seconds, ms, µs or ns. `Auto` takes it from each value's magnitude (see
/// [`EpochUnit::of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EpochUnit {
    /// By magnitude: below 10^11 seconds (until year 5138), below 10^14 ms, below 10^17 µs,
    /// else ns. Each unit's range of recent dates is apart from the others' by a factor of
    /// 1,000, so a date from 1973 to 5138 is read in the unit it was written in.
    #[default]
    Auto,
    /// Seconds.
    S,
    /// Milliseconds.
    Ms,
    /// Microseconds.
    Us,
    /// Nanoseconds.
    Ns,
}

impl EpochUnit {
    /// The unit of `n` (itself unless `Auto`).
    pub fn of(self, n: i64) -> EpochUnit {
        match self {
            EpochUnit::Auto => match n.unsigned_abs() {
                a if a < 100_000_000_000 => EpochUnit::S,
                a if a < 100_000_000_000_000 => EpochUnit::Ms,
                a if a < 100_000_000_000_000_000 => EpochUnit::Us,
                _ => EpochUnit::Ns,
            },
            u => u,
        }
    }

    /// `n` of this unit in ms (floored), `None` past an i64 of ms.
    pub fn to_ms(self, n: i64) -> Option<i64> {
        match self.of(n) {
            EpochUnit::S => n.checked_mul(1000),
            EpochUnit::Ms | EpochUnit::Auto => Some(n),
            EpochUnit::Us => Some(n.div_euclid(1000)),
            EpochUnit::Ns => Some(n.div_euclid(1_000_000)),
        }
    }
}

/// What a cell of this type should have been, for messages.
pub(crate) fn expected(ty: FieldType) -> &'static str {
    match ty {
        FieldType::String => "text",
        FieldType::Long => "a whole number (64-bit)",
        FieldType::Int => "a whole number (32-bit)",
        FieldType::Short => "a whole number (16-bit)",
        FieldType::Timestamp => {
            "a time: ISO 8601 (2013-01-01T10:15:00Z, 2013-01-01 10:15:00+00:00), or epoch s/ms/µs/ns"
        }
        FieldType::Double | FieldType::Float => "a number",
        FieldType::Boolean => "true or false",
        FieldType::BigDecimal => "a decimal number",
    }
}

/// Why a cell did not convert: what was expected (the caller adds where).
pub(crate) type Refusal = &'static str;

/// Store `cell` converted to `ty` in `slot`. `Ok(false)`: the cell is null (the slot holds
/// [`FieldValue::Null`]). Integers written as `2.0` are whole numbers only when exact.
pub(crate) fn put(
    slot: &mut FieldValue,
    cell: Cell<'_>,
    ty: FieldType,
    unit: EpochUnit,
) -> Result<bool, Refusal> {
    let bad = expected(ty);
    match ty {
        FieldType::String => match cell {
            Cell::Null => return null(slot),
            Cell::Text(s) => slot.put_text().push_str(s),
            // A number in a string field: its decimal text, as `String.valueOf(long)` writes it.
            Cell::Int(n) => {
                let mut buf = [0u8; 20];
                let text = slot.put_text();
                if n < 0 {
                    text.push('-');
                }
                let d = crate::keyspec::value::digits(n.unsigned_abs(), &mut buf);
                text.push_str(std::str::from_utf8(d).unwrap_or(""));
            }
            Cell::BigUint(n) => slot.put_text().push_str(&n.to_string()),
            _ => return Err(bad),
        },
        FieldType::Long | FieldType::Int | FieldType::Short | FieldType::Timestamp => {
            let (lo, hi) = match ty {
                FieldType::Int => (i64::from(i32::MIN), i64::from(i32::MAX)),
                FieldType::Short => (i64::from(i16::MIN), i64::from(i16::MAX)),
                _ => (i64::MIN, i64::MAX),
            };
            let time = ty == FieldType::Timestamp;
            let n = match cell {
                Cell::Null => return null(slot),
                Cell::Int(n) if time => unit.to_ms(n).ok_or(bad)?,
                Cell::Int(n) => n,
                Cell::TimeMs(ms) if time => ms,
                Cell::Float(f) => {
                    let n = exact_int(f).ok_or(bad)?;
                    if time {
                        unit.to_ms(n).ok_or(bad)?
                    } else {
                        n
                    }
                }
                Cell::Decimal(v, scale) => {
                    let n = decimal_int(v, scale).ok_or(bad)?;
                    if time {
                        unit.to_ms(n).ok_or(bad)?
                    } else {
                        n
                    }
                }
                Cell::Text(s) => {
                    if time {
                        time_text(s, unit).ok_or(bad)?
                    } else {
                        int_text(s).ok_or(bad)?
                    }
                }
                _ => return Err(bad),
            };
            if n < lo || n > hi {
                return Err(bad);
            }
            slot.put_long(n);
        }
        FieldType::Double | FieldType::Float => {
            let d = match cell {
                Cell::Null => return null(slot),
                Cell::Float(f) => f,
                Cell::Int(n) => n as f64,
                Cell::Text(s) => match s.trim() {
                    "NaN" => f64::NAN,
                    "Infinity" => f64::INFINITY,
                    "-Infinity" => f64::NEG_INFINITY,
                    t => t.parse().map_err(|_| bad)?,
                },
                _ => return Err(bad),
            };
            slot.put_double(d);
        }
        FieldType::Boolean => {
            let b = match cell {
                Cell::Null => return null(slot),
                Cell::Bool(b) => b,
                Cell::Text(s) => match s.trim() {
                    "true" | "TRUE" | "True" => true,
                    "false" | "FALSE" | "False" => false,
                    _ => return Err(bad),
                },
                _ => return Err(bad),
            };
            slot.put_bool(b);
        }
        FieldType::BigDecimal => {
            let text = match cell {
                Cell::Null => return null(slot),
                Cell::Text(s) => s.trim().to_string(),
                Cell::Int(n) => n.to_string(),
                Cell::BigUint(n) => n.to_string(),
                Cell::Decimal(v, scale) => decimal_text(v, scale),
                _ => return Err(bad),
            };
            if text.len() > crate::limits::MAX_DECIMAL_DIGITS {
                return Err(bad);
            }
            let d = crate::keyspec::value::parse_big_decimal(&text).ok_or(bad)?;
            *slot = FieldValue::Decimal(d);
        }
    }
    Ok(true)
}

fn null(slot: &mut FieldValue) -> Result<bool, Refusal> {
    *slot = FieldValue::Null;
    Ok(false)
}

/// `f` when it is a whole number an i64 holds exactly (`2.0`, not `2.5`, not `1e19`).
fn exact_int(f: f64) -> Option<i64> {
    // 2^63 is exactly representable; every whole f64 below it in magnitude fits an i64.
    (f.fract() == 0.0 && f.abs() < 9_223_372_036_854_775_808.0).then_some(f as i64)
}

/// A decimal's whole value when its fraction is zero.
fn decimal_int(v: i128, scale: i8) -> Option<i64> {
    let n = if scale >= 0 {
        let p = 10i128.checked_pow(u32::from(scale.unsigned_abs()))?;
        if v % p != 0 {
            return None;
        }
        v / p
    } else {
        v.checked_mul(10i128.checked_pow(u32::from(scale.unsigned_abs()))?)?
    };
    i64::try_from(n).ok()
}

/// A decimal as the text Java's `new BigDecimal(String)` reads back to the same value.
fn decimal_text(v: i128, scale: i8) -> String {
    if scale <= 0 {
        format!("{v}E{}", -i32::from(scale))
    } else {
        format!("{v}E-{scale}")
    }
}

/// Integer text: `42`, `-7`, and `2.0` (a float that is exactly whole, as pandas writes an
/// integer column holding nulls).
fn int_text(s: &str) -> Option<i64> {
    let t = s.trim();
    t.parse::<i64>().ok().or_else(|| {
        if t.bytes()
            .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b))
        {
            exact_int(t.parse::<f64>().ok()?).filter(|n| n.unsigned_abs() < (1u64 << 53))
        } else {
            None
        }
    })
}

/// Time text: epoch numbers (by `unit`), or ISO 8601 with or without an offset
/// (`2013-01-01T10:15:00Z`, `2013-01-01 10:15:00+00:00`), fractions of a second floored to ms.
pub(crate) fn time_text(s: &str, unit: EpochUnit) -> Option<i64> {
    let t = s.trim();
    // The common ISO forms first: no epoch number has a `-` after four digits.
    if let Some(ms) = crate::keyspec::time::fixed_iso(t.as_bytes()) {
        return Some(ms);
    }
    if let Some(n) = int_text(t) {
        return unit.to_ms(n);
    }
    crate::keyspec::time::parse_iso(&ms_fraction(t))
}

/// `t` with a fraction of a second longer than ms cut to three digits (`.123456` → `.123`).
fn ms_fraction(t: &str) -> std::borrow::Cow<'_, str> {
    let Some(dot) = t.find('.') else {
        return t.into();
    };
    let digits = t
        .get(dot + 1..)
        .map_or(0, |r| r.bytes().take_while(u8::is_ascii_digit).count());
    if digits <= 3 {
        return t.into();
    }
    let mut out = String::with_capacity(t.len());
    out.push_str(t.get(..dot + 4).unwrap_or(t));
    out.push_str(t.get(dot + 1 + digits..).unwrap_or(""));
    out.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conv(cell: Cell<'_>, ty: FieldType) -> Result<FieldValue, Refusal> {
        let mut v = FieldValue::Null;
        put(&mut v, cell, ty, EpochUnit::Auto).map(|_| v)
    }

    #[test]
    fn whole_numbers_written_as_floats_only_when_exact() {
        assert_eq!(
            conv(Cell::Text("2.0"), FieldType::Long),
            Ok(FieldValue::Long(2))
        );
        assert!(conv(Cell::Text("2.5"), FieldType::Long).is_err());
        assert_eq!(
            conv(Cell::Float(-3.0), FieldType::Int),
            Ok(FieldValue::Long(-3))
        );
        assert!(conv(Cell::Float(3.25), FieldType::Int).is_err());
        assert!(conv(Cell::Int(40_000), FieldType::Short).is_err());
        assert!(conv(Cell::Text("1e19"), FieldType::Long).is_err());
    }

    #[test]
    fn times_in_the_common_forms() {
        // 2013-01-01T10:15:00Z
        let ms = 1_357_035_300_000;
        for text in [
            "2013-01-01T10:15:00Z",
            "2013-01-01 10:15:00+00:00",
            "2013-01-01 11:15:00+01:00",
            "2013-01-01T10:15:00.000999Z",
            "1357035300",
            "1357035300000",
            "1357035300000000",
            "1357035300000000000",
        ] {
            assert_eq!(
                conv(Cell::Text(text), FieldType::Timestamp),
                Ok(FieldValue::Long(ms)),
                "{text}"
            );
        }
        assert_eq!(
            conv(Cell::Int(1_357_035_300), FieldType::Timestamp),
            Ok(FieldValue::Long(ms))
        );
        assert!(conv(Cell::Text("yesterday"), FieldType::Timestamp).is_err());
    }

    #[test]
    fn nulls_and_numbers_in_text_fields() {
        assert_eq!(conv(Cell::Null, FieldType::String), Ok(FieldValue::Null));
        assert_eq!(
            conv(Cell::Int(-120), FieldType::String),
            Ok(FieldValue::Str("-120".into()))
        );
        assert!(conv(Cell::Float(1.5), FieldType::String).is_err());
    }
}
