//! Rows, cells and versions (issue 29): distinct rows and their stated error, the largest
//! rows, versions beyond `VERSIONS`, splits that honour rows, the `cells` section of the
//! document, and every preset's write figures unchanged by the row accounting. Expected
//! figures are counted exactly here, from the same generated records, with hash maps.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

mod distinct;
mod document;
mod largest;
mod presets;
mod splits;
mod versions;
