//! The capacity figures from months of life (`crate::life`): the design's table simulated
//! for 12 months under HBase's own rules (its split policy on the production sizes, flushes,
//! compactions, the TTL, the balancer), in 6-hour steps, and each month's regions, bytes,
//! regions per server, regions written at once and empty regions read off the simulation. The
//! step is coarser than the simulator's default hour to keep the advisor's one call within
//! its budget (12 months to 2,048 regions take about 0.6 s natively at one hour, a quarter of
//! that at six); month-end figures barely move with it (flushes and checks are per step).

use crate::design::DesignDocument;
use crate::error::Result;
use crate::life::{self, LifeReport, LifeSettings};

/// Hours per simulated step for the advisor.
pub const STEP_HOURS: f64 = 6.0;
/// Months simulated.
pub const MONTHS: u32 = 12;

/// The capacity inputs the simulation takes (the advisor's `CapacityOptions`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Inputs {
    /// `hbase.hregion.max.filesize`.
    pub max_file_size: u64,
    /// `hbase.hregion.memstore.flush.size`.
    pub memstore_flush_size: u64,
    /// The family's TTL in days.
    pub ttl_days: Option<f64>,
    /// A region server's heap.
    pub heap_bytes: u64,
    /// `hbase.regionserver.global.memstore.size`.
    pub memstore_share: f64,
    /// `hbase.hregion.majorcompaction` in days.
    pub major_compaction_days: f64,
}

/// The settings of the advisor's simulation: the design's table (servers, split policy, the
/// `hbase` section), on `servers`, with the capacity inputs' production sizes, TTL, heap and
/// major compaction period (the design's `autoSplit` sizes are the in-run analysis's, scaled
/// down to split minutes of writes).
pub fn settings(design: &DesignDocument, opts: &Inputs, servers: u32) -> Result<LifeSettings> {
    let mut s = life::settings_for_design(design, &life::LifeOptions::default())?;
    s.months = MONTHS;
    s.step_hours = STEP_HOURS;
    s.servers = servers;
    s.split.max_file_size = i64::try_from(opts.max_file_size).unwrap_or(i64::MAX);
    s.split.table_max_file_size = None;
    s.split.memstore_flush_size = i64::try_from(opts.memstore_flush_size).unwrap_or(i64::MAX);
    s.split.table_memstore_flush_size = None;
    s.split.initial_size = None;
    if let Some(days) = opts.ttl_days {
        s.ttl_seconds = Some((days * 86_400.0).round().max(60.0) as u64);
    }
    s.heap_bytes = opts.heap_bytes;
    s.memstore_share = opts.memstore_share;
    s.compaction.major_period_hours = opts.major_compaction_days * 24.0;
    Ok(s)
}

/// The design's table simulated for the advisor: `rate` writes a second of `record_bytes`
/// (key and value) each, or the design's own mean cell when `record_bytes` is `None`.
pub fn simulate(
    design: &DesignDocument,
    opts: &Inputs,
    servers: u32,
    rate: f64,
    record_bytes: Option<u64>,
) -> Result<LifeReport> {
    let s = settings(design, opts, servers)?;
    let mut w = life::workload_from_design(design, &s)?;
    w.writes_per_second = rate;
    if let Some(b) = record_bytes {
        w.cell_bytes = s.cell_bytes().key_value(b) as f64;
    }
    life::simulate(&s, &w)
}
