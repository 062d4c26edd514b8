//! Phoenix secondary indexes: `CREATE INDEX` read into a design and printed back, the located
//! errors of a bad index, and the index row key byte for byte against hand-derived vectors
//! (`tests/fixtures/phoenix.index.rowkey.jsonl`: each `expect` worked out by hand from
//! `IndexMaintainer.buildRowKey`, `IndexUtil.getIndexColumnDataType` and `PDecimal`, its
//! `derivation` saying how; none is the program's output).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use rowkey_lab::design::phoenix::{
    parse_create_table, print_create_table, IndexEncoder, IndexKind,
};
use rowkey_lab::design::DesignDocument;

const ORDERS: &str = "CREATE TABLE ORDERS (ID VARCHAR NOT NULL, CUSTOMER_ID VARCHAR, \
    CREATED_AT TIMESTAMP, TOTAL DECIMAL(10,2), NOTE VARCHAR CONSTRAINT pk PRIMARY KEY (ID)) \
    SALT_BUCKETS=8;";

fn parse(sql: &str) -> DesignDocument {
    parse_create_table(sql).unwrap_or_else(|e| panic!("{sql}: {e}"))
}

fn parse_err(sql: &str) -> rowkey_lab::Error {
    match parse_create_table(sql) {
        Ok(_) => panic!("{sql}: read without error"),
        Err(e) => e,
    }
}

#[test]
fn create_index_statements_are_read_into_the_design() {
    let doc = parse(&format!(
        "{ORDERS}\nCREATE INDEX IDX_CREATED ON ORDERS (CREATED_AT DESC) INCLUDE (TOTAL) ASYNC;\n\
         CREATE UNCOVERED INDEX IDX_CUST ON ORDERS (CUSTOMER_ID) SALT_BUCKETS=0 SPLIT ON ('m');\n\
         create local index idx_local on orders (note)"
    ));
    let p = doc.phoenix.as_ref().unwrap();
    assert_eq!(p.indexes.len(), 3);
    let a = &p.indexes[0];
    assert_eq!(
        (a.name.as_str(), a.kind),
        ("IDX_CREATED", IndexKind::Global)
    );
    assert!(a.columns[0].desc && a.build_async);
    assert_eq!(a.include[0].name, "TOTAL");
    assert_eq!(a.salt_buckets, None);
    let b = &p.indexes[1];
    assert_eq!((b.kind, b.salt_buckets), (IndexKind::Uncovered, Some(0)));
    assert_eq!(b.split_on, vec!["6d".to_string()]);
    assert_eq!(p.indexes[2].kind, IndexKind::Local);
    assert_eq!(p.indexes[2].name, "IDX_LOCAL");
    // The columns outside the key that an index names get fields, so the workload gives them
    // values: a timestamp (the write time), text, a decimal.
    for f in ["CREATED_AT", "CUSTOMER_ID", "NOTE", "TOTAL"] {
        assert!(doc.field(f).is_some(), "{f} has no field");
    }
}

#[test]
fn indexes_print_back_and_read_again_the_same() {
    let doc = parse(&format!(
        "{ORDERS} CREATE INDEX \"my idx\" ON ORDERS (CREATED_AT DESC, CUSTOMER_ID) INCLUDE (TOTAL) \
         ASYNC SALT_BUCKETS=4, COMPRESSION='SNAPPY'; CREATE UNCOVERED INDEX U ON ORDERS (NOTE) \
         SALT_BUCKETS=0 SPLIT ON (X'00ff'); CREATE LOCAL INDEX L ON ORDERS (CUSTOMER_ID);"
    ));
    let sql = print_create_table(&doc).unwrap();
    assert!(
        sql.contains(
            "CREATE INDEX \"my idx\" ON ORDERS (CREATED_AT DESC, CUSTOMER_ID) INCLUDE (TOTAL) ASYNC SALT_BUCKETS=4, COMPRESSION='SNAPPY';"
        ),
        "{sql}"
    );
    assert!(
        sql.contains(
            "CREATE UNCOVERED INDEX U ON ORDERS (NOTE) SALT_BUCKETS=0 SPLIT ON (X'00ff');"
        ),
        "{sql}"
    );
    assert!(
        sql.contains("CREATE LOCAL INDEX L ON ORDERS (CUSTOMER_ID);"),
        "{sql}"
    );
    let again = parse(&sql);
    assert_eq!(again.phoenix, doc.phoenix);
}

#[test]
fn a_name_from_a_document_cannot_break_out_of_the_statement() {
    let mut doc = parse(&format!("{ORDERS} CREATE INDEX I ON ORDERS (NOTE);"));
    doc.phoenix.as_mut().unwrap().indexes[0].name =
        "I ON ORDERS (NOTE); DROP TABLE ORDERS; --".into();
    let sql = print_create_table(&doc).unwrap();
    assert!(
        sql.contains("CREATE INDEX \"I ON ORDERS (NOTE); DROP TABLE ORDERS; --\" ON ORDERS"),
        "{sql}"
    );
    let again = parse(&sql);
    assert_eq!(again.phoenix, doc.phoenix);
    // An option that is not one NAME=value is refused where it is.
    doc.phoenix.as_mut().unwrap().indexes[0].options = vec!["A=1; DROP TABLE X".into()];
    let e = print_create_table(&doc).unwrap_err();
    assert_eq!(
        e.location.path.as_deref(),
        Some("/phoenix/indexes/0/options/0"),
        "{e}"
    );
}

#[test]
fn an_indexed_column_that_does_not_exist_is_located() {
    let e = parse_err(&format!("{ORDERS}\nCREATE INDEX I ON ORDERS (NOPE);"));
    assert!(
        e.message.contains("\"NOPE\" does not exist in ORDERS"),
        "{e}"
    );
    assert_eq!(
        (e.location.line, e.location.column),
        (Some(2), Some(27)),
        "{e}"
    );
    let e = parse_err(&format!(
        "{ORDERS}\nCREATE INDEX I ON ORDERS (NOTE) INCLUDE (GONE);"
    ));
    assert!(e.message.contains("\"GONE\" does not exist"), "{e}");
    assert_eq!(
        (e.location.line, e.location.column),
        (Some(2), Some(42)),
        "{e}"
    );
    // In a document, at its path.
    let mut doc = parse(&format!("{ORDERS} CREATE INDEX I ON ORDERS (NOTE);"));
    doc.phoenix.as_mut().unwrap().indexes[0].columns[0].name = "NOPE".into();
    let e = doc.validate().unwrap_err();
    assert_eq!(
        e.location.path.as_deref(),
        Some("/phoenix/indexes/0/columns/0"),
        "{e}"
    );
}

#[test]
fn an_index_on_a_column_of_an_unsupported_type_is_located() {
    let e = parse_err(
        "CREATE TABLE T (K VARCHAR PRIMARY KEY, TAGS VARCHAR ARRAY);\nCREATE INDEX I ON T (TAGS);",
    );
    assert!(e.message.contains("TAGS is VARCHAR ARRAY"), "{e}");
    assert_eq!(
        (e.location.line, e.location.column),
        (Some(2), Some(22)),
        "{e}"
    );
}

/// A design's SQL text (a column's declared type, an option) is read where the index is used,
/// not when the document is read: every build of the engine reads documents alike, the page's
/// first build holding no SQL reader. Each use refuses the same text at the same member.
#[test]
fn an_index_s_sql_text_is_refused_where_the_index_is_used() {
    use rowkey_lab::analyze::{analyze, AnalyzeOptions};
    use rowkey_lab::design::phoenix::{index_shape, print_create_index};
    let sql = "CREATE TABLE T (K VARCHAR PRIMARY KEY, TAGS VARCHAR ARRAY, N VARCHAR);\nCREATE INDEX I ON T (N);";
    let mut doc = parse(sql);
    doc.phoenix.as_mut().unwrap().indexes[0].columns[0].name = "TAGS".into();
    doc.validate().unwrap();
    let at = |e: rowkey_lab::Error| (e.location.path.clone(), e.message);
    let (path, message) = at(index_shape(&doc, 0).unwrap_err());
    assert_eq!(path.as_deref(), Some("/phoenix/indexes/0/columns/0"));
    assert!(message.contains("TAGS is VARCHAR ARRAY"), "{message}");
    assert_eq!(at(print_create_index(&doc, 0).unwrap_err()).0, path);
    assert_eq!(
        at(analyze(&doc, &AnalyzeOptions::default()).unwrap_err()).0,
        path
    );
    // A covered column is stored, not indexed: an array is one Phoenix covers.
    let doc = parse(&sql.replace("INDEX I ON T (N)", "INDEX I ON T (N) INCLUDE (TAGS)"));
    assert!(print_create_index(&doc, 0)
        .unwrap()
        .contains("INCLUDE (TAGS)"));
    // An option that is not NAME=value, or is the salt: read as the document is, refused in use.
    for (option, says) in [
        ("NOT AN OPTION", "not one Phoenix table option"),
        ("SALT_BUCKETS=4", "saltBuckets member"),
    ] {
        let mut doc = parse(sql);
        doc.phoenix.as_mut().unwrap().indexes[0].options = vec![option.into()];
        doc.validate().unwrap();
        let (path, message) = at(index_shape(&doc, 0).unwrap_err());
        assert_eq!(
            path.as_deref(),
            Some("/phoenix/indexes/0/options/0"),
            "{option}"
        );
        assert!(message.contains(says), "{option}: {message}");
    }
}

#[test]
fn too_many_indexed_columns_and_too_many_indexes_are_refused() {
    let cols: Vec<String> = (0..256).map(|i| format!("C{i} VARCHAR")).collect();
    let names: Vec<String> = (0..256).map(|i| format!("C{i}")).collect();
    let e = parse_err(&format!(
        "CREATE TABLE T (K VARCHAR PRIMARY KEY, {});\nCREATE INDEX I ON T ({});",
        cols.join(", "),
        names.join(", ")
    ));
    assert!(e.message.contains("at most 255"), "{e}");
    let indexes: Vec<String> = (0..31)
        .map(|i| format!("CREATE INDEX I{i} ON T (V);"))
        .collect();
    let e = parse_err(&format!(
        "CREATE TABLE T (K VARCHAR PRIMARY KEY, V VARCHAR); {}",
        indexes.join(" ")
    ));
    assert!(e.message.contains("Phoenix allows 30"), "{e}");
}

#[test]
fn duplicate_index_names_are_located() {
    let e = parse_err(&format!(
        "{ORDERS}\nCREATE INDEX I ON ORDERS (NOTE);\nCREATE INDEX I ON ORDERS (TOTAL);"
    ));
    assert!(e.message.contains("another index"), "{e}");
    assert_eq!(
        (e.location.line, e.location.column),
        (Some(3), Some(14)),
        "{e}"
    );
    let e = parse_err(&format!("{ORDERS}\nCREATE INDEX ORDERS ON ORDERS (NOTE);"));
    assert!(e.message.contains("the table"), "{e}");
}

#[test]
fn phoenix_grammar_rules_are_kept() {
    for (sql, want) in [
        (
            "CREATE UNCOVERED INDEX I ON ORDERS (NOTE) INCLUDE (TOTAL);",
            "cannot have the INCLUDE",
        ),
        (
            "CREATE UNCOVERED LOCAL INDEX I ON ORDERS (NOTE);",
            "UNCOVERED cannot be used with LOCAL",
        ),
        (
            "CREATE LOCAL INDEX I ON ORDERS (NOTE) SALT_BUCKETS=4;",
            "takes no SALT_BUCKETS",
        ),
        (
            "CREATE INDEX I ON ORDERS (NOTE) SPLIT ON ('a');",
            "salted index",
        ),
        (
            // a functional index is read for its functions (phoenix_index_expr.rs); others not
            "CREATE INDEX I ON ORDERS (ROUND(TOTAL));",
            "the function ROUND is not read in an indexed expression",
        ),
        (
            "CREATE INDEX I ON ORDERS (NOTE || ID);",
            "this indexed expression is not read here",
        ),
        (
            "CREATE INDEX I ON ORDERS (NOTE) WHERE TOTAL > 1;",
            "partial indexes",
        ),
        (
            "CREATE INDEX I ON OTHER (NOTE);",
            "the statement before it creates",
        ),
        ("CREATE INDEX I ON ORDERS (NOTE, NOTE);", "indexed twice"),
        (
            "CREATE INDEX I ON ORDERS (NOTE) INCLUDE (NOTE);",
            "both indexed and included",
        ),
    ] {
        let e = parse_err(&format!("{ORDERS} {sql}"));
        assert!(e.message.contains(want), "{sql}: {e}");
        assert!(e.location.line.is_some(), "{sql}: {e} has no line");
    }
    let e = parse_err("CREATE INDEX I ON T (V);");
    assert!(e.message.contains("after its table's CREATE TABLE"), "{e}");
}

#[test]
fn index_row_keys_match_the_hand_derived_vectors() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/phoenix.index.rowkey.jsonl"
    ))
    .unwrap();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let args = &v["args"];
        let doc = parse(args["ddl"].as_str().unwrap());
        let i = args["index"].as_u64().unwrap() as usize;
        let split_keys = doc.presplit_keys(&[]).unwrap();
        let mut enc = IndexEncoder::new(&doc, i, &split_keys).unwrap();
        let record = args["record"].as_object().unwrap();
        let key = enc.encode_json(&doc.key_fields(), record).unwrap();
        let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex, v["expect"].as_str().unwrap(), "{line}");
        n += 1;
    }
    assert_eq!(n, 16);
}

#[test]
fn the_index_key_spec_reads_back_what_the_index_writes() {
    // A global index's key as pk(...) segments decodes the index rows: the types Phoenix
    // gives the index columns (CREATED_AT a DECIMAL of its milliseconds).
    let doc = parse(&format!("{ORDERS} CREATE INDEX I ON ORDERS (CREATED_AT);"));
    let spec = rowkey_lab::design::phoenix::index_key_spec(&doc, 0).unwrap();
    use rowkey_lab::hbase::phoenix::PhoenixType as P;
    use rowkey_lab::keyspec::Segment;
    let shape: Vec<String> = spec
        .segments
        .iter()
        .map(|s| match s {
            Segment::Salt(x) => format!("salt {}", x.buckets),
            Segment::Pk(k) => format!("{} {} {}", k.field, k.data_type.sql_name(), k.nullable),
            _ => "other".into(),
        })
        .collect();
    assert_eq!(
        shape,
        ["salt 8", "CREATED_AT DECIMAL true", "ID VARCHAR false"]
    );
    let _ = P::Decimal;
    // Decoding an index row the port wrote, through the index design's key.
    let idx = rowkey_lab::design::phoenix::index_design(&doc, 0).unwrap();
    let mut enc = IndexEncoder::new(&doc, 0, &[]).unwrap();
    let rec = serde_json::json!({"ID": "o1", "CREATED_AT": 1_700_000_000_000_i64});
    let key = enc
        .encode_json(&doc.key_fields(), rec.as_object().unwrap())
        .unwrap();
    let mut codec = rowkey_lab::keyspec::CompiledKey::new(&idx.key, &idx.key_fields()).unwrap();
    let again = codec.encode_json(rec.as_object().unwrap()).unwrap();
    assert_eq!(
        again, key,
        "the index design's key encodes the index row as the port does"
    );
}

/// A salted table of events with a time column, its index on that column, analyzed over
/// 8,000 writes, 100 a second from a fixed start.
fn events(index: &str) -> DesignDocument {
    let mut doc = parse(&format!(
        "CREATE TABLE EV (ID VARCHAR NOT NULL PRIMARY KEY, CREATED_AT TIMESTAMP) SALT_BUCKETS=8; {index}"
    ));
    let mut w = doc.workload.clone().unwrap_or_default();
    w.records = 8_000;
    w.write_rate = 100.0;
    w.start_time = 1_700_000_000_000;
    doc.workload = Some(w);
    doc
}

/// The mean and the largest share of a window's writes on its busiest region, over the
/// windows with writes.
fn busiest(r: &rowkey_lab::analyze::AnalysisReport) -> (f64, f64) {
    let shares: Vec<f64> = (r.metrics.per_window.iter())
        .filter(|w| w.total > 0)
        .map(|w| w.busiest_share)
        .collect();
    let mean = shares.iter().sum::<f64>() / shares.len() as f64;
    (mean, shares.iter().cloned().fold(0.0, f64::max))
}

#[test]
fn an_index_on_a_timestamp_takes_every_write_on_one_region_while_the_salted_table_spreads() {
    use rowkey_lab::analyze::{analyze, analyze_indexes, AnalyzeOptions};
    // The index's own regions: split every 10 s of the 80 s run, at the index key of that
    // time (a nullable TIMESTAMP is a DECIMAL of its milliseconds in the index).
    let points: Vec<String> = (1..8)
        .map(|k| {
            let ms = 1_700_000_000_000_i64 + k * 10_000;
            let d = rowkey_lab::hbase::phoenix::Decimal::from_i64(ms);
            let b = d.to_phoenix_bytes().unwrap();
            format!(
                "X'{}'",
                b.iter().map(|x| format!("{x:02x}")).collect::<String>()
            )
        })
        .collect();
    let doc = events(&format!(
        "CREATE INDEX BY_TIME ON EV (CREATED_AT) SALT_BUCKETS=0 SPLIT ON ({});",
        points.join(", ")
    ));
    let opts = AnalyzeOptions::default();
    let data = analyze(&doc, &opts).unwrap();
    let idx = analyze_indexes(&doc, &opts, &data).unwrap();
    let r = idx[0].report.as_ref().unwrap();
    assert_eq!((idx[0].regions_of_its_own, r.writes), (8, 8_000));
    // Each window's writes go to the one index region holding that time (a window across a
    // split point shares them with the next).
    let (mean, _) = busiest(r);
    assert!(mean > 0.95, "index: busiest region's mean share {mean}");
    // The data table spreads them over its 8 salt buckets: about 1/8 each.
    let (mean, max) = busiest(&data);
    assert!(
        mean < 0.25 && max < 0.4,
        "data: busiest share mean {mean}, max {max}"
    );

    // The same index salted (it takes the table's 8 buckets when it names none) spreads.
    let doc = events("CREATE INDEX BY_TIME ON EV (CREATED_AT);");
    let data = analyze(&doc, &opts).unwrap();
    let idx = analyze_indexes(&doc, &opts, &data).unwrap();
    let r = idx[0].report.as_ref().unwrap();
    assert_eq!(idx[0].regions_of_its_own, 8);
    let (mean, max) = busiest(r);
    assert!(
        mean < 0.25 && max < 0.4,
        "salted index: busiest share mean {mean}, max {max}"
    );
    // A covered global index: 2 index writes per put (the unverified pre-write, the verifying
    // post-write), 4 when an indexed value changes, 2 per delete.
    let w = idx[0].writes;
    assert_eq!(
        (w.put, w.update_indexed, w.delete, w.consistency_extra),
        (2, 4, 2, 1)
    );
    // Key: salt 1 + DECIMAL of the millis c7 + 6 digit bytes at most + 00 + the 8-character
    // ID; value: the empty column's byte.
    assert!(
        idx[0].bytes_per_row > 10.0 && idx[0].bytes_per_row < 20.0,
        "{}",
        idx[0].bytes_per_row
    );
}

#[test]
fn a_local_index_adds_no_region_and_an_uncovered_one_a_lookup_per_row() {
    use rowkey_lab::analyze::{analyze, analyze_indexes, AnalyzeOptions};
    let doc = events(
        "CREATE LOCAL INDEX L ON EV (CREATED_AT); CREATE UNCOVERED INDEX U ON EV (CREATED_AT); \
         CREATE INDEX C ON EV (CREATED_AT);",
    );
    let opts = AnalyzeOptions::default();
    let data = analyze(&doc, &opts).unwrap();
    let idx = analyze_indexes(&doc, &opts, &data).unwrap();
    let (l, u, c) = (&idx[0], &idx[1], &idx[2]);
    assert_eq!((l.regions_of_its_own, l.report.is_none()), (0, true));
    assert_eq!(
        (l.writes.put, l.writes.update_indexed, l.writes.delete),
        (1, 2, 1)
    );
    // An uncovered index's rows hold only its key: each row read through it is one lookup
    // in the data table; a covered one answers from its own rows.
    assert_eq!(
        (
            u.data_lookups_per_row,
            c.data_lookups_per_row,
            l.data_lookups_per_row
        ),
        (1, 0, 0)
    );
    assert_eq!(
        (u.writes.put, u.writes.update_indexed, u.writes.delete),
        (1, 3, 2)
    );
}

#[test]
fn the_analysis_carries_each_index_and_index_tables_give_their_statements() {
    use rowkey_lab::analyze::{analyze, index_tables, AnalyzeOptions};
    let mut doc = parse(&format!(
        "{ORDERS} CREATE INDEX BY_TIME ON ORDERS (CREATED_AT) SALT_BUCKETS=0; \
         CREATE INDEX BY_CUST ON ORDERS (CUSTOMER_ID) INCLUDE (TOTAL); \
         CREATE LOCAL INDEX L_NOTE ON ORDERS (NOTE);"
    ));
    if let Some(w) = doc.workload.as_mut() {
        w.records = 4_000;
    }
    let r = analyze(&doc, &AnalyzeOptions::default()).unwrap();
    let names: Vec<&str> = r.indexes.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(names, ["BY_TIME", "BY_CUST", "L_NOTE"]);
    // An unsalted index with no split points is one region: every write on it.
    let t = &r.indexes[0];
    assert_eq!((t.regions_of_its_own, t.busiest_share), (1, 1.0));
    assert!(!t.bytes_estimated && t.estimates.is_empty());
    // The covered index takes the table's 8 buckets; its INCLUDE bytes are an estimate.
    let c = &r.indexes[1];
    assert_eq!(c.regions_of_its_own, 8);
    assert!(c.busiest_share < 0.3, "{}", c.busiest_share);
    assert!(c.bytes_estimated && c.estimates[0].contains("INCLUDE"));
    // The local index: the data table's regions and spread, its bytes an estimate.
    let l = &r.indexes[2];
    assert_eq!(l.regions_of_its_own, 0);
    assert_eq!(l.busiest_share, r.metrics.mean_busiest_share);
    assert!(l.bytes_estimated && l.report.is_none());
    // An index's own report carries no indexes.
    assert!(t.report.as_ref().unwrap().indexes.is_empty());

    let tables = index_tables(&doc).unwrap();
    assert_eq!(
        tables.iter().map(|x| x.sql.as_str()).collect::<Vec<_>>(),
        [
            "CREATE INDEX BY_TIME ON ORDERS (CREATED_AT) SALT_BUCKETS=0;",
            "CREATE INDEX BY_CUST ON ORDERS (CUSTOMER_ID) INCLUDE (TOTAL);",
            "CREATE LOCAL INDEX L_NOTE ON ORDERS (NOTE);",
        ]
    );
    // Salt 8: the 7 bucket boundaries 01..07; unsalted: none; local: none of its own.
    let keys: Vec<usize> = tables.iter().map(|x| x.split_keys_hex.len()).collect();
    assert_eq!(keys, [0, 7, 0]);
    assert_eq!(tables[1].split_keys_hex[0], "01");
    // A design without indexes: none, at no cost.
    let plain = parse(ORDERS);
    assert!(index_tables(&plain).unwrap().is_empty());
}

/// Orders with a covered index on the customer, an uncovered one on the time and a local one
/// on the note, and a read for each, parsed from the document's JSON form.
fn orders_with_reads() -> DesignDocument {
    let doc = parse(&format!(
        "{ORDERS} CREATE INDEX BY_CUST ON ORDERS (CUSTOMER_ID) INCLUDE (CREATED_AT, TOTAL, NOTE); \
         CREATE UNCOVERED INDEX BY_TIME ON ORDERS (CREATED_AT); \
         CREATE LOCAL INDEX L_TOTAL ON ORDERS (TOTAL);"
    ));
    let mut v = serde_json::to_value(&doc).unwrap();
    v["workload"]["records"] = serde_json::json!(4_000);
    v["reads"] = serde_json::json!([
        {"type": "get", "name": "one order", "record": {"ID": "o1"}},
        {"type": "prefix", "name": "a customer's orders", "record": {"CUSTOMER_ID": "c1"}},
        {"type": "range", "name": "a minute of orders",
         "from": {"CREATED_AT": 1_630_972_800_000_i64}, "to": {"CREATED_AT": 1_630_972_860_000_i64}},
        {"type": "prefix", "name": "orders of one total", "record": {"TOTAL": 5}},
        {"type": "prefix", "name": "orders with a note", "record": {"NOTE": "n"}},
    ]);
    DesignDocument::from_json(&v.to_string()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn reads_go_through_the_index_phoenix_would_pick() {
    use rowkey_lab::analyze::{initial_split_keys, plan_reads_through_indexes, Access};
    let doc = orders_with_reads();
    let keys = initial_split_keys(&doc).unwrap();
    let plans = plan_reads_through_indexes(&doc, &keys).unwrap();
    let picked: Vec<(&str, Option<&str>, Access, u32)> = plans
        .iter()
        .map(|p| {
            (
                p.read.as_str(),
                p.chosen.index.as_deref(),
                p.chosen.access,
                p.chosen.data_lookups_per_row,
            )
        })
        .collect();
    assert_eq!(
        picked,
        [
            // The whole data key given: a point lookup on the data table, no index.
            ("one order", None, Access::PointLookup, 0),
            // CUSTOMER_ID leads BY_CUST, which includes every other column: no lookup.
            ("a customer's orders", Some("BY_CUST"), Access::RangeScan, 0),
            // CREATED_AT leads the uncovered BY_TIME: a range of it, then one data-table
            // lookup per row (it holds only its key).
            ("a minute of orders", Some("BY_TIME"), Access::RangeScan, 1),
            // TOTAL leads the local index, which holds the indexed column only: a lookup in
            // the row's own region.
            ("orders of one total", Some("L_TOTAL"), Access::RangeScan, 1),
            // No index leads with NOTE: the data table, scanned whole.
            ("orders with a note", None, Access::FullScan, 0),
        ]
    );
    for p in &plans {
        // Beside each: the read on the data table alone, which is a point lookup or a full
        // scan (the data key is ID alone).
        assert_eq!(p.without_index.index, None);
        assert_eq!(p.candidates[0], p.without_index);
        let a = p.without_index.access;
        assert!(a == Access::PointLookup || a == Access::FullScan, "{a:?}");
    }
    // The salted data table, read whole for a customer: all 8 buckets; the covered index,
    // salted like its table, reads its 8 buckets for one customer's prefix.
    assert_eq!(plans[1].without_index.plan.regions_touched, 8);
    // A local index is read in every data region.
    assert_eq!(plans[3].chosen.plan.regions_touched, 8);
    // A design without indexes: nothing to plan through.
    assert!(plan_reads_through_indexes(&parse(ORDERS), &keys)
        .unwrap()
        .is_empty());
}
