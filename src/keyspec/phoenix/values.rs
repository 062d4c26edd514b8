//! A record's field values as the Java objects Phoenix takes for each column type, and back:
//! the conversions on each side of [`crate::hbase::phoenix`]'s byte rules, each erring at the
//! column's field.

use super::super::value::FieldValue;
use crate::error::{Error, ErrorKind, Result};
use crate::hbase::bytes::BigDecimal;
use crate::hbase::phoenix::{Decimal, PhoenixColumn, PhoenixType, PhoenixValue, Timestamp};
use crate::keyspec::FieldType;

fn field_err(c: &PhoenixColumn, msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::Invalid, msg).at_path(c.name.clone())
}

/// A record value as the Java object Phoenix takes for the column's type (`None`: NULL).
pub(crate) fn to_phoenix(
    c: &PhoenixColumn,
    ty: FieldType,
    v: &FieldValue,
) -> Result<Option<PhoenixValue>> {
    use PhoenixType as P;
    let range = |n: i64, lo: i64, hi: i64| -> Result<i64> {
        if n < lo || n > hi {
            return Err(field_err(
                c,
                format!(
                    "field `{}`: {n} does not fit {} ({lo} to {hi})",
                    c.name,
                    c.data_type.sql_name()
                ),
            ));
        }
        Ok(n)
    };
    let bad = |v: &FieldValue| {
        field_err(
            c,
            format!(
                "field `{}`: {} cannot be a {} value",
                c.name,
                v.what(),
                c.data_type.sql_name()
            ),
        )
    };
    Ok(Some(match (c.data_type, v) {
        (_, FieldValue::Null) => return Ok(None),
        (P::Integer | P::UnsignedInt, FieldValue::Long(n)) => {
            PhoenixValue::Integer(range(*n, i64::from(i32::MIN), i64::from(i32::MAX))? as i32)
        }
        (P::Bigint | P::UnsignedLong, FieldValue::Long(n)) => PhoenixValue::Long(*n),
        (P::Smallint, FieldValue::Long(n)) => {
            PhoenixValue::Short(range(*n, i64::from(i16::MIN), i64::from(i16::MAX))? as i16)
        }
        (P::Tinyint, FieldValue::Long(n)) => {
            PhoenixValue::Byte(range(*n, i64::from(i8::MIN), i64::from(i8::MAX))? as i8)
        }
        (P::Float, FieldValue::Double(d)) => PhoenixValue::Float(*d as f32),
        (P::Double, FieldValue::Double(d)) if ty == FieldType::Float => {
            PhoenixValue::Double(f64::from(*d as f32))
        }
        (P::Double, FieldValue::Double(d)) => PhoenixValue::Double(*d),
        (P::Decimal, FieldValue::Long(n)) => PhoenixValue::Decimal(Decimal::from_i64(*n)),
        (P::Decimal, FieldValue::Decimal(d)) => PhoenixValue::Decimal(decimal(c, d)?),
        (P::Varchar | P::Char, FieldValue::Str(s)) => PhoenixValue::string(s),
        (P::Varchar | P::Char, FieldValue::Utf16(u)) => PhoenixValue::String(u.clone()),
        (P::Varbinary | P::Binary, FieldValue::Str(s)) => {
            PhoenixValue::Bytes(s.as_bytes().to_vec())
        }
        (P::Boolean, FieldValue::Bool(b)) => PhoenixValue::Boolean(*b),
        (P::Date, FieldValue::Long(ms)) => PhoenixValue::Date(*ms),
        (P::Time, FieldValue::Long(ms)) => PhoenixValue::Time(*ms),
        (P::Timestamp, FieldValue::Long(ms)) => {
            PhoenixValue::Timestamp(Timestamp::from_millis(*ms))
        }
        (P::Timestamp, FieldValue::Decimal(d)) => PhoenixValue::Timestamp(seconds(c, d)?),
        (_, v) => return Err(bad(v)),
    }))
}

fn decimal(_c: &PhoenixColumn, d: &BigDecimal) -> Result<Decimal> {
    Ok(Decimal::from_big_decimal(d))
}

/// A `bigDecimal` of epoch seconds (nanoseconds in its fraction) as a `Timestamp`.
fn seconds(c: &PhoenixColumn, d: &BigDecimal) -> Result<Timestamp> {
    let d = Decimal::from_big_decimal(d);
    let too_fine = || {
        field_err(
            c,
            format!(
                "field `{}`: {d} seconds: a TIMESTAMP holds whole nanoseconds (at most 9 fraction digits) of seconds that fit a long",
                c.name
            ),
        )
    };
    // The value in nanoseconds, as an integer: digits * 10^(9 - scale).
    let shift = 9i64 - i64::from(d.scale());
    if shift < 0
        && d.unscaled_digits()
            .iter()
            .rev()
            .take((-shift) as usize)
            .any(|&x| x != 0)
    {
        return Err(too_fine());
    }
    let mut nanos: i128 = 0;
    let keep = d.unscaled_digits().len() as i64 + shift.min(0);
    for &x in d
        .unscaled_digits()
        .iter()
        .take(usize::try_from(keep).unwrap_or(0))
    {
        nanos = nanos
            .checked_mul(10)
            .and_then(|n| n.checked_add(i128::from(x)))
            .ok_or_else(too_fine)?;
    }
    for _ in 0..shift.max(0) {
        nanos = nanos.checked_mul(10).ok_or_else(too_fine)?;
    }
    if d.is_negative() {
        nanos = -nanos;
    }
    let secs = i64::try_from(nanos.div_euclid(1_000_000_000)).map_err(|_| too_fine())?;
    let rest = nanos.rem_euclid(1_000_000_000) as i32;
    Timestamp::from_epoch_second(secs, rest).map_err(|e| field_err(c, e.message))
}

/// A decoded column value as the record value of its field.
pub(crate) fn from_phoenix(
    c: &PhoenixColumn,
    ty: FieldType,
    v: &PhoenixValue,
) -> Result<FieldValue> {
    Ok(match v {
        PhoenixValue::Integer(n) => FieldValue::Long(i64::from(*n)),
        PhoenixValue::Long(n) => FieldValue::Long(*n),
        PhoenixValue::Short(n) => FieldValue::Long(i64::from(*n)),
        PhoenixValue::Byte(n) => FieldValue::Long(i64::from(*n)),
        PhoenixValue::Float(x) => FieldValue::Double(f64::from(*x)),
        PhoenixValue::Double(x) => FieldValue::Double(*x),
        PhoenixValue::Decimal(d) if ty == FieldType::BigDecimal => {
            FieldValue::Decimal(d.to_big_decimal())
        }
        PhoenixValue::Decimal(d) => FieldValue::Long(
            d.to_string()
                .parse()
                .map_err(|_| field_err(c, format!("field `{}`: {d} is not an integer", c.name)))?,
        ),
        PhoenixValue::String(u) => match String::from_utf16(u) {
            Ok(s) => FieldValue::Str(s),
            Err(_) => FieldValue::Utf16(u.clone()),
        },
        PhoenixValue::Bytes(b) => FieldValue::Str(String::from_utf8(b.clone()).map_err(|_| {
            field_err(
                c,
                format!("field `{}`: the bytes are not UTF-8 text", c.name),
            )
        })?),
        PhoenixValue::Boolean(b) => FieldValue::Bool(*b),
        PhoenixValue::Date(ms) | PhoenixValue::Time(ms) => FieldValue::Long(*ms),
        PhoenixValue::Timestamp(t) if ty == FieldType::BigDecimal => {
            let secs = t.get_time().div_euclid(1000);
            let text = format!("{secs}.{:09}", t.nanos());
            FieldValue::Decimal(
                super::super::value::parse_big_decimal(&text).ok_or_else(|| {
                    field_err(c, format!("field `{}`: {text} is not a decimal", c.name))
                })?,
            )
        }
        PhoenixValue::Timestamp(t) => FieldValue::Long(t.get_time()),
    })
}
