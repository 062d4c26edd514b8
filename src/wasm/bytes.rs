//! Byte encoders, hashes and split keys: `inspect`, `toBytes`, `toStringBinary`,
//! `toBytesBinary`, `compareBytes`, `md5Hex`, `javaHashCode`, `bytesHashCode`, `splitKeys`,
//! `bytesSplit`, `createTableSplitKeys`, `regionOf`.

use wasm_bindgen::prelude::*;

use super::{bytes_arg, core, opts, to_js, utf16_arg};
#[cfg(feature = "library")]
use super::{bytes_list_arg, int_arg, js_error, key_list, str_arg, u8_array};
#[cfg(feature = "library")]
use crate::error::Error;
#[cfg(feature = "library")]
use crate::support::json::{Node, R};

#[cfg(feature = "library")]
fn field_type_arg(name: &str, v: JsValue) -> Result<crate::keyspec::FieldType, JsValue> {
    opts(name, v, crate::keyspec::read::field_type)
}

/// Inspect one value: `inspect("13412341234", {type: "string", regions: 16})` -> bytes (hex and
/// `toStringBinary`), MD5 hex, Java hash code and the region per RegionSplitter algorithm.
#[wasm_bindgen(js_name = inspect)]
pub fn inspect(value: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let value = utf16_arg("value", &value)?;
    let options: crate::inspect::InspectOptions =
        opts("options", options, crate::inspect::inspect_options)?;
    to_js(&core(crate::inspect::inspect(&value, &options))?)
}

/// `Bytes.toBytes` of a value given as text and parsed as `type` (`"string"`, `"long"`, `"int"`,
/// `"short"`, `"double"`, `"float"`, `"boolean"`, `"bigDecimal"`, `"timestamp"`).
#[cfg(feature = "library")]
#[wasm_bindgen(js_name = toBytes)]
pub fn to_bytes(value_type: JsValue, value: JsValue) -> Result<JsValue, JsValue> {
    let ty = field_type_arg("type", value_type)?;
    let value = utf16_arg("value", &value)?;
    Ok(u8_array(&core(crate::inspect::encode_value(ty, &value))?))
}

/// `Bytes.toStringBinary`: printable ASCII as is, every other byte as `\xHH`.
#[wasm_bindgen(js_name = toStringBinary)]
pub fn to_string_binary(bytes: JsValue) -> Result<String, JsValue> {
    Ok(crate::hbase::bytes::to_string_binary(&bytes_arg(
        "bytes", &bytes,
    )?))
}

/// `Bytes.toBytesBinary`: the inverse of `toStringBinary` (uppercase `\xHH` escapes only).
#[cfg(feature = "library")]
#[wasm_bindgen(js_name = toBytesBinary)]
pub fn to_bytes_binary(text: JsValue) -> Result<JsValue, JsValue> {
    Ok(u8_array(&crate::hbase::bytes::to_bytes_binary(&utf16_arg(
        "text", &text,
    )?)))
}

/// Unsigned lexicographic order of two row keys, as HBase sorts them: -1, 0 or 1.
#[cfg(feature = "library")]
#[wasm_bindgen(js_name = compareBytes)]
pub fn compare_bytes(a: JsValue, b: JsValue) -> Result<i32, JsValue> {
    Ok(crate::hbase::bytes::compare_to(&bytes_arg("a", &a)?, &bytes_arg("b", &b)?) as i32)
}

/// `MD5Hash.getMD5AsHex`: 32 lowercase hex digits.
#[cfg(feature = "library")]
#[wasm_bindgen(js_name = md5Hex)]
pub fn md5_hex(bytes: JsValue) -> Result<String, JsValue> {
    Ok(crate::hbase::hash::md5_as_hex(&bytes_arg("bytes", &bytes)?))
}

/// Java `String.hashCode` over the string's UTF-16 code units.
#[cfg(feature = "library")]
#[wasm_bindgen(js_name = javaHashCode)]
pub fn java_hash_code(text: JsValue) -> Result<i32, JsValue> {
    Ok(crate::hbase::hash::java_string_hash_code(&utf16_arg(
        "text", &text,
    )?))
}

/// Java `Arrays.hashCode(byte[])`.
#[cfg(feature = "library")]
#[wasm_bindgen(js_name = bytesHashCode)]
pub fn bytes_hash_code(bytes: JsValue) -> Result<i32, JsValue> {
    Ok(crate::hbase::hash::arrays_hash_code(&bytes_arg(
        "bytes", &bytes,
    )?))
}

/// Options of [`split_keys`]: `{firstRow?, lastRow?}`.
#[cfg(feature = "library")]
#[derive(Default)]
struct SplitKeysOptions {
    first_row: Option<String>,
    last_row: Option<String>,
}

#[cfg(feature = "library")]
fn split_keys_options(n: &Node) -> R<SplitKeysOptions> {
    let o = crate::support::json::Obj::new(
        n,
        "struct SplitKeysOptions",
        &["firstRow", "lastRow"],
        None,
        false,
    )?;
    Ok(SplitKeysOptions {
        first_row: o.opt("firstRow", crate::support::json::string)?,
        last_row: o.opt("lastRow", crate::support::json::string)?,
    })
}

/// RegionSplitter `split(n)`: the n-1 split keys of `"HexStringSplit"`, `"DecimalStringSplit"`
/// or `"UniformSplit"`, optionally with `{firstRow, lastRow}`.
#[cfg(feature = "library")]
#[wasm_bindgen(js_name = splitKeys)]
pub fn split_keys(
    algorithm: JsValue,
    regions: JsValue,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let name = str_arg("algorithm", &algorithm)?;
    let kind = crate::hbase::split::AlgorithmKind::from_name(&name).ok_or_else(|| {
        js_error(&Error::arg(
            "algorithm",
            format!(
                "expected HexStringSplit, DecimalStringSplit or UniformSplit, got {}",
                crate::support::json::quote(&name)
            ),
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
    let keys = crate::hbase::split::presplit_keys(kind, n, first.as_deref(), last.as_deref());
    Ok(key_list(&core(keys)?))
}

/// `Bytes.split(a, b, inclusive, num)`: `num` keys strictly between `a` and `b` plus both ends.
#[cfg(feature = "library")]
#[wasm_bindgen(js_name = bytesSplit)]
pub fn bytes_split(
    a: JsValue,
    b: JsValue,
    num: JsValue,
    inclusive: JsValue,
) -> Result<JsValue, JsValue> {
    let (a, b) = (bytes_arg("a", &a)?, bytes_arg("b", &b)?);
    let num = int_arg("num", &num, i32::MIN as i64, i32::MAX as i64)? as i32;
    // Optional; when given, a boolean (`"true"` must not silently mean false).
    let inclusive = match inclusive.as_bool() {
        Some(b) => b,
        None if inclusive.is_undefined() => false,
        None => return Err(super::bad_arg("inclusive", "true or false", &inclusive)),
    };
    Ok(key_list(&core(crate::hbase::split::bytes_split(
        &a, &b, inclusive, num,
    ))?))
}

/// The split keys `Admin.createTable(desc, start, end, numRegions)` generates.
#[cfg(feature = "library")]
#[wasm_bindgen(js_name = createTableSplitKeys)]
pub fn create_table_split_keys(
    start: JsValue,
    end: JsValue,
    num_regions: JsValue,
) -> Result<JsValue, JsValue> {
    let (s, e) = (bytes_arg("start", &start)?, bytes_arg("end", &end)?);
    let n = int_arg("numRegions", &num_regions, i32::MIN as i64, i32::MAX as i64)? as i32;
    Ok(key_list(&core(
        crate::hbase::split::create_table_split_keys(&s, &e, n),
    )?))
}

/// 0-based index of the region holding `row`, given the table's split keys (`[start, end)`).
#[cfg(feature = "library")]
#[wasm_bindgen(js_name = regionOf)]
pub fn region_of(split_keys: JsValue, row: JsValue) -> Result<u32, JsValue> {
    let keys = bytes_list_arg("splitKeys", &split_keys)?;
    let row = bytes_arg("row", &row)?;
    let map = core(crate::region::RegionMap::new(keys))?;
    Ok(map.region_of(&row) as u32)
}
