//! What a key writes: each type's encoding and each rendering (`cases/encodings.json`), the
//! salts of the real systems (`cases/salts.json`), the layout of segments in a key, and the
//! errors of encoding, which name the record and the field.

use rowkey_lab::keyspec::{self, CompiledKey, FieldType, KeySpec, Width};
use serde_json::json;

use super::common::{fd, fixture_fields, hex, rec, spec, text};
use crate::cases::{entries, fixture, Failures};

/// Every case of the encode fixture `name`: the key text writes, for the fixture's record (or
/// the case's own), the bytes `hex` or the text `text`; the number of cases.
fn encode_cases(name: &str) -> usize {
    let f = fixture("keyspec", name);
    let fields = fixture_fields(&f);
    let mut failures = Failures::new(format!("keyspec/cases/{name}"));
    for (i, case) in entries(&f, "cases") {
        let key = text(case, "key");
        let record = case.get("record").unwrap_or(&f["record"]);
        let name = format!("#{i} `{key}` on {record}");
        let written = KeySpec::parse_text(key)
            .and_then(|s| keyspec::encode(&s, &fields, &rec(record.clone())));
        let written = match written {
            Ok(k) => k,
            Err(e) => {
                failures.fail(&name, format!("does not encode: {e}"));
                continue;
            }
        };
        match (case["hex"].as_str(), case["text"].as_str()) {
            (Some(want), None) => failures.eq(&name, hex(&written).as_str(), want),
            (None, Some(want)) => {
                failures.eq(&name, String::from_utf8_lossy(&written).as_ref(), want)
            }
            _ => failures.check(&name, false, "the case needs one of `hex` or `text`"),
        };
    }
    failures.finish();
    entries(&f, "cases").count()
}

#[test]
fn bytes_to_bytes_encodings() {
    let n = encode_cases("encodings.json");
    assert!(n >= 13, "13 cases in encodings.json, found {n}");
    // Sortable doubles order like numbers.
    let fields = [fd("d", FieldType::Double)];
    let mut ck =
        CompiledKey::new(&spec("double(d, sortable)"), &fields).unwrap_or_else(|e| panic!("{e}"));
    let nums = [-1e300, -2.5, -0.0, 0.0, 1e-300, 3.0, f64::MAX];
    let keys: Vec<Vec<u8>> = nums
        .iter()
        .map(|d| ck.encode_json(&rec(json!({ "d": d }))).unwrap_or_default())
        .collect();
    assert!(keys.windows(2).all(|w| w[0] < w[1]), "{keys:?}");
}

#[test]
fn salts_of_the_real_systems() {
    let n = encode_cases("salts.json");
    assert!(n >= 6, "6 cases in salts.json, found {n}");
}

#[test]
fn layout_offsets_and_spans() {
    let fields = [
        fd("phone", FieldType::String),
        fd("ts", FieldType::Timestamp),
    ];
    let s = spec(r#"salt(phone, 10, as=dec(2)) + "_" + phone + "_" + revts(ts)"#);
    let ck = CompiledKey::new(&s, &fields).unwrap_or_else(|e| panic!("{e}"));
    let l = ck.layout();
    assert_eq!(l.len(), 5);
    assert_eq!((l[0].offset, l[0].width), (Some(0), Width::Fixed(2)));
    assert_eq!((l[1].offset, l[1].width), (Some(2), Width::Fixed(1)));
    assert_eq!((l[2].offset, l[2].width), (Some(3), Width::Variable));
    assert_eq!(l[3].offset, None);
    assert_eq!(l[4].width, Width::Fixed(8));
    assert_eq!(l[0].kind, "salt");
    assert_eq!(l[2].field.as_deref(), Some("phone"));
    assert_eq!(ck.key_length(), (12, None));
    let mut ck = ck;
    let key = ck
        .encode_json(&rec(json!({"phone": "134", "ts": 0})))
        .unwrap_or_default();
    assert_eq!(
        ck.segment_spans(&key).unwrap_or_default(),
        vec![(0, 2), (2, 3), (3, 6), (6, 7), (7, 15)]
    );
    let json = serde_json::to_value(&l).unwrap_or_default();
    assert_eq!(json[0]["width"], json!({"fixed": 2}));
    assert_eq!(json[2]["width"], json!("variable"));
}

#[test]
fn encode_all_lays_keys_end_to_end_and_names_the_bad_record() {
    let fields = [fd("id", FieldType::Long), fd("name", FieldType::String)];
    let mut ck = CompiledKey::new(&spec(r#"long(id) + "_" + name"#), &fields)
        .unwrap_or_else(|e| panic!("{e}"));
    let records: Vec<_> = [
        json!({"id": 1, "name": "a"}),
        json!({"id": -2, "name": "bcd"}),
    ]
    .into_iter()
    .map(rec)
    .collect();
    let (mut keys, mut ends) = (vec![0xee], vec![]);
    ck.encode_all(&records, &mut keys, &mut ends)
        .unwrap_or_else(|e| panic!("{e}"));
    // Appended after what the buffer held; key i ends at ends[i]; each is the key alone.
    assert_eq!(ends, vec![1 + 10, 1 + 10 + 12]);
    assert_eq!(hex(&keys[1..11]), "00000000000000015f61");
    assert_eq!(&keys[11..], b"\xff\xff\xff\xff\xff\xff\xff\xfe_bcd");
    // Record 1 lacks its name: the error says which record and which field; record 0 stays.
    let bad: Vec<_> = [json!({"id": 7, "name": "x"}), json!({"id": 8})]
        .into_iter()
        .map(rec)
        .collect();
    let (mut keys, mut ends) = (vec![], vec![]);
    let e = ck.encode_all(&bad, &mut keys, &mut ends).err();
    let e = e.unwrap_or_else(|| panic!("expected an error"));
    assert_eq!(e.location.path.as_deref(), Some("records[1].name"), "{e}");
    assert!(e.message.contains("no value"), "{e}");
    assert_eq!(ends, vec![10]);
    assert_eq!(keys.len(), 10);
}

#[test]
fn encode_errors_name_the_field() {
    let fields = [fd("id", FieldType::Long), fd("name", FieldType::String)];
    let s = spec(r#"long(id) + fixed(name, 4)"#);
    let e = keyspec::encode(&s, &fields, &rec(json!({"id": "12a", "name": "x"}))).err();
    let e = e.unwrap_or_else(|| panic!("expected an error"));
    assert!(
        e.message.contains("`id`") && e.message.contains("long") && e.message.contains("12a"),
        "{e}"
    );
    let e = keyspec::encode(&s, &fields, &rec(json!({"id": 1, "name": "toolong"}))).err();
    assert!(e.is_some_and(|e| e.message.contains("`name`") && e.message.contains("7 bytes")));
    let e = keyspec::encode(&s, &fields, &rec(json!({"id": 1}))).err();
    assert!(e.is_some_and(|e| e.message.contains("`name`") && e.message.contains("no value")));
    let e = CompiledKey::new(&spec("long(name)"), &fields).err();
    assert!(e.is_some_and(
        |e| e.message.contains("string") && e.location.path.as_deref() == Some("segments/0")
    ));
    let e = CompiledKey::new(&spec("str(nope)"), &fields).err();
    assert!(e.is_some_and(|e| e.message.contains("`nope`") && e.message.contains("id, name")));
    // A long beyond 2^53 survives as a decimal string.
    let k = keyspec::encode(
        &spec("id"),
        &fields,
        &rec(json!({"id": "9007199254740993"})),
    )
    .unwrap_or_default();
    assert_eq!(hex(&k), "0020000000000001");
    let d = keyspec::decode(&spec("id"), &fields, &k).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.fields[0].value, json!("9007199254740993"));
}
