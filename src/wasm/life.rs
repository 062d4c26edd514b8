//! Months of life across the boundary: one call, the design and the settings in, the report
//! out (the npm package's: the CLI's `life` and the library's `lifeDesign`).

use wasm_bindgen::prelude::*;

use super::{core, doc_arg, json_text, to_js};

/// `{policy, months: [{month, regions, emptyRegions, …}], crossings, regionsAtEnd, notes}`:
/// the design's table month by month under HBase's rules; `options` are `LifeSettings`
/// members (camelCase) over the design's own, `undefined` / `null` for none.
#[wasm_bindgen(js_name = lifeDesign)]
pub fn life_design(doc: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let doc = doc_arg("doc", &doc)?;
    let options = if options.is_undefined() || options.is_null() {
        serde_json::Value::Null
    } else {
        let text = json_text("options", &options)?;
        serde_json::from_str(&text).map_err(|_| super::bad_arg("options", "an object", &options))?
    };
    to_js(&core(crate::life::simulate_design(&doc, &options))?)
}
