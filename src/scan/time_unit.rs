//! Time units of a pattern, for cutting a salted range where its salt's time text changes.

/// The time unit a pattern resolves (its finest letter), for cutting salted ranges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
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

/// The finest unit `p` writes, from the key compiler's own reading of the pattern (quoted text
/// and literals write none). The planner sees only patterns the compiler took; were one not
/// to parse, milliseconds: the finest cut is never wrong, at worst too many scans (refused).
pub(super) fn pattern_unit(p: &str) -> Unit {
    use crate::keyspec::time::{parse_pattern, Tok};
    let Ok(toks) = parse_pattern(p) else {
        return Unit::Milli;
    };
    let unit = |t: &Tok| match t {
        Tok::Year4 | Tok::Year2 | Tok::Lit(_) => Unit::Year,
        Tok::Month => Unit::Month,
        Tok::Day => Unit::Day,
        Tok::Hour => Unit::Hour,
        Tok::Minute => Unit::Minute,
        Tok::Second => Unit::Second,
        Tok::Milli => Unit::Milli,
    };
    toks.iter().map(unit).max().unwrap_or(Unit::Year)
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
