//! The rekey plan from a live snapshot series alone (`rekey_from_series`): the old table's
//! regions read from the observe fixtures' `list_regions` (at the last snapshot `[, m)` holds
//! 12 MB and `[m, )` 20 MB; 3,600 and 900 requests over 60 s), the rows stood for by the
//! old design's workload (hosts alpha, mike, tango, zulu: alpha below `m`, the others above).
//! Figures are checked against sums written out here from those sizes.

use rowkey_lab::design::DesignDocument;
use rowkey_lab::error::ErrorKind;
use rowkey_lab::region::series::{read_series, RegionSeries, SnapshotFile};
use rowkey_lab::rekey::{rekey_from_series, RekeyOptions, SeriesRekeyPlan};
use serde_json::json;

const MIB: u64 = 1 << 20;

fn list_regions() -> RegionSeries {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/observe/list_regions");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    let files: Vec<(String, String)> = names
        .iter()
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(p).unwrap(),
            )
        })
        .collect();
    let input: Vec<SnapshotFile<'_>> = files
        .iter()
        .map(|(name, text)| SnapshotFile {
            name,
            text,
            modified_ms: None,
        })
        .collect();
    read_series(&input, None).unwrap()
}

fn design(hosts: &[&str], key: &str) -> DesignDocument {
    DesignDocument::from_json(
        &json!({
            "v": 1,
            "fields": [
                {"name": "host", "type": "string", "generator": {"kind": "list", "values": hosts}},
                {"name": "ts", "type": "timestamp", "generator": {"kind": "clock"}}
            ],
            "key": key,
            "workload": {"records": 4000, "seed": 1, "writeRate": 10, "valueSize": 50}
        })
        .to_string(),
    )
    .unwrap()
}

const HOSTS: [&str; 4] = ["alpha", "mike", "tango", "zulu"];

fn plan(old: &DesignDocument, new: &DesignDocument, regions: u32) -> SeriesRekeyPlan {
    rekey_from_series(
        old,
        new,
        &list_regions(),
        regions,
        Some(40_000),
        &RekeyOptions::default(),
    )
    .unwrap()
}

#[test]
fn the_old_tables_bytes_and_requests_are_the_series_own() {
    let old = design(&HOSTS, "host + \"|\" + long(ts)");
    let new = design(&HOSTS, "host + \"#\" + long(ts)");
    let p = plan(&old, &new, 2);
    let e = &p.estimate;
    let bytes: Vec<Option<u64>> = e.old_regions.iter().map(|r| r.bytes).collect();
    assert_eq!(bytes, [Some(12 * MIB), Some(20 * MIB)]);
    let req: Vec<Option<f64>> = e.old_regions.iter().map(|r| r.requests_per_sec).collect();
    assert_eq!(req, [Some(3600.0 / 60.0), Some(900.0 / 60.0)]);
    assert_eq!(e.bytes, 32 * MIB);
    assert!(!p.split_keys_exact);
    // every record lands in one old region: alpha's below `m`, the three others' above
    let sampled: Vec<u64> = e.old_regions.iter().map(|r| r.sampled).collect();
    assert_eq!(sampled.iter().sum::<u64>(), 40_000);
    let quarter = sampled[0] as f64 / 40_000.0;
    assert!(
        (quarter - 0.25).abs() < 0.02,
        "alpha's share of the records: {quarter}"
    );
    assert_eq!(e.unplaced_bytes, 0);
    // the old side: the busiest region 60 of 75 requests a second; mean 37.5
    assert!((p.plan.old.hotspot - 60.0 / 37.5).abs() < 1e-9);
    assert!(
        (p.plan.old.effective_parallelism - 1.0 / (0.8f64.powi(2) + 0.2f64.powi(2))).abs() < 1e-9
    );
    // rows: 32 MiB ÷ (20 + 2 ("cf") + 1 + 50 + the old key's mean: 4.5 host bytes, "|", 8)
    let per_row = 20.0 + 2.0 + 1.0 + 50.0 + (5.0 + 4.0 + 5.0 + 4.0) / 4.0 + 1.0 + 8.0;
    let rows = (32 * MIB) as f64 / per_row;
    assert!(
        (e.rows as f64 / rows - 1.0).abs() < 0.01,
        "{} rows, {rows} by hand",
        e.rows
    );
    // the bytes read are the table's, to a row's bytes
    assert!((p.plan.job.bytes_read as f64 - (32 * MIB) as f64).abs() < 2.0 * per_row);
}

#[test]
fn new_split_keys_cut_the_weighted_records_by_bytes() {
    // new keys in host order: alpha's records carry 12 MiB, the cut at 16 MiB falls among
    // mike's (region [m, ) spreads 20 MiB over mike, tango and zulu: a fifth of it is 4 MiB)
    let old = design(&HOSTS, "host + \"|\" + long(ts)");
    let new = design(&HOSTS, "host + \"#\" + long(ts)");
    let p = plan(&old, &new, 2);
    assert_eq!(p.plan.split_keys.len(), 1);
    assert!(
        p.plan.split_keys[0].binary.starts_with("mike#"),
        "{}",
        p.plan.split_keys[0].binary
    );
    let total: u64 = p.plan.regions.iter().map(|r| r.bytes).sum();
    assert!((total as f64 / (32 * MIB) as f64 - 1.0).abs() < 0.001);
    for r in &p.plan.regions {
        assert!((r.share - 0.5).abs() < 0.001, "{r:?}");
    }
    // the error: region 0 holds every alpha record (no error) and a share p of the region
    // above m's records: two standard errors of 20 MiB × p
    let e = &p.estimate;
    let n1 = e.old_regions[1].sampled as f64;
    let p1 = 0.2;
    let by_hand = 2.0 * (20 * MIB) as f64 * (p1 * (1.0 - p1) / n1).sqrt();
    assert!(
        (e.error_bytes[0] as f64 / by_hand - 1.0).abs() < 0.05,
        "{:?} vs {by_hand}",
        e.error_bytes
    );
    assert!(e
        .assumptions
        .iter()
        .any(|a| a.contains("assumed spread within its range")));
    assert!(p.plan.warnings[0].starts_with("Estimated from a snapshot series"));
    assert!(p.plan.checklist.len() >= 6, "the same cutover checklist");
    assert!(p.plan.checklist[0].starts_with("Before the move: export the old table's rows"));
}

#[test]
fn a_salted_new_key_keeps_each_bucket_whole_as_the_rows_plan_does() {
    // issue 71: the series plan cuts by the rows plan's rule (region::cut): a key opening with
    // 4 salt buckets (dec(2): 00 … 03) cut into as many regions gives each bucket one, so the
    // split keys are the buckets' starts; into fewer, every split key is a bucket's start; into
    // more, every bucket still starts a region and the others fall inside buckets
    let old = design(&HOSTS, "host + \"|\" + long(ts)");
    let new = design(
        &HOSTS,
        "salt(host, 4, as=dec(2)) + \"|\" + host + \"|\" + long(ts)",
    );
    let keys = |regions: u32| -> Vec<String> {
        plan(&old, &new, regions)
            .plan
            .split_keys
            .into_iter()
            .map(|k| k.binary)
            .collect()
    };
    assert_eq!(keys(4), ["01", "02", "03"]);
    let two = keys(2);
    assert_eq!(two.len(), 1);
    assert!(["01", "02", "03"].contains(&two[0].as_str()), "{two:?}");
    let eight = keys(8);
    for bound in ["01", "02", "03"] {
        assert!(eight.iter().any(|k| k == bound), "{bound} in {eight:?}");
    }
    assert!(
        eight.len() > 3 && eight.iter().all(|k| k.starts_with('0')),
        "{eight:?}"
    );
}

#[test]
fn a_field_the_old_key_only_hashes_is_named_and_a_region_no_record_reaches_is_said() {
    // the old key keeps only an MD5 prefix of the host: the new key cannot be built from it
    let old = design(&HOSTS, "md5Hex(host, 4) + long(ts)");
    let new = design(&HOSTS, "host + \"|\" + long(ts)");
    let p = rekey_from_series(
        &old,
        &new,
        &list_regions(),
        4,
        Some(10_000),
        &RekeyOptions::default(),
    );
    // md5 prefixes are binary, mostly above "m" or below: both regions may get records; the
    // plan is made, and the field named
    let p = p.unwrap();
    let host = p.plan.fields.iter().find(|f| f.field == "host").unwrap();
    assert_eq!(serde_json::to_value(host.from).unwrap(), "missing");
    assert!(host.why.as_deref().is_some_and(|w| !w.is_empty()));
    assert!(!p.plan.ready);

    // hosts all below `m`: no record reaches [m, ): its 20 MiB are unplaced, in every error
    let low = design(&["alpha", "bravo"], "host + \"|\" + long(ts)");
    let p = plan(&low, &design(&["alpha", "bravo"], "long(ts) + host"), 2);
    assert_eq!(p.estimate.unplaced, ["m"]);
    assert_eq!(p.estimate.unplaced_bytes, 20 * MIB);
    assert!(p.estimate.error_bytes.iter().all(|&e| e >= 20 * MIB));
    assert!(p.estimate.max_error_share >= 20.0 / 32.0);
}

#[test]
fn a_series_without_a_rate_or_a_bad_count_is_refused() {
    let old = design(&HOSTS, "host + \"|\" + long(ts)");
    let s = list_regions();
    let e = rekey_from_series(&old, &old, &s, 0, None, &RekeyOptions::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::IllegalArgument);
    let mut one = s.clone();
    one.intervals.clear();
    let e = rekey_from_series(&old, &old, &one, 2, None, &RekeyOptions::default()).unwrap_err();
    assert!(
        e.message.contains("no interval with a rate"),
        "{}",
        e.message
    );
}
