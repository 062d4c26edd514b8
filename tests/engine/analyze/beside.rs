//! What every shell shows beside an analysis (`reads_beside`, `table_now`): the reads over the
//! table a report ends with, through Phoenix's indexes too, and a table's load now against the
//! design's writes, each against an oracle worked out here from the report's own figures.

use rowkey_lab::analyze::{
    analyze, plan_reads_through_indexes, reads_beside, table_now, AnalyzeOptions, ReportTable,
};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::region::RegionLoad;

const DOC: &str = r#"{"v": 1, "name": "beside",
  "fields": [{"name": "phone", "type": "string", "cardinality": 1000},
             {"name": "ts", "type": "timestamp"}],
  "key": "salt(phone, 4, as=dec(2)) + phone + long(ts)",
  "workload": {"records": 4000},
  "reads": [{"type": "prefix", "name": "one phone", "record": {"phone": "13412341234"}}]}"#;

fn doc() -> DesignDocument {
    DesignDocument::from_json(DOC).unwrap()
}

#[test]
fn the_reads_are_planned_over_the_regions_the_report_ends_with() {
    let d = doc();
    let r = analyze(&d, &AnalyzeOptions::default()).unwrap();
    let beside = reads_beside(&d, &ReportTable::of(&r));
    assert_eq!(
        beside.reads,
        d.plan_reads(&r.final_split_keys().unwrap()).unwrap()
    );
    assert!(beside.reads_error.is_none() && beside.through_indexes.is_none());
    let v = serde_json::to_value(&beside).unwrap();
    // no Phoenix indexes: no indexReads member at all (the CLI's --json leaves it out)
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["reads", "readsError"]);
    assert!(v["readsError"].is_null());
}

#[test]
fn a_planning_error_stands_beside_the_report_as_a_thrown_error_reads() {
    // a start key that is not hex: the reads are not planned, the error says where, in the
    // form a thrown engine error has (message with where, then kind, reason, path)
    let d = doc();
    let table = ReportTable {
        start_keys_hex: vec![String::new(), "zz".into()],
        region_writes: vec![1, 1],
        writes: 2,
        servers: Vec::new(),
    };
    let beside = reads_beside(&d, &table);
    assert!(beside.reads.is_empty());
    let e = beside.reads_error.clone().unwrap();
    let v = serde_json::to_value(&beside).unwrap();
    let err = v["readsError"].as_object().unwrap();
    assert_eq!(err["message"], e.to_string());
    assert_eq!(err["reason"], e.message);
    assert_eq!(err["kind"], e.kind.name());
    // in a thrown error's order: the message first, then the fields
    let text = serde_json::to_string(&beside).unwrap();
    assert!(
        text.starts_with(r#"{"reads":[],"readsError":{"message":"#) && text.contains(r#","kind":"#),
        "{text}"
    );
}

#[test]
fn a_phoenix_design_with_reads_is_read_through_its_indexes_too() {
    let sql = "CREATE TABLE ORDERS (ID VARCHAR NOT NULL, CUSTOMER_ID VARCHAR, \
        CREATED_AT TIMESTAMP CONSTRAINT pk PRIMARY KEY (ID)) SALT_BUCKETS=4;\n\
        CREATE INDEX BY_CUSTOMER ON ORDERS (CUSTOMER_ID);";
    let mut d = rowkey_lab::design::phoenix::parse_create_table(sql).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&d.to_json()).unwrap();
    v["reads"] = serde_json::json!([
        {"type": "prefix", "name": "a customer", "record": {"CUSTOMER_ID": "c1"}}
    ]);
    d = DesignDocument::from_json(&v.to_string()).unwrap();
    let r = analyze(&d, &AnalyzeOptions::default()).unwrap();
    let beside = reads_beside(&d, &ReportTable::of(&r));
    let keys = r.final_split_keys().unwrap();
    let through = beside.through_indexes.as_ref().unwrap();
    assert_eq!(
        through.index_reads,
        plan_reads_through_indexes(&d, &keys).unwrap()
    );
    assert!(!through.index_reads.is_empty() && through.index_reads_error.is_none());
    let json = serde_json::to_value(&beside).unwrap();
    assert!(json["indexReads"].is_array() && json["indexReadsError"].is_null());
    // without reads: nothing through the indexes either
    d.reads.clear();
    assert!(reads_beside(&d, &ReportTable::of(&r))
        .through_indexes
        .is_none());
}

fn load(start: &str, server: &str, writes: u64) -> RegionLoad {
    RegionLoad {
        start_key: start.into(),
        server: Some(server.into()),
        writes: Some(writes),
        ..Default::default()
    }
}

#[test]
fn the_table_now_is_set_against_the_designs_writes_region_by_region() {
    // 3 regions taking 10, 30, 60 writes now on two servers; the design writes 50, 25, 25
    let now = [load("", "a", 10), load("k", "b", 30), load("t", "a", 60)];
    let table = ReportTable {
        start_keys_hex: vec![String::new(), "6b".into(), "74".into()],
        region_writes: vec![50, 25, 25],
        writes: 100,
        servers: vec![(Some("a".into()), 75), (Some("b".into()), 25)],
    };
    let t = table_now(&now, &table).unwrap();
    assert_eq!(
        (t.total, t.busiest_now, t.busiest_design),
        (100, 2, Some(0))
    );
    let regions = t.regions.as_ref().unwrap();
    let pairs: Vec<(f64, f64)> = regions.iter().map(|g| (g.now, g.design)).collect();
    assert_eq!(pairs, [(0.1, 0.5), (0.3, 0.25), (0.6, 0.25)]);
    let servers: Vec<(&str, f64, f64)> = t
        .servers
        .iter()
        .map(|s| (s.name.as_str(), s.now, s.design))
        .collect();
    assert_eq!(servers, [("a", 0.1 + 0.6, 0.75), ("b", 0.3, 0.25)]);
    // an auto-split made a fourth region: no region by region, the servers still
    let mut split = table.clone();
    split.region_writes.push(0);
    split.start_keys_hex.push("7a".into());
    let t = table_now(&now, &split).unwrap();
    assert!(t.regions.is_none() && t.busiest_design.is_none());
    assert_eq!(t.servers.len(), 2);
    // a load that counted nothing: nothing to set against
    let none = [
        RegionLoad::default(),
        RegionLoad::default(),
        RegionLoad::default(),
    ];
    assert!(table_now(&none, &table).is_none());
}
