//! Phoenix `DECIMAL`: Java's `BigDecimal` as Phoenix stores it in a row key.
//!
//! The encoding (`PDataType.toBytes(BigDecimal, ...)`) is a sign-and-exponent byte followed by
//! base-100 digits, each digit + 1 (positive) or 101 − digit (negative, then a terminal byte
//! 102), so that the bytes sort like the numbers. Before encoding, `NumberUtil.normalize`
//! rounds to 38 digits (HALF_UP) and strips trailing zeros. The exponent is computed in Java
//! `int` arithmetic and cast to a byte, so very large or small exponents wrap (`1E+200` is
//! `a502`); that is reproduced, not fixed.
//!
//! A `DECIMAL(p, s)` column adds two steps on UPSERT (`PDecimal.isSizeCompatible`,
//! `PDecimal.coerceBytes`): the integer digits must fit `p - s`, and a value with more than `s`
//! fraction digits is cut (rounded DOWN) to `s`, then re-encoded **without** the column's sort
//! order, so a DESC column holds ascending bytes for such a value (Phoenix's own behaviour).
//!
//! Values are kept as decimal digits rather than a binary big integer: every step Phoenix takes
//! (precision, rounding, stripping zeros, base-100 digits) is a digit operation.

use std::fmt;

mod bytes;
pub use bytes::{coerce, from_bytes, key_bytes_fit, precision_and_scale, to_bytes};
use bytes::{decode, encode};

use crate::error::{Error, ErrorKind, Result};
use crate::hbase::bigint::BigInt;
use crate::hbase::bytes::BigDecimal;

/// `PDataType.MAX_PRECISION`: Phoenix's `DEFAULT_MATH_CONTEXT` precision.
pub const MAX_PRECISION: i32 = 38;
/// `PDataType.MAX_BIG_DECIMAL_BYTES`: the longest encoded DECIMAL.
pub const MAX_BIG_DECIMAL_BYTES: usize = 21;
/// The longest unscaled value [`Decimal::set_scale_round_down`] will build when it raises the
/// scale (Java would allocate any size; a row key never needs more).
pub const MAX_DIGITS: usize = 100_000;

/// A Java `BigDecimal`: `(-1)^negative × digits × 10^(−scale)`. `digits` are the unscaled
/// value's decimal digits, most significant first, without leading zeros (zero has none and is
/// never negative). The scale is kept as Java keeps it, so `1.00` and `1` differ.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Decimal {
    negative: bool,
    digits: Vec<u8>,
    scale: i32,
}

fn nfe(s: &str, why: &str) -> Error {
    Error::new(
        ErrorKind::NumberFormat,
        format!("{s:?} is not a decimal number: {why}"),
    )
}

fn scale_overflow(scale: i64) -> Error {
    // Java's BigDecimal.checkScale: "Underflow" for a scale past Integer.MAX_VALUE.
    let which = if scale > 0 { "underflow" } else { "overflow" };
    Error::new(
        ErrorKind::Arithmetic,
        format!("decimal scale {scale} does not fit an int ({which})"),
    )
}

fn to_scale(scale: i64) -> Result<i32> {
    i32::try_from(scale).map_err(|_| scale_overflow(scale))
}

impl Decimal {
    /// A value from its sign, unscaled digits (0..=9, any leading zeros) and scale.
    pub fn from_parts(negative: bool, digits: Vec<u8>, scale: i32) -> Decimal {
        let lead = digits.iter().take_while(|&&d| d == 0).count();
        let digits: Vec<u8> = digits.get(lead..).unwrap_or_default().to_vec();
        Decimal {
            negative: negative && !digits.is_empty(),
            digits,
            scale,
        }
    }

    /// Zero with scale 0 (`BigDecimal.ZERO`).
    pub fn zero() -> Decimal {
        Decimal::from_parts(false, Vec::new(), 0)
    }

    /// `BigDecimal.valueOf(long)`.
    pub fn from_i64(v: i64) -> Decimal {
        let digits = v
            .unsigned_abs()
            .to_string()
            .bytes()
            .map(|b| b - b'0')
            .collect();
        Decimal::from_parts(v < 0, digits, 0)
    }

    /// `new BigDecimal(String)`: an optional sign, digits with at most one `.`, an optional
    /// exponent (`e`/`E`, optional sign, at most 10 significant digits); the scale is the
    /// number of fraction digits minus the exponent and must fit an `int`. Errors are
    /// `NumberFormat`, as in Java. (Java also takes non-ASCII Unicode digits; this takes ASCII.)
    pub fn parse(s: &str) -> Result<Decimal> {
        let b = s.as_bytes();
        let mut i = 0;
        let negative = match b.first() {
            Some(b'-') => {
                i = 1;
                true
            }
            Some(b'+') => {
                i = 1;
                false
            }
            _ => false,
        };
        let (mut digits, mut frac, mut dot, mut exp) = (Vec::new(), 0i64, false, 0i64);
        while let Some(&c) = b.get(i) {
            match c {
                b'0'..=b'9' => {
                    digits.push(c - b'0');
                    frac += i64::from(dot);
                }
                b'.' if !dot => dot = true,
                b'.' => return Err(nfe(s, "more than one decimal point")),
                b'e' | b'E' => {
                    exp = parse_exponent(s, b.get(i + 1..).unwrap_or_default())?;
                    break;
                }
                _ => {
                    return Err(nfe(
                        s,
                        "a character that is not a digit, '.' or an exponent",
                    ))
                }
            }
            i += 1;
        }
        if digits.is_empty() {
            return Err(nfe(s, "no digits"));
        }
        let scale = i32::try_from(frac - exp).map_err(|_| nfe(s, "scale out of range"))?;
        Ok(Decimal::from_parts(negative, digits, scale))
    }

    /// `signum()`: −1, 0 or 1.
    pub fn signum(&self) -> i32 {
        if self.digits.is_empty() {
            0
        } else if self.negative {
            -1
        } else {
            1
        }
    }

    /// Whether this is zero (at any scale).
    pub fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    /// `scale()`.
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// `precision()`: the number of digits of the unscaled value (zero has precision 1).
    pub fn precision(&self) -> i32 {
        i32::try_from(self.digits.len().max(1)).unwrap_or(i32::MAX)
    }

    /// The unscaled value's digits, most significant first (empty for zero).
    pub fn unscaled_digits(&self) -> &[u8] {
        &self.digits
    }

    /// Whether this is below zero.
    pub fn is_negative(&self) -> bool {
        self.negative
    }

    /// The value as the `Bytes`-layer [`BigDecimal`] (unscaled big integer and scale).
    pub fn to_big_decimal(&self) -> BigDecimal {
        let text: String = self.digits.iter().map(|&d| char::from(b'0' + d)).collect();
        let mag = BigInt::parse_decimal(&text).unwrap_or_else(BigInt::zero);
        BigDecimal::new(if self.negative { mag.neg() } else { mag }, self.scale)
    }

    /// A value from the `Bytes`-layer [`BigDecimal`].
    pub fn from_big_decimal(v: &BigDecimal) -> Decimal {
        from_bigint(&v.unscaled, v.scale)
    }

    /// Java's `BigDecimal.toString()` (`123.45`, `1E+3`, `-7.9E-13`, `0.00`): plain notation
    /// when the scale is not negative and the adjusted exponent is at least −6, else scientific.
    pub fn to_java_string(&self) -> String {
        let coeff: String = if self.digits.is_empty() {
            "0".into()
        } else {
            self.digits
                .iter()
                .map(|&d| char::from(b'0' + d % 10))
                .collect()
        };
        crate::hbase::bytes::java_decimal_text(self.negative, &coeff, self.scale)
    }

    /// `round(new MathContext(precision, HALF_UP))`: keep `precision` significant digits,
    /// a dropped part of one half or more rounding away from zero. The scale drops by the
    /// digits removed; past the `int` range that is `Arithmetic`, as in Java.
    pub fn round_half_up(&self, precision: i32) -> Result<Decimal> {
        let mut d = self.clone();
        let keep = usize::try_from(precision.max(1)).unwrap_or(1);
        while d.digits.len() > keep {
            let drop = d.digits.len() - keep;
            d.scale = to_scale(i64::from(d.scale) - drop as i64)?;
            let round_up = d.digits.get(keep).is_some_and(|&x| x >= 5);
            d.digits.truncate(keep);
            if round_up {
                increment(&mut d.digits);
            }
        }
        Ok(d)
    }

    /// `stripTrailingZeros()`: zero becomes `0` (scale 0); otherwise trailing zero digits are
    /// removed, lowering the scale (`Arithmetic` if it leaves the `int` range).
    pub fn strip_trailing_zeros(&self) -> Result<Decimal> {
        if self.is_zero() {
            return Ok(Decimal::zero());
        }
        let zeros = self.digits.iter().rev().take_while(|&&x| x == 0).count();
        let mut d = self.clone();
        d.digits.truncate(d.digits.len() - zeros);
        d.scale = to_scale(i64::from(self.scale) - zeros as i64)?;
        Ok(d)
    }

    /// `NumberUtil.normalize`: round to 38 digits (HALF_UP), then strip trailing zeros —
    /// what every DECIMAL goes through before it is encoded.
    pub fn normalize(&self) -> Result<Decimal> {
        self.round_half_up(MAX_PRECISION)?.strip_trailing_zeros()
    }

    /// `setScale(newScale, ROUND_DOWN)`: fraction digits past `new_scale` are cut (toward
    /// zero); a larger scale appends zeros (refused past [`MAX_DIGITS`] digits as `Limit`).
    pub fn set_scale_round_down(&self, new_scale: i32) -> Result<Decimal> {
        let diff = i64::from(new_scale) - i64::from(self.scale);
        let mut d = self.clone();
        d.scale = new_scale;
        if diff >= 0 || self.is_zero() {
            if !self.is_zero() {
                let grow = usize::try_from(diff).unwrap_or(usize::MAX);
                if grow > MAX_DIGITS.saturating_sub(d.digits.len()) {
                    return Err(Error::new(
                        ErrorKind::Limit,
                        format!("rescaling {self} to scale {new_scale} needs more than {MAX_DIGITS} digits"),
                    ));
                }
                d.digits.resize(d.digits.len() + grow, 0);
            }
            return Ok(d);
        }
        let drop = usize::try_from(-diff).unwrap_or(usize::MAX);
        if drop >= d.digits.len() {
            return Ok(Decimal::from_parts(false, Vec::new(), new_scale));
        }
        d.digits.truncate(d.digits.len() - drop);
        Ok(d)
    }

    /// `PDecimal.toBytes(Object)`: the ascending row-key bytes of this value (normalized
    /// first; 1 to 21 bytes).
    pub fn to_phoenix_bytes(&self) -> Result<Vec<u8>> {
        encode(&self.normalize()?)
    }

    /// `Decimal::from_i64(v).to_phoenix_bytes()` appended to `out`, without building the
    /// value: a whole number's digits with its trailing zeros dropped into the scale (what
    /// `normalize` leaves; 19 digits never round). What an index writes for each row's
    /// nullable number, date or time (a `DECIMAL` there).
    pub fn write_i64_phoenix_bytes(v: i64, out: &mut Vec<u8>) -> Result<()> {
        let mut buf = [0u8; 20];
        let mut n = v.unsigned_abs();
        let mut start = buf.len();
        while n > 0 {
            start -= 1;
            if let Some(d) = buf.get_mut(start) {
                *d = (n % 10) as u8;
            }
            n /= 10;
        }
        let digits = buf.get(start..).unwrap_or_default();
        let zeros = digits.iter().rev().take_while(|&&d| d == 0).count();
        let digits = digits.get(..digits.len() - zeros).unwrap_or_default();
        let scale = -i32::try_from(zeros).unwrap_or(0);
        bytes::encode_into(v < 0, digits, scale, out)
    }

    /// `PDataType.toBigDecimal(bytes, 0, length)`: the value of ascending DECIMAL bytes. Any
    /// bytes decode, as in Java (bytes that are not a DECIMAL give some number); Java's
    /// `ArrayIndexOutOfBoundsException` on a cut value is `IndexOutOfBounds`.
    pub fn from_phoenix_bytes(b: &[u8]) -> Result<Decimal> {
        decode(b)
    }
}

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_java_string())
    }
}

/// The exponent of `new BigDecimal(String)` (`BigDecimal.parseExp`): the text after `e`.
fn parse_exponent(s: &str, t: &[u8]) -> Result<i64> {
    let (negative, t) = match t.first() {
        Some(b'-') => (true, t.get(1..).unwrap_or_default()),
        Some(b'+') => (false, t.get(1..).unwrap_or_default()),
        _ => (false, t),
    };
    if t.is_empty() {
        return Err(nfe(s, "no exponent digits"));
    }
    // Leading zeros are skipped only while more than 10 characters remain (as Java does).
    let mut rest = t;
    while rest.len() > 10 && rest.first() == Some(&b'0') {
        rest = rest.get(1..).unwrap_or_default();
    }
    if rest.len() > 10 {
        return Err(nfe(s, "too many nonzero exponent digits"));
    }
    let mut exp = 0i64;
    for &c in rest {
        if !c.is_ascii_digit() {
            return Err(nfe(s, "an exponent digit that is not a digit"));
        }
        exp = exp * 10 + i64::from(c - b'0');
    }
    Ok(if negative { -exp } else { exp })
}

/// Add one to a magnitude's digits (a carry out of the top digit adds a digit).
fn increment(digits: &mut Vec<u8>) {
    for d in digits.iter_mut().rev() {
        if *d == 9 {
            *d = 0;
        } else {
            *d += 1;
            return;
        }
    }
    digits.insert(0, 1);
}

fn from_bigint(v: &BigInt, scale: i32) -> Decimal {
    let text = v.abs().to_string();
    Decimal::from_parts(
        v.is_negative(),
        text.bytes().map(|b| b.wrapping_sub(b'0')).collect(),
        scale,
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
