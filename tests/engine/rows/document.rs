//! The `cells` section of the design document: read with located errors, written back, and
//! absent meaning every write its own cell.

use rowkey_lab::design::{CellSpec, DesignDocument, Qualifier};

use crate::cases::Failures;

fn with_cells(cells: &str) -> String {
    format!(
        r#"{{"v": 1, "fields": [{{"name": "host", "type": "string"}}, {{"name": "ts", "type": "timestamp"}}],
           "key": "host + time(ts, \"yyyyMMddHH\")", "cells": {cells}}}"#
    )
}

#[test]
fn the_cells_section_reads_with_its_defaults() {
    let d = DesignDocument::from_json(&with_cells("{}")).unwrap();
    assert_eq!(d.cells, Some(CellSpec::default()));
    assert_eq!(d.cells.as_ref().unwrap().versions, 1);
    let d = DesignDocument::from_json(&with_cells(
        r#"{"qualifier": {"kind": "timeOffset", "field": "ts"}, "versions": 3}"#,
    ))
    .unwrap();
    let c = d.cells.clone().unwrap();
    assert_eq!(
        c.qualifier,
        Qualifier::TimeOffset {
            field: "ts".into(),
            range_ms: 3_600_000,
            resolution_ms: 1000
        }
    );
    assert_eq!(c.versions, 3);
    // Written back in the document's JSON, and read again the same.
    let again = DesignDocument::from_json(&d.to_json()).unwrap();
    assert_eq!(again, d);
    let json: serde_json::Value = serde_json::from_str(&d.to_json()).unwrap();
    assert_eq!(
        json["cells"],
        serde_json::json!({"qualifier": {"kind": "timeOffset", "field": "ts", "rangeMs": 3600000, "resolutionMs": 1000}, "versions": 3})
    );
    let none = DesignDocument::from_json(
        r#"{"v": 1, "fields": [{"name": "host", "type": "string"}], "key": "host"}"#,
    )
    .unwrap();
    assert_eq!(none.cells, None);
    assert!(!none.to_json().contains("cells"));
}

#[test]
fn a_wrong_cells_section_is_an_error_at_its_member() {
    let cases = [
        (r#"{"versions": 0}"#, "/cells/versions", "at least 1"),
        (r#"{"version": 2}"#, "/cells/version", "unknown field"),
        (
            r#"{"qualifier": {"kind": "column"}}"#,
            "/cells/qualifier/kind",
            "unknown variant `column`",
        ),
        (
            r#"{"qualifier": {"kind": "field", "field": "hots"}}"#,
            "/cells/qualifier/field",
            "does not declare",
        ),
        (
            r#"{"qualifier": {"kind": "timeOffset", "field": "host"}}"#,
            "/cells/qualifier/field",
            "timestamp or integer",
        ),
        (
            r#"{"qualifier": {"kind": "timeOffset", "field": "ts", "rangeMs": 0}}"#,
            "/cells/qualifier/rangeMs",
            "at least 1",
        ),
        (
            r#"{"qualifier": {"kind": "field"}}"#,
            "/cells/qualifier",
            "missing field `field`",
        ),
    ];
    let mut failures = Failures::new("cells errors");
    for (cells, path, text) in cases {
        match DesignDocument::from_json(&with_cells(cells)) {
            Ok(_) => {
                failures.check(cells, false, "read without an error");
            }
            Err(e) => {
                failures.eq(
                    format!("{cells}: path"),
                    &e.location.path.as_deref(),
                    &Some(path),
                );
                failures.check(
                    format!("{cells}: message"),
                    e.message.contains(text),
                    &e.message,
                );
            }
        }
    }
    failures.finish();
}
