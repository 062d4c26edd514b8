//! The key-design language across the boundary: parse and print a key, validate a design
//! document, encode a record, decode a key, lay out and lint a design.

use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

use super::typed_keys;
use super::{bytes_arg, core, doc_arg, opts, str_arg, to_js, u8_array};
use crate::keyspec::{self, CompiledKey, KeySpec};

/// A record argument: field name -> value (a long may be a decimal string or a BigInt).
fn record_arg(v: JsValue) -> Result<Map<String, Value>, JsValue> {
    opts("record", v, crate::support::json::map)
}

/// Parse the text form of a key design: its JSON form (`{segments: [...]}`). Errors carry
/// `line` and `column`.
#[wasm_bindgen(js_name = parseKey)]
pub fn parse_key(text: JsValue) -> Result<JsValue, JsValue> {
    let text = str_arg("text", &text)?;
    to_js(&core(KeySpec::parse_text(&text))?)
}

/// Print a key design (its JSON form, or the text form to normalize) as the text form.
#[wasm_bindgen(js_name = formatKey)]
pub fn format_key(spec: JsValue) -> Result<String, JsValue> {
    let spec: KeySpec = opts("spec", spec, crate::keyspec::read::key_spec)?;
    core(spec.validate())?;
    Ok(spec.to_text())
}

/// Validate a design document and return it normalized (the key in its JSON form). Errors
/// carry the JSON path (`path`).
#[wasm_bindgen(js_name = validateDesign)]
pub fn validate_design(doc: JsValue) -> Result<JsValue, JsValue> {
    let text = core(crate::calls::validate_design(&super::doc_text(
        "doc", &doc,
    )?))?;
    js_sys::JSON::parse(&text)
}

/// `renameField(doc, from, to)`: the design with field `from` renamed `to` in its
/// declaration, its key, its cells and the records of its reads and examples (validated).
#[wasm_bindgen(js_name = renameField)]
pub fn rename_field(doc: JsValue, from: JsValue, to: JsValue) -> Result<JsValue, JsValue> {
    let doc = doc_arg("doc", &doc)?;
    let (from, to) = (str_arg("from", &from)?, str_arg("to", &to)?);
    to_js(&core(doc.rename_field(&from, &to))?)
}

/// The design document's kinds and members (field types, segment kinds, generators,
/// pre-splits, split policies, read types, qualifiers, objects) and the analysis and advisor
/// options, each member with its default and range, as the engine reads them: what the
/// page's forms, controls and completion offer.
#[wasm_bindgen(js_name = designSchema)]
pub fn design_schema() -> Result<JsValue, JsValue> {
    to_js(&crate::advise::schema())
}

/// Encode one record with the document's key design: the row key bytes.
#[wasm_bindgen(js_name = encodeKey)]
pub fn encode_key(doc: JsValue, record: JsValue) -> Result<JsValue, JsValue> {
    let (doc, record) = (doc_arg("doc", &doc)?, record_arg(record)?);
    Ok(u8_array(&core(keyspec::encode(
        &doc.key,
        &doc.key_fields(),
        &record,
    ))?))
}

/// Decode a row key: `{fields, unrecoverable, spans, verified}`.
#[cfg(feature = "library")]
#[wasm_bindgen(js_name = decodeKey)]
pub fn decode_key(doc: JsValue, key: JsValue) -> Result<JsValue, JsValue> {
    let (doc, key) = (doc_arg("doc", &doc)?, bytes_arg("key", &key)?);
    to_js(&core(keyspec::decode(&doc.key, &doc.key_fields(), &key))?)
}

/// `decodeBoundaries(doc, keys)`: region boundaries (start keys, split keys) read through the
/// design's key, one per key: the salt bucket and leading fields a boundary holds, a value it
/// may cut marked as a start, and a label ("salt 07 · phone=1380…"); a boundary that does not
/// read as this key keeps its text (`decoded: false`).
#[cfg(feature = "library")]
#[wasm_bindgen(js_name = decodeBoundaries)]
pub fn decode_boundaries(doc: JsValue, keys: JsValue) -> Result<JsValue, JsValue> {
    let doc = doc_arg("doc", &doc)?;
    let keys = super::bytes_list_arg("keys", &keys)?;
    to_js(&core(keyspec::decode_boundaries(
        &doc.key,
        &doc.key_fields(),
        &keys,
    ))?)
}

/// A design compiled once, for many records and keys: `encodeKey` and `decodeKey` read and
/// compile the whole document on every call (tens of µs for a preset), a codec only the
/// record or the key. The page draws its sorted keys through one.
#[wasm_bindgen]
pub struct KeyCodec {
    key: CompiledKey,
}

#[wasm_bindgen]
impl KeyCodec {
    /// `new KeyCodec(doc)`: the document's key design, checked and compiled.
    #[wasm_bindgen(constructor)]
    pub fn new(doc: JsValue) -> Result<KeyCodec, JsValue> {
        let doc = doc_arg("doc", &doc)?;
        Ok(KeyCodec {
            key: core(CompiledKey::new(&doc.key, &doc.key_fields()))?,
        })
    }

    /// One record's row key, as `encodeKey`.
    pub fn encode(&mut self, record: JsValue) -> Result<JsValue, JsValue> {
        let record = record_arg(record)?;
        Ok(u8_array(&core(self.key.encode_json(&record))?))
    }

    /// Many records' row keys end to end: `{keys: Uint8Array, offsets: Uint32Array}`. An
    /// error names the record (`records[i].field`).
    #[wasm_bindgen(js_name = encodeAll)]
    pub fn encode_all(&mut self, records: JsValue) -> Result<JsValue, JsValue> {
        let records = opts("records", records, |n| {
            crate::support::json::list(n, crate::support::json::map)
        })?;
        let (mut keys, mut ends) = (Vec::new(), Vec::with_capacity(records.len()));
        core(self.key.encode_all(&records, &mut keys, &mut ends))?;
        Ok(typed_keys(&keys, &ends)?.into())
    }

    /// A row key's fields, as `decodeKey`.
    pub fn decode(&self, key: JsValue) -> Result<JsValue, JsValue> {
        to_js(&core(self.key.decode(&bytes_arg("key", &key)?))?)
    }

    /// `[start, end)` of every segment of `key`, as `keySpans`.
    pub fn spans(&self, key: JsValue) -> Result<JsValue, JsValue> {
        to_js(&core(self.key.segment_spans(&bytes_arg("key", &key)?))?)
    }
}

/// The byte layout of the document's key: one entry per segment (name, offset, width,
/// encoding).
#[wasm_bindgen(js_name = keyLayout)]
pub fn key_layout(doc: JsValue) -> Result<JsValue, JsValue> {
    let doc = doc_arg("doc", &doc)?;
    to_js(&core(keyspec::layout(&doc.key, &doc.key_fields()))?)
}

/// `[start, end)` of every segment of `key`, in `keyLayout` order.
#[cfg(feature = "library")]
#[wasm_bindgen(js_name = keySpans)]
pub fn key_spans(doc: JsValue, key: JsValue) -> Result<JsValue, JsValue> {
    let (doc, key) = (doc_arg("doc", &doc)?, bytes_arg("key", &key)?);
    let spans = CompiledKey::new(&doc.key, &doc.key_fields()).and_then(|c| c.segment_spans(&key));
    to_js(&core(spans)?)
}

/// Lint the design: `[{rule, severity, segment, message}]`.
#[wasm_bindgen(js_name = lintDesign)]
pub fn lint_design(doc: JsValue) -> Result<JsValue, JsValue> {
    let text = core(crate::calls::lint_design(&super::doc_text("doc", &doc)?))?;
    js_sys::JSON::parse(&text)
}

/// One lint rule: its id and the principle behind it.
#[cfg(feature = "library")]
#[derive(serde::Serialize)]
struct LintRule {
    id: &'static str,
    reason: &'static str,
}

/// Every lint rule: `[{id, reason}]`.
#[cfg(feature = "library")]
#[wasm_bindgen(js_name = lintRules)]
pub fn lint_rules() -> Result<JsValue, JsValue> {
    let rules: Vec<LintRule> = crate::design::RULES
        .iter()
        .map(|&(id, reason)| LintRule { id, reason })
        .collect();
    to_js(&rules)
}

/// Read a Phoenix `CREATE TABLE` statement into a design document (its primary key as
/// `pk(...)` segments, `SALT_BUCKETS` as the pre-split). Errors carry `line` and `column`.
// The speed build's and the npm package's, not the page's size build: the readers of what
// HBase prints and of Phoenix DDL are a fourteenth of the first load (27 KB gzip), and the
// page reads those texts in a worker that loads the speed build (engine/readers.js).
#[cfg(any(feature = "library", feature = "fast"))]
#[wasm_bindgen(js_name = parseCreateTable)]
pub fn parse_create_table(sql: JsValue) -> Result<JsValue, JsValue> {
    let sql = str_arg("sql", &sql)?;
    to_js(&core(crate::design::phoenix::parse_create_table(&sql))?)
}

/// A design's Phoenix primary key as `CREATE TABLE`. Errors carry the key's `path` when the
/// key is not a Phoenix primary key.
#[cfg(any(feature = "library", feature = "fast"))]
#[wasm_bindgen(js_name = printCreateTable)]
pub fn print_create_table(doc: JsValue) -> Result<String, JsValue> {
    let doc = doc_arg("doc", &doc)?;
    core(crate::design::phoenix::print_create_table(&doc))
}

/// `indexTables(doc)`: each Phoenix index of the design as the table Phoenix makes of it,
/// `[{name, kind, sql, splitKeysHex}]` (its `CREATE ... INDEX`; a global index's initial split
/// keys); `[]` without indexes.
#[cfg(any(feature = "library", feature = "fast"))]
#[wasm_bindgen(js_name = indexTables)]
pub fn index_tables(doc: JsValue) -> Result<JsValue, JsValue> {
    let doc = doc_arg("doc", &doc)?;
    to_js(&core(crate::analyze::index_tables(&doc))?)
}
