//! The exact row counts as the page's size build has them: none. Its first load is budgeted
//! (400 KB gzip), it never feeds rows (the page analyzes generated workloads), and exact counting
//! of generated rows (`exactRows`) runs in the workers' speed build. The same names as
//! `exact.rs`, so the analyzer reads the same either way: these counts take no write (`offer`
//! says they passed the cap), so the analyzer drops them at the first write and the report's
//! largest and distinct rows are the sketches', marked as estimates.

use serde::{Deserialize, Serialize};

/// One distinct row (never made here).
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub(super) struct ExactRow {
    pub(super) writes: u64,
    pub(super) bytes: u64,
}

/// No exact counts.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct ExactRows;

impl ExactRows {
    pub(super) fn new() -> ExactRows {
        ExactRows
    }
    pub(super) fn key(&self, _r: &ExactRow) -> &[u8] {
        &[]
    }
    pub(super) fn rows(&self) -> &[ExactRow] {
        &[]
    }
    /// Never counts: the caller drops these counts and the sketches answer.
    pub(super) fn offer(
        &mut self,
        _key: &[u8],
        _hash: u64,
        _bytes: u64,
        _cell: Option<u64>,
    ) -> bool {
        false
    }
    pub(super) fn merge(&mut self, _other: &ExactRows) -> bool {
        false
    }
    pub(super) fn cells_kept(&self, _rows: &[u32], _versions: u32) -> Vec<u64> {
        Vec::new()
    }
    pub(super) fn largest(&self, _n: usize) -> Vec<u32> {
        Vec::new()
    }
}
