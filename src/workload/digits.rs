//! Writing sampled values into a [`ValueSlot`]: integers and doubles as the field's kind,
//! and the zero-padded decimal digits of phone numbers (a table natively, a loop in the
//! `lean` wasm). Hot per-record helpers, separate from the generators that call them.

use super::{FieldValue, Out, ValueSlot};
use crate::keyspec::value::DIGIT_PAIRS;

pub(super) fn put_int<V: ValueSlot>(out: Out, x: i64, v: &mut V) {
    match out {
        Out::Long => v.put_long(x),
        Out::Double => v.put_double(x as f64),
        Out::Str => {
            use std::fmt::Write;
            let s = v.put_text();
            let _ = write!(s, "{x}");
        }
        Out::Bool => v.put_bool(x != 0),
    }
}

pub(super) fn put_double<V: ValueSlot>(out: Out, x: f64, v: &mut V) {
    match out {
        Out::Double => v.put_double(x),
        Out::Long => v.put_long(x as i64),
        // Java's `String.valueOf(double)`, the text a Java writer would build.
        Out::Str => v
            .put_text()
            .push_str(&crate::hbase::bytes::java_double_to_string(x)),
        Out::Bool => v.put_bool(x != 0.0),
    }
}

/// Append `x` as exactly `width` decimal digits (zero-padded; `width` <= 20 and `x < 10^width`).
/// Natively, up to 12 digits come four at a time from [`DIGITS4`], text already: no UTF-8
/// check per record (`from_utf8` and the digit loop were 12 % of the telecom analysis; the
/// table took 6 % off it). The `lean` (browser) wasm keeps [`push_zero_padded_small`]: the
/// table is 40 kB.
#[cfg(not(lean))]
pub(super) fn push_zero_padded(s: &mut String, x: u64, width: u32) {
    let w = width as usize;
    if w > 12 || x >= 1_000_000_000_000 {
        return push_zero_padded_small(s, x, width);
    }
    // Up to three groups of four digits, as offsets into the table; four-digit slices are
    // copied as constant-size moves (a variable length calls `memcpy`), so the leading group
    // is only cut when it is shorter. (The fallback has four bytes too, so the length stays
    // a constant: with `""` it was a variable-length `memory.copy` in the wasm.)
    let (a, b, c) = (
        (x / 100_000_000) as usize * 4,
        (x / 10_000 % 10_000) as usize * 4,
        (x % 10_000) as usize * 4,
    );
    let four = |g: usize| DIGITS4.get(g..g + 4).unwrap_or("0000");
    let lead = |g: usize, n: usize| match n {
        4 => four(g),
        _ => DIGITS4.get(g + 4 - n..g + 4).unwrap_or(""),
    };
    match w {
        0 => {}
        1..=4 => s.push_str(lead(c, w)),
        5..=8 => {
            s.push_str(lead(b, w - 4));
            s.push_str(four(c));
        }
        _ => {
            s.push_str(lead(a, w - 8));
            s.push_str(four(b));
            s.push_str(four(c));
        }
    }
}

#[cfg(lean)]
pub(super) fn push_zero_padded(s: &mut String, x: u64, width: u32) {
    push_zero_padded_small(s, x, width);
}

/// "0000" to "9999" as one text, built at compile time.
#[cfg(not(lean))]
static DIGITS4: &str = {
    // Used once, by this initializer (the static below is the only copy).
    #[allow(clippy::large_const_arrays)]
    const BYTES: [u8; 40_000] = {
        let mut b = [0u8; 40_000];
        let mut i = 0;
        while i < 10_000 {
            b[i * 4] = b'0' + (i / 1000) as u8;
            b[i * 4 + 1] = b'0' + (i / 100 % 10) as u8;
            b[i * 4 + 2] = b'0' + (i / 10 % 10) as u8;
            b[i * 4 + 3] = b'0' + (i % 10) as u8;
            i += 1;
        }
        b
    };
    match std::str::from_utf8(&BYTES) {
        Ok(t) => t,
        Err(_) => "",
    }
};

/// [`push_zero_padded`] without a table.
#[cfg_attr(not(lean), allow(dead_code))]
pub(super) fn push_zero_padded_small(s: &mut String, x: u64, width: u32) {
    let mut buf = [b'0'; 20];
    let width = (width as usize).min(buf.len());
    let digits = buf.get_mut(..width).unwrap_or(&mut []);
    fill_digits(digits, x);
    // ASCII digits: appended in one copy (a `char` iterator pushed them one by one, 11 % of
    // the telecom analysis).
    if let Ok(t) = std::str::from_utf8(digits) {
        s.push_str(t);
    }
}

/// Write the last `buf.len()` decimal digits of `x` into `buf`, four at a time (two
/// independent pairs per step instead of one dependent division per digit).
fn fill_digits(buf: &mut [u8], mut x: u64) {
    let mut end = buf.len();
    while end >= 4 {
        let c = (x % 10_000) as usize;
        x /= 10_000;
        let (hi, lo) = (c / 100 * 2, c % 100 * 2);
        if let (Some(dst), Some(h), Some(l)) = (
            buf.get_mut(end - 4..end),
            DIGIT_PAIRS.get(hi..hi + 2),
            DIGIT_PAIRS.get(lo..lo + 2),
        ) {
            dst[..2].copy_from_slice(h);
            dst[2..].copy_from_slice(l);
        }
        end -= 4;
    }
    while end > 0 {
        end -= 1;
        if let Some(d) = buf.get_mut(end) {
            *d = b'0' + (x % 10) as u8;
        }
        x /= 10;
    }
}

/// `*dst = src.clone()`, reusing `dst`'s string buffer.
pub(super) fn clone_into<V: ValueSlot>(src: &FieldValue, dst: &mut V) {
    dst.put_value(src);
}
