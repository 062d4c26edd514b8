//! Workload generators, region layouts and skew metrics: determinism, distribution shapes
//! (with generous statistical bounds), exact layout keys and pointed errors.
#![allow(clippy::unwrap_used, clippy::panic)] // test helpers outside #[test] fns fail loudly on purpose

use std::collections::{HashMap, HashSet};

use rowkey_lab::analyze::metrics::{load_metrics, matrix_metrics};
use rowkey_lab::hbase::shell::{shell_create, splits_file};
use rowkey_lab::keyspec::FieldType;
use rowkey_lab::region::{quantile_split_keys, recommend_region_count, PreSplit, RegionLayout};
use rowkey_lab::workload::FieldDecl;
use rowkey_lab::workload::{FieldValue, Generator, Record, WorkloadSpec, WorkloadStream};

fn gen(json: &str) -> Generator {
    serde_json::from_str(json).unwrap()
}

fn field(name: &str, t: FieldType, g: Option<&str>) -> FieldDecl {
    FieldDecl {
        name: name.into(),
        field_type: t,
        cardinality: None,
        generator: g.map(gen),
    }
}

fn spec(records: u64, seed: u64) -> WorkloadSpec {
    WorkloadSpec {
        records,
        seed,
        ..WorkloadSpec::default()
    }
}

/// All values of field 0.
fn column(records: u64, seed: u64, f: FieldDecl) -> Vec<FieldValue> {
    WorkloadStream::new(&spec(records, seed), &[f])
        .unwrap()
        .map(|mut r| r.values.remove(0))
        .collect()
}

fn longs(v: &[FieldValue]) -> Vec<i64> {
    v.iter()
        .map(|x| match x {
            FieldValue::Long(n) => *n,
            other => panic!("expected a long, got {other:?}"),
        })
        .collect()
}

fn strs(v: &[FieldValue]) -> Vec<String> {
    v.iter()
        .map(|x| match x {
            FieldValue::Str(s) => s.clone(),
            other => panic!("expected a string, got {other:?}"),
        })
        .collect()
}

fn telecom_fields() -> Vec<FieldDecl> {
    vec![
        field(
            "phone",
            FieldType::String,
            Some(
                r#"{"kind": "phone", "prefixes": ["134", "135", "188"], "digits": 8, "distinct": 100000, "s": 1.0}"#,
            ),
        ),
        field(
            "ts",
            FieldType::Timestamp,
            Some(r#"{"kind": "clock", "jitterMs": 500}"#),
        ),
        field(
            "engine",
            FieldType::String,
            Some(
                r#"{"kind": "weighted", "values": ["petrol", "diesel", "electric"], "weights": [6, 3, 1]}"#,
            ),
        ),
        field(
            "id",
            FieldType::Long,
            Some(r#"{"kind": "sequence", "start": 1000}"#),
        ),
        field(
            "user",
            FieldType::Long,
            Some(r#"{"kind": "zipf", "n": 1000, "s": 1.1}"#),
        ),
        field(
            "vin",
            FieldType::String,
            Some(r#"{"kind": "uuid", "compact": true}"#),
        ),
        field("score", FieldType::Double, None),
        field("flag", FieldType::Boolean, None),
    ]
}

/// FNV-1a over the records' debug text: a compact fingerprint of a stream.
fn digest(records: u64, seed: u64) -> u64 {
    let stream = WorkloadStream::new(&spec(records, seed), &telecom_fields()).unwrap();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for r in stream {
        for b in format!("{r:?}").bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

#[test]
fn same_seed_same_stream_other_seed_other_stream() {
    let a: Vec<Record> = WorkloadStream::new(&spec(2000, 42), &telecom_fields())
        .unwrap()
        .collect();
    let b: Vec<Record> = WorkloadStream::new(&spec(2000, 42), &telecom_fields())
        .unwrap()
        .collect();
    assert_eq!(a, b);
    let c: Vec<Record> = WorkloadStream::new(&spec(2000, 43), &telecom_fields())
        .unwrap()
        .collect();
    assert_ne!(a, c);
    assert_eq!(digest(500, 7), digest(500, 7));
}

#[test]
fn a_field_stream_depends_on_its_name_not_its_position() {
    let f = field(
        "user",
        FieldType::Long,
        Some(r#"{"kind": "uniformInt", "min": 0, "max": 1000000}"#),
    );
    let alone = column(100, 9, f.clone());
    let with_other: Vec<FieldValue> =
        WorkloadStream::new(&spec(100, 9), &[field("other", FieldType::String, None), f])
            .unwrap()
            .map(|mut r| r.values.remove(1))
            .collect();
    assert_eq!(alone, with_other);
}

#[test]
fn next_into_reuses_one_record_and_matches_the_iterator() {
    let mut stream = WorkloadStream::new(&spec(300, 5), &telecom_fields()).unwrap();
    let expected: Vec<Record> = WorkloadStream::new(&spec(300, 5), &telecom_fields())
        .unwrap()
        .collect();
    let mut rec = Record::default();
    let mut i = 0;
    while stream.next_into(&mut rec) {
        assert_eq!(rec, expected[i]);
        i += 1;
    }
    assert_eq!(i, 300);
    assert_eq!(stream.remaining(), 0);
}

#[test]
fn write_times_follow_the_rate() {
    let s = WorkloadSpec {
        records: 5,
        write_rate: 4.0,
        start_time: 1_000,
        ..WorkloadSpec::default()
    };
    let times: Vec<i64> = WorkloadStream::new(&s, &[])
        .unwrap()
        .map(|r| r.time_ms)
        .collect();
    assert_eq!(times, vec![1000, 1250, 1500, 1750, 2000]);
    assert_eq!(s.end_time(), Some(2250));
    // A clock field without rate or start is the write time itself.
    let f = field("ts", FieldType::Timestamp, None);
    let rows: Vec<Record> = WorkloadStream::new(&s, &[f]).unwrap().collect();
    for r in rows {
        assert_eq!(r.values, vec![FieldValue::Long(r.time_ms)]);
    }
}

#[test]
fn clock_jitter_stays_in_bounds() {
    let f = field(
        "ts",
        FieldType::Timestamp,
        Some(r#"{"kind": "clock", "start": 0, "rate": 10, "jitterMs": 30}"#),
    );
    let v = longs(&column(1000, 1, f));
    for (i, x) in v.iter().enumerate() {
        let base = i as i64 * 100;
        assert!((base - 30..=base + 30).contains(x), "{i}: {x}");
    }
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
    for (i, x) in v.iter().enumerate() {
        assert!((0..=i as i64).contains(x), "record {i} read future id {x}");
        if *x == i as i64 {
            newest += 1;
        }
    }
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
    for p in &v {
        assert_eq!(p.len(), 11, "{p}");
        assert!(p.starts_with("134") || p.starts_with("188"), "{p}");
        assert!(p.bytes().all(|b| b.is_ascii_digit()));
    }
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
    for u in &v {
        assert_eq!(u.len(), 36);
        let parts: Vec<&str> = u.split('-').collect();
        assert_eq!(
            parts.iter().map(|p| p.len()).collect::<Vec<_>>(),
            vec![8, 4, 4, 4, 12]
        );
        assert!(parts[2].starts_with('4'));
        assert!(matches!(parts[3].as_bytes()[0], b'8' | b'9' | b'a' | b'b'));
    }
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
    for x in [7, 8, 9] {
        let c = uni.iter().filter(|v| **v == x).count();
        assert!((850..1150).contains(&c), "{x}: {c}");
    }
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
    for r in WorkloadStream::new(&spec(200, 1), &fields).unwrap() {
        match &r.values[..] {
            [FieldValue::Str(s), FieldValue::Long(i), FieldValue::Double(d), FieldValue::Bool(_), FieldValue::Long(ts), FieldValue::Str(dec), FieldValue::Str(c)] =>
            {
                assert_eq!(s.len(), 8);
                assert!((0..=i64::from(i16::MAX)).contains(i));
                assert!((0.0..1.0).contains(d));
                assert_eq!(*ts, r.time_ms);
                assert!(dec.parse::<u64>().is_ok());
                assert!(["0", "1", "2", "3", "4"].contains(&c.as_str()));
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn json_form_is_camel_case_tagged_and_strict() {
    let g = gen(r#"{"kind": "hotspot", "min": 1, "max": 9, "hotSetFraction": 0.5}"#);
    let back = serde_json::to_value(&g).unwrap();
    assert_eq!(back["kind"], "hotspot");
    assert_eq!(back["hotOpFraction"], 0.8);
    assert!(
        serde_json::from_str::<Generator>(r#"{"kind": "zipf", "n": 10, "exponent": 1}"#).is_err()
    );
    assert!(serde_json::from_str::<Generator>(r#"{"kind": "gaussian"}"#).is_err());
    let w: WorkloadSpec = serde_json::from_str(r#"{"records": 10, "writeRate": 50}"#).unwrap();
    assert_eq!(w.write_rate, 50.0);
    assert!(serde_json::from_str::<WorkloadSpec>(r#"{"records": 10, "rate": 50}"#).is_err());
    let l: RegionLayout = serde_json::from_str(
        r#"{"presplit": {"kind": "hexString", "regions": 4}, "regionServers": 3,
            "autoSplit": {"policy": {"type": "constantSize"}, "config": {"maxFileSize": 1000}},
            "assignment": "balanced"}"#,
    )
    .unwrap();
    assert_eq!(l.region_servers, 3);
    assert_eq!(l.auto_split.unwrap().config.max_file_size, 1000);
    assert!(serde_json::from_str::<RegionLayout>(
        r#"{"presplit": {"kind": "hexString", "regions": 4, "n": 1}}"#
    )
    .is_err());
}

#[test]
fn bad_workloads_get_pointed_errors() {
    let path = |r: rowkey_lab::Result<WorkloadStream>| r.unwrap_err().location.path.unwrap();
    assert_eq!(
        path(WorkloadStream::new(&spec(0, 0), &[])),
        "/workload/records"
    );
    assert_eq!(
        path(WorkloadStream::new(&spec(u64::MAX, 0), &[])),
        "/workload/records"
    );
    let bad_rate = WorkloadSpec {
        write_rate: f64::NAN,
        ..spec(10, 0)
    };
    assert_eq!(
        path(WorkloadStream::new(&bad_rate, &[])),
        "/workload/writeRate"
    );
    let fields = [
        field("a", FieldType::String, None),
        field(
            "b",
            FieldType::Boolean,
            Some(r#"{"kind": "zipf", "n": 10}"#),
        ),
    ];
    assert_eq!(
        path(WorkloadStream::new(&spec(10, 0), &fields)),
        "/fields/1/generator/kind"
    );
    let short = [field(
        "s",
        FieldType::Short,
        Some(r#"{"kind": "sequence", "start": 32000}"#),
    )];
    let e = WorkloadStream::new(&spec(10_000, 0), &short).unwrap_err();
    assert!(e.message.contains("outside"), "{}", e.message);
    let w = [field(
        "w",
        FieldType::String,
        Some(r#"{"kind": "weighted", "values": ["a"], "weights": [1, 2]}"#),
    )];
    assert_eq!(
        path(WorkloadStream::new(&spec(10, 0), &w)),
        "/fields/0/generator/weights"
    );
    let l = [field(
        "l",
        FieldType::Long,
        Some(r#"{"kind": "list", "values": [1, "x"]}"#),
    )];
    assert_eq!(
        path(WorkloadStream::new(&spec(10, 0), &l)),
        "/fields/0/generator/values/1"
    );
    let u = [field("u", FieldType::Long, Some(r#"{"kind": "uuid"}"#))];
    assert!(WorkloadStream::new(&spec(10, 0), &u).is_err());
    let z = [field(
        "z",
        FieldType::Long,
        Some(r#"{"kind": "zipf", "n": 0}"#),
    )];
    assert_eq!(
        path(WorkloadStream::new(&spec(10, 0), &z)),
        "/fields/0/generator/n"
    );
}

fn keys_of(json: &str) -> rowkey_lab::Result<Vec<Vec<u8>>> {
    let l: RegionLayout = serde_json::from_str(json).unwrap();
    l.split_keys(&[])
}

#[test]
fn hex_decimal_and_uniform_splits_have_the_known_keys() {
    // HexStringSplit over 00000000..FFFFFFFF in 16 regions: steps of 0x10000000.
    let hex = keys_of(r#"{"presplit": {"kind": "hexString", "regions": 16}}"#).unwrap();
    let expected: Vec<Vec<u8>> = (1..16u32)
        .map(|i| format!("{:08x}", i << 28).into_bytes())
        .collect();
    assert_eq!(hex, expected);
    assert_eq!(hex[0], b"10000000");
    // DecimalStringSplit over 00000000..99999999 in 10 regions: range 10^8, step 10^7.
    let dec = keys_of(r#"{"presplit": {"kind": "decimalString", "regions": 10}}"#).unwrap();
    let expected: Vec<Vec<u8>> = (1..10u32)
        .map(|i| format!("{:08}", i * 10_000_000).into_bytes())
        .collect();
    assert_eq!(dec, expected);
    // UniformSplit over 8 bytes in 4 regions: 2^64 / 4 = 0x4000000000000000.
    let uni = keys_of(r#"{"presplit": {"kind": "uniform", "regions": 4}}"#).unwrap();
    assert_eq!(
        uni,
        vec![
            vec![0x40, 0, 0, 0, 0, 0, 0, 0],
            vec![0x80, 0, 0, 0, 0, 0, 0, 0],
            vec![0xc0, 0, 0, 0, 0, 0, 0, 0]
        ]
    );
    assert!(
        keys_of(r#"{"presplit": {"kind": "hexString", "regions": 1}}"#)
            .unwrap()
            .is_empty()
    );
    assert!(keys_of(r#"{}"#).unwrap().is_empty());
}

#[test]
fn bytes_split_over_hex_text_leaves_non_hex_keys() {
    // Seed 001's trap: Bytes.split("00000000", "ffffffff") treats the text as bytes, so
    // some split keys start with bytes between '9' (0x39) and 'a' (0x61) that no hex key has:
    // the regions starting there stay empty.
    let keys = keys_of(r#"{"presplit": {"kind": "bytesSplit", "start": "00000000", "end": "ffffffff", "num": 14}}"#).unwrap();
    assert_eq!(keys.len(), 16);
    assert_eq!(keys[0], b"00000000");
    assert_eq!(keys[15], b"ffffffff");
    let non_hex = keys.iter().filter(|k| (0x3a..0x61).contains(&k[0])).count();
    assert!(non_hex >= 5, "{non_hex} keys start between '9' and 'a'");
    // createTable("a", "z", 5): 4 keys, both ends included.
    let ct =
        keys_of(r#"{"presplit": {"kind": "createTable", "start": "a", "end": "z", "regions": 5}}"#)
            .unwrap();
    assert_eq!(ct.len(), 4);
    assert_eq!((ct[0].as_slice(), ct[3].as_slice()), (&b"a"[..], &b"z"[..]));
    let e =
        keys_of(r#"{"presplit": {"kind": "createTable", "start": "a", "end": "z", "regions": 2}}"#)
            .unwrap_err();
    assert_eq!(
        e.location.path.as_deref(),
        Some("/regions/presplit/regions")
    );
    let e = keys_of(r#"{"presplit": {"kind": "bytesSplit", "start": "z", "end": "a", "num": 2}}"#)
        .unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("/regions/presplit/end"));
    assert!(keys_of(r#"{"presplit": {"kind": "hexString", "regions": 0}}"#).is_err());
    assert!(keys_of(r#"{"presplit": {"kind": "decimalString", "regions": 1000000000}}"#).is_err());
}

#[test]
fn salt_and_quantile_layouts() {
    let salt = keys_of(r#"{"presplit": {"kind": "saltBuckets", "buckets": 8}}"#).unwrap();
    assert_eq!(salt, (1..8u8).map(|b| vec![b]).collect::<Vec<_>>());
    let dec = keys_of(
        r#"{"presplit": {"kind": "saltBuckets", "buckets": 10, "style": "decimal", "width": 2}}"#,
    )
    .unwrap();
    assert_eq!(dec[0], b"01");
    assert_eq!(dec[8], b"09");
    let q = keys_of(r#"{"presplit": {"kind": "sampleQuantiles", "regions": 2, "sample": ["d", "a", "c", "b"]}}"#).unwrap();
    assert_eq!(q, vec![b"c".to_vec()]);
    let l: RegionLayout =
        serde_json::from_str(r#"{"presplit": {"kind": "sampleQuantiles", "regions": 3}}"#).unwrap();
    assert!(l.presplit.needs_sample());
    assert!(l.split_keys(&[]).is_err());
    let sample: Vec<Vec<u8>> = (0..90u8).map(|i| vec![i]).collect();
    assert_eq!(l.split_keys(&sample).unwrap(), vec![vec![30u8], vec![60]]);
    assert_eq!(l.region_map(&sample).unwrap().len(), 3);
    let q = quantile_split_keys(&[b"x".to_vec()], 5).unwrap();
    assert!(q.is_empty());
    assert_eq!(PreSplit::default().kind(), "none");
}

#[test]
fn shell_commands_and_split_files() {
    let hex = keys_of(r#"{"presplit": {"kind": "hexString", "regions": 4}}"#).unwrap();
    assert_eq!(
        shell_create("ns:calls", "f", &hex),
        "create 'ns:calls', 'f', SPLITS => ['40000000', '80000000', 'c0000000']"
    );
    assert_eq!(splits_file(&hex), "40000000\n80000000\nc0000000\n");
    let salt = keys_of(r#"{"presplit": {"kind": "saltBuckets", "buckets": 3}}"#).unwrap();
    assert_eq!(
        shell_create("t", "cf", &salt),
        "create 't', 'cf', SPLITS => ['\\x01', '\\x02']"
    );
    assert_eq!(splits_file(&salt), "\\x01\n\\x02\n");
}

#[test]
fn region_count_recommendation() {
    let gib = 1u64 << 30;
    assert_eq!(recommend_region_count(gib).0, 5);
    assert_eq!(recommend_region_count(40 * gib).0, 8);
    assert_eq!(recommend_region_count(500 * gib).0, 50);
    assert_eq!(recommend_region_count(1024 * gib).0, 103);
    assert_eq!(recommend_region_count(u64::MAX).0, 120);
}

#[test]
fn metrics_on_a_generated_workload() {
    // A sequence id bucketed into 10 equal ranges per 1000 records: each window of 1000
    // records lands in exactly one bucket (active = 1), the whole run spreads evenly.
    let ids = longs(&column(
        10_000,
        0,
        field("id", FieldType::Long, Some(r#"{"kind": "sequence"}"#)),
    ));
    let regions = 10;
    let windows = 10;
    let mut cells = vec![0u64; regions * windows];
    for (i, id) in ids.iter().enumerate() {
        let r = (*id / 1000) as usize;
        let w = i / 1000;
        cells[r * windows + w] += 1;
    }
    let m = matrix_metrics(&cells, regions, windows).unwrap();
    assert_eq!(m.mean_active_regions, 1.0);
    assert_eq!(m.max_hotspot_factor, 10.0);
    assert!((m.overall.hotspot_factor - 1.0).abs() < 1e-12);
    assert!((m.overall.effective_parallelism - 10.0).abs() < 1e-9);
    // Uniform ids over the same ranges: every window is spread.
    let uni = longs(&column(
        10_000,
        0,
        field(
            "id",
            FieldType::Long,
            Some(r#"{"kind": "uniformInt", "min": 0, "max": 9999}"#),
        ),
    ));
    let mut per_region = vec![0u64; regions];
    for id in &uni {
        per_region[(*id / 1000) as usize] += 1;
    }
    let lm = load_metrics(&per_region);
    assert_eq!(lm.active_regions, 10);
    assert!(lm.hotspot_factor < 1.15, "{}", lm.hotspot_factor);
    assert!(lm.effective_parallelism > 9.8);
}

/// A fingerprint of a stream that exercises every float path (Zipf with s = 1 and s != 1,
/// latest, hotspot, weighted, doubles as Java text, jitter, a fractional write rate). The
/// same value came out of the wasm32 build under Node (wasm-bindgen-test), which is the point:
/// native and wasm streams are bit-identical. If a generator changes on purpose, update the
/// constant here *and* check the wasm build again.
#[test]
fn stream_fingerprint_is_the_one_wasm_gives() {
    let spec = WorkloadSpec {
        records: 20_000,
        seed: 12345,
        write_rate: 333.3,
        ..WorkloadSpec::default()
    };
    let fields = vec![
        field(
            "phone",
            FieldType::String,
            Some(
                r#"{"kind":"phone","prefixes":["134","135"],"digits":8,"distinct":100000,"s":1.07}"#,
            ),
        ),
        field(
            "ts",
            FieldType::Timestamp,
            Some(r#"{"kind":"clock","jitterMs":77}"#),
        ),
        field(
            "z",
            FieldType::Long,
            Some(r#"{"kind":"zipf","n":123457,"s":0.99}"#),
        ),
        field(
            "z1",
            FieldType::Long,
            Some(r#"{"kind":"zipf","n":1000,"s":1.0}"#),
        ),
        field("l", FieldType::Long, Some(r#"{"kind":"latest","s":1.3}"#)),
        field(
            "h",
            FieldType::Long,
            Some(r#"{"kind":"hotspot","min":0,"max":99999}"#),
        ),
        field(
            "w",
            FieldType::String,
            Some(r#"{"kind":"weighted","values":["a","b","c"],"weights":[0.1,0.7,0.2]}"#),
        ),
        field(
            "d",
            FieldType::String,
            Some(r#"{"kind":"uniformDouble","min":-3.5,"max":1e6}"#),
        ),
        field("dd", FieldType::Double, Some(r#"{"kind":"uniformDouble"}"#)),
        field("u", FieldType::String, Some(r#"{"kind":"uuid"}"#)),
    ];
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for r in WorkloadStream::new(&spec, &fields).unwrap() {
        for b in format!("{r:?}").bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x100_0000_01b3);
        }
    }
    assert_eq!(format!("{h:016x}"), "bd9a9a0c99cb8d94");
}

#[test]
fn a_missing_region_layout_means_one_region_on_one_server() {
    let l = rowkey_lab::region::RegionLayout::default();
    assert_eq!(l.region_servers, 1);
    assert!(l.validate().is_ok());
    assert!(l.split_keys(&[]).map(|k| k.is_empty()).unwrap_or(false));
}

#[test]
fn named_placement_reads_and_writes_as_servers() {
    let l: RegionLayout = serde_json::from_str(
        r#"{"presplit": {"kind": "explicit", "keys": ["b", "c"]},
            "assignment": {"servers": ["rs1,16020,1", "rs2,16020,1", "rs1,16020,1"]}}"#,
    )
    .unwrap();
    // Without `regionServers` the names count the servers.
    assert_eq!(l.region_servers, 2);
    l.validate().unwrap();
    let v = serde_json::to_value(&l).unwrap();
    assert_eq!(
        v["assignment"],
        serde_json::json!({"servers": ["rs1,16020,1", "rs2,16020,1", "rs1,16020,1"]})
    );
    assert_eq!(v["regionServers"], 2);
    let back: RegionLayout = serde_json::from_value(v).unwrap();
    assert_eq!(back, l);
    // The crate's own writer gives the same form.
    let text = serde_json::to_string(&l).unwrap();
    assert!(
        text.contains(r#""assignment":{"servers":["rs1,16020,1","rs2,16020,1","rs1,16020,1"]}"#),
        "{text}"
    );
    // One name per region at creation, checked when the regions are made.
    let two = rowkey_lab::design::DesignDocument::from_json(
        r#"{"v": 1, "fields": [{"name": "a", "type": "string"}], "key": "a",
            "regions": {"presplit": {"kind": "explicit", "keys": ["b", "c"]},
                        "assignment": {"servers": ["a", "b"]}}}"#,
    )
    .unwrap();
    let e = rowkey_lab::analyze::analyze(&two, &Default::default()).unwrap_err();
    assert_eq!(
        e.location.path.as_deref(),
        Some("/regions/assignment/servers")
    );
    for bad in [
        r#"{"assignment": {"servers": ["a"], "extra": 1}}"#,
        r#"{"assignment": {"servers": "a"}}"#,
        r#"{"assignment": 5}"#,
        r#"{"assignment": "random"}"#,
    ] {
        assert!(serde_json::from_str::<RegionLayout>(bad).is_err(), "{bad}");
    }
    let e = rowkey_lab::design::DesignDocument::from_json(
        r#"{"v": 1, "fields": [{"name": "a", "type": "string"}], "key": "a",
            "regions": {"assignment": {"server": ["x"]}}}"#,
    )
    .unwrap_err();
    assert_eq!(
        e.location.path.as_deref(),
        Some("/regions/assignment/server"),
        "{e}"
    );
}

#[test]
fn region_layout_errors_carry_the_document_path() {
    let run = |regions: &str| {
        let doc = rowkey_lab::design::DesignDocument::from_json(&format!(
            r#"{{"v": 1, "fields": [{{"name": "a", "type": "string"}}], "key": "a", "regions": {regions}}}"#
        ));
        doc.and_then(|d| rowkey_lab::analyze::analyze(&d, &Default::default()))
            .unwrap_err()
    };
    // Checked with the layout, before the analyzer's own option check names `regionServers`.
    let e = run(r#"{"regionServers": 0}"#);
    assert_eq!(
        e.location.path.as_deref(),
        Some("/regions/regionServers"),
        "{e}"
    );
    // The split policy and its sizes are as strict as every other object: a misspelt size
    // would have left the 10 GiB default in place.
    let e = run(r#"{"autoSplit": {"config": {"maxFilesize": 1000}}}"#);
    assert_eq!(
        e.location.path.as_deref(),
        Some("/regions/autoSplit/config/maxFilesize"),
        "{e}"
    );
    let e = run(r#"{"autoSplit": {"policy": {"type": "stepping", "prefixLength": 2}}}"#);
    assert_eq!(
        e.location.path.as_deref(),
        Some("/regions/autoSplit/policy/prefixLength"),
        "{e}"
    );
}

#[test]
fn times_in_a_workload_may_be_iso_dates() {
    // 2021-09-01T00:00:00Z is 18,871 days after the epoch: 18,871 × 86,400,000 ms.
    let ms = 18_871i64 * 86_400_000;
    let w: WorkloadSpec =
        serde_json::from_str(r#"{"records": 10, "startTime": "2021-09-01T00:00:00Z"}"#).unwrap();
    assert_eq!(w.start_time, ms);
    let w: WorkloadSpec =
        serde_json::from_str(r#"{"records": 10, "startTime": "2021-09-01T08:00:00+08:00"}"#)
            .unwrap();
    assert_eq!(w.start_time, ms);
    let g = gen(r#"{"kind": "clock", "start": "2021-09-01"}"#);
    assert_eq!(serde_json::to_value(&g).unwrap()["start"], ms);
    let e = rowkey_lab::design::DesignDocument::from_json(
        r#"{"v": 1, "fields": [{"name": "a", "type": "string"}], "key": "a",
            "workload": {"records": 10, "startTime": "yesterday"}}"#,
    )
    .unwrap_err();
    assert_eq!(
        e.location.path.as_deref(),
        Some("/workload/startTime"),
        "{e}"
    );
    assert!(e.message.contains("`yesterday` is not a time"), "{e}");
}
