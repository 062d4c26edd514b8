//! The key language against the `TSDB.addPoint` port, over the recorded data points.

use std::path::PathBuf;

use rowkey_lab::error::ErrorKind;
use rowkey_lab::hbase::opentsdb::{add_point, DataPoint, PointValue, TsdbConfig, Uids};
use rowkey_lab::keyspec::{CompiledKey, Field, FieldType, KeySpec};
use serde_json::{json, Map, Value};

fn vectors() -> Vec<Value> {
    let dir = std::env::var_os("VECTORS_PENDING_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/vectors-pending"),
        PathBuf::from,
    );
    let path = dir.join("opentsdb.TSDB.addPoint.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

fn to_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// A UID table `{name: hex}` as the key language's `{name: id}`.
fn ids(table: &Value) -> Map<String, Value> {
    table
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, h)| {
            let b = hex(h.as_str().unwrap());
            let id = b.iter().fold(0i64, |a, &x| (a << 8) | i64::from(x));
            (k.clone(), json!(id))
        })
        .collect()
}

fn width(cfg: &Value, name: &str) -> i64 {
    cfg[name].as_i64().unwrap()
}

/// The OpenTSDB row of one recorded point as a key design: an OpenTSDB salt over the metric
/// and tags, the metric UID, the base time, the tags by tag-key UID. Fields: `metric`, `ts`
/// and `tag.<key>` per tag.
fn design(a: &Value) -> (KeySpec, Vec<Field>, Map<String, Value>) {
    let cfg = &a["config"];
    let tags = a["tags"].as_object().unwrap();
    let metric = json!({"kind": "uid", "field": "metric",
        "width": width(cfg, "metricWidth"), "entries": ids(&a["uids"]["metric"])});
    let tagv = ids(&a["uids"]["tagv"]);
    let tagk_all = ids(&a["uids"]["tagk"]);
    let mut values = Vec::new();
    let mut tagk = Map::new();
    let mut fields = vec![
        Field::new("metric", FieldType::String),
        Field::new("ts", FieldType::Long),
    ];
    let mut record = Map::new();
    record.insert("metric".into(), a["metric"].clone());
    record.insert("ts".into(), a["timestamp"].clone());
    for (k, v) in tags {
        let f = format!("tag.{k}");
        values.push(json!({"kind": "uid", "field": f,
            "width": width(cfg, "tagvWidth"), "entries": tagv}));
        // A tag key without a UID: give it one the table does not use, so the row differs and
        // the value's missing UID (NoSuchUniqueName) is what fails.
        tagk.insert(k.clone(), tagk_all.get(k).cloned().unwrap_or(json!(0)));
        fields.push(Field::new(f.clone(), FieldType::String));
        record.insert(f, v.clone());
    }
    let tags =
        json!({"kind": "tags", "of": values, "tagk": tagk, "width": width(cfg, "tagkWidth")});
    let mut segments = Vec::new();
    let salt_width = width(cfg, "saltWidth");
    if salt_width > 0 {
        segments.push(
            json!({"kind": "salt", "of": [metric, tags], "hash": "opentsdb",
            "buckets": width(cfg, "saltBuckets"), "as": {"bytes": salt_width}}),
        );
    }
    segments.push(metric);
    segments.push(json!({"kind": "baseTime", "field": "ts"}));
    segments.push(tags);
    let spec = KeySpec::from_json(&json!({ "segments": segments }).to_string())
        .unwrap_or_else(|e| panic!("{e}: {a}"));
    (spec, fields, record)
}

/// The port's answer for a recorded point.
fn port(a: &Value) -> Result<Vec<u8>, ErrorKind> {
    let cfg = &a["config"];
    let c = |n: &str| i32::try_from(width(cfg, n)).unwrap();
    let config = TsdbConfig {
        salt_width: c("saltWidth"),
        salt_buckets: c("saltBuckets"),
        metric_width: c("metricWidth"),
        tagk_width: c("tagkWidth"),
        tagv_width: c("tagvWidth"),
        max_tags: c("maxTags"),
    };
    let table = |k: &str| {
        a["uids"][k]
            .as_object()
            .unwrap()
            .iter()
            .map(|(n, h)| (n.clone(), hex(h.as_str().unwrap())))
            .collect()
    };
    let uids = Uids {
        metric: table("metric"),
        tagk: table("tagk"),
        tagv: table("tagv"),
    };
    let tags: Vec<(String, String)> = a["tags"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
        .collect();
    let v = a["value"].as_str().unwrap();
    let value = match a["valueType"].as_str().unwrap() {
        "long" => PointValue::Long(v.parse().unwrap()),
        "float" => PointValue::Float(u32::from_str_radix(v, 16).unwrap()),
        _ => PointValue::Double(u64::from_str_radix(v, 16).unwrap()),
    };
    let metric = a["metric"].as_str().unwrap();
    let p = DataPoint {
        metric,
        timestamp: a["timestamp"].as_str().unwrap().parse().unwrap(),
        value,
        tags: &tags,
    };
    add_point(&config, &uids, &p)
        .map(|put| put.row)
        .map_err(|e| e.kind)
}

#[test]
fn key_language_rows_are_add_points_rows() {
    let (mut same, mut both_fail) = (0, 0);
    let mut bad = Vec::new();
    for v in vectors() {
        let a = &v["args"];
        let want = port(a);
        // The port is proven by the vectors: it must agree with them first.
        match (&want, v["expect"].get("row")) {
            (Ok(row), Some(r)) => assert_eq!(to_hex(row), r.as_str().unwrap()),
            (Err(_), None) => {}
            _ => panic!("the port disagrees with the vector {v}"),
        }
        let (spec, fields, record) = design(a);
        let got = CompiledKey::new(&spec, &fields)
            .and_then(|mut ck| ck.encode_json(&record))
            .map_err(|e| e.kind);
        match (&want, &got) {
            (Ok(w), Ok(g)) if w == g => same += 1,
            // Names OpenTSDB refuses (Tags.validateString, the tag count, NaN values) are checks
            // of its write path, not of the layout: the language writes those rows. A missing
            // UID fails both as `invalid`; a timestamp OpenTSDB refuses fails `baseTime`.
            (Err(ErrorKind::Invalid), Err(ErrorKind::Invalid)) => both_fail += 1,
            (Err(ErrorKind::IllegalArgument), Err(ErrorKind::Invalid)) => both_fail += 1,
            (Err(ErrorKind::IllegalArgument), Ok(_)) => {}
            _ => bad.push(format!(
                "{a}\n  port: {:?}\n  key:  {:?}",
                want.as_ref().map(|r| to_hex(r)),
                got.as_ref().map(|r| to_hex(r))
            )),
        }
        // Every row the language writes decodes back to the point's names.
        if let (Ok(row), Ok(mut ck)) = (&got, CompiledKey::new(&spec, &fields)) {
            let _ = ck.encode_json(&record);
            let d = ck.decode(row).unwrap_or_else(|e| panic!("{e}: {a}"));
            // `None` only where the base time of a millisecond value past 2^32 seconds was cut
            // to an int (the hour the key holds is then not the value's).
            assert_ne!(d.verified, Some(false), "{a}");
        }
    }
    assert!(
        bad.is_empty(),
        "{} rows differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
    assert!(same >= 90, "only {same} rows compared");
    assert!(both_fail >= 2, "only {both_fail} failures compared");
}
