//! The design advisor: its answer on every preset, the known answers of the seeds (a
//! time-first key, `Bytes.split` over hex text, a skewed salt hash), its candidates (whole,
//! valid, deterministic documents), the same answer on one thread and several, and the
//! capacity arithmetic written out. Loops over presets report every failing one at once
//! (`../cases/mod.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

mod candidates;
mod capacity;
mod indexes;
mod known;
mod months;
mod presets;
mod regions;
mod rekey;
mod rekey_indexes;
mod rekey_names;
mod rekey_rows;
mod rekey_series;
mod rows;
mod rows_index_findings;
mod rows_indexes;
mod threads;
mod verify;
mod verify_cells;
