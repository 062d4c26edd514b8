//! Each generator's values: bounds that always hold (checked value by value), distribution
//! shapes with generous statistical bounds, text shapes (phones, UUIDs), lists and constants,
//! and the default generator of each type.

use std::collections::{HashMap, HashSet};

use rowkey_lab::keyspec::FieldType;
use rowkey_lab::workload::{FieldValue, WorkloadStream};

use super::common::{column, field, longs, spec, strs};
use crate::cases::Failures;

#[test]
fn clock_jitter_stays_in_bounds() {
    let f = field(
        "ts",
        FieldType::Timestamp,
        Some(r#"{"kind": "clock", "start": 0, "rate": 10, "jitterMs": 30}"#),
    );
    let v = longs(&column(1000, 1, f));
    let mut failures = Failures::new("a clock at 10 writes/s from 0 with 30 ms of jitter");
    for (i, x) in v.iter().enumerate() {
        let base = i as i64 * 100;
        failures.check(
            format!("record {i}"),
            (base - 30..=base + 30).contains(x),
            format!("expected {base} ± 30, actual {x}"),
        );
    }
    failures.finish();
    assert!(v.iter().enumerate().any(|(i, x)| *x != i as i64 * 100));
}

#[test]
fn sequence_and_its_text_form() {
    let v = longs(&column(
        4,
        0,
        field(
            "id",
            FieldType::Long,
            Some(r#"{"kind": "sequence", "start": 10, "step": -3}"#),
        ),
    ));
    assert_eq!(v, vec![10, 7, 4, 1]);
    let s = strs(&column(
        3,
        0,
        field("id", FieldType::String, Some(r#"{"kind": "sequence"}"#)),
    ));
    assert_eq!(s, vec!["0", "1", "2"]);
}

#[test]
fn uniform_int_mean_and_range() {
    let v = longs(&column(
        20_000,
        3,
        field(
            "x",
            FieldType::Long,
            Some(r#"{"kind": "uniformInt", "min": -100, "max": 100}"#),
        ),
    ));
    assert!(v.iter().all(|x| (-100..=100).contains(x)));
    assert!(v.contains(&-100) && v.contains(&100));
    let mean = v.iter().sum::<i64>() as f64 / v.len() as f64;
    // sd of one draw is about 58; of the mean over 20000 about 0.41.
    assert!(mean.abs() < 3.0, "mean {mean}");
}

#[test]
fn zipf_concentrates_on_few_values() {
    // n = 1000, s = 1.1: P(rank 1) = 1 / H(1000, 1.1) ~ 1 / 6.17 ~ 0.16.
    let v = longs(&column(
        50_000,
        11,
        field(
            "u",
            FieldType::Long,
            Some(r#"{"kind": "zipf", "n": 1000, "s": 1.1, "scramble": false}"#),
        ),
    ));
    let zeros = v.iter().filter(|x| **x == 0).count() as f64 / v.len() as f64;
    assert!((0.13..0.20).contains(&zeros), "share of rank 1: {zeros}");
    assert!(v.iter().all(|x| (0..1000).contains(x)));
    // Scrambled: the hottest value is usually not 0 but its share is the same.
    let w = longs(&column(
        50_000,
        11,
        field(
            "u",
            FieldType::Long,
            Some(r#"{"kind": "zipf", "n": 1000, "s": 1.1}"#),
        ),
    ));
    let mut counts: HashMap<i64, usize> = HashMap::new();
    for x in &w {
        *counts.entry(*x).or_default() += 1;
    }
    let top = *counts.values().max().unwrap() as f64 / w.len() as f64;
    assert!((0.13..0.20).contains(&top), "top share {top}");
}

#[test]
fn weighted_follows_the_weights() {
    let v = strs(&column(
        30_000,
        2,
        field(
            "engine",
            FieldType::String,
            Some(
                r#"{"kind": "weighted", "values": ["petrol", "diesel", "electric", "never"], "weights": [6, 3, 1, 0]}"#,
            ),
        ),
    ));
    let share = |s: &str| v.iter().filter(|x| *x == s).count() as f64 / v.len() as f64;
    assert!((share("petrol") - 0.6).abs() < 0.02);
    assert!((share("diesel") - 0.3).abs() < 0.02);
    assert!((share("electric") - 0.1).abs() < 0.015);
    assert_eq!(share("never"), 0.0);
}

#[test]
fn hotspot_sends_the_hot_fraction_to_the_hot_set() {
    let v = longs(&column(
        20_000,
        4,
        field(
            "k",
            FieldType::Long,
            Some(
                r#"{"kind": "hotspot", "min": 0, "max": 999, "hotSetFraction": 0.1, "hotOpFraction": 0.9}"#,
            ),
        ),
    ));
    let hot = v.iter().filter(|x| **x < 100).count() as f64 / v.len() as f64;
    assert!((hot - 0.9).abs() < 0.02, "hot share {hot}");
    assert!(v.iter().all(|x| (0..1000).contains(x)));
}

#[test]
fn latest_reads_recent_ids() {
    let v = longs(&column(
        5_000,
        8,
        field(
            "id",
            FieldType::Long,
            Some(r#"{"kind": "latest", "s": 1.2}"#),
        ),
    ));
    let mut newest = 0usize;
    let mut failures = Failures::new("latest ids (s = 1.2)");
    for (i, x) in v.iter().enumerate() {
        failures.check(
            format!("record {i}"),
            (0..=i as i64).contains(x),
            format!("read the future id {x}"),
        );
        if *x == i as i64 {
            newest += 1;
        }
    }
    failures.finish();
    // Rank 1 (the newest id) has a large share for s = 1.2 (over 1/ζ(1.2) ~ 0.18 even for
    // the largest n).
    assert!(
        newest as f64 / v.len() as f64 > 0.18,
        "newest share {newest}"
    );
}

#[test]
fn phone_numbers_have_the_shape_and_the_distinct_count() {
    let v = strs(&column(
        20_000,
        6,
        field(
            "phone",
            FieldType::String,
            Some(r#"{"kind": "phone", "prefixes": ["134", "188"], "digits": 8, "distinct": 50}"#),
        ),
    ));
    let mut failures = Failures::new("phone numbers of prefixes 134 and 188, 8 digits");
    for (i, p) in v.iter().enumerate() {
        let case = format!("number {i} {p:?}");
        failures.eq(format!("{case}: length"), &p.len(), &11);
        failures.check(
            format!("{case}: prefix"),
            p.starts_with("134") || p.starts_with("188"),
            "expected 134 or 188",
        );
        failures.check(
            format!("{case}: digits"),
            p.bytes().all(|b| b.is_ascii_digit()),
            "expected digits only",
        );
    }
    failures.finish();
    let distinct: HashSet<&String> = v.iter().collect();
    assert_eq!(distinct.len(), 50);
    let free = strs(&column(
        1000,
        6,
        field("p", FieldType::String, Some(r#"{"kind": "phone"}"#)),
    ));
    assert!(free.iter().all(|p| p.len() == 11 && p.starts_with('1')));
    let as_long = longs(&column(
        10,
        6,
        field(
            "p",
            FieldType::Long,
            Some(r#"{"kind": "phone", "prefixes": ["135"], "digits": 8}"#),
        ),
    ));
    assert!(as_long
        .iter()
        .all(|x| (13_500_000_000..13_600_000_000).contains(x)));
}

#[test]
fn uuids_are_version_4() {
    let v = strs(&column(
        200,
        1,
        field("u", FieldType::String, Some(r#"{"kind": "uuid"}"#)),
    ));
    let mut failures = Failures::new("version 4 UUIDs");
    for (i, u) in v.iter().enumerate() {
        let case = format!("uuid {i} {u}");
        failures.eq(format!("{case}: length"), &u.len(), &36);
        let parts: Vec<&str> = u.split('-').collect();
        failures.eq(
            format!("{case}: groups"),
            &parts.iter().map(|p| p.len()).collect::<Vec<_>>(),
            &vec![8, 4, 4, 4, 12],
        );
        failures.check(
            format!("{case}: version"),
            parts.get(2).is_some_and(|p| p.starts_with('4')),
            "expected the third group to start with 4",
        );
        failures.check(
            format!("{case}: variant"),
            parts
                .get(3)
                .and_then(|p| p.as_bytes().first())
                .is_some_and(|b| matches!(b, b'8' | b'9' | b'a' | b'b')),
            "expected the fourth group to start with 8, 9, a or b",
        );
    }
    failures.finish();
    assert_eq!(v.iter().collect::<HashSet<_>>().len(), 200);
    let c = strs(&column(
        5,
        1,
        field(
            "u",
            FieldType::String,
            Some(r#"{"kind": "uuid", "compact": true, "upperCase": true}"#),
        ),
    ));
    assert!(c
        .iter()
        .all(|u| u.len() == 32 && !u.bytes().any(|b| b.is_ascii_lowercase())));
}

#[test]
fn lists_constants_and_strings() {
    let seq = strs(&column(
        5,
        0,
        field(
            "p",
            FieldType::String,
            Some(r#"{"kind": "list", "values": ["a", "b", 3], "order": "sequential"}"#),
        ),
    ));
    assert_eq!(seq, vec!["a", "b", "3", "a", "b"]);
    let uni = longs(&column(
        3000,
        0,
        field(
            "p",
            FieldType::Int,
            Some(r#"{"kind": "list", "values": [7, "8", 9]}"#),
        ),
    ));
    let mut failures = Failures::new("a uniform list of 7, \"8\", 9 over 3000 records");
    for x in [7, 8, 9] {
        let c = uni.iter().filter(|v| **v == x).count();
        failures.check(
            format!("value {x}"),
            (850..1150).contains(&c),
            format!("expected 850..1150 draws, actual {c}"),
        );
    }
    failures.finish();
    let k = column(
        3,
        0,
        field(
            "c",
            FieldType::Boolean,
            Some(r#"{"kind": "constant", "value": true}"#),
        ),
    );
    assert_eq!(k, vec![FieldValue::Bool(true); 3]);
    // A timestamp list takes ISO-8601 text as records do; 2021-09-07T00:00:00Z is
    // 1,630,972,800,000 ms (18,877 days of 86,400,000 ms), +08:00 is eight hours earlier.
    let t = longs(&column(
        3,
        0,
        field(
            "t",
            FieldType::Timestamp,
            Some(
                r#"{"kind": "list", "values": ["2021-09-07T00:00:00Z", "2021-09-07T08:00:00+08:00", 5], "order": "sequential"}"#,
            ),
        ),
    ));
    assert_eq!(t, vec![18_877 * 86_400_000, 18_877 * 86_400_000, 5]);
    let iso_in_long = [field(
        "n",
        FieldType::Long,
        Some(r#"{"kind": "constant", "value": "2021-09-07T00:00:00Z"}"#),
    )];
    let e = WorkloadStream::new(&spec(10, 0), &iso_in_long).err();
    assert_eq!(
        e.and_then(|e| e.location.path).as_deref(),
        Some("/fields/0/generator/value"),
        "a long field takes no date"
    );
    let s = strs(&column(
        500,
        0,
        field(
            "s",
            FieldType::String,
            Some(r#"{"kind": "uniformString", "length": 4, "alphabet": "xy"}"#),
        ),
    ));
    assert!(s
        .iter()
        .all(|x| x.len() == 4 && x.chars().all(|c| c == 'x' || c == 'y')));
    assert!(s.iter().collect::<HashSet<_>>().len() == 16);
}

#[test]
fn defaults_by_type() {
    let mut card = field("region", FieldType::String, None);
    card.cardinality = Some(5);
    let fields = vec![
        field("s", FieldType::String, None),
        field("i", FieldType::Short, None),
        field("d", FieldType::Double, None),
        field("b", FieldType::Boolean, None),
        field("ts", FieldType::Timestamp, None),
        field("dec", FieldType::BigDecimal, None),
        card,
    ];
    let mut failures = Failures::new("default generators by type (200 records, seed 1)");
    for (n, r) in WorkloadStream::new(&spec(200, 1), &fields)
        .unwrap()
        .enumerate()
    {
        let case = format!("record {n}");
        match &r.values[..] {
            [FieldValue::Str(s), FieldValue::Long(i), FieldValue::Double(d), FieldValue::Bool(_), FieldValue::Long(ts), FieldValue::Str(dec), FieldValue::Str(c)] =>
            {
                failures.eq(format!("{case}: string {s:?} length"), &s.len(), &8);
                failures.check(
                    format!("{case}: short"),
                    (0..=i64::from(i16::MAX)).contains(i),
                    format!("expected 0..=32767, actual {i}"),
                );
                failures.check(
                    format!("{case}: double"),
                    (0.0..1.0).contains(d),
                    format!("expected [0, 1), actual {d}"),
                );
                failures.eq(format!("{case}: timestamp"), ts, &r.time_ms);
                failures.check(
                    format!("{case}: bigDecimal"),
                    dec.parse::<u64>().is_ok(),
                    format!("expected digits, actual {dec:?}"),
                );
                failures.check(
                    format!("{case}: cardinality 5"),
                    ["0", "1", "2", "3", "4"].contains(&c.as_str()),
                    format!("expected 0..=4, actual {c:?}"),
                );
            }
            other => failures.fail(&case, format!("values of unexpected kinds: {other:?}")),
        }
    }
    failures.finish();
}
