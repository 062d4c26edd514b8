//! Presets across the boundary.

use wasm_bindgen::prelude::*;

use super::{core, str_arg, to_js};

/// A preset as the page lists it.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct PresetEntry {
    id: &'static str,
    name: Option<String>,
    description: Option<String>,
}

/// Every preset: `[{id, name, description}]`, sorted by id.
#[wasm_bindgen(js_name = listPresets)]
pub fn list_presets() -> Result<JsValue, JsValue> {
    let list: Vec<PresetEntry> = crate::presets::all()
        .map(|p| {
            let doc = crate::design::DesignDocument::from_json(p.json).ok();
            PresetEntry {
                id: p.id,
                name: doc.as_ref().and_then(|d| d.name.clone()),
                description: doc.and_then(|d| d.description),
            }
        })
        .collect();
    to_js(&list)
}

/// The design document of preset `id`.
#[wasm_bindgen(js_name = getPreset)]
pub fn get_preset(id: JsValue) -> Result<JsValue, JsValue> {
    let id = str_arg("id", &id)?;
    to_js(&core(crate::presets::get(&id))?)
}
