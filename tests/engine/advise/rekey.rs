//! The rekey plan (issue 59): a time-first table moved to its salted fix. Every expected figure
//! is computed here apart from the plan: the records generated again and encoded with the new
//! key by this test, each cell's KeyValue bytes summed as HBase counts them (20, the row, the
//! family, the qualifier and the value), the regions found by a search of the split keys, the
//! HFiles rolled at the size given.

use rowkey_lab::analyze::{analyze, AnalyzeOptions};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::keyspec::{CompiledKey, FieldValue};
use rowkey_lab::rekey::{moved_share, Source};
use rowkey_lab::rekey::{rekey_plan, RekeyOptions};
use rowkey_lab::workload::WorkloadStream;

const FIELDS: &str = r#"[
    {"name": "phone", "type": "string", "generator": {"kind": "phone", "distinct": 500}},
    {"name": "ts", "type": "timestamp", "generator": {"kind": "clock"}}
]"#;

fn design(key: &str, presplit: &str) -> DesignDocument {
    DesignDocument::from_json(&format!(
        r#"{{"v": 1, "fields": {FIELDS}, "key": {key:?},
            "workload": {{"records": 20000, "seed": 7, "writeRate": 200, "valueSize": 50}},
            "regions": {{"presplit": {presplit}}}}}"#
    ))
    .unwrap_or_else(|e| panic!("{e}"))
}

fn old() -> DesignDocument {
    design("long(ts) + phone", r#"{"kind": "none"}"#)
}

fn salted(buckets: u32) -> DesignDocument {
    design(
        "salt(phone, 8) + phone + long(ts)"
            .replace('8', &buckets.to_string())
            .as_str(),
        &format!(r#"{{"kind": "saltBuckets", "buckets": {buckets}}}"#),
    )
}

/// Each record's key under `doc`, generated as the analysis generates them.
fn keys(doc: &DesignDocument) -> Vec<Vec<u8>> {
    let fields = doc.key_fields();
    let mut ck = CompiledKey::new(&doc.key, &fields).unwrap();
    let spec = doc.workload.clone().unwrap();
    let mut stream = WorkloadStream::new(&spec, &doc.fields).unwrap();
    let mut values: Vec<FieldValue> = Vec::new();
    let mut out = Vec::new();
    while stream.next_values(&mut values).is_some() {
        out.push(ck.encode_values(&values).unwrap());
    }
    out
}

#[test]
fn a_time_first_table_to_its_salted_fix() {
    let (old, new) = (old(), salted(8));
    let opts = AnalyzeOptions::default();
    let (a, b) = (analyze(&old, &opts).unwrap(), analyze(&new, &opts).unwrap());
    let o = RekeyOptions {
        max_file_size: 64 << 10,
        max_hfiles: 4,
        ..RekeyOptions::default()
    };
    let plan = rekey_plan(&old, &new, &a, &b, &o).unwrap();
    // Both fields the new key reads are in the old key whole.
    let got: Vec<(&str, Source)> = plan
        .fields
        .iter()
        .map(|f| (f.field.as_str(), f.from))
        .collect();
    assert_eq!(got, [("phone", Source::OldKey), ("ts", Source::OldKey)]);
    assert!(plan.ready);
    // The new table: one region per bucket, its split keys \x01 … \x07.
    let bins: Vec<&str> = plan.split_keys.iter().map(|k| k.binary.as_str()).collect();
    assert_eq!(
        bins,
        ["\\x01", "\\x02", "\\x03", "\\x04", "\\x05", "\\x06", "\\x07"]
    );
    // KeyValue bytes per region, counted here: 20 + key + family `cf` + qualifier (1) + 50.
    let mut want = [0u64; 8];
    let mut rows = [0u64; 8];
    for k in keys(&new) {
        let r = usize::from(k[0]);
        want[r] += 20 + k.len() as u64 + 2 + 1 + 50;
        rows[r] += 1;
    }
    let bytes: Vec<u64> = plan.regions.iter().map(|r| r.bytes).collect();
    assert_eq!(bytes, want);
    assert_eq!(
        plan.regions.iter().map(|r| r.rows).collect::<Vec<_>>(),
        rows
    );
    let total: u64 = want.iter().sum();
    assert_eq!(plan.job.bytes_written, total);
    assert_eq!(plan.job.rows, 20_000);
    assert_eq!(plan.job.reducers, 8);
    // Read: the old cells, 20 + old key + 3 + 50 each.
    let read: u64 = keys(&old)
        .iter()
        .map(|k| 20 + k.len() as u64 + 3 + 50)
        .sum();
    assert_eq!(plan.job.bytes_read, read);
    // HFiles rolled at 64 KiB: ⌈bytes / 65,536⌉ a region; over 4 refused.
    let hfiles: Vec<u64> = want.iter().map(|b| b.div_ceil(64 << 10)).collect();
    assert_eq!(
        plan.regions.iter().map(|r| r.hfiles).collect::<Vec<_>>(),
        hfiles
    );
    assert_eq!(
        plan.job.max_hfiles_per_region,
        *hfiles.iter().max().unwrap()
    );
    assert_eq!(
        plan.job.regions_over_hfile_limit,
        hfiles.iter().filter(|&&h| h > 4).count()
    );
    let top = (0..8)
        .max_by(|&x, &y| want[x].cmp(&want[y]).then(y.cmp(&x)))
        .unwrap();
    assert_eq!(plan.job.straggler, top);
    assert!((plan.job.straggler_share - want[top] as f64 / total as f64).abs() < 1e-12);
    // HDFS: three replicas, uncompressed; both tables during the move.
    assert_eq!(plan.job.hdfs_bytes, total * 3);
    assert_eq!(plan.job.space_during_move, total * 3 + read * 3);
    // The statements cut at the same keys.
    assert!(
        plan.create
            .starts_with("create 't_new', 'cf', SPLITS => ['\\x01'"),
        "{}",
        plan.create
    );
    assert_eq!(plan.splits_file.lines().count(), 7);
    // Before and after on the same rows: one region takes every write, then eight share them.
    assert_eq!((plan.old.regions, plan.new.regions), (1, 8));
    assert!(
        plan.new.effective_parallelism > 7.0,
        "{}",
        plan.new.effective_parallelism
    );
    assert!(plan.checklist.iter().any(|s| s.contains("8 reducers")));
    assert!(plan.warnings.iter().any(|w| w.contains("timestamp")));
    assert!(plan.salt.is_none(), "the old key has no salt");
}

#[test]
fn a_field_the_old_key_only_hashes_is_named_unless_a_column_has_it() {
    // The old key holds the phone only inside its salt's hash: the new key cannot get it back.
    let old = design(
        "salt(phone, 8) + long(ts)",
        r#"{"kind": "saltBuckets", "buckets": 8}"#,
    );
    let new = salted(8);
    let opts = AnalyzeOptions::default();
    let (a, b) = (analyze(&old, &opts).unwrap(), analyze(&new, &opts).unwrap());
    let plan = rekey_plan(&old, &new, &a, &b, &RekeyOptions::default()).unwrap();
    let phone = plan.fields.iter().find(|f| f.field == "phone").unwrap();
    assert_eq!(phone.from, Source::Missing);
    assert!(
        phone
            .why
            .as_deref()
            .unwrap()
            .contains("does not give it back"),
        "{:?}",
        phone.why
    );
    assert!(!plan.ready);
    assert!(plan.warnings.iter().any(|w| w.starts_with("field `phone`")));
    // The rows' own column gives it.
    let with = RekeyOptions {
        columns: Some(vec!["phone".into(), "ts".into()]),
        ..RekeyOptions::default()
    };
    let plan = rekey_plan(&old, &new, &a, &b, &with).unwrap();
    assert!(plan.ready);
    assert!(plan.fields.iter().all(|f| f.from == Source::Column));
}

#[test]
fn changing_a_salts_buckets_moves_rows_by_hand() {
    // A row keeps its bucket when h mod a == h mod b: min(a, b) of every lcm(a, b) values.
    assert_eq!(moved_share(8, 16), 0.5);
    assert_eq!(moved_share(8, 10), 1.0 - 8.0 / 40.0);
    assert_eq!(moved_share(16, 8), 0.5);
    // And the share measured over hash values counts the same.
    let (a, b) = (12u64, 18u64);
    let moved = (0..36_000u64).filter(|h| h % a != h % b).count() as f64 / 36_000.0;
    assert!((moved_share(12, 18) - moved).abs() < 1e-12);
    let (old, new) = (salted(8), salted(16));
    let opts = AnalyzeOptions::default();
    let (x, y) = (analyze(&old, &opts).unwrap(), analyze(&new, &opts).unwrap());
    let plan = rekey_plan(&old, &new, &x, &y, &RekeyOptions::default()).unwrap();
    let s = plan.salt.unwrap();
    assert_eq!((s.from, s.to, s.moved_share), (8, 16, 0.5));
}

#[test]
fn bad_options_and_other_rows_are_located_errors() {
    let (old, new) = (old(), salted(8));
    let opts = AnalyzeOptions::default();
    let (a, b) = (analyze(&old, &opts).unwrap(), analyze(&new, &opts).unwrap());
    for (o, path) in [
        (
            RekeyOptions {
                max_file_size: 0,
                ..RekeyOptions::default()
            },
            "maxFileSize",
        ),
        (
            RekeyOptions {
                compression: f64::NAN,
                ..RekeyOptions::default()
            },
            "compression",
        ),
        (
            RekeyOptions {
                parallelism: 0,
                ..RekeyOptions::default()
            },
            "parallelism",
        ),
        (
            RekeyOptions {
                family: String::new(),
                ..RekeyOptions::default()
            },
            "family",
        ),
    ] {
        let e = rekey_plan(&old, &new, &a, &b, &o).unwrap_err();
        assert_eq!(e.location.path.as_deref(), Some(path), "{e}");
    }
    let mut fewer = new.clone();
    fewer.workload.as_mut().unwrap().records = 100;
    let c = analyze(&fewer, &opts).unwrap();
    let e = rekey_plan(&old, &fewer, &a, &c, &RekeyOptions::default()).unwrap_err();
    assert!(e.message.contains("different rows"), "{e}");
}

#[test]
fn the_jobs_carry_the_split_keys() {
    let (old, new) = (old(), salted(8));
    let opts = AnalyzeOptions::default();
    let (a, b) = (analyze(&old, &opts).unwrap(), analyze(&new, &opts).unwrap());
    let plan = rekey_plan(&old, &new, &a, &b, &RekeyOptions::default()).unwrap();
    for i in 1..8u8 {
        // PySpark's list of hex keys, and Java's Bytes.toBytesBinary literal (backslash doubled)
        assert!(
            plan.jobs.spark.contains(&format!("\"{i:02x}\"")),
            "{}",
            plan.jobs.spark
        );
        assert!(
            plan.jobs
                .mapreduce
                .contains(&format!("Bytes.toBytesBinary(\"\\\\x{i:02X}\")")),
            "{}",
            plan.jobs.mapreduce
        );
    }
    assert!(plan.jobs.mapreduce.contains("completebulkload"));
    assert!(
        plan.jobs.phoenix.is_none(),
        "neither design is a Phoenix table"
    );
    // Two Phoenix tables: UPSERT SELECT of the new table's columns from the old one.
    let sql = |t: &str, pk: &str| {
        rowkey_lab::design::phoenix::parse_create_table(&format!(
            "CREATE TABLE {t} (phone VARCHAR NOT NULL, ts BIGINT NOT NULL, v VARCHAR CONSTRAINT pk PRIMARY KEY ({pk}))"
        ))
        .unwrap()
    };
    let (po, pn) = (sql("CALLS", "ts, phone"), sql("CALLS2", "phone, ts"));
    let (x, y) = (analyze(&po, &opts).unwrap(), analyze(&pn, &opts).unwrap());
    let plan = rekey_plan(&po, &pn, &x, &y, &RekeyOptions::default()).unwrap();
    let upsert = plan.jobs.phoenix.unwrap();
    assert!(upsert.starts_with("UPSERT INTO CALLS2 ("), "{upsert}");
    assert!(upsert.ends_with("FROM CALLS;"), "{upsert}");
    // every column of the new table, each once, the same names selected from the old
    assert_eq!(
        upsert,
        "UPSERT INTO CALLS2 (PHONE, TS, V) SELECT PHONE, TS, V FROM CALLS;"
    );
}

/// A salted Phoenix table as the new one, cut into more regions than its buckets: every
/// bucket starts a region (Phoenix's own split points), the CREATE TABLE keeps SALT_BUCKETS
/// without SPLIT ON (which Phoenix refuses with it), and the plan says how the other split
/// keys are made; fewer regions than buckets are one a bucket in Phoenix, said.
#[test]
fn a_salted_phoenix_table_is_cut_at_its_buckets() {
    let opts = AnalyzeOptions::default();
    let old = rowkey_lab::design::phoenix::parse_create_table(
        "CREATE TABLE CALLS (phone VARCHAR NOT NULL, ts BIGINT NOT NULL, v VARCHAR CONSTRAINT pk PRIMARY KEY (ts, phone))",
    )
    .unwrap();
    let salted = rowkey_lab::design::phoenix::parse_create_table(
        "CREATE TABLE CALLS2 (phone VARCHAR NOT NULL, ts BIGINT NOT NULL, v VARCHAR CONSTRAINT pk PRIMARY KEY (phone, ts)) SALT_BUCKETS = 4",
    )
    .unwrap();
    let a = analyze(&old, &opts).unwrap();
    for regions in [9u32, 4, 2] {
        let mut new = salted.clone();
        new.regions.get_or_insert_with(Default::default).presplit =
            rowkey_lab::region::PreSplit::SampleQuantiles {
                regions,
                sample: None,
                by: rowkey_lab::region::SplitBy::Rows,
            };
        let b = analyze(&new, &opts).unwrap();
        let plan = rekey_plan(&old, &new, &a, &b, &RekeyOptions::default()).unwrap();
        let keys: Vec<&str> = plan.split_keys.iter().map(|k| k.hex.as_str()).collect();
        let sql = plan.phoenix.as_deref().unwrap_or("");
        assert!(sql.ends_with("SALT_BUCKETS=4;"), "{sql}");
        assert!(!sql.contains("SPLIT ON"), "{sql}");
        let said = plan.warnings.iter().find(|w| w.contains("Phoenix creates"));
        match regions {
            9 => {
                assert_eq!(keys.len(), 8);
                for b in ["01", "02", "03"] {
                    assert!(keys.contains(&b), "{keys:?}");
                }
                let w = said.unwrap();
                assert!(w.contains("other 5 split key(s)"), "{w}");
                let first = keys.iter().find(|k| k.len() > 2).unwrap();
                let bytes: Vec<u8> = (0..first.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&first[i..i + 2], 16).unwrap())
                    .collect();
                let cmd = rowkey_lab::hbase::shell::shell_split("CALLS2", &bytes);
                assert!(w.contains(&cmd), "{w} / {cmd}");
            }
            4 => {
                assert_eq!(keys, ["01", "02", "03"]);
                assert!(said.is_none(), "{said:?}");
            }
            _ => {
                assert_eq!(keys.len(), 1);
                assert!(said
                    .unwrap()
                    .contains("one region per bucket (4 regions), not the 2"));
            }
        }
    }
}

/// Planned on the generated workload (the page's move without a file of rows), the new table is
/// its create statement's regions, one reducer each, however the design's auto-split (sized to
/// split minutes of writes) would cut it in the analysis: a salted design of 8 buckets that
/// auto-splits at 64 KiB was planned at its split regions against an 8-region create.
#[test]
fn the_move_on_the_workload_is_sized_on_the_create_s_regions() {
    use rowkey_lab::rekey::rekey_on_workload;
    let mut v: serde_json::Value = serde_json::from_str(&salted(8).to_json()).unwrap();
    v["regions"]["autoSplit"] = serde_json::json!({"policy": {"type": "constantSize"},
        "config": {"maxFileSize": 65_536, "memstoreFlushSize": 16_384}});
    let splitting = DesignDocument::from_json(&v.to_string()).unwrap();
    // the analysis alone splits it past its buckets
    let analysed = analyze(&splitting, &AnalyzeOptions::default()).unwrap();
    assert!(analysed.regions.len() > 8, "{}", analysed.regions.len());
    let plan = rekey_on_workload(
        &old(),
        &splitting,
        &AnalyzeOptions::default(),
        &RekeyOptions::default(),
    )
    .unwrap();
    assert_eq!(plan.regions.len(), 8);
    assert_eq!(plan.job.reducers, 8);
    assert_eq!(plan.new.regions, 8);
    assert_eq!(plan.create.matches("\\x").count(), 7, "{}", plan.create);
}

#[test]
fn the_advice_says_what_the_move_to_its_recommendation_needs_from_the_rows() {
    use rowkey_lab::rekey::rekey_on_workload;
    // The time-first telecom key writes its call time to the second (yyyyMMddHHmmss): a
    // timestamp's milliseconds are not in it, so a key reading `ts` cannot be built from the
    // old key alone, while `phone` is written whole and comes back.
    let doc = super::common::preset("seed000-telecom-time-first");
    let advice = super::common::advice(&doc);
    let rec = &advice.recommended;
    assert_ne!(rec.index, 0, "the hotspot has a better key");
    assert!(rec.key_text.contains("ts"), "{}", rec.key_text);
    let note = rec.move_note.as_deref().unwrap_or_else(|| {
        panic!(
            "{}: the move needs ts, and the advice says nothing",
            rec.key_text
        )
    });
    assert!(note.contains("needs `ts`, which"), "{note}");
    assert!(!note.contains("phone"), "{note}");
    // The move planned on the workload says the same: not ready, for ts alone.
    let plan = rekey_on_workload(
        &doc,
        &rec.design,
        &AnalyzeOptions::default(),
        &RekeyOptions::default(),
    )
    .unwrap();
    assert!(!plan.ready);
    let missing: Vec<&str> = plan
        .fields
        .iter()
        .filter(|f| f.from == Source::Missing)
        .map(|f| f.field.as_str())
        .collect();
    assert_eq!(missing, ["ts"]);
    // A key whose fields the old key gives back whole: the salted phone-first telecom key's
    // advice moves nothing it cannot rebuild, or recommends keeping it.
    let whole = super::common::preset("seed000-telecom");
    let advice = super::common::advice(&whole);
    if advice.recommended.index != 0 {
        let plan = rekey_on_workload(
            &whole,
            &advice.recommended.design,
            &AnalyzeOptions::default(),
            &RekeyOptions::default(),
        )
        .unwrap();
        assert_eq!(advice.recommended.move_note.is_none(), plan.ready);
    } else {
        assert!(advice.recommended.move_note.is_none());
    }
}
