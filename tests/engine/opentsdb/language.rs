//! `uid`, `baseTime` and `tags` in the text and JSON forms: round trips, errors, layout,
//! decoding, and UIDs assigned in order of first appearance.

use rowkey_lab::error::ErrorKind;
use rowkey_lab::keyspec::{CompiledKey, Field, FieldType, KeySpec, Width};
use serde_json::{json, Map, Value};

/// The design of the module's examples: seed 001's `[hostname][log-event][timerange]` as
/// OpenTSDB lays it out, with a metric and two tags.
const TEXT: &str = r#"salt(uid(metric, 3, ["sys.cpu.user"=1]) + tags(uid(host) + uid(dc, 3, ["lga"=1, "sjc"=2]), tagk=["host"=2, "dc"=1]), 20, hash=opentsdb, as=bytes(1)) + uid(metric, 3, ["sys.cpu.user"=1]) + baseTime(ts) + tags(uid(host) + uid(dc, 3, ["lga"=1, "sjc"=2]), tagk=["host"=2, "dc"=1])"#;

fn fields() -> Vec<Field> {
    vec![
        Field::new("metric", FieldType::String),
        Field::new("host", FieldType::String),
        Field::new("dc", FieldType::String),
        Field::new("ts", FieldType::Timestamp),
    ]
}

fn record(host: &str, dc: &str, ts: i64) -> Map<String, Value> {
    json!({"metric": "sys.cpu.user", "host": host, "dc": dc, "ts": ts})
        .as_object()
        .unwrap()
        .clone()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn text_and_json_forms_round_trip() {
    let spec = KeySpec::parse_text(TEXT).unwrap();
    assert_eq!(KeySpec::parse_text(&spec.to_text()), Ok(spec.clone()));
    assert_eq!(KeySpec::from_json(&spec.to_json()), Ok(spec.clone()));
    let json: Value = serde_json::from_str(&spec.to_json()).unwrap();
    let tags = &json["segments"][3];
    assert_eq!(tags["kind"], "tags");
    assert_eq!(tags["tagk"], json!({"host": 2, "dc": 1}));
    assert_eq!(tags["of"][0], json!({"kind": "uid", "field": "host"}));
    assert_eq!(
        json["segments"][2],
        json!({"kind": "baseTime", "field": "ts"})
    );
    // Width 3 is the default, written out in the text form.
    assert_eq!(
        KeySpec::parse_text("uid(host)").unwrap().to_text(),
        "uid(host, 3)"
    );
    assert_eq!(
        KeySpec::parse_text("uid(host, width=4, entries=[\"a\"=7])")
            .unwrap()
            .to_text(),
        "uid(host, 4, [\"a\"=7])"
    );
}

#[test]
fn rows_are_opentsdb_rows() {
    let spec = KeySpec::parse_text(TEXT).unwrap();
    let mut ck = CompiledKey::new(&spec, &fields()).unwrap();
    // 2013-01-01T00:00:10Z in ms: base time 1356998400 = 50e22700. Tags by tagk UID: dc (1)
    // before host (2); host's UID is assigned: web01 gets 1, web02 2.
    let a = ck
        .encode_json(&record("web01", "sjc", 1_356_998_410_000))
        .unwrap();
    assert_eq!(&hex(&a)[2..], "00000150e22700000001000002000002000001");
    let b = ck
        .encode_json(&record("web02", "lga", 1_356_998_410_000))
        .unwrap();
    assert_eq!(&hex(&b)[2..], "00000150e22700000001000001000002000002");
    let again = ck
        .encode_json(&record("web01", "sjc", 1_356_999_999_000))
        .unwrap();
    assert_eq!(again, a, "same series, same hour: same row");
    // The salt is OpenTSDB's: |Arrays.hashCode(metric + tags) % 20|.
    let mut unsalted = a.clone();
    unsalted[0] = 0;
    let salt_cfg = rowkey_lab::hbase::opentsdb::row_key::SaltConfig {
        width: 1,
        buckets: 20,
        metric_width: 3,
    };
    rowkey_lab::hbase::opentsdb::row_key::prefix_key_with_salt(&mut unsalted, &salt_cfg).unwrap();
    assert_eq!(unsalted, a);
}

#[test]
fn layout_and_decode_show_the_sorted_tags() {
    let spec = KeySpec::parse_text(TEXT).unwrap();
    let mut ck = CompiledKey::new(&spec, &fields()).unwrap();
    let kinds: Vec<String> = ck.layout().iter().map(|l| l.kind.clone()).collect();
    assert_eq!(
        kinds,
        ["salt", "uid", "baseTime", "literal", "uid", "literal", "uid"]
    );
    let layout = ck.layout();
    assert_eq!(layout[3].text, r#""\x00\x00\x01""#);
    assert_eq!(layout[4].field.as_deref(), Some("dc"));
    assert_eq!(layout[6].offset, Some(17));
    assert!(layout.iter().all(|l| matches!(l.width, Width::Fixed(_))));
    assert_eq!(ck.key_length(), (20, Some(20)));
    let key = ck
        .encode_json(&record("web01", "sjc", 1_356_998_410_000))
        .unwrap();
    let d = ck.decode(&key).unwrap();
    assert_eq!(d.verified, Some(true));
    let got = |n: &str| d.fields.iter().find(|f| f.name == n).unwrap();
    assert_eq!(got("host").value, json!("web01"));
    assert_eq!(got("dc").value, json!("sjc"));
    assert_eq!(got("ts").value, json!(1_356_998_400_000i64));
    assert!(!got("ts").exact);
    // A UID this key never assigned cannot be named.
    let mut other = key.clone();
    other[19] = 9;
    let d = CompiledKey::new(&spec, &fields())
        .unwrap()
        .decode(&other)
        .unwrap();
    assert!(d.unrecoverable.iter().any(|u| u.field == "host"), "{d:?}");
}

#[test]
fn errors_point_at_the_segment() {
    let err = |t: &str| KeySpec::parse_text(t).unwrap_err();
    let e = err(r#"uid(host, 1, ["a"=256])"#);
    assert_eq!(e.kind, ErrorKind::Invalid);
    assert!(e.message.contains("does not fit 1 bytes"), "{e}");
    let e = err("uid(host, 9)");
    assert!(e.message.contains("UID width"), "{e}");
    let e = err(r#"tags(uid(a) + uid(b), tagk=["a"=1])"#);
    assert!(e.message.contains("2 values and 1 tag keys"), "{e}");
    let e = err(r#"tags(uid(a) + uid(b), tagk=["a"=1, "b"=1])"#);
    assert!(e.message.contains("same UID"), "{e:?}");
    assert!(err(r#"tags(uid(a))"#).message.contains("tagk"));
    // Field checks inside tags(...) name the design's own path.
    let spec = KeySpec::parse_text(r#"baseTime(ts) + tags(uid(nope), tagk=["x"=1])"#).unwrap();
    let e = CompiledKey::new(&spec, &fields()).unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("segments/1/of/0"), "{e}");
    let spec = KeySpec::parse_text("baseTime(host)").unwrap();
    assert!(CompiledKey::new(&spec, &fields()).is_err());
    // A name missing from the table is OpenTSDB's NoSuchUniqueName: `invalid`.
    let spec = KeySpec::parse_text(r#"uid(dc, 3, ["lga"=1])"#).unwrap();
    let e = CompiledKey::new(&spec, &fields())
        .unwrap()
        .encode_json(&record("h", "sjc", 0))
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Invalid);
    // OpenTSDB writes no negative timestamp.
    let spec = KeySpec::parse_text("baseTime(ts)").unwrap();
    let mut ck = CompiledKey::new(&spec, &fields()).unwrap();
    assert!(ck.encode_json(&record("h", "d", -1)).is_err());
    // OpenTSDB tells milliseconds by the top 32 bits: a small value is seconds, whatever
    // the field's unit (7,199,999 -> hour 7,196,400).
    assert_eq!(
        ck.encode_json(&record("h", "d", 7_199_999))
            .map(|k| hex(&k)),
        Ok("006dcef0".into())
    );
    assert_eq!(
        ck.encode_json(&record("h", "d", 1_356_998_410_000))
            .map(|k| hex(&k)),
        Ok("50e22700".into())
    );
}

#[test]
fn assigned_uids_run_out_like_opentsdb() {
    let spec = KeySpec::parse_text("uid(host, 1)").unwrap();
    let mut ck = CompiledKey::new(&spec, &fields()).unwrap();
    for i in 1..=255 {
        let k = ck.encode_json(&record(&format!("h{i}"), "d", 0)).unwrap();
        assert_eq!(k, vec![i as u8]);
    }
    let e = ck.encode_json(&record("h256", "d", 0)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Invalid);
    assert_eq!(ck.encode_json(&record("h7", "d", 0)), Ok(vec![7]));
    ck.reset_uids();
    assert_eq!(ck.encode_json(&record("h7", "d", 0)), Ok(vec![1]));
}
