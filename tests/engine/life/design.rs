//! A design document's writes as lanes: the key's shape decides them (a time-led key one
//! lane in time order, a salt over time one lane per bucket, a hashed key spread), and its
//! settings come from the design with the caller's over them.

use rowkey_lab::design::presets;
use rowkey_lab::hbase::policy::SplitPolicy;
use rowkey_lab::life::*;
use serde_json::json;

fn lanes(id: &str) -> LifeWorkload {
    let doc = presets::get(id).unwrap();
    let s = settings_for_design(&doc, &LifeOptions::default()).unwrap();
    workload_from_design(&doc, &s).unwrap()
}

#[test]
fn a_time_led_key_is_one_lane_in_time_order() {
    // time(sent, "yyMMdd") + ":" + time(sent, "HHmmss") + ":" + message_id
    let w = lanes("seed003-time-first");
    assert_eq!(w.keys.weights.len(), 1);
    assert_eq!(w.keys.order, LaneOrder::Ascending);
    // Its pre-split at five minutes of one day lies below every later key: no boundary left.
    assert!(w.presplit.is_empty());
    assert_eq!(w.writes_per_second, 10.0);
}

#[test]
fn a_salt_over_time_is_one_lane_per_bucket_split_at_the_buckets() {
    // salt(time + order_id, 3, as=dec(2)) + "_" + time + "_" + order_id, pre-split by bucket.
    let w = lanes("seed002-hash");
    assert_eq!(w.keys.weights.len(), 3);
    assert_eq!(w.keys.order, LaneOrder::Ascending);
    assert!(w.keys.prefix_lanes);
    assert_eq!(w.presplit, vec![1.0, 2.0]);
    // bucket(ts, mod=100) + long(ts) + …: 100 lanes.
    assert_eq!(lanes("seed001-log-bucket").keys.weights.len(), 100);
}

#[test]
fn a_key_led_by_a_random_field_spreads() {
    let w = lanes("seed004-md5");
    assert_eq!(w.keys.order, LaneOrder::Spread);
    assert!(w.keys.weights.len() > 100);
    // The cell: 20 + key + family (1) + qualifier (1) + value bytes.
    let doc = presets::get("seed004-md5").unwrap();
    let value = doc.workload.as_ref().unwrap().value_size as f64;
    assert!(w.cell_bytes > 22.0 + value && w.cell_bytes < 22.0 + value + 200.0);
}

#[test]
fn settings_come_from_the_design_with_the_options_over_them() {
    let mut doc = presets::get("seed002-salt-byte").unwrap();
    doc.regions.as_mut().unwrap().region_servers = 4;
    let s = settings_for_design(&doc, &LifeOptions::default()).unwrap();
    assert_eq!(s.servers, 4);
    assert_eq!(s.policy, SplitPolicy::Stepping);
    let s = super::settings_of(
        &doc,
        json!({"servers": 6, "months": 3, "policy": {"type": "increasingToUpperBound"},
                "normalizer": {"enabled": true}, "ttlSeconds": 86400}),
    )
    .unwrap();
    assert_eq!((s.servers, s.months, s.ttl_seconds), (6, 3, Some(86_400)));
    assert_eq!(s.policy, SplitPolicy::IncreasingToUpperBound);
    assert!(s.normalizer.enabled && s.normalizer.merge_enabled);
    let e = super::settings_of(&doc, json!({"months": 0})).unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("/months"));
    // a value of the wrong type or sign (refused by the reader, before the ranges): named too
    // (issue 73: "wrong-typed settings name no setting")
    for (options, path) in [
        (json!({"months": -1}), "/months"),
        (json!({"servers": "4"}), "/servers"),
        (
            json!({"months": 2, "compaction": {"ratio": "high"}}),
            "/compaction/ratio",
        ),
        (json!({"normalizer": {"enabled": 1}}), "/normalizer/enabled"),
    ] {
        let e = super::settings_of(&doc, options.clone()).unwrap_err();
        assert_eq!(e.location.path.as_deref(), Some(path), "{options}: {e}");
    }
    let e = super::settings_of(&doc, json!({"months": -1})).unwrap_err();
    assert!(e.message.contains("whole number"), "{}", e.message);
    let e = super::settings_of(&doc, json!({"monthz": 3})).unwrap_err();
    assert!(e.message.contains("monthz"), "{}", e.message);
    let r = simulate_design(&doc, &super::opts(json!({"months": 2}))).unwrap();
    assert_eq!(r.months.len(), 2);
    assert_eq!(
        r.months[0].regions, 8,
        "8 salt buckets, 100 writes/s: no split in a month"
    );
}

#[test]
fn the_design_s_hbase_section_sets_ttl_compression_version_and_normalizer() {
    let mut v: serde_json::Value =
        serde_json::from_str(&presets::get("seed002-salt-byte").unwrap().to_json()).unwrap();
    v["hbase"] = json!({"ttlSeconds": 2_592_000, "compressionRatio": 0.3, "version": "3",
        "normalizationEnabled": true, "normalizerMergeMinRegionSizeMb": 0, "familyBytes": 2});
    let doc = rowkey_lab::design::DesignDocument::from_json(&v.to_string()).unwrap();
    let s = settings_for_design(&doc, &LifeOptions::default()).unwrap();
    assert_eq!(s.ttl_seconds, Some(2_592_000));
    assert_eq!(s.compression_ratio, 0.3);
    assert_eq!(s.version, HBaseVersion::V3);
    assert!(s.overall_files(), "3.x compares all stores");
    assert!(s.normalizer.enabled);
    assert_eq!(s.normalizer.merge_min_region_size_mb, 0);
    // options go over the section
    let s = super::settings_of(
        &doc,
        json!({"ttlSeconds": 86400, "normalizer": {"enabled": false}}),
    )
    .unwrap();
    assert_eq!(s.ttl_seconds, Some(86_400));
    assert!(!s.normalizer.enabled);
    // the cell counts the family's bytes: one more than the design without the section
    let plain = lanes("seed002-salt-byte").cell_bytes;
    assert_eq!(
        workload_from_design(&doc, &s).unwrap().cell_bytes,
        plain + 1.0
    );
    // out of range: the error at the member
    v["hbase"] = json!({"ttlSeconds": 10});
    let e = rowkey_lab::design::DesignDocument::from_json(&v.to_string()).unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("/hbase/ttlSeconds"));
    v["hbase"] = json!({"version": "4"});
    assert!(rowkey_lab::design::DesignDocument::from_json(&v.to_string()).is_err());
}

/// A Phoenix table's `TTL`, `MAX_FILESIZE`, `MEMSTORE_FLUSHSIZE` and `NORMALIZATION_ENABLED`
/// are what HBase's descriptors get from the statement: the months run with them and say so,
/// as they run with the same settings written in the design's own members.
#[test]
fn a_phoenix_table_s_options_are_the_months_settings() {
    use rowkey_lab::design::phoenix::parse_create_table;
    let sql = "CREATE TABLE calls (phone VARCHAR NOT NULL, ts TIMESTAMP NOT NULL, dur INTEGER \
               CONSTRAINT pk PRIMARY KEY (ts, phone)) TTL = 2592000, MAX_FILESIZE = 2147483648, \
               MEMSTORE_FLUSHSIZE = 67108864, NORMALIZATION_ENABLED = true";
    let doc = parse_create_table(sql).unwrap();
    assert_eq!(doc.ttl_seconds(), Some(2_592_000));
    let s = settings_for_design(&doc, &LifeOptions::default()).unwrap();
    assert_eq!(s.ttl_seconds, Some(2_592_000));
    assert_eq!(s.split.desired_max_file_size(), 2 << 30);
    assert_eq!(s.flush_size(), 64.0 * 1024.0 * 1024.0);
    assert!(s.normalizer.enabled);
    // the same table without its options runs on HBase's defaults
    let plain = parse_create_table(sql.split(" TTL").next().unwrap()).unwrap();
    let d = settings_for_design(&plain, &LifeOptions::default()).unwrap();
    assert_eq!(d.ttl_seconds, None);
    assert_eq!(d.split.desired_max_file_size(), 10 << 30);
    assert!(!d.normalizer.enabled);
    // the design's own member wins over the statement's option
    let mut v: serde_json::Value = serde_json::from_str(&doc.to_json()).unwrap();
    v["hbase"] = json!({"ttlSeconds": 86400});
    let own = rowkey_lab::design::DesignDocument::from_json(&v.to_string()).unwrap();
    assert_eq!(own.ttl_seconds(), Some(86_400));
    // the report names them among the settings that differ from HBase's defaults
    let r = simulate_design(&doc, &super::opts(json!({"months": 2}))).unwrap();
    let notes = r.notes.join("\n");
    assert!(notes.contains("TTL 2592000 s (30 days)"), "{notes}");
    assert!(notes.contains("split size 2 GiB"), "{notes}");
    assert!(notes.contains("normalizer on"), "{notes}");
    // a quoted value or a family's option is read too; 'FOREVER' is no TTL
    let q = parse_create_table(&sql.replace("TTL = 2592000", "CF.TTL = '86400'")).unwrap();
    assert_eq!(q.ttl_seconds(), Some(86_400));
}

/// The new design's auto-split sizes (4 MiB splits, 1 MiB flushes) make its minutes of generated
/// writes split in the analysis; months of the table run at HBase's sizes, as the region plan
/// does, and the report says what it left and where to set the table's own. A table's own
/// MAX_FILESIZE (tableMaxFileSize) is kept.
#[test]
fn the_analysis_s_scaled_split_sizes_are_not_the_months() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/presets/groups/blank.json"
    ))
    .unwrap();
    let doc = rowkey_lab::design::DesignDocument::from_json(&text).unwrap();
    let a = doc.regions.as_ref().unwrap().auto_split.as_ref().unwrap();
    assert_eq!(
        a.config.max_file_size,
        4 << 20,
        "the blank design's analysis size"
    );
    let s = settings_for_design(&doc, &LifeOptions::default()).unwrap();
    assert_eq!(s.split.desired_max_file_size(), 10 << 30);
    assert_eq!(s.flush_size(), 128.0 * 1024.0 * 1024.0);
    assert_eq!(s.policy, a.policy, "the design's policy is kept");
    let r = simulate_design(&doc, &super::opts(json!({"months": 1}))).unwrap();
    let notes = r.notes.join("\n");
    assert!(
        notes.contains("split at 4 MiB, flush at 1 MiB")
            && notes.contains("split size 10240 MiB and flush size 128 MiB"),
        "{notes}"
    );
    // the table's own MAX_FILESIZE is the table's, not the analysis's scale
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["regions"]["autoSplit"]["config"]["tableMaxFileSize"] = json!(1u64 << 31);
    let own = rowkey_lab::design::DesignDocument::from_json(&v.to_string()).unwrap();
    let s = settings_for_design(&own, &LifeOptions::default()).unwrap();
    assert_eq!(s.split.desired_max_file_size(), 2 << 30);
    // the options still set the cluster's size
    let s = super::settings_of(&doc, json!({"split": {"maxFileSize": 1u64 << 32}})).unwrap();
    assert_eq!(s.split.desired_max_file_size(), 4 << 30);
}
