//! Java 17's text rendering of floating-point numbers (`Double.toString` /
//! `Float.toString`): how a decoded double or float is shown. It is Java's number
//! formatting, not part of HBase's `Bytes`, so it lives apart from the `Bytes` port;
//! [`crate::hbase::bytes`] re-exports the two public functions.

use crate::support::num_text::shortest;

/// Java 17's `Double.toString(double)` (the JDK the golden vectors were made with):
/// plain notation for 1e-3 <= |d| < 1e7 (always with a fractional digit, `1.0`), else
/// `d.dddE±n` (`1.0E10`), plus `NaN`, `Infinity`, `-0.0`.
///
/// Digits: JDK 17's `FloatingDecimal` prints an integer-valued double below 2^63 with its
/// exact decimal digits (less the low digits its precision cannot carry), e.g. 2^60 + 2^8 ->
/// `1.15292150460684723E18`, not the shortest `1.1529215046068472E18`; that rule is copied.
/// Other values get the shortest round-trip digits, which agree with JDK 17 almost always; the
/// known exceptions (rare last-digit differences of its Steele-White path, and tiny subnormals
/// such as `1.58E-322`) are not reproduced. `Double.MIN_VALUE` prints `4.9E-324` as in Java.
pub fn java_double_to_string(d: f64) -> String {
    if let Some(s) = non_finite(d) {
        return s;
    }
    if d.abs() == f64::from_bits(1) {
        return if d < 0.0 {
            "-4.9E-324".into()
        } else {
            "4.9E-324".into()
        };
    }
    let (digits, exp) = jdk_integer_digits(d, 53).unwrap_or_else(|| shortest(d));
    java_float_format(&digits, exp, d.is_sign_negative(), d == 0.0)
}

/// Java's text for NaN and the infinities (the same for `float` and `double`).
fn non_finite(d: f64) -> Option<String> {
    if d.is_nan() {
        Some("NaN".into())
    } else if d.is_infinite() {
        Some(if d > 0.0 { "Infinity" } else { "-Infinity" }.into())
    } else {
        None
    }
}

/// Java 17's `Float.toString(float)`, the single-precision twin of [`java_double_to_string`]
/// with the same integer rule (`2^31` -> `2.14748365E9`). JDK 17's float path differs from
/// the shortest digits more often than the double path (no golden vector covers it), so treat
/// this as a display helper, not a contract.
pub fn java_float_to_string(f: f32) -> String {
    if let Some(s) = non_finite(f64::from(f)) {
        return s;
    }
    let (digits, exp) = jdk_integer_digits(f64::from(f), 24).unwrap_or_else(|| shortest(f));
    java_float_format(&digits, exp, f.is_sign_negative(), f == 0.0)
}

/// JDK 17 `FloatingDecimal` "easy integer" case: a value that is a whole number in
/// [1, 2^63) is printed from its exact integer digits, after rounding off
/// `floor((binExp - nSignificantBits - 1) * log10(2))` low digits when `binExp` exceeds the
/// significand width (`n_sig` = 53 for double, 24 for float). Returns the digits without
/// trailing zeros and the exponent of the first, as [`shortest`] does.
fn jdk_integer_digits(v: f64, n_sig: i64) -> Option<(String, i32)> {
    let x = v.abs();
    if !(1.0..9_223_372_036_854_775_808.0_f64).contains(&x) || x.fract() != 0.0 {
        return None;
    }
    // Exact: x is an integer below 2^63.
    let mut l = x as u64;
    let bin_exp = i64::from(63 - l.leading_zeros());
    let p2 = bin_exp - n_sig - 1;
    let insignificant: u32 = if bin_exp > n_sig && p2 > 1 {
        // floor(p2 * log10 2); p2 <= 37 here, where this integer form is exact.
        u32::try_from(p2 * 30103 / 100_000).ok()?
    } else {
        0
    };
    if insignificant > 0 {
        let pow10 = 10u64.checked_pow(insignificant)?;
        let residue = l % pow10;
        l /= pow10;
        if residue >= pow10 / 2 {
            l += 1;
        }
    }
    let mut digits = l.to_string();
    let exp = i32::try_from(digits.len()).ok()? - 1 + i32::try_from(insignificant).ok()?;
    let kept = digits.trim_end_matches('0').len();
    digits.truncate(kept);
    Some((digits, exp))
}

/// Lay out decimal digits (`"12345"`, first digit at 10^`exp`) the way Java prints them.
fn java_float_format(digits: &str, exp: i32, negative: bool, zero: bool) -> String {
    let sign = if negative { "-" } else { "" };
    if zero || digits.is_empty() {
        return format!("{sign}0.0");
    }
    let mut out = String::from(sign);
    if (-3..7).contains(&exp) {
        crate::support::num_text::push_positional(&mut out, digits, exp, true);
    } else {
        let (d0, rest) = digits.split_at_checked(1).unwrap_or((digits, ""));
        out.push_str(d0);
        out.push('.');
        out.push_str(if rest.is_empty() { "0" } else { rest });
        out.push('E');
        out.push_str(&exp.to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_number_strings() {
        assert_eq!(java_double_to_string(1.0), "1.0");
        assert_eq!(java_double_to_string(1e7), "1.0E7");
        assert_eq!(java_double_to_string(0.001), "0.001");
        assert_eq!(java_double_to_string(1e-4), "1.0E-4");
        assert_eq!(java_double_to_string(-0.0), "-0.0");
        assert_eq!(java_double_to_string(5e-324), "4.9E-324");
        assert_eq!(java_double_to_string(f64::MAX), "1.7976931348623157E308");
        assert_eq!(java_double_to_string(2.17), "2.17");
        assert_eq!(java_float_to_string(123.123), "123.123");
        assert_eq!(java_float_to_string(f32::MAX), "3.4028235E38");
        // JDK 17 integer path: exact digits, not the shortest ones.
        assert_eq!(
            java_double_to_string(f64::from_bits(0x437d91392474b400)),
            "1.33159182966407168E17"
        );
        assert_eq!(java_double_to_string(1e23), "1.0E23");
        assert_eq!(java_double_to_string(-1e300), "-1.0E300");
        assert_eq!(java_double_to_string(123456.0), "123456.0");
        assert_eq!(java_float_to_string(2147483648.0), "2.14748365E9");
        assert_eq!(java_float_to_string(123456789.0), "1.23456792E8");
        assert_eq!(
            java_float_to_string(f32::from_bits(0x5e688e99)),
            "4.18937487E18"
        );
    }

    /// The former implementation, kept as the oracle: core's shortest `{:e}`, and when the exact value lies exactly halfway between the shortest digits and the candidate one
    /// unit lower, Rust rounds the tie up while JDK 17 rounds half-even (`165224.125f` ->
    /// `165224.12`); switch to the even candidate when it still reads back as the same value.
    /// `shortest` and `exact` are Rust `{:e}` renderings (shortest, and the exact expansion).
    fn half_even_tie(shortest: String, exact: &str, round_trips: impl Fn(&str) -> bool) -> String {
        let split = |t: &str| -> (String, String) {
            let (m, e) = t.split_once('e').unwrap_or((t, "0"));
            (
                m.chars().filter(char::is_ascii_digit).collect(),
                e.to_string(),
            )
        };
        let (sd, se) = split(&shortest);
        let (ed, ee) = split(exact);
        let ed = ed.trim_end_matches('0');
        let n = sd.len();
        let odd_last = sd.bytes().last().is_some_and(|c| (c - b'0') % 2 == 1);
        if se != ee || ed.len() != n + 1 || !ed.ends_with('5') || !odd_last {
            return shortest;
        }
        // Exact = E5 (n+1 digits); a tie rounded up gives shortest = E + 1 in the last place.
        let (Ok(e_num), Ok(s_num)) = (
            ed.get(..n).unwrap_or("x").parse::<u128>(),
            sd.parse::<u128>(),
        ) else {
            return shortest;
        };
        if e_num + 1 != s_num {
            return shortest;
        }
        let lower = e_num.to_string();
        if lower.len() != n {
            return shortest;
        }
        let (d0, rest) = lower.split_at(1);
        let cand = if rest.is_empty() {
            format!("{d0}e{se}")
        } else {
            format!("{d0}.{rest}e{se}")
        };
        let neg = shortest.starts_with('-');
        let cand = if neg { format!("-{cand}") } else { cand };
        if round_trips(&cand) {
            cand
        } else {
            shortest
        }
    }

    /// Java's text by the former route (core's `{:e}`, its exact `{:.800e}` expansion to find
    /// ties): the digits zmij gives must be the same, ties to even included.
    /// Java's layout of `{:e}` text (`sci`), or of JDK 17's integer digits when it has them.
    fn layout_oracle(
        int: Option<(String, i32)>,
        sci: impl FnOnce() -> String,
        negative: bool,
        zero: bool,
    ) -> String {
        if let Some((digits, exp)) = int {
            return java_float_format(&digits, exp, negative, false);
        }
        let sci = sci();
        let (m, e) = sci
            .trim_start_matches('-')
            .split_once('e')
            .unwrap_or(("0", "0"));
        let digits: String = m.chars().filter(char::is_ascii_digit).collect();
        java_float_format(
            digits.trim_end_matches('0'),
            e.parse().unwrap_or(0),
            negative,
            zero,
        )
    }

    fn oracle_f64(d: f64) -> String {
        let sci = || {
            half_even_tie(format!("{d:e}"), &format!("{d:.800e}"), |t| {
                t.parse::<f64>().ok() == Some(d)
            })
        };
        layout_oracle(jdk_integer_digits(d, 53), sci, d < 0.0, d == 0.0)
    }

    fn oracle_f32(f: f32) -> String {
        let sci = || {
            half_even_tie(format!("{f:e}"), &format!("{f:.200e}"), |t| {
                t.parse::<f32>().ok() == Some(f)
            })
        };
        layout_oracle(jdk_integer_digits(f64::from(f), 24), sci, f < 0.0, f == 0.0)
    }

    #[test]
    fn zmij_digits_equal_the_exact_tie_rule() {
        use rand::{Rng, SeedableRng};
        // Exact ties, where core's shortest digits round up and Java's go to the even digit.
        for bits in [
            0x48030fe8u32,
            0xc8e231f4,
            0xca6ed23d,
            0x48234968,
            0x49ebfd6a,
        ] {
            let f = f32::from_bits(bits);
            let tie = half_even_tie(format!("{f:e}"), &format!("{f:.200e}"), |t| {
                t.parse::<f32>().ok() == Some(f)
            });
            assert_ne!(tie, format!("{f:e}"), "{bits:08x} is a tie core rounds up");
            assert_eq!(java_float_to_string(f), oracle_f32(f), "{bits:08x}");
        }
        // 165224.125f
        assert_eq!(
            java_float_to_string(f32::from_bits(0x4821_5a08)),
            "165224.12"
        );
        let d = f64::from_bits(0x4309d88397c64882);
        assert_eq!(java_double_to_string(d), "9.093667645545122E14");
        assert_eq!(java_double_to_string(d), oracle_f64(d));
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(17);
        for i in 0..40_000 {
            let d = if i % 2 == 0 {
                f64::from_bits(rng.gen())
            } else {
                rng.gen::<f64>() * 10f64.powi(rng.gen_range(-8..20))
            };
            if d.is_finite() {
                assert_eq!(
                    java_double_to_string(d),
                    oracle_f64(d),
                    "{:016x}",
                    d.to_bits()
                );
            }
            let f = f32::from_bits(rng.gen());
            if f.is_finite() {
                assert_eq!(
                    java_float_to_string(f),
                    oracle_f32(f),
                    "{:08x}",
                    f.to_bits()
                );
            }
        }
    }
}
