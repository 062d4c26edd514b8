//! A table's regions over a series of snapshots (`region::series`), for the npm package: the
//! files cross as strings, one by one (no JSON text of every dump), the report through `to_js`.

use wasm_bindgen::prelude::*;

use super::{bad_arg, core, doc_arg, int_arg, js, js_error, json_text, str_arg, to_js};
use crate::region::series::read_series_owned;

/// One file as it crossed: its name, text and modification time.
type Owned = (String, String, Option<u64>);

/// `files[i]`: `{name, text, modifiedMs?}`; any other member is an error (a typo would
/// silently drop a time).
fn file_arg(i: usize, v: &JsValue) -> Result<Owned, JsValue> {
    let at = format!("files/{i}");
    if !v.is_object() || js::is_array(&at, v)? {
        return Err(bad_arg(&at, "an object {name, text, modifiedMs?}", v));
    }
    for k in js::keys(&at, v)? {
        if !matches!(k.as_str(), "name" | "text" | "modifiedMs") {
            return Err(bad_arg(
                &format!("{at}/{k}"),
                "no such member (name, text, modifiedMs)",
                &JsValue::from_str(&k),
            ));
        }
    }
    let get = |k: &str| js::get(&format!("{at}/{k}"), v, k);
    let name = str_arg(&format!("{at}/name"), &get("name")?)?;
    let text = str_arg(&format!("{at}/text"), &get("text")?)?;
    let m = get("modifiedMs")?;
    let modified = if m.is_undefined() || m.is_null() {
        None
    } else {
        Some(int_arg(&format!("{at}/modifiedMs"), &m, 0, 1 << 53)? as u64)
    };
    Ok((name, text, modified))
}

/// `checkSeriesSizes(sizes)`: a series' files refused by their sizes (bytes, in order) before
/// any is read ([`crate::limits::check_series_sizes`]): the CLI's `observe` and the page's live
/// table both ask, so neither holds a text the other would refuse.
#[wasm_bindgen(js_name = checkSeriesSizes)]
pub fn check_series_sizes(sizes: JsValue) -> Result<(), JsValue> {
    // one more than the most files, so the engine's own check says how many is too many
    let Some(list) = js::items("sizes", &sizes, crate::limits::MAX_SERIES_FILES + 1)? else {
        return Err(bad_arg("sizes", "an array of file sizes in bytes", &sizes));
    };
    let mut out = Vec::with_capacity(list.len());
    for (i, v) in list.iter().enumerate() {
        out.push(int_arg(&format!("sizes[{i}]"), v, 0, 1 << 53)? as u64);
    }
    core(crate::limits::check_series_sizes(&out))
}

/// `readSeries(files, table)`: a table's regions over snapshots (RegionServer `/jmx` dumps,
/// `list_regions`, `status 'detailed'`, region names for key ranges) as rates per interval.
/// `files` in the order taken (a folder's by name); `table` picks one table.
#[wasm_bindgen(js_name = readSeries)]
pub fn read_series(files: JsValue, table: JsValue) -> Result<JsValue, JsValue> {
    let Some(list) = js::items("files", &files, crate::limits::MAX_SERIES_FILES)? else {
        return Err(bad_arg(
            "files",
            "an array of {name, text, modifiedMs?}",
            &files,
        ));
    };
    // Each text copied in only while the series' bytes so far are within their limit.
    let mut owned: Vec<Owned> = Vec::with_capacity(list.len());
    let mut bytes = 0usize;
    for (i, f) in list.iter().enumerate() {
        let file = file_arg(i, f)?;
        bytes = bytes.saturating_add(file.1.len());
        core(crate::limits::check_series_bytes(bytes, i + 1))?;
        owned.push(file);
    }
    let table = match table.is_undefined() || table.is_null() {
        true => None,
        false => Some(str_arg("table", &table)?),
    };
    to_js(&core(read_series_owned(&owned, table.as_deref()))?)
}

/// `againstDesign(series, doc, predicted)`: a series (`readSeries`' result) read through the
/// design's key, the last interval with a rate set beside `predicted` (the design's writes per
/// region on `series.layout`, in key order: its analysis on `onTableRegions(doc, layout)`), and
/// the diagnosis where they disagree. `predicted` may be null (the readings alone).
#[wasm_bindgen(js_name = againstDesign)]
pub fn against_design(
    series: JsValue,
    doc: JsValue,
    predicted: JsValue,
) -> Result<JsValue, JsValue> {
    let s: crate::region::series::RegionSeries =
        json_arg("series", &series, "what readSeries gave")?;
    let doc = doc_arg("doc", &doc)?;
    let predicted: Option<Vec<u64>> = match predicted.is_undefined() || predicted.is_null() {
        true => None,
        false => Some(json_arg(
            "predicted",
            &predicted,
            "an array of whole numbers",
        )?),
    };
    to_js(&core(crate::analyze::against_design(
        &s,
        &doc,
        predicted.as_deref(),
    ))?)
}

/// A JavaScript value read into `T` through its JSON text; a mismatch names `name`, what was
/// expected and serde's place in the text.
fn json_arg<T: serde::de::DeserializeOwned>(
    name: &str,
    v: &JsValue,
    expected: &str,
) -> Result<T, JsValue> {
    let text = json_text(name, v)?;
    serde_json::from_str(&text).map_err(|e| {
        js_error(&crate::error::Error::arg(
            name,
            format!("not {expected}: {e}"),
        ))
    })
}
