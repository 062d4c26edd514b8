//! The JavaScript boundary: the only module that knows about `wasm_bindgen`, `js_sys` and
//! `serde_wasm_bindgen`. Every export is the same three steps — decode arguments (checking
//! their JS types, because wasm-bindgen does not), call one core function, encode the result
//! with the one shared serializer. Nothing here may panic: a panic kills the module for the
//! whole page, so every argument is taken as a `JsValue` and checked.

use js_sys::{Array, JsString, Reflect, Uint8Array};
use serde::{de::DeserializeOwned, Serialize};
use wasm_bindgen::prelude::*;

use crate::error::{Error, ErrorKind};

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

/// The one serializer: missing values as `null`, maps as plain objects, 64-bit ints as numbers
/// when safe.
fn to_js<T: Serialize>(v: &T) -> Result<JsValue, JsValue> {
    let s = serde_wasm_bindgen::Serializer::new()
        .serialize_missing_as_null(true)
        .serialize_maps_as_objects(true);
    v.serialize(&s).map_err(|e| {
        js_error(&Error::new(
            ErrorKind::Invalid,
            format!("cannot encode result: {e}"),
        ))
    })
}

/// A JS `Error` whose message is the core error's text, with the pointer kept as properties
/// (`kind`, `path`, `offset`, `line`, `column`) so a UI can highlight the spot.
fn js_error(e: &Error) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    let obj: &JsValue = err.as_ref();
    let set = |k: &str, v: JsValue| {
        let _ = Reflect::set(obj, &JsValue::from_str(k), &v);
    };
    set("kind", JsValue::from_str(&format!("{:?}", e.kind)));
    set("reason", JsValue::from_str(&e.message));
    if let Some(p) = &e.location.path {
        set("path", JsValue::from_str(p));
    }
    if let Some(o) = e.location.offset {
        set("offset", JsValue::from_f64(o as f64));
    }
    if let (Some(l), Some(c)) = (e.location.line, e.location.column) {
        set("line", JsValue::from_f64(l as f64));
        set("column", JsValue::from_f64(c as f64));
    }
    err.into()
}

fn bad_arg(name: &str, expected: &str, got: &JsValue) -> JsValue {
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

/// Options object -> core option type (`deny_unknown_fields` there turns typos into errors).
fn opts<T: DeserializeOwned>(name: &str, v: JsValue) -> Result<T, JsValue> {
    serde_wasm_bindgen::from_value(v)
        .map_err(|e| js_error(&Error::new(ErrorKind::Invalid, e.to_string()).at_path(name)))
}

/// A byte array argument: a `Uint8Array` or an array of integers 0..=255.
fn bytes_arg(name: &str, v: &JsValue) -> Result<Vec<u8>, JsValue> {
    if let Some(a) = v.dyn_ref::<Uint8Array>() {
        return Ok(a.to_vec());
    }
    if Array::is_array(v) {
        let arr = Array::from(v);
        let mut out = Vec::with_capacity(arr.length() as usize);
        for (i, x) in arr.iter().enumerate() {
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

/// A list of byte arrays.
fn bytes_list_arg(name: &str, v: &JsValue) -> Result<Vec<Vec<u8>>, JsValue> {
    if !Array::is_array(v) {
        return Err(bad_arg(name, "an array of Uint8Array", v));
    }
    Array::from(v)
        .iter()
        .enumerate()
        .map(|(i, x)| bytes_arg(&format!("{name}[{i}]"), &x))
        .collect()
}

/// A string argument as UTF-16 code units, exactly as JS holds it (lone surrogates kept, so
/// Java-string semantics such as `toBytes` turning them into `?` stay exact).
fn utf16_arg(name: &str, v: &JsValue) -> Result<Vec<u16>, JsValue> {
    match v.dyn_ref::<JsString>() {
        Some(s) => Ok(s.iter().collect()),
        None => Err(bad_arg(name, "a string", v)),
    }
}

/// A well-formed string argument (lone surrogates rejected with their position).
fn str_arg(name: &str, v: &JsValue) -> Result<String, JsValue> {
    let units = utf16_arg(name, v)?;
    String::from_utf16(&units).map_err(|_| {
        let at = char::decode_utf16(units.iter().copied())
            .position(|c| c.is_err())
            .unwrap_or(0);
        js_error(&Error::arg(name, format!("lone surrogate at UTF-16 index {at}")).at_offset(at))
    })
}

/// An integer argument within `[min, max]`.
fn int_arg(name: &str, v: &JsValue, min: i64, max: i64) -> Result<i64, JsValue> {
    let Some(f) = v.as_f64() else {
        return Err(bad_arg(name, "a number", v));
    };
    if f.is_nan() || f.fract() != 0.0 || f < min as f64 || f > max as f64 {
        return Err(js_error(&Error::arg(
            name,
            format!("expected an integer in {min}..={max}, got {f}"),
        )));
    }
    Ok(f as i64)
}

fn core<T>(r: crate::error::Result<T>) -> Result<T, JsValue> {
    r.map_err(|e| js_error(&e))
}

/// Result of running one golden-vector line.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct VectorVerdict {
    verdict: &'static str,
    func: String,
    detail: Option<String>,
}

/// Run one golden-vector line (`{"fn","args","expect"}`) through the engine:
/// `{verdict: "pass" | "fail" | "cannotRun", func, detail}`.
#[wasm_bindgen(js_name = runVector)]
pub fn run_vector(line: JsValue) -> Result<JsValue, JsValue> {
    use crate::vectors::{run_line, Verdict};
    let line = str_arg("line", &line)?;
    let v = match run_line(&line) {
        Verdict::Pass => VectorVerdict {
            verdict: "pass",
            func: String::new(),
            detail: None,
        },
        Verdict::Fail {
            func,
            args,
            expected,
            got,
        } => VectorVerdict {
            verdict: "fail",
            func,
            detail: Some(format!("args {args}\nexpected {expected}\ngot {got}")),
        },
        Verdict::CannotRun { func, reason } => VectorVerdict {
            verdict: "cannotRun",
            func,
            detail: Some(reason),
        },
    };
    to_js(&v)
}
