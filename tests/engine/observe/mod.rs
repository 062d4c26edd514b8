//! A table's regions over time (`region::series`): snapshots as HBase 2.x prints them
//! (`tests/fixtures/observe/`, written by `scripts/observe-fixtures.py` from HBase's formats)
//! into rates. Every expected rate is worked out here by hand from the counters the fixture
//! script wrote, never taken from the engine's output.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod bad;
mod common;
mod forms;
mod hostile;
mod salted;
mod scenario;
mod unknowns;
