//! Reading a caller's values: the only calls that may run the caller's code (a `Proxy` trap, a
//! getter, an iterator, a revoked proxy) and all of them `catch`-marked, so what the caller's
//! code throws comes back here as an `Err` and leaves as the engine's error (kind
//! `illegalArgument`, at the argument) like any other bad argument.
//!
//! Why it matters: an exception thrown by an import that is not `catch`-marked unwinds through
//! the wasm frames above it. They never return, so the shadow stack pointer they moved is never
//! restored (every such call leaks its frames, and after a few hundred calls every call, even
//! `md5Hex`, traps `memory access out of bounds`) and a method's `RefCell` borrow of its object
//! is never released (the object then refuses every call and `free()`). `js_sys`'s `Array`,
//! `Object::keys` and `Uint8Array` accessors are not `catch`-marked: clippy's
//! `disallowed_methods` (clippy.toml) refuses them outside this module, and
//! `tests/js/cli/throwing-args.test.mjs` calls every export with throwing arguments.
#![allow(clippy::disallowed_methods)]

use js_sys::{Array, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;

use super::js_error;
use crate::error::Error;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn is_array_js(v: &JsValue) -> Result<bool, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    fn keys_js(v: &JsValue) -> Result<Array, JsValue>;
    /// `Uint8Array` under a name of this module's, for a `catch`-marked constructor.
    #[wasm_bindgen(js_name = Uint8Array)]
    type U8Copy;
    #[wasm_bindgen(catch, constructor, js_class = "Uint8Array")]
    fn new(v: &JsValue) -> Result<U8Copy, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ArrayBuffer, js_name = isView)]
    fn is_view_js(v: &JsValue) -> Result<bool, JsValue>;
    /// `Uint8Array` under another name of this module's, for a view over a caller's buffer.
    #[wasm_bindgen(js_name = Uint8Array)]
    type U8View;
    #[wasm_bindgen(catch, constructor, js_class = "Uint8Array")]
    fn view_of(buffer: &JsValue, offset: f64, length: f64) -> Result<U8View, JsValue>;
    /// `Uint32Array` under a name of this module's, for a `catch`-marked copy.
    #[wasm_bindgen(js_name = Uint32Array)]
    type U32Copy;
    #[wasm_bindgen(catch, constructor, js_class = "Uint32Array")]
    fn new(v: &JsValue) -> Result<U32Copy, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Reflect, js_name = apply)]
    fn apply_js(f: &JsValue, this: &JsValue, args: &Array) -> Result<JsValue, JsValue>;
}

#[cfg(any(feature = "library", feature = "fast"))]
/// A caller's callback, `undefined` / `null` for none; anything else is an error at `name`.
pub(crate) fn callback(name: &str, v: &JsValue) -> Result<Option<JsValue>, JsValue> {
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    if v.is_function() {
        Ok(Some(v.clone()))
    } else {
        Err(super::bad_arg(name, "a function, or undefined", v))
    }
}

#[cfg(any(feature = "library", feature = "fast"))]
/// `f(a, b)` for a callback from [`callback`]; what it throws is the engine's error at `name`.
pub(crate) fn call2(name: &str, f: &JsValue, a: f64, b: f64) -> crate::error::Result<()> {
    let args = Array::of2(&JsValue::from_f64(a), &JsValue::from_f64(b));
    apply_js(f, &JsValue::UNDEFINED, &args)
        .map(|_| ())
        .map_err(|e| {
            let message = e
                .as_string()
                .or_else(|| {
                    Reflect::get(&e, &JsValue::from_str("message"))
                        .ok()?
                        .as_string()
                })
                .unwrap_or_else(|| "an exception".into());
            Error::arg(name, format!("the callback threw: {message}"))
        })
}

/// A real typed array's bytes as a fresh `Uint8Array` over the same buffer (no copy): its
/// `buffer`, `byteOffset` and `byteLength` read under `catch`, the view made by the engine, so
/// copying from it runs none of the caller's code (a Node `Buffer` is one). `None` for anything
/// else (a proxy is not a view).
fn same_bytes(name: &str, v: &JsValue) -> Result<Option<Uint8Array>, JsValue> {
    if !is_view_js(v).unwrap_or(false) {
        return Ok(None);
    }
    let buffer = get(name, v, "buffer")?;
    let (Some(offset), Some(length)) = (
        get(name, v, "byteOffset")?.as_f64(),
        get(name, v, "byteLength")?.as_f64(),
    ) else {
        return Ok(None);
    };
    Ok(U8View::view_of(&buffer, offset, length)
        .ok()
        .map(|view| view.unchecked_into()))
}

/// The engine's error for a value whose reading threw: the argument, and what was thrown.
pub(crate) fn thrown(name: &str, e: &JsValue) -> JsValue {
    // What was thrown may itself be a hostile object: its message is read under `catch` too.
    let message = match e.as_string() {
        Some(s) => Some(s),
        None if e.is_object() => Reflect::get(e, &JsValue::from_str("message"))
            .ok()
            .and_then(|m| m.as_string()),
        None => None,
    };
    let text = match message {
        Some(m) => format!(
            "reading it threw an exception: {}",
            crate::support::json::quote(&m)
        ),
        None => "reading it threw an exception".to_string(),
    };
    js_error(&Error::arg(name, text))
}

/// `Array.isArray(v)` (a revoked proxy throws).
pub(crate) fn is_array(name: &str, v: &JsValue) -> Result<bool, JsValue> {
    is_array_js(v).map_err(|e| thrown(name, &e))
}

/// `v[key]`.
pub(crate) fn get(name: &str, v: &JsValue, key: &str) -> Result<JsValue, JsValue> {
    Reflect::get(v, &JsValue::from_str(key)).map_err(|e| thrown(name, &e))
}

/// `Object.keys(v)` as strings.
pub(crate) fn keys(name: &str, v: &JsValue) -> Result<Vec<String>, JsValue> {
    let keys = keys_js(v).map_err(|e| thrown(name, &e))?;
    // A fresh array of strings that Object.keys made: reading it runs no caller code.
    Ok(keys.iter().filter_map(|k| k.as_string()).collect())
}

/// The items of an array `v` (checked with [`is_array`] first), at most `max` of them: its
/// `length` and each item read under `catch`. `None` when `v` is not an array.
pub(crate) fn items(name: &str, v: &JsValue, max: usize) -> Result<Option<Vec<JsValue>>, JsValue> {
    if !is_array(name, v)? {
        return Ok(None);
    }
    let len = get(name, v, "length")?.as_f64().unwrap_or(0.0);
    if len > max as f64 {
        let e = crate::limits::limit_error(
            name,
            format!("{len} items"),
            max,
            "a list this long is not an argument the engine takes",
        );
        return Err(js_error(&e));
    }
    let n = len as u32;
    (0..n)
        .map(|i| Reflect::get_u32(v, i).map_err(|e| thrown(&format!("{name}[{i}]"), &e)))
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// The bytes of a `Uint8Array` `v`, copied; `None` when `v` is not one. A value that only
/// claims to be one (its prototype set to `Uint8Array.prototype`, a proxy) is copied as the
/// array-like it is, under `catch`.
pub(crate) fn u8_bytes(name: &str, v: &JsValue) -> Result<Option<Vec<u8>>, JsValue> {
    // `instanceof` in the glue catches what a proxy throws (false then).
    if !v.is_instance_of::<Uint8Array>() {
        return Ok(None);
    }
    // A real typed array is copied without running caller code; anything else is read through
    // its `length` and indexes, which may throw.
    // A real one is copied once, straight into the engine's memory, through a view of its
    // bytes (a copy in JavaScript first held a 24 MiB file of rows twice).
    if let Some(view) = same_bytes(name, v)? {
        return Ok(Some(view.to_vec()));
    }
    let copy: Uint8Array = U8Copy::new(v)
        .map_err(|e| thrown(name, &e))?
        .unchecked_into();
    Ok(Some(copy.to_vec()))
}

/// A copy of `v` when it is a `Uint32Array` (else `None`): copied by a `catch`-marked
/// constructor first, so a proxy's trap that throws is an error at `name`, not a trap.
#[cfg(all(feature = "library", feature = "rows"))]
pub(crate) fn u32_values(name: &str, v: &JsValue) -> Result<Option<Vec<u32>>, JsValue> {
    if !v.is_instance_of::<js_sys::Uint32Array>() {
        return Ok(None);
    }
    let copy: js_sys::Uint32Array = U32Copy::new(v)
        .map_err(|e| thrown(name, &e))?
        .unchecked_into();
    Ok(Some(copy.to_vec()))
}

/// The length of a `Uint8Array` `v` (else `None`), without copying it.
pub(crate) fn u8_len(name: &str, v: &JsValue) -> Result<Option<usize>, JsValue> {
    if !v.is_instance_of::<Uint8Array>() {
        return Ok(None);
    }
    let len = Reflect::get(v, &JsValue::from_str("byteLength")).map_err(|e| thrown(name, &e))?;
    Ok(Some(len.as_f64().unwrap_or(0.0) as usize))
}
