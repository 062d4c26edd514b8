//! The JavaScript boundary: the only module that knows about `wasm_bindgen`, `js_sys` and
//! `serde_wasm_bindgen`. Every export is the same three steps — decode arguments (checking
//! their JS types, because wasm-bindgen does not), call one core function, encode the result
//! with the one shared serializer. Nothing here may panic: a panic kills the module for the
//! whole page, so every argument is taken as a `JsValue` and checked.
// The argument helpers below serve the main exports; the runVector-only build uses few.
#![cfg_attr(feature = "vectors-only", allow(dead_code, unused_imports))]

use js_sys::{Array, JsString, Reflect, Uint8Array};

mod js;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::error::Error;
use crate::support::json::{Node, R};

// Binding files by area; each is thin: decode, call the core, encode. An export marked
// `#[cfg(feature = "library")]` is the npm package's alone: the page's wasm is built without
// that feature (scripts/build-wasm.sh), so wasm-bindgen emits exactly the exports www/ imports
// and the page's wasm and glue need no trimming (scripts/build-page.mjs fails when the two
// sets differ). The `vectors-only` feature builds the npm package's second wasm
// (`rowkey-lab/vectors`): `runVector` alone, so the linker drops everything the golden vectors
// do not reach, and the main wasm (built without `vectors`) has no test code. The presets are
// served by the package's JS (`presets.js`, written by scripts/presets-js.mjs), not by the wasm.
// The advisor's exports are the npm package's and the page's speed build's (feature `fast`,
// www/pkg/fast/: the page's Advice view evaluates candidates in its workers, which run that
// build); the page's size build, its first load, goes without them.
#[cfg(all(
    any(feature = "library", feature = "fast"),
    not(feature = "vectors-only")
))]
pub mod advise;
#[cfg(not(feature = "vectors-only"))]
pub mod analyze;
#[cfg(not(feature = "vectors-only"))]
mod bytes;
#[cfg(not(feature = "vectors-only"))]
pub mod keyspec;
// Months of life: the library's and the page's speed build's (the Months view runs it in a
// worker on that build), like the advisor's.
#[cfg(all(
    any(feature = "library", feature = "fast"),
    not(feature = "vectors-only")
))]
pub mod life;
#[cfg(not(feature = "vectors-only"))]
pub mod policy;
#[cfg(all(feature = "rows", not(feature = "vectors-only")))]
pub mod rows;
#[cfg(all(feature = "library", not(feature = "vectors-only")))]
pub mod series;
#[cfg(feature = "vectors")]
mod vectors;
#[cfg(not(feature = "vectors-only"))]
pub use bytes::*;
#[cfg(feature = "vectors")]
pub use vectors::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(s: &str);
}

/// Forward any panic (a bug: inputs are checked before they reach the core) to
/// `console.error` with its message, instead of an opaque `unreachable` trap.
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        console_error(&format!("rowkey-lab bug (please report): {info}"))
    }));
}

/// The one serializer ([`crate::calls::to_json`]'s JSON text), parsed by the JS engine's
/// `JSON.parse` — missing values are `null`, maps are plain objects. Every result crosses the
/// boundary through that text, so each `Serialize` impl is compiled once for the whole module
/// (the pretty document text shares it); arguments come in as JSON text too and are read by
/// the non-generic readers of type-owned (see [`opts`]).
pub(crate) fn to_js<T: Serialize>(v: &T) -> Result<JsValue, JsValue> {
    let text = core(crate::calls::to_json(v))?;
    js_sys::JSON::parse(&text)
}

/// Whether a `RangeError` says a string would be too long (V8: "Invalid string length"), not
/// that the stack ran out ("Maximum call stack size exceeded").
fn too_long(e: &JsValue) -> bool {
    e.dyn_ref::<js_sys::Error>()
        .and_then(|e| e.message().as_string())
        .is_some_and(|m| m.contains("string length"))
}

/// `JSON.stringify(v)` with BigInts written as decimal strings (longs may arrive as BigInt);
/// cycles and other unserializable values become a pointed error.
pub(crate) fn json_text(name: &str, v: &JsValue) -> Result<String, JsValue> {
    // Plain values first: a Rust replacer is called across the boundary for every key and
    // value (≈ 70 µs of a 200 µs `validateDesign` on a preset); only a BigInt (or a cycle,
    // which fails again below) makes `JSON.stringify` throw.
    match js_sys::JSON::stringify(v) {
        Ok(s) => {
            return s
                .as_string()
                .ok_or_else(|| bad_arg(name, "a JSON value", v))
        }
        // Only a BigInt (a TypeError) is worth the replacer. Anything else (a RangeError: nested
        // past JavaScript's stack) is said now: the replacer would call into the engine at every
        // level of that nesting and run out of stack inside it, leaving wasm-bindgen's
        // externref table borrowed for good ("slab already borrowed" on every later call).
        Err(e) if !e.is_instance_of::<js_sys::TypeError>() => {
            return Err(match e.is_instance_of::<js_sys::RangeError>() {
                // V8's "Invalid string length": the value's JSON is longer than one string holds
                true if too_long(&e) => js_error(&crate::calls::text_too_long(name)),
                true => js_error(&Error::arg(
                    name,
                    "is nested too deeply to be read (past JavaScript's own stack)",
                )),
                false => js::thrown(name, &e),
            });
        }
        Err(_) => {}
    }
    let replacer =
        Closure::<dyn Fn(JsValue, JsValue) -> JsValue>::new(|_k: JsValue, v: JsValue| {
            if v.is_bigint() {
                v.unchecked_ref::<js_sys::BigInt>()
                    .to_string(10)
                    .map(JsValue::from)
                    .unwrap_or(v)
            } else {
                v
            }
        });
    match js_sys::JSON::stringify_with_replacer(v, replacer.as_ref()) {
        Ok(s) => s
            .as_string()
            .ok_or_else(|| bad_arg(name, "a JSON value", v)),
        Err(e) if e.is_instance_of::<js_sys::TypeError>() => Err(js_error(&Error::arg(
            name,
            "cannot be turned into JSON (a cycle, or a function or symbol inside)",
        ))),
        // a getter, a `toJSON` or a proxy of the caller's threw
        Err(e) => Err(js::thrown(name, &e)),
    }
}

/// A design document argument: a plain object, or its JSON text. Parsed by the core, so
/// errors carry the JSON pointer (`/fields/1/type`), and validated as a whole.
pub(crate) fn doc_arg(name: &str, v: &JsValue) -> Result<crate::design::DesignDocument, JsValue> {
    let text = doc_text(name, v)?;
    core(crate::calls::design(name, &text))
}

/// A design document argument's JSON text: given as text, or an object turned into it.
pub(crate) fn doc_text(name: &str, v: &JsValue) -> Result<String, JsValue> {
    match v.as_string() {
        Some(s) => Ok(s),
        None if v.is_object() => json_text(name, v),
        None => Err(bad_arg(name, "a design document (object or JSON text)", v)),
    }
}

/// [`doc_arg`], or a design that leaves its key's fields to a file of rows (a design that is
/// just a key: `rowsDesign` declares them from the file, then checks it), read unchecked: what
/// takes a design beside its rows (a table's regions, a region plan) takes that one too.
#[cfg(any(feature = "library", feature = "fast"))]
pub(crate) fn doc_arg_for_rows(
    name: &str,
    v: &JsValue,
) -> Result<crate::design::DesignDocument, JsValue> {
    let text = doc_text(name, v)?;
    let unchecked = core(crate::design::DesignDocument::from_json_unchecked(&text))?;
    match unchecked.validate_in(&text) {
        Err(_) if !unchecked.undeclared_key_fields().is_empty() => Ok(unchecked),
        Err(e) => Err(js_error(&e)),
        Ok(()) => Ok(unchecked),
    }
}

/// A JS `Error` whose message is the core error's text, with the pointer kept as properties
/// (`kind`, `path`, `offset`, `line`, `column`) so a UI can highlight the spot.
pub(crate) fn js_error(e: &Error) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    let obj: &JsValue = err.as_ref();
    for (k, v) in crate::calls::error_fields(e) {
        let v = match v {
            serde_json::Value::String(s) => JsValue::from_str(&s),
            v => JsValue::from_f64(v.as_f64().unwrap_or(0.0)),
        };
        let _ = Reflect::set(obj, &JsValue::from_str(k), &v);
    }
    err.into()
}

pub(crate) fn bad_arg(name: &str, expected: &str, got: &JsValue) -> JsValue {
    let what = match got.js_typeof().as_string() {
        Some(t) if got.is_null() => format!("null ({t})"),
        Some(t) => t,
        None => "something else".into(),
    };
    js_error(&Error::arg(
        name,
        format!("expected {expected}, got {what}"),
    ))
}

/// `v` holds no function or symbol and no number that is not finite (JSON.stringify would drop
/// the one and write `null` for the other, and the option would silently take its default:
/// `{windows: () => 1}` ran with the default windows, the months' `{months: NaN}` with 12).
fn plain_data(path: &str, v: &JsValue, depth: usize) -> Result<(), JsValue> {
    if let Some(x) = v.as_f64().filter(|x| !x.is_finite()) {
        // as JavaScript writes it (Rust's own is `inf`)
        let shown = match x {
            x if x.is_nan() => "NaN",
            x if x > 0.0 => "Infinity",
            _ => "-Infinity",
        };
        return Err(js_error(&crate::calls::not_plain(path, shown)));
    }
    if v.is_function() || v.is_symbol() {
        let what = if v.is_function() {
            "a function"
        } else {
            "a symbol"
        };
        return Err(js_error(&crate::calls::not_plain(path, what)));
    }
    // Options nest a few levels; deeper is left to the reader's own nesting limit.
    if depth >= 16 || !v.is_object() || v.is_instance_of::<Uint8Array>() {
        return Ok(());
    }
    for k in js::keys(path, v)?.into_iter().take(10_000) {
        let item = js::get(path, v, &k)?;
        let at = format!(
            "{path}.{}",
            crate::support::json::quote(&k).trim_matches('"')
        );
        plain_data(&at, &item, depth + 1)?;
    }
    Ok(())
}

/// An options argument's JSON text, once it is checked to be plain data ([`plain_data`]).
pub(crate) fn plain_json(name: &str, v: &JsValue) -> Result<String, JsValue> {
    plain_data(name, v, 0)?;
    json_text(name, v)
}

/// Options object -> core option type, read by `f` (one of the type-owned readers: unknown
/// keys are errors; the error names the path of the bad value, `options.typo`).
pub(crate) fn opts<T>(name: &str, v: JsValue, f: fn(&Node) -> R<T>) -> Result<T, JsValue> {
    if v.is_undefined() {
        return Err(bad_arg(name, "an object", &v));
    }
    let text = plain_json(name, &v)?;
    core(crate::calls::options(name, &text, f))
}

/// Analysis options; `undefined` / `null` mean the defaults.
pub(crate) fn analyze_opts(v: JsValue) -> Result<crate::analyze::AnalyzeOptions, JsValue> {
    if v.is_undefined() || v.is_null() {
        return Ok(crate::analyze::AnalyzeOptions::default());
    }
    let text = plain_json("options", &v)?;
    core(crate::calls::analyze_options(Some(&text)))
}

/// A byte array argument: a `Uint8Array` or an array of integers 0..=255.
pub(crate) fn bytes_arg(name: &str, v: &JsValue) -> Result<Vec<u8>, JsValue> {
    if let Some(b) = js::u8_bytes(name, v)? {
        return Ok(b);
    }
    if let Some(items) = js::items(name, v, crate::limits::MAX_LIST_BYTES)? {
        let mut out = Vec::with_capacity(items.len());
        for (i, x) in items.iter().enumerate() {
            match x.as_f64() {
                Some(f) if f.fract() == 0.0 && (0.0..=255.0).contains(&f) => out.push(f as u8),
                _ => {
                    return Err(js_error(
                        &Error::arg(name, format!("item {i} is not a byte 0..=255")).at_offset(i),
                    ))
                }
            }
        }
        return Ok(out);
    }
    Err(bad_arg(name, "a Uint8Array", v))
}

/// A list of byte arrays, its length and bytes checked against
/// [`MAX_LIST_ITEMS`](crate::limits::MAX_LIST_ITEMS) and
/// [`MAX_LIST_BYTES`](crate::limits::MAX_LIST_BYTES) before anything is copied in (and again
/// as each is copied: a proxy's length may lie).
pub(crate) fn bytes_list_arg(name: &str, v: &JsValue) -> Result<Vec<Vec<u8>>, JsValue> {
    use crate::limits::{limit_error, MAX_LIST_BYTES, MAX_LIST_ITEMS};
    let Some(list) = js::items(name, v, MAX_LIST_ITEMS)? else {
        return Err(bad_arg(name, "an array of Uint8Array", v));
    };
    let too_large = |total: usize| {
        let why = "the list is copied into the engine's memory, which it shares with the result";
        let e = limit_error(
            name,
            format!("{total} bytes"),
            format!("{MAX_LIST_BYTES} bytes"),
            why,
        );
        js_error(&e)
    };
    let mut total = 0usize;
    for (i, x) in list.iter().enumerate() {
        let at = format!("{name}[{i}]");
        let len = match js::u8_len(&at, x)? {
            Some(n) => n,
            None if js::is_array(&at, x)? => {
                js::get(&at, x, "length")?.as_f64().unwrap_or(0.0) as usize
            }
            None => 0,
        };
        total = total.saturating_add(len);
    }
    if total > MAX_LIST_BYTES {
        return Err(too_large(total));
    }
    let mut total = 0usize;
    let mut out = Vec::with_capacity(list.len());
    for (i, x) in list.iter().enumerate() {
        let b = bytes_arg(&format!("{name}[{i}]"), x)?;
        total = total.saturating_add(b.len());
        if total > MAX_LIST_BYTES {
            return Err(too_large(total));
        }
        out.push(b);
    }
    Ok(out)
}

/// A string argument as UTF-16 code units, exactly as JS holds it (lone surrogates kept, so
/// Java-string semantics such as `toBytes` turning them into `?` stay exact).
pub(crate) fn utf16_arg(name: &str, v: &JsValue) -> Result<Vec<u16>, JsValue> {
    match v.dyn_ref::<JsString>() {
        Some(s) => Ok(s.iter().collect()),
        None => Err(bad_arg(name, "a string", v)),
    }
}

/// A well-formed string argument (lone surrogates rejected with their position).
pub(crate) fn str_arg(name: &str, v: &JsValue) -> Result<String, JsValue> {
    let units = utf16_arg(name, v)?;
    String::from_utf16(&units).map_err(|_| {
        let at = char::decode_utf16(units.iter().copied())
            .position(|c| c.is_err())
            .unwrap_or(0);
        js_error(&Error::arg(name, format!("lone surrogate at UTF-16 index {at}")).at_offset(at))
    })
}

/// An integer argument within `[min, max]`.
pub(crate) fn int_arg(name: &str, v: &JsValue, min: i64, max: i64) -> Result<i64, JsValue> {
    let Some(f) = v.as_f64() else {
        return Err(bad_arg(name, "a number", v));
    };
    if f.is_nan() || f.fract() != 0.0 || f < min as f64 || f > max as f64 {
        return Err(js_error(&Error::arg(
            name,
            format!(
                "expected an integer in {min}..={max}, got {}",
                crate::support::num_text::plain(f)
            ),
        )));
    }
    Ok(f as i64)
}

pub(crate) fn core<T>(r: crate::error::Result<T>) -> Result<T, JsValue> {
    r.map_err(|e| js_error(&e))
}

pub(crate) fn u8_array(b: &[u8]) -> JsValue {
    Uint8Array::from(b).into()
}

/// Keys laid end to end as `{keys: Uint8Array, offsets: Uint32Array}`, key `i` being
/// `keys.subarray(offsets[i], offsets[i + 1])`: one copy each way, no JS object per key.
pub(crate) fn typed_keys(keys: &[u8], ends: &[usize]) -> Result<js_sys::Object, JsValue> {
    let mut offsets = Vec::with_capacity(ends.len() + 1);
    offsets.push(0u32);
    // A wasm32 `Vec` is under 4 GiB.
    offsets.extend(ends.iter().map(|&e| u32::try_from(e).unwrap_or(u32::MAX)));
    let t = js_sys::Object::new();
    Reflect::set(&t, &"keys".into(), &Uint8Array::from(keys))?;
    Reflect::set(
        &t,
        &"offsets".into(),
        &js_sys::Uint32Array::from(offsets.as_slice()),
    )?;
    Ok(t)
}

pub(crate) fn key_list(keys: &[Vec<u8>]) -> JsValue {
    keys.iter().map(|k| u8_array(k)).collect::<Array>().into()
}
