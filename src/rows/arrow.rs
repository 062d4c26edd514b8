//! Arrow record batches into rows: each needed column looked at once per batch for its type,
//! then read cell by cell with no copy (Parquet's and Arrow IPC's readers, and any caller
//! holding Arrow data, end here).

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Date32Type, Date64Type, Decimal128Type, Float32Type, Float64Type, Int16Type, Int32Type,
    Int64Type, Int8Type, TimestampMicrosecondType, TimestampMillisecondType,
    TimestampNanosecondType, TimestampSecondType, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, Schema, TimeUnit};

use super::{Binding, Cell, Format, RowSink, RowStats, Rows, RowsOptions};
use crate::error::{Error, ErrorKind, Result};
use crate::keyspec::FieldType;

/// One column as the rows read it.
enum Col<'a> {
    Null,
    I8(&'a arrow_array::PrimitiveArray<Int8Type>),
    I16(&'a arrow_array::PrimitiveArray<Int16Type>),
    I32(&'a arrow_array::PrimitiveArray<Int32Type>),
    I64(&'a arrow_array::PrimitiveArray<Int64Type>),
    U8(&'a arrow_array::PrimitiveArray<UInt8Type>),
    U16(&'a arrow_array::PrimitiveArray<UInt16Type>),
    U32(&'a arrow_array::PrimitiveArray<UInt32Type>),
    U64(&'a arrow_array::PrimitiveArray<UInt64Type>),
    F32(&'a arrow_array::PrimitiveArray<Float32Type>),
    F64(&'a arrow_array::PrimitiveArray<Float64Type>),
    Bool(&'a arrow_array::BooleanArray),
    Utf8(&'a arrow_array::StringArray),
    LargeUtf8(&'a arrow_array::LargeStringArray),
    Utf8View(&'a arrow_array::StringViewArray),
    /// A timestamp column and its unit's ms per unit: (value, multiplier, divisor).
    Time(&'a dyn Array, fn(&dyn Array, usize) -> i64),
    Decimal(&'a arrow_array::PrimitiveArray<Decimal128Type>, i8),
    /// A dictionary: its keys as indexes, its values a column.
    Dict(Vec<usize>, Box<Col<'a>>, &'a dyn Array),
}

impl<'a> Col<'a> {
    /// The column `array` (named `name`) can be read as, or why not.
    fn of(array: &'a ArrayRef, name: &str) -> Result<Col<'a>> {
        Self::of_dyn(array.as_ref(), name)
    }

    fn of_dyn(a: &'a dyn Array, name: &str) -> Result<Col<'a>> {
        Ok(match a.data_type() {
            DataType::Null => Col::Null,
            DataType::Int8 => Col::I8(a.as_primitive()),
            DataType::Int16 => Col::I16(a.as_primitive()),
            DataType::Int32 => Col::I32(a.as_primitive()),
            DataType::Int64 => Col::I64(a.as_primitive()),
            DataType::UInt8 => Col::U8(a.as_primitive()),
            DataType::UInt16 => Col::U16(a.as_primitive()),
            DataType::UInt32 => Col::U32(a.as_primitive()),
            DataType::UInt64 => Col::U64(a.as_primitive()),
            DataType::Float32 => Col::F32(a.as_primitive()),
            DataType::Float64 => Col::F64(a.as_primitive()),
            DataType::Boolean => Col::Bool(a.as_boolean()),
            DataType::Utf8 => Col::Utf8(a.as_string::<i32>()),
            DataType::LargeUtf8 => Col::LargeUtf8(a.as_string::<i64>()),
            DataType::Utf8View => Col::Utf8View(a.as_string_view()),
            DataType::Timestamp(TimeUnit::Second, _) => Col::Time(a, |a, i| {
                a.as_primitive::<TimestampSecondType>()
                    .value(i)
                    .saturating_mul(1000)
            }),
            DataType::Timestamp(TimeUnit::Millisecond, _) => Col::Time(a, |a, i| {
                a.as_primitive::<TimestampMillisecondType>().value(i)
            }),
            DataType::Timestamp(TimeUnit::Microsecond, _) => Col::Time(a, |a, i| {
                a.as_primitive::<TimestampMicrosecondType>()
                    .value(i)
                    .div_euclid(1000)
            }),
            DataType::Timestamp(TimeUnit::Nanosecond, _) => Col::Time(a, |a, i| {
                a.as_primitive::<TimestampNanosecondType>()
                    .value(i)
                    .div_euclid(1_000_000)
            }),
            DataType::Date32 => Col::Time(a, |a, i| {
                i64::from(a.as_primitive::<Date32Type>().value(i)) * 86_400_000
            }),
            DataType::Date64 => Col::Time(a, |a, i| a.as_primitive::<Date64Type>().value(i)),
            DataType::Decimal128(_, scale) => Col::Decimal(a.as_primitive(), *scale),
            DataType::Dictionary(_, _) => {
                let Some(d) = a.as_any_dictionary_opt() else {
                    return Err(unsupported(name, a.data_type()));
                };
                Col::Dict(
                    d.normalized_keys(),
                    Box::new(Self::of_dyn(d.values().as_ref(), name)?),
                    a,
                )
            }
            t => return Err(unsupported(name, t)),
        })
    }

    /// Row `i`'s cell.
    fn cell(&self, i: usize) -> Cell<'a> {
        match self {
            Col::Null => Cell::Null,
            Col::Dict(keys, values, a) => {
                if a.is_null(i) {
                    return Cell::Null;
                }
                match keys.get(i) {
                    Some(&k) => values.cell(k),
                    None => Cell::Null,
                }
            }
            Col::I8(a) => prim(*a, i).map_or(Cell::Null, |v| Cell::Int(i64::from(v))),
            Col::I16(a) => prim(*a, i).map_or(Cell::Null, |v| Cell::Int(i64::from(v))),
            Col::I32(a) => prim(*a, i).map_or(Cell::Null, |v| Cell::Int(i64::from(v))),
            Col::I64(a) => prim(*a, i).map_or(Cell::Null, Cell::Int),
            Col::U8(a) => prim(*a, i).map_or(Cell::Null, |v| Cell::Int(i64::from(v))),
            Col::U16(a) => prim(*a, i).map_or(Cell::Null, |v| Cell::Int(i64::from(v))),
            Col::U32(a) => prim(*a, i).map_or(Cell::Null, |v| Cell::Int(i64::from(v))),
            Col::U64(a) => prim(*a, i).map_or(Cell::Null, |v| {
                i64::try_from(v).map_or(Cell::BigUint(v), Cell::Int)
            }),
            Col::F32(a) => prim(*a, i).map_or(Cell::Null, |v| Cell::Float(f64::from(v))),
            Col::F64(a) => prim(*a, i).map_or(Cell::Null, Cell::Float),
            Col::Bool(a) => {
                if a.is_null(i) || i >= a.len() {
                    Cell::Null
                } else {
                    Cell::Bool(a.value(i))
                }
            }
            Col::Utf8(a) => text(*a, i),
            Col::LargeUtf8(a) => text(*a, i),
            Col::Utf8View(a) => {
                if a.is_null(i) || i >= a.len() {
                    Cell::Null
                } else {
                    Cell::Text(a.value(i))
                }
            }
            Col::Time(a, ms) => {
                if a.is_null(i) || i >= a.len() {
                    Cell::Null
                } else {
                    Cell::TimeMs(ms(*a, i))
                }
            }
            Col::Decimal(a, scale) => prim(*a, i).map_or(Cell::Null, |v| Cell::Decimal(v, *scale)),
        }
    }
}

fn prim<T: arrow_array::ArrowPrimitiveType>(
    a: &arrow_array::PrimitiveArray<T>,
    i: usize,
) -> Option<T::Native> {
    (i < a.len() && !a.is_null(i)).then(|| a.value(i))
}

fn text<O: arrow_array::OffsetSizeTrait>(
    a: &arrow_array::GenericStringArray<O>,
    i: usize,
) -> Cell<'_> {
    if i >= a.len() || a.is_null(i) {
        Cell::Null
    } else {
        Cell::Text(a.value(i))
    }
}

fn unsupported(name: &str, t: &DataType) -> Error {
    let what = if t.is_nested() {
        format!("nested ({t})")
    } else {
        format!("of type {t}")
    };
    Error::new(
        ErrorKind::Invalid,
        format!("column `{name}` is {what}: a key field reads flat columns of numbers, text, booleans, times or decimals"),
    )
    .at_path(name.to_string())
}

/// The column names of `schema`.
pub(crate) fn names(schema: &Schema) -> Vec<String> {
    schema.fields().iter().map(|f| f.name().clone()).collect()
}

/// Hand on every row of `batch`, its columns bound by `rows`; `first_row` is the number of
/// rows before it, for messages.
pub(crate) fn feed_batch(
    rows: &mut Rows,
    batch: &RecordBatch,
    sink: &mut dyn RowSink,
) -> Result<()> {
    let needed = rows.bind.needed().to_vec();
    let mut cols: Vec<Option<Col<'_>>> = (0..batch.num_columns()).map(|_| None).collect();
    for &c in &needed {
        let (Some(array), Some(slot)) = (batch.columns().get(c), cols.get_mut(c)) else {
            continue;
        };
        let name = rows.bind.column_name(c).to_string();
        *slot = Some(Col::of(array, &name)?);
    }
    for i in 0..batch.num_rows() {
        let row = rows.stats.rows + 1;
        let place = || format!("row {row}");
        rows.row(
            |c| match cols.get(c) {
                Some(Some(col)) => col.cell(i),
                _ => Cell::Null,
            },
            &place,
            sink,
        )?;
    }
    Ok(())
}

/// Rows of Arrow record batches a caller already holds (the Python package, a test): the
/// design's fields (name, type), the fields its key reads, how the columns meet them.
pub fn batch_rows(
    batches: &[RecordBatch],
    fields: &[(String, FieldType)],
    used: &[usize],
    opts: &RowsOptions,
    sink: &mut dyn RowSink,
) -> Result<RowStats> {
    let Some(first) = batches.first() else {
        return Err(Error::new(ErrorKind::Invalid, "no record batches"));
    };
    stream_rows(
        &first.schema(),
        batches.iter().map(|b| Ok(b.clone())),
        fields,
        used,
        opts,
        sink,
    )
}

/// [`batch_rows`] over batches as a stream hands them over (a Spark task's Arrow batches, read
/// from its socket): each batch counted and dropped before the next is read, so memory holds
/// one batch, and the reading of the next overlaps nothing it need wait for. `schema` is the
/// stream's (every batch's).
pub fn stream_rows(
    schema: &Schema,
    batches: impl IntoIterator<Item = Result<RecordBatch>>,
    fields: &[(String, FieldType)],
    used: &[usize],
    opts: &RowsOptions,
    sink: &mut dyn RowSink,
) -> Result<RowStats> {
    let mut rows = BatchRows::new(schema, fields, used, opts)?;
    for b in batches {
        rows.push(&b?, sink)?;
    }
    Ok(rows.finish())
}

/// Rows of Arrow record batches handed over one at a time (a session a caller's stream feeds,
/// [`crate::analyze::RowsSession::push_batch`]): the columns bound once, from the stream's
/// schema, and every batch held to it.
pub struct BatchRows {
    rows: Rows,
    schema: arrow_schema::Fields,
}

impl BatchRows {
    /// Rows of batches of `schema`, bound to the design's fields as [`batch_rows`] binds them.
    pub fn new(
        schema: &Schema,
        fields: &[(String, FieldType)],
        used: &[usize],
        opts: &RowsOptions,
    ) -> Result<BatchRows> {
        let bind = Binding::new(fields, used, names(schema), opts)?;
        Ok(BatchRows {
            rows: Rows::new(bind, opts, Format::ArrowStream),
            schema: schema.fields().clone(),
        })
    }

    /// Hand on every row of `batch`; a batch of another schema than the first is refused (its
    /// columns would be read by the first one's positions).
    pub fn push(&mut self, batch: &RecordBatch, sink: &mut dyn RowSink) -> Result<()> {
        if batch.schema().fields() != &self.schema {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!(
                    "a record batch of another schema than the first: {} where the first had {}",
                    batch.schema(),
                    Schema::new(self.schema.clone())
                ),
            )
            .at_path("source"));
        }
        feed_batch(&mut self.rows, batch, sink)
    }

    /// What reading found.
    pub fn finish(self) -> RowStats {
        self.rows.stats
    }
}

/// [`batch_rows`], and the rows (0-based, across the batches) a `nulls: skip` skipped: a
/// caller that puts each key beside its row (Spark's `encode_df`) drops these rows.
pub fn batch_rows_skipped(
    batches: &[RecordBatch],
    fields: &[(String, FieldType)],
    used: &[usize],
    opts: &RowsOptions,
    sink: &mut dyn RowSink,
) -> Result<(RowStats, Vec<u64>)> {
    let Some(first) = batches.first() else {
        return Err(Error::new(ErrorKind::Invalid, "no record batches"));
    };
    let bind = Binding::new(fields, used, names(&first.schema()), opts)?;
    let mut rows = Rows::new(bind, opts, Format::ArrowStream);
    rows.skipped_at = Some(Vec::new());
    for b in batches {
        feed_batch(&mut rows, b, sink)?;
    }
    let at = rows.skipped_at.take().unwrap_or_default();
    Ok((rows.stats, at))
}
