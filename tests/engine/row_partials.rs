//! A user's rows counted in chunks apart (`rowkey_lab::analyze::partial_of_batches`) and
//! merged in any order and any tree of merges give the report one pass over the same rows
//! gives, byte for byte: random rows (nulls, out-of-order times, repeats), cut into random
//! chunks (empty ones too, across the analyzer's 65,536-row blocks), their partials merged
//! pairwise in random order. And a partial of another design, a row counted twice or a
//! missing chunk is refused with an error that says so.
#![cfg(feature = "rows")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::oracles::cut as oracle;

use std::sync::Arc;

use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray, TimestampMillisecondArray};
use arrow_schema::{DataType, Field, Schema, TimeUnit};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rowkey_lab::analyze::{
    analyze_batches, encode_batches, encode_batches_skipped, merge_partials,
    partial_and_keys_of_stream, partial_of_batches, partial_of_batches_to_recount,
    partial_of_stream, recount_batches, report_of_partials, report_of_partials_recounted,
    scan_batches, split_batches_by_bytes, AnalyzeOptions, RowRecount,
};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::error::ErrorKind;
use rowkey_lab::rows::{NullPolicy, RowsOptions, ScanSummary};
use serde_json::json;

/// 2024-01-01T00:00:00Z
const T0: i64 = 1_704_067_200_000;

fn design(salt: u32) -> DesignDocument {
    DesignDocument::from_json(
        &json!({
            "v": 1,
            "fields": [
                {"name": "device", "type": "string"},
                {"name": "seq", "type": "long"},
                {"name": "ts", "type": "timestamp"}
            ],
            "key": format!("salt(device, {salt}, as=dec(2)) + device + \"#\" + str(seq)"),
            "regions": {"presplit": {"kind": "explicit", "keys": ["02", "04", "06"]}}
        })
        .to_string(),
    )
    .unwrap()
}

/// `n` random rows: skewed devices (some rows repeat a key), some nulls in a key field,
/// times in no order.
fn rows(rng: &mut Xoshiro256PlusPlus, n: usize) -> RecordBatch {
    let devices: Vec<Option<String>> = (0..n)
        .map(|_| {
            let d: u32 = rng.gen_range(0..1000);
            (d % 97 != 0).then(|| format!("dev-{}", d * d % 301))
        })
        .collect();
    let seqs: Vec<i64> = (0..n).map(|_| rng.gen_range(0..50)).collect();
    let times: Vec<i64> = (0..n)
        .map(|_| T0 + rng.gen_range(0..86_400_000i64))
        .collect();
    let schema = Arc::new(Schema::new(vec![
        Field::new("device", DataType::Utf8, true),
        Field::new("seq", DataType::Int64, false),
        Field::new(
            "ts",
            DataType::Timestamp(TimeUnit::Millisecond, None),
            false,
        ),
    ]));
    let cols: Vec<ArrayRef> = vec![
        Arc::new(StringArray::from(devices)),
        Arc::new(Int64Array::from(seqs)),
        Arc::new(TimestampMillisecondArray::from(times)),
    ];
    RecordBatch::try_new(schema, cols).unwrap()
}

fn opts(time: bool) -> RowsOptions {
    RowsOptions {
        nulls: NullPolicy::Skip,
        time: time.then(|| "ts".to_string()),
        ..RowsOptions::default()
    }
}

/// `batch` cut at `cuts` random places (some chunks empty).
fn chunks(rng: &mut Xoshiro256PlusPlus, batch: &RecordBatch, cuts: usize) -> Vec<RecordBatch> {
    let n = batch.num_rows();
    let mut at: Vec<usize> = (0..cuts).map(|_| rng.gen_range(0..=n)).collect();
    at.push(0);
    at.push(n);
    at.sort_unstable();
    at.windows(2)
        .map(|w| batch.slice(w[0], w[1] - w[0]))
        .collect()
}

type Count = fn(
    &DesignDocument,
    &AnalyzeOptions,
    &RowsOptions,
    &[RecordBatch],
    &ScanSummary,
    u64,
) -> rowkey_lab::error::Result<Vec<u8>>;

/// The partials of `parts`, each counted apart after a first pass over every chunk.
fn partials(doc: &DesignDocument, ro: &RowsOptions, parts: &[RecordBatch]) -> Vec<Vec<u8>> {
    partials_by(doc, ro, parts, partial_of_batches)
}

/// [`partials`], each counted by `count`.
fn partials_by(
    doc: &DesignDocument,
    ro: &RowsOptions,
    parts: &[RecordBatch],
    count: Count,
) -> Vec<Vec<u8>> {
    let scans: Vec<ScanSummary> = parts
        .iter()
        .map(|p| scan_batches(doc, ro, std::slice::from_ref(p)).unwrap())
        .collect();
    let table = scans.iter().fold(ScanSummary::default(), |a, s| a.merge(s));
    let mut first = 0;
    let mut out = Vec::new();
    for (p, s) in parts.iter().zip(&scans) {
        out.push(
            count(
                doc,
                &AnalyzeOptions::default(),
                ro,
                std::slice::from_ref(p),
                &table,
                first,
            )
            .unwrap(),
        );
        first += s.rows;
    }
    out
}

/// `parts` merged pairwise, two at random each time, down to one.
fn random_tree(rng: &mut Xoshiro256PlusPlus, mut parts: Vec<Vec<u8>>) -> Vec<u8> {
    while parts.len() > 1 {
        let i = rng.gen_range(0..parts.len());
        let a = parts.swap_remove(i);
        let j = rng.gen_range(0..parts.len());
        let b = parts.swap_remove(j);
        parts.push(merge_partials(None, &[&b, &a]).unwrap());
    }
    parts.pop().unwrap()
}

#[test]
fn chunks_merged_in_any_tree_give_the_one_pass_report() {
    let doc = design(8);
    for seed in 0..6u64 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        // Some runs pass the analyzer's 65,536-row block, so chunks cut blocks.
        let n = if seed % 3 == 2 {
            rng.gen_range(65_000..140_000)
        } else {
            rng.gen_range(1..5_000)
        };
        let batch = rows(&mut rng, n);
        let ro = opts(seed % 2 == 0);
        let one = analyze_batches(
            &doc,
            &AnalyzeOptions::default(),
            &ro,
            std::slice::from_ref(&batch),
        );
        let Ok(one) = one else {
            // Every row skipped for a null: no rows to analyze, in chunks neither.
            continue;
        };
        let want = serde_json::to_string(&one.report).unwrap();
        let cuts = rng.gen_range(0..9);
        let parts = chunks(&mut rng, &batch, cuts);
        let mut ps = partials(&doc, &ro, &parts);
        let flat = report_of_partials(
            Some(&doc),
            &ps.iter().map(Vec::as_slice).collect::<Vec<_>>(),
        )
        .unwrap();
        assert_eq!(
            serde_json::to_string(&flat.report).unwrap(),
            want,
            "seed {seed}: flat merge"
        );
        assert_eq!(flat.stats, one.stats, "seed {seed}: what reading found");
        // Shuffled, merged along a random tree.
        for i in (1..ps.len()).rev() {
            ps.swap(i, rng.gen_range(0..=i));
        }
        let root = random_tree(&mut rng, ps);
        let tree = report_of_partials(None, &[&root]).unwrap();
        assert_eq!(
            serde_json::to_string(&tree.report).unwrap(),
            want,
            "seed {seed}: tree merge"
        );
        assert_eq!(tree.split_keys, one.split_keys);
    }
}

#[test]
fn partials_of_another_design_or_rows_are_refused() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let batch = rows(&mut rng, 3000);
    let ro = opts(true);
    let parts = chunks(&mut rng, &batch, 2);
    let ps = partials(&doc_of(8), &ro, &parts);
    let other = partials(&doc_of(4), &ro, &parts);
    let all: Vec<&[u8]> = ps.iter().map(Vec::as_slice).collect();

    // Another design: refused, by the design given or by the first partial's.
    let e = report_of_partials(Some(&doc_of(4)), &all).unwrap_err();
    assert!(e.message.contains("another design"), "{e}");
    let e = merge_partials(None, &[all[0], &other[1]]).unwrap_err();
    assert!(
        e.message
            .contains("partial 1: a partial analysis of another design"),
        "{e}"
    );

    // A row counted twice, a chunk missing.
    let e = merge_partials(None, &[all[0], all[0]]).unwrap_err();
    assert!(
        e.message.contains("counts rows another partial counted"),
        "{e}"
    );
    let e = report_of_partials(None, &all[1..]).unwrap_err();
    assert!(e.message.contains("a chunk is missing"), "{e}");

    // Not a partial, another version.
    let e = report_of_partials(None, &[b"PAR1 not a partial".as_slice()]).unwrap_err();
    assert!(e.message.contains("not a rowkey-lab partial"), "{e}");
    let mut next = ps[0].clone();
    next[4] = rowkey_lab::analyze::PARTIAL_VERSION as u8 + 1;
    let e = report_of_partials(None, &[&next]).unwrap_err();
    let want = format!(
        "format version {}",
        rowkey_lab::analyze::PARTIAL_VERSION + 1
    );
    assert!(e.message.contains(&want), "{e}");
    assert_eq!(e.kind, ErrorKind::Invalid);

    // The same rows scanned with another time column: another table summary.
    let untimed = partials(&doc_of(8), &opts(false), &parts);
    let e = merge_partials(None, &[all[0], &untimed[1]]).unwrap_err();
    assert!(e.message.contains("another table's rows"), "{e}");
}

#[test]
fn a_partial_changed_by_one_byte_is_refused() {
    // issue 56, item 11: single-byte mutations of a partial merged into another report (968
    // of 3,000 through rk.merge)
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let batch = rows(&mut rng, 2000);
    let ro = opts(true);
    let parts = chunks(&mut rng, &batch, 2);
    let ps = partials(&doc_of(8), &ro, &parts);
    let all: Vec<&[u8]> = ps.iter().map(Vec::as_slice).collect();
    let want = report_of_partials(None, &all).unwrap();
    let mut accepted = Vec::new();
    for n in 0..3000 {
        let mut bad = ps[0].clone();
        let at = rng.gen_range(0..bad.len());
        let flip = rng.gen_range(1..=255u8);
        bad[at] ^= flip;
        let mut these = all.clone();
        these[0] = &bad;
        if let Ok(got) = report_of_partials(None, &these) {
            accepted.push((n, at, got.report == want.report));
        }
    }
    assert!(accepted.is_empty(), "accepted: {accepted:?}");
    // cut short by a byte
    let mut these = all.clone();
    these[0] = &ps[0][..ps[0].len() - 1];
    let e = report_of_partials(None, &these).unwrap_err();
    assert!(e.message.contains("checksum"), "{e}");
}

#[test]
fn a_key_that_numbers_names_as_rows_arrive_is_not_counted_in_chunks() {
    // issue 56, item 7: `uid(f, W)` without a table numbers names in the order rows arrive, so
    // merged chunks gave other keys than one pass ([4, 8, 8, 7980] against [1, 2, 2, 7995])
    let doc = DesignDocument::from_json(
        &json!({
            "v": 1,
            "fields": [
                {"name": "device", "type": "string"},
                {"name": "seq", "type": "long"},
                {"name": "ts", "type": "timestamp"}
            ],
            "key": "uid(device, 3) + str(seq)"
        })
        .to_string(),
    )
    .unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let batch = rows(&mut rng, 1000);
    let ro = RowsOptions {
        nulls: NullPolicy::Skip,
        ..opts(true)
    };
    let table = scan_batches(&doc, &ro, std::slice::from_ref(&batch)).unwrap();
    let (head, tail) = (batch.slice(0, 400), batch.slice(400, 600));
    let first = scan_batches(&doc, &ro, std::slice::from_ref(&head))
        .unwrap()
        .rows;
    let e = partial_of_batches(
        &doc,
        &AnalyzeOptions::default(),
        &ro,
        std::slice::from_ref(&tail),
        &table,
        first,
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Invalid, "{e}");
    assert!(e.message.contains("uid(f, W) without a table"), "{e}");
    assert_eq!(e.location.path.as_deref(), Some("key"));
    // the whole table as one chunk is one pass: counted, the one-pass report
    let whole = partial_of_batches(
        &doc,
        &AnalyzeOptions::default(),
        &ro,
        std::slice::from_ref(&batch),
        &table,
        0,
    )
    .unwrap();
    assert!(report_of_partials(None, &[&whole]).is_ok());
}

fn doc_of(salt: u32) -> DesignDocument {
    design(salt)
}

#[test]
fn a_pre_split_cut_at_the_rows_is_refused_in_chunks() {
    let doc = DesignDocument::from_json(
        &json!({
            "v": 1,
            "fields": [{"name": "device", "type": "string"}],
            "key": "device",
            "regions": {"presplit": {"kind": "sampleQuantiles", "regions": 4}}
        })
        .to_string(),
    )
    .unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let e = scan_batches(&doc, &opts(false), &[rows(&mut rng, 10)]).unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("/regions/presplit"));
}

/// Past the exact count's cap (32 MiB of distinct keys here: 40,000 rows of 1 kB keys), a
/// merge gives every figure one pass gives but the largest rows, which are then the chunks'
/// sketches merged: estimates with bounds that hold the true counts, flagged as such.
/// The rows of `batch` recounted as a Spark job does: every key encoded, grouped by key with
/// its writes, the groups cut in `groups` parts recounted apart.
fn recounts(
    doc: &DesignDocument,
    ro: &RowsOptions,
    batch: &RecordBatch,
    groups: usize,
) -> Vec<RowRecount> {
    let (keys, offsets, _) = encode_batches(doc, ro, std::slice::from_ref(batch)).unwrap();
    let mut writes: std::collections::BTreeMap<&[u8], i64> = Default::default();
    for w in offsets.windows(2) {
        *writes
            .entry(&keys[w[0] as usize..w[1] as usize])
            .or_default() += 1;
    }
    let all: Vec<(&[u8], i64)> = writes.into_iter().collect();
    (0..groups)
        .map(|g| {
            let mine: Vec<&(&[u8], i64)> = all.iter().skip(g).step_by(groups).collect();
            let schema = Arc::new(Schema::new(vec![
                Field::new("rowkey", DataType::Binary, false),
                Field::new("writes", DataType::Int64, false),
            ]));
            let b = RecordBatch::try_new(
                schema,
                vec![
                    Arc::new(arrow_array::BinaryArray::from_iter_values(
                        mine.iter().map(|x| x.0),
                    )),
                    Arc::new(Int64Array::from_iter_values(mine.iter().map(|x| x.1))),
                ],
            )
            .unwrap();
            recount_batches(doc, &[b]).unwrap()
        })
        .collect()
}

/// A chunk read as a stream of batches (a Spark task's) counts as the chunk held whole: the
/// same partial bytes; and the partial for a recount with its keys from the same read gives
/// the partial counted alone and the keys `encode_batches` gives, row for row.
#[test]
fn a_chunk_streamed_batch_by_batch_is_the_chunk_counted_whole() {
    let doc = design(8);
    let ro = opts(true);
    let opts_a = AnalyzeOptions::default();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(23);
    let batch = rows(&mut rng, 70_000);
    let table = scan_batches(&doc, &ro, std::slice::from_ref(&batch)).unwrap();
    // the chunk: rows 1,000.. of the batch, as several batches (some empty); it starts at the
    // rows counted before it (rows with a null key field are skipped)
    let chunk = batch.slice(1_000, 69_000);
    let at = scan_batches(&doc, &ro, &[batch.slice(0, 1_000)])
        .unwrap()
        .rows;
    let parts = chunks(&mut rng, &chunk, 9);
    let schema = batch.schema();
    let stream = || parts.iter().map(|b| Ok(b.clone()));
    for exact in [true, false] {
        let whole = if exact {
            partial_of_batches(&doc, &opts_a, &ro, std::slice::from_ref(&chunk), &table, at)
        } else {
            partial_of_batches_to_recount(
                &doc,
                &opts_a,
                &ro,
                std::slice::from_ref(&chunk),
                &table,
                at,
            )
        }
        .unwrap();
        let streamed =
            partial_of_stream(&doc, &opts_a, &ro, (&schema, stream()), (&table, at), exact)
                .unwrap();
        assert!(
            whole == streamed,
            "exact {exact}: the streamed partial differs"
        );
    }
    let (part, keys, offsets) =
        partial_and_keys_of_stream(&doc, &opts_a, &ro, (&schema, stream()), (&table, at)).unwrap();
    let alone =
        partial_of_batches_to_recount(&doc, &opts_a, &ro, std::slice::from_ref(&chunk), &table, at)
            .unwrap();
    assert!(part == alone, "the partial read with its keys differs");
    let (k, o, _) = encode_batches(&doc, &ro, std::slice::from_ref(&chunk)).unwrap();
    assert!(
        offsets.len() > 60_000,
        "rows skipped for nulls, the rest keyed"
    );
    assert_eq!((keys, offsets), (k, o));
    // a stream that fails part way is an error naming the stream, not a partial of fewer rows
    let failing = parts
        .iter()
        .take(2)
        .map(|b| Ok(b.clone()))
        .chain(std::iter::once(Err(rowkey_lab::error::Error::arg(
            "source",
            "the Arrow stream failed: gone",
        ))));
    let e =
        partial_of_stream(&doc, &opts_a, &ro, (&schema, failing), (&table, at), true).unwrap_err();
    assert!(e.message.contains("gone"), "{}", e.message);
}

#[test]
fn a_recount_of_rows_counted_exactly_changes_nothing() {
    let doc = design(8);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let batch = rows(&mut rng, 4000);
    let ro = opts(true);
    let one = analyze_batches(
        &doc,
        &AnalyzeOptions::default(),
        &ro,
        std::slice::from_ref(&batch),
    )
    .unwrap();
    assert!(one.report.largest_rows_exact && one.report.distinct_rows_exact);
    let parts = chunks(&mut rng, &batch, 3);
    let ps = partials(&doc, &ro, &parts);
    let ps: Vec<&[u8]> = ps.iter().map(Vec::as_slice).collect();
    let got = report_of_partials_recounted(None, &ps, recounts(&doc, &ro, &batch, 3)).unwrap();
    assert_eq!(
        serde_json::to_string(&got.report).unwrap(),
        serde_json::to_string(&one.report).unwrap()
    );
    // partials without exact row counts: estimates merged, the same report recounted
    let ps = partials_by(&doc, &ro, &parts, partial_of_batches_to_recount);
    let ps: Vec<&[u8]> = ps.iter().map(Vec::as_slice).collect();
    assert!(
        !report_of_partials(None, &ps)
            .unwrap()
            .report
            .largest_rows_exact
    );
    let got = report_of_partials_recounted(None, &ps, recounts(&doc, &ro, &batch, 2)).unwrap();
    assert_eq!(
        serde_json::to_string(&got.report).unwrap(),
        serde_json::to_string(&one.report).unwrap()
    );
    // a recount of other rows (one group missing) is refused
    let mut short = recounts(&doc, &ro, &batch, 3);
    short.pop();
    let wrong = report_of_partials_recounted(None, &ps, short);
    assert!(wrong.is_err_and(|e| e.kind == ErrorKind::Invalid));
}

#[test]
fn past_the_exact_cap_the_largest_rows_are_bounded_estimates() {
    let doc = DesignDocument::from_json(
        &json!({
            "v": 1,
            "fields": [
                {"name": "device", "type": "string"},
                {"name": "seq", "type": "long"},
                {"name": "ts", "type": "timestamp"}
            ],
            "key": "fixed(device, 1000) + str(seq)",
            "regions": {"presplit": {"kind": "explicit", "keys": ["dev-3", "dev-6", "hot"]}}
        })
        .to_string(),
    )
    .unwrap();
    let n = 40_000usize;
    let device = |i: usize| {
        if i % 10 == 0 {
            format!("hot-{}", i % 7)
        } else {
            format!("dev-{i}")
        }
    };
    let schema = Arc::new(Schema::new(vec![
        Field::new("device", DataType::Utf8, false),
        Field::new("seq", DataType::Int64, false),
        Field::new(
            "ts",
            DataType::Timestamp(TimeUnit::Millisecond, None),
            false,
        ),
    ]));
    let batch = RecordBatch::try_new(
        schema,
        vec![
            Arc::new(StringArray::from_iter_values((0..n).map(device))),
            Arc::new(Int64Array::from_iter_values((0..n).map(|_| 1))),
            Arc::new(TimestampMillisecondArray::from_iter_values(
                (0..n).map(|i| T0 + i as i64),
            )),
        ],
    )
    .unwrap();
    let ro = opts(true);
    let one = analyze_batches(
        &doc,
        &AnalyzeOptions::default(),
        &ro,
        std::slice::from_ref(&batch),
    )
    .unwrap();
    assert!(!one.report.largest_rows_exact);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let parts = chunks(&mut rng, &batch, 4);
    let ps = partials(&doc, &ro, &parts);
    let root = random_tree(&mut rng, ps);
    let merged = report_of_partials(None, &[&root]).unwrap();
    assert!(!merged.report.largest_rows_exact);
    let strip = |r: &rowkey_lab::analyze::AnalysisReport| {
        let mut v = serde_json::to_value(r).unwrap();
        v.as_object_mut().unwrap().remove("largestRows");
        v
    };
    assert_eq!(strip(&merged.report), strip(&one.report));
    // every hot row is found, its true writes within the estimate's bounds
    for h in 0..7 {
        let key = format!("hot-{h}");
        let truth = (0..n).filter(|&i| device(i) == key).count() as u64;
        let row = merged
            .report
            .largest_rows
            .iter()
            .find(|r| r.key.starts_with(key.as_bytes()))
            .unwrap_or_else(|| panic!("{key} is among the largest rows"));
        assert!(
            row.writes <= truth && truth <= row.writes + row.writes_error,
            "{key}: {truth} writes, estimate {} + {}",
            row.writes,
            row.writes_error
        );
    }
    // recounted, the largest rows and distinct rows are the truth: the 7 hot rows, then rows
    // of one write by key; every other figure is the sketches' report's
    let ps = partials(&doc, &ro, &chunks(&mut rng, &batch, 3));
    let ps: Vec<&[u8]> = ps.iter().map(Vec::as_slice).collect();
    let exact = report_of_partials_recounted(Some(&doc), &ps, recounts(&doc, &ro, &batch, 4))
        .unwrap()
        .report;
    assert!(exact.largest_rows_exact && exact.distinct_rows_exact);
    assert_eq!(exact.distinct_rows, 36_000 + 7);
    let regions: u64 = exact.regions.iter().map(|g| g.distinct_rows).sum();
    assert_eq!(regions, exact.distinct_rows);
    assert_eq!(exact.largest_rows.len(), 32);
    for (i, r) in exact.largest_rows.iter().enumerate() {
        assert_eq!(r.writes_error, 0);
        if i < 7 {
            assert!(r.key.starts_with(b"hot-") && r.writes > 500);
        } else {
            assert_eq!(r.writes, 1);
        }
    }
    let mut sketch = strip(&merged.report);
    let mut v = strip(&exact);
    for m in [&mut sketch, &mut v] {
        let o = m.as_object_mut().unwrap();
        for k in [
            "distinctRows",
            "distinctRowsError",
            "distinctRowsExact",
            "largestRowsExact",
            "regions",
            "servers",
            "diagnosis",
        ] {
            o.remove(k);
        }
    }
    assert_eq!(v, sketch);
}

/// Split points by bytes against a cut computed here from the keys alone
/// (`tests/engine/oracles/cut.rs`): each row weighs its key's length plus the design's value size (100
/// by default, 7 when the workload says so); the key opens with 8 salt buckets, kept whole;
/// within a bucket of `r` regions, the key that starts region j is the first, in sorted order,
/// whose running weight passes j/r of the bucket's; empty keys and repeats are dropped as HBase
/// refuses them. And each region's bytes are then within a few rows of its bucket's share.
#[test]
fn split_points_by_bytes_are_the_running_weights_cut() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    let batch = rows(&mut rng, 3000);
    let bounds = oracle::dec_bounds(8, 2);
    for (value_size, doc) in [
        (100u64, design(8)),
        (7, {
            let mut d = design(8);
            d.workload = Some(rowkey_lab::workload::WorkloadSpec {
                value_size: 7,
                ..Default::default()
            });
            d
        }),
    ] {
        let (keys, offsets, _) =
            encode_batches(&doc, &opts(false), std::slice::from_ref(&batch)).unwrap();
        let mut sorted: Vec<&[u8]> = offsets
            .windows(2)
            .map(|w| &keys[w[0] as usize..w[1] as usize])
            .collect();
        sorted.sort();
        let weight = |k: &[u8]| k.len() as f64 + value_size as f64;
        let total: f64 = sorted.iter().map(|k| weight(k)).sum();
        for regions in [2u32, 5, 16, 64] {
            let w = |k: &[u8]| k.len() as u64 + value_size;
            let want = oracle::oracle_cut(&sorted, &w, regions as usize, &bounds);
            let got =
                split_batches_by_bytes(&doc, &opts(false), std::slice::from_ref(&batch), regions)
                    .unwrap();
            assert_eq!(got, want, "{regions} regions, value size {value_size}");
            if regions < 8 {
                continue;
            }
            // each bucket's regions: within a few keys' rows of the bucket's share
            let mut heaviest: f64 = 0.0;
            for g in sorted.chunk_by(|a, b| a == b) {
                heaviest = heaviest.max(g.iter().map(|k| weight(k)).sum());
            }
            let mut per = vec![0.0; got.len() + 1];
            for k in &sorted {
                per[got.iter().filter(|s| s.as_slice() <= *k).count()] += weight(k);
            }
            let mut in_bucket = [(0.0, 0usize); 8];
            let start: Vec<&[u8]> = std::iter::once(&[][..])
                .chain(got.iter().map(Vec::as_slice))
                .collect();
            for (r, b) in per.iter().enumerate() {
                let k = bounds.iter().filter(|s| s.as_slice() <= start[r]).count();
                in_bucket[k].0 += b;
                in_bucket[k].1 += 1;
            }
            for (r, b) in per.iter().enumerate() {
                let k = bounds.iter().filter(|s| s.as_slice() <= start[r]).count();
                let share = in_bucket[k].0 / in_bucket[k].1 as f64;
                assert!(
                    (b - share).abs() <= 4.0 * heaviest,
                    "{b} vs {share} in bucket {k} ({total} in all)"
                );
            }
        }
    }
    let empty = batch.slice(0, 0);
    let e = split_batches_by_bytes(&design(8), &opts(false), &[empty], 4).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Invalid);
}

/// The rows a `nulls: skip` leaves out are named by position, so keys can sit beside their own
/// rows: here the rows whose device is null, read off the column itself; the keys are the
/// other rows' keys, in order.
#[test]
fn skipped_rows_are_named_by_position() {
    use arrow_array::Array;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let batch = rows(&mut rng, 2000);
    let parts = chunks(&mut rng, &batch, 5);
    let (keys, offsets, skipped) =
        encode_batches_skipped(&design(8), &opts(false), &parts).unwrap();
    let devices = batch.column(0);
    let nulls: Vec<u64> = (0..batch.num_rows())
        .filter(|&i| devices.is_null(i))
        .map(|i| i as u64)
        .collect();
    assert!(!nulls.is_empty());
    assert_eq!(skipped, nulls);
    let (k2, o2, stats) = encode_batches(&design(8), &opts(false), &parts).unwrap();
    assert_eq!((keys, offsets), (k2, o2));
    assert_eq!(stats.used as usize + skipped.len(), batch.num_rows());
}

/// `n` rows of `devices` devices in turn (`device`, `ts` a millisecond apart).
fn device_rows(n: usize, devices: usize) -> RecordBatch {
    let schema = Arc::new(Schema::new(vec![
        Field::new("device", DataType::Utf8, false),
        Field::new(
            "ts",
            DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into())),
            false,
        ),
    ]));
    RecordBatch::try_new(
        schema,
        vec![
            Arc::new(StringArray::from_iter_values(
                (0..n).map(|i| format!("d{}", i % devices)),
            )),
            Arc::new(
                TimestampMillisecondArray::from_iter_values((0..n).map(|i| T0 + i as i64))
                    .with_timezone("UTC"),
            ),
        ],
    )
    .unwrap()
}

#[test]
fn rows_whose_distinct_keys_certainly_pass_the_exact_cap_are_counted_by_the_sketches_alone() {
    use rowkey_lab::analyze::{count_rows, row_fields, AnalysisRun, MAX_EXACT_ROWS};
    let doc = DesignDocument::from_json(
        &json!({
            "v": 1,
            "fields": [{"name": "device", "type": "string"}, {"name": "ts", "type": "timestamp"}],
            "key": "device",
            "regions": {"presplit": {"kind": "explicit", "keys": ["d3", "d6"]}}
        })
        .to_string(),
    )
    .unwrap();
    let (fields, used) = row_fields(&doc).unwrap();
    let ro = opts(true);
    let ao = AnalyzeOptions::default();
    // 1.3 M rows: of 1.3 M devices (24 % past the cap, far more than 12 standard errors of the
    // first pass's 0.81 % estimate) and of 1,000
    for (devices, past) in [(1_300_000, true), (1_000, false)] {
        let batch = device_rows(1_300_000, devices);
        assert!(devices < MAX_EXACT_ROWS || past);
        let feed = &mut |sink: &mut dyn rowkey_lab::rows::RowSink| {
            rowkey_lab::rows::batch_rows(std::slice::from_ref(&batch), &fields, &used, &ro, sink)
        };
        let (run, first, _) = count_rows(&doc, &ao, 256 << 20, feed).unwrap();
        assert_eq!(first.distinct.past_exact_cap(), past, "{devices} devices");
        let got = run.finish();
        // the reference: every row counted exactly from the first on, the counts dropped at
        // the cap (what the analysis did before it asked the first pass)
        let mut all = AnalysisRun::for_rows_summary(&doc, &ao, &first.scan.summary).unwrap();
        feed(&mut all).unwrap();
        let want = all.finish();
        assert_eq!(got.distinct_rows_exact, !past);
        assert_eq!(
            serde_json::to_string(&got).unwrap(),
            serde_json::to_string(&want).unwrap(),
            "{devices} devices"
        );
    }
}
