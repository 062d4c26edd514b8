//! The bytes inspector behind the first page: one typed value -> the bytes HBase stores,
//! their `toStringBinary`, MD5 hex, Java hash code, and the region the bytes fall in for each
//! RegionSplitter algorithm. Values arrive as text (a form field) and are parsed the way
//! Java's `Long.parseLong`, `Double.parseDouble` and `new BigDecimal(String)` would.

use std::str::FromStr;

use serde::Serialize;

use crate::error::{Error, ErrorKind, Result};
use crate::hbase::bytes::{self, BigDecimal};
use crate::hbase::hash;
use crate::hbase::split::{AlgorithmKind, SplitAlgorithm};
use crate::keyspec::FieldType;
use crate::region::RegionMap;
use crate::support::json::{read_object, u32_, Node, R};

/// Largest region count the inspector lists (the page shows every split key).
pub const MAX_INSPECT_REGIONS: u32 = 4096;

/// What to inspect, besides the value itself.
#[derive(Debug, Clone)]
/// JSON: `{"type": "string", "regions": 16}` (read by [`inspect_options`]).
pub struct InspectOptions {
    /// How the value text is parsed and encoded.
    pub value_type: FieldType,
    /// Number of regions for the pre-split tables (2..=4096).
    pub regions: u32,
}

/// A key shown two ways.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyView {
    /// Lowercase hex.
    pub hex: String,
    /// `Bytes.toStringBinary`.
    pub binary: String,
}

impl KeyView {
    /// Both renderings of `b`.
    pub fn of(b: &[u8]) -> Self {
        KeyView {
            hex: bytes::to_hex(b),
            binary: bytes::to_string_binary(b),
        }
    }
}

/// Where the value falls in one pre-split table.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SplitView {
    /// `HexStringSplit`, `DecimalStringSplit` or `UniformSplit`.
    pub algorithm: &'static str,
    /// The N-1 split keys.
    pub split_keys: Vec<KeyView>,
    /// 0-based index of the region holding the value's bytes (`[start, end)` rule).
    pub region: usize,
}

/// Everything the inspector shows for one value.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Inspection {
    /// The encoded bytes.
    pub key: KeyView,
    /// Number of bytes.
    pub length: usize,
    /// `MD5Hash.getMD5AsHex` of the bytes.
    pub md5_hex: String,
    /// `String.hashCode` for strings, `Arrays.hashCode(byte[])` for other types.
    pub hash_code: i32,
    /// Which of the two hash codes `hash_code` is.
    pub hash_code_of: &'static str,
    /// One entry per RegionSplitter algorithm.
    pub splits: Vec<SplitView>,
}

/// Inspect `value` (UTF-16, as a Java or JS string holds it).
pub fn inspect(value: &[u16], opts: &InspectOptions) -> Result<Inspection> {
    if !(2..=MAX_INSPECT_REGIONS).contains(&opts.regions) {
        return Err(Error::arg(
            "regions",
            format!(
                "the inspector lists 2..={MAX_INSPECT_REGIONS} regions, got {}",
                opts.regions
            ),
        ));
    }
    let key = encode_value(opts.value_type, value)?;
    let (hash_code, hash_code_of) = match opts.value_type {
        FieldType::String => (hash::java_string_hash_code(value), "String.hashCode"),
        _ => (hash::arrays_hash_code(&key), "Arrays.hashCode(byte[])"),
    };
    let mut splits = Vec::with_capacity(3);
    for kind in [
        AlgorithmKind::HexString,
        AlgorithmKind::DecimalString,
        AlgorithmKind::Uniform,
    ] {
        let n =
            i32::try_from(opts.regions).map_err(|_| Error::arg("regions", "too many regions"))?;
        let keys = SplitAlgorithm::new(kind).split_n(n)?;
        let map = RegionMap::new(keys)?;
        splits.push(SplitView {
            algorithm: kind.name(),
            region: map.region_of(&key),
            split_keys: map.split_keys().iter().map(|k| KeyView::of(k)).collect(),
        });
    }
    Ok(Inspection {
        length: key.len(),
        md5_hex: hash::md5_as_hex(&key),
        hash_code,
        hash_code_of,
        key: KeyView::of(&key),
        splits,
    })
}

/// Parse `text` as a value of `ty` and encode it with `Bytes.toBytes`.
pub fn encode_value(ty: FieldType, text: &[u16]) -> Result<Vec<u8>> {
    if ty == FieldType::String {
        return Ok(bytes::to_bytes_string(text));
    }
    let s = String::from_utf16(text).map_err(|_| {
        Error::arg(
            "value",
            format!("a {} cannot contain a lone surrogate", ty.name()),
        )
    })?;
    let t = s.trim();
    Ok(match ty {
        FieldType::String => bytes::to_bytes_str(&s),
        FieldType::Long | FieldType::Timestamp => bytes::to_bytes_long(parse_int(t, ty)?).to_vec(),
        FieldType::Int => bytes::to_bytes_int(parse_int(t, ty)?).to_vec(),
        FieldType::Short => bytes::to_bytes_short(parse_int(t, ty)?).to_vec(),
        FieldType::Double => bytes::to_bytes_double(parse_float(t, ty)?).to_vec(),
        FieldType::Float => bytes::to_bytes_float(parse_float(t, ty)?).to_vec(),
        FieldType::Boolean => match t {
            "true" => vec![0xff],
            "false" => vec![0x00],
            _ => {
                return Err(Error::arg(
                    "value",
                    format!(
                        "expected true or false for a boolean, got {}",
                        crate::support::json::quote(t)
                    ),
                ))
            }
        },
        FieldType::BigDecimal => bytes::to_bytes_big_decimal(&parse_big_decimal(t)?),
    })
}

/// Java `Long.parseLong` / `Integer.parseInt` / `Short.parseShort`: optional sign, digits, range.
fn parse_int<T: FromStr>(t: &str, ty: FieldType) -> Result<T> {
    let ok = !t.is_empty()
        && t.trim_start_matches(['+', '-'])
            .chars()
            .all(|c| c.is_ascii_digit());
    let v = if ok { t.parse::<T>().ok() } else { None };
    v.ok_or_else(|| {
        Error::new(
            ErrorKind::NumberFormat,
            format!(
                "expected an integer of type {} (decimal digits in range), got {}",
                ty.name(),
                crate::support::json::quote(t)
            ),
        )
        .at_path("value")
    })
}

/// Java `Double.parseDouble`-like: decimal or exponent notation, `NaN`, `[+-]Infinity`.
fn parse_float<T: FromStr>(t: &str, ty: FieldType) -> Result<T> {
    let special = match t {
        "NaN" => Some("NaN"),
        "Infinity" | "+Infinity" => Some("inf"),
        "-Infinity" => Some("-inf"),
        _ => None,
    };
    let plain = !t.is_empty()
        && t.chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '+' | '-' | '.' | 'e' | 'E'));
    let v = match special {
        Some(s) => s.parse::<T>().ok(),
        None if plain => t.parse::<T>().ok(),
        None => None,
    };
    v.ok_or_else(|| {
        Error::new(
            ErrorKind::NumberFormat,
            format!(
                "expected a number of type {} (e.g. 1.5, -2e10, NaN, Infinity), got {}",
                ty.name(),
                crate::support::json::quote(t)
            ),
        )
        .at_path("value")
    })
}

/// `new BigDecimal(String)` (the key language's parser), as a pointed error.
pub fn parse_big_decimal(t: &str) -> Result<BigDecimal> {
    crate::limits::check_decimal_digits("value", t)?;
    crate::keyspec::value::parse_big_decimal(t).ok_or_else(|| {
        Error::new(
            ErrorKind::NumberFormat,
            format!(
                "expected a BigDecimal such as 12.50 or -1.5E+3, got {}",
                crate::support::json::quote(t)
            ),
        )
        .at_path("value")
    })
}

/// [`InspectOptions`]: `{type, regions}`.
pub fn inspect_options(n: &Node) -> R<InspectOptions> {
    Ok(read_object!(
        n,
        "struct InspectOptions",
        None,
        InspectOptions {
            value_type: req("type", crate::keyspec::read::field_type),
            regions: req("regions", u32_),
        }
    ))
}

crate::support::json::deserialize_through! {
    InspectOptions => inspect_options,
}
