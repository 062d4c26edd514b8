//! Errors that point: a key text that does not parse names its line and column
//! (`cases/parse_errors.json`), a key in JSON form names the JSON path, and an error found
//! after parsing names both the path and the place in the key text (`cases/key_errors.json`).

use rowkey_lab::design::DesignDocument;
use rowkey_lab::keyspec::KeySpec;
use serde_json::json;

use super::common::text;
use crate::cases::{entries, fixture, Failures};

/// A fixture case's number member `key`.
fn number(case: &serde_json::Value, key: &str) -> Option<usize> {
    case[key].as_u64().map(|n| n as usize)
}

#[test]
fn parse_errors_point_at_line_and_column() {
    let f = fixture("keyspec", "parse_errors.json");
    let mut failures = Failures::new("keyspec/cases/parse_errors.json");
    for (i, case) in entries(&f, "cases") {
        let t = text(case, "text");
        let name = format!("#{i} {t:?}");
        let Err(e) = KeySpec::parse_text(t) else {
            failures.fail(&name, "parses, but should not");
            continue;
        };
        failures.eq(
            format!("{name}: (line, column) of `{e}`"),
            &(e.location.line, e.location.column),
            &(number(case, "line"), number(case, "column")),
        );
        let msg = text(case, "message");
        failures.check(
            format!("{name}: message"),
            e.message.contains(msg),
            format!(
                "expected a message containing {msg:?}\nactual:   {:?}",
                e.message
            ),
        );
    }
    failures.finish();
    let n = entries(&f, "cases").count();
    assert!(n >= 12, "12 cases in parse_errors.json, found {n}");
}

#[test]
fn json_form_errors_carry_the_path() {
    let e = KeySpec::from_json(
        r#"{"segments": [{"kind": "str", "field": "a"}, {"kind": "salt", "bukets": 3}]}"#,
    )
    .err();
    let e = e.unwrap_or_else(|| panic!("should fail"));
    assert!(
        e.location
            .path
            .as_deref()
            .is_some_and(|p| p.starts_with("/segments/1")),
        "{e:?}"
    );
    assert!(e.message.contains("bukets"), "{e}");
    let e = KeySpec::from_json(r#"{"segments": [{"kind": "md5Hex", "len": 40}]}"#).err();
    assert!(e.is_some_and(|e| e.location.path.as_deref() == Some("segments/0/len")));
    // A string holds the text form; its errors keep their line and column.
    let e = KeySpec::from_json(r#""salt(a,""#).err();
    assert!(e.is_some_and(|e| (e.location.line, e.location.column) == (Some(1), Some(8))));
    // So does a key text inside a document: the position is the key text's (what the user
    // edits, and what the page's caret points at), not the JSON document's, and it is said once.
    let doc = json!({"v": 1, "fields": [{"name": "a", "type": "string"}], "key": "a +\n + a"})
        .to_string();
    let e = DesignDocument::from_json(&doc).err();
    assert!(
        e.as_ref()
            .is_some_and(|e| e.location.path.as_deref() == Some("/key")
                && (e.location.line, e.location.column) == (Some(2), Some(2))
                && e.to_string().matches("line").count() == 1),
        "{e:?}"
    );
    // Inside a design document: /key.
    let doc =
        json!({"v": 1, "fields": [{"name": "a", "type": "string"}], "key": "str(b)"}).to_string();
    let e = DesignDocument::from_json(&doc).err();
    assert!(e.is_some_and(
        |e| e.location.path.as_deref() == Some("/key/segments/0") && e.message.contains("`b`")
    ));
}

#[test]
fn errors_found_after_parsing_point_into_the_key_text() {
    // Checks made on the parsed segments (the key's own rules, then the fields' types) name a
    // JSON path; a key written as text also gets the line and column of that segment.
    let f = fixture("keyspec", "key_errors.json");
    let fields = f["fields"].clone();
    let mut failures = Failures::new("keyspec/cases/key_errors.json");
    for (i, case) in entries(&f, "cases") {
        let key = text(case, "key");
        let name = format!("#{i} {key:?}");
        let doc = json!({"v": 1, "fields": fields, "key": key}).to_string();
        let Err(e) = DesignDocument::from_json(&doc) else {
            failures.fail(&name, "accepted, but should be refused");
            continue;
        };
        failures.eq(
            format!("{name}: path of `{e}`"),
            &e.location.path,
            &case["path"].as_str().map(str::to_string),
        );
        failures.eq(
            format!("{name}: (line, column) of `{e}`"),
            &(e.location.line, e.location.column),
            &(number(case, "line"), number(case, "column")),
        );
        let msg = text(case, "message");
        failures.check(
            format!("{name}: message"),
            e.message.contains(msg),
            format!(
                "expected a message containing {msg:?}\nactual:   {:?}",
                e.message
            ),
        );
    }
    failures.finish();
    let n = entries(&f, "cases").count();
    assert!(n >= 5, "5 cases in key_errors.json, found {n}");
    // The key's own rules, without a document: the path is relative to the key.
    let e = KeySpec::parse_text("salt(a, 30, as=letter)").err();
    assert!(
        e.as_ref()
            .is_some_and(|e| e.location.path.as_deref() == Some("segments/0/as")
                && (e.location.line, e.location.column) == (Some(1), Some(16))),
        "{e:?}"
    );
    // Named as written: `hash=phoenix`, at the segment it is about.
    let e = KeySpec::parse_text("a + salt(a, 300, hash=phoenix)").err();
    assert!(
        e.as_ref().is_some_and(|e| e.message
            == "hash=phoenix salting allows at most 256 buckets, got 300"
            && (e.location.line, e.location.column) == (Some(1), Some(5))),
        "{e:?}"
    );
    // The JSON form has no text to point into: the path alone.
    let doc = json!({"v": 1, "fields": fields,
        "key": {"segments": [{"kind": "salt", "of": [{"kind": "field", "field": "phne"}], "buckets": 8}]}})
    .to_string();
    let e = DesignDocument::from_json(&doc).err();
    assert!(
        e.as_ref().is_some_and(
            |e| e.location.path.as_deref() == Some("/key/segments/0/of/0")
                && e.location.line.is_none()
        ),
        "{e:?}"
    );
}
