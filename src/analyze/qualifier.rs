//! A design's column qualifier (`cells.qualifier`) computed per record, as the hash the
//! analyzer tells cells apart by ([`Analyzer::push_cell`](super::Analyzer::push_cell)). Only
//! equality matters: two writes of one row share a cell when their qualifiers hash alike.

use serde_json::{Map, Value};

use crate::design::{DesignDocument, Qualifier};
use crate::error::{Error, ErrorKind, Result};
use crate::keyspec::FieldValue as KeyValue;
use crate::workload::{FieldDecl, FieldValue as GenValue};

/// The qualifier of a document's `cells` section, its field resolved to a position.
#[derive(Debug, Clone)]
pub(super) enum CompiledQualifier {
    /// Every write of a row writes the same cell.
    Fixed,
    /// The value of field `at`.
    Field { at: usize },
    /// Field `at`'s time modulo `range`, in steps of `resolution` (ms).
    TimeOffset {
        at: usize,
        range: i64,
        resolution: i64,
    },
}

/// A 64-bit integer, mixed so that nearby values land far apart (splitmix64's finalizer).
fn mix(x: u64) -> u64 {
    let mut x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

fn text(s: &str) -> u64 {
    xxhash_rust::xxh3::xxh3_64(s.as_bytes())
}

impl CompiledQualifier {
    /// The qualifier of `doc`'s `cells` section; `None` without one. The section was
    /// validated with the document, so its field is declared.
    pub(super) fn new(doc: &DesignDocument) -> Result<Option<CompiledQualifier>> {
        let Some(cells) = &doc.cells else {
            return Ok(None);
        };
        let at = |name: &str| {
            doc.fields.iter().position(|f| f.name == name).ok_or_else(|| {
                Error::new(
                    ErrorKind::Invalid,
                    format!("the qualifier reads field `{name}`, which the document does not declare"),
                )
                .at_path("/cells/qualifier/field")
            })
        };
        Ok(Some(match &cells.qualifier {
            Qualifier::Fixed { .. } => CompiledQualifier::Fixed,
            Qualifier::Field { field } => CompiledQualifier::Field { at: at(field)? },
            Qualifier::TimeOffset {
                field,
                range_ms,
                resolution_ms,
            } => CompiledQualifier::TimeOffset {
                at: at(field)?,
                range: (*range_ms).max(1),
                resolution: (*resolution_ms).max(1),
            },
        }))
    }

    /// The offset of time `t` inside its range, in resolution steps.
    fn offset(t: i64, range: i64, resolution: i64) -> u64 {
        let off = t.rem_euclid(range) / resolution;
        mix(u64::try_from(off).unwrap_or(0))
    }

    /// The qualifier of a record given as the key encoder's values (declaration order).
    #[inline]
    pub(super) fn of_values(&self, values: &[KeyValue]) -> u64 {
        match self {
            CompiledQualifier::Fixed => 0,
            CompiledQualifier::Field { at } => values.get(*at).map_or(0, |v| match v {
                KeyValue::Null => 0,
                KeyValue::Str(s) => text(s),
                KeyValue::Utf16(u) => {
                    let bytes: Vec<u8> = u.iter().flat_map(|c| c.to_le_bytes()).collect();
                    xxhash_rust::xxh3::xxh3_64(&bytes)
                }
                KeyValue::Long(x) => mix(*x as u64),
                KeyValue::Double(x) => mix(x.to_bits()),
                KeyValue::Bool(b) => mix(u64::from(*b)),
                KeyValue::Decimal(d) => text(&d.to_string()),
            }),
            CompiledQualifier::TimeOffset {
                at,
                range,
                resolution,
            } => match values.get(*at) {
                Some(KeyValue::Long(t)) => Self::offset(*t, *range, *resolution),
                _ => 0,
            },
        }
    }

    /// The qualifier of a generated record (a caller's key encoder's input).
    pub(super) fn of_generated(&self, values: &[GenValue]) -> u64 {
        match self {
            CompiledQualifier::Fixed => 0,
            CompiledQualifier::Field { at } => values.get(*at).map_or(0, |v| match v {
                GenValue::Str(s) => text(s),
                GenValue::Long(x) => mix(*x as u64),
                GenValue::Double(x) => mix(x.to_bits()),
                GenValue::Bool(b) => mix(u64::from(*b)),
            }),
            CompiledQualifier::TimeOffset {
                at,
                range,
                resolution,
            } => match values.get(*at) {
                Some(GenValue::Long(t)) => Self::offset(*t, *range, *resolution),
                _ => 0,
            },
        }
    }

    /// The qualifier of a fed record (field name to JSON value), read with the field's type
    /// as the key encoder reads it. An error names the field.
    pub(super) fn of_json(&self, record: &Map<String, Value>, decls: &[FieldDecl]) -> Result<u64> {
        let at = match self {
            CompiledQualifier::Fixed => return Ok(0),
            CompiledQualifier::Field { at } | CompiledQualifier::TimeOffset { at, .. } => *at,
        };
        let Some(decl) = decls.get(at) else {
            return Ok(0);
        };
        let Some(v) = record.get(&decl.name) else {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!(
                    "field `{}`: the column qualifier is computed from it, and the record does not give it",
                    decl.name
                ),
            )
            .at_path(decl.name.clone()));
        };
        let v = KeyValue::from_json(&decl.name, decl.field_type, v)?;
        let mut values = vec![KeyValue::Null; at];
        values.push(v);
        Ok(self.of_values(&values))
    }
}
