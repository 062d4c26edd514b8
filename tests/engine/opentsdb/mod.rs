//! OpenTSDB's row layout in the key language, held to the port of `TSDB.addPoint`
//! (`rowkey_lab::hbase::opentsdb`, itself proven by the `opentsdb.*` golden vectors):
//! `rows` rebuilds every recorded data point's row with `uid`, `baseTime`, `tags` and an
//! OpenTSDB salt and compares the bytes; `language` covers the segments' text and JSON forms,
//! errors, layout, decoding and UIDs assigned in order of first appearance; `presets` the
//! rows seed 001's log rewrite and the OpenTSDB metric preset write.

// A failed assertion is how a test reports; the no-panic rule is for the library.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

mod language;
mod presets;
mod rows;
