//! The advisor's index findings over a user's rows (issue 69): an index that concentrates its
//! writes over the rows is named, with the changes that fix it, each checked by analyzing the
//! changed index over the same sample rows (not the generated workload).
//!
//! The rows are `tests/fixtures/phoenix-orders/` (500 orders, ORDER_ID `o0000`..`o0499`, one
//! every 200 ms from epoch ms 1,700,000,000,000, the last at 99,999 ms: ten 10-second windows
//! of 50 orders each, CREATED_AT rising with ORDER_ID). The table is salted 8 ways. Every
//! expected figure is worked out here from Phoenix's rules (`SaltingUtil`'s Java hash, a
//! nullable TIMESTAMP a DECIMAL of its milliseconds in an index) or from the rows' order, not
//! taken from the engine.

use super::rows_indexes::{bucket, mean_busiest_share, options};
use crate::phoenix_index_rows::{decimal, order, orders, DIR};
use rowkey_lab::advise::{
    advise_from_rows_evaluated, advise_on_rows, evaluate_on_rows, IndexFixKind,
};
use rowkey_lab::analyze::{AnalyzeOptions, RowsSession};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::rows::{RowSample, RowsOptions};

/// The advisor's sample of the fixture's rows (all 500), read as `advise --records` reads them.
fn sample(doc: &DesignDocument) -> RowSample {
    let csv = std::fs::read(format!("{DIR}/orders.csv")).unwrap();
    let rows = RowsOptions {
        name: Some("orders.csv".into()),
        time: Some("CREATED_AT".into()),
        ..RowsOptions::default()
    };
    let mut s = RowsSession::new(doc.clone(), AnalyzeOptions::default(), rows).unwrap();
    s.keep_row_sample(100_000).unwrap();
    s.push(&csv).unwrap();
    s.end_scan().unwrap();
    RowSample::from_bytes(&s.row_sample().unwrap()).unwrap()
}

#[test]
fn a_time_index_hot_over_the_rows_is_named_with_fixes_checked_over_the_same_rows() {
    let doc = orders(None);
    let rows = sample(&doc);
    assert_eq!(rows.len(), 500);
    let a = advise_on_rows(&doc, &options(), &rows).unwrap();

    // BY_TIME is split every 10 s: each window's 50 orders in the one region holding it. The
    // covered BY_CUSTOMER takes the table's 8 buckets and spreads; a local index is no table.
    let names: Vec<&str> = a.index_findings.iter().map(|f| f.index.as_str()).collect();
    assert_eq!(names, ["BY_TIME"], "{:#?}", a.index_findings);
    let f = &a.index_findings[0];
    assert_eq!((f.regions, f.busiest_share), (10, 1.0), "{f:#?}");
    let data = mean_busiest_share(|j| bucket(order(j).0.as_bytes(), 8));
    assert!((f.data_busiest_share - data).abs() < 1e-12, "{f:#?}");
    assert!(
        f.finding.contains("BY_TIME") && f.finding.contains("100 %"),
        "{}",
        f.finding
    );

    let fix = |k: IndexFixKind| f.fixes.iter().find(|x| x.fix == k).unwrap();
    // Salted 8 ways (the table's): order j's index row in the bucket of its index key after
    // the salt byte, DECIMAL(CREATED_AT) 00 ORDER_ID.
    let salt = fix(IndexFixKind::Salt);
    let want = mean_busiest_share(|j| {
        let (id, _, ms) = order(j);
        bucket(&[decimal(ms as u64), vec![0], id.into_bytes()].concat(), 8)
    });
    assert_eq!(salt.regions, 8, "{salt:#?}");
    assert!(
        (salt.busiest_share - want).abs() < 1e-12,
        "salt: {} over the rows, hand-derived {want}",
        salt.busiest_share
    );
    assert!(salt.spreads, "{salt:#?}");
    assert_eq!(
        salt.statement,
        "CREATE INDEX BY_TIME ON ORDERS (CREATED_AT) SALT_BUCKETS=8;"
    );

    // Local: the index rows in the data rows' regions, so the data table's spread.
    let local = fix(IndexFixKind::Local);
    assert_eq!(local.regions, 0);
    assert!((local.busiest_share - data).abs() < 1e-12, "{local:#?}");
    assert!(local.spreads, "{local:#?}");

    // Led by ORDER_ID (500 distinct values in the sample, CREATED_AT a time): over these rows
    // ORDER_ID rises with the time, so the led index's keys sort as the orders came and each
    // window's 50 consecutive orders fall in one or two of its regions (cut at quantiles of the
    // 500 keys, each region holds at least 50 of them when there are at most 10): its busiest
    // region takes at least half of every window. The check over the rows says it does not
    // spread, where ORDER_IDs drawn at random by a workload would.
    let lead = fix(IndexFixKind::Lead);
    assert!(
        lead.statement.contains("(ORDER_ID, CREATED_AT)"),
        "{}",
        lead.statement
    );
    assert!((2..=10).contains(&lead.regions), "{lead:#?}");
    assert!(lead.busiest_share >= 0.5, "{lead:#?}");
    assert!(!lead.spreads, "{lead:#?}");

    // Best first: the fixes that spread (salt before local when they spread alike), then the
    // lead that does not.
    let order: Vec<IndexFixKind> = f.fixes.iter().map(|x| x.fix).collect();
    assert_eq!(order.last(), Some(&IndexFixKind::Lead), "{order:?}");
    assert!(
        order.iter().position(|k| *k == IndexFixKind::Salt)
            < order.iter().position(|k| *k == IndexFixKind::Lead)
    );
}

#[test]
fn a_salted_time_index_spreads_over_the_rows_and_is_no_finding() {
    // The index takes the table's 8 buckets: order j's row in the bucket of DECIMAL(CREATED_AT)
    // 00 ORDER_ID, the salt fix's figure above, which spreads.
    let doc = orders(Some("CREATE INDEX BY_TIME ON ORDERS (CREATED_AT);\n"));
    let rows = sample(&doc);
    let a = advise_on_rows(&doc, &options(), &rows).unwrap();
    let input = a.candidates[0].metrics.as_ref().unwrap();
    let want = mean_busiest_share(|j| {
        let (id, _, ms) = order(j);
        bucket(&[decimal(ms as u64), vec![0], id.into_bytes()].concat(), 8)
    });
    assert_eq!(input.indexes[0].regions, 8);
    assert!(
        (input.indexes[0].busiest_share - want).abs() < 1e-12,
        "{input:#?}"
    );
    assert!(a.index_findings.is_empty(), "{:#?}", a.index_findings);
}

#[test]
fn one_region_of_a_time_index_over_the_rows_takes_every_write() {
    // SALT_BUCKETS = 0 without SPLIT ON: the index is one region, every order's row in it.
    let doc = orders(Some(
        "CREATE INDEX BY_TIME ON ORDERS (CREATED_AT) SALT_BUCKETS = 0;\n",
    ));
    let rows = sample(&doc);
    let a = advise_on_rows(&doc, &options(), &rows).unwrap();
    let [f] = &a.index_findings[..] else {
        panic!("{:#?}", a.index_findings)
    };
    assert_eq!(
        (f.index.as_str(), f.regions, f.busiest_share),
        ("BY_TIME", 1, 1.0)
    );
    // whichever ranks first spreads; the salt, checked over the rows, is the hand-derived spread
    assert!(f.fixes.first().unwrap().spreads, "{:#?}", f.fixes);
    let salt = f
        .fixes
        .iter()
        .find(|x| x.fix == IndexFixKind::Salt)
        .unwrap();
    assert!(salt.spreads, "{salt:#?}");
    let want = mean_busiest_share(|j| {
        let (id, _, ms) = order(j);
        bucket(&[decimal(ms as u64), vec![0], id.into_bytes()].concat(), 8)
    });
    assert!((salt.busiest_share - want).abs() < 1e-12, "{salt:#?}");
}

#[test]
fn evaluations_made_elsewhere_on_the_rows_give_the_same_findings() {
    // The page's and the CLI's workers evaluate the candidates, then `adviseFrom` answers with
    // the sample: the findings are those of the advisor run in one piece.
    let doc = orders(None);
    let rows = sample(&doc);
    let whole = advise_on_rows(&doc, &options(), &rows).unwrap();
    let evaluations = whole
        .candidates
        .iter()
        .map(|c| evaluate_on_rows(&c.design, &options(), whole.target_regions, &rows))
        .collect();
    let apart = advise_from_rows_evaluated(&doc, &options(), evaluations, &rows).unwrap();
    assert!(!apart.index_findings.is_empty());
    assert_eq!(apart.index_findings, whole.index_findings);
}
