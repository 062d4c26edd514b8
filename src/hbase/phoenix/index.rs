//! The row key of a Phoenix secondary index, ported from `IndexMaintainer.buildRowKey`
//! (`phoenix-core-client`, apache/phoenix `6d9ec471`), with the type rule of
//! `IndexUtil.getIndexColumnDataType` and the column order of `MetaDataClient.createIndex`.
//!
//! An index row key is, in order:
//!
//! * a local index: the data region's start key (or as many zero bytes as its end key is long,
//!   for the first region), then the index id as a `SMALLINT` (the first local index of a table
//!   is `Short.MIN_VALUE`, bytes `0000`, the next `0001`: the view-index sequence starts there);
//! * a salted global index: one byte, set last to `SaltingUtil.getSaltingByte` over the rest of
//!   the key with the **index's** bucket count;
//! * each indexed column, then each data primary-key column not indexed, in the data key's
//!   order. A column whose type is fixed-width and whose value may be NULL cannot be fixed-width
//!   in a row key, so the index stores it as another type: a numeric, date/time or BOOLEAN
//!   column becomes `DECIMAL` (an `INTEGER` 5 is `c106` in the index, not `80000005`), a `CHAR`
//!   a `VARCHAR`, a `BINARY` a `VARBINARY`. A non-key column of the data table is always taken
//!   as nullable there. Values are converted with `PDecimal.toObject` (`BigDecimal.valueOf` of
//!   the number, of a date's milliseconds, of a timestamp's milliseconds: Java's integer
//!   division drops its sub-millisecond nanoseconds; `1`/`0` for a BOOLEAN);
//! * DESC: the data bytes are inverted when the data column's order and the index column's
//!   differ. A converted value is first re-encoded ascending, then inverted on the same test:
//!   a nullable fixed-width DESC data key column indexed DESC is therefore written ascending,
//!   an oddity of Phoenix kept here;
//! * after each variable-width column its separator (`00`, or `ff` after a non-NULL DESC value),
//!   then trailing `00` bytes are dropped, one per trailing variable-width column, while the key
//!   ends with one (so a trailing `VARBINARY` value ending in `00` loses that byte, as in
//!   Phoenix).

use super::decode::decode_row_key;
use super::rowkey::{separator_byte, PhoenixTable};
use super::types::{PhoenixType, PhoenixValue};
use super::{Decimal, SortOrder};
use crate::error::{Error, ErrorKind, Result};
use crate::hbase::salt::phoenix::salting_byte;

/// `Short.MIN_VALUE`: the index id the first local index of a table receives (the view-index
/// id sequence of `MetaDataEndpointImpl` starts there and counts up by one).
pub const FIRST_LOCAL_INDEX_ID: i16 = i16::MIN;

/// Where an index column's value comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IndexSource {
    /// The data table's primary-key column at this position (without the salt column).
    DataPk(usize),
    /// A column outside the data table's key (a `KeyValueColumnExpression`): its value is the
    /// cell's bytes, stored ascending; Phoenix counts it nullable.
    Cell {
        /// Its data type.
        data_type: PhoenixType,
        /// Whether it may be NULL (declared `NOT NULL` or not).
        nullable: bool,
    },
    /// An indexed expression (a functional index: [`super::functions`]): its value is what
    /// the expression leaves from the data row, stored ascending, given as a cell's is; its
    /// type and nullability are the expression's, and `maxTrailingNulls` counts it nullable.
    Expression {
        /// The expression's type (`getDataType()`).
        data_type: PhoenixType,
        /// Whether it may be NULL (`isNullable()`).
        nullable: bool,
    },
}

/// One column of an index's primary key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexColumn {
    /// The column name (used in messages).
    pub name: String,
    /// Where its value comes from.
    pub source: IndexSource,
    /// The index column's order (`DESC` in `CREATE INDEX ... (c DESC)`; a data key column not
    /// indexed keeps the data column's order).
    pub sort_order: SortOrder,
}

/// The shape of an index's row key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexKeyShape {
    /// The data table (its key columns, its salting, `rowKeyOrderOptimizable`, which the index
    /// inherits).
    pub data: PhoenixTable,
    /// The index's primary key, in order: the indexed columns, then the data key columns not
    /// indexed (see [`index_pk`]).
    pub columns: Vec<IndexColumn>,
    /// The index's own `SALT_BUCKETS` (a global index only; a local index is never salted).
    pub salt_buckets: Option<i32>,
    /// A local index's id (`None`: a global index).
    pub local_index_id: Option<i16>,
}

/// `IndexUtil.getIndexColumnDataType(isNullable, dataType)`: the type a column has in an
/// index. A nullable fixed-width type becomes variable-width: numbers, dates, times,
/// timestamps and BOOLEAN `DECIMAL` (all are `isCastableTo(PDecimal)`), CHAR `VARCHAR`,
/// BINARY `VARBINARY`.
pub fn index_column_type(nullable: bool, t: PhoenixType) -> PhoenixType {
    use PhoenixType as P;
    if !nullable || !t.is_fixed_width() {
        return t;
    }
    match t {
        P::Char => P::Varchar,
        P::Binary => P::Varbinary,
        _ => P::Decimal,
    }
}

/// `dataType.isBytesComparableWith(indexType)`: the data bytes can be copied as they are.
fn bytes_comparable(data: PhoenixType, index: PhoenixType) -> bool {
    use PhoenixType as P;
    data == index
        || matches!(data, P::Varbinary | P::Binary)
        || (data == P::Char && index == P::Varchar)
        || (data == P::Varchar && index == P::Char)
}

/// The index's primary key (`MetaDataClient.createIndex`): the indexed columns in their order,
/// then every data key column not among them, in the data key's order and sort order.
pub fn index_pk(data: &PhoenixTable, indexed: &[IndexColumn]) -> Vec<IndexColumn> {
    let mut out = indexed.to_vec();
    for (i, c) in data.columns.iter().enumerate() {
        let taken = indexed
            .iter()
            .any(|x| matches!(x.source, IndexSource::DataPk(p) if p == i));
        if !taken {
            out.push(IndexColumn {
                name: c.name.clone(),
                source: IndexSource::DataPk(i),
                sort_order: c.sort_order,
            });
        }
    }
    out
}

impl IndexKeyShape {
    /// The data type, nullability and data sort order of index column `c`.
    fn data_of(&self, c: &IndexColumn) -> Result<(PhoenixType, bool, SortOrder)> {
        match &c.source {
            IndexSource::DataPk(i) => {
                let d = self.data.columns.get(*i).ok_or_else(|| {
                    Error::arg(
                        &c.name,
                        format!("the data table has no primary-key column {i}"),
                    )
                })?;
                Ok((d.data_type, d.nullable, d.sort_order))
            }
            IndexSource::Cell {
                data_type,
                nullable,
            }
            | IndexSource::Expression {
                data_type,
                nullable,
            } => Ok((*data_type, *nullable, SortOrder::Asc)),
        }
    }

    /// Each index column's type in the index (`IndexUtil.getIndexColumnDataType`).
    pub fn index_types(&self) -> Result<Vec<PhoenixType>> {
        self.columns
            .iter()
            .map(|c| {
                let (t, nullable, _) = self.data_of(c)?;
                Ok(index_column_type(nullable, t))
            })
            .collect()
    }

    /// `maxTrailingNulls`: the trailing index columns of variable width, a cell column counted
    /// nullable whatever it declares (as the `IndexMaintainer` constructor counts them).
    fn max_trailing_nulls(&self) -> Result<usize> {
        let mut n = 0;
        for c in self.columns.iter().rev() {
            let (t, nullable, _) = self.data_of(c)?;
            let nullable = nullable || !matches!(c.source, IndexSource::DataPk(_));
            if index_column_type(nullable, t).is_fixed_width() {
                break;
            }
            n += 1;
        }
        Ok(n)
    }
}

/// `PDecimal.toObject(object, actualType)`: the `BigDecimal` a value of another type becomes.
fn to_decimal(v: &PhoenixValue) -> Result<Decimal> {
    use crate::hbase::bytes::java_double_to_string;
    use PhoenixValue as V;
    match v {
        V::Integer(x) => Ok(Decimal::from_i64(i64::from(*x))),
        V::Long(x) => Ok(Decimal::from_i64(*x)),
        V::Short(x) => Ok(Decimal::from_i64(i64::from(*x))),
        V::Byte(x) => Ok(Decimal::from_i64(i64::from(*x))),
        // BigDecimal.valueOf(double): the float widened to a double, through Double.toString.
        V::Float(f) => Decimal::parse(&java_double_to_string(f64::from(*f))),
        V::Double(d) => Decimal::parse(&java_double_to_string(*d)),
        V::Decimal(d) => Ok(d.clone()),
        V::Date(ms) | V::Time(ms) => Ok(Decimal::from_i64(*ms)),
        // millis + BigDecimal.valueOf((nanos % 1000000) / 1000000): an int division, always 0.
        V::Timestamp(t) => Ok(Decimal::from_i64(t.get_time())),
        V::Boolean(b) => Ok(Decimal::from_i64(i64::from(*b))),
        V::String(_) | V::Bytes(_) => Err(Error::new(
            ErrorKind::ConstraintViolation,
            "a text or binary value cannot become DECIMAL in an index",
        )),
    }
}

/// `indexType.coerceBytes(ptr, dataType, dataSortOrder, ASC)` for a type that is not bytes
/// comparable: the value read in the data type, written ascending in the index type, appended
/// to `out`. A whole number becoming `DECIMAL` (an integer type, a date's or a time's
/// milliseconds, a timestamp's, a BOOLEAN's 1 or 0: [`to_decimal`]'s `from_i64`) is written
/// without building the `BigDecimal`.
fn coerce_into(
    index: PhoenixType,
    data: PhoenixType,
    so: SortOrder,
    b: &[u8],
    out: &mut Vec<u8>,
) -> Result<()> {
    use PhoenixValue as V;
    let Some(v) = data.to_object(b, so)? else {
        return Ok(());
    };
    if index == PhoenixType::Decimal {
        let whole = match &v {
            V::Integer(x) => Some(i64::from(*x)),
            V::Long(x) => Some(*x),
            V::Short(x) => Some(i64::from(*x)),
            V::Byte(x) => Some(i64::from(*x)),
            V::Date(ms) | V::Time(ms) => Some(*ms),
            V::Timestamp(t) => Some(t.get_time()),
            V::Boolean(b) => Some(i64::from(*b)),
            _ => None,
        };
        if let Some(n) = whole {
            return Decimal::write_i64_phoenix_bytes(n, out);
        }
    }
    let v = match index {
        PhoenixType::Decimal => PhoenixValue::Decimal(to_decimal(&v)?),
        _ => v,
    };
    out.extend_from_slice(&index.to_bytes(Some(&v), SortOrder::Asc)?);
    Ok(())
}

/// `PSmallint.toBytes(id)`: a local index id as it leads the index key.
pub fn local_index_id_bytes(id: i16) -> [u8; 2] {
    ((id as u16) ^ 0x8000).to_be_bytes()
}

/// `IndexMaintainer.buildRowKey`: the index row of the data row whose key is `data_key`
/// (as [`super::new_key`] writes it for `shape.data`), with `cells` the stored bytes of each
/// [`IndexSource::Cell`] and [`IndexSource::Expression`] column in index-key order (empty or
/// missing: NULL). `region` is the
/// data row's region `(start, end)` keys, needed by a local index (see the module docs).
/// The data key's values are decoded (a value its type cannot read is refused); the key is
/// [`IndexKeyPlan::build_into`]'s.
pub fn build_row_key(
    shape: &IndexKeyShape,
    data_key: &[u8],
    cells: &[Vec<u8>],
    region: Option<(&[u8], &[u8])>,
) -> Result<Vec<u8>> {
    let decoded = decode_row_key(&shape.data, data_key)?;
    let spans: Vec<(usize, usize)> = decoded
        .columns
        .iter()
        .map(|c| (c.offset, c.length))
        .collect();
    let mut out = Vec::new();
    IndexKeyPlan::new(shape)?.build_into(data_key, &spans, cells, region, &mut out)?;
    Ok(out)
}

/// How one index column is written, worked out once from the shape.
#[derive(Debug, Clone)]
struct ColumnPlan {
    name: String,
    /// The data key column it copies (`None`: the next cell).
    data_pk: Option<usize>,
    data_type: PhoenixType,
    data_so: SortOrder,
    index_type: PhoenixType,
    /// The data bytes are the index bytes (no conversion).
    comparable: bool,
    /// The bytes are inverted (the data's order and the index's differ).
    invert: bool,
    /// Its order in the index (its separator).
    sort_order: SortOrder,
}

/// An index's row key worked out once from its [`IndexKeyShape`]: each column's source, types,
/// conversion and inversion, `maxTrailingNulls`, the salt. [`build_into`](Self::build_into)
/// then writes a data row's index key from the data key's column spans, into the caller's
/// buffer: what a reading of many rows does, where [`build_row_key`] would work the shape out
/// again and decode every value of each row's data key.
#[derive(Debug, Clone)]
pub struct IndexKeyPlan {
    columns: Vec<ColumnPlan>,
    max_trailing_nulls: usize,
    salted: Option<i32>,
    local_index_id: Option<i16>,
    row_key_order_optimizable: bool,
}

impl IndexKeyPlan {
    /// The plan of `shape`'s key.
    pub fn new(shape: &IndexKeyShape) -> Result<IndexKeyPlan> {
        let mut columns = Vec::with_capacity(shape.columns.len());
        for c in &shape.columns {
            let (data_type, nullable, data_so) = shape.data_of(c)?;
            let index_type = index_column_type(nullable, data_type);
            columns.push(ColumnPlan {
                name: c.name.clone(),
                data_pk: match c.source {
                    IndexSource::DataPk(i) => Some(i),
                    _ => None,
                },
                data_type,
                data_so,
                index_type,
                comparable: bytes_comparable(data_type, index_type),
                invert: (data_so == SortOrder::Desc) != (c.sort_order == SortOrder::Desc),
                sort_order: c.sort_order,
            });
        }
        Ok(IndexKeyPlan {
            columns,
            max_trailing_nulls: shape.max_trailing_nulls()?,
            salted: match (shape.local_index_id, shape.salt_buckets) {
                (None, Some(n)) if n > 0 => Some(n),
                _ => None,
            },
            local_index_id: shape.local_index_id,
            row_key_order_optimizable: shape.data.row_key_order_optimizable,
        })
    }

    /// Append to `out` the index row key of the data row whose key is `data_key`, its columns
    /// at `spans` (`(offset, length)` per data key column: [`super::decode::column_spans`]),
    /// `cells` and `region` as [`build_row_key`] takes them. `out` is left as it was on an
    /// error.
    pub fn build_into(
        &self,
        data_key: &[u8],
        spans: &[(usize, usize)],
        cells: &[Vec<u8>],
        region: Option<(&[u8], &[u8])>,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let start = out.len();
        let built = self.write(data_key, spans, cells, region, out);
        if built.is_err() {
            out.truncate(start);
        }
        built
    }

    fn write(
        &self,
        data_key: &[u8],
        spans: &[(usize, usize)],
        cells: &[Vec<u8>],
        region: Option<(&[u8], &[u8])>,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let local = self.local_index_id;
        if let (Some(_), Some((start, end))) = (local, region) {
            if start.is_empty() {
                out.resize(out.len() + end.len(), 0);
            } else {
                out.extend_from_slice(start);
            }
        }
        let key_start = out.len();
        if self.salted.is_some() {
            out.push(0);
        }
        if let Some(id) = local {
            out.extend_from_slice(&local_index_id_bytes(id));
        }
        let mut trailing_var = 0usize;
        let mut next_cell = cells.iter();
        for c in &self.columns {
            let bytes: &[u8] = match c.data_pk {
                Some(i) => spans
                    .get(i)
                    .and_then(|&(at, len)| data_key.get(at..at + len))
                    .unwrap_or_default(),
                None => next_cell.next().map_or(&[][..], Vec::as_slice),
            };
            let at = out.len();
            if c.comparable {
                out.extend_from_slice(bytes);
            } else {
                coerce_into(c.index_type, c.data_type, c.data_so, bytes, out)
                    .map_err(|e| e.at_path(c.name.clone()))?;
            }
            if c.invert {
                if let Some(w) = out.get_mut(at..) {
                    super::invert(w);
                }
            }
            if c.index_type.is_fixed_width() {
                trailing_var = 0;
            } else {
                let empty = out.len() == at;
                out.push(separator_byte(
                    self.row_key_order_optimizable,
                    empty,
                    c.sort_order,
                ));
                trailing_var += 1;
            }
        }
        // Remove trailing nulls: at most maxTrailingNulls bytes, one 00 per trailing
        // variable-width column.
        let min_len = out.len().saturating_sub(self.max_trailing_nulls);
        while trailing_var > 0 && out.len() > min_len && out.last() == Some(&0) {
            out.pop();
            trailing_var -= 1;
        }
        if let Some(n) = self.salted {
            let rest = out.len().saturating_sub(key_start + 1);
            let len = i32::try_from(rest)
                .map_err(|_| Error::limit("values", "index row key longer than a Java array"))?;
            let off = i32::try_from(key_start + 1)
                .map_err(|_| Error::limit("values", "index row key longer than a Java array"))?;
            let salt = salting_byte(out, off, len, n)?;
            if let Some(b) = out.get_mut(key_start) {
                *b = salt;
            }
        }
        Ok(())
    }
}
