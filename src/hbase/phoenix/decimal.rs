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

use super::{data_exceeds, index_oob, SortOrder};
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

const ZERO_BYTE: u8 = 0x80;
const NEG_TERMINAL_BYTE: u8 = 102;
const EXP_BYTE_OFFSET: i32 = 65;
const POS_DIGIT_OFFSET: i32 = 1;
const NEG_DIGIT_OFFSET: i32 = 101;

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

/// A byte as Java sees it: signed, widened to `int`.
fn jbyte(b: u8) -> i32 {
    i32::from(b as i8)
}

/// `PDataType.toBytes(BigDecimal v, byte[] result, 0, length)` over a normalized value.
fn encode(v: &Decimal) -> Result<Vec<u8>> {
    if v.is_zero() {
        return Ok(vec![ZERO_BYTE]);
    }
    let precision = v.precision();
    let scale = v.scale;
    let odd = i32::from(scale % 2 != 0);
    // PDecimal.getLength: exponent byte, terminal byte if negative, one byte per two digits.
    let mut length = if v.negative { 2 } else { 1 } + (precision.saturating_add(1 + odd)) / 2;
    let size = usize::try_from(length)
        .unwrap_or(0)
        .min(MAX_BIG_DECIMAL_BYTES);
    let mut result = vec![0u8; size];
    let exp_offset = (scale % 2) * if scale < 0 { -1 } else { 1 };
    let mut index = length;
    let digit_offset = if v.negative {
        // Scale adjustment shouldn't include the terminal byte in the length.
        let s = scale.wrapping_sub((length - 3).wrapping_mul(2));
        let e = s.wrapping_add(exp_offset).wrapping_neg() / 2 + EXP_BYTE_OFFSET + 128;
        put(&mut result, 0, (!e & 0x7f) as u8)?;
        if size == usize::try_from(length).unwrap_or(0) {
            index -= 1;
            put(&mut result, index, NEG_TERMINAL_BYTE)?;
        } else {
            // No room for the terminal byte: Phoenix drops it.
            length = MAX_BIG_DECIMAL_BYTES as i32;
            index = length;
        }
        NEG_DIGIT_OFFSET
    } else {
        let s = scale.wrapping_sub((length - 2).wrapping_mul(2));
        let e = s.wrapping_add(exp_offset).wrapping_neg() / 2 + EXP_BYTE_OFFSET;
        put(&mut result, 0, (e | 0x80) as u8)?;
        POS_DIGIT_OFFSET
    };
    // Base-100 digits from the least significant end; with an odd scale the lowest digit is
    // alone and multiplied by 10.
    let mut rev = v.digits.iter().rev().map(|&d| i32::from(d)).peekable();
    let mut first = exp_offset != 0;
    while rev.peek().is_some() {
        let pair = if first {
            first = false;
            rev.next().unwrap_or(0) * 10
        } else {
            let lo = rev.next().unwrap_or(0);
            lo + 10 * rev.next().unwrap_or(0)
        };
        let byte = if v.negative {
            digit_offset - pair
        } else {
            pair + digit_offset
        };
        index -= 1;
        put(&mut result, index, byte as u8)?;
    }
    Ok(result)
}

fn put(result: &mut [u8], index: i32, byte: u8) -> Result<()> {
    let len = result.len();
    usize::try_from(index)
        .ok()
        .and_then(|i| result.get_mut(i))
        .map(|slot| *slot = byte)
        .ok_or_else(|| index_oob(i64::from(index), len, "DECIMAL encoding"))
}

/// `bytes[index]` as a Java (signed) byte; out of range is `IndexOutOfBounds`.
fn at(b: &[u8], index: i64, so: SortOrder, what: &str) -> Result<i32> {
    usize::try_from(index)
        .ok()
        .and_then(|i| b.get(i))
        .map(|&x| jbyte(so.normalize(x)))
        .ok_or_else(|| index_oob(index, b.len(), what))
}

/// The sign, scale (from the exponent byte), end index and digit offset of DECIMAL bytes, the
/// common start of `toBigDecimal` and `getDecimalPrecisionAndScale`.
fn header(b: &[u8], so: SortOrder, what: &str) -> Result<(i32, i32, i64, i32)> {
    let len = b.len() as i64;
    let b0 = at(b, 0, so, what)?;
    if b0 & 0x80 == 0 {
        let scale = i32::from(((!b0 - EXP_BYTE_OFFSET - 128).wrapping_mul(-2)) as i8);
        let terminal = at(b, len - 1, so, what)? == i32::from(NEG_TERMINAL_BYTE);
        Ok((-1, scale, len - i64::from(terminal), -NEG_DIGIT_OFFSET))
    } else {
        let scale = i32::from((((b0 & 0x7f) - EXP_BYTE_OFFSET).wrapping_mul(-2)) as i8);
        Ok((1, scale, len, POS_DIGIT_OFFSET))
    }
}

/// `PDataType.toBigDecimal`: see [`Decimal::from_phoenix_bytes`].
fn decode(b: &[u8]) -> Result<Decimal> {
    const WHAT: &str = "DECIMAL bytes";
    if b == [ZERO_BYTE] {
        return Ok(Decimal::zero());
    }
    let (signum, mut scale, index, digit_offset) = header(b, SortOrder::Asc, WHAT)?;
    let length = index;
    // The lowest byte: a trailing zero digit is dropped into the scale.
    let mut low = i64::from(signum * at(b, index - 1, SortOrder::Asc, WHAT)? - digit_offset);
    let mut multiplier = 100u32;
    if low % 10 == 0 {
        scale = scale.wrapping_sub(1);
        low /= 10;
        multiplier = 10;
    }
    // total = low + multiplier × Σ digit_k × 100^k over bytes index-2 (k = 0) down to 1, done
    // in signed base-10 places with one carry pass (bytes that are not digits give digits out
    // of 0..=99, which the carries absorb), so any length decodes in linear time.
    let shift = if multiplier == 10 { 1 } else { 2 };
    let n = usize::try_from(index).unwrap_or(0);
    let mut places = vec![0i64; 2 * n + 2];
    if let Some(p) = places.first_mut() {
        *p = low;
    }
    for (k, i) in (1..index - 1).rev().enumerate() {
        let d = i64::from(signum * at(b, i, SortOrder::Asc, WHAT)? - digit_offset);
        if let Some(p) = places.get_mut(2 * k + shift) {
            *p += d;
        }
    }
    let (negative, digits) = carry(places);
    let negative = negative != (signum < 0);
    let adjust = i32::try_from(length - 2).unwrap_or(0).wrapping_mul(2);
    Ok(Decimal::from_parts(
        negative,
        digits,
        scale.wrapping_add(adjust),
    ))
}

/// Signed base-10 places (least significant first) to a sign and digits (most significant
/// first): one carry pass; a negative total is negated and carried again.
fn carry(places: Vec<i64>) -> (bool, Vec<u8>) {
    let pass = |mut places: Vec<i64>| -> (Vec<i64>, i64) {
        let mut c = 0i64;
        for p in &mut places {
            let v = *p + c;
            *p = v.rem_euclid(10);
            c = v.div_euclid(10);
        }
        (places, c)
    };
    let (mut places, mut c, negative) = match pass(places.clone()) {
        (_, c) if c < 0 => {
            let (p, c) = pass(places.into_iter().map(|x| -x).collect());
            (p, c, true)
        }
        (p, c) => (p, c, false),
    };
    while c > 0 {
        places.push(c % 10);
        c /= 10;
    }
    (
        negative,
        places.into_iter().rev().map(|d| d as u8).collect(),
    )
}

/// `PDataType.getDecimalPrecisionAndScale(bytes, 0, length, sortOrder)`: the precision and
/// scale Phoenix reads off stored DECIMAL bytes without decoding them. It trusts `so`: bytes
/// written in the other order (Phoenix's rescaled DESC values) give odd answers or, for a
/// one-byte value, `IndexOutOfBounds` — all as in Phoenix.
pub fn precision_and_scale(b: &[u8], so: SortOrder) -> Result<(i32, i32)> {
    const WHAT: &str = "DECIMAL precision and scale";
    if b.len() == 1 && b.first().map(|&x| so.normalize(x)) == Some(ZERO_BYTE) {
        return Ok((0, 0));
    }
    let (signum, mut scale, index, digit_offset) = header(b, so, WHAT)?;
    let length = i32::try_from(index).unwrap_or(i32::MAX);
    let mut precision = (length - 1).wrapping_mul(2);
    let d = signum * at(b, index - 1, so, WHAT)? - digit_offset;
    if d % 10 == 0 {
        scale = scale.wrapping_sub(1);
        precision -= 1;
    }
    let d = signum * at(b, 1, so, WHAT)? - digit_offset;
    if d < 10 {
        precision -= 1;
    }
    scale = scale.wrapping_add((length - 2).wrapping_mul(2));
    if scale < 0 {
        precision = precision.wrapping_sub(scale);
        scale = 0;
    }
    Ok((precision, scale))
}

/// `PDecimal.toBytes(value, sortOrder)`: `None` (Java `null`) is the empty array.
pub fn to_bytes(value: Option<&Decimal>, so: SortOrder) -> Result<Vec<u8>> {
    match value {
        None => Ok(Vec::new()),
        Some(v) => Ok(so.apply(v.to_phoenix_bytes()?)),
    }
}

/// `PDecimal.toObject(bytes, sortOrder)`: `None` for empty bytes.
pub fn from_bytes(b: &[u8], so: SortOrder) -> Result<Option<Decimal>> {
    if b.is_empty() {
        return Ok(None);
    }
    decode(&so.apply(b.to_vec())).map(Some)
}

/// What a `DECIMAL(precision, scale)` column named `column` with sort order `so` receives from
/// `UPSERT ... VALUES (value)`: Phoenix encodes the literal in the column's order, reads it back
/// (normalized), checks that its integer digits fit `precision - scale`
/// (`DataExceedsCapacity`, e.g. "value 1234.5 exceeds DECIMAL(5,2)"), and cuts extra fraction
/// digits (rounding DOWN), re-encoding those values in ascending order even for a DESC column.
/// Either bound may be `None` (no check, no rescale).
pub fn coerce(
    value: &Decimal,
    precision: Option<i32>,
    scale: Option<i32>,
    so: SortOrder,
    column: &str,
) -> Result<Vec<u8>> {
    let bytes = so.apply(value.to_phoenix_bytes()?);
    let Some(read) = from_bytes(&bytes, so)? else {
        return Ok(bytes);
    };
    if let (Some(p), Some(s)) = (precision, scale) {
        if p.wrapping_sub(s) < read.precision().wrapping_sub(read.scale()) {
            let what = format!("value {value}");
            return Err(data_exceeds(
                column,
                super::PhoenixType::Decimal,
                precision,
                scale,
                &what,
            ));
        }
    }
    match scale {
        Some(s) if read.scale() > s => read.set_scale_round_down(s)?.to_phoenix_bytes(),
        _ => Ok(bytes),
    }
}

/// `PDecimal.isSizeCompatible(key, null, DECIMAL, so, null, null, precision, scale)` as
/// `PTableImpl.newKey` calls it on a column's stored bytes: it re-derives the scale from the
/// bytes (trusting `so`), rescales ascending-decoded bytes if needed, and compares integer
/// digits. Returns whether the bytes fit; errors are Phoenix's (`IndexOutOfBounds` on a
/// one-byte rescaled DESC value).
pub fn key_bytes_fit(
    bytes: &[u8],
    precision: Option<i32>,
    scale: Option<i32>,
    so: SortOrder,
) -> Result<bool> {
    if bytes.is_empty() {
        return Ok(true);
    }
    let mut b = bytes.to_vec();
    // PDecimal.coerceBytes(ptr, null, DECIMAL, null, null, so, precision, scale, so).
    if let Some(s) = scale {
        let (_, actual_scale) = precision_and_scale(&b, so)?;
        if actual_scale > s {
            // `toObject(ptr)` decodes in the default (ascending) order, whatever `so` is.
            b = decode(&b)?.set_scale_round_down(s)?.to_phoenix_bytes()?;
        }
    }
    let (p, s) = precision_and_scale(&b, so)?;
    Ok(match (precision, scale) {
        (Some(dp), Some(ds)) => dp.wrapping_sub(ds) >= p.wrapping_sub(s),
        _ => true,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    fn enc(s: &str) -> String {
        hex(&Decimal::parse(s).unwrap().to_phoenix_bytes().unwrap())
    }

    #[test]
    fn parse_keeps_java_scale() {
        let d = Decimal::parse("1.00").unwrap();
        assert_eq!((d.unscaled_digits(), d.scale()), (&[1u8, 0, 0][..], 2));
        let d = Decimal::parse("-1.5E+3").unwrap();
        assert_eq!(
            (d.signum(), d.scale(), d.to_java_string()),
            (-1, -2, "-1.5E+3".into())
        );
        assert_eq!(Decimal::parse("0E-10").unwrap().to_java_string(), "0E-10");
        for t in [
            "0.00", "123.45", "1E+3", "-7.9E-13", "0.000001", "1E-7", "-0.5", "12", "0",
        ] {
            let d = Decimal::parse(t).unwrap();
            assert_eq!(d.to_java_string(), t);
            assert_eq!(d.to_java_string(), d.to_big_decimal().to_java_string());
        }
        for bad in [
            "",
            "-",
            "1..2",
            "1e",
            "1e+",
            "x",
            "1E99999999999",
            "1E-2147483649",
        ] {
            let e = Decimal::parse(bad).unwrap_err();
            assert_eq!(e.kind, ErrorKind::NumberFormat, "{bad}");
        }
        assert_eq!(Decimal::parse("1E00000000000005").unwrap().scale(), -5);
    }

    #[test]
    fn encodes_like_phoenix() {
        assert_eq!(enc("1.234"), "c1021829");
        assert_eq!(enc("1E+200"), "a502");
        assert_eq!(enc("0"), "80");
        assert_eq!(enc("-1.5"), "3e643366");
        assert_eq!(enc("9.9E+125"), "ff64");
        assert_eq!(enc("1E-128"), "8102");
    }

    #[test]
    fn round_trips_through_bytes() {
        for s in [
            "1.234",
            "-1.5",
            "123456789012345678901234567890",
            "-0.0001",
            "1E+10",
            "7",
        ] {
            let d = Decimal::parse(s).unwrap();
            let back = Decimal::from_phoenix_bytes(&d.to_phoenix_bytes().unwrap()).unwrap();
            assert_eq!(back.normalize().unwrap(), d.normalize().unwrap(), "{s}");
        }
    }

    #[test]
    fn rounds_half_up_and_carries() {
        let d = Decimal::parse(&"9".repeat(39))
            .unwrap()
            .normalize()
            .unwrap();
        assert_eq!(d.to_java_string(), "1E+39");
        let d = Decimal::parse("-1.25").unwrap().round_half_up(2).unwrap();
        assert_eq!(d.to_java_string(), "-1.3");
    }

    #[test]
    fn coerce_checks_capacity_and_cuts_fraction() {
        let so = SortOrder::Desc;
        let v = Decimal::parse("1.234").unwrap();
        assert_eq!(
            hex(&coerce(&v, Some(5), Some(2), so, "D").unwrap()),
            "c10218"
        );
        let v = Decimal::parse("1.2").unwrap();
        assert_eq!(
            hex(&coerce(&v, Some(5), Some(2), so, "D").unwrap()),
            "3efdea"
        );
        let e = coerce(
            &Decimal::parse("1234.5").unwrap(),
            Some(5),
            Some(2),
            so,
            "D",
        )
        .unwrap_err();
        assert_eq!(e.kind, ErrorKind::DataExceedsCapacity);
        assert_eq!(e.message, "value 1234.5 exceeds DECIMAL(5,2)");
    }

    /// `toBigDecimal` as Java computes it, with big-integer arithmetic: the reference for the
    /// linear carry pass in `decode`.
    fn reference_decode(b: &[u8]) -> Option<Decimal> {
        if b == [ZERO_BYTE] {
            return Some(Decimal::zero());
        }
        let (signum, mut scale, index, off) = header(b, SortOrder::Asc, "").ok()?;
        let at = |i: i64| at(b, i, SortOrder::Asc, "").ok();
        let mut l = i64::from(signum * at(index - 1)? - off);
        let mut mult = BigInt::from(100);
        if l % 10 == 0 {
            scale -= 1;
            l /= 10;
            mult = BigInt::from(10);
        }
        let mut total = BigInt::from(l);
        let mut i = index - 2;
        while i >= 1 {
            let d = i64::from(signum * at(i)? - off);
            let term = mult.abs().mul_small(u32::try_from(d.unsigned_abs()).ok()?);
            total = total.add(&if d < 0 { term.neg() } else { term });
            mult = mult.mul_small(100);
            i -= 1;
        }
        if signum < 0 {
            total = total.neg();
        }
        let adjust = i32::try_from(index - 2).ok()?.wrapping_mul(2);
        Some(from_bigint(&total, scale.wrapping_add(adjust)))
    }

    #[test]
    fn linear_decode_matches_big_integer_arithmetic() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut decoded = 0;
        for n in 0..4000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = 1 + (x % 30) as usize;
            let b: Vec<u8> = (0..len)
                .map(|i| (x >> (i % 8 * 8)) as u8 ^ (i as u8).wrapping_mul(37))
                .collect();
            let b = if n % 3 == 0 { enc_valid(n) } else { b };
            let got = decode(&b).ok();
            decoded += usize::from(got.is_some());
            assert_eq!(got, reference_decode(&b), "{}", hex(&b));
        }
        assert!(decoded > 3000, "only {decoded} of 4000 decoded");
    }

    fn enc_valid(n: usize) -> Vec<u8> {
        let s = format!("-{}.{}E{}", n * 7919 + 1, n % 1000, (n % 300) as i64 - 150);
        Decimal::parse(&s).unwrap().to_phoenix_bytes().unwrap()
    }

    #[test]
    fn garbage_bytes_never_panic() {
        for b in [
            &[][..],
            &[0x66],
            &[0x00],
            &[0xff, 0x00],
            &[0x3e, 0x66],
            &[0x7f],
        ] {
            let _ = Decimal::from_phoenix_bytes(b);
            let _ = precision_and_scale(b, SortOrder::Asc);
            let _ = precision_and_scale(b, SortOrder::Desc);
            let _ = key_bytes_fit(b, Some(5), Some(2), SortOrder::Desc);
        }
        let e = precision_and_scale(&[0x80], SortOrder::Desc).unwrap_err();
        assert_eq!(e.kind, ErrorKind::IndexOutOfBounds);
    }
}
