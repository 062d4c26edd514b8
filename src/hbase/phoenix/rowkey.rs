//! The row key Phoenix writes for `UPSERT INTO t VALUES (...)`: each value is assigned to its
//! column (`UpsertCompiler`'s literal path: `LiteralExpression.newConstant`, `toObject`,
//! `isSizeCompatible`, `coerceBytes`), then `PTableImpl.newKey` joins the columns:
//!
//! * trailing NULL columns are dropped (an empty VARCHAR/VARBINARY is NULL);
//! * after a variable-width column (DECIMAL, VARCHAR, VARBINARY) comes a separator: `00`, or
//!   `ff` after a non-NULL DESC value when the table is `rowKeyOrderOptimizable`; the last
//!   column gets a trailing `ff` only in that DESC case;
//! * a NULL in a NOT NULL column, or a missing fixed-width column, is `ConstraintViolation`
//!   (`T.K1 may not be null`); a key with no values at all is `Primary key may not be null (T)`;
//! * each column's size is checked again and CHAR/BINARY are padded to their length (a NULL
//!   CHAR(n) in the middle of the key is written as `n` spaces);
//! * a salted table's key starts with `SaltingUtil.getSaltingByte` over the rest of the key.

use super::decimal;
use super::types::{PhoenixType, PhoenixValue};
use super::{constraint_violation, data_exceeds, illegal_data, SortOrder};
use crate::error::{Error, ErrorKind, Result};
use crate::hbase::salt::phoenix::{salting_byte, MAX_BUCKET_NUM};

/// `QueryConstants.SEPARATOR_BYTE`: ends a variable-width value.
pub const SEPARATOR_BYTE: u8 = 0x00;
/// `QueryConstants.DESC_SEPARATOR_BYTE`: ends a non-NULL DESC variable-width value in a
/// `rowKeyOrderOptimizable` table.
pub const DESC_SEPARATOR_BYTE: u8 = 0xff;

/// A primary-key column as `PColumn` describes it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PhoenixColumn {
    /// The column name (used in messages: `T.K1 may not be null`).
    pub name: String,
    /// The SQL type.
    #[serde(rename = "type")]
    pub data_type: PhoenixType,
    /// ASC or DESC.
    #[serde(default)]
    pub sort_order: SortOrder,
    /// Whether NULL is allowed (primary-key columns are NOT NULL unless declared otherwise).
    #[serde(default)]
    pub nullable: bool,
    /// CHAR/BINARY/VARCHAR/VARBINARY length, or DECIMAL precision.
    #[serde(default)]
    pub max_length: Option<i32>,
    /// DECIMAL scale.
    #[serde(default)]
    pub scale: Option<i32>,
}

/// A table's row-key shape: its primary-key columns in key order, salting, and
/// `PTable.rowKeyOrderOptimizable()` (true for tables created by Phoenix 4.7 and later).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PhoenixTable {
    /// The table name (used in messages).
    pub name: String,
    /// The user's primary-key columns (without the `_SALT` column Phoenix adds).
    pub columns: Vec<PhoenixColumn>,
    /// `SALT_BUCKETS`, 1..=256, or `None` for an unsalted table.
    #[serde(default)]
    pub salt_buckets: Option<i32>,
    /// Whether DESC variable-width values end with `ff` (else always `00`).
    #[serde(default = "yes")]
    pub row_key_order_optimizable: bool,
}

fn yes() -> bool {
    true
}

/// `SchemaUtil.getSeparatorByte(rowKeyOrderOptimizable, isNullValue, sortOrder)`.
pub fn separator_byte(row_key_order_optimizable: bool, is_null: bool, so: SortOrder) -> u8 {
    if !row_key_order_optimizable || is_null || so == SortOrder::Asc {
        SEPARATOR_BYTE
    } else {
        DESC_SEPARATOR_BYTE
    }
}

fn utf16_len(v: &PhoenixValue) -> i64 {
    match v {
        PhoenixValue::String(s) => s.len() as i64,
        _ => 0,
    }
}

/// The bytes column `column` receives from `UPSERT ... VALUES (value)` (`None` is NULL, and
/// so is an empty VARCHAR or VARBINARY: both give the empty array). The checks are Phoenix's:
/// DECIMAL integer digits (see [`decimal::coerce`]), CHAR/BINARY/VARCHAR/VARBINARY length
/// (`DataExceedsCapacity`), CHAR single-byte characters and UNSIGNED signs (`IllegalData`);
/// FLOAT/DOUBLE NaN and infinities are `NumberFormat`, because Phoenix computes the literal's
/// precision with `BigDecimal.valueOf`. CHAR and BINARY come back padded to their length. A
/// BOOLEAN literal is encoded ascending and then inverted for a DESC column (`fe` for true),
/// unlike `PBoolean.toBytes(true, DESC)` (`00`).
pub fn assign_value(column: &PhoenixColumn, value: Option<&PhoenixValue>) -> Result<Vec<u8>> {
    let (ty, so) = (column.data_type, column.sort_order);
    let Some(v) = value else {
        return Ok(Vec::new());
    };
    let at = |e: Error| e.at_path(column.name.clone());
    if ty == PhoenixType::Boolean {
        // LiteralExpression's shared BOOLEAN constants are ASC; coerceBytes inverts them.
        return Ok(so.apply(ty.to_bytes(Some(v), SortOrder::Asc).map_err(at)?));
    }
    let bytes = ty.to_bytes(Some(v), so).map_err(at)?;
    match v {
        PhoenixValue::Float(f) if !f.is_finite() => return Err(at(not_finite(ty, v))),
        PhoenixValue::Double(d) if !d.is_finite() => return Err(at(not_finite(ty, v))),
        _ => {}
    }
    if bytes.is_empty() {
        return Ok(bytes);
    }
    let exceeds = |len: i64| column.max_length.is_some_and(|m| len > i64::from(m));
    let too_wide =
        |what: String| data_exceeds(&column.name, ty, column.max_length, column.scale, &what);
    match (ty, v) {
        (PhoenixType::Decimal, PhoenixValue::Decimal(d)) => {
            decimal::coerce(d, column.max_length, column.scale, so, &column.name)
        }
        (PhoenixType::Char | PhoenixType::Varchar, _) if exceeds(utf16_len(v)) => {
            Err(too_wide(format!("value {v} ({} characters)", utf16_len(v))))
        }
        (PhoenixType::Binary | PhoenixType::Varbinary, _) if exceeds(bytes.len() as i64) => {
            Err(too_wide(format!("a value of {} bytes", bytes.len())))
        }
        (PhoenixType::Char | PhoenixType::Binary, _) => Ok(match column.max_length {
            Some(m) => ty.pad(bytes, usize::try_from(m).unwrap_or(0), so),
            None => bytes,
        }),
        _ => Ok(bytes),
    }
}

fn not_finite(ty: PhoenixType, v: &PhoenixValue) -> Error {
    Error::new(
        ErrorKind::NumberFormat,
        format!(
            "{} {v} cannot be a key value: Phoenix takes the literal's precision from \
             BigDecimal.valueOf, which rejects NaN and infinities",
            ty.sql_name()
        ),
    )
}

/// More values than the table has primary-key columns: refused, naming both counts.
fn at_most_columns(table: &PhoenixTable, values: usize) -> Result<()> {
    if values > table.columns.len() {
        return Err(Error::arg(
            "values",
            format!(
                "{values} values for the {} primary-key columns of {}",
                table.columns.len(),
                table.name
            ),
        ));
    }
    Ok(())
}

/// `PTableImpl.newKey(key, values)` over the assigned bytes of the user's primary-key columns
/// (one per column, empty = NULL; fewer values than columns leave the rest NULL). See the
/// module docs for the rules.
pub fn new_key(table: &PhoenixTable, values: &[Vec<u8>]) -> Result<Vec<u8>> {
    at_most_columns(table, values.len())?;
    let buckets = salt_buckets(table)?;
    let salted = usize::from(buckets.is_some());
    let rko = table.row_key_order_optimizable;
    // UpsertCompiler.setValues: a salted key's PK values start with the `{0}` placeholder.
    let n_columns = table.columns.len() + salted;
    let value_at = |i: usize| -> &[u8] {
        if i < salted {
            &[0]
        } else {
            values.get(i - salted).map_or(&[][..], Vec::as_slice)
        }
    };
    let mut n_values = values.len() + salted;
    while n_values > 0 && value_at(n_values - 1).is_empty() {
        n_values -= 1;
    }
    let mut out: Vec<u8> = Vec::new();
    let mut i = salted;
    if buckets.is_some() {
        out.push(SEPARATOR_BYTE); // room for the salt byte
    }
    let mut previous: Option<&PhoenixColumn> = None;
    let mut was_null = false;
    while i < n_values && i < n_columns {
        if let Some(p) = previous.filter(|p| !p.data_type.is_fixed_width()) {
            out.push(separator_byte(rko, was_null, p.sort_order));
        }
        let Some(column) = table.columns.get(i - salted) else {
            break;
        };
        let value = value_at(i);
        i += 1;
        was_null = value.is_empty();
        if was_null && !column.nullable {
            return Err(may_not_be_null(table, column));
        }
        if !key_size_compatible(column, value)? {
            let what = format!("a value of {} bytes", value.len());
            return Err(data_exceeds(
                &column.name,
                column.data_type,
                column.max_length,
                column.scale,
                &what,
            ));
        }
        out.extend_from_slice(&pad_key_column(column, value)?);
        previous = Some(column);
    }
    if let Some(p) = previous.filter(|p| !p.data_type.is_fixed_width()) {
        if separator_byte(rko, was_null, p.sort_order) == DESC_SEPARATOR_BYTE {
            out.push(DESC_SEPARATOR_BYTE);
        }
    }
    // Only the first column not reached is checked (as Phoenix does).
    if let Some(column) = i.checked_sub(salted).and_then(|c| table.columns.get(c)) {
        if column.data_type.is_fixed_width() || !column.nullable {
            return Err(may_not_be_null(table, column));
        }
    }
    if n_values == 0 {
        return Err(constraint_violation(format!(
            "Primary key may not be null ({})",
            table.name
        )));
    }
    if let (Some(n), Some(rest)) = (buckets, out.get(1..)) {
        let len = i32::try_from(rest.len())
            .map_err(|_| Error::limit("values", "row key longer than a Java array"))?;
        let salt = salting_byte(&out, 1, len, n)?;
        if let Some(first) = out.first_mut() {
            *first = salt;
        }
    }
    Ok(out)
}

/// The row key of one UPSERT: [`assign_value`] for each column (in order, so the first bad
/// value is the one reported), then [`new_key`].
pub fn row_key(table: &PhoenixTable, values: &[Option<PhoenixValue>]) -> Result<Vec<u8>> {
    at_most_columns(table, values.len())?;
    let assigned = table
        .columns
        .iter()
        .zip(values)
        .map(|(c, v)| assign_value(c, v.as_ref()))
        .collect::<Result<Vec<_>>>()?;
    new_key(table, &assigned)
}

fn salt_buckets(table: &PhoenixTable) -> Result<Option<i32>> {
    match table.salt_buckets {
        Some(n) if !(1..=MAX_BUCKET_NUM).contains(&n) => Err(Error::arg(
            "saltBuckets",
            format!("SALT_BUCKETS must be 1..=256, got {n}"),
        )),
        b => Ok(b),
    }
}

fn may_not_be_null(table: &PhoenixTable, column: &PhoenixColumn) -> Error {
    constraint_violation(format!("{}.{} may not be null", table.name, column.name))
        .at_path(column.name.clone())
}

/// The length CHAR/BINARY pad to; Phoenix needs one (`NullPointerException` without).
fn declared_length(column: &PhoenixColumn) -> Result<usize> {
    column
        .max_length
        .and_then(|m| usize::try_from(m).ok())
        .ok_or_else(|| {
            Error::arg(
                &column.name,
                format!(
                    "{} column {} needs a length ({}(n))",
                    column.data_type.sql_name(),
                    column.name,
                    column.data_type.sql_name()
                ),
            )
        })
}

/// `type.isSizeCompatible(key, null, type, sortOrder, null, null, maxLength, scale)` as
/// `newKey` calls it on a column's stored bytes.
fn key_size_compatible(column: &PhoenixColumn, value: &[u8]) -> Result<bool> {
    let max = column.max_length.map(i64::from);
    if value.is_empty() {
        return Ok(true);
    }
    Ok(match (column.data_type, max) {
        (PhoenixType::Decimal, _) => {
            decimal::key_bytes_fit(value, column.max_length, column.scale, column.sort_order)?
        }
        (PhoenixType::Varchar, Some(m)) => {
            utf8_length(value, column.sort_order).map_err(|e| e.at_path(column.name.clone()))? <= m
        }
        // CHAR/BINARY pad first, so only a longer value fails; VARBINARY compares its length.
        (PhoenixType::Char | PhoenixType::Binary | PhoenixType::Varbinary, Some(m)) => {
            value.len() as i64 <= m
        }
        _ => true,
    })
}

/// `StringUtil.calculateUTF8Length`: characters counted by their UTF-8 lead bytes (a byte
/// that cannot start a character is Phoenix's `UndecodableByteException`).
fn utf8_length(b: &[u8], so: SortOrder) -> Result<i64> {
    let (mut i, mut n) = (0usize, 0i64);
    while let Some(&x) = b.get(i) {
        let c = so.normalize(x);
        i += match c {
            _ if c & 0x80 == 0 => 1,
            _ if c & 0xe0 == 0xc0 => 2,
            _ if c & 0xf0 == 0xe0 => 3,
            _ if c & 0xf8 == 0xf0 => 4,
            _ => {
                return Err(illegal_data(format!(
                    "byte {c:#04x} at {i} does not start a UTF-8 character"
                )))
            }
        };
        n += 1;
    }
    Ok(n)
}

/// `type.pad(key, maxLength, sortOrder)`: CHAR/BINARY to their length (NULL included).
fn pad_key_column(column: &PhoenixColumn, value: &[u8]) -> Result<Vec<u8>> {
    match column.data_type {
        PhoenixType::Char | PhoenixType::Binary => {
            Ok(column
                .data_type
                .pad(value.to_vec(), declared_length(column)?, column.sort_order))
        }
        _ => Ok(value.to_vec()),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::hbase::phoenix::Decimal;

    fn col(name: &str, t: PhoenixType, so: SortOrder, nullable: bool) -> PhoenixColumn {
        PhoenixColumn {
            name: name.into(),
            data_type: t,
            sort_order: so,
            nullable,
            max_length: None,
            scale: None,
        }
    }

    fn table(columns: Vec<PhoenixColumn>) -> PhoenixTable {
        PhoenixTable {
            name: "T".into(),
            columns,
            salt_buckets: None,
            row_key_order_optimizable: true,
        }
    }

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    #[test]
    fn desc_varchar_gets_ff_separators() {
        let t = table(vec![
            col("K1", PhoenixType::Varchar, SortOrder::Desc, true),
            col("K2", PhoenixType::Integer, SortOrder::Asc, false),
        ]);
        let k = row_key(
            &t,
            &[
                Some(PhoenixValue::string("a")),
                Some(PhoenixValue::Integer(1)),
            ],
        );
        assert_eq!(hex(&k.unwrap()), "9eff80000001");
    }

    #[test]
    fn nulls_are_checked_like_phoenix() {
        let t = table(vec![
            col("K1", PhoenixType::Varchar, SortOrder::Asc, true),
            col("K2", PhoenixType::Varchar, SortOrder::Asc, false),
        ]);
        let e = row_key(&t, &[None, None]).unwrap_err();
        assert_eq!(
            (e.kind, e.message.as_str()),
            (
                ErrorKind::ConstraintViolation,
                "Primary key may not be null (T)"
            )
        );
        let e = row_key(
            &t,
            &[
                Some(PhoenixValue::string("")),
                Some(PhoenixValue::string("x")),
            ],
        );
        assert_eq!(hex(&e.unwrap()), "0078");
        let t = table(vec![col("K1", PhoenixType::Varchar, SortOrder::Asc, false)]);
        let e = row_key(&t, &[Some(PhoenixValue::string(""))]).unwrap_err();
        assert_eq!(e.message, "T.K1 may not be null");
    }

    #[test]
    fn decimal_capacity_is_reported_in_column_terms() {
        let mut c = col("K1", PhoenixType::Decimal, SortOrder::Asc, false);
        c.max_length = Some(5);
        c.scale = Some(2);
        let t = table(vec![c]);
        let v = Some(PhoenixValue::Decimal(Decimal::parse("1234.5").unwrap()));
        let e = row_key(&t, &[v]).unwrap_err();
        assert_eq!(e.kind, ErrorKind::DataExceedsCapacity);
        assert_eq!(e.to_string(), "K1: value 1234.5 exceeds DECIMAL(5,2)");
    }

    #[test]
    fn salted_key_starts_with_the_salt_of_the_rest() {
        let mut t = table(vec![col("K1", PhoenixType::Integer, SortOrder::Asc, false)]);
        t.salt_buckets = Some(4);
        let k = row_key(&t, &[Some(PhoenixValue::Integer(1))]).unwrap();
        let salt = crate::hbase::salt::phoenix::salt_for(&[0x80, 0, 0, 1], 4).unwrap();
        assert_eq!(k, vec![salt, 0x80, 0, 0, 1]);
        t.salt_buckets = Some(0);
        assert!(row_key(&t, &[Some(PhoenixValue::Integer(1))]).is_err());
    }

    #[test]
    fn null_char_in_the_middle_is_spaces() {
        let mut c = col("K1", PhoenixType::Char, SortOrder::Asc, true);
        c.max_length = Some(3);
        let t = table(vec![
            c,
            col("K2", PhoenixType::Varchar, SortOrder::Asc, false),
        ]);
        let k = row_key(&t, &[None, Some(PhoenixValue::string("x"))]).unwrap();
        assert_eq!(hex(&k), "20202078");
    }
}
