//! Java 17's text rendering of floating-point numbers (`Double.toString` /
//! `Float.toString`): how a decoded double or float is shown. It is Java's number
//! formatting, not part of HBase's `Bytes`, so it lives apart from the `Bytes` port;
//! [`crate::bytes`] re-exports the two public functions.

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
    let sci = jdk_integer_sci(d, 53).unwrap_or_else(|| {
        half_even_tie(format!("{d:e}"), &format!("{d:.800e}"), |t| {
            t.parse::<f64>().ok() == Some(d)
        })
    });
    java_float_format(&sci, d.is_sign_negative(), d == 0.0)
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
    let sci = jdk_integer_sci(f64::from(f), 24).unwrap_or_else(|| {
        half_even_tie(format!("{f:e}"), &format!("{f:.200e}"), |t| {
            t.parse::<f32>().ok() == Some(f)
        })
    });
    java_float_format(&sci, f.is_sign_negative(), f == 0.0)
}

/// When the exact value lies exactly halfway between the shortest digits and the candidate one
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

/// JDK 17 `FloatingDecimal` "easy integer" case: a value that is a whole number in
/// [1, 2^63) is printed from its exact integer digits, after rounding off
/// `floor((binExp - nSignificantBits - 1) * log10(2))` low digits when `binExp` exceeds the
/// significand width (`n_sig` = 53 for double, 24 for float). Returns Rust `{:e}` style text.
fn jdk_integer_sci(v: f64, n_sig: i64) -> Option<String> {
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
    let digits = l.to_string();
    let dec_exp = i64::try_from(digits.len()).ok()? + i64::from(insignificant);
    let digits = digits.trim_end_matches('0');
    let (d0, rest) = digits.split_at(1.min(digits.len()));
    let rest = if rest.is_empty() { "0" } else { rest };
    Some(format!("{d0}.{rest}e{}", dec_exp - 1))
}

/// Lay out Rust's shortest `{:e}` rendering (`-1.2345e-7`) the way Java prints it.
fn java_float_format(sci: &str, negative: bool, zero: bool) -> String {
    let sign = if negative { "-" } else { "" };
    if zero {
        return format!("{sign}0.0");
    }
    let body = sci.trim_start_matches('-');
    let (mant, exp) = body.split_once('e').unwrap_or((body, "0"));
    let exp: i64 = exp.parse().unwrap_or(0);
    let digits: String = mant.chars().filter(char::is_ascii_digit).collect();
    let digits = digits.trim_end_matches('0');
    let digits = if digits.is_empty() {
        "0".to_string()
    } else {
        digits.to_string()
    };
    if (-3..7).contains(&exp) {
        // Plain: the decimal point goes after digit number exp+1.
        let mut out = String::from(sign);
        if exp < 0 {
            out.push_str("0.");
            for _ in 0..(-exp - 1) {
                out.push('0');
            }
            out.push_str(&digits);
        } else {
            let int_len = usize::try_from(exp + 1).unwrap_or(1);
            let mut int_part = digits
                .get(..int_len.min(digits.len()))
                .unwrap_or("")
                .to_string();
            while int_part.len() < int_len {
                int_part.push('0');
            }
            let frac = digits.get(int_len.min(digits.len())..).unwrap_or("");
            out.push_str(&int_part);
            out.push('.');
            out.push_str(if frac.is_empty() { "0" } else { frac });
        }
        out
    } else {
        let (d0, rest) = digits.split_at(1.min(digits.len()));
        let rest = rest.trim_end_matches('0');
        let rest = if rest.is_empty() { "0" } else { rest };
        format!("{sign}{d0}.{rest}E{exp}")
    }
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
}
