//! Bucket numbers as key bytes and back: how wide a `Render` (`as=byte`, `dec(2)`,
//! `hex(4)`, `bytes(2)`, ...) is, writing a number in it, and reading one back. Salts,
//! buckets, dictionaries and reverse timestamps all render this way, and the decoder, the
//! scan planner and `KeySpec` validation use it too, so it is kept apart from compiling.

use crate::error::{Error, ErrorKind, Result};
use crate::hbase::bytes;
use crate::hbase::salt::opentsdb;
use crate::keyspec::ast::Render;
use crate::keyspec::{format, value};

/// Where the buckets of a key's first segment start, when it is a salt or a random bucket:
/// each bucket `1..` written as the segment writes it. A region cut keeps each bucket whole
/// at these keys (what a `saltBuckets` pre-split splits at for a byte or decimal salt).
/// Empty for any other segment, and for a render whose buckets do not sort in their order
/// (`bytes(5..8)` repeats bytes).
pub fn bucket_bounds(first: Option<&crate::keyspec::Segment>) -> Vec<Vec<u8>> {
    use crate::keyspec::Segment;
    let (buckets, r) = match first {
        Some(Segment::Salt(s)) => (s.buckets, &s.render),
        Some(Segment::Random(x)) => (x.buckets, &x.render),
        _ => return Vec::new(),
    };
    let mut out: Vec<Vec<u8>> = Vec::new();
    let mut first = Vec::new();
    if render(r, 0, &mut first).is_err() {
        return Vec::new();
    }
    for b in 1..i64::from(buckets) {
        let mut k = Vec::new();
        if render(r, b, &mut k).is_err() {
            return Vec::new();
        }
        // each bucket's keys lie between its start and the next one's only when the starts
        // are fixed-width and ascending
        if k.len() != first.len() || k <= *out.last().unwrap_or(&first) {
            return Vec::new();
        }
        out.push(k);
    }
    out
}

pub(crate) fn render_width(r: &Render) -> usize {
    match r {
        Render::Byte | Render::Letter => 1,
        Render::Short => 2,
        Render::Int => 4,
        Render::Long => 8,
        Render::Dec(w) | Render::Hex(w) | Render::HexUpper(w) | Render::Bytes(w) => *w as usize,
    }
}

/// Write `v` as `r`. Java casts keep the low bits; decimal and hex must fit their width.
pub(crate) fn render(r: &Render, v: i64, out: &mut Vec<u8>) -> Result<()> {
    match r {
        Render::Byte => out.push(v as u8),
        Render::Letter => match u8::try_from(v) {
            Ok(n) if n < 26 => out.push(b'a' + n),
            _ => {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!("{v} has no letter: `as=letter` writes 0..25 as a..z"),
                ))
            }
        },
        Render::Short => out.extend_from_slice(&bytes::to_bytes_short(v as i16)),
        Render::Int => out.extend_from_slice(&bytes::to_bytes_int(v as i32)),
        Render::Long => out.extend_from_slice(&bytes::to_bytes_long(v)),
        // `dec(2)` salts: two digits from a constant-size copy.
        Render::Dec(w) if *w >= 2 && (0..100).contains(&v) => {
            out.extend(std::iter::repeat(b'0').take(*w as usize - 2));
            out.extend_from_slice(&[b'0' + (v / 10) as u8, b'0' + (v % 10) as u8]);
        }
        Render::Dec(w) | Render::Hex(w) | Render::HexUpper(w) => {
            let w = *w as usize;
            // Fast path without allocating: a non-negative number whose digits fit the width.
            let mut buf = [0u8; 20];
            let digits: &[u8] = match r {
                Render::Dec(_) if v >= 0 => value::digits(v as u64, &mut buf),
                Render::Dec(_) => &[],
                Render::Hex(_) => hex_digits(v as u64, b"0123456789abcdef", &mut buf),
                _ => hex_digits(v as u64, b"0123456789ABCDEF", &mut buf),
            };
            if !digits.is_empty() && digits.len() <= w {
                out.extend(std::iter::repeat(b'0').take(w - digits.len()));
                out.extend_from_slice(digits);
                return Ok(());
            }
            let s = match r {
                Render::Dec(_) if v < 0 => {
                    // String.format("%0Nd", v): the sign counts towards the width.
                    let digits = v.unsigned_abs().to_string();
                    format!("-{:0>width$}", digits, width = w.saturating_sub(1))
                }
                Render::Dec(_) => format!("{v:0w$}"),
                Render::Hex(_) => format!("{:0w$x}", v as u64),
                _ => format!("{:0w$X}", v as u64),
            };
            if s.len() > w {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!(
                        "{v} needs {} characters but {} has {w}: widen it, or the key's width and order break",
                        s.len(),
                        format::render_text(r)
                    ),
                ));
            }
            out.extend_from_slice(s.as_bytes());
        }
        Render::Bytes(w) => {
            let m = i32::try_from(v).map_err(|_| {
                Error::new(
                    ErrorKind::Invalid,
                    format!("{v} does not fit the 32-bit salt of bytes({w})"),
                )
            })?;
            out.extend_from_slice(&opentsdb::salt_bytes(m, *w as i32)?);
        }
    }
    Ok(())
}

/// The hex digits of `n` (at least one), without allocating.
fn hex_digits<'a>(mut n: u64, alphabet: &[u8; 16], buf: &'a mut [u8; 20]) -> &'a [u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        if let Some(slot) = buf.get_mut(i) {
            *slot = alphabet[(n & 15) as usize];
        }
        n >>= 4;
        if n == 0 || i == 0 {
            break;
        }
    }
    buf.get(i..).unwrap_or(&[])
}

/// Read back what [`render`] wrote (`b` has exactly the render width).
pub(crate) fn unrender(r: &Render, b: &[u8]) -> std::result::Result<i64, String> {
    let fixed = |n: usize| -> std::result::Result<[u8; 8], String> {
        let mut a = [0u8; 8];
        if b.len() != n {
            return Err(format!("expected {n} bytes, found {}", b.len()));
        }
        for (dst, src) in a.iter_mut().skip(8 - n).zip(b) {
            *dst = *src;
        }
        Ok(a)
    };
    Ok(match r {
        Render::Byte => i64::from(b.first().copied().ok_or("expected 1 byte")?),
        Render::Letter => match b.first() {
            Some(c @ b'a'..=b'z') => i64::from(c - b'a'),
            _ => {
                return Err(format!(
                    "expected a letter a..z, found `{}`",
                    bytes::to_string_binary(b)
                ))
            }
        },
        Render::Short => i64::from(i64::from_be_bytes(fixed(2)?) as i16),
        Render::Int => i64::from(i64::from_be_bytes(fixed(4)?) as i32),
        Render::Long => i64::from_be_bytes(fixed(8)?),
        Render::Dec(_) => {
            let s = std::str::from_utf8(b).map_err(|_| "expected decimal digits".to_string())?;
            if !s
                .bytes()
                .enumerate()
                .all(|(i, c)| c.is_ascii_digit() || (i == 0 && c == b'-'))
            {
                return Err(format!(
                    "expected decimal digits, found `{}`",
                    bytes::to_string_binary(b)
                ));
            }
            s.parse().map_err(|_| format!("`{s}` is not a number"))?
        }
        Render::Hex(_) | Render::HexUpper(_) => {
            let s = std::str::from_utf8(b).map_err(|_| "expected hex digits".to_string())?;
            u64::from_str_radix(s, 16).map_err(|_| {
                format!(
                    "expected hex digits, found `{}`",
                    bytes::to_string_binary(b)
                )
            })? as i64
        }
        Render::Bytes(w) => {
            let n = (*w as usize).min(4);
            let tail = b.get(b.len().saturating_sub(n)..).unwrap_or(&[]);
            let mut a = [0u8; 8];
            for (dst, src) in a.iter_mut().skip(8 - tail.len()).zip(tail) {
                *dst = *src;
            }
            i64::from(i64::from_be_bytes(a) as i32)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `dec(w)` fast path for 0..100 against `String.format("%0wd")` and its width check.
    #[test]
    fn dec_fast_path_matches_format() {
        for w in 0..6u32 {
            for v in -120i64..=120 {
                let mut out = b"x".to_vec();
                let r = render(&Render::Dec(w), v, &mut out);
                let s = if v < 0 {
                    format!(
                        "-{:0>width$}",
                        v.unsigned_abs(),
                        width = (w as usize).saturating_sub(1)
                    )
                } else {
                    format!("{v:0width$}", width = w as usize)
                };
                if s.len() > w as usize {
                    assert!(r.is_err(), "w={w} v={v}");
                } else {
                    assert!(r.is_ok(), "w={w} v={v}");
                    assert_eq!(out, [b"x".as_slice(), s.as_bytes()].concat(), "w={w} v={v}");
                }
            }
        }
    }
}
