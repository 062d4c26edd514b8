//! A small JSON reader for the documents this crate accepts: one parser into an ordered tree
//! ([`Node`]: keys in document order, duplicates kept, every value with its byte offset),
//! and non-generic helpers that turn a tree into the document types with serde's
//! `deny_unknown_fields` semantics and messages (`unknown field `x`, expected one of …`,
//! `missing field`, `invalid type: string "x", expected u32`), the JSON path of the bad value
//! and its line and column.
//!
//! Why not `serde_json::from_str::<T>` with derives: every derived `Deserialize` is
//! monomorphised per deserializer, per `serde_path_to_error` wrapper and, for internally
//! tagged enums, per `Content` buffer; that was about half of the wasm. Here each document
//! type has one plain function (see [`crate::de`]). Results still go out through
//! `serde_json` (`Serialize` derives), and [`Node::to_value`] gives a `serde_json::Value`
//! where the core wants one (records, generator values).

use serde_json::{Map, Number, Value};

use crate::error::{Error, ErrorKind};

/// Deepest nesting the parser accepts (serde_json's limit too).
const MAX_DEPTH: usize = 128;

/// A parsed JSON value and the byte offset where it starts.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The value.
    pub v: Json,
    /// Byte offset of its first character in the text.
    pub pos: usize,
}

/// A JSON value; objects keep their keys in order (and duplicates, which the readers reject).
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A non-negative integer that fits a `u64`.
    U(u64),
    /// A negative integer that fits an `i64`.
    I(i64),
    /// Any other number.
    F(f64),
    /// A string.
    Str(String),
    /// An array.
    Arr(Vec<Node>),
    /// An object: (key, key offset, value) in document order.
    Obj(Vec<(String, usize, Node)>),
}

/// A path step: an object key or an array index.
#[derive(Debug, Clone, PartialEq)]
enum Seg {
    Key(String),
    Idx(usize),
}

/// A conversion error: the message, the offset of the bad value and its path.
#[derive(Debug, Clone, PartialEq)]
pub struct DeError {
    msg: String,
    pos: usize,
    /// 1-based line and column inside the string value at `pos` (a key design's text form):
    /// reported instead of the document position, since that text is what a user edits.
    within: Option<(usize, usize)>,
    /// Innermost step first (steps are added while the error travels outwards).
    path: Vec<Seg>,
}

/// Result of a conversion.
pub type R<T> = std::result::Result<T, DeError>;

impl DeError {
    /// An error at byte offset `pos`.
    pub fn new(msg: impl Into<String>, pos: usize) -> Self {
        DeError {
            msg: msg.into(),
            pos,
            within: None,
            path: Vec::new(),
        }
    }
    /// The error is at `line`, `column` of the string value's own text.
    pub fn within(mut self, line: usize, column: usize) -> Self {
        self.within = Some((line, column));
        self
    }
    /// The message.
    pub fn message(&self) -> &str {
        &self.msg
    }
    /// Prefix the path with an object key.
    pub fn key(mut self, k: &str) -> Self {
        self.path.push(Seg::Key(k.to_string()));
        self
    }
    /// Prefix the path with an array index.
    pub fn idx(mut self, i: usize) -> Self {
        self.path.push(Seg::Idx(i));
        self
    }
    /// The path as a JSON pointer: `/fields/0/type` (empty at the root).
    pub fn pointer(&self) -> String {
        let mut s = String::new();
        for seg in self.path.iter().rev() {
            s.push('/');
            match seg {
                Seg::Key(k) => s.push_str(k),
                Seg::Idx(i) => s.push_str(&i.to_string()),
            }
        }
        s
    }
    /// The path as `a.b[2].c` (`.` at the root), the form option errors use.
    pub fn dotted(&self) -> String {
        let mut s = String::new();
        for seg in self.path.iter().rev() {
            match seg {
                Seg::Key(k) => {
                    if !s.is_empty() {
                        s.push('.');
                    }
                    s.push_str(k);
                }
                Seg::Idx(i) => {
                    s.push('[');
                    s.push_str(&i.to_string());
                    s.push(']');
                }
            }
        }
        if s.is_empty() {
            s.push('.');
        }
        s
    }
    /// A core error of `kind` at the JSON pointer, with the line and column in `text` (or
    /// inside the string value there, see [`within`](Self::within)).
    pub fn into_error(self, kind: ErrorKind, text: &str) -> Error {
        let (line, col) = self.within.unwrap_or_else(|| line_col(text, self.pos));
        Error::new(kind, self.msg.clone())
            .at_path(self.pointer())
            .at_line_col(line, col)
    }
}

/// 1-based line and column (in characters) of byte offset `pos`.
fn line_col(text: &str, pos: usize) -> (usize, usize) {
    let before = text.get(..pos).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before.get(start..).map_or(0, |s| s.chars().count()) + 1;
    (line, col)
}

// ------------------------------------------------------------------------------------------
// Parser.
// ------------------------------------------------------------------------------------------

struct Parser<'a> {
    b: &'a [u8],
    s: &'a str,
    i: usize,
}

/// Parse JSON text into a tree. Errors are `Parse` errors with line and column and serde_json's
/// wording (`expected value`, `trailing characters`, `EOF while parsing a string`).
pub fn parse(text: &str) -> std::result::Result<Node, Error> {
    parse_node(text).map_err(|e| e.into_error(ErrorKind::Parse, text))
}

/// [`parse`] with the raw conversion error.
pub fn parse_node(text: &str) -> R<Node> {
    let mut p = Parser {
        b: text.as_bytes(),
        s: text,
        i: 0,
    };
    let n = p.value(0)?;
    p.ws();
    if p.i < p.b.len() {
        return Err(DeError::new("trailing characters", p.i));
    }
    Ok(n)
}

/// A serializable value as a `serde_json::Value`, through its JSON text: the same
/// [`crate::jsonw`] code that encodes results, instead of a second serializer
/// (`serde_json::to_value`) compiled for every type.
pub fn to_value<T: serde::Serialize + ?Sized>(v: &T) -> Option<Value> {
    crate::jsonw::to_string(v).and_then(|s| parse_value(&s).ok())
}

/// Parse JSON text into a `serde_json::Value`.
pub fn parse_value(text: &str) -> std::result::Result<Value, Error> {
    parse(text).map(|n| n.to_value())
}

impl Parser<'_> {
    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.i) {
            self.i += 1;
        }
    }
    fn err<T>(&self, msg: &str) -> R<T> {
        Err(DeError::new(msg, self.i))
    }
    fn lit(&mut self, word: &str, v: Json) -> R<Json> {
        if self.s.get(self.i..self.i + word.len()) == Some(word) {
            self.i += word.len();
            Ok(v)
        } else if self.i + word.len() > self.b.len() {
            self.err("EOF while parsing a value")
        } else {
            self.err("expected ident")
        }
    }
    fn value(&mut self, depth: usize) -> R<Node> {
        self.ws();
        let pos = self.i;
        let v = match self.b.get(self.i) {
            None => return self.err("EOF while parsing a value"),
            Some(b'n') => self.lit("null", Json::Null)?,
            Some(b't') => self.lit("true", Json::Bool(true))?,
            Some(b'f') => self.lit("false", Json::Bool(false))?,
            Some(b'"') => Json::Str(self.string()?),
            Some(b'-' | b'0'..=b'9') => self.number()?,
            Some(b'[') => {
                if depth >= MAX_DEPTH {
                    return self.err("recursion limit exceeded");
                }
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.b.get(self.i) == Some(&b']') {
                    self.i += 1;
                } else {
                    loop {
                        items.push(self.value(depth + 1)?);
                        self.ws();
                        match self.b.get(self.i) {
                            Some(b',') => self.i += 1,
                            Some(b']') => {
                                self.i += 1;
                                break;
                            }
                            None => return self.err("EOF while parsing a list"),
                            _ => return self.err("expected `,` or `]`"),
                        }
                    }
                }
                Json::Arr(items)
            }
            Some(b'{') => {
                if depth >= MAX_DEPTH {
                    return self.err("recursion limit exceeded");
                }
                self.i += 1;
                let mut entries = Vec::new();
                self.ws();
                if self.b.get(self.i) == Some(&b'}') {
                    self.i += 1;
                } else {
                    loop {
                        self.ws();
                        let at = self.i;
                        match self.b.get(self.i) {
                            Some(b'"') => {}
                            None => return self.err("EOF while parsing an object"),
                            _ => return self.err("key must be a string"),
                        }
                        let k = self.string()?;
                        self.ws();
                        match self.b.get(self.i) {
                            Some(b':') => self.i += 1,
                            None => return self.err("EOF while parsing an object"),
                            _ => return self.err("expected `:`"),
                        }
                        let v = self.value(depth + 1)?;
                        entries.push((k, at, v));
                        self.ws();
                        match self.b.get(self.i) {
                            Some(b',') => self.i += 1,
                            Some(b'}') => {
                                self.i += 1;
                                break;
                            }
                            None => return self.err("EOF while parsing an object"),
                            _ => return self.err("expected `,` or `}`"),
                        }
                    }
                }
                Json::Obj(entries)
            }
            Some(_) => return self.err("expected value"),
        };
        Ok(Node { v, pos })
    }
    fn hex4(&mut self) -> R<u32> {
        let h = self.s.get(self.i..self.i + 4);
        match h.and_then(|h| u32::from_str_radix(h, 16).ok()) {
            Some(c) if h.is_some_and(|h| h.bytes().all(|b| b.is_ascii_hexdigit())) => {
                self.i += 4;
                Ok(c)
            }
            _ if h.is_none() => self.err("EOF while parsing a string"),
            _ => self.err("invalid escape"),
        }
    }
    fn string(&mut self) -> R<String> {
        self.i += 1; // the opening quote
        let mut out = String::new();
        loop {
            let start = self.i;
            while let Some(&c) = self.b.get(self.i) {
                if c == b'"' || c == b'\\' || c < 0x20 {
                    break;
                }
                self.i += 1;
            }
            out.push_str(self.s.get(start..self.i).unwrap_or(""));
            match self.b.get(self.i) {
                None => return self.err("EOF while parsing a string"),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    let Some(&e) = self.b.get(self.i) else {
                        return self.err("EOF while parsing a string");
                    };
                    self.i += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let c = if (0xD800..0xDC00).contains(&hi) {
                                if self.s.get(self.i..self.i + 2) != Some("\\u") {
                                    return self.err("lone leading surrogate in hex escape");
                                }
                                self.i += 2;
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return self.err("lone leading surrogate in hex escape");
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else {
                                hi
                            };
                            match char::from_u32(c) {
                                Some(c) => out.push(c),
                                None => return self.err("unexpected end of hex escape"),
                            }
                        }
                        _ => {
                            self.i -= 1;
                            return self.err("invalid escape");
                        }
                    }
                }
                Some(_) => {
                    return self
                        .err("control character (\\u0000-\\u001F) found while parsing a string")
                }
            }
        }
    }
    fn digits(&mut self) -> usize {
        let start = self.i;
        while let Some(b'0'..=b'9') = self.b.get(self.i) {
            self.i += 1;
        }
        self.i - start
    }
    fn number(&mut self) -> R<Json> {
        let start = self.i;
        let neg = self.b.get(self.i) == Some(&b'-');
        if neg {
            self.i += 1;
        }
        let int_start = self.i;
        match self.digits() {
            0 => return self.err("invalid number"),
            n if n > 1 && self.b.get(int_start) == Some(&b'0') => {
                self.i = int_start + 1;
                return self.err("invalid number");
            }
            _ => {}
        }
        let mut float = false;
        if self.b.get(self.i) == Some(&b'.') {
            self.i += 1;
            float = true;
            if self.digits() == 0 {
                return self.err("invalid number");
            }
        }
        if let Some(b'e' | b'E') = self.b.get(self.i) {
            self.i += 1;
            float = true;
            if let Some(b'+' | b'-') = self.b.get(self.i) {
                self.i += 1;
            }
            if self.digits() == 0 {
                return self.err("invalid number");
            }
        }
        let text = self.s.get(start..self.i).unwrap_or("");
        if !float {
            let digits = self.s.get(int_start..self.i).unwrap_or("");
            if let Ok(u) = digits.parse::<u64>() {
                if !neg {
                    return Ok(Json::U(u));
                }
                // serde_json: `-0` is a float, other negatives an i64 when they fit.
                if u != 0 && u <= 1u64 << 63 {
                    return Ok(Json::I((u as i64).wrapping_neg()));
                }
            }
        }
        match text.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(Json::F(f)),
            _ => Err(DeError::new("number out of range", start)),
        }
    }
}

impl Node {
    /// The tree as a `serde_json::Value` (a later duplicate key wins, as in serde_json).
    pub fn to_value(&self) -> Value {
        match &self.v {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::U(u) => Value::Number(Number::from(*u)),
            Json::I(i) => Value::Number(Number::from(*i)),
            Json::F(f) => Number::from_f64(*f).map_or(Value::Null, Value::Number),
            Json::Str(s) => Value::String(s.clone()),
            Json::Arr(a) => Value::Array(a.iter().map(Node::to_value).collect()),
            Json::Obj(o) => Value::Object(
                o.iter()
                    .map(|(k, _, v)| (k.clone(), v.to_value()))
                    .collect::<Map<String, Value>>(),
            ),
        }
    }

    /// A tree from a `serde_json::Value` (offsets 0), for values that arrive as `Value`.
    pub fn from_value(v: &Value) -> Node {
        let v = match v {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Number(n) => match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => Json::U(u),
                (_, Some(i)) => Json::I(i),
                _ => Json::F(n.as_f64().unwrap_or(0.0)),
            },
            Value::String(s) => Json::Str(s.clone()),
            Value::Array(a) => Json::Arr(a.iter().map(Node::from_value).collect()),
            Value::Object(o) => Json::Obj(
                o.iter()
                    .map(|(k, v)| (k.clone(), 0, Node::from_value(v)))
                    .collect(),
            ),
        };
        Node { v, pos: 0 }
    }

    /// serde's description of a value in `invalid type` messages.
    fn unexpected(&self) -> String {
        match &self.v {
            Json::Null => "null".into(),
            Json::Bool(b) => format!("boolean `{b}`"),
            Json::U(u) => format!("integer `{u}`"),
            Json::I(i) => format!("integer `{i}`"),
            Json::F(f) => format!("floating point `{f}`"),
            Json::Str(s) => format!("string {}", crate::jsonw::quote(s)),
            Json::Arr(_) => "sequence".into(),
            Json::Obj(_) => "map".into(),
        }
    }

    /// `invalid type: <what this is>, expected <expected>`.
    pub fn invalid_type(&self, expected: &str) -> DeError {
        DeError::new(
            format!("invalid type: {}, expected {expected}", self.unexpected()),
            self.pos,
        )
    }

    /// A custom error at this value.
    pub fn error(&self, msg: impl Into<String>) -> DeError {
        DeError::new(msg, self.pos)
    }
}

// ------------------------------------------------------------------------------------------
// Readers for scalars, lists and maps.
// ------------------------------------------------------------------------------------------

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

    /// A field with a default when absent (`null` is not absent, as with serde's `default`).
    pub fn or<T>(&self, key: &str, f: fn(&Node) -> R<T>, default: T) -> R<T> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => f(v).map_err(|e| e.key(key)),
        }
    }
}

/// The variant of an internally tagged enum: the index of the `tag` value in `variants`.
pub fn tag(n: &Node, what: &str, tag: &str, variants: &[&str]) -> R<usize> {
    let Json::Obj(entries) = &n.v else {
        return Err(n.invalid_type(what));
    };
    let Some((_, _, t)) = entries.iter().find(|(k, _, _)| k == tag) else {
        return Err(n.error(format!("missing field `{tag}`")));
    };
    let Json::Str(s) = &t.v else {
        return Err(t.invalid_type("variant identifier").key(tag));
    };
    variants.iter().position(|v| v == s).ok_or_else(|| {
        t.error(format!(
            "unknown variant `{s}`, expected {}",
            one_of(variants)
        ))
        .key(tag)
    })
}

#[cfg(test)]
mod tests;
