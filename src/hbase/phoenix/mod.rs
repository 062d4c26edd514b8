//! Apache Phoenix's row-key encoding, ported from `phoenix-core-client` (`PDataType` and its
//! subclasses, `PTableImpl.newKey`, the column-assignment steps of `UPSERT ... VALUES`), proven
//! byte for byte by the `phoenix.*` golden vectors.
//!
//! * [`types`]: the SQL types ([`PhoenixType`]), the Java values they take ([`PhoenixValue`]),
//!   `toBytes(value, sortOrder)`, `pad`, and the reverse (`toObject`).
//! * [`decimal`]: `DECIMAL`'s base-100 encoding, `normalize`, and the rescale / capacity check of
//!   a `DECIMAL(p, s)` column.
//! * [`rowkey`]: a table's primary key ([`PhoenixTable`]) and the row key an UPSERT of values
//!   writes: column assignment, separators, trailing-null trimming, NULL checks, padding and the
//!   salt byte.
//! * [`decode`]: a row key back to its column values.
//! * [`index`]: a secondary index's row key (`IndexMaintainer.buildRowKey`), and
//!   [`functions`]: the built-in functions a functional index is read with here.
//!
//! Phoenix throws `SQLException`-backed runtime exceptions; each maps to an
//! [`ErrorKind`] (`IllegalData`, `DataExceedsCapacity`,
//! `ConstraintViolation`), with a message that says what was wrong in the column's own terms.

pub mod decimal;
pub mod decode;
pub mod functions;
pub mod index;
pub mod rowkey;
pub mod types;

pub use decimal::Decimal;
pub use decode::decode_row_key;
pub use rowkey::{assign_value, new_key, row_key, PhoenixColumn, PhoenixTable};
pub use types::{PhoenixType, PhoenixValue, Timestamp};

use crate::error::{Error, ErrorKind};

/// `org.apache.phoenix.schema.SortOrder`: how a primary-key column sorts. A `DESC` column's
/// bytes are the `ASC` bytes inverted (every bit flipped), so they sort in reverse.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "UPPERCASE")]
pub enum SortOrder {
    /// Ascending (the default).
    #[default]
    Asc,
    /// Descending: the ascending bytes inverted.
    Desc,
}

impl SortOrder {
    /// `SortOrder.valueOf`: `"ASC"` or `"DESC"`.
    pub fn from_name(name: &str) -> Option<SortOrder> {
        match name {
            "ASC" => Some(SortOrder::Asc),
            "DESC" => Some(SortOrder::Desc),
            _ => None,
        }
    }

    /// The SQL keyword.
    pub fn name(self) -> &'static str {
        match self {
            SortOrder::Asc => "ASC",
            SortOrder::Desc => "DESC",
        }
    }

    /// `SortOrder.normalize(byte)`: the ascending form of a byte stored in this order.
    pub fn normalize(self, b: u8) -> u8 {
        match self {
            SortOrder::Asc => b,
            SortOrder::Desc => !b,
        }
    }

    /// The bytes in this order: unchanged for `ASC`, inverted for `DESC`.
    pub fn apply(self, mut b: Vec<u8>) -> Vec<u8> {
        if self == SortOrder::Desc {
            invert(&mut b);
        }
        b
    }
}

/// `SortOrder.invert`: flip every bit in place.
pub fn invert(b: &mut [u8]) {
    for x in b {
        *x = !*x;
    }
}

/// `IllegalDataException` (`ERROR 201`).
pub(crate) fn illegal_data(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::IllegalData, message)
}

/// `ConstraintViolationException` (`ERROR 218`) for `table.column`.
pub(crate) fn constraint_violation(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::ConstraintViolation, message)
}

/// `DataExceedsCapacityException(type, maxLength, scale, column)`: the message names the
/// value and the declared type the way the DDL spells it (`value 1234.5 exceeds
/// DECIMAL(5,2)`); the path names the column.
pub(crate) fn data_exceeds(
    column: &str,
    ty: PhoenixType,
    max_length: Option<i32>,
    scale: Option<i32>,
    what: &str,
) -> Error {
    let len = max_length.map_or_else(|| "null".to_string(), |m| m.to_string());
    let decl = match scale {
        Some(s) => format!("{}({len},{s})", ty.sql_name()),
        None => format!("{}({len})", ty.sql_name()),
    };
    Error::new(
        ErrorKind::DataExceedsCapacity,
        format!("{what} exceeds {decl}"),
    )
    .at_path(column)
}

/// An index past the end of a byte array: Java's `ArrayIndexOutOfBoundsException`, which
/// Phoenix raises when it reads a value it wrote in another sort order.
pub(crate) fn index_oob(index: i64, len: usize, what: &str) -> Error {
    Error::new(
        ErrorKind::IndexOutOfBounds,
        format!("{what}: index {index} out of bounds for length {len}"),
    )
}
