//! A Phoenix table's indexes over a user's rows (issue 69): each global index's table counted
//! from the rows of a file in the reading that counts the data table, a local index in the
//! data table's regions, an index column the file lacks refused at its place, chunks counted
//! apart (Spark's partials) giving the one pass's indexes, and every row's index key.
//!
//! The rows are `tests/fixtures/phoenix-orders/` (its `make.py`): 500 orders, one every 200
//! ms from epoch ms 1,700,000,000,000, the last at 99,999 ms, so ten windows are the ten
//! 10-second stretches, 50 orders each. Every expected figure is worked out here from
//! Phoenix's rules, not taken from the engine: a salt bucket is `SaltingUtil`'s Java hash
//! (`h = 31 h + b` over the signed bytes after the salt byte, from 1, then `abs(h % n)`), a
//! nullable TIMESTAMP in an index is a DECIMAL of its milliseconds (`PDecimal`: the exponent
//! byte `c1 + digits - 1`, each base-100 digit plus one, trailing zero digits dropped), and
//! an index key is the indexed value, the `00` separator, then the data key's ORDER_ID.
#![cfg(feature = "rows")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use arrow_array::{RecordBatch, StringArray, TimestampMillisecondArray};
use arrow_schema::{DataType, Field, Schema, TimeUnit};
use rowkey_lab::analyze::{AnalysisReport, AnalyzeOptions, RowsSession};
use rowkey_lab::design::phoenix::parse_create_table;
use rowkey_lab::design::DesignDocument;
use rowkey_lab::rows::RowsOptions;

pub(crate) const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/phoenix-orders");
const T0: i64 = 1_700_000_000_000;

/// The orders table of the fixture, its indexes replaced by `indexes` when given.
pub(crate) fn orders(indexes: Option<&str>) -> DesignDocument {
    let sql = std::fs::read_to_string(format!("{DIR}/orders.sql")).unwrap();
    let sql = match indexes {
        None => sql,
        Some(ix) => format!("{}{ix}", &sql[..sql.find("-- X'c7").unwrap()]),
    };
    parse_create_table(&sql).unwrap()
}

/// Order `j`: its ORDER_ID, CUSTOMER_ID and creation time (ms), as make.py writes them.
pub(crate) fn order(j: usize) -> (String, String, i64) {
    let ms = T0 + if j == 499 { 99_999 } else { 200 * j as i64 };
    (format!("o{j:04}"), format!("c{:02}", j * 7 % 50), ms)
}

/// Phoenix's salt bucket of a key's bytes after the salt byte.
fn bucket(rest: &[u8], n: i32) -> usize {
    let mut h: i32 = 1;
    for &b in rest {
        h = h.wrapping_mul(31).wrapping_add(i32::from(b as i8));
    }
    (h % n).unsigned_abs() as usize
}

/// A positive whole number as Phoenix's DECIMAL bytes (also the index-findings tests' over the
/// same fixture: `advise::rows_index_findings`).
pub(crate) fn decimal(mut v: u64) -> Vec<u8> {
    let mut digits = Vec::new();
    while v > 0 {
        digits.push((v % 100) as u8);
        v /= 100;
    }
    digits.reverse();
    let exponent = 0xc1 + (digits.len() as u8 - 1);
    while digits.last() == Some(&0) {
        digits.pop();
    }
    std::iter::once(exponent)
        .chain(digits.iter().map(|d| d + 1))
        .collect()
}

/// Order `j`'s row key in an index on `value` (its bytes), unsalted.
fn index_key(value: &[u8], j: usize) -> Vec<u8> {
    let mut k = value.to_vec();
    k.push(0);
    k.extend_from_slice(order(j).0.as_bytes());
    k
}

/// The busiest region's share of each 10-second window when order `j` lands in region
/// `region(j)`.
fn window_shares(region: impl Fn(usize) -> usize) -> Vec<f64> {
    (0..10)
        .map(|w| {
            let mut per = std::collections::BTreeMap::new();
            for j in 50 * w..50 * (w + 1) {
                *per.entry(region(j)).or_insert(0u32) += 1;
            }
            f64::from(*per.values().max().unwrap()) / 50.0
        })
        .collect()
}

fn shares(r: &AnalysisReport) -> Vec<f64> {
    r.metrics
        .per_window
        .iter()
        .map(|w| w.busiest_share)
        .collect()
}

fn assert_shares(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: windows");
    for (g, w) in got.iter().zip(want) {
        assert!(
            (g - w).abs() < 1e-12,
            "{what}: {got:?}, hand-derived {want:?}"
        );
    }
}

fn options() -> AnalyzeOptions {
    AnalyzeOptions {
        windows: 10,
        ..AnalyzeOptions::default()
    }
}

fn rows_options(file: &str, keep_bytes: Option<u64>) -> RowsOptions {
    RowsOptions {
        name: Some(file.into()),
        time: Some("CREATED_AT".into()),
        keep_bytes,
        ..RowsOptions::default()
    }
}

/// `doc` over a fixture file the engine reads itself: the report, and whether the first
/// pass's end counted every table from memory (one reading of the file).
fn over_file(doc: &DesignDocument, file: &str, keep_bytes: Option<u64>) -> (AnalysisReport, bool) {
    let path = format!("{DIR}/{file}");
    let mut f = std::fs::File::open(&path).unwrap();
    let len = f.metadata().unwrap().len();
    let mut s = RowsSession::new(doc.clone(), options(), rows_options(file, keep_bytes)).unwrap();
    s.read_file(&mut f, len).unwrap();
    let analyzed = s.end_scan().unwrap().analyzed;
    if !analyzed {
        s.read_file(&mut f, len).unwrap();
    }
    s.end().unwrap();
    (s.report().unwrap(), analyzed)
}

#[test]
fn the_fixture_s_rows_are_the_ones_derived_here() {
    let csv = std::fs::read_to_string(format!("{DIR}/orders.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("ORDER_ID,CUSTOMER_ID,CREATED_AT,TOTAL"));
    let mut n = 0;
    for (j, line) in lines.enumerate() {
        let (id, customer, ms) = order(j);
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!((cells[0], cells[1]), (id.as_str(), customer.as_str()));
        // 2023-11-14T22:13:20.000Z is epoch ms 1,700,000,000,000
        let s = (ms - T0) / 1000 + 20;
        let (m, sec, milli) = (13 + s / 60, s % 60, (ms - T0) % 1000);
        assert_eq!(
            cells[2],
            format!("2023-11-14T22:{m:02}:{sec:02}.{milli:03}Z")
        );
        n += 1;
    }
    assert_eq!(n, 500);
}

#[test]
fn an_index_on_the_time_takes_every_window_on_one_region_while_the_salted_table_spreads() {
    let doc = orders(None);
    for file in ["orders.csv", "orders.parquet"] {
        let (r, analyzed) = over_file(&doc, file, None);
        assert!(
            analyzed,
            "{file}: the rows and their index keys kept: one reading"
        );
        assert_eq!((r.writes, r.regions.len(), r.indexes.len()), (500, 8, 3));
        // The data table: each order in the bucket of its ORDER_ID.
        let data = window_shares(|j| bucket(order(j).0.as_bytes(), 8));
        assert_shares(&shares(&r), &data, &format!("{file}: the data table"));
        assert!(data.iter().all(|s| *s < 0.3), "{data:?}");

        // BY_TIME: split at every 10 s, each window's 50 orders in the one region holding it.
        let by_time = &r.indexes[0];
        assert_eq!(by_time.name, "BY_TIME");
        let t = by_time.report.as_ref().unwrap();
        assert_eq!((by_time.regions_of_its_own, t.writes), (10, 500));
        assert_eq!(
            t.regions.iter().map(|g| g.writes).collect::<Vec<_>>(),
            vec![50; 10]
        );
        assert_shares(&shares(t), &[1.0; 10], &format!("{file}: BY_TIME"));
        assert_eq!(
            (by_time.busiest_share, by_time.max_busiest_share),
            (1.0, 1.0)
        );
        // busiest region / mean region: 50 / (50 / 10)
        assert!((by_time.hotspot_factor - 10.0).abs() < 1e-9);
        // its rows: the DECIMAL of the time, 00, ORDER_ID; and the empty column's byte
        let bytes: usize = (0..500)
            .map(|j| index_key(&decimal(order(j).2 as u64), j).len() + 1)
            .sum();
        assert_eq!(t.bytes, bytes as u64);

        // BY_CUSTOMER takes the table's 8 buckets: spread by CUSTOMER_ID 00 ORDER_ID.
        let by_customer = &r.indexes[1];
        let c = by_customer.report.as_ref().unwrap();
        assert_eq!(by_customer.regions_of_its_own, 8);
        let want = window_shares(|j| bucket(&index_key(order(j).1.as_bytes(), j), 8));
        assert_shares(&shares(c), &want, &format!("{file}: BY_CUSTOMER"));

        // The local index adds no region: its figures are the data table's.
        let local = &r.indexes[2];
        assert_eq!(
            (local.regions_of_its_own, local.report.is_none()),
            (0, true)
        );
        assert_eq!(local.busiest_share, r.metrics.mean_busiest_share);
    }
}

#[test]
fn the_same_index_salted_spreads() {
    let doc = orders(Some("CREATE INDEX BY_TIME ON ORDERS (CREATED_AT);"));
    let (r, _) = over_file(&doc, "orders.csv", None);
    let x = &r.indexes[0];
    assert_eq!(x.regions_of_its_own, 8);
    let want = window_shares(|j| bucket(&index_key(&decimal(order(j).2 as u64), j), 8));
    assert_shares(&shares(x.report.as_ref().unwrap()), &want, "salted BY_TIME");
    assert!(want.iter().all(|s| *s < 0.3), "{want:?}");
}

#[test]
fn rows_read_twice_give_the_same_indexes_as_rows_kept() {
    // No rows kept: the second reading counts the data table and the indexes again.
    let doc = orders(None);
    let (kept, one) = over_file(&doc, "orders.csv", None);
    let (again, two) = over_file(&doc, "orders.csv", Some(0));
    assert!(one && !two);
    assert_eq!(
        serde_json::to_value(&kept.indexes).unwrap(),
        serde_json::to_value(&again.indexes).unwrap()
    );
    // CSV and Parquet: the same rows, the same indexes.
    let (parquet, _) = over_file(&doc, "orders.parquet", None);
    assert_eq!(
        serde_json::to_value(&kept.indexes).unwrap(),
        serde_json::to_value(&parquet.indexes).unwrap()
    );
}

#[test]
fn an_index_column_the_file_lacks_is_located() {
    let doc = orders(None);
    let csv = "ORDER_ID,CUSTOMER_ID,TOTAL\no1,c1,1.5\n";
    let rows = RowsOptions {
        name: Some("orders.csv".into()),
        ..RowsOptions::default()
    };
    let mut s = RowsSession::new(doc, options(), rows).unwrap();
    let e = match s.push(csv.as_bytes()).and_then(|_| s.end_scan().map(drop)) {
        Ok(()) => panic!("read without error"),
        Err(e) => e,
    };
    assert!(
        e.message.starts_with(
            "index BY_TIME reads field `CREATED_AT`, but the file has no column `CREATED_AT`"
        ),
        "{e}"
    );
    assert_eq!(e.location.path.as_deref(), Some("map/CREATED_AT"));
    // The same through Arrow batches.
    let e = rowkey_lab::analyze::analyze_batches(
        &orders(None),
        &options(),
        &RowsOptions::default(),
        &[batch(0..2, false)],
    )
    .unwrap_err();
    assert!(e.message.contains("field `CREATED_AT`"), "{e}");
}

/// Orders `range` as an Arrow batch (without CREATED_AT when `!timed`).
fn batch(range: std::ops::Range<usize>, timed: bool) -> RecordBatch {
    let rows: Vec<_> = range.map(order).collect();
    let mut fields = vec![
        Field::new("ORDER_ID", DataType::Utf8, false),
        Field::new("CUSTOMER_ID", DataType::Utf8, false),
    ];
    let mut cols: Vec<arrow_array::ArrayRef> = vec![
        Arc::new(StringArray::from_iter_values(
            rows.iter().map(|r| r.0.clone()),
        )),
        Arc::new(StringArray::from_iter_values(
            rows.iter().map(|r| r.1.clone()),
        )),
    ];
    if timed {
        let tz = DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into()));
        fields.push(Field::new("CREATED_AT", tz, false));
        cols.push(Arc::new(
            TimestampMillisecondArray::from_iter_values(rows.iter().map(|r| r.2))
                .with_timezone("UTC"),
        ));
    }
    RecordBatch::try_new(Arc::new(Schema::new(fields)), cols).unwrap()
}

#[test]
fn chunks_counted_apart_give_the_one_pass_s_indexes() {
    use rowkey_lab::analyze::{
        analyze_batches, partial_of_batches, report_of_partials, scan_batches,
    };
    let doc = orders(None);
    let rows = RowsOptions {
        time: Some("CREATED_AT".into()),
        ..RowsOptions::default()
    };
    let all = analyze_batches(&doc, &options(), &rows, &[batch(0..500, true)]).unwrap();
    let parts = [batch(0..180, true), batch(180..500, true)];
    let scans: Vec<_> = parts
        .iter()
        .map(|b| scan_batches(&doc, &rows, std::slice::from_ref(b)).unwrap())
        .collect();
    let table = scans[0].merge(&scans[1]);
    let partials: Vec<Vec<u8>> = parts
        .iter()
        .zip([0, scans[0].rows])
        .map(|(b, at)| {
            partial_of_batches(&doc, &options(), &rows, std::slice::from_ref(b), &table, at)
                .unwrap()
        })
        .collect();
    // merged in the other order: the same
    let merged = report_of_partials(Some(&doc), &[&partials[1], &partials[0]]).unwrap();
    assert_eq!(all.report.indexes.len(), 3);
    assert_eq!(
        serde_json::to_value(&all.report.indexes).unwrap(),
        serde_json::to_value(&merged.report.indexes).unwrap()
    );
    assert_shares(
        &shares(merged.report.indexes[0].report.as_ref().unwrap()),
        &[1.0; 10],
        "BY_TIME from partials",
    );
}

#[test]
fn every_row_s_index_key_is_phoenix_s() {
    use rowkey_lab::analyze::encode_index_batches;
    let doc = orders(None);
    let rows = RowsOptions::default();
    let b = [batch(0..500, true)];
    let (keys, offsets, skipped) = encode_index_batches(&doc, "BY_TIME", &rows, &b).unwrap();
    assert!(skipped.is_empty());
    assert_eq!(offsets.len(), 501);
    for j in 0..500 {
        let k = &keys[offsets[j] as usize..offsets[j + 1] as usize];
        assert_eq!(k, index_key(&decimal(order(j).2 as u64), j), "order {j}");
    }
    // BY_CUSTOMER: the salt byte over CUSTOMER_ID 00 ORDER_ID, then those bytes.
    let (keys, offsets, _) = encode_index_batches(&doc, "BY_CUSTOMER", &rows, &b).unwrap();
    for j in 0..500 {
        let rest = index_key(order(j).1.as_bytes(), j);
        let mut want = vec![bucket(&rest, 8) as u8];
        want.extend_from_slice(&rest);
        assert_eq!(&keys[offsets[j] as usize..offsets[j + 1] as usize], want);
    }
    // An index the design does not have, and a column the rows lack, are located.
    let e = encode_index_batches(&doc, "NOPE", &rows, &b).unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("index"));
    assert!(e.message.contains("`BY_TIME`"), "{e}");
    let e = encode_index_batches(&doc, "BY_TIME", &rows, &[batch(0..3, false)]).unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("map/CREATED_AT"));
    assert!(e.message.starts_with("index BY_TIME reads field"), "{e}");
}

#[test]
fn a_reading_for_the_data_key_alone_needs_no_index_column() {
    // `encode --records`, the months' write sample, the advisor's row sample: the data key's
    // columns only, as before indexes were counted over rows.
    let csv = "ORDER_ID,CUSTOMER_ID,TOTAL\no1,c1,1.5\no2,c2,2.5\n";
    let rows = RowsOptions {
        name: Some("orders.csv".into()),
        ..RowsOptions::default()
    };
    let mut s = RowsSession::new(orders(None), options(), rows.clone()).unwrap();
    s.keep_keys().unwrap();
    s.push(csv.as_bytes()).unwrap();
    s.end_scan().unwrap();
    let (keys, offsets) = s.take_keys();
    assert_eq!(offsets, [0, 3, 6]);
    let want: Vec<u8> = ["o1", "o2"]
        .iter()
        .flat_map(|id| [&[bucket(id.as_bytes(), 8) as u8][..], id.as_bytes()].concat())
        .collect();
    assert_eq!(keys, want);
    let mut s = RowsSession::new(orders(None), options(), rows.clone()).unwrap();
    s.keep_write_sample().unwrap();
    s.push(csv.as_bytes()).unwrap();
    s.end_scan().unwrap();
    // And an analysis of the data table alone (a rekey's designs) reports no index.
    let mut s = RowsSession::new(orders(None), options(), rows).unwrap();
    s.without_indexes().unwrap();
    s.push(csv.as_bytes()).unwrap();
    assert!(s.end_scan().unwrap().analyzed);
    s.end().unwrap();
    assert_eq!(s.report().unwrap().indexes.len(), 0);
}

/// `csv`'s rows read in chunks by separate sessions (their first passes added to `main` in
/// file order), then analyzed: the report, and whether the rows were counted from memory.
fn over_chunks(doc: &DesignDocument, csv: &str, cuts: &[usize]) -> (AnalysisReport, bool) {
    let mut lines = csv.lines();
    let header = lines.next().unwrap();
    let rows: Vec<&str> = lines.collect();
    let mut main =
        RowsSession::new(doc.clone(), options(), rows_options("orders.csv", None)).unwrap();
    assert!(
        main.chunkable(),
        "a design with global indexes reads in chunks"
    );
    let mut from = 0;
    for &to in cuts.iter().chain(std::iter::once(&rows.len())) {
        let mut part =
            RowsSession::new(doc.clone(), options(), rows_options("orders.csv", None)).unwrap();
        let text = format!("{header}\n{}\n", rows[from..to].join("\n"));
        part.push(text.as_bytes()).unwrap();
        main.add_chunk(part.chunk().unwrap()).unwrap();
        from = to;
    }
    let analyzed = main.end_scan().unwrap().analyzed;
    main.end().unwrap();
    (main.report().unwrap(), analyzed)
}

#[test]
fn chunks_read_apart_carry_their_index_keys_and_add_up_to_one_reading() {
    let doc = orders(None);
    let csv = std::fs::read_to_string(format!("{DIR}/orders.csv")).unwrap();
    let (one, _) = over_file(&doc, "orders.csv", None);
    for cuts in [&[120, 333][..], &[1], &[250]] {
        let (chunked, analyzed) = over_chunks(&doc, &csv, cuts);
        assert!(analyzed, "{cuts:?}: counted from the chunks' kept rows");
        assert_eq!(chunked.indexes.len(), 3);
        // the hand-derived figures of the one reading (see the test above), again
        let by_time = chunked.indexes[0].report.as_ref().unwrap();
        assert_shares(&shares(by_time), &[1.0; 10], &format!("{cuts:?}: BY_TIME"));
        let want = window_shares(|j| bucket(&index_key(order(j).1.as_bytes(), j), 8));
        let c = chunked.indexes[1].report.as_ref().unwrap();
        assert_shares(&shares(c), &want, &format!("{cuts:?}: BY_CUSTOMER"));
        // and every figure is the one reading's
        assert_eq!(
            serde_json::to_value(&chunked).unwrap(),
            serde_json::to_value(&one).unwrap(),
            "{cuts:?}"
        );
    }
}

#[test]
fn a_chunk_of_another_design_s_indexes_is_refused() {
    let doc = orders(None);
    let fewer = orders(Some("CREATE INDEX BY_CUSTOMER ON ORDERS (CUSTOMER_ID);"));
    let csv = std::fs::read_to_string(format!("{DIR}/orders.csv")).unwrap();
    let mut part = RowsSession::new(fewer, options(), rows_options("orders.csv", None)).unwrap();
    part.push(csv.as_bytes()).unwrap();
    let chunk = part.chunk().unwrap();
    let mut main = RowsSession::new(doc, options(), rows_options("orders.csv", None)).unwrap();
    let e = main.add_chunk(chunk).unwrap_err();
    assert!(e.message.contains("read for another design"), "{e}");
}

/// Every key of `keys` (end to end, `offsets` where each starts and ends) with its writes, the
/// keys cut into `groups` groups (as Spark's `groupBy` of the keys, then its partitions).
fn grouped(keys: &[u8], offsets: &[u32], groups: usize) -> Vec<RecordBatch> {
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
            let cols: Vec<Arc<dyn arrow_array::Array>> = vec![
                Arc::new(arrow_array::BinaryArray::from_iter_values(
                    mine.iter().map(|x| x.0),
                )),
                Arc::new(arrow_array::Int64Array::from_iter_values(
                    mine.iter().map(|x| x.1),
                )),
            ];
            RecordBatch::try_new(schema, cols).unwrap()
        })
        .collect()
}

#[test]
fn an_exact_recount_counts_every_index_table_s_rows_as_one_pass_does() {
    use rowkey_lab::analyze::{
        analyze_batches, partial_and_keys_of_stream, recount_batches, report_of_partials_recounted,
        scan_batches,
    };
    let doc = orders(None);
    let rows = RowsOptions {
        time: Some("CREATED_AT".into()),
        ..RowsOptions::default()
    };
    // one pass counts every table's rows exactly (500 rows: under the cap)
    let all = analyze_batches(&doc, &options(), &rows, &[batch(0..500, true)]).unwrap();
    let parts = [batch(0..180, true), batch(180..500, true)];
    let scans: Vec<_> = parts
        .iter()
        .map(|b| scan_batches(&doc, &rows, std::slice::from_ref(b)).unwrap())
        .collect();
    let table = scans[0].merge(&scans[1]);
    let (mut partials, mut keys, mut offsets) = (Vec::new(), Vec::new(), vec![0u32]);
    for (b, at) in parts.iter().zip([0, scans[0].rows]) {
        let schema = b.schema();
        let stream = std::iter::once(Ok(b.clone()));
        let (p, k, o) =
            partial_and_keys_of_stream(&doc, &options(), &rows, (&schema, stream), (&table, at))
                .unwrap();
        partials.push(p);
        let base = keys.len() as u32;
        keys.extend_from_slice(&k);
        offsets.extend(o.iter().skip(1).map(|e| e + base));
    }
    // each row's key in every table: the data table's (tag 0), BY_TIME's (1), BY_CUSTOMER's
    // (2); the local index has no table of its own
    assert_eq!(offsets.len() - 1, 3 * 500);
    let key = |n: usize| &keys[offsets[n] as usize..offsets[n + 1] as usize];
    let (id, customer, ms) = order(7);
    assert_eq!(key(3 * 7)[0], 0);
    assert_eq!(
        key(3 * 7 + 1),
        [&[1][..], &index_key(&decimal(ms as u64), 7)].concat()
    );
    let rest = index_key(customer.as_bytes(), 7);
    assert_eq!(
        key(3 * 7 + 2),
        [&[2, bucket(&rest, 8) as u8][..], &rest].concat()
    );
    assert!(key(3 * 7).ends_with(id.as_bytes()));
    let recounts: Vec<_> = grouped(&keys, &offsets, 3)
        .iter()
        .map(|g| recount_batches(&doc, std::slice::from_ref(g)).unwrap())
        .collect();
    assert!(recounts.iter().all(|r| r.indexes.len() == 2));
    let ps: Vec<&[u8]> = partials.iter().map(Vec::as_slice).collect();
    let got = report_of_partials_recounted(Some(&doc), &ps, recounts).unwrap();
    for (x, want) in got.report.indexes.iter().zip(&all.report.indexes) {
        let Some(t) = x.report.as_ref() else {
            continue;
        };
        // 500 orders, each its own index row
        assert!(t.largest_rows_exact && t.distinct_rows_exact, "{}", x.name);
        assert_eq!(t.distinct_rows, 500, "{}", x.name);
        assert_eq!(
            serde_json::to_value(t).unwrap(),
            serde_json::to_value(want.report.as_ref().unwrap()).unwrap(),
            "{}",
            x.name
        );
    }
    assert_eq!(
        serde_json::to_value(&got.report).unwrap(),
        serde_json::to_value(&all.report).unwrap()
    );
}
