//! Workload generators, region layouts and skew metrics, one module per subject: streams
//! (determinism, the wasm fingerprint), generators (bounds value by value, distribution
//! shapes with generous statistical bounds), the JSON schema and its pointed errors, region
//! layouts (exact split keys), and metrics. Loops over values and tables of cases report
//! every failing one at once (`../cases/mod.rs`).
#![allow(clippy::unwrap_used, clippy::panic)] // test helpers outside #[test] fns fail loudly on purpose

mod common;

mod generators;
mod layouts;
mod metrics;
mod schema;
mod streams;
