//! Your own rows: a user's file — CSV, JSON Lines, Parquet or Arrow IPC — read straight into
//! the values the design's key reads, with no JSON object per row on the way. Every reader
//! hands the same [`Cell`]s to one conversion (`convert.rs`), so the same rows in any format give
//! the same keys; [`RowReader`] binds the file's columns to the design's fields (by name, or a
//! map), applies the null policy and feeds each row to a [`RowSink`] (the analysis, a scan).
//!
//! A layer beside the workload: it reads the design's fields and its compiled key, and the
//! analysis reads it.

mod arrow;
mod convert;
mod csv;
mod format;
mod jsonl;
mod parquet;
pub mod profile;
mod scan;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use self::arrow::batch_rows;
pub use self::parquet::{ParquetFile, ParquetRows, RowGroupRange};
pub use convert::{Cell, EpochUnit};
pub use format::Format;
pub use scan::{RowScan, ScanSummary, SAMPLE_KEYS};

use crate::error::{Error, ErrorKind, Result};
use crate::keyspec::{FieldType, FieldValue};

/// A design's fields as a reader takes them: name and type, in declaration order.
pub type FieldList = Vec<(String, FieldType)>;

/// What a row whose key reads a null does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NullPolicy {
    /// Stop with an error naming the row and the column (the default: a null in a key field
    /// is usually a problem with the data, not something to design around).
    #[default]
    Error,
    /// Skip the row and count it, per column, in [`RowStats`].
    Skip,
}

/// How a file's rows meet the design.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct RowsOptions {
    /// The format; by default from the name's extension, else from the first bytes.
    pub format: Option<Format>,
    /// The file's name, for its extension and for messages.
    pub name: Option<String>,
    /// Field name to column name, where they differ.
    pub map: BTreeMap<String, String>,
    /// The column holding each row's write time: windows are cut by it, whatever the rows'
    /// order. Without it rows are written in arrival order at the workload's rate.
    pub time: Option<String>,
    /// What a row whose key reads a null does.
    pub nulls: NullPolicy,
    /// The unit of integer times (a `timestamp` field, the time column).
    pub epoch: EpochUnit,
    /// The CSV delimiter; by default a tab for `.tsv`, else the header's first of `,` `\t`
    /// `;` `|`.
    pub delimiter: Option<char>,
    /// Count a profile of the rows in the first pass ([`profile::RowsProfile`]).
    pub profile: bool,
}

/// What reading the rows found, beside the rows themselves.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RowStats {
    /// Rows in the file (read, skipped or not).
    pub rows: u64,
    /// Rows handed on.
    pub used: u64,
    /// Rows skipped for a null in a key field (`nulls: skip`), by the column first found null.
    pub skipped: BTreeMap<String, u64>,
    /// Where each field's values came from: field name to column name.
    pub columns: BTreeMap<String, String>,
    /// The time column, when rows carry their write time.
    pub time: Option<String>,
    /// The format read.
    pub format: Option<Format>,
}

/// Where a reader's rows go, one at a time. `row` must leave no trace when it fails: the
/// reader may then skip the row (a null under [`NullPolicy::Skip`]).
pub trait RowSink {
    /// One row: values indexed like the design's field declarations (a field the file does
    /// not give is [`FieldValue::Null`]), and its write time when the rows carry one.
    fn row(&mut self, values: &[FieldValue], time_ms: Option<i64>) -> Result<()>;
}

/// The design's fields bound to a file's columns: which column each field reads, and which
/// fields the key needs.
#[derive(Debug, Clone)]
pub(crate) struct Binding {
    /// Per declared field: its name, type and column (an index into the file's columns).
    fields: Vec<(String, FieldType, Option<usize>)>,
    /// The fields the key reads (declaration indexes).
    used: Vec<usize>,
    /// The time column.
    time: Option<(usize, String)>,
    /// The file's column names.
    names: Vec<String>,
    /// The columns a reader needs, in file order (computed once: CSV asks for each row).
    needed: Vec<usize>,
}

impl Binding {
    /// Bind `fields` (name, type) to `names`, the file's columns: `opts.map` first, then by
    /// name. A field the key reads without a column is an error naming what the file has.
    pub(crate) fn new(
        fields: &[(String, FieldType)],
        used: &[usize],
        names: Vec<String>,
        opts: &RowsOptions,
    ) -> Result<Binding> {
        let find = |col: &str| names.iter().position(|n| n == col);
        for field in opts.map.keys() {
            if !fields.iter().any(|(n, _)| n == field) {
                return Err(Error::arg(
                    "map",
                    format!("`{field}` is not a field of the design"),
                ));
            }
        }
        let mut bound = Vec::with_capacity(fields.len());
        for (i, (name, ty)) in fields.iter().enumerate() {
            let col = opts.map.get(name).map_or(name.as_str(), String::as_str);
            let at = find(col);
            if at.is_none() && (used.contains(&i) || opts.map.contains_key(name)) {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!(
                        "the key reads field `{name}`, but the file has no column `{col}` (it has {}); map it with `{name}=COLUMN`",
                        list(&names)
                    ),
                )
                .at_path(format!("map/{name}")));
            }
            bound.push((name.clone(), *ty, at));
        }
        let time = match &opts.time {
            None => None,
            Some(col) => Some((
                find(col).ok_or_else(|| {
                    Error::new(
                        ErrorKind::Invalid,
                        format!(
                            "no time column `{col}` in the file (it has {})",
                            list(&names)
                        ),
                    )
                    .at_path("time")
                })?,
                col.clone(),
            )),
        };
        let mut needed: Vec<usize> = bound
            .iter()
            .filter_map(|(_, _, c)| *c)
            .chain(time.as_ref().map(|(c, _)| *c))
            .collect();
        needed.sort_unstable();
        needed.dedup();
        Ok(Binding {
            fields: bound,
            used: used.to_vec(),
            time,
            names,
            needed,
        })
    }

    /// The columns a reader needs: every bound field's and the time column, in file order.
    pub(crate) fn needed(&self) -> &[usize] {
        &self.needed
    }

    fn column_name(&self, col: usize) -> &str {
        self.names.get(col).map_or("?", String::as_str)
    }
}

/// "a, b, c" (at most 12 named).
fn list(names: &[String]) -> String {
    if names.is_empty() {
        return "no columns".into();
    }
    let shown: Vec<String> = names.iter().take(12).map(|n| format!("`{n}`")).collect();
    let more = names.len().saturating_sub(12);
    if more > 0 {
        format!("{} and {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

/// The state every reader shares: the binding, the values of the row being built, the
/// counts, and the rule for nulls.
pub(crate) struct Rows {
    pub(crate) bind: Binding,
    values: Vec<FieldValue>,
    nulls: NullPolicy,
    epoch: EpochUnit,
    pub(crate) stats: RowStats,
    /// The file's name in messages.
    name: String,
    /// Columns of the row being built that were null, for the null policy.
    null_cols: Vec<usize>,
}

impl Rows {
    pub(crate) fn new(bind: Binding, opts: &RowsOptions, format: Format) -> Rows {
        let columns = bind
            .fields
            .iter()
            .filter_map(|(n, _, c)| c.map(|c| (n.clone(), bind.column_name(c).to_string())))
            .collect();
        Rows {
            values: vec![FieldValue::Null; bind.fields.len()],
            nulls: opts.nulls,
            epoch: opts.epoch,
            stats: RowStats {
                columns,
                time: bind.time.as_ref().map(|(_, n)| n.clone()),
                format: Some(format),
                ..RowStats::default()
            },
            name: opts.name.clone().unwrap_or_else(|| "rows".into()),
            bind,
            null_cols: Vec::new(),
        }
    }

    /// Build and hand on one row: `cell(column)` gives each needed column's cell. `place`
    /// says where the row is ("row 12", "line 13 (row 12)") for messages.
    pub(crate) fn row<'c>(
        &mut self,
        mut cell: impl FnMut(usize) -> Cell<'c>,
        place: &dyn Fn() -> String,
        sink: &mut dyn RowSink,
    ) -> Result<()> {
        self.stats.rows += 1;
        self.null_cols.clear();
        for (i, (field, ty, col)) in self.bind.fields.iter().enumerate() {
            let Some(slot) = self.values.get_mut(i) else {
                continue;
            };
            let Some(col) = *col else {
                *slot = FieldValue::Null;
                continue;
            };
            let c = cell(col);
            match convert::put(slot, c, *ty, self.epoch) {
                Ok(true) => {}
                Ok(false) => {
                    if self.bind.used.contains(&i) {
                        self.null_cols.push(col);
                    }
                }
                Err(expected) => {
                    return Err(bad_cell(
                        &self.name,
                        place(),
                        self.bind.column_name(col),
                        field,
                        expected,
                        c,
                    ))
                }
            }
        }
        let time = match &self.bind.time {
            None => None,
            Some((col, name)) => {
                let mut slot = FieldValue::Null;
                let c = cell(*col);
                match convert::put(&mut slot, c, FieldType::Timestamp, self.epoch) {
                    Ok(true) => match slot {
                        FieldValue::Long(ms) => Some(ms),
                        _ => None,
                    },
                    Ok(false) => {
                        self.null_cols.push(*col);
                        None
                    }
                    Err(expected) => {
                        return Err(bad_cell(&self.name, place(), name, name, expected, c))
                    }
                }
            }
        };
        let time_null = time.is_none() && self.bind.time.is_some();
        if time_null {
            return self.null_row(place);
        }
        match sink.row(&self.values, time) {
            Ok(()) => {
                self.stats.used += 1;
                Ok(())
            }
            // A key that cannot be built from a null is the null policy's case (a Phoenix
            // key, say, may end in nulls and then builds fine).
            Err(_) if !self.null_cols.is_empty() => self.null_row(place),
            Err(e) => Err(Error {
                message: format!("{}: {}: {}", self.name, place(), e.message),
                ..e
            }),
        }
    }

    fn null_row(&mut self, place: &dyn Fn() -> String) -> Result<()> {
        let col = self
            .null_cols
            .first()
            .map_or("?", |&c| self.bind.column_name(c))
            .to_string();
        match self.nulls {
            NullPolicy::Skip => {
                *self.stats.skipped.entry(col).or_insert(0) += 1;
                Ok(())
            }
            NullPolicy::Error => Err(Error::new(
                ErrorKind::Invalid,
                format!(
                    "{}: {}, column `{col}`: null (or empty) where the key needs a value; `nulls: skip` skips such rows and counts them",
                    self.name,
                    place()
                ),
            )),
        }
    }
}

/// A cell that did not convert: the file, the row, the column, the field, what was expected
/// and what was there.
fn bad_cell(
    file: &str,
    place: String,
    column: &str,
    field: &str,
    expected: &str,
    got: Cell<'_>,
) -> Error {
    let shown = match got {
        Cell::Null => "null".to_string(),
        Cell::Text(s) if s.chars().count() > 40 => {
            format!("\"{}…\"", s.chars().take(40).collect::<String>())
        }
        Cell::Text(s) => format!("\"{s}\""),
        Cell::Int(n) => n.to_string(),
        Cell::BigUint(n) => n.to_string(),
        Cell::Float(f) => f.to_string(),
        Cell::Bool(b) => b.to_string(),
        Cell::TimeMs(ms) => format!("a time ({ms} ms)"),
        Cell::Decimal(v, s) => format!("{v}E-{s}"),
    };
    let what = if column == field {
        format!("column `{column}`")
    } else {
        format!("column `{column}` (field `{field}`)")
    };
    Error::new(
        ErrorKind::Invalid,
        format!("{file}: {place}, {what}: expected {expected}, got {shown}"),
    )
}

/// The column names of a file from its first bytes (`head`), for a mapping of fields to
/// columns before any row is read: a CSV's header line, the members of a JSON Lines file's
/// first object, an Arrow file's or stream's schema. A Parquet file's are in its footer
/// ([`ParquetFile::columns`]).
pub fn columns(opts: &RowsOptions, head: &[u8]) -> Result<Vec<String>> {
    let name = opts.name.as_deref().unwrap_or("rows");
    // The header alone: no field is bound, so no map or time column can be missing.
    let bare = RowsOptions {
        map: BTreeMap::new(),
        time: None,
        ..opts.clone()
    };
    match Format::detect(opts.format, opts.name.as_deref(), head)? {
        Format::Csv => csv::header(&bare, head),
        Format::JsonLines => jsonl::first_members(name, head),
        Format::ArrowFile => {
            // After the magic, zeros to the writer's alignment (8 or 64 bytes), then the stream
            // (whose messages start with 0xFFFFFFFF).
            let rest = head.get(6..).unwrap_or(&[]);
            let pad = rest.iter().take(58).take_while(|b| **b == 0).count();
            arrow::schema_names(name, rest.get(pad..).unwrap_or(&[]))
        }
        Format::ArrowStream => arrow::schema_names(name, head),
        Format::Parquet => Err(Error::new(
            ErrorKind::IllegalArgument,
            format!("{name}: a Parquet file's columns are in its footer, not its first bytes"),
        )),
    }
}

/// A sink that takes every row and keeps none (reading a header).
struct Discard;

impl RowSink for Discard {
    fn row(&mut self, _: &[FieldValue], _: Option<i64>) -> Result<()> {
        Ok(())
    }
}

/// Reads a file pushed in chunks (CSV, JSON Lines, Arrow IPC) or given whole (Parquet, whose
/// index is at its end: see [`ParquetFile`] to read one row group at a time).
pub struct RowReader {
    fields: Vec<(String, FieldType)>,
    used: Vec<usize>,
    opts: RowsOptions,
    state: State,
    /// Text formats: every byte checked as UTF-8 (and free of NUL) as it arrives.
    text: TextCheck,
}

/// "invalid UTF-8 at byte N (0x..)": `at` the file's offset, `bytes[i]` the bad byte.
fn bad_utf8(name: &str, at: u64, bytes: &[u8], i: usize) -> Error {
    Error::new(
        ErrorKind::Invalid,
        format!(
            "{name}: invalid UTF-8 at byte {at} (0x{:02x}); save the file as UTF-8 (Latin-1 and Windows-1252 are not read)",
            bytes.get(i).copied().unwrap_or(0)
        ),
    )
}

/// The check of a text file as it arrives in chunks: UTF-8 throughout, no NUL byte (no text
/// has one: it is a binary file read as text, or UTF-16), each refusal at its byte offset.
#[derive(Debug, Default)]
struct TextCheck {
    /// Bytes checked so far.
    offset: u64,
    /// The start of a character cut by the last chunk's end.
    carry: Vec<u8>,
}

impl TextCheck {
    /// Check `bytes` in place (no copy of the chunk): first the character the last chunk cut,
    /// completed from this one's first bytes, then the rest.
    fn push(&mut self, name: &str, bytes: &[u8]) -> Result<()> {
        let mut rest = bytes;
        if !self.carry.is_empty() {
            // A cut character is at most 4 bytes: complete it, check it alone.
            let need = 4usize.saturating_sub(self.carry.len()).min(bytes.len());
            let mut head = self.carry.clone();
            head.extend_from_slice(bytes.get(..need).unwrap_or(&[]));
            let at = self.offset - self.carry.len() as u64;
            let used = match std::str::from_utf8(&head) {
                Ok(_) => head.len(),
                Err(e) if e.valid_up_to() >= self.carry.len() => e.valid_up_to(),
                Err(e) if e.error_len().is_none() && need == bytes.len() => {
                    // Still cut (a chunk of one or two bytes): keep waiting.
                    self.carry = head;
                    self.offset += bytes.len() as u64;
                    return Ok(());
                }
                Err(e) => {
                    return Err(bad_utf8(
                        name,
                        at + e.valid_up_to() as u64,
                        &head,
                        e.valid_up_to(),
                    ))
                }
            };
            let taken = used.saturating_sub(self.carry.len());
            self.offset += taken as u64;
            self.carry.clear();
            rest = bytes.get(taken..).unwrap_or(&[]);
        }
        let base = self.offset;
        if let Some(i) = rest.iter().position(|&b| b == 0) {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!(
                    "{name}: binary data, not text: a NUL byte at byte {}",
                    base + i as u64
                ),
            ));
        }
        match std::str::from_utf8(rest) {
            Ok(_) => {}
            Err(e) if e.error_len().is_none() => {
                // A character cut by the chunk's end: checked with the next chunk.
                self.carry = rest.get(e.valid_up_to()..).unwrap_or(&[]).to_vec();
            }
            Err(e) => {
                return Err(bad_utf8(
                    name,
                    base + e.valid_up_to() as u64,
                    rest,
                    e.valid_up_to(),
                ))
            }
        }
        self.offset += rest.len() as u64;
        Ok(())
    }

    fn finish(&self, name: &str) -> Result<()> {
        if self.carry.is_empty() {
            return Ok(());
        }
        Err(Error::new(
            ErrorKind::Invalid,
            format!(
                "{name}: invalid UTF-8 at byte {}: the input ends inside a character",
                self.offset - self.carry.len() as u64
            ),
        ))
    }
}

enum State {
    /// Waiting for the first bytes to tell the format.
    Start,
    Csv(Box<csv::CsvRows>),
    Jsonl(Box<jsonl::JsonRows>),
    Ipc(Box<arrow::IpcRows>),
    /// Parquet (or an Arrow IPC file) read whole at `finish`.
    Whole(Format, Vec<u8>),
    Done,
}

impl RowReader {
    /// A reader for a design's rows: `fields` its declarations (name, type), `used` the
    /// fields its key reads ([`crate::keyspec::CompiledKey::used_fields`]).
    pub fn new(fields: Vec<(String, FieldType)>, used: Vec<usize>, opts: RowsOptions) -> RowReader {
        RowReader {
            fields,
            used,
            opts,
            state: State::Start,
            text: TextCheck::default(),
        }
    }

    /// Read the next bytes of the file, handing on every row they complete.
    pub fn push(&mut self, bytes: &[u8], sink: &mut dyn RowSink) -> Result<()> {
        if let State::Start = self.state {
            if bytes.is_empty() {
                return Ok(());
            }
            let format = Format::detect(self.opts.format, self.opts.name.as_deref(), bytes)?;
            self.state = match format {
                Format::Csv => State::Csv(Box::new(csv::CsvRows::new(&self.opts))),
                Format::JsonLines => State::Jsonl(Box::new(jsonl::JsonRows::new(
                    &self.fields,
                    &self.used,
                    &self.opts,
                )?)),
                Format::ArrowStream => State::Ipc(Box::new(arrow::IpcRows::new())),
                Format::Parquet | Format::ArrowFile => State::Whole(format, Vec::new()),
            };
        }
        if matches!(self.state, State::Csv(_) | State::Jsonl(_)) {
            let name = self.opts.name.as_deref().unwrap_or("rows");
            self.text.push(name, bytes)?;
        }
        match &mut self.state {
            State::Csv(r) => r.push(bytes, &self.fields, &self.used, &self.opts, sink),
            State::Jsonl(r) => r.push(bytes, sink),
            State::Ipc(r) => r.push(bytes, &self.fields, &self.used, &self.opts, sink),
            State::Whole(_, buf) => {
                crate::limits::check_rows_file(buf.len().saturating_add(bytes.len()))?;
                buf.extend_from_slice(bytes);
                Ok(())
            }
            State::Start | State::Done => Ok(()),
        }
    }

    /// The end of the file: the last rows, and what reading found.
    pub fn finish(&mut self, sink: &mut dyn RowSink) -> Result<RowStats> {
        self.text.finish(self.name())?;
        let stats = match std::mem::replace(&mut self.state, State::Done) {
            State::Start => {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!("{}: the file is empty", self.name()),
                ))
            }
            State::Csv(mut r) => r.finish(&self.fields, &self.used, &self.opts, sink)?,
            State::Jsonl(mut r) => r.finish(sink)?,
            State::Ipc(r) => r.finish(&self.opts)?,
            State::Whole(Format::Parquet, buf) => {
                let file = ParquetFile::new(bytes::Bytes::from(buf), &self.opts)?;
                file.read_all(&self.fields, &self.used, &self.opts, sink)?
            }
            State::Whole(_, buf) => {
                arrow::read_ipc_file(buf, &self.fields, &self.used, &self.opts, sink)?
            }
            State::Done => {
                return Err(Error::new(
                    ErrorKind::IllegalState,
                    "the rows were already read to the end",
                ))
            }
        };
        if stats.rows == 0 {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!("{}: no rows", self.name()),
            ));
        }
        Ok(stats)
    }

    fn name(&self) -> &str {
        self.opts.name.as_deref().unwrap_or("rows")
    }
}
