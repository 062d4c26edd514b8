//! Adversarial sizes: each limit of `rowkey_lab::limits` (and the caps beside the arithmetic
//! they bound) at and just past its value, the error it gives (kind `limit`, the input's path,
//! the limit), and growth checks that fail when a parser's time grows faster than linear.

// A failed assertion is how a test reports; the no-panic rule is for the library.
#![allow(clippy::panic)]

use std::time::{Duration, Instant};

use rowkey_lab::analyze::{analyze, AnalyzeOptions};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::error::{Error, ErrorKind};
use rowkey_lab::limits::{MAX_DECIMAL_DIGITS, MAX_ROW_LENGTH};
use serde_json::json;

fn doc(v: serde_json::Value) -> DesignDocument {
    DesignDocument::from_json(&v.to_string()).unwrap_or_else(|e| panic!("{e}: {v}"))
}

fn run(v: serde_json::Value, region_sample_size: Option<u32>) -> Result<(), Error> {
    let mut opts = AnalyzeOptions::default();
    if let Some(k) = region_sample_size {
        opts.region_sample_size = k;
    }
    analyze(&doc(v), &opts).map(|_| ())
}

fn constant_design(key: &str, records: u64) -> serde_json::Value {
    json!({"v": 1,
        "fields": [{"name": "s", "type": "string", "generator": {"kind": "constant", "value": "a"}},
                   {"name": "n", "type": "long", "generator": {"kind": "sequence"}}],
        "key": key, "workload": {"records": records}})
}

fn assert_limit(e: &Error, words: &[&str]) {
    assert_eq!(e.kind, ErrorKind::Limit, "{e}");
    for w in words {
        assert!(e.to_string().contains(w), "`{e}` lacks `{w}`");
    }
}

#[test]
fn a_row_key_at_hbase_max_row_length_is_analysed_and_one_byte_more_is_refused() {
    let at = format!("fixed(s, {MAX_ROW_LENGTH})");
    assert!(run(constant_design(&at, 10), None).is_ok());
    let past = format!("fixed(s, {MAX_ROW_LENGTH}) + \"x\"");
    let e = DesignDocument::from_json(&constant_design(&past, 10).to_string()).unwrap_err();
    assert_limit(&e, &["/key", "32768 bytes", "32767", "MAX_ROW_LENGTH"]);
}

#[test]
fn the_4_kilobyte_design_that_trapped_the_wasm_is_refused_when_read() {
    // The issue's reproduction: 256 x fixed(s, 65535), a 16 MiB row key. A fixed width past
    // the row limit is refused where it is written, before any record.
    let key = ["fixed(s, 65535)"; 256].join(" + ");
    let e = DesignDocument::from_json(&constant_design(&key, 100).to_string()).unwrap_err();
    assert!(e.to_string().contains("32767"), "{e}");
    assert_eq!(e.location.path.as_deref(), Some("/key"), "{e}");
}

#[test]
fn a_design_whose_every_key_is_too_long_is_refused_when_compiled() {
    // Each segment fits; together they cannot: a limit error before any record.
    let key = "fixed(s, 20000) + fixed(s, 20000)";
    let e = DesignDocument::from_json(&constant_design(key, 100).to_string()).unwrap_err();
    assert_limit(&e, &["/key", "40000 bytes", "32767 bytes"]);
}

#[test]
fn a_variable_key_too_long_for_one_record_is_refused_at_that_record() {
    // str() has no fixed width: the key is checked as it is built.
    let key = ["str(s)"; 9].join(" + ");
    let v = json!({"v": 1,
        "fields": [{"name": "s", "type": "string", "generator": {"kind": "uniformString", "length": 4096}}],
        "key": key, "workload": {"records": 10}});
    let e = run(v, None).unwrap_err();
    assert_limit(&e, &["record 0", "36864 bytes", "32767 bytes"]);
}

#[test]
fn sampled_keys_past_their_byte_limit_stop_the_run_with_a_limit_error() {
    // 30,000-byte keys, 4,096 kept per region over 64 regions would be 7.5 GiB of samples
    // (each region keeps a sample for auto-split's midpoint key: with auto-split only).
    let v = json!({"v": 1,
        "fields": [{"name": "s", "type": "string", "generator": {"kind": "uniformString", "length": 8}},
                   {"name": "n", "type": "long", "generator": {"kind": "sequence"}}],
        "key": "fixed(s, 30000)", "workload": {"records": 200000},
        "regions": {"presplit": {"kind": "uniform", "regions": 64},
                    "autoSplit": {"policy": {"type": "constantSize"}}}});
    let e = run(v, Some(4096)).unwrap_err();
    assert_limit(&e, &["sampled row keys", "regionSampleSize"]);
}

#[test]
fn a_decimal_of_more_digits_than_a_row_key_can_hold_is_refused_before_parsing() {
    use rowkey_lab::keyspec::{FieldType, FieldValue};
    let value = |digits: usize| json!("7".repeat(digits));
    let started = Instant::now();
    let e = FieldValue::from_json("d", FieldType::BigDecimal, &value(1_000_000)).unwrap_err();
    assert_limit(&e, &["d: ", "1000000 digits", "78902 digits"]);
    let e = rowkey_lab::inspect::parse_big_decimal(&"7".repeat(1_000_000)).unwrap_err();
    assert_limit(&e, &["value: ", "1000000 digits"]);
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    // The message quotes no megabyte of user text.
    assert!(e.to_string().len() < 400, "{}", e.to_string().len());
    assert!(FieldValue::from_json("d", FieldType::BigDecimal, &value(MAX_DECIMAL_DIGITS)).is_ok());
}

/// The shortest time of `f` over a few runs: the run least disturbed by other work on the
/// machine (a loaded CI runner makes medians noisy).
fn fastest(mut f: impl FnMut()) -> Duration {
    (0..3)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// Fails when 8x the input takes more than 40x the time: linear is 8x, n log n about 10x,
/// quadratic 64x. The small and the large input run alternately, each timed at its fastest,
/// so a machine busy for a moment slows both alike rather than one of them.
fn assert_linear(what: &str, make: impl Fn(usize) -> String, parse: impl Fn(&str)) {
    let (small, large) = (make(40_000), make(320_000));
    let (mut a, mut b) = (Duration::MAX, Duration::MAX);
    for _ in 0..5 {
        a = a.min(fastest(|| parse(&small)));
        b = b.min(fastest(|| parse(&large)));
    }
    let ratio = b.as_secs_f64() / a.as_secs_f64().max(1e-6);
    assert!(
        ratio < 40.0,
        "{what}: 8x the input took {ratio:.1}x the time ({a:?} -> {b:?})"
    );
}

#[test]
fn the_text_parsers_grow_linearly() {
    assert_linear(
        "key text",
        |n| vec!["str(s)"; n / 8].join(" + "),
        |t| {
            let _ = rowkey_lab::keyspec::KeySpec::parse_text(t);
        },
    );
    assert_linear(
        "design JSON",
        |n| {
            format!(
                "{{\"v\": 1, \"key\": \"str(s)\", \"description\": \"{}\"}}",
                "x".repeat(n * 4)
            )
        },
        |t| {
            let _ = DesignDocument::from_json(t);
        },
    );
    assert_linear(
        "region text",
        |n| {
            (0..n / 16)
                .map(|i| format!("r{i:08}\n"))
                .collect::<String>()
        },
        |t| {
            let _ = rowkey_lab::region::read_regions(t, None);
        },
    );
}

#[test]
fn a_decimal_at_its_digit_limit_parses_in_a_fraction_of_a_second() {
    // Parsing big numbers is quadratic; the digit limit is what bounds it (about 30 ms on an
    // idle core; the bound leaves room for a loaded CI machine, and catches a return of the
    // 1 M-digit, 10-second parse).
    let text = "9".repeat(MAX_DECIMAL_DIGITS);
    let t = fastest(|| {
        assert!(rowkey_lab::inspect::parse_big_decimal(&text).is_ok());
    });
    assert!(t < Duration::from_millis(300), "{t:?}");
}

#[test]
fn region_text_past_the_region_limit_is_refused() {
    use rowkey_lab::region::{read_regions, MAX_REGIONS};
    let lines = |n: u32| (1..n).map(|i| format!("r{i:07}\n")).collect::<String>();
    // n - 1 split keys: n regions.
    assert!(read_regions(&lines(MAX_REGIONS), None).is_ok());
    let e = read_regions(&lines(MAX_REGIONS + 1), None).unwrap_err();
    assert_limit(&e, &["text", "100001 regions", "100000 regions"]);
    let huge = "x".repeat(rowkey_lab::limits::MAX_REGION_TEXT_BYTES + 1);
    assert_limit(
        &read_regions(&huge, None).unwrap_err(),
        &["text", "region text"],
    );
}

#[test]
fn assigned_uids_stop_at_their_limit() {
    use rowkey_lab::keyspec::opentsdb::MAX_ASSIGNED_UIDS;
    use rowkey_lab::keyspec::{CompiledKey, Field, FieldType, FieldValue, KeySpec};
    let spec = KeySpec::parse_text("uid(host, 3)").unwrap();
    let mut ck = CompiledKey::new(&spec, &[Field::new("host", FieldType::Long)]).unwrap();
    let mut out = Vec::new();
    for i in 0..MAX_ASSIGNED_UIDS as i64 {
        out.clear();
        ck.encode_values_into(&mut out, &[FieldValue::Long(i)])
            .unwrap();
    }
    // The last one numbered is the limit itself; a name seen before still has its UID.
    assert_eq!(out, (MAX_ASSIGNED_UIDS as u32).to_be_bytes()[1..].to_vec());
    assert!(ck.encode_values(&[FieldValue::Long(0)]).is_ok());
    let e = ck
        .encode_values(&[FieldValue::Long(MAX_ASSIGNED_UIDS as i64)])
        .unwrap_err();
    assert_limit(&e, &["uid", "table"]);
}

#[test]
fn assigned_uid_names_stop_at_their_bytes() {
    // 148 bytes of design within every other limit: a UID for each distinct string of 4,096
    // characters. Without a bound on the names' bytes it grew until the module trapped.
    use rowkey_lab::keyspec::opentsdb::MAX_UID_NAME_BYTES;
    let doc = rowkey_lab::design::DesignDocument::from_json(
        r#"{"v":1,"fields":[{"name":"s","type":"string","generator":{"kind":"uniformString","length":4096}}],
            "key":"uid(s, 3)","workload":{"records":100000}}"#,
    )
    .unwrap();
    let e = rowkey_lab::analyze::analyze(&doc, &Default::default()).unwrap_err();
    assert_limit(&e, &["uid", "64 MiB", "give a table"]);
    // it stopped at the bytes, not at the count: about MAX / (2 × 4096) names
    let names = MAX_UID_NAME_BYTES / (2 * 4096);
    assert!(
        e.message.contains(&format!("at {names} names")),
        "{}",
        e.message
    );
    // shorter names are numbered as before
    let doc = rowkey_lab::design::DesignDocument::from_json(
        r#"{"v":1,"fields":[{"name":"s","type":"string","generator":{"kind":"uniformString","length":8}}],
            "key":"uid(s, 3)","workload":{"records":100000}}"#,
    )
    .unwrap();
    assert!(rowkey_lab::analyze::analyze(&doc, &Default::default()).is_ok());
}

#[test]
fn error_messages_are_bounded() {
    use rowkey_lab::error::MAX_MESSAGE_CHARS;
    // a field name of 10 MiB, named in the key but not declared
    let name = "n".repeat(10 << 20);
    let doc = serde_json::json!({"v": 1, "fields": [{"name": "a", "type": "string"}], "key": name});
    let e = DesignDocument::from_json(&doc.to_string()).unwrap_err();
    let text = e.to_string();
    assert!(
        text.chars().count() < 2 * MAX_MESSAGE_CHARS + 200,
        "{} characters",
        text.len()
    );
    assert!(
        e.message.chars().count() <= MAX_MESSAGE_CHARS + 40,
        "{}",
        e.message.len()
    );
    // a short message is left whole
    let e = rowkey_lab::Error::new(ErrorKind::Invalid, "x".repeat(MAX_MESSAGE_CHARS));
    assert_eq!(e.message.len(), MAX_MESSAGE_CHARS);
    let e = rowkey_lab::Error::new(ErrorKind::Invalid, "é".repeat(MAX_MESSAGE_CHARS + 1));
    assert!(e
        .message
        .ends_with(&format!("({} characters in all)", MAX_MESSAGE_CHARS + 1)));
}

#[test]
fn shell_text_stops_at_the_result_limit() {
    use rowkey_lab::hbase::shell::{shell_create, splits_file};
    use rowkey_lab::limits::MAX_RESULT_BYTES;
    // 10,000 HBase-legal keys of 32,767 non-printable bytes: 1.3 GB of \xNN text
    let keys = vec![vec![0u8; MAX_ROW_LENGTH]; 10_000];
    assert_limit(
        &shell_create("t", "f", &keys).unwrap_err(),
        &["keys", "result"],
    );
    assert_limit(&splits_file(&keys).unwrap_err(), &["keys", "result"]);
    // a line of the file is 4 characters a byte and a newline: n lines fit, n + 1 do not
    let n = MAX_RESULT_BYTES / (4 * MAX_ROW_LENGTH + 1);
    let fit = vec![vec![0u8; MAX_ROW_LENGTH]; n + 1];
    assert!(splits_file(&fit[..n]).is_ok());
    assert!(splits_file(&fit[..n + 1]).is_err());
}

#[test]
fn every_max_constant_is_in_docs_limits() {
    // A limit nobody can read about is a surprise: docs/limits.md names each one by its
    // module path (`advise::MAX_RECORDS`), so a second limit of the same name in another
    // module is not taken as listed.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let docs = std::fs::read_to_string(root.join("docs/limits.md")).unwrap_or_default();
    let mut missing = Vec::new();
    let mut dirs = vec![root.join("src")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            // src/a/b.rs is module a::b; src/a/mod.rs is a
            let module = path
                .strip_prefix(root.join("src"))
                .unwrap_or(&path)
                .with_extension("")
                .to_string_lossy()
                .trim_end_matches("/mod")
                .replace('/', "::");
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            for line in text.lines() {
                let Some(rest) = line.trim_start().strip_prefix("pub const ") else {
                    continue;
                };
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if name.contains("MAX") && !docs.contains(&format!("`{module}::{name}`")) {
                    missing.push(format!("{module}::{name} ({})", path.display()));
                }
            }
        }
    }
    assert!(missing.is_empty(), "not in docs/limits.md: {missing:?}");
}

#[test]
fn a_dictionary_of_100000_entries_validates_encodes_and_decodes() {
    // Tables were checked and looked up by linear scans: 40,000 entries took 13 s to validate
    // (the page validates at every keystroke) and every encode scanned the table.
    let n = 100_000;
    let entries: Vec<String> = (0..n).map(|i| format!("\"v{i}\"={i}")).collect();
    let key = format!(
        "dict(s, [{}], as=bytes(4)) + uid(s, 4, [{}])",
        entries.join(", "),
        entries.join(", ")
    );
    let values: Vec<String> = (0..n).map(|i| format!("v{i}")).collect();
    let doc = json!({"v": 1, "fields": [{"name": "s", "type": "string",
        "generator": {"kind": "list", "values": values}}], "key": key,
        "workload": {"records": 20000}});
    let d = DesignDocument::from_json(&doc.to_string()).unwrap();
    let r = analyze(&d, &AnalyzeOptions::default()).unwrap();
    assert_eq!(r.writes, 20_000);
    // the last entry encodes to its id twice, and reads back
    let spec = &d.key;
    let fields = d.key_fields();
    let rec = json!({"s": format!("v{}", n - 1)});
    let key = rowkey_lab::keyspec::encode(spec, &fields, rec.as_object().unwrap()).unwrap();
    let id = ((n - 1) as u32).to_be_bytes();
    assert_eq!(key, [id, id].concat());
    // a duplicate is found, named, however far apart
    let dup = key_with_duplicate(n);
    let e = DesignDocument::from_json(&dup.to_string()).unwrap_err();
    assert!(e.message.contains("\"v0\" is listed twice"), "{e}");
}

/// A design whose dictionary lists `v0` again at its end.
fn key_with_duplicate(n: usize) -> serde_json::Value {
    let mut entries: Vec<String> = (0..n).map(|i| format!("\"v{i}\"={i}")).collect();
    entries.push(format!("\"v0\"={n}"));
    json!({"v": 1, "fields": [{"name": "s", "type": "string"}],
        "key": format!("dict(s, [{}])", entries.join(", "))})
}

#[test]
fn a_key_naming_a_field_of_a_megabyte_says_its_start_and_length_not_the_megabyte() {
    // The hostile pass's 10 MiB field name (issue 73): the message quoted all of it, up to the
    // last guard's 1,024 characters; names are cut at 64 characters, as quoted text is.
    let name = "n".repeat(1 << 20);
    let text =
        json!({"v": 1, "fields": [{"name": "a", "type": "string"}], "key": name}).to_string();
    let e = DesignDocument::from_json(&text).unwrap_err();
    assert!(e.message.contains("no field named `"), "{}", e.message);
    assert!(
        e.message.contains(&format!("… ({} characters)", 1 << 20)),
        "{}",
        e.message
    );
    assert!(
        e.message.len() < 300,
        "{} characters: {}",
        e.message.len(),
        e.message
    );
    // a short name is said whole, the declared names listed
    let e = DesignDocument::from_json(
        &json!({"v": 1, "fields": [{"name": "a", "type": "string"}], "key": "zz"}).to_string(),
    )
    .unwrap_err();
    assert!(
        e.message
            .contains("no field named `zz` is declared (declared: a)"),
        "{}",
        e.message
    );
}
