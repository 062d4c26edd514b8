//! JSON values as a field's values: the `list`, `weighted` and `constant` generators' values
//! and records' values, checked against the field's type with the JSON path of a bad one.

use super::{invalid, out_of, FieldValue, Out};
use crate::error::Result;
use crate::keyspec::FieldType;
use crate::support::num_text::int_text;
use crate::workload::FieldDecl;

/// Each of `values` as the field's value (`path/j` names a bad one).
pub(super) fn convert_all(
    values: &[serde_json::Value],
    f: &FieldDecl,
    path: &str,
) -> Result<Vec<FieldValue>> {
    values
        .iter()
        .enumerate()
        .map(|(j, v)| convert(v, f, &format!("{path}/{j}")))
        .collect()
}

/// A JSON value as the field's value: numbers and numeric text for numeric fields,
/// booleans and `"true"`/`"false"` for boolean fields, any scalar as text for string fields.
pub fn convert(v: &serde_json::Value, f: &FieldDecl, path: &str) -> Result<FieldValue> {
    use serde_json::Value as J;
    let bad = |what: &str| {
        invalid(
            path.to_string(),
            format!(
                "{} is not {what} (field `{}` is {})",
                crate::support::json::json_text(v),
                f.name,
                f.field_type.name()
            ),
        )
    };
    match out_of(f.field_type) {
        Out::Str => match v {
            J::String(s) => {
                if f.field_type == FieldType::BigDecimal && !is_decimal(s) {
                    return Err(bad("a decimal number"));
                }
                Ok(FieldValue::Str(s.clone()))
            }
            J::Number(n) => Ok(FieldValue::Str(n.to_string())),
            J::Bool(b) if f.field_type == FieldType::String => Ok(FieldValue::Str(b.to_string())),
            _ => Err(bad("a string or number")),
        },
        Out::Long => {
            // A timestamp as records and `startTime` take it: ms, or an ISO-8601 date-time.
            let time = f.field_type == FieldType::Timestamp;
            let x = match v {
                J::Number(n) => n.as_i64(),
                J::String(s) => s.trim().parse::<i64>().ok().or_else(|| {
                    time.then(|| crate::keyspec::time::parse_iso(s.trim()))
                        .flatten()
                }),
                _ => None,
            }
            .ok_or_else(|| {
                bad(if time {
                    "a time (ms since the epoch, or an ISO-8601 date-time)"
                } else {
                    "a 64-bit integer"
                })
            })?;
            check_range(f, path, i128::from(x), i128::from(x))?;
            Ok(FieldValue::Long(x))
        }
        Out::Double => {
            let x = match v {
                J::Number(n) => n.as_f64(),
                J::String(s) => s.trim().parse::<f64>().ok(),
                _ => None,
            }
            .ok_or_else(|| bad("a number"))?;
            Ok(FieldValue::Double(x))
        }
        Out::Bool => match v {
            J::Bool(b) => Ok(FieldValue::Bool(*b)),
            J::String(s) if s == "true" => Ok(FieldValue::Bool(true)),
            J::String(s) if s == "false" => Ok(FieldValue::Bool(false)),
            _ => Err(bad("a boolean")),
        },
    }
}

/// `[+-]digits[.digits][e[+-]digits]`, the text `new BigDecimal(String)` accepts.
pub(super) fn is_decimal(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i = 1;
    }
    let mut digits = 0;
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
        digits += 1;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let mut exp = 0;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
            exp += 1;
        }
        if exp == 0 {
            return false;
        }
    }
    i == b.len()
}

/// Values `lo..=hi` must fit in i64 and, for int and short fields, in the field's type.
pub(super) fn check_range(f: &FieldDecl, path: &str, lo: i128, hi: i128) -> Result<()> {
    let (min, max) = match f.field_type {
        FieldType::Int => (i128::from(i32::MIN), i128::from(i32::MAX)),
        FieldType::Short => (i128::from(i16::MIN), i128::from(i16::MAX)),
        _ => (i128::from(i64::MIN), i128::from(i64::MAX)),
    };
    let (lo, hi) = (lo.min(hi), lo.max(hi));
    if lo < min || hi > max {
        return Err(invalid(
            path.to_string(),
            format!(
                "field `{}` ({}) would get values from {} to {}, outside {}..={}",
                f.name,
                f.field_type.name(),
                int_text(lo),
                int_text(hi),
                int_text(min),
                int_text(max)
            ),
        ));
    }
    Ok(())
}
