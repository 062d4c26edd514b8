//! The `cells` section: what one write puts into its row. HBase stores a row as cells, one per
//! column qualifier, each holding up to the column family's `VERSIONS` newest values; two
//! writes with the same row key land in the same row, and with the same qualifier too, in the
//! same cell (the second is a new version of it). Without the section every write is its own
//! cell, the meaning the analysis always had.
//!
//! ```json
//! "cells": {"qualifier": {"kind": "timeOffset", "field": "ts", "rangeMs": 3600000}, "versions": 1}
//! ```
//!
//! The qualifier is computed from the record: a fixed one (a tall-narrow table, one value per
//! row), a field's value (an event name as the column), or the time offset inside the row's
//! time range, as OpenTSDB writes the seconds since its row's base hour.

use serde::Serialize;

use crate::error::{Error, ErrorKind, Result};
use crate::keyspec::FieldType;
use crate::support::json::{i64_, object_reader, string, tagged_reader, u32_, Node, R};
use crate::workload::FieldDecl;

/// HBase's default `VERSIONS` of a column family since 0.96.
pub const DEFAULT_VERSIONS: u32 = 1;
/// OpenTSDB's row time range: one hour, in ms.
pub const DEFAULT_RANGE_MS: i64 = 3_600_000;
/// OpenTSDB's qualifier resolution for second timestamps: 1 s, in ms.
pub const DEFAULT_RESOLUTION_MS: i64 = 1000;

/// What a write puts into its row: the column qualifier and the versions a cell keeps.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CellSpec {
    /// The column qualifier of each write (default: one fixed qualifier).
    pub qualifier: Qualifier,
    /// The column family's `VERSIONS`: a cell keeps this many newest versions (at least 1).
    pub versions: u32,
}

impl Default for CellSpec {
    fn default() -> Self {
        CellSpec {
            qualifier: Qualifier::Fixed {
                name: String::new(),
            },
            versions: DEFAULT_VERSIONS,
        }
    }
}

/// How a write's column qualifier is computed from its record.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
pub enum Qualifier {
    /// One qualifier for every write: a row is one cell, and a write to an existing row is a
    /// new version of it.
    #[serde(rename_all = "camelCase")]
    Fixed {
        /// The qualifier's name (informative; empty is HBase's empty qualifier).
        name: String,
    },
    /// The field's value is the qualifier: writes with the same value in the same row share a
    /// cell.
    #[serde(rename_all = "camelCase")]
    Field {
        /// The field whose value names the column.
        field: String,
    },
    /// The time offset inside the row's time range, as OpenTSDB's qualifier: the field's
    /// time modulo `rangeMs`, in steps of `resolutionMs`. Writes of one row in the same step
    /// share a cell.
    #[serde(rename_all = "camelCase")]
    TimeOffset {
        /// The time field (timestamp or integer, ms).
        field: String,
        /// The row's time range in ms (OpenTSDB: one hour).
        range_ms: i64,
        /// The qualifier's resolution in ms (OpenTSDB: 1000 for second timestamps, 1 for
        /// millisecond ones).
        resolution_ms: i64,
    },
}

impl Qualifier {
    /// The field the qualifier reads, if any.
    pub fn field(&self) -> Option<&str> {
        match self {
            Qualifier::Fixed { .. } => None,
            Qualifier::Field { field } | Qualifier::TimeOffset { field, .. } => Some(field),
        }
    }
}

impl CellSpec {
    /// Checks that need the fields: the qualifier's field is declared, and a time offset
    /// reads an integer field. Errors point into `/cells`.
    pub fn validate(&self, fields: &[FieldDecl]) -> Result<()> {
        let Some(name) = self.qualifier.field() else {
            return Ok(());
        };
        let Some(decl) = fields.iter().find(|f| f.name == name) else {
            let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
            return Err(Error::new(
                ErrorKind::Invalid,
                format!(
                    "the qualifier reads field `{name}`, which the document does not declare (fields: {})",
                    names.join(", ")
                ),
            )
            .at_path("/cells/qualifier/field"));
        };
        if matches!(self.qualifier, Qualifier::TimeOffset { .. })
            && !matches!(
                decl.field_type,
                FieldType::Timestamp | FieldType::Long | FieldType::Int | FieldType::Short
            )
        {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!(
                    "a time offset needs a timestamp or integer field; `{name}` is a {}",
                    decl.field_type.name()
                ),
            )
            .at_path("/cells/qualifier/field"));
        }
        Ok(())
    }
}

object_reader! {
    /// A [`CellSpec`].
    pub(crate) fn cell_spec(n) -> CellSpec; "struct CellSpec";
    /// The `cells` members, as [`cell_spec`] reads them.
    table CELLS;
    CellSpec {
        /// How the write's column qualifier is computed from its record, below.
        qualifier: or("qualifier", qualifier, CellSpec::default().qualifier) = r#"{"kind": "fixed"}"#,
        /// The column family's `VERSIONS` (HBase's default since 0.96): a cell keeps this many
        /// newest versions.
        versions: or("versions", versions, DEFAULT_VERSIONS) = "1" in 1 ..= (u32::MAX),
    }
}

/// `VERSIONS`: at least 1, as HBase's `setMaxVersions` requires.
fn versions(n: &Node) -> R<u32> {
    let v = u32_(n)?;
    if v == 0 {
        return Err(n.error("VERSIONS must be at least 1 (HBase refuses 0)"));
    }
    Ok(v)
}

/// A time range or resolution in ms: at least 1.
fn positive_ms(n: &Node) -> R<i64> {
    let v = i64_(n)?;
    if v < 1 {
        return Err(n.error(format!("invalid value: {v}, expected at least 1 ms")));
    }
    Ok(v)
}

tagged_reader! {
    /// A [`Qualifier`]: `{"kind": "timeOffset", "field": "ts", "rangeMs": 3600000}`.
    pub fn qualifier(n) -> Qualifier; "internally tagged enum Qualifier", tag "kind";
    /// The qualifier kinds and their members, as [`qualifier`] reads them.
    table QUALIFIERS;
    /// The same qualifier for every write. A row is one cell: a tall-narrow table, where a
    /// write to an existing row is a new version of its one value.
    "fixed" => Qualifier::Fixed {
        /// The qualifier (informative; `""` is HBase's empty qualifier).
        name: or("name", string, String::new()) = r#""""#,
    },
    /// The field's value. A row is one cell per value of the field (an event name as the
    /// column).
    "field" => Qualifier::Field {
        /// The field whose value names the column.
        field: req("field", string),
    },
    /// The field's time modulo `rangeMs`, in steps of `resolutionMs`. A row is one cell per
    /// step of its time range: OpenTSDB's row of one metric and hour, each second a column.
    "timeOffset" => Qualifier::TimeOffset {
        /// The time field (a timestamp or integer field, ms).
        field: req("field", string),
        /// The row's time range in ms (OpenTSDB: one hour), at least 1.
        range_ms: or("rangeMs", positive_ms, DEFAULT_RANGE_MS) = "3600000",
        /// The qualifier's resolution in ms, at least 1.
        resolution_ms: or("resolutionMs", positive_ms, DEFAULT_RESOLUTION_MS) = "1000",
    },
}
