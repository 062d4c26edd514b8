//! How many regions a table of this design should be created with: the capacity arithmetic
//! ([`capacity`]) on what one analysis measured (mean key bytes, regions, regions written per
//! window), with the design's own split sizes and servers, and the pre-split of that count that
//! matches the key's first segment, when one does. What the Splits view answers besides
//! "which split keys".

use serde::{Deserialize, Serialize};

use super::capacity::{capacity, CapacityOptions, CapacityReport, Measured};
use crate::design::DesignDocument;
use crate::region::PreSplit;

/// What the analysis measured, as [`region_plan`] takes it (the report's own figures).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RegionPlanInput {
    /// Mean row key bytes of the writes (report bytes / writes − `valueSize`).
    pub key_bytes: f64,
    /// Regions at the end of the run.
    pub regions: usize,
    /// Regions written per time window, the mean.
    pub active_regions_per_window: f64,
}

/// The answer: a region count, why, and the pre-split that makes it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RegionPlan {
    /// Regions to create the table with: a year of data at the design's `maxFileSize` (10 GiB
    /// by default), rounded up to a multiple of the servers; the servers alone for a key that
    /// leads with time (one region takes the writes whatever the pre-split).
    pub recommended: u64,
    /// Region servers (the design's `regionServers`, else 1).
    pub servers: u32,
    /// The pre-split of `recommended` regions that matches the key's first segment (salt
    /// buckets, MD5 hex, a binary hash); `None` when none does (then split points cut from
    /// the rows, the Splits view's sample, are the way).
    pub presplit: Option<PreSplit>,
    /// The regions `presplit` makes: `recommended`, but for a salt, whose buckets decide
    /// (one region per bucket; more regions need more buckets).
    pub presplit_regions: Option<u32>,
    /// The design's pre-split already makes `recommended` regions.
    pub matches_design: bool,
    /// The arithmetic: horizons, guide, notes.
    pub capacity: CapacityReport,
}

/// The region plan of `design` from what its analysis measured.
pub fn region_plan(design: &DesignDocument, measured: &RegionPlanInput) -> RegionPlan {
    let layout = design.regions.clone().unwrap_or_default();
    let servers = layout.region_servers.max(1);
    let mut opts = CapacityOptions::default();
    if let Some(auto) = &layout.auto_split {
        let c = &auto.config;
        let max = c
            .table_max_file_size
            .filter(|&t| t > 0)
            .unwrap_or(c.max_file_size);
        opts.max_file_size = u64::try_from(max).unwrap_or(opts.max_file_size).max(1);
        opts.memstore_flush_size = u64::try_from(c.memstore_flush_size)
            .unwrap_or(opts.memstore_flush_size)
            .max(1);
    }
    let m = Measured {
        key_bytes: measured.key_bytes,
        regions: measured.regions,
        active_regions_per_window: measured.active_regions_per_window,
    };
    // the count the data asks for, not the design's own pre-split (capacity's floor otherwise)
    let mut bare = design.clone();
    if let Some(r) = bare.regions.as_mut() {
        r.presplit = PreSplit::None;
    }
    let cap = capacity(&bare, &m, &opts, servers);
    let recommended = cap.recommended_presplit;
    let presplit = u32::try_from(recommended)
        .ok()
        .filter(|&n| n > 1 && !cap.time_leading)
        .and_then(|n| {
            design
                .key
                .segments
                .first()
                .and_then(|s| super::candidates::matched_presplit(s, n))
        });
    let presplit_regions = presplit.as_ref().map(super::candidates::region_count);
    let matches_design =
        u64::from(super::candidates::region_count(&layout.presplit)) == recommended;
    RegionPlan {
        recommended,
        servers,
        presplit,
        presplit_regions,
        matches_design,
        capacity: cap,
    }
}
