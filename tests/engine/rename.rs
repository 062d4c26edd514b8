//! Renaming a field carries through the document: for every preset and each of its fields,
//! the renamed design has the same key with the new name, encodes every example as before,
//! plans the same scans and analyses; nothing names the old field afterwards.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use rowkey_lab::analyze::{analyze, AnalyzeOptions};
use rowkey_lab::design::{presets, DesignDocument};

const NEW: &str = "renamed_field";

/// Whether `v` names `name` in a `field` member, however deep (segments, qualifiers).
fn names_field(v: &serde_json::Value, name: &str) -> bool {
    match v {
        serde_json::Value::Object(m) => m
            .iter()
            .any(|(k, x)| (k == "field" && x.as_str() == Some(name)) || names_field(x, name)),
        serde_json::Value::Array(a) => a.iter().any(|x| names_field(x, name)),
        _ => false,
    }
}

/// Whether a record of a read or an example gives a value for `name`.
fn records_name(doc: &serde_json::Value, name: &str) -> bool {
    let has = |r: Option<&serde_json::Value>| r.and_then(|r| r.get(name)).is_some();
    let list = |k: &str| {
        doc.get(k)
            .and_then(|v| v.as_array())
            .cloned()
            .unwrap_or_default()
    };
    list("reads")
        .iter()
        .any(|r| has(r.get("record")) || has(r.get("from")) || has(r.get("to")))
        || list("examples").iter().any(|x| has(x.get("record")))
}

#[test]
fn every_field_of_every_preset_renames_through_key_reads_and_examples() {
    let o = AnalyzeOptions {
        windows: 8,
        sample_size: 50,
        ..AnalyzeOptions::default()
    };
    let mut checked = 0;
    for p in presets::all() {
        let doc = DesignDocument::from_json(p.json).unwrap();
        let before = analyze(&doc, &o).unwrap();
        let plans = doc.plan_reads(&[]).unwrap();
        for f in &doc.fields {
            let r = doc
                .rename_field(&f.name, NEW)
                .unwrap_or_else(|e| panic!("{} {}: {e}", p.id, f.name));
            let case = format!("{}: {} -> {NEW}", p.id, f.name);
            assert!(r.fields.iter().any(|g| g.name == NEW), "{case}");
            let json = serde_json::to_value(&r).unwrap();
            for part in ["key", "cells"] {
                assert!(
                    !json.get(part).is_some_and(|v| names_field(v, &f.name)),
                    "{case}: {part} still names the old field"
                );
            }
            assert!(
                !records_name(&json, &f.name),
                "{case}: a record names the old field"
            );
            let had = records_name(&serde_json::to_value(&doc).unwrap(), &f.name);
            assert_eq!(
                records_name(&json, NEW),
                had,
                "{case}: the records' values moved"
            );
            // the same key, the same reads, the same examples; the analysis runs (the workload
            // seeds each field's generator by its name, so the generated values change)
            let field = |n: &str| format!("\"field\":{}", serde_json::to_string(n).unwrap());
            assert_eq!(
                serde_json::to_string(&r.key).unwrap(),
                serde_json::to_string(&doc.key)
                    .unwrap()
                    .replace(&field(&f.name), &field(NEW)),
                "{case}"
            );
            let after = analyze(&r, &o).unwrap();
            assert_eq!(after.writes, before.writes, "{case}");
            let again = r.plan_reads(&[]).unwrap();
            assert_eq!(again.len(), plans.len(), "{case}");
            for (a, b) in again.iter().zip(&plans) {
                assert_eq!(a.scans, b.scans, "{case}: {}", a.name);
            }
            let status = |d: &DesignDocument| {
                rowkey_lab::design::check_examples(d)
                    .unwrap()
                    .into_iter()
                    .map(|x| format!("{:?}", x.status))
                    .collect::<Vec<_>>()
            };
            assert_eq!(status(&r), status(&doc), "{case}: the examples");
            checked += 1;
        }
    }
    assert!(checked > 50, "{checked}");
}

#[test]
fn a_rename_onto_a_field_or_from_nothing_is_refused() {
    let doc = presets::get("seed000-telecom").unwrap();
    let e = doc.rename_field("nope", "x").unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("from"));
    let e = doc.rename_field("phone", "ts").unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("to"));
    assert!(e.message.contains("already named"), "{e}");
    assert!(doc.rename_field("phone", "").is_err());
    assert_eq!(doc.rename_field("phone", "phone").unwrap(), doc);
    // the reported case: phone -> device_id keeps the key and the reads working
    let r = doc.rename_field("phone", "device_id").unwrap();
    assert!(r.key.to_text().contains("device_id"), "{}", r.key.to_text());
    assert!(!r.key.to_text().contains("phone"), "{}", r.key.to_text());
}
