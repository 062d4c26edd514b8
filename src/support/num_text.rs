//! Decimal text of numbers without core's float and 128-bit formatters: floats from zmij's
//! shortest digits, `i128` by a digit loop.
//!
//! Why not `format!("{x}")`: any `Display`, `Debug` or `{:e}` of a float (and `f64::clamp`,
//! whose assertion message prints its bounds with `Debug`) links core's float formatter, Grisu
//! and Dragon4 with both their shortest and exact paths, about 10 KB of the gzipped wasm.
//! zmij, which the JSON writer needs anyway, gives the same shortest round-trip digits, and it
//! breaks an exact tie towards the even digit as JDK 17's `Double.toString` does.

/// The shortest digits that read back as `v` (no leading or trailing zeros) and the decimal
/// exponent of the first one: 1234.5 gives `("12345", 3)`, 0.001 gives `("1", -3)`. An exact
/// tie goes to the even digit. Zero and non-finite values give `("0", 0)`.
pub(crate) fn shortest<F: zmij::Float>(v: F) -> (String, i32) {
    let mut buf = zmij::Buffer::new();
    let text = buf.format(v);
    let text = text.strip_prefix('-').unwrap_or(text);
    // zmij writes `123.45`, `1e21`, `1.5e-7`: a mantissa, then maybe an exponent.
    let (mantissa, exp) = match text.split_once('e') {
        Some((m, e)) => (m, e.parse::<i32>().unwrap_or(0)),
        None => (text, 0),
    };
    let int_len = mantissa.find('.').unwrap_or(mantissa.len());
    let mut digits = String::with_capacity(mantissa.len());
    let mut leading_zeros = 0;
    for c in mantissa.chars().filter(char::is_ascii_digit) {
        if digits.is_empty() && c == '0' {
            leading_zeros += 1;
        } else {
            digits.push(c);
        }
    }
    let kept = digits.trim_end_matches('0').len();
    digits.truncate(kept);
    if digits.is_empty() || !text.starts_with(|c: char| c.is_ascii_digit()) {
        return ("0".into(), 0);
    }
    let int_len = i32::try_from(int_len).unwrap_or(0);
    (digits, int_len - 1 - leading_zeros + exp)
}

/// What `format!("{x}")` writes (shortest digits, positional, no `.0` on whole numbers:
/// `1000000000`, `0.25`, `-0`, `NaN`, `inf`), for numbers in messages.
pub(crate) fn plain(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    let mut out = String::new();
    if x.is_sign_negative() {
        out.push('-');
    }
    if x.is_infinite() {
        out.push_str("inf");
        return out;
    }
    let (digits, exp) = shortest(x);
    push_positional(&mut out, &digits, exp, false);
    out
}

/// `digits` (the first at 10^`exp`) in positional notation: `0.00123`, `1230`, `12.3`; with
/// `point_zero`, a whole number gets `.0` as Java writes it (`1230.0`).
pub(crate) fn push_positional(out: &mut String, digits: &str, exp: i32, point_zero: bool) {
    if exp < 0 {
        out.push_str("0.");
        for _ in 0..(-1 - exp) {
            out.push('0');
        }
        out.push_str(digits);
        return;
    }
    let int_len = usize::try_from(exp).unwrap_or(0) + 1;
    let (int, frac) = digits.split_at_checked(int_len).unwrap_or((digits, ""));
    out.push_str(int);
    for _ in int.len()..int_len {
        out.push('0');
    }
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    } else if point_zero {
        out.push_str(".0");
    }
}

/// What `format!("{x:.decimals$}")` writes, for numbers in messages (`0.1235`, `12`, `-0.0`).
/// Rounds `x * 10^decimals` half away from zero, so it can differ from core's exact rounding
/// only for a value within an ulp of a tie, where the two roundings disagree by one in the last
/// place. Magnitudes of 10^17 and beyond, and non-finite values, are written as [`plain`].
pub(crate) fn fixed(x: f64, decimals: u8) -> String {
    let scaled = (x.abs() * 10f64.powi(i32::from(decimals))).round();
    if scaled.is_nan() || scaled >= 1e17 {
        return plain(x);
    }
    // Exact: a whole number below 10^17 fits in u64.
    let mut digits = (scaled as u64).to_string();
    let n = usize::from(decimals);
    while digits.len() <= n {
        digits.insert(0, '0');
    }
    if n > 0 {
        digits.insert(digits.len() - n, '.');
    }
    if x.is_sign_negative() {
        digits.insert(0, '-');
    }
    digits
}

/// `n` in decimal, as `n.to_string()` writes it. Core's `Display` for `i128` and its parser
/// (the key language's numbers are `i128`, so seeds up to `u64::MAX` fit) link a 128-bit
/// formatter and checked 128-bit multiplication, about 1 KB of the gzipped wasm.
/// A size in bytes as people read it, in binary units as HBase's sizes are configured
/// (`hbase.hregion.max.filesize` 10 GiB): `512 B`, `3.4 MiB`, `10 GiB`.
pub(crate) fn bytes_text(b: u64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut v = b as f64;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    let digits = if unit == 0 || (v - v.round()).abs() < 0.05 {
        0
    } else {
        1
    };
    format!(
        "{} {}",
        fixed(v, digits),
        UNITS.get(unit).copied().unwrap_or("B")
    )
}

pub(crate) fn int_text(n: i128) -> String {
    let mut m = n.unsigned_abs();
    let mut out = Vec::new();
    loop {
        out.push(b'0' + (m % 10) as u8);
        m /= 10;
        if m == 0 {
            break;
        }
    }
    if n < 0 {
        out.push(b'-');
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// The value of `digits` in `radix` (10 or 16, no sign, no separators); `None` when empty, when
/// a character is not a digit of the radix, or beyond `i128::MAX`.
pub(crate) fn parse_int(digits: &str, radix: u32) -> Option<i128> {
    if digits.is_empty() {
        return None;
    }
    let mut n: u128 = 0;
    for c in digits.chars() {
        let d = c.to_digit(radix)?;
        // n * radix + d stays below 2^128 (radix <= 16); a larger n is beyond i128 anyway.
        if n > u128::MAX >> 4 {
            return None;
        }
        n = n * u128::from(radix) + u128::from(d);
    }
    i128::try_from(n).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn int_text_and_parse_int_match_core() {
        for n in [
            0,
            7,
            -7,
            10,
            -100,
            i128::from(i64::MIN),
            i128::from(u64::MAX),
            i128::MAX,
            i128::MIN,
        ] {
            assert_eq!(int_text(n), n.to_string());
            assert_eq!(
                parse_int(&n.unsigned_abs().to_string(), 10).map(|m| m.unsigned_abs()),
                i128::try_from(n.unsigned_abs())
                    .ok()
                    .map(|m| m.unsigned_abs())
            );
        }
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(13);
        for _ in 0..10_000 {
            let n = (i128::from(rng.gen::<i64>()) << rng.gen_range(0..64)) >> 1;
            assert_eq!(int_text(n), n.to_string());
            let m = n.unsigned_abs();
            assert_eq!(parse_int(&m.to_string(), 10), i128::try_from(m).ok());
            assert_eq!(parse_int(&format!("{m:x}"), 16), i128::try_from(m).ok());
            assert_eq!(parse_int(&format!("{m:X}"), 16), i128::try_from(m).ok());
        }
        assert_eq!(parse_int("", 10), None);
        assert_eq!(parse_int("12a", 10), None);
        assert_eq!(parse_int("+5", 10), None);
        assert_eq!(parse_int("-5", 16), None);
        assert_eq!(parse_int("ff", 16), Some(255));
        assert_eq!(
            parse_int("170141183460469231731687303715884105727", 10),
            Some(i128::MAX)
        );
        assert_eq!(
            parse_int("170141183460469231731687303715884105728", 10),
            None
        );
        assert_eq!(parse_int(&"9".repeat(60), 10), None);
        assert_eq!(parse_int(&"f".repeat(40), 16), None);
    }

    #[test]
    fn shortest_digits_and_exponent() {
        assert_eq!(shortest(1234.5f64), ("12345".into(), 3));
        assert_eq!(shortest(0.001f64), ("1".into(), -3));
        assert_eq!(shortest(1e21f64), ("1".into(), 21));
        assert_eq!(shortest(-1.5e-7f64), ("15".into(), -7));
        assert_eq!(shortest(100.0f64), ("1".into(), 2));
        assert_eq!(shortest(0.1f32), ("1".into(), -1));
        assert_eq!(shortest(f64::MAX), ("17976931348623157".into(), 308));
        assert_eq!(shortest(f64::from_bits(1)), ("5".into(), -324));
        assert_eq!(shortest(0.0f64), ("0".into(), 0));
        assert_eq!(shortest(f64::NAN), ("0".into(), 0));
        // 0x48215a08 is 165224.125f, halfway between 165224.12 and 165224.13: the even digit.
        assert_eq!(
            shortest(f32::from_bits(0x4821_5a08)),
            ("16522412".into(), 5)
        );
    }

    /// Random values of every magnitude: `plain` reads back as the same value and, except
    /// where core breaks an exact tie upwards (zmij goes to the even digit), is core's text.
    #[test]
    fn plain_is_display() {
        for x in [
            0.0,
            -0.0,
            1.0,
            1e9,
            0.25,
            1e-7,
            123.456,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ] {
            assert_eq!(plain(x), format!("{x}"));
        }
        assert_eq!(plain(f64::NAN), "NaN");
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        let mut ties = 0;
        for i in 0..200_000 {
            let x = if i % 2 == 0 {
                f64::from_bits(rng.gen())
            } else {
                rng.gen::<f64>() * 10f64.powi(rng.gen_range(-12..20))
            };
            if !x.is_finite() {
                continue;
            }
            let (ours, core) = (plain(x), format!("{x}"));
            assert_eq!(ours.parse::<f64>(), Ok(x), "{x:e}");
            if ours != core {
                ties += 1;
                assert_eq!(ours.len(), core.len(), "{x:e}: {ours} vs {core}");
            }
        }
        // Exact ties are about one value in a thousand here.
        assert!(ties < 2_000, "{ties} differences: more than the exact ties");
    }

    /// `fixed` against core's `{:.N}` on random values: equal unless `x * 10^N` sits within a
    /// hair of a tie, where the rounding rules differ.
    #[test]
    fn fixed_is_precision_display() {
        assert_eq!(fixed(0.123_456, 4), "0.1235");
        assert_eq!(fixed(12.4, 0), "12");
        assert_eq!(fixed(-0.04, 1), "-0.0");
        assert_eq!(fixed(0.0, 2), "0.00");
        assert_eq!(fixed(99.96, 1), "100.0");
        assert_eq!(fixed(2.5, 0), "3");
        assert_eq!(fixed(f64::NAN, 1), "NaN");
        assert_eq!(fixed(1e20, 1), "100000000000000000000");
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(12);
        for _ in 0..200_000 {
            let x = (rng.gen::<f64>() - 0.3) * 10f64.powi(rng.gen_range(-6..12));
            let d: u8 = rng.gen_range(0..5);
            let (ours, core) = (fixed(x, d), format!("{x:.*}", usize::from(d)));
            if ours != core {
                let s = x.abs() * 10f64.powi(i32::from(d));
                assert!(
                    (s - s.trunc() - 0.5).abs() < 1e-6,
                    "{x} to {d}: {ours} vs {core}"
                );
            }
        }
    }
}
