//! The first pass over a user's rows: how many, and the span of their write times, which the
//! analysis needs before its windows can be cut.

use serde::Serialize;

use super::RowSink;
use crate::error::Result;
use crate::keyspec::FieldValue;

/// What the first pass found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScanSummary {
    /// Rows handed on.
    pub rows: u64,
    /// The earliest and latest write time (ms), when the rows carry one.
    pub first_ms: Option<i64>,
    /// The latest write time (ms).
    pub last_ms: Option<i64>,
    /// Rows whose time is earlier than the row before it: 0 for rows in time order.
    pub out_of_order: u64,
}

/// A sink that counts (the first pass), building each row's key when given the key, so a
/// row the analysis would refuse (or skip, for a null) is refused or skipped here too.
#[derive(Debug, Default)]
pub struct RowScan {
    /// What it found so far.
    pub summary: ScanSummary,
    prev: Option<i64>,
    key: Option<crate::keyspec::CompiledKey>,
    buf: Vec<u8>,
}

impl RowScan {
    /// A first pass that builds every row's key with `key`.
    pub fn new(key: Option<crate::keyspec::CompiledKey>) -> RowScan {
        RowScan {
            key,
            ..RowScan::default()
        }
    }
}

impl RowSink for RowScan {
    fn row(&mut self, values: &[FieldValue], time_ms: Option<i64>) -> Result<()> {
        if let Some(k) = self.key.as_mut() {
            self.buf.clear();
            k.encode_values_into(&mut self.buf, values)?;
        }
        let s = &mut self.summary;
        s.rows += 1;
        if let Some(t) = time_ms {
            s.first_ms = Some(s.first_ms.map_or(t, |f| f.min(t)));
            s.last_ms = Some(s.last_ms.map_or(t, |l| l.max(t)));
            if self.prev.is_some_and(|p| t < p) {
                s.out_of_order += 1;
            }
            self.prev = Some(t);
        }
        Ok(())
    }
}
