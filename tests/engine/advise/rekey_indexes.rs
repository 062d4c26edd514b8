//! A rekey over the rows of a Phoenix table with indexes (issue 69): the one reading that feeds
//! both designs counts each design's indexes as `analyze --records` does (each design's report
//! the one its own reading gives, indexes included), and the plan says each index before and
//! after: a new data key moves its indexes too.
//!
//! The rows are `tests/fixtures/phoenix-orders/` (500 orders, one every 200 ms: ten windows of
//! 50), the old table salted 8 ways, the new one the same table unsalted. Expected figures are
//! derived here from Phoenix's rules: an index of a salted table takes its buckets (the salt
//! byte `SaltingUtil`'s Java hash over the index key after it), an index of an unsalted table
//! without `SPLIT ON` is one region, and `BY_TIME` has its own `SALT_BUCKETS = 0` and ten
//! regions split every 10 s.

use rowkey_lab::analyze::{AnalyzeOptions, RowsSession, SharedRows};
use rowkey_lab::design::phoenix::{parse_create_table, IndexKind};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::rekey::{rekey_reading, rekey_rows, FileRows, RekeyOptions, RowsCut};
use rowkey_lab::rows::RowsOptions;

// worked out by hand, as in the advisor's tests over rows
use super::rows_indexes::{bucket, mean_busiest_share};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/phoenix-orders");

fn sql() -> String {
    std::fs::read_to_string(format!("{DIR}/orders.sql")).unwrap()
}

/// The fixture's table (salted 8 ways) and the same table unsalted, with the same indexes.
fn designs() -> (DesignDocument, DesignDocument) {
    let salted = sql();
    let unsalted = salted.replacen(") SALT_BUCKETS = 8;", ");", 1);
    assert_ne!(salted, unsalted);
    (
        parse_create_table(&salted).unwrap(),
        parse_create_table(&unsalted).unwrap(),
    )
}

fn rows() -> RowsOptions {
    RowsOptions {
        name: Some("orders.csv".into()),
        time: Some("CREATED_AT".into()),
        ..RowsOptions::default()
    }
}

fn options() -> AnalyzeOptions {
    AnalyzeOptions {
        windows: 10,
        ..AnalyzeOptions::default()
    }
}

#[test]
fn one_reading_counts_each_design_s_indexes_as_its_own_reading_does() {
    let (old, new) = designs();
    let csv = std::fs::read(format!("{DIR}/orders.csv")).unwrap();
    let mut shared = SharedRows::new(vec![old.clone(), new.clone()], options(), rows()).unwrap();
    shared.push(&csv).unwrap();
    if !shared.end_scan().unwrap().analyzed {
        shared.push(&csv).unwrap();
    }
    shared.end().unwrap();
    for (i, doc) in [old, new].into_iter().enumerate() {
        let mut alone = RowsSession::new(doc, options(), rows()).unwrap();
        alone.push(&csv).unwrap();
        if !alone.end_scan().unwrap().analyzed {
            alone.push(&csv).unwrap();
        }
        alone.end().unwrap();
        let (a, s) = (alone.report().unwrap(), shared.report(i).unwrap());
        assert_eq!(s.indexes.len(), 3, "design {i}");
        assert_eq!(
            serde_json::to_value(&s).unwrap(),
            serde_json::to_value(&a).unwrap(),
            "design {i}"
        );
    }
}

#[test]
fn the_plan_says_each_index_before_and_after_the_new_key() {
    let (old, new) = designs();
    let (old, new) = (
        serde_json::to_value(&old).unwrap(),
        serde_json::to_value(&new).unwrap(),
    );
    let cut = RowsCut::default();
    assert!(rekey_reading(&old, &new, &cut).unwrap().shared);
    let path = format!("{DIR}/orders.csv");
    let mut file = FileRows::open(std::path::Path::new(&path), rows()).unwrap();
    let plan = rekey_rows(
        &old,
        &new,
        &cut,
        &mut file,
        &options(),
        &rows(),
        &RekeyOptions::default(),
    )
    .unwrap()
    .plan;
    let names = |s: &rowkey_lab::rekey::SideSummary| -> Vec<String> {
        s.indexes.iter().map(|x| x.name.clone()).collect()
    };
    assert_eq!(
        names(&plan.old),
        ["BY_TIME", "BY_CUSTOMER", "BY_TIME_LOCAL"]
    );
    assert_eq!(names(&plan.new), names(&plan.old));

    // BY_TIME keeps its own layout: ten regions, each window's orders on one.
    for side in [&plan.old, &plan.new] {
        let t = &side.indexes[0];
        assert_eq!((t.regions, t.busiest_share), (10, 1.0));
        assert!(!t.headline.is_empty());
    }
    // BY_CUSTOMER: the salted table's 8 buckets before, one region after.
    let before = &plan.old.indexes[1];
    let want = mean_busiest_share(|j| {
        let key = format!("c{:02}\u{0}o{j:04}", j * 7 % 50);
        bucket(key.as_bytes(), 8)
    });
    assert_eq!(before.regions, 8);
    assert!(
        (before.busiest_share - want).abs() < 1e-12,
        "{before:#?}, want {want}"
    );
    let after = &plan.new.indexes[1];
    assert_eq!((after.regions, after.busiest_share), (1, 1.0));
    // The local index: no region of its own either side.
    for side in [&plan.old, &plan.new] {
        let l = &side.indexes[2];
        assert_eq!((l.kind, l.regions), (IndexKind::Local, 0));
        assert!(l.headline.is_empty());
    }
}

#[test]
fn a_shared_reading_names_the_index_that_reads_a_missing_column() {
    let (old, new) = designs();
    let mut shared = SharedRows::new(vec![old, new], options(), rows()).unwrap();
    let csv = b"ORDER_ID,CREATED_AT,TOTAL\no0000,2023-11-14T22:13:20.000Z,10.00\n";
    let e = shared.push(csv).unwrap_err();
    assert!(
        e.message.contains("index BY_CUSTOMER") && e.message.contains("CUSTOMER_ID"),
        "{e}"
    );
}

#[test]
fn a_shared_reading_in_chunks_counts_both_designs_indexes_as_one_reading() {
    let (old, new) = designs();
    let csv = std::fs::read_to_string(format!("{DIR}/orders.csv")).unwrap();
    let mut one = SharedRows::new(vec![old.clone(), new.clone()], options(), rows()).unwrap();
    one.push(csv.as_bytes()).unwrap();
    assert!(one.end_scan().unwrap().analyzed);
    one.end().unwrap();
    let mut lines = csv.lines();
    let header = lines.next().unwrap();
    let all: Vec<&str> = lines.collect();
    let mut main = SharedRows::new(vec![old.clone(), new.clone()], options(), rows()).unwrap();
    assert!(main.chunkable());
    for (a, b) in [(0, 170), (170, 171), (171, all.len())] {
        let mut part = SharedRows::new(vec![old.clone(), new.clone()], options(), rows()).unwrap();
        part.push(format!("{header}\n{}\n", all[a..b].join("\n")).as_bytes())
            .unwrap();
        main.add_chunk(part.chunk().unwrap()).unwrap();
    }
    assert!(main.end_scan().unwrap().analyzed);
    main.end().unwrap();
    for i in 0..2 {
        let (got, want) = (main.report(i).unwrap(), one.report(i).unwrap());
        assert_eq!(got.indexes.len(), 3, "design {i}");
        assert_eq!(
            serde_json::to_value(&got).unwrap(),
            serde_json::to_value(&want).unwrap(),
            "design {i}"
        );
    }
}
