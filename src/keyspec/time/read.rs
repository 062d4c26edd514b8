//! Reading times back: the parts a key's formatted time text gives (for decoding), and the
//! ISO-8601 dates records may hold.

use super::*;

/// The parts of a time a formatted text gives back (several `time(...)` segments of one
/// field merge their parts).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Parts {
    pub y: Option<i64>,
    pub y2: Option<i64>,
    pub mo: Option<i64>,
    pub d: Option<i64>,
    pub h: Option<i64>,
    pub mi: Option<i64>,
    pub s: Option<i64>,
    pub ms: Option<i64>,
}

fn merge1(a: &mut Option<i64>, b: Option<i64>, what: &str) -> std::result::Result<(), String> {
    match (*a, b) {
        (Some(x), Some(y)) if x != y => Err(format!(
            "two time segments disagree on the {what} ({x} vs {y})"
        )),
        (None, Some(y)) => {
            *a = Some(y);
            Ok(())
        }
        _ => Ok(()),
    }
}

impl Parts {
    /// Whether these parts fix what `tok` prints (a two-digit year by the full year too).
    pub fn holds(&self, tok: &super::Tok) -> bool {
        use super::Tok;
        match tok {
            Tok::Year4 => self.y.is_some(),
            Tok::Year2 => self.y.is_some() || self.y2.is_some(),
            Tok::Month => self.mo.is_some(),
            Tok::Day => self.d.is_some(),
            Tok::Hour => self.h.is_some(),
            Tok::Minute => self.mi.is_some(),
            Tok::Second => self.s.is_some(),
            Tok::Milli => self.ms.is_some(),
            Tok::Lit(_) => true,
        }
    }

    /// Combine with the parts of another segment of the same field.
    pub(crate) fn merge(&mut self, o: &Parts) -> std::result::Result<(), String> {
        merge1(&mut self.y, o.y, "year")?;
        merge1(&mut self.y2, o.y2, "year")?;
        merge1(&mut self.mo, o.mo, "month")?;
        merge1(&mut self.d, o.d, "day")?;
        merge1(&mut self.h, o.h, "hour")?;
        merge1(&mut self.mi, o.mi, "minute")?;
        merge1(&mut self.s, o.s, "second")?;
        merge1(&mut self.ms, o.ms, "millisecond")
    }

    /// Milliseconds since the epoch (missing parts take their smallest value: year 1970, or
    /// 20yy for `yy`), and what is missing (`None` when the time is exact).
    pub(crate) fn resolve(&self) -> std::result::Result<(i64, Option<String>), String> {
        if let (Some(y), Some(y2)) = (self.y, self.y2) {
            if y % 100 != y2 {
                return Err(format!(
                    "two time segments disagree on the year ({y} vs yy {y2:02})"
                ));
            }
        }
        let c = Civil {
            y: self.y.or(self.y2.map(|v| 2000 + v)).unwrap_or(1970),
            mo: self.mo.unwrap_or(1),
            d: self.d.unwrap_or(1),
            h: self.h.unwrap_or(0),
            mi: self.mi.unwrap_or(0),
            s: self.s.unwrap_or(0),
            ms: self.ms.unwrap_or(0),
        };
        if !(1..=12).contains(&c.mo)
            || c.d < 1
            || c.d > days_in_month(c.y, c.mo)
            || c.h > 23
            || c.mi > 59
            || c.s > 59
        {
            return Err("not a valid date or time".into());
        }
        let mut missing: Vec<&str> = Vec::new();
        if self.y.is_none() {
            missing.push(if self.y2.is_some() { "century" } else { "year" });
        }
        for (p, n) in [
            (self.mo, "month"),
            (self.d, "day"),
            (self.h, "hour"),
            (self.mi, "minute"),
            (self.s, "second"),
            (self.ms, "millisecond"),
        ] {
            if p.is_none() {
                missing.push(n);
            }
        }
        let lost = if missing.is_empty() {
            None
        } else {
            Some(missing.join(", "))
        };
        Ok((to_millis(&c), lost))
    }
}

/// Read the parts of a formatted time back.
pub(crate) fn parse_parts(toks: &[Tok], b: &[u8]) -> std::result::Result<Parts, String> {
    let mut p = Parts::default();
    let mut pos = 0usize;
    for t in toks {
        let w = t.width();
        let part = b
            .get(pos..pos + w)
            .ok_or_else(|| format!("time text ends early at byte {pos}"))?;
        if let Tok::Lit(l) = t {
            if part != l.as_slice() {
                return Err(format!(
                    "expected `{}` at byte {pos} of the time text",
                    String::from_utf8_lossy(l)
                ));
            }
        } else {
            let mut v = 0i64;
            for &ch in part {
                if !ch.is_ascii_digit() {
                    return Err(format!("expected a digit at byte {pos} of the time text"));
                }
                v = v * 10 + i64::from(ch - b'0');
            }
            let slot = match t {
                Tok::Year4 => &mut p.y,
                Tok::Year2 => &mut p.y2,
                Tok::Month => &mut p.mo,
                Tok::Day => &mut p.d,
                Tok::Hour => &mut p.h,
                Tok::Minute => &mut p.mi,
                Tok::Second => &mut p.s,
                Tok::Milli | Tok::Lit(_) => &mut p.ms,
            };
            merge1(slot, Some(v), "time")?;
        }
        pos += w;
    }
    if pos != b.len() {
        return Err(format!("{} extra bytes after the time text", b.len() - pos));
    }
    Ok(p)
}

/// Parse an ISO-8601 date-time (`2021-09-07`, `2021-09-07T10:20:30`, `...30.123Z`) as UTC,
/// or at a UTC offset given after the time (`2021-09-07T10:20:30+08:00`, `-0530`, `+08`).
pub(crate) fn parse_iso(s: &str) -> Option<i64> {
    fixed_iso(s.as_bytes()).or_else(|| general_iso(s))
}

/// [`parse_iso`] by splitting at its separators: every form it reads.
pub(super) fn general_iso(s: &str) -> Option<i64> {
    let s = s.strip_suffix('Z').unwrap_or(s);
    let (date, time) = match s.split_once(['T', ' ']) {
        Some((d, t)) => (d, Some(t)),
        None => (s, None),
    };
    // The offset, if any, follows the time: `date` has `-`s of its own.
    let (time, offset_ms) =
        match time.and_then(|t| t.rfind(['+', '-']).and_then(|i| t.split_at_checked(i))) {
            Some((t, off)) => (Some(t), utc_offset_ms(off)?),
            None => (time, 0),
        };
    let mut dp = date.split('-');
    let y: i64 = dp.next()?.parse().ok()?;
    let mo: i64 = dp.next()?.parse().ok()?;
    let d: i64 = dp.next()?.parse().ok()?;
    if dp.next().is_some() || !(0..=9999).contains(&y) || !(1..=12).contains(&mo) {
        return None;
    }
    if d < 1 || d > days_in_month(y, mo) {
        return None;
    }
    let (mut h, mut mi, mut sec, mut ms) = (0i64, 0i64, 0i64, 0i64);
    if let Some(t) = time {
        let (hms, frac) = match t.split_once('.') {
            Some((a, b)) => (a, Some(b)),
            None => (t, None),
        };
        let mut tp = hms.split(':');
        h = tp.next()?.parse().ok()?;
        mi = tp.next().map(str::parse).transpose().ok()?.unwrap_or(0);
        sec = tp.next().map(str::parse).transpose().ok()?.unwrap_or(0);
        if tp.next().is_some() || h > 23 || mi > 59 || sec > 59 || h < 0 || mi < 0 || sec < 0 {
            return None;
        }
        if let Some(f) = frac {
            if f.is_empty() || f.len() > 3 || !f.bytes().all(|c| c.is_ascii_digit()) {
                return None;
            }
            let v: i64 = f.parse().ok()?;
            ms = v * 10i64.pow(3 - f.len() as u32);
        }
    }
    Some(
        to_millis(&Civil {
            y,
            mo,
            d,
            h,
            mi,
            s: sec,
            ms,
        }) - offset_ms,
    )
}

/// [`parse_iso`]'s common forms at fixed places, with no splitting: `YYYY-MM-DD`, then `T`
/// or a space and `HH:MM:SS`, an optional `.` and 1–3 digits, and `Z` or an offset or
/// nothing. `None` for anything else (the general parser decides), so both agree wherever
/// this answers. A file's time column is parsed once per row: this is the reading's hot
/// path (a third of the time of reading a CSV with a time column went to the general one).
pub(crate) fn fixed_iso(b: &[u8]) -> Option<i64> {
    let digit = |i: usize| -> Option<i64> {
        let c = *b.get(i)?;
        c.is_ascii_digit().then(|| i64::from(c - b'0'))
    };
    let two = |i: usize| Some(digit(i)? * 10 + digit(i + 1)?);
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
        return None;
    }
    let y = two(0)? * 100 + two(2)?;
    let (mo, d) = (two(5)?, two(8)?);
    if !(1..=12).contains(&mo) || d < 1 || d > days_in_month(y, mo) {
        return None;
    }
    let (mut h, mut mi, mut sec, mut ms, mut offset_ms) = (0, 0, 0, 0, 0);
    if b.len() > 10 {
        if !matches!(b.get(10), Some(b'T' | b' '))
            || b.get(13) != Some(&b':')
            || b.get(16) != Some(&b':')
        {
            return None;
        }
        (h, mi, sec) = (two(11)?, two(14)?, two(17)?);
        if h > 23 || mi > 59 || sec > 59 {
            return None;
        }
        let mut at = 19;
        if b.get(at) == Some(&b'.') {
            let n = b
                .get(at + 1..)?
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
            if n == 0 || n > 3 {
                return None;
            }
            for i in 0..3 {
                ms = ms * 10 + if i < n { digit(at + 1 + i)? } else { 0 };
            }
            at += 1 + n;
        }
        match b.get(at..)? {
            [] | [b'Z'] => {}
            off => offset_ms = utc_offset_ms(std::str::from_utf8(off).ok()?)?,
        }
    }
    Some(
        to_millis(&Civil {
            y,
            mo,
            d,
            h,
            mi,
            s: sec,
            ms,
        }) - offset_ms,
    )
}

/// `+HH:MM`, `+HHMM` or `+HH` (or with `-`) in milliseconds; at most 18 hours, as Java's
/// `ZoneOffset` allows.
fn utc_offset_ms(off: &str) -> Option<i64> {
    let two = |a: u8, b: u8| {
        (a.is_ascii_digit() && b.is_ascii_digit()).then(|| i64::from((a - b'0') * 10 + (b - b'0')))
    };
    let (sign, rest) = match off.as_bytes() {
        [b'+', rest @ ..] => (1, rest),
        [b'-', rest @ ..] => (-1, rest),
        _ => return None,
    };
    let (h, m) = match *rest {
        [a, b, b':', c, d] | [a, b, c, d] => (two(a, b)?, two(c, d)?),
        [a, b] => (two(a, b)?, 0),
        _ => return None,
    };
    if m > 59 || h * 60 + m > 18 * 60 {
        return None;
    }
    Some(sign * (h * 60 + m) * 60_000)
}
