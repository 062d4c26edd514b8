//! The declaration of a key-only design's fields from a file, by hand-made samples.

use super::*;
use crate::design::DesignDocument;
use std::sync::Arc;

fn key_only(key: &str) -> DesignDocument {
    let text = serde_json::json!({"v": 1, "key": key}).to_string();
    DesignDocument::from_json_unchecked(&text).unwrap()
}

fn types(inferred: &[InferredField]) -> Vec<(&str, FieldType)> {
    inferred
        .iter()
        .map(|f| (f.field.as_str(), f.field_type))
        .collect()
}

#[test]
fn undeclared_fields_are_those_the_key_reads_and_the_design_does_not_declare() {
    let doc = key_only(r#"tailnum + "_" + time(time_hour, "yyyyMMddHH") + tailnum"#);
    assert_eq!(doc.undeclared_key_fields(), ["tailnum", "time_hour"]);
    let text = serde_json::json!({"v": 1, "key": "tail + long(n)", "fields": [{"name": "n", "type": "int"}]}).to_string();
    let doc = DesignDocument::from_json_unchecked(&text).unwrap();
    assert_eq!(doc.undeclared_key_fields(), ["tail"]);
    let text =
        serde_json::json!({"v": 1, "key": "long(n)", "fields": [{"name": "n", "type": "int"}]})
            .to_string();
    let doc = DesignDocument::from_json_unchecked(&text).unwrap();
    assert!(doc.undeclared_key_fields().is_empty());
}

#[test]
fn csv_columns_are_text_unless_the_key_reads_them_as_time_or_numbers() {
    let doc =
        key_only(r#"carrier + "_" + flight + "_" + time(time_hour, "yyyyMMddHH") + dec(dep, 4)"#);
    let head = b"carrier,flight,time_hour,dep\nUA,1545,2013-01-01 10:00:00+00:00,517\n";
    let opts = RowsOptions {
        name: Some("flights.csv".into()),
        ..RowsOptions::default()
    };
    let (doc, inferred) = declare_from_file(
        doc,
        &opts,
        FileSample::Head {
            bytes: head,
            whole: true,
        },
    )
    .unwrap();
    assert_eq!(
        types(&inferred),
        [
            ("carrier", FieldType::String),
            ("flight", FieldType::String),
            ("time_hour", FieldType::Timestamp),
            ("dep", FieldType::Long)
        ]
    );
    doc.validate().unwrap();
}

#[test]
fn a_declared_field_keeps_its_type_and_a_mapped_column_is_read() {
    let text = serde_json::json!({"v": 1, "key": "tail + long(n)", "fields": [{"name": "n", "type": "int"}]}).to_string();
    let doc = DesignDocument::from_json_unchecked(&text).unwrap();
    let opts = RowsOptions {
        name: Some("r.csv".into()),
        map: [("tail".to_string(), "tailnum".to_string())].into(),
        ..RowsOptions::default()
    };
    let (doc, inferred) = declare_from_file(
        doc,
        &opts,
        FileSample::Head {
            bytes: b"tailnum,n\nN1,2\n",
            whole: true,
        },
    )
    .unwrap();
    assert_eq!(types(&inferred), [("tail", FieldType::String)]);
    assert_eq!(inferred[0].column, "tailnum");
    assert_eq!(
        doc.fields
            .iter()
            .find(|f| f.name == "n")
            .unwrap()
            .field_type,
        FieldType::Int
    );
}

#[test]
fn json_values_and_arrow_columns_give_their_own_types() {
    let doc = key_only("a + b + c + revts(t)");
    let head =
        b"{\"a\": null, \"b\": 2.5, \"c\": true, \"t\": 17}\n{\"a\": 7, \"b\": 1}\n{\"a\": \"cut";
    let opts = RowsOptions {
        name: Some("r.jsonl".into()),
        ..RowsOptions::default()
    };
    let (_, inferred) = declare_from_file(
        doc.clone(),
        &opts,
        FileSample::Head {
            bytes: head,
            whole: false,
        },
    )
    .unwrap();
    assert_eq!(
        types(&inferred),
        [
            ("a", FieldType::Long),
            ("b", FieldType::Double),
            ("c", FieldType::Boolean),
            ("t", FieldType::Timestamp)
        ]
    );
    let schema = Schema::new(vec![
        arrow_schema::Field::new("a", DataType::Utf8, true),
        arrow_schema::Field::new("b", DataType::Int32, true),
        arrow_schema::Field::new(
            "c",
            DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)),
            true,
        ),
        arrow_schema::Field::new(
            "t",
            DataType::Timestamp(arrow_schema::TimeUnit::Microsecond, Some(Arc::from("UTC"))),
            true,
        ),
    ]);
    let (doc, inferred) = declare_from_file(doc, &opts, FileSample::Schema(&schema)).unwrap();
    assert_eq!(
        types(&inferred),
        [
            ("a", FieldType::String),
            ("b", FieldType::Int),
            ("c", FieldType::String),
            ("t", FieldType::Timestamp)
        ]
    );
    doc.validate().unwrap();
}

#[test]
fn a_missing_column_or_a_nested_one_is_named() {
    let opts = RowsOptions {
        name: Some("r.csv".into()),
        ..RowsOptions::default()
    };
    let e = declare_from_file(
        key_only("tail"),
        &opts,
        FileSample::Head {
            bytes: b"tailnum,n\n",
            whole: true,
        },
    )
    .unwrap_err();
    assert!(
        e.message.contains("no column `tail` (columns: tailnum, n)"),
        "{}",
        e.message
    );
    assert!(e.message.contains("--map tail=COLUMN"), "{}", e.message);
    let schema = Schema::new(vec![arrow_schema::Field::new(
        "tail",
        DataType::List(Arc::new(arrow_schema::Field::new(
            "x",
            DataType::Utf8,
            true,
        ))),
        true,
    )]);
    let e = declare_from_file(key_only("tail"), &opts, FileSample::Schema(&schema)).unwrap_err();
    assert!(
        e.message.contains("column `tail` is of type List"),
        "{}",
        e.message
    );
}

#[test]
fn a_design_that_declares_its_fields_is_returned_as_it_is() {
    let text = serde_json::json!({"v": 1, "key": "a", "fields": [{"name": "a", "type": "long"}]})
        .to_string();
    let doc = DesignDocument::from_json(&text).unwrap();
    let (out, inferred) = declare_from_file(
        doc.clone(),
        &RowsOptions::default(),
        FileSample::Head {
            bytes: b"",
            whole: true,
        },
    )
    .unwrap();
    assert!(inferred.is_empty());
    assert_eq!(out, doc);
}
