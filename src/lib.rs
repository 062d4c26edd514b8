//! rowkey-lab: design an HBase row key and see what it does to the cluster.
//!
//! The crate is one engine in layers; each top-level module imports only the ones listed
//! before it here (`tests/engine/module_graph.rs` fails on a cycle):
//!
//! 1. [`error`]: the one error type, with the place (argument, JSON path, byte, line) it names;
//! 2. [`limits`]: the sizes refused up front (HBase's 32,767-byte row key, result bytes);
//! 3. `support` (crate-private): the JSON reader and number text;
//! 4. [`hbase`]: ports of upstream Java, function by function (`Bytes`, MD5 and Java hashes,
//!    salts, `RegionSplitter`, split policies, the shell's text forms);
//! 5. [`keyspec`]: the key language and the field types it encodes;
//! 6. [`workload`]: seeded, streaming record generators over declared fields;
//! 7. [`region`]: region maps, pre-split layouts, assignment, a table's regions and load;
//! 8. [`scan`]: read patterns to scans, regions touched and rows read;
//! 9. [`design`]: the design document, its reading, validation, lint and presets;
//! 10. `rows` (feature `rows`): a user's own rows (CSV, JSON Lines, Parquet, Arrow IPC) read
//!     into the values the design's key reads;
//! 11. [`analyze`]: the streaming analyzer, metrics, reports and compare, and runs over the
//!     generated workload or a user's rows (`analyze::run`, its rows part in `run/rows/`);
//! 12. [`inspect`]: the bytes inspector (one value, every encoding and split);
//! 13. [`life`]: months of a table's life under HBase's own rules (splits, flushes,
//!     compactions, TTL, the balancer and the normalizer), simulated in aggregate;
//! 14. [`rekey`]: the move from the key a table has to the key it should have (the plan over
//!     the rows or a live table's snapshots, the bulk-load job sized, the statements) and its
//!     verification (`rekey::verify`: every old row in the new table);
//! 15. [`advise`]: candidate designs, their evaluation in parallel, the Pareto front, the
//!     recommendation, capacity and lifecycle;
//! 16. `vectors` (feature `vectors`): the golden-vector runner;
//! 17. [`calls`]: one description of the calls the JavaScript bindings make (arguments and
//!     answers as JSON text, errors as their fields), which the wasm build (`wasm`, wasm32
//!     only, the only module that knows JavaScript) and the Node-API addon (`node/`) follow.
#![deny(missing_docs)]

pub mod error;
pub mod limits;
pub(crate) mod support;

pub mod hbase;

pub mod keyspec;
pub mod workload;

pub mod region;
pub mod scan;

pub mod design;
#[cfg(feature = "rows")]
pub mod rows;

pub mod analyze;
pub mod inspect;

pub mod life;

pub mod rekey;

pub mod advise;

// The golden-vector runner; in wasm, `runVector` (see the `vectors-only` feature).
pub mod calls;
#[cfg(feature = "vectors")]
pub mod vectors;
#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use error::{Error, ErrorKind, Result};
