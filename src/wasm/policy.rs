//! The engine's policies across the boundary: budgets (`check`), example keys, a design on a
//! live table's regions, a design fitted to given records. Each export decodes, calls one
//! core function and encodes; the CLI and the page call these instead of carrying rules.

use wasm_bindgen::prelude::*;

use super::core;
#[cfg(feature = "library")]
use super::doc_arg;
#[cfg(any(feature = "library", feature = "fast"))]
use super::opts;
#[cfg(any(feature = "library", feature = "fast"))]
use super::to_js;
use crate::analyze::check::Budgets;
#[cfg(feature = "library")]
use crate::analyze::AnalyzeOptions;

/// Budgets; `undefined` / `null` mean the defaults (hotspot 2.0, 16 scans, lint errors).
pub(crate) fn budgets_arg(v: JsValue) -> Result<Budgets, JsValue> {
    let text = match v.is_undefined() || v.is_null() {
        true => None,
        false => Some(super::plain_json("budgets", &v)?),
    };
    core(crate::calls::budgets(text.as_deref()))
}

/// `readBudgets(budgets?)`: the budgets with their defaults filled in, checked (a factor under
/// 1 or 0 scans could never pass: an error naming the member).
#[cfg(feature = "library")]
#[wasm_bindgen(js_name = readBudgets)]
pub fn read_budgets(budgets: JsValue) -> Result<JsValue, JsValue> {
    to_js(&budgets_arg(budgets)?)
}

/// `checkDesign(doc, budgets?, options?)`: analyze the design's workload, plan its reads
/// and check both against the budgets: `{ok, hotspotFactor, serverHotspotFactor, maxScans,
/// lint, examples, breaches}`.
#[cfg(feature = "library")]
#[wasm_bindgen(js_name = checkDesign)]
pub fn check_design(doc: JsValue, budgets: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let doc = super::doc_text("doc", &doc)?;
    let text = |name: &str, v: &JsValue| match v.is_undefined() || v.is_null() {
        true => Ok(None),
        false => super::plain_json(name, v).map(Some),
    };
    let (b, o) = (text("budgets", &budgets)?, text("options", &options)?);
    let verdict = core(crate::calls::check_design(&doc, b.as_deref(), o.as_deref()))?;
    js_sys::JSON::parse(&verdict)
}

/// `checkExamples(doc)`: each example's recorded key against the key the design writes now:
/// `[{index, record, key, keyBinary, keyNow, keyBinaryNow, status, message, failed}]`.
#[cfg(feature = "library")]
#[wasm_bindgen(js_name = checkExamples)]
pub fn check_examples(doc: JsValue) -> Result<JsValue, JsValue> {
    let doc = doc_arg("doc", &doc)?;
    to_js(&core(crate::design::check_examples(&doc))?)
}

#[cfg(feature = "library")]
#[derive(serde::Serialize)]
struct Updated {
    design: crate::design::DesignDocument,
    examples: Vec<crate::design::ExampleKey>,
}

/// `updateExamples(doc)`: `{design, examples}`, the design with every moved example's key
/// rewritten to the one it writes now (a deliberate key change), and the check before.
#[cfg(feature = "library")]
#[wasm_bindgen(js_name = updateExamples)]
pub fn update_examples(doc: JsValue) -> Result<JsValue, JsValue> {
    let doc = doc_arg("doc", &doc)?;
    let (design, examples) = core(crate::design::update_examples(&doc))?;
    to_js(&Updated { design, examples })
}

/// `onTableRegions(doc, list)`: the design on a table's regions as `readRegions` gave them
/// (`list.presplit`, and `list.assignment` when the table names every region's server).
// The speed build's and the npm package's, not the page's size build: the readers of what
// HBase prints and of Phoenix DDL are a fourteenth of the first load (27 KB gzip), and the
// page reads those texts in a worker that loads the speed build (engine/readers.js).
#[cfg(any(feature = "library", feature = "fast"))]
#[wasm_bindgen(js_name = onTableRegions)]
pub fn on_table_regions(doc: JsValue, list: JsValue) -> Result<JsValue, JsValue> {
    // A design that leaves its key's fields to a file of rows (`analyze key.json --records f
    // --regions splits.txt`) takes the table's regions now and is checked once the rows have
    // declared them (`rowsDesign`); any other design is checked here.
    let doc = super::doc_arg_for_rows("doc", &doc)?;
    let (presplit, placement) = opts("list", list, crate::region::read::table_regions)?;
    to_js(&doc.on_table_regions(presplit, placement))
}

/// `fitToRecords(doc, records)`: the design for these records in place of its workload (their
/// count; a `sampleQuantiles` pre-split cut at their keys, every k-th, at most 10,000).
#[cfg(feature = "library")]
#[wasm_bindgen(js_name = fitToRecords)]
pub fn fit_to_records(doc: JsValue, records: JsValue) -> Result<JsValue, JsValue> {
    let doc = doc_arg("doc", &doc)?;
    let records = opts("records", records, |n| {
        crate::support::json::list(n, crate::support::json::map)
    })?;
    let max = AnalyzeOptions::default().presplit_sample as usize;
    to_js(&core(doc.fit_to_records(&records, max))?)
}
