//! Months of life across the boundary: the design and the settings in, the report out (the
//! npm package's `lifeDesign` and `checkLife`: the CLI's `life` and `check`); and the Months
//! view's calls (`lifeMonths`, `lifeCompare`: the report with its key-range map, and two
//! settings side by side), which the page's workers run on the speed build, with progress
//! through a callback at each month's end.

use wasm_bindgen::prelude::*;

use super::js::{call2, callback};
use super::{core, doc_arg, plain_json, to_js};

/// An options argument as JSON: `undefined` / `null` for none, else an object, refused at
/// `name` (`lifeCompare`'s `otherOptions: 'x'` was the engine's "options: life options must be
/// an object", naming the other argument).
fn options_arg(name: &str, v: &JsValue) -> Result<serde_json::Value, JsValue> {
    if v.is_undefined() || v.is_null() {
        return Ok(serde_json::Value::Null);
    }
    let text = plain_json(name, v)?;
    match serde_json::from_str(&text) {
        Ok(o @ serde_json::Value::Object(_)) => Ok(o),
        Ok(serde_json::Value::Array(_)) => Err(super::js_error(&crate::error::Error::arg(
            name,
            "expected an object, got an array",
        ))),
        _ => Err(super::bad_arg(name, "an object", v)),
    }
}

/// A run's options (`options_arg`'s checks) read by the engine's reader: an error at the
/// member (`/months`).
pub(super) fn life_options(name: &str, v: &JsValue) -> Result<crate::life::LifeOptions, JsValue> {
    let o = options_arg(name, v)?;
    core(crate::life::LifeOptions::from_json(&o.to_string()))
}

/// The gate's budgets (`options_arg`'s checks) read by the engine's reader.
#[cfg(any(feature = "library", feature = "rows"))]
pub(super) fn life_budgets(name: &str, v: &JsValue) -> Result<crate::life::LifeBudgets, JsValue> {
    let o = options_arg(name, v)?;
    core(crate::life::LifeBudgets::from_json(&o.to_string()))
}

/// Two settings compared (`lifeCompare`'s): each read as [`life_options`], a member's error
/// led by its argument's name (`otherOptions/months`), as the comparison names its own.
pub(super) fn two_options(
    a: &JsValue,
    b: &JsValue,
) -> Result<(crate::life::LifeOptions, crate::life::LifeOptions), JsValue> {
    let read = |name: &'static str, v: &JsValue| {
        let o = options_arg(name, v)?;
        core(
            crate::life::LifeOptions::from_json(&o.to_string())
                .map_err(crate::life::read::in_argument(name)),
        )
    };
    Ok((read("options", a)?, read("otherOptions", b)?))
}

/// `onMonth(done, total)` as the engine's progress hook (none: a hook that does nothing).
pub(super) fn progress(
    on_month: &JsValue,
) -> Result<impl FnMut(u32, u32) -> crate::error::Result<()>, JsValue> {
    let f = callback("onMonth", on_month)?;
    Ok(move |done: u32, total: u32| match &f {
        Some(f) => call2("onMonth", f, done.into(), total.into()),
        None => Ok(()),
    })
}

/// `{policy, months: [{month, regions, emptyRegions, …}], crossings, regionsAtEnd, notes}`:
/// the design's table month by month under HBase's rules; `options` are `LifeOptions` over
/// the design's own, `undefined` / `null` for none.
#[cfg(feature = "library")]
#[wasm_bindgen(js_name = lifeDesign)]
pub fn life_design(doc: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let doc = doc_arg("doc", &doc)?;
    let options = life_options("options", &options)?;
    to_js(&core(crate::life::simulate_design(&doc, &options))?)
}

/// `{ok, months, emptyRegions, regionsPerServer, breaches}`: the design's simulated months
/// (`options` as for `lifeDesign`) against `budgets` (`{maxEmptyRegions, maxRegionsPerServer}`).
#[cfg(feature = "library")]
#[wasm_bindgen(js_name = checkLife)]
pub fn check_life(doc: JsValue, options: JsValue, budgets: JsValue) -> Result<JsValue, JsValue> {
    let doc = doc_arg("doc", &doc)?;
    let options = life_options("options", &options)?;
    let budgets = life_budgets("budgets", &budgets)?;
    to_js(&core(crate::life::check_design(&doc, &options, &budgets))?)
}

/// `{report, settings, map}`: `lifeDesign`'s report, the settings it ran with, and the regions
/// over the key space month by month; `onMonth(done, total)` (optional) at each month's end.
#[wasm_bindgen(js_name = lifeMonths)]
pub fn life_months(doc: JsValue, options: JsValue, on_month: JsValue) -> Result<JsValue, JsValue> {
    let doc = doc_arg("doc", &doc)?;
    let options = life_options("options", &options)?;
    let mut hook = progress(&on_month)?;
    to_js(&core(crate::life::months_of_design(
        &doc, &options, &mut hook,
    ))?)
}

/// `{a, b, figures, verdict}`: the design under two settings (`options`, `otherOptions`), each
/// as `lifeMonths` gives it, and the figures and words that compare them; `onMonth(done,
/// total)` counts the months of both.
#[wasm_bindgen(js_name = lifeCompare)]
pub fn life_compare(
    doc: JsValue,
    options: JsValue,
    other_options: JsValue,
    on_month: JsValue,
) -> Result<JsValue, JsValue> {
    let doc = doc_arg("doc", &doc)?;
    let (a, b) = two_options(&options, &other_options)?;
    let mut hook = progress(&on_month)?;
    to_js(&core(crate::life::compare_design(&doc, &a, &b, &mut hook))?)
}
