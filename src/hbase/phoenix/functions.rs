//! The Phoenix built-in functions a functional index is read with here, as Phoenix evaluates
//! them for an index row (apache/phoenix `6d9ec471`, `expression/function/`: `UpperFunction`,
//! `LowerFunction`, `SubstrFunction`, `TrimFunction`, `LTrimFunction`, `RTrimFunction`,
//! `LengthFunction`), over one `VARCHAR` column.
//!
//! Each function is an [`IndexExpression`] evaluated as Phoenix's `evaluate(tuple, ptr)` is:
//! the bytes the pointer is left at and the answer. `IndexMaintainer.buildRowKey` ignores the
//! answer and writes the bytes the pointer is left at, so where a function answers `false` with
//! the pointer still at its argument, the index stores the argument: `SUBSTR(NAME, 10)` of a
//! 3-character name stores the whole name (not NULL, as a query's `SUBSTR` gives). That
//! oddity is kept here, as the index Phoenix writes has it.
//!
//! - `UPPER(s)` / `LOWER(s)`: `String.toUpperCase()` / `toLowerCase()` of the decoded text
//!   (the full Unicode case mapping: `ß` upper-cases to `SS`, a final `Σ` lower-cases to `ς`),
//!   the result's `VARCHAR` bytes. Its type and nullability are its argument's.
//! - `SUBSTR(s, offset[, length])`: characters (UTF-8 code points, as
//!   `StringUtil.calculateUTF8Length` counts them), 1-based: an offset of 1 or 0 starts at the
//!   first, a negative one counts from the end (-1 is the last); without a length, to the end,
//!   else at most `length` characters. An offset outside the string leaves the whole string
//!   (above). Always nullable (`VARCHAR` is not fixed-width).
//! - `TRIM(s)`, `LTRIM(s)`, `RTRIM(s)`: the space bytes (`0x20`, no other blank) off both ends,
//!   the start or the end; all spaces is empty (NULL). `VARCHAR`.
//! - `LENGTH(s)`: the characters as an `INTEGER` (`PInteger.toBytes`); an empty or NULL string
//!   is NULL. Nullable when its argument is, so in the index a `DECIMAL` then
//!   (`IndexUtil.getIndexColumnDataType`).
//!
//! What is left out: `UPPER`/`LOWER`'s locale argument, a `CHAR` argument (its padding), and
//! a region server whose JVM's default locale is Turkish, Azeri or Lithuanian (Java's case
//! mapping then differs for `i`, `I` and a few others); characters whose case mapping changed
//! between Unicode versions follow this build's Unicode, not the JVM's.

use super::types::PhoenixType;
use crate::error::{Error, ErrorKind, Result};

/// A function of a functional index, over the expression inside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IndexFunction {
    /// `UPPER(s)`.
    Upper,
    /// `LOWER(s)`.
    Lower,
    /// `SUBSTR(s, offset[, length])`, the literals as written (a length is at least 1).
    Substr {
        /// The 1-based offset (0: the first character too; negative: from the end).
        offset: i32,
        /// At most this many characters; `None`: to the end.
        length: Option<i32>,
    },
    /// `TRIM(s)`.
    Trim,
    /// `LTRIM(s)`.
    LTrim,
    /// `RTRIM(s)`.
    RTrim,
    /// `LENGTH(s)`.
    Length,
}

impl IndexFunction {
    /// The function's SQL name.
    pub fn name(&self) -> &'static str {
        match self {
            IndexFunction::Upper => "UPPER",
            IndexFunction::Lower => "LOWER",
            IndexFunction::Substr { .. } => "SUBSTR",
            IndexFunction::Trim => "TRIM",
            IndexFunction::LTrim => "LTRIM",
            IndexFunction::RTrim => "RTRIM",
            IndexFunction::Length => "LENGTH",
        }
    }
}

/// The names of the functions read here, for a refusal to list.
pub const INDEX_FUNCTIONS: &str =
    "UPPER(s), LOWER(s), SUBSTR(s, offset[, length]), TRIM(s), LTRIM(s), RTRIM(s), LENGTH(s)";

/// An indexed expression over one `VARCHAR` column: the column, or a function of an
/// expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IndexExpression {
    /// The column's value.
    Column,
    /// A function of the expression inside it.
    Call(IndexFunction, Box<IndexExpression>),
}

impl IndexExpression {
    /// The expression's type (`getDataType()`): `VARCHAR`, or `INTEGER` for `LENGTH`; an error
    /// when a function is given an argument it does not take (Phoenix: `TYPE_MISMATCH`).
    pub fn data_type(&self) -> Result<PhoenixType> {
        let IndexExpression::Call(f, inner) = self else {
            return Ok(PhoenixType::Varchar);
        };
        let arg = inner.data_type()?;
        if arg != PhoenixType::Varchar {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!(
                    "{} takes a VARCHAR, not the {} that {} gives (Phoenix: TYPE_MISMATCH)",
                    f.name(),
                    arg.sql_name(),
                    match inner.as_ref() {
                        IndexExpression::Call(g, _) => g.name(),
                        IndexExpression::Column => "the column",
                    }
                ),
            ));
        }
        Ok(match f {
            IndexFunction::Length => PhoenixType::Integer,
            _ => PhoenixType::Varchar,
        })
    }

    /// Whether its value may be NULL (`isNullable()`), its column's being `column`: a
    /// function is nullable when its argument is (`BaseCompoundExpression`), `SUBSTR` always.
    pub fn nullable(&self, column: bool) -> bool {
        match self {
            IndexExpression::Column => column,
            IndexExpression::Call(IndexFunction::Substr { .. }, _) => true,
            IndexExpression::Call(_, inner) => inner.nullable(column),
        }
    }

    /// Its `getMaxLength()`, its column's being `column`: `UPPER`/`LOWER`/`LTRIM`/`RTRIM`
    /// keep their argument's, `SUBSTR` with a length that length, the rest none.
    pub fn max_length(&self, column: Option<i32>) -> Option<i32> {
        match self {
            IndexExpression::Column => column,
            IndexExpression::Call(f, inner) => match f {
                IndexFunction::Upper
                | IndexFunction::Lower
                | IndexFunction::LTrim
                | IndexFunction::RTrim => inner.max_length(column),
                IndexFunction::Substr {
                    length: Some(n), ..
                } => Some(*n),
                _ => None,
            },
        }
    }

    /// The bytes Phoenix's `evaluate` leaves the pointer at for a row whose column holds
    /// `column` (its `VARCHAR` bytes; empty: NULL), and its answer (see the module docs: the
    /// index stores the bytes whatever the answer).
    pub fn evaluate(&self, column: &[u8]) -> Result<(Vec<u8>, bool)> {
        let IndexExpression::Call(f, inner) = self else {
            return Ok((column.to_vec(), true));
        };
        let (ptr, ok) = inner.evaluate(column)?;
        if !ok || ptr.is_empty() {
            return Ok((ptr, ok));
        }
        let text = || {
            std::str::from_utf8(&ptr).map_err(|_| {
                Error::new(
                    ErrorKind::ConstraintViolation,
                    format!("{}: the value is not UTF-8 text", f.name()),
                )
            })
        };
        Ok(match f {
            IndexFunction::Upper => (text()?.to_uppercase().into_bytes(), true),
            IndexFunction::Lower => (text()?.to_lowercase().into_bytes(), true),
            IndexFunction::Substr { offset, length } => substr(ptr, *offset, *length)?,
            IndexFunction::Trim => {
                let end = ptr.iter().rposition(|&b| b != b' ');
                let start = ptr.iter().position(|&b| b != b' ');
                match (start, end) {
                    (Some(s), Some(e)) => (ptr.get(s..=e).unwrap_or_default().to_vec(), true),
                    _ => (Vec::new(), true),
                }
            }
            IndexFunction::LTrim => {
                let start = ptr.iter().position(|&b| b != b' ').unwrap_or(ptr.len());
                (ptr.get(start..).unwrap_or_default().to_vec(), true)
            }
            IndexFunction::RTrim => {
                let end = ptr.iter().rposition(|&b| b != b' ').map_or(0, |e| e + 1);
                (ptr.get(..end).unwrap_or_default().to_vec(), true)
            }
            IndexFunction::Length => {
                let n = i32::try_from(text()?.chars().count()).map_err(|_| {
                    Error::limit("values", "LENGTH of a string longer than a Java int")
                })?;
                // PInteger.toBytes: big-endian, the sign bit flipped
                (((n as u32) ^ 0x8000_0000).to_be_bytes().to_vec(), true)
            }
        })
    }
}

/// `SubstrFunction.evaluate` over a non-empty string's bytes `s`.
fn substr(s: Vec<u8>, offset: i32, length: Option<i32>) -> Result<(Vec<u8>, bool)> {
    let Ok(text) = std::str::from_utf8(&s) else {
        return Err(Error::new(
            ErrorKind::ConstraintViolation,
            "SUBSTR: the value is not UTF-8 text",
        ));
    };
    // (a length below 1 is refused where the expression is read: Phoenix then leaves the
    // pointer at the length literal's bytes)
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let strlen = chars.len() as i64;
    // Account for 1 versus 0-based offset; a negative one counts from the end.
    let mut at = i64::from(offset) - if offset <= 0 { 0 } else { 1 };
    if at < 0 {
        at += strlen;
    }
    if at < 0 || at >= strlen {
        // `return false` with the pointer still at the string: the index stores it whole
        return Ok((s, false));
    }
    let rest = strlen - at;
    let n = length.map_or(rest, |l| i64::from(l).min(rest));
    let byte_at = |i: i64| {
        usize::try_from(i)
            .ok()
            .and_then(|i| chars.get(i))
            .map_or(s.len(), |(b, _)| *b)
    };
    let (from, to) = (byte_at(at), byte_at(at + n));
    Ok((s.get(from..to).unwrap_or_default().to_vec(), true))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(f: IndexFunction) -> IndexExpression {
        IndexExpression::Call(f, Box::new(IndexExpression::Column))
    }

    fn sub(offset: i32, length: Option<i32>, s: &str) -> (String, bool) {
        let (b, ok) = call(IndexFunction::Substr { offset, length })
            .evaluate(s.as_bytes())
            .unwrap();
        (String::from_utf8(b).unwrap(), ok)
    }

    #[test]
    fn substr_counts_characters_from_one_and_from_the_end() {
        // SubstrFunction: offset - (offset <= 0 ? 0 : 1); negative: strlen + offset
        assert_eq!(sub(1, Some(3), "phoenix"), ("pho".into(), true));
        assert_eq!(sub(0, Some(3), "phoenix"), ("pho".into(), true));
        assert_eq!(sub(3, None, "phoenix"), ("oenix".into(), true));
        assert_eq!(sub(-3, None, "phoenix"), ("nix".into(), true));
        assert_eq!(sub(-3, Some(2), "phoenix"), ("ni".into(), true));
        assert_eq!(sub(7, Some(5), "phoenix"), ("x".into(), true));
        // characters, not bytes: "é" is two bytes, one character
        assert_eq!(sub(2, Some(2), "héllo"), ("él".into(), true));
        assert_eq!(sub(-1, None, "naïve€"), ("€".into(), true));
        // outside the string: `false`, the pointer left at the whole string
        assert_eq!(sub(8, None, "phoenix"), ("phoenix".into(), false));
        assert_eq!(sub(-8, Some(1), "phoenix"), ("phoenix".into(), false));
    }

    #[test]
    fn a_false_answer_passes_its_bytes_through_the_functions_around_it() {
        let e = IndexExpression::Call(
            IndexFunction::Upper,
            Box::new(call(IndexFunction::Substr {
                offset: 5,
                length: None,
            })),
        );
        assert_eq!(e.evaluate(b"abc").unwrap(), (b"abc".to_vec(), false));
        assert_eq!(e.evaluate(b"abcdef").unwrap(), (b"EF".to_vec(), true));
    }

    #[test]
    fn case_trim_and_length_as_phoenix_gives_them() {
        let ev = |f: IndexFunction, s: &str| call(f).evaluate(s.as_bytes()).unwrap().0;
        assert_eq!(ev(IndexFunction::Upper, "straße"), "STRASSE".as_bytes());
        assert_eq!(
            ev(IndexFunction::Lower, "\u{39f}\u{394}\u{39f}\u{3a3}"),
            "\u{3bf}\u{3b4}\u{3bf}\u{3c2}".as_bytes()
        );
        assert_eq!(ev(IndexFunction::Trim, "  a b  "), b"a b");
        assert_eq!(ev(IndexFunction::LTrim, "  a b  "), b"a b  ");
        assert_eq!(ev(IndexFunction::RTrim, "  a b  "), b"  a b");
        // only the space byte is blank
        assert_eq!(ev(IndexFunction::Trim, "\ta "), b"\ta");
        assert_eq!(ev(IndexFunction::Trim, "   "), b"");
        // 5 characters: 0x80000005
        assert_eq!(ev(IndexFunction::Length, "héllo"), [0x80, 0, 0, 5]);
        // NULL stays NULL
        assert_eq!(
            call(IndexFunction::Length).evaluate(b"").unwrap(),
            (vec![], true)
        );
    }

    #[test]
    fn types_nullability_and_mismatches() {
        let len = call(IndexFunction::Length);
        assert_eq!(len.data_type().unwrap(), PhoenixType::Integer);
        assert!(!len.nullable(false) && len.nullable(true));
        let s = call(IndexFunction::Substr {
            offset: 1,
            length: Some(3),
        });
        assert!(s.nullable(false));
        assert_eq!(s.max_length(Some(10)), Some(3));
        let bad = IndexExpression::Call(IndexFunction::Upper, Box::new(len));
        let e = bad.data_type().unwrap_err();
        assert!(e.message.contains("UPPER takes a VARCHAR"), "{e}");
    }
}
