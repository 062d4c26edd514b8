//! The months of a Phoenix index's own table (issue 69 item 3): `{"index": NAME}` simulates
//! the global index as the table it is, by the same rules as the data table. Expected by hand:
//! an index led by a time column is a time-led table (every write of an hour goes to the
//! region holding the newest time: one server takes them all), however well the data table is
//! salted (8 buckets over 4 servers: the hottest server takes about 2 of 8 shares).

use rowkey_lab::design::phoenix::parse_create_table;
use rowkey_lab::life::{months_of_design, simulate_design, LifeOptions, LifeReport};
use serde_json::json;

const EVENTS: &str = "CREATE TABLE EV (ID VARCHAR NOT NULL PRIMARY KEY, CREATED_AT TIMESTAMP, \
    N VARCHAR) SALT_BUCKETS=8; CREATE INDEX BY_TIME ON EV (CREATED_AT) SALT_BUCKETS=0; \
    CREATE LOCAL INDEX BY_N ON EV (N);";

#[test]
fn a_time_index_of_a_salted_table_is_a_time_led_table_of_its_own() {
    let doc = parse_create_table(EVENTS).unwrap();
    let data = simulate_design(&doc, &super::opts(json!({"months": 2, "servers": 4}))).unwrap();
    let index = simulate_design(
        &doc,
        &super::opts(json!({"months": 2, "servers": 4, "index": "BY_TIME"})),
    )
    .unwrap();
    every_month(&data, "data table month", |s| s < 0.5);
    every_month(&index, "index month", |s| s > 0.99);
    // An index row is its key and one value byte (no INCLUDE): far fewer bytes than a data row.
    let (d, i) = (&data.months[1], &index.months[1]);
    assert!(
        i.written_bytes < d.written_bytes,
        "{} vs {}",
        i.written_bytes,
        d.written_bytes
    );
    // The report says which table it simulated; the data table's says nothing of the kind.
    assert!(
        index
            .notes
            .iter()
            .any(|n| n.starts_with("the table: the Phoenix index BY_TIME")),
        "{:?}",
        index.notes
    );
    assert!(!data.notes.iter().any(|n| n.starts_with("the table:")));
    assert_eq!(
        (data.table.as_deref(), index.table.as_deref()),
        (None, Some("BY_TIME"))
    );
    // The month view (the page's and the CLI's) takes the same option.
    let v = months_of_design(
        &doc,
        &super::opts(json!({"months": 1, "servers": 4, "index": "BY_TIME"})),
        &mut |_, _| Ok(()),
    )
    .unwrap();
    assert_eq!(
        v.report.months[0].hottest_server_write_share,
        index.months[0].hottest_server_write_share
    );
}

#[test]
fn an_index_that_is_not_a_table_of_its_own_is_refused_at_index() {
    let doc = parse_create_table(EVENTS).unwrap();
    for (index, says) in [
        (
            json!("NOPE"),
            "the design has no index \"NOPE\": its indexes are BY_TIME, BY_N",
        ),
        (json!("BY_N"), "BY_N is a local index"),
        (
            json!(3),
            "expected the name of one of the design's Phoenix indexes",
        ),
    ] {
        let e = LifeOptions::from_json(&json!({"months": 1, "index": index}).to_string())
            .and_then(|o| simulate_design(&doc, &o))
            .unwrap_err();
        assert_eq!(e.location.path.as_deref(), Some("/index"), "{e}");
        assert!(e.message.contains(says), "{index}: {e}");
    }
    let plain = rowkey_lab::design::presets::get("seed000-telecom").unwrap();
    let e = simulate_design(&plain, &super::opts(json!({"months": 1, "index": "X"}))).unwrap_err();
    assert!(e.message.contains("declares no Phoenix indexes"), "{e}");
}

/// An index led by an expression: its months run on the expression's values, evaluated over
/// the column it reads, as Phoenix keys the index. N is a VARCHAR the workload writes as 8
/// characters, so LENGTH(N) is 8 for every row: the index is led by one value, then the time,
/// a time-led table like BY_TIME (one server takes every write). Keyed by the expression's
/// placeholder field instead (a random INTEGER), it would spread over the servers.
#[test]
fn an_expression_index_is_simulated_on_the_expression_s_values() {
    let sql = "CREATE TABLE EV (ID VARCHAR NOT NULL PRIMARY KEY, CREATED_AT TIMESTAMP, \
        N VARCHAR) SALT_BUCKETS=8; \
        CREATE INDEX BY_LEN ON EV (LENGTH(N), CREATED_AT) SALT_BUCKETS=0;";
    let doc = parse_create_table(sql).unwrap();
    let index = simulate_design(
        &doc,
        &super::opts(json!({"months": 2, "servers": 4, "index": "BY_LEN"})),
    )
    .unwrap();
    every_month(&index, "index month", |s| s > 0.99);
    assert_eq!(index.table.as_deref(), Some("BY_LEN"));
    // Salted, the same index spreads as the data table does (8 buckets over 4 servers).
    let salted = parse_create_table(&sql.replace("SALT_BUCKETS=0;", "SALT_BUCKETS=8;")).unwrap();
    let spread = simulate_design(
        &salted,
        &super::opts(json!({"months": 2, "servers": 4, "index": "BY_LEN"})),
    )
    .unwrap();
    every_month(&spread, "salted index month", |s| s < 0.5);
}

/// Each month of `report` has its hottest server's write share `ok`, or the test fails naming
/// the month (`what`: which table).
fn every_month(report: &LifeReport, what: &str, ok: impl Fn(f64) -> bool) {
    for m in &report.months {
        assert!(
            ok(m.hottest_server_write_share),
            "{what} {}: hottest server {}",
            m.month,
            m.hottest_server_write_share
        );
    }
}
