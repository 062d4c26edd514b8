//! UTC civil-date arithmetic and the small `SimpleDateFormat` subset row keys use.
//!
//! Dates are proleptic Gregorian (as `java.time` prints them; `SimpleDateFormat` switches to
//! the Julian calendar before 1582, which no row key cares about). Years are limited to
//! 0000..=9999 so every pattern has a fixed width.

use crate::error::{Error, ErrorKind, Result};

const MS_PER_DAY: i64 = 86_400_000;

/// One token of a time pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Tok {
    Year4,
    Year2,
    Month,
    Day,
    Hour,
    Minute,
    Second,
    Milli,
    Lit(Vec<u8>),
}

impl Tok {
    pub(crate) fn width(&self) -> usize {
        match self {
            Tok::Year4 => 4,
            Tok::Milli => 3,
            Tok::Lit(b) => b.len(),
            _ => 2,
        }
    }
}

/// Parse a pattern such as `yyyyMMddHHmmss`, `yyyy-MM-dd`, `MM-dd`, `yyMMdd'T'HH`.
pub(crate) fn parse_pattern(p: &str) -> std::result::Result<Vec<Tok>, String> {
    let chars: Vec<char> = p.chars().collect();
    let mut out: Vec<Tok> = Vec::new();
    let mut lit = String::new();
    let mut i = 0usize;
    while let Some(&c) = chars.get(i) {
        if c == '\'' {
            // Quoted text; '' is a quote.
            if chars.get(i + 1) == Some(&'\'') {
                lit.push('\'');
                i += 2;
                continue;
            }
            let mut j = i + 1;
            loop {
                match chars.get(j) {
                    None => return Err(format!("unterminated quote in time pattern `{p}`")),
                    Some('\'') if chars.get(j + 1) == Some(&'\'') => {
                        lit.push('\'');
                        j += 2;
                    }
                    Some('\'') => break,
                    Some(&x) => {
                        lit.push(x);
                        j += 1;
                    }
                }
            }
            i = j + 1;
            continue;
        }
        if !c.is_ascii_alphabetic() {
            lit.push(c);
            i += 1;
            continue;
        }
        let mut n = 1usize;
        while chars.get(i + n) == Some(&c) {
            n += 1;
        }
        let tok = match (c, n) {
            ('y', 4) => Tok::Year4,
            ('y', 2) => Tok::Year2,
            ('M', 2) => Tok::Month,
            ('d', 2) => Tok::Day,
            ('H', 2) => Tok::Hour,
            ('m', 2) => Tok::Minute,
            ('s', 2) => Tok::Second,
            ('S', 3) => Tok::Milli,
            ('y' | 'M' | 'd' | 'H' | 'm' | 's' | 'S', _) => {
                return Err(format!(
                    "`{}` in time pattern `{p}`: use yyyy or yy, MM, dd, HH, mm, ss, SSS (fixed widths)",
                    c.to_string().repeat(n)
                ))
            }
            _ => {
                return Err(format!(
                    "unsupported letter `{c}` in time pattern `{p}`: supported are yyyy yy MM dd HH mm ss SSS; quote text as 'T'"
                ))
            }
        };
        if !lit.is_empty() {
            out.push(Tok::Lit(std::mem::take(&mut lit).into_bytes()));
        }
        out.push(tok);
        i += n;
    }
    if !lit.is_empty() {
        out.push(Tok::Lit(lit.into_bytes()));
    }
    if out.is_empty() {
        return Err("empty time pattern".into());
    }
    Ok(out)
}

/// Days since 1970-01-01 -> (year, month 1..12, day 1..31). (H. Hinnant's algorithm.)
pub(crate) fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// (year, month, day) -> days since 1970-01-01.
pub(crate) fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Broken-down UTC time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Civil {
    pub y: i64,
    pub mo: i64,
    pub d: i64,
    pub h: i64,
    pub mi: i64,
    pub s: i64,
    pub ms: i64,
}

/// Days since 1970-01-01 of 0000-01-01 and of 9999-12-31.
const DAYS: std::ops::RangeInclusive<i64> = -719_528..=2_932_896;

/// [`civil_from_days`] for days of years 0..=9999 (`None` outside): C. Neri and
/// L. Schneider's Euclidean affine algorithm ("Euclidean affine functions and their
/// application to calendar algorithms", 2022) in 32-bit arithmetic, about 3× faster than the
/// 64-bit divisions above; a test compares the two over the whole range.
fn civil_from_days_fast(days: i64) -> Option<(i64, i64, i64)> {
    if !DAYS.contains(&days) {
        return None;
    }
    // Shifted by 82 × 400 years so every day is a positive u32 and 4n + 3 cannot overflow.
    let n = u32::try_from(days + 719_468 + 146_097 * 82).ok()?;
    let n1 = 4 * n + 3;
    let c = n1 / 146_097;
    let nc = n1 % 146_097 / 4;
    let p2 = 2_939_745u64 * u64::from(4 * nc + 3);
    let z = (p2 >> 32) as u32;
    let ny = (p2 as u32) / 2_939_745 / 4;
    let n3 = 2141 * ny + 197_913;
    let (m, d) = (n3 >> 16, (n3 & 0xFFFF) / 2141);
    let jan_feb = ny >= 306;
    let y = i64::from(100 * c + z + u32::from(jan_feb)) - 400 * 82;
    let m = if jan_feb { m - 12 } else { m };
    Some((y, i64::from(m), i64::from(d + 1)))
}

/// Milliseconds since the epoch -> UTC civil time; years outside 0..=9999 are an error.
pub(crate) fn civil(ms: i64) -> Result<Civil> {
    let days = ms.div_euclid(MS_PER_DAY);
    let rem = ms.rem_euclid(MS_PER_DAY);
    match civil_from_days_fast(days) {
        Some(ymd) => Ok(Civil::of_day(ymd, rem)),
        None => {
            let (y, _, _) = civil_from_days(days);
            Err(Error::new(
                ErrorKind::Invalid,
                format!("timestamp {ms} is in year {y}; time patterns cover years 0000 to 9999"),
            ))
        }
    }
}

impl Civil {
    /// A day's date and the milliseconds into that day.
    fn of_day((y, mo, d): (i64, i64, i64), rem: i64) -> Civil {
        // `rem` is in 0..86_400_000: 32-bit divisions by constants are cheaper.
        let r = u32::try_from(rem).unwrap_or(0);
        Civil {
            y,
            mo,
            d,
            h: i64::from(r / 3_600_000),
            mi: i64::from(r / 60_000 % 60),
            s: i64::from(r / 1000 % 60),
            ms: i64::from(r % 1000),
        }
    }
}

/// Civil time -> milliseconds since the epoch.
pub(crate) fn to_millis(c: &Civil) -> i64 {
    days_from_civil(c.y, c.mo, c.d) * MS_PER_DAY
        + c.h * 3_600_000
        + c.mi * 60_000
        + c.s * 1000
        + c.ms
}

/// Size of a [`Fixed`] pattern's text (and of a `time(...)` segment's cache).
pub(crate) const FIXED: usize = 32;

/// `"00"` to `"99"` as little-endian `u16`s (first digit in the low byte).
const PAIR16: [u16; 100] = {
    let mut t = [0u16; 100];
    let mut i = 0;
    while i < 100 {
        t[i] = (b'0' as u16 + (i / 10) as u16) | ((b'0' as u16 + (i % 10) as u16) << 8);
        i += 1;
    }
    t
};

/// A pattern at most [`FIXED`] bytes wide, compiled once: its literal text already in place
/// in a template, and where each number's digits go. Formatting ORs the digits into the
/// template held as four `u64` words: no call and no `memcpy` per token (a record whose time
/// differs from the last one's formats its text again; see `seed003-md5-messages` in
/// docs/bench-keyspec.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Fixed {
    words: [u64; 4],
    /// (value, byte offset, one digit or two) of each number; values as in [`Fixed::words`].
    digits: [(u8, u8, bool); FIXED],
    n: usize,
    len: usize,
}

impl Fixed {
    /// `None` when the pattern is wider than [`FIXED`] bytes.
    pub(crate) fn new(toks: &[Tok]) -> Option<Fixed> {
        let mut template = [0u8; FIXED];
        let mut digits = [(0u8, 0u8, false); FIXED];
        let mut n = 0usize;
        let mut at = 0usize;
        for t in toks {
            let w = t.width();
            let slot = template.get_mut(at..at + w)?;
            // (index into the values of `words`, offset, one digit); `yyyy` is two pairs,
            // `SSS` one digit and a pair.
            let put: &[(u8, usize, bool)] = match t {
                Tok::Lit(b) => {
                    slot.copy_from_slice(b);
                    &[]
                }
                Tok::Year4 => &[(0, 0, false), (1, 2, false)],
                Tok::Year2 => &[(1, 0, false)],
                Tok::Month => &[(2, 0, false)],
                Tok::Day => &[(3, 0, false)],
                Tok::Hour => &[(4, 0, false)],
                Tok::Minute => &[(5, 0, false)],
                Tok::Second => &[(6, 0, false)],
                Tok::Milli => &[(7, 0, true), (8, 1, false)],
            };
            for &(v, off, one) in put {
                *digits.get_mut(n)? = (v, u8::try_from(at + off).ok()?, one);
                n += 1;
            }
            at += w;
        }
        let mut words = [0u64; 4];
        for (w, b) in words.iter_mut().zip(template.chunks_exact(8)) {
            *w = u64::from_le_bytes(b.try_into().ok()?);
        }
        Some(Fixed {
            words,
            digits,
            n,
            len: at,
        })
    }

    /// The text's length in bytes.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// `c` as text in four little-endian words: the first [`len`](Self::len) bytes.
    #[inline]
    fn words(&self, c: &Civil) -> [u64; 4] {
        // Civil fields are never negative and years end at 9999.
        let values = [
            c.y / 100,
            c.y % 100,
            c.mo,
            c.d,
            c.h,
            c.mi,
            c.s,
            c.ms / 100,
            c.ms % 100,
        ]
        // Each below 100 (a table miss would write nothing, never panic).
        .map(|v| usize::try_from(v).unwrap_or(0));
        let mut w = self.words;
        for &(v, at, one) in self.digits.get(..self.n).unwrap_or(&[]) {
            let d = values.get(usize::from(v)).copied().unwrap_or(0);
            let d = u64::from(PAIR16.get(d).copied().unwrap_or(0));
            // One digit: the second character of "0d".
            let (d, width) = if one { (d >> 8, 1) } else { (d, 2) };
            let (i, sh) = (usize::from(at) / 8, usize::from(at) % 8 * 8);
            if let Some(x) = w.get_mut(i) {
                *x |= d << sh;
            }
            // A pair across two words.
            if sh == 56 && width == 2 {
                if let Some(x) = w.get_mut(i + 1) {
                    *x |= d >> 8;
                }
            }
        }
        w
    }

    /// `c` as text: the first [`len`](Self::len) bytes of the result.
    #[inline]
    pub(crate) fn render(&self, c: &Civil) -> [u8; FIXED] {
        let mut buf = [0u8; FIXED];
        for (b, w) in buf.chunks_exact_mut(8).zip(self.words(c)) {
            b.copy_from_slice(&w.to_le_bytes());
        }
        buf
    }
}

/// The last day broken into year, month and day (`civil_from_days` costs a few divisions).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct DayCache(Option<(i64, (i64, i64, i64))>);

/// [`civil`] through a one-day cache.
pub(crate) fn civil_cached(ms: i64, cache: &mut DayCache) -> Result<Civil> {
    let days = ms.div_euclid(MS_PER_DAY);
    let rem = ms.rem_euclid(MS_PER_DAY);
    let ymd = match cache.0 {
        Some((day, ymd)) if day == days => ymd,
        _ => {
            let c = civil(ms)?;
            cache.0 = Some((days, (c.y, c.mo, c.d)));
            (c.y, c.mo, c.d)
        }
    };
    Ok(Civil::of_day(ymd, rem))
}

/// Append `c` formatted with the tokens.
pub(crate) fn push_civil(toks: &[Tok], c: &Civil, out: &mut Vec<u8>) {
    match Fixed::new(toks) {
        Some(f) => out.extend_from_slice(f.render(c).get(..f.len()).unwrap_or(&[])),
        // Patterns with long quoted text: token by token.
        None => {
            for t in toks {
                match Fixed::new(std::slice::from_ref(t)) {
                    Some(f) => out.extend_from_slice(f.render(c).get(..f.len()).unwrap_or(&[])),
                    None => {
                        if let Tok::Lit(b) = t {
                            out.extend_from_slice(b);
                        }
                    }
                }
            }
        }
    }
}

mod read;

#[cfg(feature = "rows")]
pub(crate) use read::fixed_iso;
pub(crate) use read::{parse_iso, parse_parts, Parts};

#[cfg(test)]
mod tests;
