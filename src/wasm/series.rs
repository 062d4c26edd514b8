//! A table's regions over a series of snapshots (`region::series`), for the npm package: the
//! files cross as strings, one by one (no JSON text of every dump), the report through `to_js`.

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;

use super::{bad_arg, core, int_arg, js_error, str_arg, to_js};
use crate::region::series::{read_series as read, SnapshotFile};

/// One file as it crossed: its name, text and modification time.
type Owned = (String, String, Option<u64>);

/// `files[i]`: `{name, text, modifiedMs?}`; any other member is an error (a typo would
/// silently drop a time).
fn file_arg(i: usize, v: &JsValue) -> Result<Owned, JsValue> {
    let at = format!("files/{i}");
    if !v.is_object() || Array::is_array(v) {
        return Err(bad_arg(&at, "an object {name, text, modifiedMs?}", v));
    }
    for key in Object::keys(v.unchecked_ref::<Object>()).iter() {
        let k = key.as_string().unwrap_or_default();
        if !matches!(k.as_str(), "name" | "text" | "modifiedMs") {
            return Err(bad_arg(
                &format!("{at}/{k}"),
                "no such member (name, text, modifiedMs)",
                &key,
            ));
        }
    }
    let get = |k: &str| Reflect::get(v, &JsValue::from_str(k)).unwrap_or(JsValue::UNDEFINED);
    let name = str_arg(&format!("{at}/name"), &get("name"))?;
    let text = str_arg(&format!("{at}/text"), &get("text"))?;
    let m = get("modifiedMs");
    let modified = if m.is_undefined() || m.is_null() {
        None
    } else {
        Some(int_arg(&format!("{at}/modifiedMs"), &m, 0, 1 << 53)? as u64)
    };
    Ok((name, text, modified))
}

/// `readSeries(files, table)`: a table's regions over snapshots (RegionServer `/jmx` dumps,
/// `list_regions`, `status 'detailed'`, region names for key ranges) as rates per interval.
/// `files` in the order taken (a folder's by name); `table` picks one table.
#[wasm_bindgen(js_name = readSeries)]
pub fn read_series(files: JsValue, table: JsValue) -> Result<JsValue, JsValue> {
    if !Array::is_array(&files) {
        return Err(bad_arg(
            "files",
            "an array of {name, text, modifiedMs?}",
            &files,
        ));
    }
    let list: &Array = files.unchecked_ref();
    if list.length() as usize > crate::limits::MAX_SERIES_FILES {
        return Err(js_error(&crate::limits::limit_error(
            "files",
            format!("a series of {} files", list.length()),
            format!("{} files", crate::limits::MAX_SERIES_FILES),
            "the most one series reads (limits::MAX_SERIES_FILES)",
        )));
    }
    let owned = (0..list.length())
        .map(|i| file_arg(i as usize, &list.get(i)))
        .collect::<Result<Vec<Owned>, JsValue>>()?;
    let table = match table.is_undefined() || table.is_null() {
        true => None,
        false => Some(str_arg("table", &table)?),
    };
    let input: Vec<SnapshotFile<'_>> = owned
        .iter()
        .map(|(name, text, modified_ms)| SnapshotFile {
            name,
            text,
            modified_ms: *modified_ms,
        })
        .collect();
    to_js(&core(read(&input, table.as_deref()))?)
}
