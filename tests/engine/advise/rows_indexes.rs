//! The advisor on a user's rows counts a Phoenix design's indexes (issue 69): each candidate's
//! indexes over the same sample rows, as `advise` on the generated workload counts them over
//! its records and `analyze --records` over the file, and a row sample's reading requires the
//! columns an index keys as the analysis does.
//!
//! The rows are `tests/fixtures/phoenix-orders/` (500 orders, one every 200 ms, the last at
//! 99,999 ms: ten 10-second windows of 50 orders each), the table salted 8 ways on ORDER_ID
//! with an index on the time split every 10 s, a covered index on the customer (it takes the
//! table's 8 buckets) and a local index. Every expected figure is derived here from Phoenix's
//! rules (`SaltingUtil`'s Java hash over the bytes after the salt byte), not from the engine.

use rowkey_lab::advise::{advise_on_rows, AdviseOptions};
use rowkey_lab::analyze::{AnalyzeOptions, RowsSession};
use rowkey_lab::design::phoenix::{parse_create_table, IndexKind};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::rows::{RowSample, RowsOptions};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/phoenix-orders");

fn orders() -> DesignDocument {
    parse_create_table(&std::fs::read_to_string(format!("{DIR}/orders.sql")).unwrap()).unwrap()
}

/// Order `j`'s ORDER_ID and CUSTOMER_ID, as make.py writes them.
fn order(j: usize) -> (String, String) {
    (format!("o{j:04}"), format!("c{:02}", j * 7 % 50))
}

/// Phoenix's salt bucket of a key's bytes after the salt byte.
pub(super) fn bucket(rest: &[u8], n: i32) -> usize {
    let mut h: i32 = 1;
    for &b in rest {
        h = h.wrapping_mul(31).wrapping_add(i32::from(b as i8));
    }
    (h % n).unsigned_abs() as usize
}

/// The mean over the ten windows of the busiest region's share when order `j` is written to
/// region `region(j)`.
pub(super) fn mean_busiest_share(region: impl Fn(usize) -> usize) -> f64 {
    let shares: Vec<f64> = (0..10)
        .map(|w| {
            let mut per = std::collections::BTreeMap::new();
            for j in 50 * w..50 * (w + 1) {
                *per.entry(region(j)).or_insert(0u32) += 1;
            }
            f64::from(*per.values().max().unwrap()) / 50.0
        })
        .collect();
    shares.iter().sum::<f64>() / 10.0
}

fn rows_options(name: &str) -> RowsOptions {
    RowsOptions {
        name: Some(name.into()),
        time: Some("CREATED_AT".into()),
        ..RowsOptions::default()
    }
}

/// The advisor's sample of `csv`'s rows, read as `advise --records` reads a file.
fn sample(doc: &DesignDocument, csv: &[u8]) -> rowkey_lab::error::Result<RowSample> {
    let mut s = RowsSession::new(
        doc.clone(),
        AnalyzeOptions::default(),
        rows_options("orders.csv"),
    )?;
    s.keep_row_sample(100_000)?;
    s.push(csv)?;
    s.end_scan()?;
    RowSample::from_bytes(&s.row_sample()?)
}

pub(super) fn options() -> AdviseOptions {
    AdviseOptions {
        windows: 10,
        threads: 1,
        ..AdviseOptions::default()
    }
}

#[test]
fn each_candidate_on_rows_carries_its_indexes_over_the_same_rows() {
    let doc = orders();
    let csv = std::fs::read(format!("{DIR}/orders.csv")).unwrap();
    let rows = sample(&doc, &csv).unwrap();
    assert_eq!(rows.len(), 500);
    let a = advise_on_rows(&doc, &options(), &rows).unwrap();
    let input = a.candidates[0].metrics.as_ref().unwrap();
    let names: Vec<&str> = input.indexes.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(names, ["BY_TIME", "BY_CUSTOMER", "BY_TIME_LOCAL"]);

    // The data table: each order in the bucket of its ORDER_ID.
    let data = mean_busiest_share(|j| bucket(order(j).0.as_bytes(), 8));
    assert!((input.busiest_share - data).abs() < 1e-12, "{input:#?}");

    // BY_TIME, split every 10 s: each window's 50 orders in the one region holding it.
    let t = &input.indexes[0];
    assert_eq!((t.kind, t.regions), (IndexKind::Global, 10));
    assert_eq!((t.busiest_share, t.max_busiest_share), (1.0, 1.0));
    assert!(t.concentrates_writes, "{t:#?}");

    // BY_CUSTOMER takes the table's 8 buckets: its salt over CUSTOMER_ID 00 ORDER_ID.
    let c = &input.indexes[1];
    let want = mean_busiest_share(|j| {
        let (id, customer) = order(j);
        bucket(&[customer.as_bytes(), &[0], id.as_bytes()].concat(), 8)
    });
    assert_eq!(c.regions, 8);
    assert!(
        (c.busiest_share - want).abs() < 1e-12,
        "{c:#?}, want {want}"
    );
    assert!(!c.concentrates_writes, "{c:#?}");

    // The local index: no region of its own, its rows in the data table's regions.
    let l = &input.indexes[2];
    assert_eq!((l.kind, l.regions, l.spread), (IndexKind::Local, 0, None));
    assert!((l.busiest_share - data).abs() < 1e-12, "{l:#?}");
    // A global index writes its row per put; a covered one also its INCLUDE column's cell.
    assert!(t.bytes_per_row > 0.0 && c.bytes_per_row > t.bytes_per_row - 8.0);
}

#[test]
fn a_candidate_on_rows_that_unsalts_an_index_is_flagged_and_not_recommended() {
    let doc = orders();
    let csv = std::fs::read(format!("{DIR}/orders.csv")).unwrap();
    let rows = sample(&doc, &csv).unwrap();
    let a = advise_on_rows(&doc, &options(), &rows).unwrap();
    // An index of an unsalted data key is unsalted (Phoenix gives an index its table's
    // SALT_BUCKETS unless it sets its own): BY_CUSTOMER, without SPLIT ON, is one region.
    let mut unsalting = 0;
    for (i, c) in a.candidates.iter().enumerate() {
        let Some(m) = c.metrics.as_ref() else {
            continue;
        };
        assert_eq!(m.indexes.len(), 3, "{}: {m:#?}", c.label);
        let by_customer = &m.indexes[1];
        if by_customer.regions == 1 {
            unsalting += 1;
            assert_eq!(by_customer.busiest_share, 1.0, "{}", c.label);
            assert!(
                c.flags.iter().any(|f| f.contains("BY_CUSTOMER")),
                "{}: {:?}",
                c.label,
                c.flags
            );
            assert_ne!(a.recommended.index, i, "{}", c.label);
        }
    }
    assert!(unsalting > 0, "no candidate unsalts the table");
}

#[test]
fn a_row_sample_requires_the_columns_an_index_keys() {
    let doc = orders();
    // No CUSTOMER_ID column: the key reads ORDER_ID alone, but BY_CUSTOMER keys CUSTOMER_ID.
    let csv = b"ORDER_ID,CREATED_AT,TOTAL\no0000,2023-11-14T22:13:20.000Z,10.00\n";
    let Err(e) = sample(&doc, csv) else {
        panic!("a file without an indexed column was sampled")
    };
    assert!(
        e.message.contains("index BY_CUSTOMER") && e.message.contains("CUSTOMER_ID"),
        "{e}"
    );
}
