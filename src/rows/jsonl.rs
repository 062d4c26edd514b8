//! JSON Lines read straight into cells: each line's object is walked by serde_json, the
//! members the key reads kept (as borrowed text where the line has no escapes), the others
//! skipped unparsed. No map is built per row.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, Visitor};

use super::{Binding, Cell, Format, RowSink, RowStats, Rows, RowsOptions};
use crate::error::{Error, ErrorKind, Result};
use crate::keyspec::FieldType;

/// A JSON Lines file being read.
pub(crate) struct JsonRows {
    rows: Rows,
    /// The member names read, indexed like the binding's columns.
    names: Vec<String>,
    /// The line read so far, without its end.
    carry: Vec<u8>,
    /// The number of the next line.
    line: u64,
    name: String,
    /// One JSON array of objects instead of lines: where its splitter is.
    array: Option<ArrayState>,
    /// Whether the first character has been seen (it tells lines from an array).
    started: bool,
}

/// Where the splitter of one JSON array of objects is: the depth of brackets and braces (1
/// inside the array), inside a string or not, after a backslash or not, the element's index.
#[derive(Debug, Default)]
struct ArrayState {
    depth: u32,
    string: bool,
    escape: bool,
    index: u64,
    closed: bool,
}

impl JsonRows {
    pub(crate) fn new(
        fields: &[(String, FieldType)],
        used: &[usize],
        opts: &RowsOptions,
    ) -> Result<JsonRows> {
        // A file of objects has no header: its columns are the members the design asks for.
        let mut names: Vec<String> = fields
            .iter()
            .map(|(n, _)| opts.map.get(n).unwrap_or(n).clone())
            .chain(opts.time.clone())
            .collect();
        names.sort();
        names.dedup();
        let bind = Binding::new(fields, used, names.clone(), opts)?;
        Ok(JsonRows {
            rows: Rows::new(bind, opts, Format::JsonLines),
            names,
            carry: Vec::new(),
            line: 1,
            name: opts.name.clone().unwrap_or_else(|| "rows".into()),
            array: None,
            started: false,
        })
    }

    pub(crate) fn push(&mut self, bytes: &[u8], sink: &mut dyn RowSink) -> Result<()> {
        if !self.started {
            let text = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
            match text.iter().position(|b| !b.is_ascii_whitespace()) {
                None => {
                    self.line += text.iter().filter(|&&b| b == b'\n').count() as u64;
                    return Ok(());
                }
                Some(i) => {
                    self.started = true;
                    if text.get(i) == Some(&b'[') {
                        self.array = Some(ArrayState::default());
                    }
                }
            }
        }
        if self.array.is_some() {
            return self.push_array(bytes, sink);
        }
        let mut rest = bytes;
        while let Some(end) = memchr::memchr(b'\n', rest) {
            let (head, tail) = rest.split_at(end);
            rest = tail.get(1..).unwrap_or(&[]);
            if self.carry.is_empty() {
                self.line_of(head, sink)?;
            } else {
                self.fits(self.carry.len() + head.len())?;
                let mut line = std::mem::take(&mut self.carry);
                line.extend_from_slice(head);
                self.line_of(&line, sink)?;
                line.clear();
                self.carry = line;
            }
        }
        self.fits(self.carry.len() + rest.len())?;
        self.carry.extend_from_slice(rest);
        Ok(())
    }

    /// Bytes of one JSON array of objects: each element, once complete, is a row
    /// (`records[i]` in messages).
    fn push_array(&mut self, bytes: &[u8], sink: &mut dyn RowSink) -> Result<()> {
        let mut start = 0;
        for (i, &b) in bytes.iter().enumerate() {
            let Some(st) = self.array.as_mut() else {
                return Ok(());
            };
            if b == b'\n' {
                self.line += 1;
            }
            if st.string {
                match (st.escape, b) {
                    (true, _) => st.escape = false,
                    (false, b'\\') => st.escape = true,
                    (false, b'"') => st.string = false,
                    _ => {}
                }
                continue;
            }
            if st.closed {
                if !b.is_ascii_whitespace() {
                    return Err(Error::new(
                        ErrorKind::Parse,
                        format!(
                            "{}: line {}: text after the array's end",
                            self.name, self.line
                        ),
                    ));
                }
                continue;
            }
            match b {
                b'"' => st.string = true,
                b'[' | b'{' => {
                    st.depth += 1;
                    if st.depth == 1 {
                        // The array's own bracket: elements start after it.
                        start = i + 1;
                    }
                }
                b']' | b'}' | b',' => {
                    if b != b',' {
                        st.depth = st.depth.saturating_sub(1);
                    }
                    let ends = (b == b',' && st.depth == 1) || (b == b']' && st.depth == 0);
                    if ends {
                        if b == b']' {
                            st.closed = true;
                        }
                        let index = st.index;
                        let part = bytes.get(start..i).unwrap_or(&[]);
                        self.fits(self.carry.len() + part.len())?;
                        let mut elem = std::mem::take(&mut self.carry);
                        elem.extend_from_slice(part);
                        start = i + 1;
                        if elem.iter().all(u8::is_ascii_whitespace) && b == b']' {
                            continue;
                        }
                        if let Some(st) = self.array.as_mut() {
                            st.index += 1;
                        }
                        self.element(&elem, index, sink)?;
                        elem.clear();
                        self.carry = elem;
                    }
                }
                _ => {}
            }
        }
        let rest = bytes.get(start..).unwrap_or(&[]);
        if self.array.as_ref().is_some_and(|st| st.depth > 0) {
            self.fits(self.carry.len() + rest.len())?;
            self.carry.extend_from_slice(rest);
        }
        Ok(())
    }

    /// Element `index` of the array, as a row.
    fn element(&mut self, text: &[u8], index: u64, sink: &mut dyn RowSink) -> Result<()> {
        let line = self.line;
        let place = move || format!("records[{index}] (line {line})");
        self.object(text, &place, sink)
    }

    /// Nothing of a row held back: lines (not one array) and no line begun.
    pub(crate) fn at_row_end(&self) -> bool {
        self.array.is_none() && self.carry.is_empty()
    }

    pub(crate) fn finish(&mut self, sink: &mut dyn RowSink) -> Result<RowStats> {
        if let Some(st) = &self.array {
            if !st.closed {
                return Err(Error::new(
                    ErrorKind::Parse,
                    format!("{}: the JSON array does not end (no `]`)", self.name),
                ));
            }
            return Ok(std::mem::take(&mut self.rows.stats));
        }
        let last = std::mem::take(&mut self.carry);
        self.line_of(&last, sink)?;
        Ok(std::mem::take(&mut self.rows.stats))
    }

    fn fits(&self, len: usize) -> Result<()> {
        if len > crate::limits::MAX_ROW_TEXT {
            return Err(Error::limit(
                "records",
                match &self.array {
                    Some(st) => format!(
                        "{}: records[{}]: more than {} MiB",
                        self.name,
                        st.index,
                        crate::limits::MAX_ROW_TEXT >> 20
                    ),
                    None => format!(
                        "{}: line {}: a line of more than {} MiB",
                        self.name,
                        self.line,
                        crate::limits::MAX_ROW_TEXT >> 20
                    ),
                },
            ));
        }
        Ok(())
    }

    /// One line: a row, or nothing when blank.
    fn line_of(&mut self, text: &[u8], sink: &mut dyn RowSink) -> Result<()> {
        let line = self.line;
        self.line += 1;
        let text = text.strip_prefix(b"\xef\xbb\xbf").unwrap_or(text);
        if text.iter().all(u8::is_ascii_whitespace) {
            return Ok(());
        }
        let row = self.rows.stats.rows + 1;
        let place = move || format!("line {line} (row {row})");
        self.object(text, &place, sink)
    }

    /// One object: its members the key reads, as a row; `place` says where it is.
    fn object(
        &mut self,
        text: &[u8],
        place: &dyn Fn() -> String,
        sink: &mut dyn RowSink,
    ) -> Result<()> {
        // The cells of a row on the stack when the key reads few members (most designs): a
        // vector per row was 5 % of a JSON Lines file's analysis (perf, 3.4 M rows).
        let mut stack = [const { JsonCell::Absent }; ON_STACK];
        let mut heap;
        let cells: &mut [JsonCell<'_>] = match stack.get_mut(..self.names.len()) {
            Some(c) => c,
            None => {
                heap = vec![JsonCell::Absent; self.names.len()];
                &mut heap
            }
        };
        let mut de = serde_json::Deserializer::from_slice(text);
        let parsed = Members {
            names: &self.names,
            cells: &mut *cells,
        }
        .deserialize(&mut de)
        .and_then(|()| de.end());
        if let Err(e) = parsed {
            return Err(Error::new(
                ErrorKind::Parse,
                format!("{}: {}: {e}", self.name, place()),
            ));
        }
        self.rows.row(
            |col| match cells.get(col) {
                None | Some(JsonCell::Null | JsonCell::Absent) => Cell::Null,
                Some(JsonCell::Bool(b)) => Cell::Bool(*b),
                Some(JsonCell::Int(n)) => Cell::Int(*n),
                Some(JsonCell::Uint(n)) => Cell::BigUint(*n),
                Some(JsonCell::Float(f)) => Cell::Float(*f),
                Some(JsonCell::Text(s)) => Cell::Text(s),
            },
            place,
            sink,
        )
    }
}

/// The most members a row reads with its cells on the stack ([`JsonRows::object`]).
const ON_STACK: usize = 8;

/// One member's value.
#[derive(Debug, Clone)]
enum JsonCell<'de> {
    /// Not in the object (read as null; told from `Null` so a member given twice is seen).
    Absent,
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
    Text(Cow<'de, str>),
}

/// The object of one line: the members named in `names` go to `cells`.
struct Members<'n, 'c, 'de> {
    names: &'n [String],
    cells: &'c mut [JsonCell<'de>],
}

impl<'de> DeserializeSeed<'de> for Members<'_, '_, 'de> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Members<'_, '_, 'de> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("one JSON object per line")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<(), A::Error> {
        while let Some(read) = map.next_key_seed(Member(self.names))? {
            match read {
                Some(i) => {
                    let key = self.names.get(i).map_or("", String::as_str);
                    let v = map.next_value_seed(Scalar(key))?;
                    if let Some(c) = self.cells.get_mut(i) {
                        // Either value could be meant (JSON parsers keep the first or the
                        // last), so neither is taken: as a CSV header naming a column twice.
                        if !matches!(c, JsonCell::Absent) {
                            return Err(de::Error::custom(format_args!(
                                "member `{key}` is given twice in the object: the design reads `{key}`, and either value could be meant; give it once"
                            )));
                        }
                        *c = v;
                    }
                }
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

/// A member's name, as its index among the names read (`None`: a member the key does not
/// read). Compared where it lies in the line: serde's `Cow<str>` is always an owned copy, a
/// `String` per member per row (8 % of a JSON Lines file's analysis: perf, 3.4 M rows).
struct Member<'n>(&'n [String]);

impl<'de> DeserializeSeed<'de> for Member<'_> {
    type Value = Option<usize>;
    fn deserialize<D: de::Deserializer<'de>>(
        self,
        d: D,
    ) -> std::result::Result<Self::Value, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Member<'_> {
    type Value = Option<usize>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Self::Value, E> {
        Ok(self.0.iter().position(|n| n == v))
    }
}

/// A member's value, which must be a scalar.
struct Scalar<'k>(&'k str);

impl<'de> DeserializeSeed<'de> for Scalar<'_> {
    type Value = JsonCell<'de>;
    fn deserialize<D: de::Deserializer<'de>>(
        self,
        d: D,
    ) -> std::result::Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Scalar<'_> {
    type Value = JsonCell<'de>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a string, number, boolean or null for member `{}`",
            self.0
        )
    }
    fn visit_unit<E: de::Error>(self) -> std::result::Result<Self::Value, E> {
        Ok(JsonCell::Null)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> std::result::Result<Self::Value, E> {
        Ok(JsonCell::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<Self::Value, E> {
        Ok(JsonCell::Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<Self::Value, E> {
        Ok(i64::try_from(v).map_or(JsonCell::Uint(v), JsonCell::Int))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<Self::Value, E> {
        Ok(JsonCell::Float(v))
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> std::result::Result<Self::Value, E> {
        Ok(JsonCell::Text(Cow::Borrowed(v)))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Self::Value, E> {
        Ok(JsonCell::Text(Cow::Owned(v.to_string())))
    }
    fn visit_string<E: de::Error>(self, v: String) -> std::result::Result<Self::Value, E> {
        Ok(JsonCell::Text(Cow::Owned(v)))
    }
}

/// The member names of the first object of a JSON Lines file (or of a JSON array of objects)
/// whose first bytes are `head`.
pub(crate) fn first_members(name: &str, head: &[u8]) -> Result<Vec<String>> {
    let text = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    let start = text
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(text.len());
    let text = text.get(start..).unwrap_or(&[]);
    let text = text.strip_prefix(b"[").unwrap_or(text);
    let mut objects = serde_json::Deserializer::from_slice(text)
        .into_iter::<serde_json::Map<String, serde_json::Value>>();
    match objects.next() {
        Some(Ok(first)) => Ok(first.keys().cloned().collect()),
        Some(Err(e)) => Err(Error::new(
            ErrorKind::Invalid,
            format!("{name}: the first row is not a JSON object: {e}"),
        )),
        None => Err(Error::new(
            ErrorKind::Invalid,
            format!("{name}: the file is empty"),
        )),
    }
}
