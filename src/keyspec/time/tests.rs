//! Tests of the time patterns: formatting, parsing back, ISO dates.

use super::*;

/// Format `ms` (UTC) with the tokens.
fn format(toks: &[Tok], ms: i64, out: &mut Vec<u8>) -> Result<()> {
    push_civil(toks, &civil(ms)?, out);
    Ok(())
}

/// Parse formatted bytes back into milliseconds (see [`Parts::resolve`]).
fn parse(toks: &[Tok], b: &[u8]) -> std::result::Result<i64, String> {
    parse_parts(toks, b)?.resolve().map(|(ms, _)| ms)
}

#[test]
fn epoch_and_known_dates() {
    assert_eq!(civil_from_days(0), (1970, 1, 1));
    // 2021-09-07 is day 18877 (computed: 51 years incl. 13 leap days = 18628, + 249).
    assert_eq!(days_from_civil(2021, 9, 7), 18877);
    assert_eq!(civil_from_days(18877), (2021, 9, 7));
    assert_eq!(civil_from_days(-1), (1969, 12, 31));
    assert_eq!(civil_from_days(days_from_civil(2000, 2, 29)), (2000, 2, 29));
}

#[test]
fn round_trip_many_days() {
    let mut d = -800_000i64;
    while d < 2_900_000 {
        let (y, m, dd) = civil_from_days(d);
        assert_eq!(days_from_civil(y, m, dd), d);
        d += 37;
    }
}

#[test]
fn fast_civil_matches_hinnant_over_every_day() {
    for days in DAYS {
        assert_eq!(
            civil_from_days_fast(days),
            Some(civil_from_days(days)),
            "{days}"
        );
    }
    for days in [
        i64::MIN / MS_PER_DAY,
        -719_529,
        2_932_897,
        i64::MAX / MS_PER_DAY,
    ] {
        assert_eq!(civil_from_days_fast(days), None, "{days}");
    }
}

#[test]
fn fixed_buffer_matches_format_macro() {
    // Every token against `format!` of the broken-down parts, over days spread across
    // 0000..=9999 and times of day with every digit position exercised.
    let toks = parse_pattern("yyyy yy MM dd HH mm ss SSS").unwrap_or_default();
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let ms = (x % 315_537_897_600_000) as i64 - 62_167_219_200_000;
        let Ok(c) = civil(ms) else {
            panic!("{ms} is in range")
        };
        let want = format!(
            "{:04} {:02} {:02} {:02} {:02} {:02} {:02} {:03}",
            c.y,
            c.y % 100,
            c.mo,
            c.d,
            c.h,
            c.mi,
            c.s,
            c.ms
        );
        let mut out = Vec::new();
        push_civil(&toks, &c, &mut out);
        assert_eq!(String::from_utf8_lossy(&out), want, "{ms}");
        // Every number at every offset within a word (pairs across two words too).
        for pad in 0..8 {
            let p = format!("'{}'yyyyMMddHHmmssSSS", "-".repeat(pad));
            let toks =
                parse_pattern(if pad == 0 { "yyyyMMddHHmmssSSS" } else { &p }).unwrap_or_default();
            let want = format!(
                "{}{:04}{:02}{:02}{:02}{:02}{:02}{:03}",
                "-".repeat(pad),
                c.y,
                c.mo,
                c.d,
                c.h,
                c.mi,
                c.s,
                c.ms
            );
            out.clear();
            push_civil(&toks, &c, &mut out);
            assert_eq!(String::from_utf8_lossy(&out), want, "{ms} {p}");
        }
    }
}

#[test]
fn patterns_wider_than_the_buffer() {
    // 40 bytes of text: no fixed buffer, same text token by token.
    let toks = parse_pattern("'the day of the event was 'yyyy-MM-dd' ok'").unwrap_or_default();
    assert_eq!(Fixed::new(&toks), None);
    let mut out = Vec::new();
    assert!(format(&toks, 1_638_290_481_900, &mut out).is_ok());
    assert_eq!(out, b"the day of the event was 2021-11-30 ok");
}

#[test]
fn formats_seed_examples() {
    // 1638290481900 ms = 2021-11-30T16:41:21.900Z (seed 000's vehicle timestamps).
    let toks = parse_pattern("yyyyMMddHHmmss").unwrap_or_default();
    let mut out = Vec::new();
    assert!(format(&toks, 1_638_290_481_900, &mut out).is_ok());
    assert_eq!(out, b"20211130164121");
    let toks = parse_pattern("yyyy-MM-dd HH:mm:ss.SSS").unwrap_or_default();
    out.clear();
    assert!(format(&toks, 1_638_290_481_900, &mut out).is_ok());
    assert_eq!(out, b"2021-11-30 16:41:21.900");
    assert_eq!(parse(&toks, &out), Ok(1_638_290_481_900));
}

#[test]
fn quoted_and_bad_patterns() {
    assert_eq!(
        parse_pattern("yy'T'HH").unwrap_or_default(),
        vec![Tok::Year2, Tok::Lit(b"T".to_vec()), Tok::Hour]
    );
    assert!(parse_pattern("yyy").is_err());
    assert!(parse_pattern("EEE").is_err());
    assert!(parse_pattern("'open").is_err());
    assert!(parse_pattern("").is_err());
}

#[test]
fn iso() {
    assert_eq!(parse_iso("1970-01-01"), Some(0));
    assert_eq!(parse_iso("2021-11-30T16:41:21.9Z"), Some(1_638_290_481_900));
    assert_eq!(parse_iso("2021-02-29"), None);
    assert_eq!(parse_iso("x"), None);
    // UTC offsets: the same instant as the UTC time the offset names.
    let utc = parse_iso("2021-09-07T02:00:00Z");
    assert!(utc.is_some());
    for s in [
        "2021-09-07T10:00:00+08:00",
        "2021-09-07T10:00:00+0800",
        "2021-09-07T10:00+08",
    ] {
        assert_eq!(parse_iso(s), utc, "{s}");
    }
    assert_eq!(parse_iso("2021-09-06T20:30:00-05:30"), utc);
    assert_eq!(
        parse_iso("2021-09-07T02:00:00.250+00:00"),
        utc.map(|t| t + 250)
    );
    // Midnight at +01:00 is the day before in UTC.
    assert_eq!(
        parse_iso("2021-09-07T00:00:00+01:00"),
        parse_iso("2021-09-06T23:00:00Z")
    );
    for bad in [
        "2021-09-07T10:00:00+19:00",
        "2021-09-07T10:00:00+08:60",
        "2021-09-07T10:00:00+8",
        "2021-09-07T10:00:00+08:0x",
        "2021-09-07T10:00:00Z+08:00",
        "2021-09-07T10:00:00+",
    ] {
        assert_eq!(parse_iso(bad), None, "{bad}");
    }
}

#[test]
fn out_of_range_years() {
    assert!(civil(i64::MAX).is_err());
    assert!(civil(i64::MIN).is_err());
    assert!(civil(-62_167_219_200_000).is_ok()); // 0000-01-01
}

/// The fast path answers only where the general parser gives the same answer: every
/// combination of valid and broken dates, separators, times, fractions and offsets.
#[test]
fn fixed_iso_agrees_with_the_general_parser() {
    use super::read::{fixed_iso, general_iso};
    let dates = [
        "2013-01-01",
        "2024-02-29",
        "2023-02-29",
        "1900-02-29",
        "2000-02-29",
        "0000-01-01",
        "9999-12-31",
        "2013-00-10",
        "2013-13-10",
        "2013-04-31",
        "2013-1-01",
        "20130101",
        "2013-01-0x",
    ];
    let seps = ["", "T", " ", "t", "_"];
    let times = [
        "05:00:00", "23:59:59", "24:00:00", "12:60:00", "12:00:60", "1:00:00", "12:00",
    ];
    let fracs = ["", ".", ".5", ".25", ".123", ".1234", ".x"];
    let offsets = [
        "", "Z", "z", "+00:00", "+01:00", "-05:30", "-0530", "+08", "+18:00", "+19:00", "+08:60",
        "Z+01:00", "+1", "+01:00Z", " ",
    ];
    let mut answered = 0;
    for d in dates {
        for sep in seps {
            for t in times {
                for f in fracs {
                    for o in offsets {
                        let s = if sep.is_empty() {
                            format!("{d}{o}")
                        } else {
                            format!("{d}{sep}{t}{f}{o}")
                        };
                        if let Some(ms) = fixed_iso(s.as_bytes()) {
                            answered += 1;
                            assert_eq!(Some(ms), general_iso(&s), "{s}");
                        }
                    }
                }
            }
        }
    }
    // The common forms take the fast path.
    assert!(answered > 500, "{answered}");
    for s in [
        "2013-01-01 05:00:00+00:00",
        "2013-01-01T05:00:00Z",
        "2013-01-01T05:00:00.123-05:30",
    ] {
        assert!(fixed_iso(s.as_bytes()).is_some(), "{s}");
    }
}
