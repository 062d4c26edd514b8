//! Functional Phoenix indexes (issue 69): an indexed expression (`UPPER(NAME)`,
//! `SUBSTR(NAME, -3)`, `LENGTH(NAME)`, ...) read from `CREATE INDEX` and from a document,
//! printed back, and its index row key byte for byte against hand-derived vectors
//! (`tests/fixtures/phoenix.index.expression.rowkey.jsonl`: each `expect` worked out by hand
//! from `SubstrFunction`, `UpperFunction`, ..., `IndexMaintainer.buildRowKey` and
//! `IndexUtil.getIndexColumnDataType`, its `derivation` saying how; none is the program's
//! output); what is not read refused at the expression, naming it and what is read; an
//! expression index analyzed over the generated workload and over a file's rows.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use rowkey_lab::design::phoenix::{
    index_key_spec, parse_create_table, print_create_index, print_create_table, IndexEncoder,
};
use rowkey_lab::design::DesignDocument;

const T: &str = "CREATE TABLE T (K VARCHAR NOT NULL PRIMARY KEY, NAME VARCHAR, CITY VARCHAR(20), \
    N INTEGER, C CHAR(3));";

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
fn expression_index_row_keys_match_the_hand_derived_vectors() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/phoenix.index.expression.rowkey.jsonl"
    ))
    .unwrap();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let args = &v["args"];
        let doc = parse(args["ddl"].as_str().unwrap());
        let i = args["index"].as_u64().unwrap() as usize;
        let mut enc = IndexEncoder::new(&doc, i, &[]).unwrap();
        let record = args["record"].as_object().unwrap();
        let key = enc.encode_json(&doc.key_fields(), record).unwrap();
        let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex, v["expect"].as_str().unwrap(), "{line}");
        n += 1;
    }
    assert_eq!(n, 17);
}

#[test]
fn an_expression_is_read_into_the_design_and_printed_back() {
    let doc = parse(&format!(
        "{T} create index by_name on t (upper(name)) include (city); \
         CREATE INDEX BY_TAIL ON T (SUBSTR(\"CITY\", -3, 2) DESC, lower(trim(name)), K);"
    ));
    let p = doc.phoenix.as_ref().unwrap();
    let c = &p.indexes[0].columns[0];
    assert_eq!(
        (c.name.as_str(), c.expression.as_deref()),
        ("NAME", Some("UPPER(NAME)"))
    );
    let c = &p.indexes[1].columns[0];
    assert_eq!(
        (c.name.as_str(), c.expression.as_deref(), c.desc),
        ("CITY", Some("SUBSTR(CITY, -3, 2)"), true)
    );
    assert_eq!(
        p.indexes[1].columns[1].expression.as_deref(),
        Some("LOWER(TRIM(NAME))")
    );
    assert_eq!(
        print_create_index(&doc, 0).unwrap(),
        "CREATE INDEX BY_NAME ON T (UPPER(NAME)) INCLUDE (CITY);"
    );
    assert_eq!(
        print_create_index(&doc, 1).unwrap(),
        "CREATE INDEX BY_TAIL ON T (SUBSTR(CITY, -3, 2) DESC, LOWER(TRIM(NAME)), K);"
    );
    // the statement read again is the same design
    let again = parse(&print_create_table(&doc).unwrap());
    assert_eq!(again.phoenix, doc.phoenix);
    // the document form reads and validates as the statement's does
    let json = serde_json::to_string(&doc).unwrap();
    assert_eq!(
        DesignDocument::from_json(&json).unwrap().phoenix,
        doc.phoenix
    );
}

#[test]
fn the_index_key_names_its_expression_column_and_types_it_as_phoenix_does() {
    let doc = parse(&format!(
        "{T} CREATE INDEX I ON T (UPPER(NAME), LENGTH(NAME), LENGTH(K));"
    ));
    let spec = index_key_spec(&doc, 0).unwrap();
    use rowkey_lab::keyspec::Segment;
    let shape: Vec<String> = spec
        .segments
        .iter()
        .map(|s| match s {
            Segment::Pk(k) => format!("{} {} {}", k.field, k.data_type.sql_name(), k.nullable),
            _ => "other".into(),
        })
        .collect();
    // UPPER keeps VARCHAR; LENGTH of a nullable column is a nullable INTEGER, so DECIMAL in
    // the index; LENGTH of the NOT NULL key column stays INTEGER; then the data key's K.
    assert_eq!(
        shape,
        [
            "UPPER(NAME) VARCHAR true",
            "LENGTH(NAME) DECIMAL true",
            "LENGTH(K) INTEGER false",
            "K VARCHAR false"
        ]
    );
    // The index as a design: its key compiles, and decodes the row the port writes.
    let idx = rowkey_lab::design::phoenix::index_design(&doc, 0).unwrap();
    let mut enc = IndexEncoder::new(&doc, 0, &[]).unwrap();
    let rec = serde_json::json!({"K": "r1", "NAME": "ab"});
    let key = enc
        .encode_json(&doc.key_fields(), rec.as_object().unwrap())
        .unwrap();
    let codec = rowkey_lab::keyspec::CompiledKey::new(&idx.key, &idx.key_fields()).unwrap();
    let decoded = codec.decode(&key).unwrap();
    let shown = serde_json::to_value(&decoded).unwrap().to_string();
    assert!(
        shown.contains("\"AB\"") && shown.contains("\"r1\""),
        "{shown}"
    );
}

/// The error of `sql`: its line, column and message.
fn located(sql: &str) -> (usize, usize, String) {
    let e = parse_err(sql);
    (
        e.location.line.unwrap_or(0),
        e.location.column.unwrap_or(0),
        e.message,
    )
}

#[test]
fn what_is_not_read_is_refused_at_the_expression_naming_what_is() {
    let start = T.len() + 1 + "CREATE INDEX I ON T (".len() + 1;
    for (index, at, says) in [
        ("CONCAT(NAME, K)", 0, "the function CONCAT is not read"),
        ("ROUND(N)", 0, "the function ROUND is not read"),
        ("UPPER(NAME, 'tr')", 10, "UPPER takes one argument here"),
        ("SUBSTR(NAME, 1, 0)", 16, "SUBSTR's length is 0"),
        (
            "SUBSTR(NAME, 'a')",
            13,
            "SUBSTR's offset, an integer literal",
        ),
        ("UPPER(K || NAME)", 8, "`)` to end UPPER's arguments"),
        (
            "UPPER(NAME) || K",
            12,
            "this indexed expression is not read here",
        ),
        (
            "UPPER(SUBSTR(NAME, 1), CITY)",
            21,
            "UPPER takes one argument",
        ),
    ] {
        let sql = format!("{T} CREATE INDEX I ON T ({index});");
        let (line, col, msg) = located(&sql);
        assert_eq!((line, col), (1, start + at), "{index}: {msg}");
        assert!(msg.contains(says), "{index}: {msg}");
    }
    // Each refusal of the expression lists what is read.
    let (_, _, msg) = located(&format!("{T} CREATE INDEX I ON T (ROUND(N));"));
    assert!(
        msg.contains("UPPER(s), LOWER(s), SUBSTR(s, offset[, length])"),
        "{msg}"
    );
    // Read, but refused where the index's columns are typed: at the expression's token.
    for (index, says) in [
        ("UPPER(N)", "reads N, a INTEGER"),
        ("UPPER(C)", "reads C, a CHAR"),
        (
            "UPPER(LENGTH(NAME))",
            "UPPER takes a VARCHAR, not the INTEGER that LENGTH gives",
        ),
        ("UPPER(NOPE)", "column \"NOPE\" does not exist"),
        ("UPPER(NAME), UPPER(NAME)", "UPPER(NAME) is indexed twice"),
    ] {
        let sql = format!("{T} CREATE INDEX I ON T ({index});");
        let (line, col, msg) = located(&sql);
        assert_eq!(line, 1, "{index}: {msg}");
        assert!(col >= start, "{index}: {col}: {msg}");
        assert!(msg.contains(says), "{index}: {msg}");
    }
}

#[test]
fn a_document_s_bad_expression_is_located_at_its_member() {
    let doc = parse(&format!("{T} CREATE INDEX I ON T (UPPER(NAME));"));
    let with = |column: serde_json::Value| -> rowkey_lab::Error {
        let mut v = serde_json::to_value(&doc).unwrap();
        v["phoenix"]["indexes"][0]["columns"][0] = column;
        let d = DesignDocument::from_json(&v.to_string());
        // names are checked as the document is read; the expression where the index is used
        match d {
            Err(e) => e,
            Ok(d) => print_create_index(&d, 0).unwrap_err(),
        }
    };
    let path = |e: &rowkey_lab::Error| e.location.path.clone().unwrap_or_default();
    let e = with(serde_json::json!({"name": "NAME", "expression": "REVERSE(NAME)"}));
    assert_eq!(path(&e), "/phoenix/indexes/0/columns/0/expression");
    assert!(
        e.message.contains("REVERSE") && e.message.contains("LOWER(s)"),
        "{e}"
    );
    let e = with(serde_json::json!({"name": "K", "expression": "UPPER(NAME)"}));
    assert_eq!(path(&e), "/phoenix/indexes/0/columns/0/expression");
    assert!(
        e.message
            .contains("reads NAME, but the indexed column is K"),
        "{e}"
    );
    let e = with(serde_json::json!({"name": "NAME", "expression": "UPPER(NAME) x"}));
    assert_eq!(path(&e), "/phoenix/indexes/0/columns/0/expression");
    assert!(e.message.contains("more after the expression"), "{e}");
    // INCLUDE takes columns
    let mut v = serde_json::to_value(&doc).unwrap();
    v["phoenix"]["indexes"][0]["include"] =
        serde_json::json!([{"name": "CITY", "expression": "UPPER(CITY)"}]);
    let e = DesignDocument::from_json(&v.to_string()).unwrap_err();
    assert_eq!(path(&e), "/phoenix/indexes/0/include/0/expression");
}

#[test]
fn an_expression_does_not_serve_a_read_of_its_column_nor_cover_it() {
    use rowkey_lab::analyze::{plan_reads_through_indexes, Access};
    let doc = parse(&format!(
        "{T} CREATE INDEX BY_UPPER ON T (UPPER(NAME)) INCLUDE (CITY, N, C); \
         CREATE INDEX BY_CITY ON T (CITY, UPPER(NAME)) INCLUDE (N, C);"
    ));
    let mut v = serde_json::to_value(&doc).unwrap();
    v["reads"] = serde_json::json!([
        {"type": "prefix", "name": "by name", "record": {"NAME": "ab"}},
        {"type": "prefix", "name": "by city", "record": {"CITY": "x"}},
    ]);
    let doc = DesignDocument::from_json(&v.to_string()).unwrap();
    let plans = plan_reads_through_indexes(&doc, &[]).unwrap();
    let picked: Vec<(Option<&str>, Access, u32)> = plans
        .iter()
        .map(|p| {
            (
                p.chosen.index.as_deref(),
                p.chosen.access,
                p.chosen.data_lookups_per_row,
            )
        })
        .collect();
    assert_eq!(
        picked,
        [
            // NAME's value is not UPPER(NAME)'s: no index leads with NAME, the data table is
            // scanned whole
            (None, Access::FullScan, 0),
            // CITY leads BY_CITY, which holds UPPER(NAME), not NAME: a lookup per row
            (Some("BY_CITY"), Access::RangeScan, 1),
        ]
    );
}

#[test]
fn an_expression_index_is_analyzed_over_the_workload_and_its_months_simulated() {
    use rowkey_lab::analyze::{analyze, AnalyzeOptions};
    let doc = parse(&format!(
        "{T} CREATE INDEX BY_LEN ON T (LENGTH(NAME)) SALT_BUCKETS=0;"
    ));
    let r = analyze(
        &doc,
        &AnalyzeOptions {
            windows: 4,
            ..AnalyzeOptions::default()
        },
    )
    .unwrap();
    let x = &r.indexes[0];
    let t = x.report.as_ref().unwrap();
    // unsalted, no SPLIT ON: one region of its own, every index write on it
    assert_eq!((x.regions_of_its_own, t.writes), (1, r.writes));
    assert_eq!(x.busiest_share, 1.0);
    let opts =
        rowkey_lab::life::LifeOptions::from_json(r#"{"months": 1, "index": "BY_LEN"}"#).unwrap();
    // its months are the index's table's (tests/engine/life/indexes.rs checks they run on
    // the expression's values)
    let months = rowkey_lab::life::simulate_design(&doc, &opts).unwrap();
    assert_eq!(months.table.as_deref(), Some("BY_LEN"));
    assert!(
        months
            .notes
            .iter()
            .any(|n| n.starts_with("the table: the Phoenix index BY_LEN")),
        "{:?}",
        months.notes
    );
}

/// The busiest region's share of each of ten windows of 50 orders, order `j` in `region(j)`.
#[cfg(feature = "rows")]
fn window_shares(region: impl Fn(usize) -> usize) -> Vec<f64> {
    (0..10)
        .map(|w| {
            let mut per = std::collections::BTreeMap::new();
            for j in 50 * w..50 * (w + 1) {
                *per.entry(region(j)).or_insert(0u32) += 1;
            }
            f64::from(*per.values().max().unwrap()) / 50.0
        })
        .collect()
}

#[cfg(feature = "rows")]
#[test]
fn an_expression_index_over_a_file_s_rows_is_keyed_by_the_expression() {
    use rowkey_lab::analyze::{AnalyzeOptions, RowsSession};
    use rowkey_lab::rows::RowsOptions;
    // tests/fixtures/phoenix-orders: order j is o{j:04}, customer c{j*7%50:02}, 200 ms apart,
    // in ten 10-second windows of 50; the table salted 8 ways, the index takes its buckets.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/phoenix-orders");
    let sql = std::fs::read_to_string(format!("{dir}/orders.sql")).unwrap();
    let sql = format!(
        "{}CREATE INDEX BY_UPPER ON ORDERS (UPPER(CUSTOMER_ID));",
        &sql[..sql.find("-- X'c7").unwrap()]
    );
    let doc = parse(&sql);
    let rows = RowsOptions {
        name: Some("orders.csv".into()),
        time: Some("CREATED_AT".into()),
        ..RowsOptions::default()
    };
    let opts = AnalyzeOptions {
        windows: 10,
        ..AnalyzeOptions::default()
    };
    let csv = std::fs::read(format!("{dir}/orders.csv")).unwrap();
    let mut s = RowsSession::new(doc, opts, rows).unwrap();
    s.push(&csv).unwrap();
    if !s.end_scan().unwrap().analyzed {
        s.push(&csv).unwrap();
    }
    s.end().unwrap();
    let r = s.report().unwrap();
    let x = &r.indexes[0];
    let t = x.report.as_ref().unwrap();
    assert_eq!(
        (x.name.as_str(), x.regions_of_its_own, t.writes),
        ("BY_UPPER", 8, 500)
    );
    // Phoenix's salt byte over the index key after it: UPPER(CUSTOMER_ID) 'C07', 00, ORDER_ID.
    let bucket = |j: usize| {
        let key = format!("C{:02}\u{0}o{j:04}", j * 7 % 50);
        let mut h: i32 = 1;
        for &b in key.as_bytes() {
            h = h.wrapping_mul(31).wrapping_add(i32::from(b as i8));
        }
        (h % 8).unsigned_abs() as usize
    };
    let want = window_shares(bucket);
    let got: Vec<f64> = t
        .metrics
        .per_window
        .iter()
        .map(|w| w.busiest_share)
        .collect();
    assert_eq!(got.len(), 10);
    for (g, w) in got.iter().zip(&want) {
        assert!((g - w).abs() < 1e-12, "{got:?}, hand-derived {want:?}");
    }
    // and the lower-case customer ids would hash otherwise: the expression is what is keyed
    let lower = window_shares(|j| {
        let key = format!("c{:02}\u{0}o{j:04}", j * 7 % 50);
        let mut h: i32 = 1;
        for &b in key.as_bytes() {
            h = h.wrapping_mul(31).wrapping_add(i32::from(b as i8));
        }
        (h % 8).unsigned_abs() as usize
    });
    assert_ne!(want, lower);
}
