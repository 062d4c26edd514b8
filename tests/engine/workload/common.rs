//! Helpers of the workload tests: field declarations, specs, and one field's column of values.

use rowkey_lab::keyspec::FieldType;
use rowkey_lab::region::RegionLayout;
use rowkey_lab::workload::{FieldDecl, FieldValue, Generator, WorkloadSpec, WorkloadStream};

/// A generator from its JSON form.
pub fn gen(json: &str) -> Generator {
    serde_json::from_str(json).unwrap()
}

/// A field declaration with an optional generator in JSON.
pub fn field(name: &str, t: FieldType, g: Option<&str>) -> FieldDecl {
    FieldDecl {
        name: name.into(),
        field_type: t,
        cardinality: None,
        generator: g.map(gen),
    }
}

/// A workload of `records` records from `seed`.
pub fn spec(records: u64, seed: u64) -> WorkloadSpec {
    WorkloadSpec {
        records,
        seed,
        ..WorkloadSpec::default()
    }
}

/// All values of field 0.
pub fn column(records: u64, seed: u64, f: FieldDecl) -> Vec<FieldValue> {
    WorkloadStream::new(&spec(records, seed), &[f])
        .unwrap()
        .map(|mut r| r.values.remove(0))
        .collect()
}

/// The values as longs, or the test fails.
pub fn longs(v: &[FieldValue]) -> Vec<i64> {
    v.iter()
        .map(|x| match x {
            FieldValue::Long(n) => *n,
            other => panic!("expected a long, got {other:?}"),
        })
        .collect()
}

/// The values as strings, or the test fails.
pub fn strs(v: &[FieldValue]) -> Vec<String> {
    v.iter()
        .map(|x| match x {
            FieldValue::Str(s) => s.clone(),
            other => panic!("expected a string, got {other:?}"),
        })
        .collect()
}

/// A mix of every generator kind, for determinism tests.
pub fn telecom_fields() -> Vec<FieldDecl> {
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
pub fn digest(records: u64, seed: u64) -> u64 {
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

/// The split keys of a region layout in JSON.
pub fn keys_of(json: &str) -> rowkey_lab::Result<Vec<Vec<u8>>> {
    let l: RegionLayout = serde_json::from_str(json).unwrap();
    l.split_keys(&[])
}
