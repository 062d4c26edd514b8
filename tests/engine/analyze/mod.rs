//! Analyzer scenarios: the lessons of the seeds, asserted with thresholds from the arithmetic,
//! one module per subject: where writes land (hotspots), auto-split policies, server
//! placement, options and samples, read plans, the equality of the analyzer's paths
//! (batched, per record, fed) and of one pass against blocks counted apart. Loops over windows, regions, splits and presets report every
//! failing one at once (`../cases/mod.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

mod auto_split;
mod beside;
mod blocks;
mod exact;
mod hbase_split;
mod hotspots;
mod options;
mod paths;
mod placement;
mod reads;
mod verdict;
mod workers;
