//! How many regions: the plan's count against the arithmetic written out (a year is 12
//! 30-day months; a region holds `maxFileSize`; the count rounded up to a multiple of the
//! servers), and the pre-split that matches the key.

use super::common::preset;
use rowkey_lab::advise::{region_plan, RegionPlanInput};
use rowkey_lab::region::PreSplit;

const YEAR_S: f64 = 360.0 * 86_400.0;
const GIB: f64 = 1_073_741_824.0;

#[test]
fn an_md5_hex_key_gets_a_year_of_regions_as_a_hex_string_split() {
    // md5Hex(user_item, 8) + "_" + user + "_" + item: 8 + 1 + 6 + 1 + 8 = 24 key bytes, 100
    // value bytes, 100 writes a second
    let mut doc = preset("seed004-md5-prefix");
    let measured = RegionPlanInput {
        key_bytes: 24.0,
        regions: 16,
        active_regions_per_window: 16.0,
        write_rate: None,
    };
    let year = 100.0 * 124.0 * YEAR_S; // 385,689,600,000 bytes
    let plan = region_plan(&doc, &measured);
    assert_eq!(plan.servers, 1);
    assert_eq!(plan.recommended, (year / (10.0 * GIB)).ceil() as u64); // 36
    assert_eq!(plan.recommended, 36);
    match &plan.presplit {
        Some(PreSplit::HexString { regions, .. }) => assert_eq!(*regions, 36),
        other => panic!("{other:?}"),
    }
    assert_eq!(plan.presplit_regions, Some(36));
    assert!(!plan.matches_design, "the design has 16");
    // five servers: rounded up to a multiple of five
    doc.regions
        .get_or_insert_with(Default::default)
        .region_servers = 5;
    assert_eq!(region_plan(&doc, &measured).recommended, 40);
    let with_split = |config: serde_json::Value| {
        let mut j = serde_json::to_value(&doc).unwrap_or_default();
        j["regions"]["autoSplit"] = serde_json::json!({ "config": config });
        rowkey_lab::design::DesignDocument::from_json(&j.to_string())
            .unwrap_or_else(|e| panic!("{e}"))
    };
    // the in-run auto-split's sizes are the simulation's, scaled to split minutes of writes:
    // never the production region size (a 4 MiB region made a year 86,768 regions)
    let demo =
        with_split(serde_json::json!({"maxFileSize": "4 MiB", "memstoreFlushSize": "1 MiB"}));
    assert_eq!(region_plan(&demo, &measured).recommended, 40);
    // the table's own MAX_FILESIZE is: 4 GiB regions hold a year in ceil(89.8) = 90
    let table = with_split(serde_json::json!({"tableMaxFileSize": "4 GiB"}));
    assert_eq!((year / (4.0 * GIB)).ceil(), 90.0);
    assert_eq!(region_plan(&table, &measured).recommended, 90);
}

#[test]
fn the_rate_measured_and_a_phoenix_ttl_size_the_plan() {
    // the rows' own rate (the report's writeRate) in place of the workload's 100 writes/s
    let doc = preset("seed004-md5-prefix");
    let measured = RegionPlanInput {
        key_bytes: 24.0,
        regions: 16,
        active_regions_per_window: 16.0,
        write_rate: Some(10.0),
    };
    let year = 10.0 * 124.0 * YEAR_S;
    let plan = region_plan(&doc, &measured);
    assert_eq!(plan.capacity.write_rate, 10.0);
    assert_eq!(plan.recommended, (year / (10.0 * GIB)).ceil() as u64); // 4
                                                                       // a Phoenix table's TTL (seconds, a table option) keeps 30 days + a major compaction's
                                                                       // 7, not a year: at 1,000 writes/s of 124 bytes, 37 days are 396 GB, 37 regions of 10 GiB
    let mut j = serde_json::to_value(&doc).unwrap_or_default();
    j["phoenix"] = serde_json::json!({"table": "T", "options": ["TTL=2592000"]});
    let ttl = rowkey_lab::design::DesignDocument::from_json(&j.to_string())
        .unwrap_or_else(|e| panic!("{e}"));
    let fast = RegionPlanInput {
        write_rate: Some(1000.0),
        ..measured
    };
    let plan = region_plan(&ttl, &fast);
    assert_eq!(plan.capacity.inputs.ttl_days, Some(30.0));
    let kept = 1000.0 * 124.0 * 37.0 * 86_400.0;
    assert_eq!(plan.recommended, (kept / (10.0 * GIB)).ceil() as u64);
    let without = region_plan(&doc, &fast);
    assert!(
        without.recommended > 9 * plan.recommended,
        "{} vs {}",
        without.recommended,
        plan.recommended
    );
}

#[test]
fn a_salted_key_splits_at_its_buckets_and_a_time_first_key_gets_no_presplit() {
    let measured = RegionPlanInput {
        key_bytes: 29.0,
        regions: 10,
        active_regions_per_window: 10.0,
        write_rate: None,
    };
    let plan = region_plan(&preset("seed000-telecom"), &measured);
    // 10 writes a second of 29 + 100 bytes: 40,124,160,000 bytes a year, 3.7 regions of 10 GiB
    assert_eq!(
        plan.capacity_regions,
        (10.0 * 129.0 * YEAR_S / (10.0 * GIB)).ceil() as u64
    );
    // but the salt's 10 buckets decide: one answer, 10 regions, one per bucket (the page
    // showed "How many regions: 4" beside "Use 10 regions")
    assert_eq!(plan.recommended, 10);
    assert!(
        matches!(
            plan.presplit,
            Some(PreSplit::SaltBuckets { buckets: 10, .. })
        ),
        "{:?}",
        plan.presplit
    );
    assert_eq!(plan.presplit_regions, Some(10));
    // a key led by time: one region takes the writes whatever the pre-split
    let plan = region_plan(&preset("seed000-telecom-time-first"), &measured);
    assert!(plan.capacity.time_leading);
    assert_eq!((plan.recommended, plan.presplit.is_none()), (1, true));
}

/// One answer to "how many regions": the advisor's capacity is the region plan of the design
/// it recommends (the Splits view's), and the plan's note gives the count the plan gives, with
/// the salt's buckets when they decide it (it read "pre-split into 4" beside "Use 10").
#[test]
fn the_advisors_capacity_is_the_region_plan_and_its_note_says_the_plans_count() {
    let measured = RegionPlanInput {
        key_bytes: 29.0,
        regions: 10,
        active_regions_per_window: 10.0,
        write_rate: None,
    };
    let plan = region_plan(&preset("seed000-telecom"), &measured);
    assert_eq!((plan.recommended, plan.capacity_regions), (10, 4));
    let notes = plan.capacity.notes.join("\n");
    assert!(
        notes.contains("create it with 10 regions, one per salt bucket: a year fills 4 regions"),
        "{notes}"
    );
    assert!(!notes.contains("pre-split into 4"), "{notes}");
    // the advisor, on the md5 design: its capacity is the plan of what it recommends
    let doc = preset("seed004-md5-prefix");
    let a =
        rowkey_lab::advise::advise(&doc, &rowkey_lab::advise::AdviseOptions::default()).unwrap();
    let m = &a.recommended.metrics;
    let plan = rowkey_lab::advise::region_plan_with(
        &a.recommended.design,
        &RegionPlanInput {
            key_bytes: m.key_bytes,
            regions: m.regions,
            active_regions_per_window: m.active_regions_per_window,
            write_rate: None,
        },
        &rowkey_lab::advise::CapacityOptions::default(),
        a.servers,
    );
    assert_eq!(a.capacity, plan.capacity);
    // every count the notes give is the plan's: the year's regions as simulated, the
    // arithmetic's count (the sizing the pre-split follows) and the pre-split
    let notes = a.capacity.notes.join("\n");
    let year = a.capacity.horizons.last().map_or(0, |h| h.regions);
    assert!(
        notes.contains(&format!("kept in {year} regions"))
            && notes.contains(&format!("would say {} regions", plan.capacity_regions))
            && notes.contains(&format!("pre-split into {} regions", plan.recommended)),
        "{notes}"
    );
}

/// The TTL the plan holds a year to is the design's own (its `hbase` section's `ttlSeconds`)
/// as well as a Phoenix table's `TTL`: the months and the plan read one TTL.
#[test]
fn the_plan_holds_the_design_s_ttl_as_the_months_do() {
    let doc = preset("seed004-md5-prefix");
    let measured = RegionPlanInput {
        key_bytes: 24.0,
        regions: 16,
        active_regions_per_window: 16.0,
        write_rate: None,
    };
    let forever = region_plan(&doc, &measured);
    assert_eq!(forever.capacity.inputs.ttl_days, None);
    let mut j = serde_json::to_value(&doc).unwrap();
    j["hbase"] = serde_json::json!({"ttlSeconds": 2_592_000});
    let ttl = rowkey_lab::design::DesignDocument::from_json(&j.to_string()).unwrap();
    let plan = region_plan(&ttl, &measured);
    assert_eq!(plan.capacity.inputs.ttl_days, Some(30.0));
    assert!(
        plan.capacity_regions < forever.capacity_regions,
        "30 days of data fill fewer regions than a year: {} vs {}",
        plan.capacity_regions,
        forever.capacity_regions
    );
}

/// A salt decides the count however little data a year brings: one region per bucket, and the
/// pre-split that makes it (a salted key over a small file of rows was planned at 1 region,
/// with no "Use 8 regions").
#[test]
fn a_salted_key_is_planned_at_its_buckets_even_when_a_year_fills_one_region() {
    let doc = preset("seed002-salt-byte");
    let buckets = match &doc.key.segments[0] {
        rowkey_lab::keyspec::Segment::Salt(s) => s.buckets,
        other => panic!("{other:?}"),
    };
    let measured = RegionPlanInput {
        key_bytes: 20.0,
        regions: 1,
        active_regions_per_window: 1.0,
        // a few rows a day: a year is megabytes
        write_rate: Some(0.01),
    };
    let plan = region_plan(&doc, &measured);
    assert_eq!(plan.capacity_regions, 1, "a year fills one region");
    assert_eq!(plan.recommended, u64::from(buckets));
    assert_eq!(plan.presplit_regions, Some(buckets));
    assert!(matches!(plan.presplit, Some(PreSplit::SaltBuckets { .. })));
}

/// The plan's one line names the design's own count whenever the two differ (its create
/// statement's), so "how many regions" never sits unexplained above a create of another count;
/// a time-led key's plan says its pre-split spreads nothing.
#[test]
fn the_headline_names_the_design_s_own_count_when_it_differs() {
    let measured = RegionPlanInput {
        key_bytes: 24.0,
        regions: 16,
        active_regions_per_window: 16.0,
        write_rate: None,
    };
    let md5 = preset("seed004-md5-prefix");
    let plan = region_plan(&md5, &measured);
    assert_eq!(plan.design_regions, 16);
    assert_eq!(
        plan.headline,
        format!(
            "{} regions (this design is created with 16 regions)",
            plan.recommended
        )
    );
    let time_first = preset("seed000-telecom-time-first");
    let own = match &time_first.regions.as_ref().unwrap().presplit {
        PreSplit::Explicit { keys, .. } => keys.len() as u32 + 1,
        other => panic!("{other:?}"),
    };
    let plan = region_plan(&time_first, &measured);
    assert!(plan.capacity.time_leading);
    assert_eq!(plan.design_regions, own);
    assert!(
        plan.headline
            .contains(&format!("this design's {own} regions spread no writes")),
        "{}",
        plan.headline
    );
}

/// Issue 72: the advice on a new design (its one region split as it grows, 4 MiB regions,
/// 360,000 records) promised a hotspot of 1.07 on 8 regions, and the page's analysis of the
/// recommended design, loaded, showed 1.88 on 16: the advisor counted fewer records than the
/// design's own workload, so its regions split less. Counted on fewer records, a candidate's
/// split sizes shrink with them: the regions the advice counts are the analysis's.
#[test]
fn the_advice_counts_the_regions_the_analysis_of_its_recommendation_shows() {
    use rowkey_lab::analyze::{analyze, AnalyzeOptions};
    let doc = super::common::doc(include_str!("../../../presets/groups/blank.json"));
    let own = doc.workload.as_ref().map(|w| w.records).unwrap_or_default();
    let opts = rowkey_lab::advise::AdviseOptions {
        records: 40_000,
        ..super::common::small()
    };
    assert!(
        opts.records < own,
        "the advisor counts fewer records than the design's {own}"
    );
    let advice = rowkey_lab::advise::advise(&doc, &opts).unwrap();
    let rec = &advice.recommended;
    let analysis = analyze(&rec.design, &AnalyzeOptions::default()).unwrap();
    assert!(
        analysis.metrics.regions > 1,
        "the recommendation splits as it grows"
    );
    assert_eq!(
        rec.metrics.regions, analysis.metrics.regions,
        "{}: the advice's regions against the analysis's",
        rec.label
    );
    // How many regions to create it with: the line the Splits view shows for the loaded
    // recommendation (the plan from its analysis, as the page asks it: the mean sampled key,
    // the regions, the active regions per window), not a count of the advice's own.
    let n = analysis.sample.len().max(1) as f64;
    let measured = RegionPlanInput {
        key_bytes: analysis
            .sample
            .iter()
            .map(|k| k.key.len() as f64)
            .sum::<f64>()
            / n,
        regions: analysis.regions.len(),
        active_regions_per_window: analysis.metrics.mean_active_regions,
        write_rate: Some(analysis.write_rate),
    };
    assert_eq!(
        advice.region_plan,
        region_plan(&rec.design, &measured).headline
    );
}
