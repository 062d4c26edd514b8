//! The JavaScript boundary: the only module that knows about `wasm_bindgen`, `js_sys` and
//! `serde_wasm_bindgen`. Every export is the same three steps — decode arguments (checking
//! their JS types, because wasm-bindgen does not), call one core function, encode the result
//! with the one shared serializer. Nothing here may panic: a panic kills the module for the
//! whole page, so every argument is taken as a `JsValue` and checked.

use js_sys::{Array, JsString, Reflect, Uint8Array};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::error::{Error, ErrorKind};
use crate::json::{Node, R};

// Binding files by area; each is thin: decode, call the core, encode.
pub mod analyze;
pub mod keyspec;
pub mod presets;

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

/// The one serializer: serde_json text, parsed by the JS engine's `JSON.parse` — missing
/// values are `null`, maps are plain objects. Every result crosses the boundary through
/// serde_json text, so each `Serialize` impl is compiled once for the whole module; arguments
/// come in as JSON text too and are read by the non-generic readers of [`crate::de`] (see
/// [`opts`]).
pub(crate) fn to_js<T: Serialize>(v: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(v).map_err(|e| {
        js_error(&Error::new(
            ErrorKind::Invalid,
            format!("cannot encode result: {e}"),
        ))
    })?;
    js_sys::JSON::parse(&text)
}

/// `JSON.stringify(v)` with BigInts written as decimal strings (longs may arrive as BigInt);
/// cycles and other unserializable values become a pointed error.
pub(crate) fn json_text(name: &str, v: &JsValue) -> Result<String, JsValue> {
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
        Err(_) => Err(js_error(&Error::arg(
            name,
            "cannot be turned into JSON (a cycle, or a function or symbol inside)",
        ))),
    }
}

/// A design document argument: a plain object, or its JSON text. Parsed by the core, so
/// errors carry the JSON pointer (`/fields/1/type`), and validated as a whole.
pub(crate) fn doc_arg(name: &str, v: &JsValue) -> Result<crate::design::DesignDocument, JsValue> {
    let text = match v.as_string() {
        Some(s) => s,
        None if v.is_object() => json_text(name, v)?,
        None => return Err(bad_arg(name, "a design document (object or JSON text)", v)),
    };
    core(crate::design::DesignDocument::from_json(&text).map_err(
        |e| match e.location.path.clone() {
            Some(p) if name != "doc" => e.at_path(format!("{name}{p}")),
            _ => e,
        },
    ))
}

/// A JS `Error` whose message is the core error's text, with the pointer kept as properties
/// (`kind`, `path`, `offset`, `line`, `column`) so a UI can highlight the spot.
pub(crate) fn js_error(e: &Error) -> JsValue {
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

/// Options object -> core option type, read by `f` (one of the [`crate::de`] readers: unknown
/// keys are errors; the error names the path of the bad value, `options.typo`).
pub(crate) fn opts<T>(name: &str, v: JsValue, f: fn(&Node) -> R<T>) -> Result<T, JsValue> {
    if v.is_undefined() {
        return Err(bad_arg(name, "an object", &v));
    }
    let text = json_text(name, &v)?;
    crate::json::parse_node(&text)
        .and_then(|n| f(&n))
        .map_err(|e| {
            let path = e.dotted();
            let at = if path == "." {
                name.to_string()
            } else {
                format!("{name}.{path}")
            };
            js_error(&Error::new(ErrorKind::Invalid, e.message()).at_path(at))
        })
}

/// A byte array argument: a `Uint8Array` or an array of integers 0..=255.
pub(crate) fn bytes_arg(name: &str, v: &JsValue) -> Result<Vec<u8>, JsValue> {
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
pub(crate) fn bytes_list_arg(name: &str, v: &JsValue) -> Result<Vec<Vec<u8>>, JsValue> {
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
            format!("expected an integer in {min}..={max}, got {f}"),
        )));
    }
    Ok(f as i64)
}

pub(crate) fn core<T>(r: crate::error::Result<T>) -> Result<T, JsValue> {
    r.map_err(|e| js_error(&e))
}

#[cfg(feature = "vectors")]
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
#[cfg(feature = "vectors")]
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

pub(crate) fn u8_array(b: &[u8]) -> JsValue {
    Uint8Array::from(b).into()
}

pub(crate) fn key_list(keys: &[Vec<u8>]) -> JsValue {
    keys.iter().map(|k| u8_array(k)).collect::<Array>().into()
}

fn field_type_arg(name: &str, v: JsValue) -> Result<crate::design::FieldType, JsValue> {
    opts(name, v, crate::de::field_type)
}

/// Inspect one value: `inspect("13412341234", {type: "string", regions: 16})` -> bytes (hex and
/// `toStringBinary`), MD5 hex, Java hash code and the region per RegionSplitter algorithm.
#[wasm_bindgen(js_name = inspect)]
pub fn inspect(value: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let value = utf16_arg("value", &value)?;
    let options: crate::inspect::InspectOptions =
        opts("options", options, crate::de::inspect_options)?;
    to_js(&core(crate::inspect::inspect(&value, &options))?)
}

/// `Bytes.toBytes` of a value given as text and parsed as `type` (`"string"`, `"long"`, `"int"`,
/// `"short"`, `"double"`, `"float"`, `"boolean"`, `"bigDecimal"`, `"timestamp"`).
#[wasm_bindgen(js_name = toBytes)]
pub fn to_bytes(value_type: JsValue, value: JsValue) -> Result<JsValue, JsValue> {
    let ty = field_type_arg("type", value_type)?;
    let value = utf16_arg("value", &value)?;
    Ok(u8_array(&core(crate::inspect::encode_value(ty, &value))?))
}

/// `Bytes.toStringBinary`: printable ASCII as is, every other byte as `\xHH`.
#[wasm_bindgen(js_name = toStringBinary)]
pub fn to_string_binary(bytes: JsValue) -> Result<String, JsValue> {
    Ok(crate::bytes::to_string_binary(&bytes_arg("bytes", &bytes)?))
}

/// `Bytes.toBytesBinary`: the inverse of `toStringBinary` (uppercase `\xHH` escapes only).
#[wasm_bindgen(js_name = toBytesBinary)]
pub fn to_bytes_binary(text: JsValue) -> Result<JsValue, JsValue> {
    Ok(u8_array(&crate::bytes::to_bytes_binary(&utf16_arg(
        "text", &text,
    )?)))
}

/// Unsigned lexicographic order of two row keys, as HBase sorts them: -1, 0 or 1.
#[wasm_bindgen(js_name = compareBytes)]
pub fn compare_bytes(a: JsValue, b: JsValue) -> Result<i32, JsValue> {
    Ok(crate::bytes::compare_to(&bytes_arg("a", &a)?, &bytes_arg("b", &b)?) as i32)
}

/// `MD5Hash.getMD5AsHex`: 32 lowercase hex digits.
#[wasm_bindgen(js_name = md5Hex)]
pub fn md5_hex(bytes: JsValue) -> Result<String, JsValue> {
    Ok(crate::hash::md5_as_hex(&bytes_arg("bytes", &bytes)?))
}

/// Java `String.hashCode` over the string's UTF-16 code units.
#[wasm_bindgen(js_name = javaHashCode)]
pub fn java_hash_code(text: JsValue) -> Result<i32, JsValue> {
    Ok(crate::hash::java_string_hash_code(&utf16_arg(
        "text", &text,
    )?))
}

/// Java `Arrays.hashCode(byte[])`.
#[wasm_bindgen(js_name = bytesHashCode)]
pub fn bytes_hash_code(bytes: JsValue) -> Result<i32, JsValue> {
    Ok(crate::hash::arrays_hash_code(&bytes_arg("bytes", &bytes)?))
}

/// Options of [`split_keys`]: `{firstRow?, lastRow?}`.
#[derive(Default)]
struct SplitKeysOptions {
    first_row: Option<String>,
    last_row: Option<String>,
}

fn split_keys_options(n: &Node) -> R<SplitKeysOptions> {
    let o = crate::json::Obj::new(
        n,
        "struct SplitKeysOptions",
        &["firstRow", "lastRow"],
        None,
        false,
    )?;
    Ok(SplitKeysOptions {
        first_row: o.opt("firstRow", crate::json::string)?,
        last_row: o.opt("lastRow", crate::json::string)?,
    })
}

/// RegionSplitter `split(n)`: the n-1 split keys of `"HexStringSplit"`, `"DecimalStringSplit"`
/// or `"UniformSplit"`, optionally with `{firstRow, lastRow}`.
#[wasm_bindgen(js_name = splitKeys)]
pub fn split_keys(
    algorithm: JsValue,
    regions: JsValue,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let name = str_arg("algorithm", &algorithm)?;
    let kind = crate::split::AlgorithmKind::from_name(&name).ok_or_else(|| {
        js_error(&Error::arg(
            "algorithm",
            format!("expected HexStringSplit, DecimalStringSplit or UniformSplit, got {name:?}"),
        ))
    })?;
    let n = int_arg("regions", &regions, i32::MIN as i64, i32::MAX as i64)?;
    let o: SplitKeysOptions = if options.is_undefined() || options.is_null() {
        SplitKeysOptions::default()
    } else {
        opts("options", options, split_keys_options)?
    };
    let first: Option<Vec<u16>> = o.first_row.map(|f| f.encode_utf16().collect());
    let last: Option<Vec<u16>> = o.last_row.map(|l| l.encode_utf16().collect());
    let keys = crate::split::presplit_keys(kind, n, first.as_deref(), last.as_deref());
    Ok(key_list(&core(keys)?))
}

/// `Bytes.split(a, b, inclusive, num)`: `num` keys strictly between `a` and `b` plus both ends.
#[wasm_bindgen(js_name = bytesSplit)]
pub fn bytes_split(
    a: JsValue,
    b: JsValue,
    num: JsValue,
    inclusive: JsValue,
) -> Result<JsValue, JsValue> {
    let (a, b) = (bytes_arg("a", &a)?, bytes_arg("b", &b)?);
    let num = int_arg("num", &num, i32::MIN as i64, i32::MAX as i64)? as i32;
    let inclusive = inclusive.as_bool().unwrap_or(false);
    Ok(key_list(&core(crate::split::bytes_split(
        &a, &b, inclusive, num,
    ))?))
}

/// The split keys `Admin.createTable(desc, start, end, numRegions)` generates.
#[wasm_bindgen(js_name = createTableSplitKeys)]
pub fn create_table_split_keys(
    start: JsValue,
    end: JsValue,
    num_regions: JsValue,
) -> Result<JsValue, JsValue> {
    let (s, e) = (bytes_arg("start", &start)?, bytes_arg("end", &end)?);
    let n = int_arg("numRegions", &num_regions, i32::MIN as i64, i32::MAX as i64)? as i32;
    Ok(key_list(&core(crate::split::create_table_split_keys(
        &s, &e, n,
    ))?))
}

/// 0-based index of the region holding `row`, given the table's split keys (`[start, end)`).
#[wasm_bindgen(js_name = regionOf)]
pub fn region_of(split_keys: JsValue, row: JsValue) -> Result<u32, JsValue> {
    let keys = bytes_list_arg("splitKeys", &split_keys)?;
    let row = bytes_arg("row", &row)?;
    let map = core(crate::region::RegionMap::new(keys))?;
    Ok(map.region_of(&row) as u32)
}
