//! Readers for scalars, lists and maps: a [`Node`] to a Rust value with serde's messages
//! (`invalid type: string "x", expected u32`, `unknown field`, `missing field`), and [`Obj`],
//! an object read field by field with `deny_unknown_fields`.

use serde_json::{Map, Value};

use super::{DeError, Json, Node, Variant, R};

/// An unsigned integer `<= max`; `what` names the type in messages (`u32`).
pub fn uint(n: &Node, max: u64, what: &str) -> R<u64> {
    match n.v {
        Json::U(u) if u <= max => Ok(u),
        Json::U(_) | Json::I(_) => Err(DeError::new(
            format!("invalid value: {}, expected {what}", n.unexpected()),
            n.pos,
        )),
        _ => Err(n.invalid_type(what)),
    }
}

/// A signed integer in `min..=max`.
pub fn sint(n: &Node, min: i64, max: i64, what: &str) -> R<i64> {
    let v = match n.v {
        Json::U(u) => i64::try_from(u).ok(),
        Json::I(i) => Some(i),
        _ => return Err(n.invalid_type(what)),
    };
    match v {
        Some(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(DeError::new(
            format!("invalid value: {}, expected {what}", n.unexpected()),
            n.pos,
        )),
    }
}

/// A `u8`.
pub fn u8_(n: &Node) -> R<u8> {
    uint(n, u8::MAX.into(), "u8").map(|v| v as u8)
}
/// A `u32`.
pub fn u32_(n: &Node) -> R<u32> {
    uint(n, u32::MAX.into(), "u32").map(|v| v as u32)
}
/// A `u64`.
pub fn u64_(n: &Node) -> R<u64> {
    uint(n, u64::MAX, "u64")
}
/// An `i32`.
pub fn i32_(n: &Node) -> R<i32> {
    sint(n, i32::MIN.into(), i32::MAX.into(), "i32").map(|v| v as i32)
}
/// An `i64`.
pub fn i64_(n: &Node) -> R<i64> {
    sint(n, i64::MIN, i64::MAX, "i64")
}
/// A size in bytes, `u64`: a number, or text with a unit as a person writes it (`4 MiB`,
/// `10 GiB`, `512 KB`, `1.5 GB`): KiB, MiB, GiB, TiB are powers of 1024, KB, MB, GB, TB powers
/// of 1000, `B` or no unit bytes. The size must come out a whole number of bytes.
pub fn bytes_u64(n: &Node) -> R<u64> {
    match &n.v {
        Json::Str(s) => size_text(s).ok_or_else(|| {
            n.error(format!(
                "`{s}` is not a size: give bytes as a number, or a number and a unit (B, KB, MB, GB, TB, KiB, MiB, GiB, TiB) such as 4 MiB"
            ))
        }),
        _ => u64_(n),
    }
}
/// A size in bytes as [`bytes_u64`], for members kept as `i64` (HBase's `long` sizes).
pub fn bytes_i64(n: &Node) -> R<i64> {
    match &n.v {
        Json::Str(_) => bytes_u64(n).and_then(|v| {
            i64::try_from(v).map_err(|_| n.error(format!("{v} bytes is more than a long holds")))
        }),
        _ => i64_(n),
    }
}
/// `text` as a whole number of bytes (see [`bytes_u64`]); `None` when it is not one.
pub fn size_text(text: &str) -> Option<u64> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let unit: u64 = match unit.trim() {
        "" | "B" => 1,
        "KB" | "kB" => 1_000,
        "MB" => 1_000_000,
        "GB" => 1_000_000_000,
        "TB" => 1_000_000_000_000,
        "KiB" => 1 << 10,
        "MiB" => 1 << 20,
        "GiB" => 1 << 30,
        "TiB" => 1 << 40,
        _ => return None,
    };
    // decimal digits exactly: `1.5 GB` is 1,500,000,000 bytes, never a float's rounding
    let (whole, frac) = num.split_once('.').unwrap_or((num, ""));
    if whole.is_empty() && frac.is_empty()
        || !whole
            .bytes()
            .chain(frac.bytes())
            .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let scale = 10u64.checked_pow(u32::try_from(frac.len()).ok()?)?;
    let digits: u64 = format!("{whole}{frac}").parse().ok()?;
    let bytes = u128::from(digits) * u128::from(unit);
    (bytes % u128::from(scale) == 0)
        .then(|| u64::try_from(bytes / u128::from(scale)).ok())
        .flatten()
}
/// An `f64` (integers too).
pub fn f64_(n: &Node) -> R<f64> {
    match n.v {
        Json::U(u) => Ok(u as f64),
        Json::I(i) => Ok(i as f64),
        Json::F(f) => Ok(f),
        _ => Err(n.invalid_type("f64")),
    }
}
/// A boolean.
pub fn bool_(n: &Node) -> R<bool> {
    match n.v {
        Json::Bool(b) => Ok(b),
        _ => Err(n.invalid_type("a boolean")),
    }
}
/// A string.
pub fn string(n: &Node) -> R<String> {
    match &n.v {
        Json::Str(s) => Ok(s.clone()),
        _ => Err(n.invalid_type("a string")),
    }
}
/// Any JSON value.
pub fn value(n: &Node) -> R<Value> {
    Ok(n.to_value())
}
/// An object of any values (a record).
pub fn map(n: &Node) -> R<Map<String, Value>> {
    match n.to_value() {
        Value::Object(m) => Ok(m),
        _ => Err(n.invalid_type("a map")),
    }
}
/// An array whose items `f` reads; errors get the item index in their path.
pub fn list<T>(n: &Node, f: fn(&Node) -> R<T>) -> R<Vec<T>> {
    match &n.v {
        Json::Arr(a) => a
            .iter()
            .enumerate()
            .map(|(i, x)| f(x).map_err(|e| e.idx(i)))
            .collect(),
        _ => Err(n.invalid_type("a sequence")),
    }
}
/// A list of strings.
pub fn strings(n: &Node) -> R<Vec<String>> {
    list(n, string)
}
/// A list of numbers.
pub fn f64s(n: &Node) -> R<Vec<f64>> {
    list(n, f64_)
}
/// A list of JSON values.
pub fn values(n: &Node) -> R<Vec<Value>> {
    list(n, value)
}

/// `a`, `a` or `b`, `one of `a`, `b`, `c`` — serde's list of what was expected.
fn one_of(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.as_slice() {
        [] => String::new(),
        [a] => a.clone(),
        [a, b] => format!("{a} or {b}"),
        _ => format!("one of {}", quoted.join(", ")),
    }
}

/// A unit variant written as a string: the value paired with `name` in `variants`.
pub fn unit<T: Copy>(n: &Node, variants: &[(&str, T)]) -> R<T> {
    let Json::Str(s) = &n.v else {
        return Err(n.invalid_type("a variant name"));
    };
    match variants.iter().find(|(name, _)| name == s) {
        Some((_, v)) => Ok(*v),
        None => {
            let names: Vec<&str> = variants.iter().map(|(n, _)| *n).collect();
            Err(n.error(format!(
                "unknown variant `{s}`, expected {}",
                one_of(&names)
            )))
        }
    }
}

/// An object being read as a struct: the known field names are checked up front (unknown
/// ones rejected unless `lenient`, duplicates always).
pub struct Obj<'a> {
    node: &'a Node,
    entries: &'a [(String, usize, Node)],
}

impl<'a> Obj<'a> {
    /// Read `n` as an object with `fields`; `skip` is an internally tagged enum's tag,
    /// `lenient` accepts unknown keys (types without `deny_unknown_fields`).
    pub fn new(
        n: &'a Node,
        what: &str,
        fields: &[&str],
        skip: Option<&str>,
        lenient: bool,
    ) -> R<Obj<'a>> {
        let Json::Obj(entries) = &n.v else {
            return Err(n.invalid_type(what));
        };
        for (i, (k, at, _)) in entries.iter().enumerate() {
            if Some(k.as_str()) == skip {
                continue;
            }
            if !fields.contains(&k.as_str()) {
                if lenient {
                    continue;
                }
                let msg = if fields.is_empty() {
                    format!("unknown field `{k}`, there are no fields")
                } else {
                    format!("unknown field `{k}`, expected {}", one_of(fields))
                };
                return Err(DeError::new(msg, *at).key(k));
            }
            if entries.iter().take(i).any(|(j, _, _)| j == k) {
                return Err(DeError::new(format!("duplicate field `{k}`"), *at).key(k));
            }
        }
        Ok(Obj { node: n, entries })
    }

    /// The value of `key`, if present.
    pub fn get(&self, key: &str) -> Option<&'a Node> {
        self.entries
            .iter()
            .find(|(k, _, _)| k == key)
            .map(|(_, _, v)| v)
    }

    /// A required field.
    pub fn req<T>(&self, key: &str, f: fn(&Node) -> R<T>) -> R<T> {
        match self.get(key) {
            Some(v) => f(v).map_err(|e| e.key(key)),
            None => Err(self.node.error(format!("missing field `{key}`"))),
        }
    }

    /// An optional field: absent or `null` is `None`.
    pub fn opt<T>(&self, key: &str, f: fn(&Node) -> R<T>) -> R<Option<T>> {
        match self.get(key) {
            None => Ok(None),
            Some(Node { v: Json::Null, .. }) => Ok(None),
            Some(v) => f(v).map(Some).map_err(|e| e.key(key)),
        }
    }

    /// An optional field that is a value when present: absent is `None`, `null` goes to `f`
    /// (which refuses it, where a name must be given).
    pub fn some<T>(&self, key: &str, f: fn(&Node) -> R<T>) -> R<Option<T>> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => f(v).map(Some).map_err(|e| e.key(key)),
        }
    }

    /// A field that goes over a value set elsewhere (a run's option over the design's own):
    /// absent is `None` (the value underneath stays); `null` is `Some(reset)`, the value the
    /// member has when nothing sets it (as a `null` member once merged over the design's and
    /// then dropped did).
    pub fn over<T>(&self, key: &str, f: fn(&Node) -> R<T>, reset: T) -> R<Option<T>> {
        match self.get(key) {
            None => Ok(None),
            Some(Node { v: Json::Null, .. }) => Ok(Some(reset)),
            Some(v) => f(v).map(Some).map_err(|e| e.key(key)),
        }
    }

    /// [`over`](Self::over) for a member that may be unset: absent is `None`, `null` is
    /// `Some(None)` (unset over whatever was set underneath), a value `Some(Some(v))`.
    pub fn nullable<T>(&self, key: &str, f: fn(&Node) -> R<T>) -> R<Option<Option<T>>> {
        match self.get(key) {
            None => Ok(None),
            Some(Node { v: Json::Null, .. }) => Ok(Some(None)),
            Some(v) => f(v).map(|x| Some(Some(x))).map_err(|e| e.key(key)),
        }
    }

    /// A field with a default when absent (`null` is not absent, as with serde's `default`).
    pub fn or<T>(&self, key: &str, f: fn(&Node) -> R<T>, default: T) -> R<T> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => f(v).map_err(|e| e.key(key)),
        }
    }
}

/// The variant of an internally tagged enum: the name in `table` that the `tag` member holds.
pub fn tag_variant(n: &Node, what: &str, tag: &str, table: &[Variant]) -> R<&'static str> {
    let Json::Obj(entries) = &n.v else {
        return Err(n.invalid_type(what));
    };
    let Some((_, _, t)) = entries.iter().find(|(k, _, _)| k == tag) else {
        return Err(n.error(format!("missing field `{tag}`")));
    };
    let Json::Str(s) = &t.v else {
        return Err(t.invalid_type("variant identifier").key(tag));
    };
    match table.iter().find(|v| v.name == s) {
        Some(v) => Ok(v.name),
        None => Err(unknown_variant(n, tag, table)),
    }
}

/// serde's error for a tag value that names no variant of `table`.
pub fn unknown_variant(n: &Node, tag: &str, table: &[Variant]) -> DeError {
    let Json::Obj(entries) = &n.v else {
        return n.invalid_type("an internally tagged enum");
    };
    let (value, at) = match entries.iter().find(|(k, _, _)| k == tag) {
        Some((_, _, t)) => (
            match &t.v {
                Json::Str(s) => s.as_str(),
                _ => "",
            },
            t,
        ),
        None => ("", n),
    };
    let names: Vec<&str> = table.iter().map(|v| v.name).collect();
    at.error(format!(
        "unknown variant `{value}`, expected {}",
        one_of(&names)
    ))
    .key(tag)
}
