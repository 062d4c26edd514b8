//! The engine's native integration tests, one crate (issue 71): each former test binary is a
//! module here, a folder of cases where it had one, so `cargo test` compiles the engine's
//! generics, arrow-rs's and parquet's into one test binary and links it once, where it did 25
//! times. Run one subject with a filter: `cargo test --profile native-tests --test engine
//! life::` (or `keyspec::presets::throughput -- --ignored`).
//!
//! Kept apart, each a target of its own: `tests/vectors.rs` (the golden vectors, a plain `main`
//! that always prints `vectors: N passed, M failed`), `tests/fuzz_readers.rs` (the readers'
//! fuzzer: a panic hook of its own for the whole process, a time budget and, in `--full`, an
//! address-space limit) and the wasm tests `tests/wasm_*.rs` (wasm32 only).
//!
//! Each module keeps the lint allowances it had as a crate (`#![allow(...)]` at its top); the
//! case-table harness (`cases`) and the region-cut oracle (`oracles::cut`) are shared.

mod cases;
#[cfg(feature = "rows")]
mod oracles {
    pub mod cut;
}

mod advise;
mod analyze;
mod calls_rows_file;
mod design_doc;
mod fuzz;
mod keyspec;
mod life;
mod limits;
mod module_graph;
mod observe;
mod opentsdb;
mod phoenix_fuzz;
mod phoenix_index;
mod phoenix_index_expr;
mod phoenix_index_rows;
mod phoenix_key;
mod rename;
mod rooms;
mod row_files;
mod row_partials;
mod rows;
mod rows_bombs;
mod rows_crate_panics;
mod rows_hostile;
mod rows_session;
mod rows_shared;
mod salt_cuts;
mod scenarios;
mod schema_docs;
mod typescript_shapes;
mod workload;
