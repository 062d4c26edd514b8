//! Time units of a pattern, for cutting a salted range where its salt's time text changes.

/// The time unit a pattern resolves (its finest letter), for cutting salted ranges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Unit {
    Year,
    Month,
    Day,
    Hour,
    Minute,
    Second,
    Milli,
}

impl Unit {
    /// The unit in a note (`hour`).
    pub(super) fn name(self) -> &'static str {
        match self {
            Unit::Year => "year",
            Unit::Month => "month",
            Unit::Day => "day",
            Unit::Hour => "hour",
            Unit::Minute => "minute",
            Unit::Second => "second",
            Unit::Milli => "milli",
        }
    }
}

pub(super) fn pattern_unit(p: &str) -> Unit {
    let mut u = Unit::Year;
    let mut quoted = false;
    for c in p.chars() {
        if c == '\'' {
            quoted = !quoted;
            continue;
        }
        if quoted {
            continue;
        }
        let v = match c {
            'M' => Unit::Month,
            'd' => Unit::Day,
            'H' | 'h' | 'k' | 'K' => Unit::Hour,
            'm' => Unit::Minute,
            's' => Unit::Second,
            'S' => Unit::Milli,
            _ => continue,
        };
        if (v as u8) > (u as u8) {
            u = v;
        }
    }
    u
}

/// The start of the next `unit` after `ms` (UTC).
pub(super) fn next_boundary(ms: i64, unit: Unit) -> Option<i64> {
    use crate::keyspec::time::{civil_from_days, days_from_civil};
    const DAY: i64 = 86_400_000;
    let fixed = |w: i64| ms.div_euclid(w).checked_add(1)?.checked_mul(w);
    match unit {
        Unit::Milli => ms.checked_add(1),
        Unit::Second => fixed(1000),
        Unit::Minute => fixed(60_000),
        Unit::Hour => fixed(3_600_000),
        Unit::Day => fixed(DAY),
        Unit::Month | Unit::Year => {
            let (y, m, _) = civil_from_days(ms.div_euclid(DAY));
            let (ny, nm) = match unit {
                Unit::Month if m == 12 => (y + 1, 1),
                Unit::Month => (y, m + 1),
                _ => (y + 1, 1),
            };
            days_from_civil(ny, nm, 1).checked_mul(DAY)
        }
    }
}
