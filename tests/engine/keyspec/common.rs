//! Helpers of the key-language tests: fields, records, key text and hex.

use rowkey_lab::design::{DesignDocument, Severity};
use rowkey_lab::keyspec::{self, Field, FieldType, KeySpec};
use serde_json::{Map, Value};

/// A field of the given type.
pub fn fd(name: &str, t: FieldType) -> Field {
    Field::new(name, t)
}

/// A record from a JSON object (anything else is the empty record).
pub fn rec(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// Lowercase hex of bytes.
pub fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The key text parsed, or the test fails naming it.
pub fn spec(text: &str) -> KeySpec {
    match KeySpec::parse_text(text) {
        Ok(s) => s,
        Err(e) => panic!("`{text}` does not parse: {e}"),
    }
}

/// The key `text` writes for the record `r`, or the test fails naming it.
pub fn enc(text: &str, fields: &[Field], r: Value) -> Vec<u8> {
    match keyspec::encode(&spec(text), fields, &rec(r)) {
        Ok(k) => k,
        Err(e) => panic!("`{text}` does not encode: {e}"),
    }
}

/// A field type by its JSON name (`"bigDecimal"`), as fixtures write it.
pub fn field_type(name: &str) -> FieldType {
    match name {
        "string" => FieldType::String,
        "long" => FieldType::Long,
        "int" => FieldType::Int,
        "short" => FieldType::Short,
        "double" => FieldType::Double,
        "float" => FieldType::Float,
        "boolean" => FieldType::Boolean,
        "bigDecimal" => FieldType::BigDecimal,
        "timestamp" => FieldType::Timestamp,
        other => panic!("no field type `{other}`"),
    }
}

/// A fixture's `fields` member: `[{"name": ..., "type": ...}]`.
pub fn fixture_fields(fixture: &Value) -> Vec<Field> {
    fixture["fields"]
        .as_array()
        .unwrap_or_else(|| panic!("the fixture has no `fields`"))
        .iter()
        .map(|f| {
            let name = f["name"].as_str().unwrap_or_default();
            fd(name, field_type(f["type"].as_str().unwrap_or_default()))
        })
        .collect()
}

/// A fixture entry's string member `key`, or the test fails naming it.
pub fn text<'a>(entry: &'a Value, key: &str) -> &'a str {
    entry[key]
        .as_str()
        .unwrap_or_else(|| panic!("case {entry}: no string `{key}`"))
}

/// Every lint finding of a design document, as (rule, severity, segment).
pub fn lint_rules(doc: Value) -> Vec<(String, Severity, Option<usize>)> {
    let d = DesignDocument::from_json(&doc.to_string()).unwrap_or_else(|e| panic!("{e}"));
    rowkey_lab::design::lint(&d)
        .into_iter()
        .map(|f| (f.rule.into_owned(), f.severity, f.segment))
        .collect()
}

/// Whether `rule` fired at segment `seg`.
pub fn has(rules: &[(String, Severity, Option<usize>)], rule: &str, seg: Option<usize>) -> bool {
    rules.iter().any(|(r, _, s)| r == rule && *s == seg)
}
