//! The advisor and a Phoenix table's secondary indexes (issue 69, item 5): an index whose own
//! table takes every write on one region is named with its figure and the changes that fix it,
//! each checked; a design whose indexes spread gets no finding; each candidate carries its
//! indexes' figures, and a data key that unsalts an index is flagged and not recommended.
//!
//! The expectations are derived by hand from how Phoenix lays an index out (an index of a
//! salted table takes its buckets unless `SALT_BUCKETS=0`; an unsalted index without `SPLIT ON`
//! is one region; a local index has no region of its own), not from the program's output.

use rowkey_lab::advise::{advise, Advice, AdviseOptions, IndexFixKind};
use rowkey_lab::analyze::{analyze, Access, AnalyzeOptions};
use rowkey_lab::design::phoenix::{parse_create_table, IndexKind};
use rowkey_lab::design::DesignDocument;

/// 8,000 writes at 100 a second: 8 windows of 10 s, 1,000 writes each.
fn options() -> AdviseOptions {
    AdviseOptions {
        records: 8_000,
        windows: 8,
        ..AdviseOptions::default()
    }
}

/// A table of events salted 8 ways with a time column, `index` after it, 8,000 writes at 100
/// a second from a fixed start, and `reads` (JSON) as its reads.
fn events(index: &str, reads: serde_json::Value) -> DesignDocument {
    let doc = parse_create_table(&format!(
        "CREATE TABLE EV (ID VARCHAR NOT NULL PRIMARY KEY, CREATED_AT TIMESTAMP) SALT_BUCKETS=8; {index}"
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    let mut v = serde_json::to_value(&doc).unwrap();
    v["workload"]["records"] = serde_json::json!(8_000);
    v["workload"]["writeRate"] = serde_json::json!(100.0);
    v["workload"]["startTime"] = serde_json::json!(START);
    v["reads"] = reads;
    DesignDocument::from_json(&v.to_string()).unwrap_or_else(|e| panic!("{e}"))
}

const START: i64 = 1_700_000_000_000;

fn advice(doc: &DesignDocument) -> Advice {
    advise(doc, &options()).unwrap_or_else(|e| panic!("advise: {e}"))
}

/// A minute of events by time: the read an index on CREATED_AT is for.
fn a_minute() -> serde_json::Value {
    serde_json::json!([{"type": "range", "name": "a minute",
        "from": {"CREATED_AT": START}, "to": {"CREATED_AT": START + 60_000}}])
}

#[test]
fn the_advisor_names_an_unsalted_time_index_and_its_salt_spreads() {
    let doc = events(
        "CREATE INDEX BY_TIME ON EV (CREATED_AT) SALT_BUCKETS=0;",
        serde_json::json!([]),
    );
    let a = advice(&doc);
    assert_eq!(a.index_findings.len(), 1, "{:#?}", a.index_findings);
    let f = &a.index_findings[0];
    assert_eq!(f.index, "BY_TIME");
    // Unsalted, no SPLIT ON: the index is one region, which takes every write.
    assert_eq!((f.regions, f.busiest_share), (1, 1.0));
    // The data table spreads each window over its 8 buckets: about an eighth on the busiest.
    assert!(f.data_busiest_share < 0.25, "{}", f.data_busiest_share);
    assert!(
        f.finding.contains("BY_TIME") && f.finding.contains("100 %"),
        "{}",
        f.finding
    );

    // Salting it with the table's 8 buckets, checked: 8 regions, about an eighth each.
    let salt = f
        .fixes
        .iter()
        .find(|x| x.fix == IndexFixKind::Salt)
        .expect("a salt fix");
    assert_eq!(
        salt.statement,
        "CREATE INDEX BY_TIME ON EV (CREATED_AT) SALT_BUCKETS=8;"
    );
    assert_eq!(salt.regions, 8);
    assert!(salt.spreads && salt.busiest_share < 0.25, "{salt:#?}");
    // Every fix is checked and each of the three spreads this index over 8 regions (salt 8,
    // the data table's 8, 8 quantiles), an eighth each within sampling: the salt, which keeps
    // the index's time ranges, ranks first.
    assert_eq!(f.fixes.len(), 3, "{:#?}", f.fixes);
    assert!(f.fixes.iter().all(|x| x.spreads), "{:#?}", f.fixes);
    let low = f.fixes.iter().map(|x| x.busiest_share).fold(1.0, f64::min);
    assert_eq!(f.fixes[0].fix, IndexFixKind::Salt, "{:#?}", f.fixes);
    assert!(f.fixes[0].busiest_share <= low * 1.05, "{:#?}", f.fixes);
}

#[test]
fn a_local_index_fix_adds_no_region_and_spreads_as_the_data_table() {
    let doc = events(
        "CREATE INDEX BY_TIME ON EV (CREATED_AT) SALT_BUCKETS=0;",
        serde_json::json!([]),
    );
    let a = advice(&doc);
    let f = &a.index_findings[0];
    let local = f
        .fixes
        .iter()
        .find(|x| x.fix == IndexFixKind::Local)
        .expect("a local fix");
    assert_eq!(local.index.kind, IndexKind::Local);
    assert_eq!(
        local.statement,
        "CREATE LOCAL INDEX BY_TIME ON EV (CREATED_AT);"
    );
    // No region of its own: its rows are in the data table's, so its busiest share is theirs.
    assert_eq!((local.regions, local.spread), (0, None));
    assert_eq!(local.busiest_share, f.data_busiest_share);
    // The design with the local index: still the data table's 8 regions, nothing added.
    let mut fixed = doc.clone();
    fixed.phoenix.as_mut().unwrap().indexes[0] = local.index.clone();
    let r = analyze(&fixed, &AnalyzeOptions::default()).unwrap();
    assert_eq!((r.regions.len(), r.indexes[0].regions_of_its_own), (8, 0));
    // One index write per put in the data row's region, where the global index writes 2.
    assert_eq!(local.writes.put, 1);
}

#[test]
fn each_fix_says_what_it_costs_a_read_through_the_index() {
    let doc = events(
        "CREATE INDEX BY_TIME ON EV (CREATED_AT) SALT_BUCKETS=0;",
        a_minute(),
    );
    let a = advice(&doc);
    let f = &a.index_findings[0];
    let fix = |k: IndexFixKind| f.fixes.iter().find(|x| x.fix == k).unwrap();
    // Before: a range of the one-region index, 1 scan. Salted 8 ways: a scan per bucket.
    let salt = fix(IndexFixKind::Salt);
    let r = &salt.reads[0];
    assert_eq!(r.read, "a minute");
    assert_eq!(r.before.through.as_deref(), Some("BY_TIME"));
    assert_eq!((r.before.access, r.before.scans), (Access::RangeScan, 1));
    assert_eq!((r.after.access, r.after.scans), (Access::RangeScan, 8));
    assert!(
        salt.costs.iter().any(|c| c.contains("a minute")),
        "{:?}",
        salt.costs
    );
    // Led by ID, the index no longer leads with the time: the minute is a full scan of the
    // data table.
    let lead = fix(IndexFixKind::Lead);
    assert_eq!(lead.index.columns[0].name, "ID");
    assert!(
        lead.statement
            .starts_with("CREATE INDEX BY_TIME ON EV (ID, CREATED_AT) SALT_BUCKETS=0 SPLIT ON ("),
        "{}",
        lead.statement
    );
    let r = &lead.reads[0];
    assert_eq!(
        (r.after.through.as_deref(), r.after.access),
        (None, Access::FullScan)
    );
    // Split at quantiles of its keys into the target's 8 regions: an eighth each.
    assert_eq!(lead.regions, 8);
    assert!(lead.spreads && lead.busiest_share < 0.25, "{lead:#?}");
    // Local: the minute through the local index reads all 8 data regions.
    let local = fix(IndexFixKind::Local);
    let r = &local.reads[0];
    assert_eq!(
        (r.after.through.as_deref(), r.after.regions_touched),
        (Some("BY_TIME"), 8)
    );
}

#[test]
fn a_design_whose_indexes_spread_gets_no_index_finding() {
    // The index takes the table's 8 buckets (no SALT_BUCKETS=0): it spreads as the table does.
    let doc = events(
        "CREATE INDEX BY_TIME ON EV (CREATED_AT); CREATE LOCAL INDEX L ON EV (CREATED_AT);",
        serde_json::json!([]),
    );
    let a = advice(&doc);
    assert!(a.index_findings.is_empty(), "{:#?}", a.index_findings);
    let input = a.candidates[0].metrics.as_ref().unwrap();
    let names: Vec<&str> = input.indexes.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(names, ["BY_TIME", "L"]);
    assert_eq!(input.indexes[0].regions, 8);
    assert!(!input.indexes[0].concentrates_writes);
    assert!(
        input.indexes[0].busiest_share < 0.25,
        "{:?}",
        input.indexes[0]
    );
    // Writes per data write: a covered global index 2 per put, a local one 1.
    assert_eq!(
        (input.indexes[0].writes.put, input.indexes[1].writes.put),
        (2, 1)
    );
    // A design without indexes: none either, and no index figures.
    let plain = events("", serde_json::json!([]));
    let a = advice(&plain);
    assert!(a.index_findings.is_empty());
    assert!(a.candidates[0].metrics.as_ref().unwrap().indexes.is_empty());
}

#[test]
fn candidates_carry_their_indexes_and_one_that_unsalts_an_index_is_flagged() {
    let doc = events(
        "CREATE INDEX BY_TIME ON EV (CREATED_AT);",
        serde_json::json!([]),
    );
    let a = advice(&doc);
    let mut unsalted = 0;
    for c in &a.candidates {
        let Some(m) = &c.metrics else { continue };
        assert_eq!(m.indexes.len(), 1, "{}", c.label);
        // The index takes the table's salt only from a Phoenix salt: any other key (no salt,
        // another hash) leaves it one region, every write on it.
        let phoenix_salted = c.key_text.starts_with("salt(") && c.key_text.contains("hash=phoenix");
        if !phoenix_salted {
            unsalted += 1;
            assert!(
                m.indexes[0].concentrates_writes,
                "{}: {:?}",
                c.label, m.indexes[0]
            );
            assert_eq!(m.indexes[0].regions, 1, "{}", c.label);
            assert!(
                c.flags
                    .iter()
                    .any(|f| f.contains("the index BY_TIME concentrates its writes")),
                "{}: {:?}",
                c.label,
                c.flags
            );
        }
    }
    assert!(unsalted > 0, "no candidate changed the salt");
    // The recommendation keeps its index spread.
    let rec = &a.recommended.metrics;
    assert!(
        !rec.indexes[0].concentrates_writes,
        "{}",
        a.recommended.label
    );
}
