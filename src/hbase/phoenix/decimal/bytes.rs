//! The DECIMAL byte codec: a [`Decimal`] to and from the bytes Phoenix stores
//! (`PDataType.toBytes` / `toBigDecimal`), the precision and scale read from those bytes, and
//! the UPSERT-time coercion to a `DECIMAL(p, s)` column. The value's own arithmetic (parsing,
//! rounding, scales) is the parent module's.

use super::super::{data_exceeds, index_oob, PhoenixType, SortOrder};
use super::{Decimal, MAX_BIG_DECIMAL_BYTES};
use crate::error::Result;

pub(super) const ZERO_BYTE: u8 = 0x80;
const NEG_TERMINAL_BYTE: u8 = 102;
const EXP_BYTE_OFFSET: i32 = 65;
const POS_DIGIT_OFFSET: i32 = 1;
const NEG_DIGIT_OFFSET: i32 = 101;

/// A byte as Java sees it: signed, widened to `int`.
fn jbyte(b: u8) -> i32 {
    i32::from(b as i8)
}

/// `PDataType.toBytes(BigDecimal v, byte[] result, 0, length)` over a normalized value.
pub(super) fn encode(v: &Decimal) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    encode_into(v.negative, &v.digits, v.scale, &mut out)?;
    Ok(out)
}

/// [`encode`] of the normalized value whose unscaled digits are `digits` (most significant
/// first, none for zero) at `scale`, appended to `out` (what [`Decimal::write_i64_phoenix_bytes`]
/// writes a whole number with, without building a [`Decimal`]).
pub(super) fn encode_into(
    negative: bool,
    digits: &[u8],
    scale: i32,
    out: &mut Vec<u8>,
) -> Result<()> {
    if digits.is_empty() {
        out.push(ZERO_BYTE);
        return Ok(());
    }
    let precision = i32::try_from(digits.len()).unwrap_or(i32::MAX);
    let odd = i32::from(scale % 2 != 0);
    // PDecimal.getLength: exponent byte, terminal byte if negative, one byte per two digits.
    let mut length = if negative { 2 } else { 1 } + (precision.saturating_add(1 + odd)) / 2;
    let size = usize::try_from(length)
        .unwrap_or(0)
        .min(MAX_BIG_DECIMAL_BYTES);
    let at = out.len();
    out.resize(at + size, 0);
    let result = out.get_mut(at..).unwrap_or_default();
    let exp_offset = (scale % 2) * if scale < 0 { -1 } else { 1 };
    let mut index = length;
    let digit_offset = if negative {
        // Scale adjustment shouldn't include the terminal byte in the length.
        let s = scale.wrapping_sub((length - 3).wrapping_mul(2));
        let e = s.wrapping_add(exp_offset).wrapping_neg() / 2 + EXP_BYTE_OFFSET + 128;
        put(result, 0, (!e & 0x7f) as u8)?;
        if size == usize::try_from(length).unwrap_or(0) {
            index -= 1;
            put(result, index, NEG_TERMINAL_BYTE)?;
        } else {
            // No room for the terminal byte: Phoenix drops it.
            length = MAX_BIG_DECIMAL_BYTES as i32;
            index = length;
        }
        NEG_DIGIT_OFFSET
    } else {
        let s = scale.wrapping_sub((length - 2).wrapping_mul(2));
        let e = s.wrapping_add(exp_offset).wrapping_neg() / 2 + EXP_BYTE_OFFSET;
        put(result, 0, (e | 0x80) as u8)?;
        POS_DIGIT_OFFSET
    };
    // Base-100 digits from the least significant end; with an odd scale the lowest digit is
    // alone and multiplied by 10.
    let mut rev = digits.iter().rev().map(|&d| i32::from(d)).peekable();
    let mut first = exp_offset != 0;
    while rev.peek().is_some() {
        let pair = if first {
            first = false;
            rev.next().unwrap_or(0) * 10
        } else {
            let lo = rev.next().unwrap_or(0);
            lo + 10 * rev.next().unwrap_or(0)
        };
        let byte = if negative {
            digit_offset - pair
        } else {
            pair + digit_offset
        };
        index -= 1;
        put(result, index, byte as u8)?;
    }
    Ok(())
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
pub(super) fn at(b: &[u8], index: i64, so: SortOrder, what: &str) -> Result<i32> {
    usize::try_from(index)
        .ok()
        .and_then(|i| b.get(i))
        .map(|&x| jbyte(so.normalize(x)))
        .ok_or_else(|| index_oob(index, b.len(), what))
}

/// The sign, scale (from the exponent byte), end index and digit offset of DECIMAL bytes, the
/// common start of `toBigDecimal` and `getDecimalPrecisionAndScale`.
pub(super) fn header(b: &[u8], so: SortOrder, what: &str) -> Result<(i32, i32, i64, i32)> {
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
pub(super) fn decode(b: &[u8]) -> Result<Decimal> {
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
                PhoenixType::Decimal,
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
