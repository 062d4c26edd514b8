//! The analyzer's options and sample: the key sample is sorted, bounded and names each key's
//! region; bad options are refused naming the option; times outside the axis are clamped.

use rowkey_lab::analyze::{AnalyzeOptions, Analyzer, AnalyzerOptions};
use rowkey_lab::hbase::bytes::to_bytes_str;

use super::common::{opts, random_keys};
use crate::cases::Failures;

#[test]
fn sample_is_sorted_and_bounded() {
    let o = AnalyzerOptions {
        sample_size: 50,
        ..opts(4, 1000)
    };
    let mut a = Analyzer::new(vec![b"8".to_vec()], o).unwrap();
    random_keys(&mut a, 1000, 10);
    let r = a.finish();
    assert_eq!(r.sample.len(), 50);
    let mut failures = Failures::new("the key sample (split at \"8\")");
    for (i, p) in r.sample.windows(2).enumerate() {
        failures.check(
            format!("sample {i} and {}: in order", i + 1),
            p[0].key <= p[1].key,
            format!("{:?} sorts after {:?}", p[0].key, p[1].key),
        );
    }
    for (i, s) in r.sample.iter().enumerate() {
        let expected = usize::from(s.key.as_slice() >= b"8".as_slice());
        failures.eq(
            format!("sample {i} {:?}: region", s.key),
            &s.region,
            &expected,
        );
    }
    failures.finish();
    // The serialized form renders the key: hex and toStringBinary, and reads back.
    let text = serde_json::to_value(&r.sample[0]).unwrap();
    assert_eq!(
        text["keyHex"],
        rowkey_lab::hbase::bytes::to_hex(&r.sample[0].key)
    );
    assert_eq!(
        text["key"],
        rowkey_lab::hbase::bytes::to_string_binary(&r.sample[0].key)
    );
    let back: rowkey_lab::analyze::SampleKey = serde_json::from_value(text).unwrap();
    assert_eq!(back, r.sample[0]);
}

#[test]
fn bad_options_are_refused() {
    let mut failures = Failures::new("analyzer options that are refused");
    let refused: [(&str, Vec<Vec<u8>>, AnalyzerOptions); 4] = [
        (
            "a split key twice",
            vec![b"a".to_vec(), b"a".to_vec()],
            opts(4, 1000),
        ),
        ("an empty split key", vec![vec![]], opts(4, 1000)),
        ("0 windows", vec![], opts(0, 1000)),
        ("0 ms windows", vec![], opts(4, 0)),
    ];
    for (case, keys, o) in refused {
        failures.check(case, Analyzer::new(keys, o).is_err(), "accepted");
    }
    failures.finish();
    // 100 000 regions × 1000 windows is above the cell budget.
    let many: Vec<Vec<u8>> = (1..20_000u32).map(|i| i.to_be_bytes().to_vec()).collect();
    let err = Analyzer::new(many, opts(1000, 1000)).unwrap_err();
    assert!(err.message.contains("cells"));
    // Times outside the axis are clamped and counted, never a panic.
    let mut a = Analyzer::new(vec![], opts(4, 1000)).unwrap();
    a.push(b"", i64::MIN, u64::MAX);
    a.push(&to_bytes_str("x"), i64::MAX, u64::MAX);
    let r = a.finish();
    assert_eq!(r.writes_outside_windows, 2);
    assert_eq!(r.matrix.cells, vec![1, 0, 0, 1]);
    // A whole-document analysis names the option at fault, 0 windows included (it used to
    // run with 1 window instead).
    let doc = rowkey_lab::design::DesignDocument::from_json(
        r#"{"v": 1, "fields": [{"name": "a", "type": "string"}], "key": "a"}"#,
    )
    .unwrap();
    let mut failures = Failures::new("analyze options that are refused, by path");
    for (case, o, path) in [
        (
            "windows 0",
            AnalyzeOptions {
                windows: 0,
                ..AnalyzeOptions::default()
            },
            "windows",
        ),
        (
            "windows 70000",
            AnalyzeOptions {
                windows: 70_000,
                ..AnalyzeOptions::default()
            },
            "windows",
        ),
        (
            "gridBuckets 0",
            AnalyzeOptions {
                grid_buckets: 0,
                ..AnalyzeOptions::default()
            },
            "gridBuckets",
        ),
    ] {
        match rowkey_lab::analyze::analyze(&doc, &o) {
            Ok(_) => failures.fail(case, "accepted"),
            Err(e) => {
                failures.eq(
                    format!("{case}: path of `{e}`"),
                    &e.location.path.as_deref(),
                    &Some(path),
                );
            }
        }
    }
    failures.finish();
}
