//! A table whose key opens with salt buckets, cut into regions at its rows (issue 59, "salt
//! buckets kept whole where the key has one"): every door that cuts split points at a user's
//! rows (every key held, by rows and by bytes; the rows session's exact selection past the
//! scan's sample) gives the cut `tests/engine/oracles/cut.rs` computes from a sort of the keys, and
//! the cut keeps each bucket whole — with at least as many regions as buckets every bucket
//! starts a region and no region holds two; with fewer, every split key starts a bucket.
#![cfg(feature = "rows")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use crate::oracles::cut::{byte_bounds, dec_bounds, oracle_cut};
use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rowkey_lab::analyze::{
    encode_batches, split_batches, split_batches_by_bytes, write_bytes, AnalyzeOptions, RowsSession,
};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::rows::RowsOptions;
use serde_json::json;

fn design(key: &str, regions: u32, by: &str) -> DesignDocument {
    DesignDocument::from_json(
        &json!({
            "v": 1,
            "fields": [
                {"name": "device", "type": "string"},
                {"name": "seq", "type": "long"}
            ],
            "key": key,
            "workload": {"records": 1000, "valueSize": 9},
            "regions": {"presplit": {"kind": "sampleQuantiles", "regions": regions, "by": by}}
        })
        .to_string(),
    )
    .unwrap()
}

/// `n` rows over `devices` devices, a few of them far busier than the rest (so buckets are
/// uneven, and with few devices some are empty), device names of uneven length.
fn rows(rng: &mut Xoshiro256PlusPlus, n: usize, devices: u32) -> RecordBatch {
    let names: Vec<String> = (0..n)
        .map(|_| {
            let d = if rng.gen_bool(0.3) {
                rng.gen_range(0..3.min(devices))
            } else {
                rng.gen_range(0..devices)
            };
            format!("dev{}{}", d, "x".repeat((d % 4) as usize))
        })
        .collect();
    let seqs: Vec<i64> = (0..n).map(|_| rng.gen_range(0..400)).collect();
    let schema = Arc::new(Schema::new(vec![
        Field::new("device", DataType::Utf8, false),
        Field::new("seq", DataType::Int64, false),
    ]));
    let cols: Vec<ArrayRef> = vec![
        Arc::new(StringArray::from(names)),
        Arc::new(Int64Array::from(seqs)),
    ];
    RecordBatch::try_new(schema, cols).unwrap()
}

fn session(doc: &DesignDocument) -> RowsSession {
    let rows = RowsOptions {
        name: Some("data".into()),
        ..RowsOptions::default()
    };
    RowsSession::new(doc.clone(), AnalyzeOptions::default(), rows).unwrap()
}

fn sorted_keys(doc: &DesignDocument, batch: &RecordBatch) -> Vec<Vec<u8>> {
    let (keys, offsets, _) =
        encode_batches(doc, &RowsOptions::default(), std::slice::from_ref(batch)).unwrap();
    let mut out: Vec<Vec<u8>> = offsets
        .windows(2)
        .map(|w| keys[w[0] as usize..w[1] as usize].to_vec())
        .collect();
    out.sort();
    out
}

/// Each region keeps its bucket whole: with `n ≥ buckets` every bucket start is a split key
/// (so no region holds rows of two buckets); with fewer, every split key is a bucket start.
fn assert_buckets_whole(keys: &[Vec<u8>], bounds: &[Vec<u8>], n: usize, what: &str) {
    if n > bounds.len() {
        for b in bounds {
            assert!(
                keys.contains(b),
                "{what}: bucket start {b:?} is not a split key"
            );
        }
    } else {
        assert_eq!(keys.len(), n - 1, "{what}: one split key a region");
        for k in keys {
            assert!(bounds.contains(k), "{what}: {k:?} is not a bucket start");
        }
    }
}

#[test]
fn every_cut_at_the_rows_keeps_salt_buckets_whole() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(59);
    let keys = [
        (
            "salt(device, 8) + device + \"#\" + str(seq)",
            byte_bounds(8),
        ),
        ("salt(device, 16) + device + str(seq)", byte_bounds(16)),
        (
            "salt(device, 12, as=dec(2)) + device + \"#\" + str(seq)",
            dec_bounds(12, 2),
        ),
        ("device + \"#\" + str(seq)", Vec::new()),
    ];
    for (devices, n_rows) in [(5u32, 400usize), (300, 3000)] {
        let batch = rows(&mut rng, n_rows, devices);
        for (key, bounds) in &keys {
            for n in [1u32, 2, 3, 5, 8, 11, 12, 13, 16, 17, 40] {
                for by in ["rows", "bytes"] {
                    let doc = design(key, n, by);
                    assert_eq!(doc.bucket_bounds(), *bounds, "{key}");
                    let keys = sorted_keys(&doc, &batch);
                    let sorted: Vec<&[u8]> = keys.iter().map(Vec::as_slice).collect();
                    let weight = |k: &[u8]| if by == "rows" { 1 } else { k.len() as u64 + 9 };
                    assert_eq!(write_bytes(&doc, 4), 13, "the design's value size");
                    let want = oracle_cut(&sorted, &weight, n as usize, bounds);
                    let one = std::slice::from_ref(&batch);
                    let got = if by == "rows" {
                        split_batches(&doc, &RowsOptions::default(), one, n).unwrap()
                    } else {
                        split_batches_by_bytes(&doc, &RowsOptions::default(), one, n).unwrap()
                    };
                    let what = format!("{key}, {devices} devices, {n} regions by {by}");
                    assert_eq!(got, want, "{what}");
                    if n > 1 && !bounds.is_empty() {
                        assert_buckets_whole(&got, bounds, n as usize, &what);
                    }
                    // the analysis lays out the regions the cut gives (its sample: every key)
                    if by == "rows" {
                        let mut s = session(&doc);
                        s.push_batch(&batch).unwrap();
                        s.end_scan().unwrap();
                        assert_eq!(s.split_keys().unwrap().keys, want, "{what}: session");
                    }
                }
            }
        }
    }
}

/// Past the million keys a scan samples, the rows session cuts a salted table at every kept
/// row (its selection by bucket, not a sort): the cut of every key, sorted here.
#[test]
fn the_exact_cut_past_the_sample_keeps_buckets_whole() {
    let n_rows = rowkey_lab::rows::SAMPLE_KEYS + 20_011;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let batch = rows(&mut rng, n_rows, 40);
    let bounds = byte_bounds(6);
    for n in [4u32, 6, 15] {
        let doc = design("salt(device, 6) + device + str(seq)", n, "rows");
        let keys = sorted_keys(&doc, &batch);
        let sorted: Vec<&[u8]> = keys.iter().map(Vec::as_slice).collect();
        let want = oracle_cut(&sorted, &|_| 1, n as usize, &bounds);
        let mut s = session(&doc);
        for a in (0..n_rows).step_by(250_000) {
            s.push_batch(&batch.slice(a, 250_000.min(n_rows - a)))
                .unwrap();
        }
        s.end_scan().unwrap();
        let cut = s.split_keys().unwrap();
        assert!(cut.exact, "{n} regions");
        assert_eq!(cut.keys, want, "{n} regions");
        assert_buckets_whole(&cut.keys, &bounds, n as usize, &format!("{n} regions"));
    }
}
