//! rowkey-lab: design an HBase row key and see what it does to the cluster.
//!
//! A pure-Rust core (no JavaScript types) reproduces HBase's byte arithmetic exactly:
//! `Bytes` encoders, `toStringBinary`, `Bytes.split`, RegionSplitter, MD5Hash, Java hash
//! codes, Phoenix / HBaseWD / OpenTSDB salting and the region split policies. The
//! `wasm` module (wasm32 builds only) is the only place that knows about JavaScript.
#![deny(missing_docs)]

pub mod analyze;
pub mod bigint;
pub mod bytes;
pub mod de;
pub mod design;
pub mod error;
pub mod hash;
pub mod inspect;
pub mod json;
pub mod jsonw;
pub mod keyspec;
pub mod layout;
pub mod metrics;
mod num_text;
pub mod policy;
pub mod presets;
pub mod region;
pub mod salt;
pub mod scan;
pub mod shell;
pub mod split;
// The golden-vector runner; in wasm, `runVector` (see the `vectors-only` feature).
#[cfg(feature = "vectors")]
pub mod vectors;
#[cfg(target_arch = "wasm32")]
pub mod wasm;
pub mod workload;

pub use error::{Error, ErrorKind, Result};
