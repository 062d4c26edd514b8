//! Streams: the same seed gives the same stream on every run and build (the fingerprint the
//! wasm build gives too), a field's stream depends on its name, not its position, and write
//! times follow the rate; a block is generated alone as in the whole stream.

use rowkey_lab::keyspec::FieldType;
use rowkey_lab::workload::{FieldValue, Record, WorkloadSpec, WorkloadStream};

use super::common::{column, digest, field, spec, telecom_fields};
use crate::cases::Failures;

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
    let mut failures = Failures::new("next_into against the iterator (300 records, seed 5)");
    while stream.next_into(&mut rec) {
        failures.eq(format!("record {i}"), &Some(&rec), &expected.get(i));
        i += 1;
    }
    failures.finish();
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
    let mut failures = Failures::new("a clock field without rate or start");
    for (i, r) in rows.iter().enumerate() {
        failures.eq(
            format!("record {i} at {} ms", r.time_ms),
            &r.values,
            &vec![FieldValue::Long(r.time_ms)],
        );
    }
    failures.finish();
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
fn a_block_is_generated_alone_as_in_the_whole_stream() {
    // Record i depends on its block alone: a stream seeked to block 2 gives block 2's records
    // (indices, times, values) as the whole stream does, and stops where it is told; blocks
    // restart their random streams, so two blocks' values differ.
    use rowkey_lab::workload::BLOCK_RECORDS;
    let s = spec(3 * BLOCK_RECORDS + 100, 9);
    let whole: Vec<Record> = WorkloadStream::new(&s, &telecom_fields())
        .unwrap()
        .collect();
    assert_eq!(whole.len() as u64, 3 * BLOCK_RECORDS + 100);
    let mut part = WorkloadStream::new(&s, &telecom_fields()).unwrap();
    part.seek(2 * BLOCK_RECORDS, 3 * BLOCK_RECORDS + 50);
    assert_eq!(part.remaining(), BLOCK_RECORDS + 50);
    let got: Vec<Record> = part.collect();
    let b = (2 * BLOCK_RECORDS) as usize;
    assert_eq!(got.as_slice(), &whole[b..b + BLOCK_RECORDS as usize + 50]);
    let n = BLOCK_RECORDS as usize;
    let differ = (0..100)
        .filter(|&i| whole[i].values != whole[n + i].values)
        .count();
    assert!(
        differ > 90,
        "blocks 0 and 1 share {} of 100 first values",
        100 - differ
    );
}
