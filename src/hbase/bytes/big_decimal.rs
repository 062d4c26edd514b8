//! Java's `BigDecimal` as `Bytes` stores it: the (unscaled, scale) pair, its encoder and
//! decoder, and `BigDecimal.toString`.

use std::fmt;

use super::{first, SIZEOF_INT};
use crate::hbase::bigint::BigInt;

/// A Java `java.math.BigDecimal`: value = `unscaled` × 10^(−`scale`). Kept as the pair Java
/// stores, because `Bytes.toBytes(BigDecimal)` serialises exactly that pair (so `1E+3` and
/// `1000` encode differently).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BigDecimal {
    /// The unscaled integer value.
    pub unscaled: BigInt,
    /// The scale: the number of digits after the decimal point (negative = trailing zeros).
    pub scale: i32,
}

impl BigDecimal {
    /// A BigDecimal from its unscaled value and scale.
    pub fn new(unscaled: BigInt, scale: i32) -> Self {
        BigDecimal { unscaled, scale }
    }

    /// Java's `BigDecimal.toString()` (scientific notation when the scale is negative or the
    /// adjusted exponent is below −6), e.g. `123.123`, `1E+3`, `-7.9E-13`, `0.00`.
    pub fn to_java_string(&self) -> String {
        java_decimal_text(
            self.unscaled.is_negative(),
            &self.unscaled.abs().to_string(),
            self.scale,
        )
    }
}

/// `BigDecimal.toString()` of the decimal digits `coeff` (the unscaled magnitude) at `scale`:
/// plain notation when the scale is not negative and the adjusted exponent is at least −6,
/// else scientific. Shared by HBase's `BigDecimal` and Phoenix's `DECIMAL`.
pub(crate) fn java_decimal_text(negative: bool, coeff: &str, scale: i32) -> String {
    let clen = coeff.len() as i64;
    let scale = i64::from(scale);
    let adjusted = -scale + (clen - 1);
    let mut out = String::with_capacity(coeff.len() + 16);
    if negative {
        out.push('-');
    }
    if scale >= 0 && adjusted >= -6 {
        let pad = scale - clen;
        if scale == 0 {
            out.push_str(coeff);
        } else if pad >= 0 {
            out.push_str("0.");
            out.extend(std::iter::repeat('0').take(usize::try_from(pad).unwrap_or(0)));
            out.push_str(coeff);
        } else {
            // 0 < scale < clen here, so the split point is inside the ASCII digits.
            let cut = usize::try_from(clen - scale).unwrap_or(0);
            let (int_part, frac_part) = coeff.split_at_checked(cut).unwrap_or((coeff, ""));
            out.push_str(int_part);
            out.push('.');
            out.push_str(frac_part);
        }
    } else {
        let (first, rest) = coeff.split_at_checked(1).unwrap_or((coeff, ""));
        out.push_str(first);
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        if adjusted != 0 {
            out.push('E');
            if adjusted > 0 {
                out.push('+');
            }
            out.push_str(&adjusted.to_string());
        }
    }
    out
}

impl fmt::Display for BigDecimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_java_string())
    }
}

/// `Bytes.toBytes(BigDecimal)`: 4-byte big-endian scale, then the unscaled value in Java
/// `BigInteger.toByteArray` form (minimal two's complement, zero = `00`).
pub fn to_bytes_big_decimal(v: &BigDecimal) -> Vec<u8> {
    let mag = v.unscaled.to_signed_bytes_be();
    let mut out = Vec::with_capacity(4 + mag.len().max(1));
    out.extend_from_slice(&v.scale.to_be_bytes());
    if mag.is_empty() {
        out.push(0);
    } else {
        out.extend_from_slice(&mag);
    }
    out
}

/// `Bytes.toBigDecimal(byte[])`: `None` (Java `null`) when shorter than 5 bytes, else the
/// scale from the first 4 bytes and the unscaled value from the rest (two's complement).
pub fn to_big_decimal(b: &[u8]) -> Option<BigDecimal> {
    if b.len() < SIZEOF_INT + 1 {
        return None;
    }
    let scale = i32::from_be_bytes(first::<4>(b).ok()?);
    let unscaled = BigInt::from_signed_bytes_be(b.get(SIZEOF_INT..)?);
    Some(BigDecimal { unscaled, scale })
}
