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
//! type has one plain function, in the module that owns the type (`keyspec::read`, `workload::read`, …). Results still go out through
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
pub(crate) fn line_col(text: &str, pos: usize) -> (usize, usize) {
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
    /// Bare `NaN`, `Infinity` and `-Infinity` (and numbers past `f64`) read as non-finite
    /// numbers instead of refused: what Hadoop's JMX servlet writes for a gauge with no value.
    non_finite: bool,
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
        non_finite: false,
    };
    let n = p.value(0)?;
    p.ws();
    if p.i < p.b.len() {
        return Err(DeError::new("trailing characters", p.i));
    }
    Ok(n)
}

/// The JSON value at `from` in `text`, and the byte offset just after it: for text that holds
/// JSON documents among other lines (several `/jmx` dumps pasted one after another). Errors
/// carry the line and column in the whole `text`. Hadoop's `JMXJsonServlet` writes a gauge
/// with no value as a bare `NaN` or `Infinity` (not JSON): read as a [`Json::F`] that is not
/// finite (an unknown value), as is a number past `f64`, instead of refusing the whole dump.
pub fn parse_prefix(text: &str, from: usize) -> std::result::Result<(Node, usize), Error> {
    let mut p = Parser {
        b: text.as_bytes(),
        s: text,
        i: from,
        non_finite: true,
    };
    match p.value(0) {
        Ok(n) => Ok((n, p.i)),
        Err(e) => Err(e.into_error(ErrorKind::Parse, text)),
    }
}

/// A serializable value as a `serde_json::Value`.
pub fn to_value<T: ::serde::Serialize + ?Sized>(v: &T) -> Option<Value> {
    serde_json::to_value(v).ok()
}

/// Parse JSON text into a `serde_json::Value` (the golden-vector lines).
#[cfg(any(test, feature = "vectors"))]
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
            Some(b'N') if self.non_finite => self.lit("NaN", Json::F(f64::NAN))?,
            Some(b'I') if self.non_finite => self.lit("Infinity", Json::F(f64::INFINITY))?,
            Some(b'-') if self.non_finite && self.b.get(self.i + 1) == Some(&b'I') => {
                self.i += 1;
                self.lit("Infinity", Json::F(f64::NEG_INFINITY))?
            }
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
            Ok(f) if f.is_finite() || self.non_finite => Ok(Json::F(f)),
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
            Json::Obj(o) => {
                // Inserted one by one: collecting into the map sorts the entries first with a
                // stable sort (driftsort, several kB of wasm) that nothing else needs.
                let mut m = Map::new();
                for (k, _, v) in o {
                    m.insert(k.clone(), v.to_value());
                }
                Value::Object(m)
            }
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
            Json::F(f) => format!("floating point `{}`", crate::support::num_text::plain(*f)),
            Json::Str(s) => format!("string {}", crate::support::json::quote(s)),
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

mod members;
mod read;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) use members::member_takes_null;
pub(crate) use members::{
    member_default, member_options, member_range, member_required, member_table, object_reader,
    read_object, tagged_reader,
};
pub use members::{names, value_kind, Member, Variant};
pub use read::*;

/// The characters of the user's text a message shows ([`quote`], [`clip`]).
const SHOWN: usize = 64;

/// `s` as a JSON string literal, for messages that quote user text unambiguously; past 64
/// characters its start and its length (a pasted megabyte must not become the message).
pub(crate) fn quote(s: &str) -> String {
    match s.char_indices().nth(SHOWN) {
        None => serde_json::to_string(s).unwrap_or_default(),
        Some((cut, _)) => {
            let head = serde_json::to_string(s.get(..cut).unwrap_or_default()).unwrap_or_default();
            let total = s.chars().count();
            format!("{}…\" ({total} characters)", head.trim_end_matches('"'))
        }
    }
}

/// A name from the user's text for a message, as it is when short; past 64 characters its start
/// and its length, as [`quote`] cuts a literal (a pasted megabyte must not become the message).
pub(crate) fn clip(s: &str) -> std::borrow::Cow<'_, str> {
    match s.char_indices().nth(SHOWN) {
        None => std::borrow::Cow::Borrowed(s),
        Some((cut, _)) => std::borrow::Cow::Owned(format!(
            "{}… ({} characters)",
            s.get(..cut).unwrap_or_default(),
            s.chars().count()
        )),
    }
}

/// A JSON value as compact JSON text, for messages.
pub(crate) fn json_text(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}
pub(crate) mod serde;
pub(crate) use self::serde::{deserialize_through, from_json};

#[cfg(test)]
mod tests;
