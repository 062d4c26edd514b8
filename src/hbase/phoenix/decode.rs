//! A Phoenix row key back to its column values: the inverse of [`super::new_key`], reading
//! fields the way `RowKeySchema.next` positions them (salt byte, fixed widths, separators,
//! the trailing DESC separator) and each value with its type's `toObject`.
//!
//! Phoenix's own read-back oddities are kept: a CHAR loses its trailing spaces, a DESC
//! BOOLEAN written by UPSERT (`fe` for true) reads back as false (`PBoolean.toObject` expects
//! `PBoolean.toBytes(b, DESC)`'s `00`/`01`), and a DESC DECIMAL that was rescaled on UPSERT
//! (stored ascending) reads back as some other number.

use super::rowkey::{separator_byte, PhoenixTable, DESC_SEPARATOR_BYTE, SEPARATOR_BYTE};
use super::types::PhoenixValue;
use crate::error::{Error, Result};

/// One column of a decoded key: where its bytes are and what they hold.
#[derive(Debug, Clone, PartialEq)]
pub struct DecodedColumn {
    /// The column name.
    pub name: String,
    /// Offset of the value's bytes in the key.
    pub offset: usize,
    /// Length of the value's bytes (padding included, separators excluded).
    pub length: usize,
    /// The value (`None` for NULL, including columns the key ends before).
    pub value: Option<PhoenixValue>,
}

/// A decoded row key.
#[derive(Debug, Clone, PartialEq)]
pub struct DecodedKey {
    /// The salt byte of a salted table.
    pub salt: Option<u8>,
    /// One entry per primary-key column, in key order.
    pub columns: Vec<DecodedColumn>,
}

impl DecodedKey {
    /// The values alone, in column order.
    pub fn values(&self) -> Vec<Option<PhoenixValue>> {
        self.columns.iter().map(|c| c.value.clone()).collect()
    }
}

/// Split `key` into `table`'s columns and decode each. Errors are the type's (`IllegalData`
/// for bytes a type cannot read); a CHAR/BINARY column without a length is `IllegalArgument`.
pub fn decode_row_key(table: &PhoenixTable, key: &[u8]) -> Result<DecodedKey> {
    let mut spans = Vec::with_capacity(table.columns.len());
    let salt = column_spans(table, key, &mut spans)?;
    let mut columns = Vec::with_capacity(spans.len());
    for (column, &(offset, length)) in table.columns.iter().zip(&spans) {
        let bytes = key.get(offset..offset + length).unwrap_or_default();
        let value = column
            .data_type
            .to_object(bytes, column.sort_order)
            .map_err(|e| e.at_path(column.name.clone()).at_offset(offset))?;
        columns.push(DecodedColumn {
            name: column.name.clone(),
            offset,
            length,
            value,
        });
    }
    Ok(DecodedKey { salt, columns })
}

/// Where each of `table`'s columns is in `key`, as `RowKeySchema.next` positions them: its
/// `(offset, length)` (padding included, separators excluded; a column the key ends before
/// is empty, at the key's end) appended to `spans` (cleared first), without reading any value;
/// the salt byte of a salted table. What [`decode_row_key`] decodes, and what an index key is
/// built from ([`super::index::IndexKeyPlan`]) without decoding the data key's values.
pub fn column_spans(
    table: &PhoenixTable,
    key: &[u8],
    spans: &mut Vec<(usize, usize)>,
) -> Result<Option<u8>> {
    spans.clear();
    let rko = table.row_key_order_optimizable;
    let mut pos = 0usize;
    let salt = if table.salt_buckets.is_some() {
        pos = 1;
        Some(*key.first().ok_or_else(|| {
            Error::arg(
                "key",
                "a salted table's key starts with a salt byte; the key is empty",
            )
        })?)
    } else {
        None
    };
    let n = table.columns.len();
    for (i, column) in table.columns.iter().enumerate() {
        let (ty, so) = (column.data_type, column.sort_order);
        let rest = key.get(pos..).unwrap_or_default();
        let (length, next) = if ty.is_fixed_width() {
            let width = match ty.byte_size() {
                Some(w) => w,
                None => column
                    .max_length
                    .and_then(|m| usize::try_from(m).ok())
                    .ok_or_else(|| {
                        Error::arg(
                            &column.name,
                            format!("{} column needs a length", ty.sql_name()),
                        )
                    })?,
            };
            let len = width.min(rest.len());
            (len, pos + len)
        } else if i + 1 == n {
            // The last field has no terminator unless it is a non-NULL DESC value.
            let trailing = separator_byte(rko, rest.is_empty(), so) == DESC_SEPARATOR_BYTE;
            let len = rest.len().saturating_sub(usize::from(trailing));
            (len, key.len())
        } else if rest.first().map_or(true, |&b| b == SEPARATOR_BYTE) {
            (0, pos + 1)
        } else {
            let sep = separator_byte(rko, false, so);
            let len = rest.iter().position(|&b| b == sep).unwrap_or(rest.len());
            (len, pos + len + 1)
        };
        spans.push((pos.min(key.len()), length));
        pos = next;
    }
    Ok(salt)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::hbase::phoenix::{row_key, PhoenixColumn, PhoenixType, SortOrder};

    #[test]
    fn decodes_what_new_key_writes() {
        let c = |name: &str, t, so, max| PhoenixColumn {
            name: String::from(name),
            data_type: t,
            sort_order: so,
            nullable: true,
            max_length: max,
            scale: None,
        };
        let table = PhoenixTable {
            name: "T".into(),
            columns: vec![
                c("A", PhoenixType::Varchar, SortOrder::Desc, None),
                c("B", PhoenixType::Char, SortOrder::Asc, Some(4)),
                c("C", PhoenixType::Bigint, SortOrder::Desc, None),
                c("D", PhoenixType::Varchar, SortOrder::Asc, None),
                c("E", PhoenixType::Varchar, SortOrder::Desc, None),
            ],
            salt_buckets: Some(8),
            row_key_order_optimizable: true,
        };
        let values = vec![
            Some(PhoenixValue::string("ab")),
            Some(PhoenixValue::string("xy")),
            Some(PhoenixValue::Long(-5)),
            None,
            Some(PhoenixValue::string("z")),
        ];
        let key = row_key(&table, &values).unwrap();
        let d = decode_row_key(&table, &key).unwrap();
        assert_eq!(d.salt, key.first().copied());
        assert_eq!(d.values(), values);
        assert_eq!((d.columns[1].offset, d.columns[1].length), (4, 4));
    }

    #[test]
    fn short_and_empty_keys_do_not_panic() {
        let table = PhoenixTable {
            name: "T".into(),
            columns: vec![PhoenixColumn {
                name: "K".into(),
                data_type: PhoenixType::Integer,
                sort_order: SortOrder::Asc,
                nullable: false,
                max_length: None,
                scale: None,
            }],
            salt_buckets: None,
            row_key_order_optimizable: true,
        };
        assert!(decode_row_key(&table, &[0x80, 1]).is_err());
        assert_eq!(decode_row_key(&table, &[]).unwrap().values(), vec![None]);
    }
}
