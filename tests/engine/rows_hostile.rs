//! Files of rows a user (or an attacker) shaped to be read wrongly (issue 56, item 11): one
//! column past `limits::MAX_COLUMNS`, and a column the design reads named twice (a CSV header,
//! a JSON Lines object), each refused with an error that names what is wrong.
#![cfg(feature = "rows")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use rowkey_lab::analyze::{analyze_rows, AnalyzeOptions};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::limits::MAX_COLUMNS;
use rowkey_lab::rows::RowsOptions;
use serde_json::json;

fn design() -> DesignDocument {
    DesignDocument::from_json(
        &json!({
            "v": 1,
            "fields": [
                {"name": "carrier", "type": "string"},
                {"name": "flight", "type": "int"}
            ],
            "key": "carrier + \"_\" + str(flight)"
        })
        .to_string(),
    )
    .unwrap()
}

fn read(name: &str, bytes: &[u8]) -> Result<u64, String> {
    let opts = RowsOptions {
        name: Some(name.into()),
        ..RowsOptions::default()
    };
    analyze_rows(&design(), &AnalyzeOptions::default(), &opts, bytes)
        .map(|(report, _)| report.writes)
        .map_err(|e| e.to_string())
}

/// A CSV file whose header and one row have `n` columns: the design's two, then `c2`, `c3`, …
fn wide(n: usize) -> Vec<u8> {
    let names: Vec<String> = (0..n)
        .map(|i| match i {
            0 => "carrier".into(),
            1 => "flight".into(),
            _ => format!("c{i}"),
        })
        .collect();
    let mut row = vec!["UA".to_string(), "1".to_string()];
    row.resize(n, String::new());
    format!("{}\n{}\n", names.join(","), row.join(",")).into_bytes()
}

#[test]
fn a_csv_file_of_max_columns_is_read_and_one_more_refused() {
    assert_eq!(read("wide.csv", &wide(MAX_COLUMNS)), Ok(1));
    let e = read("wide.csv", &wide(MAX_COLUMNS + 1)).unwrap_err();
    assert!(
        e.contains("wide.csv") && e.contains("more than 100000 columns"),
        "{e}"
    );
}

#[test]
fn a_csv_header_naming_a_read_column_twice_is_refused_by_name() {
    let e = read("d.csv", b"carrier,flight,carrier\nUA,1,AA\n").unwrap_err();
    assert!(
        e.contains("d.csv") && e.contains("`carrier`") && e.contains("columns 1 and 3"),
        "{e}"
    );
    // A column the design does not read may repeat.
    assert_eq!(
        read("d.csv", b"carrier,flight,note,note\nUA,1,a,b\n"),
        Ok(1)
    );
}

#[test]
fn a_json_object_giving_a_read_member_twice_is_refused_by_name_and_line() {
    let e = read(
        "d.jsonl",
        b"{\"carrier\":\"UA\",\"flight\":1}\n{\"carrier\":\"UA\",\"flight\":2,\"carrier\":\"AA\"}\n",
    )
    .unwrap_err();
    assert!(
        e.contains("d.jsonl") && e.contains("line 2") && e.contains("`carrier` is given twice"),
        "{e}"
    );
    // Twice, even when the first is null.
    let e = read(
        "d.jsonl",
        b"{\"carrier\":null,\"flight\":1,\"carrier\":\"AA\"}\n",
    )
    .unwrap_err();
    assert!(e.contains("`carrier` is given twice"), "{e}");
    // A member the design does not read may repeat.
    assert_eq!(
        read(
            "d.jsonl",
            b"{\"carrier\":\"UA\",\"flight\":1,\"note\":1,\"note\":2}\n"
        ),
        Ok(1)
    );
}
