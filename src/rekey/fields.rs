//! Where each field the new key reads comes from: the old key gives it back (decoded from an
//! example key the old design writes), or a column of the rows has it, or neither can: a field
//! the old key holds only hashed, in part (a date without its time, a remainder) or not at all.

use serde::Serialize;

use crate::design::DesignDocument;
use crate::error::Result;
use crate::keyspec::{CompiledKey, FieldValue};

/// Where a field comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Source {
    /// A column of the rows (the old table's cells, or the file's column).
    Column,
    /// Decoded from the old row key, exactly.
    OldKey,
    /// Nowhere: the job cannot build the new key.
    Missing,
}

/// One field the new key reads.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FieldSource {
    /// The field.
    pub field: String,
    /// Where it comes from.
    pub from: Source,
    /// Why the old key cannot give it back (hashed, in part, absent), when it cannot.
    pub why: Option<String>,
}

/// The old key decoded from one key it writes: the fields it gives back exactly, and why the
/// others are not (`None` when the old design writes no example: its fields have no generator).
fn old_key_gives(old: &DesignDocument) -> Option<crate::keyspec::Decoded> {
    let fields = old.key_fields();
    let mut ck = CompiledKey::new(&old.key, &fields).ok()?;
    let mut spec = old.workload.clone().unwrap_or_default();
    spec.records = spec.records.min(1);
    let mut stream = crate::workload::WorkloadStream::new(&spec, &old.fields).ok()?;
    let mut values: Vec<FieldValue> = Vec::new();
    stream.next_values(&mut values)?;
    let key = ck.encode_values(&values).ok()?;
    crate::keyspec::decode(&old.key, &fields, &key).ok()
}

/// Each field `new`'s key reads, in declaration order, with its source: a column of
/// `columns` first (the rows' own value), else the old key when it gives the field back
/// exactly.
pub fn field_sources(
    old: &DesignDocument,
    new: &DesignDocument,
    columns: Option<&[String]>,
) -> Result<Vec<FieldSource>> {
    let fields = new.key_fields();
    let ck = CompiledKey::new(&new.key, &fields)?;
    let decoded = old_key_gives(old);
    let old_names: Vec<String> = {
        let fields = old.key_fields();
        CompiledKey::new(&old.key, &fields)?
            .used_fields()
            .into_iter()
            .filter_map(|i| fields.get(i).map(|f| f.name.clone()))
            .collect()
    };
    Ok(ck
        .used_fields()
        .into_iter()
        .filter_map(|i| fields.get(i).map(|f| f.name.clone()))
        .map(|field| {
            if columns.is_some_and(|c| c.contains(&field)) {
                return FieldSource {
                    field,
                    from: Source::Column,
                    why: None,
                };
            }
            let (from, why) = match &decoded {
                Some(d) => match d.fields.iter().find(|f| f.name == field) {
                    Some(f) if f.exact => (Source::OldKey, None),
                    Some(f) => (
                        Source::Missing,
                        Some(format!(
                            "the old key holds it only in part ({})",
                            f.note.as_deref().unwrap_or("not exactly")
                        )),
                    ),
                    None => (
                        Source::Missing,
                        Some(
                            d.unrecoverable
                                .iter()
                                .find(|u| u.field == field)
                                .map_or_else(
                                    || "the old key does not hold it".to_string(),
                                    |u| format!("the old key does not give it back: {}", u.reason),
                                ),
                        ),
                    ),
                },
                // No example key: a field the old key reads is taken as given back, unchecked.
                None if old_names.contains(&field) => (Source::OldKey, None),
                None => (
                    Source::Missing,
                    Some("the old key does not hold it".to_string()),
                ),
            };
            FieldSource { field, from, why }
        })
        .collect())
}
