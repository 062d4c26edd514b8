//! Compiling a [`Generator`] into its sampling [`State`]: every parameter check against the
//! field type and the workload (JSON list and constant values are converted by
//! `super::convert`). Runs once per stream, so it is separate from the per-record sampling in
//! the parent module.

use super::convert::{check_range, convert, convert_all};
use super::spec::offset_ms;
use super::zipf::ZipfSampler;
use super::{
    fnv1a, invalid, out_of, Generator, ListOrder, Out, Permutation, PhonePick, State, WorkloadSpec,
    MAX_DISTINCT, MAX_LIST_VALUES, MAX_STRING_LENGTH, MAX_WRITE_RATE,
};
use crate::error::Result;
use crate::workload::FieldDecl;

const ALPHANUMERIC: &str = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// What each generator kind is checked against: its field, the workload and the JSON path.
struct Checking<'a> {
    f: &'a FieldDecl,
    spec: &'a WorkloadSpec,
    path: &'a str,
    out: Out,
    kind: &'static str,
}

impl Checking<'_> {
    /// The index of the workload's last record.
    fn last(&self) -> u64 {
        self.spec.records - 1
    }

    /// The error for a kind that cannot make the field's type.
    fn mismatch(&self, what: &str) -> crate::error::Error {
        invalid(
            format!("{}/kind", self.path),
            format!(
                "`{}` makes {what}; field `{}` is {}",
                self.kind,
                self.f.name,
                self.f.field_type.name()
            ),
        )
    }
}

/// Checks a generator against its field and the workload, and prepares its state.
pub(super) fn prepare(
    g: &Generator,
    f: &FieldDecl,
    spec: &WorkloadSpec,
    path: &str,
) -> Result<State> {
    let out = out_of(f.field_type);
    let kind = g.kind();
    let integer_kind = matches!(
        g,
        Generator::Sequence { .. }
            | Generator::Clock { .. }
            | Generator::UniformInt { .. }
            | Generator::Zipf { .. }
            | Generator::Latest { .. }
            | Generator::Hotspot { .. }
    );
    if integer_kind && out == Out::Bool {
        return Err(invalid(
            format!("{path}/kind"),
            format!("`{kind}` makes integers; field `{}` is boolean", f.name),
        ));
    }
    let c = Checking {
        f,
        spec,
        path,
        out,
        kind,
    };
    match g {
        Generator::Sequence { start, step } => sequence(&c, *start, *step),
        Generator::Clock {
            start,
            rate,
            jitter_ms,
        } => clock(&c, start, rate, jitter_ms),
        Generator::UniformInt { min, max } => {
            check_min_max(path, *min, *max)?;
            check_range(f, path, i128::from(*min), i128::from(*max))?;
            let (min, max) = (*min, *max);
            Ok(State::UniformInt { min, max })
        }
        Generator::UniformDouble { min, max } => uniform_double(&c, *min, *max),
        Generator::UniformString { length, alphabet } => {
            uniform_string(&c, *length, alphabet.as_deref())
        }
        Generator::Zipf {
            n,
            s,
            offset,
            scramble,
        } => zipf(&c, *n, *s, *offset, *scramble),
        Generator::Latest { s, window, offset } => latest(&c, *s, *window, *offset),
        Generator::Hotspot {
            min,
            max,
            hot_set_fraction,
            hot_op_fraction,
        } => hotspot(&c, *min, *max, *hot_set_fraction, *hot_op_fraction),
        Generator::Weighted { values, weights } => weighted(&c, values, weights),
        Generator::Phone {
            prefixes,
            digits,
            distinct,
            s,
        } => phone(&c, prefixes, digits, distinct, s),
        Generator::Uuid {
            compact,
            upper_case,
        } => {
            if out != Out::Str {
                return Err(c.mismatch("UUID text"));
            }
            let (compact, upper) = (*compact, *upper_case);
            Ok(State::Uuid { compact, upper })
        }
        Generator::List { values, order } => list(&c, values, *order),
        Generator::Constant { value } => Ok(State::Constant(convert(
            value,
            f,
            &format!("{path}/value"),
        )?)),
        Generator::Boolean { p } => {
            if out != Out::Bool && out != Out::Str {
                return Err(c.mismatch("booleans"));
            }
            if !(0.0..=1.0).contains(p) {
                return Err(invalid(format!("{path}/p"), "p must be between 0 and 1"));
            }
            Ok(State::Boolean { p: *p })
        }
    }
}

/// A sequence: its last value fits in i64 and in the field's type.
fn sequence(c: &Checking, start: i64, step: i64) -> Result<State> {
    let end = i128::from(start) + i128::from(step) * i128::from(c.last());
    check_range(c.f, c.path, i128::from(start), end)?;
    Ok(State::Sequence { start, step })
}

/// Zipf: `n` distinct values from `offset`, all in the field's range; `scramble` spreads the
/// popular ones over the range.
fn zipf(c: &Checking, n: u64, s: f64, offset: i64, scramble: bool) -> Result<State> {
    let path = c.path;
    check_distinct(n, &format!("{path}/n"))?;
    check_exponent(s, &format!("{path}/s"))?;
    let hi = i128::from(offset) + i128::from(n) - 1;
    check_range(c.f, path, i128::from(offset), hi)?;
    Ok(State::Zipf {
        sampler: ZipfSampler::new(n, s),
        offset,
        perm: scramble.then(|| Permutation::new(n, fnv1a(&c.f.name))),
    })
}

/// `max` not below `min`.
fn check_min_max(path: &str, min: i64, max: i64) -> Result<()> {
    if min > max {
        return Err(invalid(
            format!("{path}/max"),
            format!("max {max} is below min {min}"),
        ));
    }
    Ok(())
}

/// Uniform doubles: a finite, non-negative width.
fn uniform_double(c: &Checking, min: f64, max: f64) -> Result<State> {
    if c.out == Out::Bool {
        return Err(c.mismatch("doubles"));
    }
    let width = max - min;
    if !(min.is_finite() && max.is_finite() && width.is_finite() && width >= 0.0) {
        return Err(invalid(
            format!("{}/max", c.path),
            "min and max must be finite with min <= max",
        ));
    }
    Ok(State::UniformDouble { min, width })
}

/// Uniform strings: a length and an alphabet within bounds (alphanumeric by default).
fn uniform_string(c: &Checking, length: u32, alphabet: Option<&str>) -> Result<State> {
    let path = c.path;
    if c.out != Out::Str {
        return Err(c.mismatch("strings"));
    }
    if length > MAX_STRING_LENGTH {
        return Err(invalid(
            format!("{path}/length"),
            format!("a generated string is at most {MAX_STRING_LENGTH} characters"),
        ));
    }
    let alphabet: Vec<char> = alphabet.unwrap_or(ALPHANUMERIC).chars().collect();
    if alphabet.is_empty() {
        return Err(invalid(format!("{path}/alphabet"), "the alphabet is empty"));
    }
    if alphabet.len() > MAX_LIST_VALUES {
        return Err(invalid(
            format!("{path}/alphabet"),
            "the alphabet is too long",
        ));
    }
    Ok(State::UniformString { alphabet, length })
}

/// Latest: a Zipf over the records so far, within a window; the newest value must fit.
fn latest(c: &Checking, s: f64, window: Option<u64>, offset: i64) -> Result<State> {
    let path = c.path;
    check_exponent(s, &format!("{path}/s"))?;
    let window = window.unwrap_or(MAX_DISTINCT);
    if window == 0 || window > MAX_DISTINCT {
        return Err(invalid(
            format!("{path}/window"),
            format!("the window must be between 1 and {MAX_DISTINCT}"),
        ));
    }
    let hi = i128::from(offset) + i128::from(c.last());
    check_range(c.f, path, i128::from(offset), hi)?;
    Ok(State::Latest {
        window,
        offset,
        sampler: ZipfSampler::new(1, s),
    })
}

/// YCSB's hotspot: fractions between 0 and 1, the hot set the first
/// floor(interval * hotSetFraction) values.
fn hotspot(
    c: &Checking,
    min: i64,
    max: i64,
    hot_set_fraction: f64,
    hot_op_fraction: f64,
) -> Result<State> {
    let path = c.path;
    check_min_max(path, min, max)?;
    for (name, v) in [
        ("hotSetFraction", hot_set_fraction),
        ("hotOpFraction", hot_op_fraction),
    ] {
        if !(0.0..=1.0).contains(&v) {
            return Err(invalid(
                format!("{path}/{name}"),
                format!("{name} must be between 0 and 1"),
            ));
        }
    }
    check_range(c.f, path, i128::from(min), i128::from(max))?;
    // YCSB: hot interval = the first floor(interval * hotSetFraction) values.
    let interval = i128::from(max) - i128::from(min) + 1;
    let hot = libm::floor(interval as f64 * hot_set_fraction) as i128;
    // max/min, not clamp: clamp asserts min <= max and prints them with Debug, which
    // kept core's 128-bit formatter in the wasm.
    let hot = hot.max(0).min(interval);
    let hot_upper = i128::from(min) + hot - 1;
    Ok(State::Hotspot {
        lower: min,
        hot_upper: if hot > 0 {
            i64::try_from(hot_upper).ok()
        } else {
            None
        },
        upper: max,
        hot_op: hot_op_fraction,
    })
}

/// A list: some values, not too many, each converted to the field's type.
fn list(c: &Checking, values: &[serde_json::Value], order: ListOrder) -> Result<State> {
    let path = c.path;
    if values.is_empty() {
        return Err(invalid(format!("{path}/values"), "the list is empty"));
    }
    if values.len() > MAX_LIST_VALUES {
        return Err(invalid(format!("{path}/values"), "too many values"));
    }
    Ok(State::List {
        values: convert_all(values, c.f, &format!("{path}/values"))?,
        sequential: order == ListOrder::Sequential,
    })
}

/// A clock: its rate, jitter and span checked against the field's range.
fn clock(c: &Checking, start: &Option<i64>, rate: &Option<f64>, jitter_ms: &u64) -> Result<State> {
    let path = c.path;
    let rate = rate.unwrap_or(c.spec.write_rate);
    if !(rate.is_finite() && rate > 0.0 && rate <= MAX_WRITE_RATE) {
        return Err(invalid(
            format!("{path}/rate"),
            format!(
                "the clock rate must be a positive number of ticks per second up to {}",
                crate::support::num_text::plain(MAX_WRITE_RATE)
            ),
        ));
    }
    let jitter = i64::try_from(*jitter_ms)
        .ok()
        .filter(|j| *j <= 1_000_000_000_000)
        .ok_or_else(|| {
            invalid(
                format!("{path}/jitterMs"),
                "the jitter must be at most 10^12 ms",
            )
        })?;
    let start = start.unwrap_or(c.spec.start_time);
    let ms_per = 1000.0 / rate;
    let span = offset_ms(c.last(), ms_per).ok_or_else(|| {
        invalid(
            format!("{path}/rate"),
            "the clock runs past the 64-bit ms range",
        )
    })?;
    let lo = i128::from(start) - i128::from(jitter);
    let hi = i128::from(start) + i128::from(span) + i128::from(jitter);
    check_range(c.f, c.path, lo, hi)?;
    Ok(State::Clock {
        start,
        ms_per,
        jitter,
    })
}

/// Weighted values: one finite, non-negative weight per value, some positive.
fn weighted(c: &Checking, values: &[serde_json::Value], weights: &[f64]) -> Result<State> {
    let path = c.path;
    if values.is_empty() {
        return Err(invalid(
            format!("{path}/values"),
            "no values to choose from",
        ));
    }
    if values.len() > MAX_LIST_VALUES {
        return Err(invalid(format!("{path}/values"), "too many values"));
    }
    if weights.len() != values.len() {
        return Err(invalid(
            format!("{path}/weights"),
            format!(
                "{} weights for {} values: give one weight per value",
                weights.len(),
                values.len()
            ),
        ));
    }
    let mut cumulative = Vec::with_capacity(weights.len());
    let mut total = 0.0f64;
    for (j, w) in weights.iter().enumerate() {
        if !(w.is_finite() && *w >= 0.0) {
            return Err(invalid(
                format!("{path}/weights/{j}"),
                "a weight must be a finite number >= 0",
            ));
        }
        total += w;
        cumulative.push(total);
    }
    if !(total > 0.0 && total.is_finite()) {
        return Err(invalid(
            format!("{path}/weights"),
            "at least one weight must be positive (and the sum finite)",
        ));
    }
    Ok(State::Weighted {
        values: convert_all(values, c.f, &format!("{path}/values"))?,
        cumulative,
    })
}

/// Phone numbers: prefixes that fit the field, and a distinct count that fits the number space.
fn phone(
    c: &Checking,
    prefixes: &[String],
    digits: &u32,
    distinct: &Option<u64>,
    s: &Option<f64>,
) -> Result<State> {
    let (path, type_name) = (c.path, c.f.field_type.name());
    if prefixes.is_empty() {
        return Err(invalid(
            format!("{path}/prefixes"),
            "give at least one prefix",
        ));
    }
    if prefixes.len() > MAX_LIST_VALUES {
        return Err(invalid(format!("{path}/prefixes"), "too many prefixes"));
    }
    if *digits > 18 {
        return Err(invalid(
            format!("{path}/digits"),
            "at most 18 random digits after the prefix",
        ));
    }
    match c.out {
        Out::Str => {}
        Out::Long => {
            let numeric = prefixes
                .iter()
                .all(|p| p.bytes().all(|b| b.is_ascii_digit()) && p.len() + *digits as usize <= 18);
            if !numeric {
                return Err(invalid(
                            format!("{path}/prefixes"),
                            format!(
                                "field `{}` is {type_name}: phone prefixes must be digits and at most 18 digits long in all",
                                c.f.name
                            ),
                        ));
            }
        }
        _ => return Err(c.mismatch("phone-number text")),
    }
    let space = 10u64.pow(*digits);
    let pick = match distinct {
        None => {
            if s.is_some() {
                return Err(invalid(
                    format!("{path}/s"),
                    "a Zipf exponent needs `distinct`, the number of phones to skew over",
                ));
            }
            None
        }
        Some(d) => {
            check_distinct(*d, &format!("{path}/distinct"))?;
            let capacity = u128::from(space) * prefixes.len() as u128;
            if u128::from(*d) > capacity {
                return Err(invalid(
                    format!("{path}/distinct"),
                    format!(
                        "{d} distinct phones do not fit in {} prefixes x 10^{digits} numbers",
                        prefixes.len()
                    ),
                ));
            }
            let zipf = match s {
                Some(s) => {
                    check_exponent(*s, &format!("{path}/s"))?;
                    Some(ZipfSampler::new(*d, *s))
                }
                None => None,
            };
            Some(PhonePick {
                distinct: *d,
                zipf,
                perm: Permutation::new(space, fnv1a(&c.f.name)),
            })
        }
    };
    Ok(State::Phone {
        prefixes: prefixes.to_vec(),
        digits: *digits,
        pick,
    })
}

fn check_distinct(n: u64, path: &str) -> Result<()> {
    if n == 0 || n > MAX_DISTINCT {
        return Err(invalid(
            path.to_string(),
            format!("the number of distinct values must be between 1 and {MAX_DISTINCT}"),
        ));
    }
    Ok(())
}

fn check_exponent(s: f64, path: &str) -> Result<()> {
    if !(s.is_finite() && (0.0..=100.0).contains(&s)) {
        return Err(invalid(
            path.to_string(),
            "the Zipf exponent must be a number between 0 and 100",
        ));
    }
    Ok(())
}
