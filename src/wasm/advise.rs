//! The design advisor across the boundary. `adviseDesign` does everything in one call (one
//! thread: wasm has none); for parallel work a caller takes `adviseCandidates`, hands each
//! candidate's design to a worker's `evaluateCandidate`, and gives the evaluations, in
//! candidate order, to `adviseFrom`, which answers exactly as `adviseDesign` would.

use wasm_bindgen::prelude::*;

use super::{core, doc_arg, int_arg, json_text, opts, to_js};
use crate::advise::{self, AdviseOptions};

/// Advisor options; `undefined` / `null` mean the defaults.
fn advise_opts(v: JsValue) -> Result<AdviseOptions, JsValue> {
    if v.is_undefined() || v.is_null() {
        Ok(AdviseOptions::default())
    } else {
        opts("options", v, advise::read_options)
    }
}

/// The whole advice: `{recommended, candidates, inputFlags, capacity, …}`.
#[wasm_bindgen(js_name = adviseDesign)]
pub fn advise_design(doc: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let doc = doc_arg("doc", &doc)?;
    let o = advise_opts(options)?;
    to_js(&core(advise::advise(&doc, &o))?)
}

/// The candidates (`{candidates: [{label, changes, keyText, design}], servers,
/// targetRegions, fixedFields}`), the input first.
#[wasm_bindgen(js_name = adviseCandidates)]
pub fn advise_candidates(doc: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let doc = doc_arg("doc", &doc)?;
    let o = advise_opts(options)?;
    to_js(&core(advise::candidates(&doc, &o))?)
}

/// One candidate's figures on the advisor's workload (`targetRegions` from
/// `adviseCandidates`).
#[wasm_bindgen(js_name = evaluateCandidate)]
pub fn evaluate_candidate(
    design: JsValue,
    options: JsValue,
    target_regions: JsValue,
) -> Result<JsValue, JsValue> {
    let design = doc_arg("design", &design)?;
    let o = advise_opts(options)?;
    let t = int_arg("targetRegions", &target_regions, 1, 100_000)? as u32;
    to_js(&core(advise::evaluate(&design, &o, t))?)
}

/// The answer from evaluations made elsewhere (workers), in candidate order: each the
/// result of `evaluateCandidate` or `{error: message}`.
#[wasm_bindgen(js_name = adviseFrom)]
pub fn advise_from(
    doc: JsValue,
    options: JsValue,
    evaluations: JsValue,
) -> Result<JsValue, JsValue> {
    let doc = doc_arg("doc", &doc)?;
    let o = advise_opts(options)?;
    let evals = core(advise::read_evaluations(&json_text(
        "evaluations",
        &evaluations,
    )?))?;
    let set = core(advise::candidates(&doc, &o))?;
    to_js(&core(advise::advise_from(&doc, &o, &set, evals))?)
}
