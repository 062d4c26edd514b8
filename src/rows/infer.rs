//! A design that is just a key, given a file of rows: the fields its key names but does not
//! declare are declared from the file, so a user need not write a type the file already says.
//!
//! A field's type comes from how the key uses it first, then from the file's column:
//! - a time segment (`time`, `revts`, `bucket`, `baseTime`) wants a `timestamp`; an integer
//!   segment (`dec`, `long`, `int`, `short`) a `long`; `double`/`float` a `double`; `bool` a
//!   `boolean`; `bigDecimal` a `bigDecimal`; a Phoenix `pk` column the field type its SQL type
//!   holds;
//! - a field the key writes as it is (`f`, `str`, `fixed`, `reverse`, a salt's or a hash's
//!   input, `dict`, …) takes the column's own type: a Parquet or Arrow column's type, a JSON
//!   value's kind in the file's first rows; a CSV column is text, written as its text (as
//!   HBase's `ImportTsv` writes a CSV's cells), so `1545` is the four bytes `1545`, not a
//!   `long`'s eight.
//!
//! Every field so declared is listed ([`InferredField`]) with why, for the report: declare the
//! field in the design to type it otherwise.

use arrow_schema::{DataType, Schema};
use serde::Serialize;

use super::*;
use crate::design::DesignDocument;
use crate::workload::FieldDecl;

/// A field the key names, declared from the file.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InferredField {
    /// The field's name (in the key).
    pub field: String,
    /// The column it reads.
    pub column: String,
    /// The type declared.
    #[serde(rename = "type")]
    pub field_type: FieldType,
    /// Why that type: the key's use or the column's type, in a few words.
    pub basis: String,
}

/// What the file says about its columns.
pub enum FileSample<'a> {
    /// A CSV's, JSON Lines' or Arrow IPC file's first bytes; `whole` when they are the whole
    /// file (a last line without its line end is then a row).
    Head {
        /// The bytes.
        bytes: &'a [u8],
        /// They are the whole file.
        whole: bool,
    },
    /// The file's Arrow schema (a Parquet file's footer, a table handed over).
    Schema(&'a Schema),
}

/// A [`FileSample`] that owns its bytes or schema (read from a file for the call).
#[derive(Debug, Clone)]
pub enum OwnedSample {
    /// The file's first bytes, and whether they are the whole file.
    Head(Vec<u8>, bool),
    /// The file's schema (a Parquet file's footer).
    Schema(Schema),
}

impl OwnedSample {
    /// The sample, borrowed.
    pub fn sample(&self) -> FileSample<'_> {
        match self {
            OwnedSample::Head(bytes, whole) => FileSample::Head {
                bytes,
                whole: *whole,
            },
            OwnedSample::Schema(s) => FileSample::Schema(s),
        }
    }
}

/// What the key asks of a field's type, from the segments that read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Want {
    /// Written as the value is: the column's own type.
    AsIs,
    Text,
    Double,
    Boolean,
    BigDecimal,
    Long,
    Timestamp,
}

impl Want {
    fn of_kind(kind: &str, sql: Option<&str>) -> Want {
        match kind {
            "time" | "revts" | "bucket" | "baseTime" => Want::Timestamp,
            "dec" | "long" | "int" | "short" => Want::Long,
            "double" | "float" => Want::Double,
            "bool" => Want::Boolean,
            "bigDecimal" => Want::BigDecimal,
            "pk" => match sql.unwrap_or("") {
                t if t.contains("CHAR") => Want::Text,
                t if t.contains("DECIMAL") => Want::BigDecimal,
                t if t.contains("DOUBLE") || t.contains("FLOAT") => Want::Double,
                t if t.contains("BOOLEAN") => Want::Boolean,
                t if t.contains("DATE") || t.contains("TIME") => Want::Timestamp,
                t if t.contains("INT") || t.contains("LONG") => Want::Long,
                _ => Want::AsIs,
            },
            _ => Want::AsIs,
        }
    }

    fn field_type(self) -> Option<FieldType> {
        match self {
            Want::AsIs => None,
            Want::Text => Some(FieldType::String),
            Want::Double => Some(FieldType::Double),
            Want::Boolean => Some(FieldType::Boolean),
            Want::BigDecimal => Some(FieldType::BigDecimal),
            Want::Long => Some(FieldType::Long),
            Want::Timestamp => Some(FieldType::Timestamp),
        }
    }
}

/// Every field the key reads, in first-use order, with the strongest type its segments ask
/// for (a `timestamp` holds what an integer segment reads, so it wins over `long`).
fn key_uses(doc: &DesignDocument) -> Vec<(String, Want, &'static str)> {
    fn walk(v: &serde_json::Value, out: &mut Vec<(String, Want, &'static str)>) {
        match v {
            serde_json::Value::Object(m) => {
                if let Some(serde_json::Value::String(field)) = m.get("field") {
                    let kind = m.get("kind").and_then(|k| k.as_str()).unwrap_or("");
                    let want = Want::of_kind(kind, m.get("type").and_then(|t| t.as_str()));
                    let why = why(kind);
                    match out.iter_mut().find(|(f, _, _)| f == field) {
                        Some(u) if want > u.1 => {
                            u.1 = want;
                            u.2 = why;
                        }
                        Some(_) => {}
                        None => out.push((field.clone(), want, why)),
                    }
                }
                m.values().for_each(|x| walk(x, out));
            }
            serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    fn why(kind: &str) -> &'static str {
        match kind {
            "time" => "the key formats it as a time",
            "revts" => "the key reverses it as a timestamp",
            "bucket" => "the key buckets it as a time",
            "baseTime" => "the key takes its base hour",
            "dec" => "the key writes it as decimal digits",
            "long" | "int" | "short" => "the key writes it as an integer",
            "double" | "float" => "the key writes it as a floating-point number",
            "bool" => "the key writes it as a boolean",
            "bigDecimal" => "the key writes it as a decimal",
            "pk" => "its Phoenix column's SQL type",
            _ => "",
        }
    }
    let mut out = Vec::new();
    if let Ok(v) = serde_json::to_value(&doc.key) {
        walk(&v, &mut out);
    }
    out
}

/// A column's type as the file gives it, for a field the key writes as it is.
enum ColumnType {
    /// Text in a CSV file: the key writes it as text.
    CsvText,
    /// A JSON value's kind in the first rows (`None`: only nulls there).
    Json(Option<FieldType>),
    /// An Arrow column's type.
    Arrow(DataType),
}

/// Every column's type as the file gives it.
enum Columns {
    Csv,
    /// The kind of each column's first value in the first rows.
    Json(BTreeMap<String, FieldType>),
    Arrow(Schema),
}

impl Columns {
    /// Column `c`'s type.
    fn of(&self, c: &str) -> ColumnType {
        match self {
            Columns::Csv => ColumnType::CsvText,
            Columns::Json(kinds) => ColumnType::Json(kinds.get(c).copied()),
            Columns::Arrow(schema) => ColumnType::Arrow(
                schema
                    .field_with_name(c)
                    .map(|f| f.data_type().clone())
                    .unwrap_or(DataType::Null),
            ),
        }
    }
}

fn arrow_type(column: &str, t: &DataType) -> Result<FieldType> {
    use DataType as D;
    Ok(match t {
        D::Int64 | D::UInt32 | D::UInt64 => FieldType::Long,
        D::Int32 | D::UInt16 => FieldType::Int,
        D::Int16 | D::Int8 | D::UInt8 => FieldType::Short,
        D::Float64 => FieldType::Double,
        D::Float32 | D::Float16 => FieldType::Float,
        D::Boolean => FieldType::Boolean,
        D::Utf8 | D::LargeUtf8 | D::Utf8View => FieldType::String,
        D::Timestamp(..) | D::Date32 | D::Date64 => FieldType::Timestamp,
        D::Decimal128(..) | D::Decimal256(..) => FieldType::BigDecimal,
        D::Dictionary(_, v) => return arrow_type(column, v),
        _ => {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!(
                    "column `{column}` is of type {t}: a key field reads numbers, text, booleans, times or decimals; declare the field and map it to another column (--map)"
                ),
            )
            .at_path(format!("/fields/{column}")))
        }
    })
}

/// The kind of the first non-null value of each column in the complete JSON lines of `head`.
fn json_kinds(name: &str, head: &[u8], whole: bool) -> Result<BTreeMap<String, FieldType>> {
    let mut lines: Vec<&[u8]> = head.split(|b| *b == b'\n').collect();
    if !whole {
        // the last piece is a line cut short
        lines.pop();
    }
    let mut kinds = BTreeMap::new();
    for (i, line) in lines.iter().enumerate() {
        let text = std::str::from_utf8(line).unwrap_or("").trim();
        if text.is_empty() {
            continue;
        }
        let Ok(serde_json::Value::Object(m)) = serde_json::from_str::<serde_json::Value>(text)
        else {
            // The reader says exactly what is wrong with the line when it reads it.
            if i == 0 {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!("{name}: line 1 is not a JSON object"),
                ));
            }
            break;
        };
        for (k, v) in m {
            let t = match v {
                serde_json::Value::Bool(_) => FieldType::Boolean,
                serde_json::Value::Number(n) if n.is_i64() || n.is_u64() => FieldType::Long,
                serde_json::Value::Number(_) => FieldType::Double,
                serde_json::Value::String(_) => FieldType::String,
                _ => continue,
            };
            kinds.entry(k).or_insert(t);
        }
    }
    Ok(kinds)
}

/// How an export gives a column's values: what decides how two exports' columns are compared
/// ([`crate::rekey::verify`]), as values and not as the bytes of two encodings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ValueKind {
    /// Text that is a value's text, to be read as whatever the other export's column is (a
    /// CSV's cells: `1545` is the number or the text, as the other side says).
    CsvText,
    /// Text (a JSON string, an Arrow string).
    Text,
    /// Whole numbers.
    Integer,
    /// Floating-point numbers.
    Float,
    /// Booleans.
    Boolean,
    /// Instants (an Arrow timestamp or date, any unit).
    Time,
    /// Decimals.
    Decimal,
    /// Nothing to tell by: a JSON column null in the file's first rows, an Arrow `Null`.
    Unknown,
    /// A type the readers do not read as one value (a list, a struct, binary).
    Unsupported,
}

/// One column of an export: its name, how its values come, and its type as the file says it
/// (`Int64`, `Timestamp(Microsecond, None)`, `text (CSV)`), for the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportColumn {
    /// The column's name.
    pub name: String,
    /// How its values come.
    pub kind: ValueKind,
    /// Its type as the file says it.
    pub shown: String,
}

fn arrow_kind(t: &DataType) -> ValueKind {
    use DataType as D;
    match t {
        D::Int8 | D::Int16 | D::Int32 | D::Int64 | D::UInt8 | D::UInt16 | D::UInt32 | D::UInt64 => {
            ValueKind::Integer
        }
        D::Float16 | D::Float32 | D::Float64 => ValueKind::Float,
        D::Boolean => ValueKind::Boolean,
        D::Utf8 | D::LargeUtf8 | D::Utf8View => ValueKind::Text,
        D::Timestamp(..) | D::Date32 | D::Date64 => ValueKind::Time,
        D::Decimal128(..) | D::Decimal256(..) => ValueKind::Decimal,
        D::Null => ValueKind::Unknown,
        D::Dictionary(_, v) => arrow_kind(v),
        _ => ValueKind::Unsupported,
    }
}

/// Every column of an export and how its values come, from its first bytes or its schema:
/// a CSV's header (text), the members of JSON Lines' first rows (each by its first non-null
/// value), an Arrow or Parquet schema.
pub fn export_columns(opts: &RowsOptions, file: FileSample<'_>) -> Result<Vec<ExportColumn>> {
    let arrow_columns = |schema: &Schema| {
        schema
            .fields()
            .iter()
            .map(|f| ExportColumn {
                name: f.name().clone(),
                kind: arrow_kind(f.data_type()),
                shown: f.data_type().to_string(),
            })
            .collect()
    };
    let name = opts.name.as_deref().unwrap_or("rows");
    let (bytes, whole) = match file {
        FileSample::Schema(schema) => return Ok(arrow_columns(schema)),
        FileSample::Head { bytes, whole } => (bytes, whole),
    };
    Ok(match Format::detect(opts.format, opts.name.as_deref(), bytes)? {
        Format::Csv => columns(opts, bytes)?
            .into_iter()
            .map(|name| ExportColumn {
                name,
                kind: ValueKind::CsvText,
                shown: "text (CSV)".into(),
            })
            .collect(),
        Format::JsonLines => {
            let mut names = columns(opts, bytes)?;
            // a member absent from the first row but present in the next ones is a column too
            let kinds = json_members(bytes, whole);
            for k in kinds.keys() {
                if !names.contains(k) {
                    names.push(k.clone());
                }
            }
            names
                .into_iter()
                .map(|c| {
                    let t = kinds.get(&c).copied().flatten();
                    ExportColumn {
                        kind: match t {
                            None => ValueKind::Unknown,
                            Some(FieldType::Boolean) => ValueKind::Boolean,
                            Some(FieldType::Long) => ValueKind::Integer,
                            Some(FieldType::Double) => ValueKind::Float,
                            Some(_) => ValueKind::Text,
                        },
                        shown: match t {
                            None => "JSON null".into(),
                            Some(FieldType::Boolean) => "JSON boolean".into(),
                            Some(FieldType::Long) => "JSON integer".into(),
                            Some(FieldType::Double) => "JSON number".into(),
                            Some(_) => "JSON string".into(),
                        },
                        name: c,
                    }
                })
                .collect()
        }
        f @ (Format::ArrowFile | Format::ArrowStream) => {
            arrow_columns(ipc::head_schema(name, f, bytes)?.as_ref())
        }
        Format::Parquet => {
            return Err(Error::new(
                ErrorKind::IllegalArgument,
                format!("{name}: a Parquet file's columns are in its footer, at its end: give the file itself"),
            ))
        }
    })
}

/// Every member of the complete JSON lines of `head` and the kind of its first non-null value
/// (`None`: null wherever it is there). Lines that are not objects are left to the reader.
fn json_members(head: &[u8], whole: bool) -> BTreeMap<String, Option<FieldType>> {
    let mut lines: Vec<&[u8]> = head.split(|b| *b == b'\n').collect();
    if !whole {
        lines.pop();
    }
    let mut kinds: BTreeMap<String, Option<FieldType>> = BTreeMap::new();
    for line in lines {
        let text = std::str::from_utf8(line).unwrap_or("").trim();
        let Ok(serde_json::Value::Object(m)) = serde_json::from_str::<serde_json::Value>(text)
        else {
            continue;
        };
        for (k, v) in m {
            let t = match v {
                serde_json::Value::Bool(_) => Some(FieldType::Boolean),
                serde_json::Value::Number(n) if n.is_i64() || n.is_u64() => Some(FieldType::Long),
                serde_json::Value::Number(_) => Some(FieldType::Double),
                serde_json::Value::String(_) => Some(FieldType::String),
                serde_json::Value::Null => None,
                // an object or an array: the reader refuses it where a field reads it
                _ => Some(FieldType::String),
            };
            let e = kinds.entry(k).or_insert(None);
            if e.is_none() {
                *e = t;
            }
        }
    }
    kinds
}

/// `doc` with a declaration for every field its key names and does not declare, typed from
/// the file (`opts.map` names a field's column where they differ); the fields so declared,
/// for the report. A design that declares every field its key reads is returned as it is.
/// Not validated: the caller validates the result.
pub fn declare_from_file(
    mut doc: DesignDocument,
    opts: &RowsOptions,
    file: FileSample<'_>,
) -> Result<(DesignDocument, Vec<InferredField>)> {
    let missing: Vec<_> = key_uses(&doc)
        .into_iter()
        .filter(|(f, _, _)| !doc.fields.iter().any(|d| &d.name == f))
        .collect();
    if missing.is_empty() {
        return Ok((doc, Vec::new()));
    }
    let name = opts.name.as_deref().unwrap_or("rows");
    let (columns, types) = match file {
        FileSample::Schema(schema) => (arrow::names(schema), Columns::Arrow(schema.clone())),
        FileSample::Head { bytes, whole } => {
            let format = Format::detect(opts.format, opts.name.as_deref(), bytes)?;
            match format {
                Format::Csv => (columns(opts, bytes)?, Columns::Csv),
                Format::JsonLines => (
                    columns(opts, bytes)?,
                    Columns::Json(json_kinds(name, bytes, whole)?),
                ),
                Format::ArrowFile | Format::ArrowStream => {
                    let schema = ipc::head_schema(name, format, bytes)?;
                    (
                        arrow::names(&schema),
                        Columns::Arrow(schema.as_ref().clone()),
                    )
                }
                Format::Parquet => {
                    let names: Vec<&str> = missing.iter().map(|(f, _, _)| f.as_str()).collect();
                    return Err(Error::new(
                        ErrorKind::IllegalArgument,
                        format!(
                            "{name}: a Parquet file read as a stream: its columns' types are in its footer, at its end; declare the fields the key reads ({}) in the design, or give the file itself",
                            names.join(", ")
                        ),
                    )
                    .at_path("/fields"));
                }
            }
        }
    };
    let mut inferred = Vec::with_capacity(missing.len());
    for (field, want, why) in missing {
        let column = opts
            .map
            .get(&field)
            .cloned()
            .unwrap_or_else(|| field.clone());
        if !columns.contains(&column) {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!(
                    "the key reads `{field}`, which the design does not declare, and {name} has no column `{column}` (columns: {}); declare the field, or map it to a column with --map {field}=COLUMN",
                    columns.join(", ")
                ),
            )
            .at_path("/fields"));
        }
        let (field_type, basis) = match want.field_type() {
            Some(t) => (t, why.to_string()),
            None => match types.of(&column) {
                ColumnType::CsvText => (
                    FieldType::String,
                    "a CSV column, written as its text".into(),
                ),
                ColumnType::Json(Some(t)) => (
                    t,
                    format!("its values in {name}'s first rows are {}", t.name()),
                ),
                ColumnType::Json(None) => (
                    FieldType::String,
                    format!("no value in {name}'s first rows: read as text"),
                ),
                ColumnType::Arrow(dt) => (
                    arrow_type(&column, &dt)?,
                    format!("the column's type, {dt}"),
                ),
            },
        };
        doc.fields.push(FieldDecl {
            name: field.clone(),
            field_type,
            cardinality: None,
            generator: None,
        });
        inferred.push(InferredField {
            field,
            column,
            field_type,
            basis,
        });
    }
    Ok((doc, inferred))
}

#[cfg(test)]
mod tests;
