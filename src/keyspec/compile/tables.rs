//! The tables a key's names are numbered by: a `dict(...)`, `tag(...)` or `uid(...)` table the
//! design gives ([`NameTable`]), and the UIDs `uid(f, W)` without a table assigns as records
//! arrive ([`UidTable`], OpenTSDB's counter). Apart from the compiler and the encoder, which
//! only look names up in them: here are their indexes and their limits.

use crate::error::{Error, Result};
use crate::keyspec::{FieldType, FieldValue};

/// A `dict(...)`, `tag(...)` or `uid(...)` table: its entries in the design's order (for
/// messages and decoding), and an index by name, so that encoding a record finds its value in
/// constant time (a table may hold 10^5 names; the analyzer encodes millions of records).
#[derive(Debug, Clone)]
pub(crate) struct NameTable {
    entries: Vec<(String, i64)>,
    index: std::collections::HashMap<String, i64>,
}

impl NameTable {
    /// The table of `entries` (the first entry of a name wins, as a linear search found it).
    pub(crate) fn new(entries: &[(String, i64)]) -> NameTable {
        let mut index = std::collections::HashMap::with_capacity(entries.len());
        for (k, id) in entries {
            index.entry(k.clone()).or_insert(*id);
        }
        NameTable {
            entries: entries.to_vec(),
            index,
        }
    }

    /// The id of the entry whose name is `v`'s Java text (`String.valueOf`), if any.
    pub(crate) fn id_of(&self, v: &FieldValue, ty: FieldType) -> Option<i64> {
        match v {
            FieldValue::Str(x) => self.index.get(x.as_str()).copied(),
            FieldValue::Null => None,
            other => {
                let mut b = Vec::new();
                other.push_text(ty, "", &mut b).ok()?;
                self.index.get(std::str::from_utf8(&b).ok()?).copied()
            }
        }
    }

    /// The entries, in the design's order.
    pub(crate) fn entries(&self) -> &[(String, i64)] {
        &self.entries
    }
}

/// The UIDs one field's `uid(...)` segments assigned, in order of first appearance (1, 2, …,
/// as OpenTSDB's UID counter starts at 1).
#[derive(Debug, Clone, Default)]
pub(crate) struct UidTable {
    ids: std::collections::HashMap<Vec<u8>, i64>,
    names: Vec<Vec<u8>>,
}

impl UidTable {
    /// The UID of `name`, assigned now if it has none yet. `kept` counts the bytes of names
    /// every table of the key keeps ([`MAX_UID_NAME_BYTES`](crate::keyspec::opentsdb::MAX_UID_NAME_BYTES)),
    /// checked before the name is stored.
    pub(crate) fn id(&mut self, name: &[u8], kept: &mut usize) -> Result<i64> {
        use crate::keyspec::opentsdb::{MAX_ASSIGNED_UIDS, MAX_UID_NAME_BYTES};
        if let Some(id) = self.ids.get(name) {
            return Ok(*id);
        }
        if self.names.len() >= MAX_ASSIGNED_UIDS {
            return Err(Error::limit(
                "uid",
                format!(
                    "uid(...) assigns at most {MAX_ASSIGNED_UIDS} UIDs per field; give a table for more"
                ),
            ));
        }
        let after = kept.saturating_add(name.len().saturating_mul(2));
        if after > MAX_UID_NAME_BYTES {
            return Err(Error::limit(
                "uid",
                format!(
                    "uid(...) without a table keeps every name it numbers, and the names reached \
                     {} MiB (the limit) at {} names, the latest {} bytes long: give a table, or \
                     number a shorter field",
                    MAX_UID_NAME_BYTES >> 20,
                    self.names.len(),
                    name.len()
                ),
            ));
        }
        *kept = after;
        self.names.push(name.to_vec());
        let id = self.names.len() as i64;
        self.ids.insert(name.to_vec(), id);
        Ok(id)
    }

    /// The name UID `id` was assigned to.
    pub(crate) fn name(&self, id: i64) -> Option<&[u8]> {
        let i = usize::try_from(id).ok()?.checked_sub(1)?;
        self.names.get(i).map(Vec::as_slice)
    }
}
