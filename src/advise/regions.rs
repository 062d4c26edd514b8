//! How many regions a table of this design should be created with: the capacity arithmetic
//! ([`capacity`]) on what one analysis measured (mean key bytes, regions, regions written per
//! window, and the write rate: a user's rows' own over their span), at the production region
//! size (the table's `MAX_FILESIZE` when the design sets one, else HBase's 10 GiB: never the
//! small sizes an in-run auto-split is given to split a short workload), with the table's TTL
//! (a Phoenix table's `TTL` option), on the design's servers; and the pre-split of that count
//! that matches the key's first segment, when one does. A salt decides the count: one region
//! per bucket. One answer, which the Splits view, the CLI and `create` all show.

use serde::{Deserialize, Serialize};

use super::capacity::{capacity, CapacityOptions, CapacityReport, Measured};
use crate::design::DesignDocument;
use crate::keyspec::Segment;
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
    /// Writes per second the run measured (the report's `writeRate`: a user's rows' own);
    /// `None`: the workload's `writeRate`.
    #[serde(default)]
    pub write_rate: Option<f64>,
}

/// The answer: a region count, why, and the pre-split that makes it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RegionPlan {
    /// Regions to create the table with: a salted key's buckets (one region per bucket);
    /// else a year of data at the production region size, rounded up to a multiple of the
    /// servers; the servers alone for a key that leads with time (one region takes the writes
    /// whatever the pre-split).
    pub recommended: u64,
    /// The regions a year of data fills at the production region size (the capacity
    /// arithmetic's count), which a salt's buckets may override.
    pub capacity_regions: u64,
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
    /// The regions the design's own pre-split makes (its create statement's).
    pub design_regions: u32,
    /// The plan in one line, with the design's own count where it differs: what every view
    /// shows as the answer to "how many regions".
    pub headline: String,
    /// The arithmetic: horizons, guide, notes.
    pub capacity: CapacityReport,
}

/// The region plan of `design` from what its analysis measured, on HBase's defaults.
pub fn region_plan(design: &DesignDocument, measured: &RegionPlanInput) -> RegionPlan {
    let servers = design.regions.as_ref().map_or(1, |r| r.region_servers);
    region_plan_with(design, measured, &CapacityOptions::default(), servers)
}

/// The region plan on `base` (the advisor's capacity options: what the user gave, HBase's
/// defaults else) and `servers`: the one answer to "how many regions", which the Splits view
/// and the advisor both show. The design's table size, the measured rate and its TTL fill in
/// what `base` leaves at its default.
pub fn region_plan_with(
    design: &DesignDocument,
    measured: &RegionPlanInput,
    base: &CapacityOptions,
    servers: u32,
) -> RegionPlan {
    let layout = design.regions.clone().unwrap_or_default();
    let servers = servers.max(1);
    let mut opts = base.clone();
    // The production region size: the table's own MAX_FILESIZE when the design sets it. The
    // auto-split's `maxFileSize` and flush size are the in-run simulation's, scaled to split a
    // workload of minutes (a 4 MiB region would make a year of data 86,768 regions).
    if let Some(t) = design.table_max_file_size() {
        if opts.max_file_size == CapacityOptions::default().max_file_size {
            opts.max_file_size = u64::try_from(t).unwrap_or(opts.max_file_size).max(2);
        }
    }
    if opts.write_rate.is_none() {
        opts.write_rate = measured.write_rate.filter(|r| r.is_finite() && *r > 0.0);
    }
    if opts.ttl_days.is_none() {
        opts.ttl_days = table_ttl_days(design);
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
    let mut cap = capacity(&bare, &m, &opts, servers);
    let needed = cap.recommended_presplit;
    // A salt decides the count whatever the data: one region per bucket, however little a
    // year fills (a salted table of one region would write every bucket to one server).
    let first = design.key.segments.first();
    let salted = matches!(first, Some(Segment::Salt(_) | Segment::Random(_)));
    let presplit = u32::try_from(needed)
        .ok()
        .filter(|&n| (n > 1 || salted) && !cap.time_leading)
        .and_then(|n| first.and_then(|s| super::presplit::matched_presplit(s, n)));
    let presplit_regions = presplit.as_ref().map(super::presplit::region_count);
    let recommended = presplit_regions.map_or(needed, u64::from);
    if !cap.time_leading {
        cap.notes
            .push(presplit_note(recommended, needed, presplit.as_ref(), &opts));
    }
    let design_regions = super::presplit::region_count(&layout.presplit);
    let matches_design = u64::from(design_regions) == recommended;
    let headline = headline(recommended, design_regions, servers, cap.time_leading);
    RegionPlan {
        recommended,
        capacity_regions: needed,
        servers,
        presplit,
        presplit_regions,
        matches_design,
        design_regions,
        headline,
        capacity: cap,
    }
}

/// The plan in one line, beside the design's own pre-split whenever the two differ, so that
/// "how many regions" never sits unexplained above a create statement of another count.
fn headline(recommended: u64, design: u32, servers: u32, time_leading: bool) -> String {
    let regions = |n: u64| format!("{n} region{}", if n == 1 { "" } else { "s" });
    let ours = regions(u64::from(design));
    if time_leading {
        let per = if servers == 1 {
            String::new()
        } else {
            " (one a server)".to_string()
        };
        return if u64::from(design) == recommended {
            format!("{}{per}: a key that leads with time writes one region at a time whatever the pre-split; fix the key first", regions(recommended))
        } else {
            format!(
                "{}{per}: a key that leads with time writes one region at a time whatever the pre-split, so this design's {ours} spread no writes; fix the key first",
                regions(recommended)
            )
        };
    }
    if u64::from(design) == recommended {
        format!(
            "{}: the design's pre-split makes them",
            regions(recommended)
        )
    } else {
        format!(
            "{} (this design is created with {ours})",
            regions(recommended)
        )
    }
}

/// The table's TTL in days, where the design carries one (its `hbase` section's, else a
/// Phoenix table's `TTL` option: [`DesignDocument::ttl_seconds`]).
pub(in crate::advise) fn table_ttl_days(design: &DesignDocument) -> Option<f64> {
    design.ttl_seconds().map(|s| s as f64 / 86_400.0)
}

/// The plan's count in words, with the salt's buckets when they decide it.
fn presplit_note(
    recommended: u64,
    needed: u64,
    presplit: Option<&PreSplit>,
    opts: &CapacityOptions,
) -> String {
    use crate::support::num_text::fixed;
    let size = fixed(opts.max_file_size as f64 / (1u64 << 30) as f64, 0);
    match presplit {
        Some(PreSplit::SaltBuckets { .. }) if recommended != needed => format!(
            "create it with {recommended} regions, one per salt bucket: a year fills {needed} \
             regions of {size} GiB, so {}",
            if needed > recommended {
                "auto-split will cut the buckets, or the key needs more buckets"
            } else {
                "fewer regions need fewer buckets"
            }
        ),
        _ => format!(
            "pre-split into {recommended} regions: a year of data without relying on {size} GiB \
             auto-splits"
        ),
    }
}
