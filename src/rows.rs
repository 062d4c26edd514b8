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
mod infer;
mod ipc;
mod jsonl;
mod parquet;
mod parquet_pages;
pub mod profile;
pub mod read;
mod reader;
mod sample;
mod scan;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use self::arrow::{batch_rows, batch_rows_skipped, stream_rows, BatchRows};
pub use self::parquet::{ParquetFile, ParquetRows, RowGroupRange};
pub use convert::{Cell, EpochUnit};
pub use format::Format;
pub use infer::{
    declare_from_file, export_columns, ExportColumn, FileSample, InferredField, OwnedSample,
    ValueKind,
};
pub use reader::{columns, RowReader};
pub use sample::{RowSample, RowSampler, MAX_SAMPLE_ROWS};
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

/// How a file's rows meet the design. Read by [`read::rows_options`] (its members, defaults
/// and names written once there, for every shell and the generated declarations).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
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
    /// Most bytes of rows the first pass keeps so the analysis counts them from memory (each
    /// row's key, qualifier and time); past it the file is read again. 0 reads the file twice;
    /// by default, and at most, [`MAX_REPLAY_BYTES`](crate::limits::MAX_REPLAY_BYTES).
    pub keep_bytes: Option<u64>,
}

impl RowsOptions {
    /// The bytes of rows kept between the passes ([`keep_bytes`](Self::keep_bytes)), or an
    /// error past the limit.
    pub fn kept_bytes(&self) -> Result<usize> {
        let max = crate::limits::MAX_REPLAY_BYTES;
        match self.keep_bytes {
            None => Ok(max),
            Some(n) if n <= max as u64 => Ok(n as usize),
            Some(n) => Err(crate::limits::limit_error(
                "rows/keepBytes",
                format!("{n} bytes of rows kept"),
                format!("{max} bytes"),
                "the most a first pass keeps (limits::MAX_REPLAY_BYTES)",
            )),
        }
    }

    /// The bytes of rows a chunk of `bytes` of a file of `total` keeps when the file is read in
    /// chunks by several sessions at once: its share of [`kept_bytes`](Self::kept_bytes) and a
    /// quarter more (a chunk denser in rows than the file), at least 1 MiB and at most the
    /// whole. The session that adds the chunks up keeps no more than the whole, so chunks past
    /// it were read for nothing: each worker kept up to the whole, and memory grew with the
    /// workers (a 1.9 GB JSON Lines file peaked at 2.6 GB with two threads, 0.58 GB with one).
    pub fn chunk_kept_bytes(&self, bytes: u64, total: u64) -> Result<u64> {
        let whole = self.kept_bytes()? as u64;
        let share = (whole as f64 * 1.25 * bytes as f64 / total.max(1) as f64) as u64;
        Ok(share.clamp(whole.min(1 << 20), whole))
    }
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

impl RowStats {
    /// What reading two runs of rows of one table found together: counts added, the columns
    /// and format of the first (the runs of one table share them).
    pub fn merge(&mut self, other: &RowStats) {
        self.rows = self.rows.saturating_add(other.rows);
        self.used = self.used.saturating_add(other.used);
        for (col, n) in &other.skipped {
            let c = self.skipped.entry(col.clone()).or_insert(0);
            *c = c.saturating_add(*n);
        }
        if self.columns.is_empty() {
            self.columns = other.columns.clone();
        }
        if self.time.is_none() {
            self.time = other.time.clone();
        }
        if self.format.is_none() {
            self.format = other.format;
        }
    }
}

/// Where a reader's rows go, one at a time. `row` must leave no trace when it fails: the
/// reader may then skip the row (a null under [`NullPolicy::Skip`]).
pub trait RowSink {
    /// One row: values indexed like the design's field declarations (a field the file does
    /// not give is [`FieldValue::Null`]), and its write time when the rows carry one.
    fn row(&mut self, values: &[FieldValue], time_ms: Option<i64>) -> Result<()>;

    /// A file with no rows is an answer here, not an error (a reading for its keys: an empty
    /// export is every row of the other side unmatched).
    fn takes_no_rows(&self) -> bool {
        false
    }
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
    /// A `timestamp` field read from the time column: its value is the row's time, so the
    /// column is converted once.
    time_field: Option<usize>,
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
        // A column the design reads named twice: either could be meant, so neither is taken.
        let read = fields
            .iter()
            .map(|(n, _)| opts.map.get(n).map_or(n.as_str(), String::as_str))
            .chain(opts.time.as_deref());
        for col in read {
            let mut at = names.iter().enumerate().filter(|(_, n)| *n == col);
            if let (Some((a, _)), Some((b, _))) = (at.next(), at.next()) {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!(
                        "{}: two columns are named `{col}` (columns {} and {}): the design reads `{col}`, and either could be meant; rename one",
                        opts.name.as_deref().unwrap_or("rows"),
                        a + 1,
                        b + 1
                    ),
                ));
            }
        }
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
        let time_field = time.as_ref().and_then(|(tc, _)| {
            bound
                .iter()
                .position(|(_, ty, c)| *ty == FieldType::Timestamp && *c == Some(*tc))
        });
        Ok(Binding {
            fields: bound,
            used: used.to_vec(),
            time,
            names,
            needed,
            time_field,
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
    /// The rows skipped (0-based), when a caller keeps its rows aligned with the keys
    /// ([`batch_rows_skipped`]).
    pub(crate) skipped_at: Option<Vec<u64>>,
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
            skipped_at: None,
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
            Some((col, _)) if self.bind.time_field.is_some() => {
                // The same column, converted the same way as the field: its value.
                match self.bind.time_field.and_then(|f| self.values.get(f)) {
                    Some(FieldValue::Long(ms)) => Some(*ms),
                    _ => {
                        if !self.null_cols.contains(col) {
                            self.null_cols.push(*col);
                        }
                        None
                    }
                }
            }
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
                if let Some(at) = self.skipped_at.as_mut() {
                    at.push(self.stats.rows.saturating_sub(1));
                }
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
