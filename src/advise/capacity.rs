//! Capacity and lifecycle, after seed 000's rules: how much data and how many regions after
//! 1, 6 and 12 months, regions per server against the reference guide's 20–200, active
//! regions per server against the memstore budget (greater than 1, less than the memstore
//! heap over the flush size), the pre-split count that spares the table 10 GB auto-splits,
//! the regions a time-leading key under a TTL leaves empty (they never merge), and a cyclic
//! key's cycle against TTL + 2 × `hbase.hregion.majorcompaction`.
//!
//! The figures [`capacity`] gives come from months of life ([`super::lifecycle`]); the rules
//! below are [`arithmetic`], kept as their cross-check (its year's count is in the first
//! note) and as the pre-split's sizing: a month is 30 days, sizes are the bytes written (key +
//! value, no compression, no HFile overhead), regions are counted as HBase splits them at
//! `hbase.hregion.max.filesize`.
//!
//! * Data kept after `t` days: `rate × recordBytes × 86,400 × min(t, ttl + majorCompaction)`
//!   (expired cells stay until the next major compaction); without a TTL, everything written.
//! * Regions of a key that spreads writes (every region grows): `max(pre-split,
//!   ceil(kept / maxFileSize))`, the fewest regions that hold the data.
//! * Regions of a time-leading key: only the last region is written, and each split at its
//!   middle leaves a lower half of `maxFileSize / 2` that is never written again, so
//!   `max(pre-split, ceil(written / (maxFileSize / 2)))`, counting what was ever written:
//!   regions emptied by the TTL stay. Of those, the ones whose newest row is older than TTL +
//!   major compaction are empty: `floor(rate × recordBytes × 86,400 × max(0, t − ttl −
//!   majorCompaction) / (maxFileSize / 2))`.
//! * Memstore bound per server: `heapBytes × memstoreShare / memstoreFlushSize` regions.

use serde::Serialize;

use super::evaluate::CandidateMetrics;
use crate::design::DesignDocument;
use crate::error::{Error, ErrorKind, Result};
use crate::keyspec::Segment;

/// Seconds in a day.
const DAY: f64 = 86_400.0;
/// Days in the advisor's month.
pub const MONTH_DAYS: f64 = 30.0;
/// `hbase.hregion.max.filesize`'s default, 10 GiB.
pub const MAX_FILE_SIZE: u64 = 10 * 1024 * 1024 * 1024;
/// `hbase.hregion.memstore.flush.size`'s default, 128 MiB.
pub const MEMSTORE_FLUSH_SIZE: u64 = 128 * 1024 * 1024;
/// The region server heap assumed when none is given: 16 GiB.
pub const HEAP_BYTES: u64 = 16 * 1024 * 1024 * 1024;

/// Capacity inputs; every member optional (HBase's defaults, or the design's own figures).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CapacityOptions {
    /// Bytes per record (key + value); absent: the design's mean key plus `valueSize`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record_bytes: Option<u64>,
    /// Records written per second; absent: the workload's `writeRate`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write_rate: Option<f64>,
    /// The column family's TTL in days; absent: data is kept forever.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl_days: Option<f64>,
    /// `hbase.hregion.max.filesize` (10 GiB).
    pub max_file_size: u64,
    /// `hbase.hregion.memstore.flush.size` (128 MiB).
    pub memstore_flush_size: u64,
    /// The region server heap in bytes (16 GiB).
    pub heap_bytes: u64,
    /// `hbase.regionserver.global.memstore.size`: the heap's share for memstores (0.4).
    pub memstore_share: f64,
    /// `hbase.hregion.majorcompaction` in days (7; seed 000 quotes 1).
    pub major_compaction_days: f64,
}

impl Default for CapacityOptions {
    fn default() -> Self {
        CapacityOptions {
            record_bytes: None,
            write_rate: None,
            ttl_days: None,
            max_file_size: MAX_FILE_SIZE,
            memstore_flush_size: MEMSTORE_FLUSH_SIZE,
            heap_bytes: HEAP_BYTES,
            memstore_share: 0.4,
            major_compaction_days: 7.0,
        }
    }
}

fn invalid(path: &str, msg: &str) -> Error {
    Error::new(ErrorKind::Invalid, msg).at_path(format!("capacity.{path}"))
}

impl CapacityOptions {
    /// Checks every input, naming it.
    pub fn validate(&self) -> Result<()> {
        let pos = |x: f64| x.is_finite() && x > 0.0;
        if self.record_bytes == Some(0) {
            return Err(invalid("recordBytes", "a record has at least 1 byte"));
        }
        if self.write_rate.is_some_and(|r| !pos(r)) {
            return Err(invalid("writeRate", "the write rate must be above 0"));
        }
        if self.ttl_days.is_some_and(|t| !pos(t)) {
            return Err(invalid("ttlDays", "the TTL must be above 0 days"));
        }
        if self.max_file_size < 2 {
            return Err(invalid(
                "maxFileSize",
                "the max file size must be at least 2 bytes",
            ));
        }
        if self.memstore_flush_size == 0 {
            return Err(invalid(
                "memstoreFlushSize",
                "the flush size must be above 0",
            ));
        }
        if self.heap_bytes == 0 {
            return Err(invalid("heapBytes", "the heap must be above 0 bytes"));
        }
        if !(self.memstore_share > 0.0 && self.memstore_share < 1.0) {
            return Err(invalid(
                "memstoreShare",
                "the memstore share must be between 0 and 1",
            ));
        }
        if !(self.major_compaction_days.is_finite() && self.major_compaction_days >= 0.0) {
            return Err(invalid(
                "majorCompactionDays",
                "the major compaction period must be 0 days or more",
            ));
        }
        Ok(())
    }
}

/// The table after some months.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Horizon {
    /// Months from the start.
    pub months: u32,
    /// Bytes written so far.
    pub written_bytes: f64,
    /// Bytes kept (within TTL + one major compaction).
    pub kept_bytes: f64,
    /// Regions.
    pub regions: u64,
    /// Regions per region server.
    pub regions_per_server: f64,
    /// `below`, `within` or `above` the reference guide's 20–200 regions per server.
    pub guide: String,
    /// Regions written at a time, per server.
    pub active_regions_per_server: f64,
    /// Regions that hold only expired data (a time-leading key with a TTL), never merged.
    pub empty_regions: u64,
}

/// A cyclic key's cycle against TTL + 2 × major compaction.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CycleCheck {
    /// The time pattern without a year (`MM-dd`).
    pub pattern: String,
    /// Days before the key repeats.
    pub cycle_days: f64,
    /// TTL + 2 × major compaction, in days (`None` without a TTL).
    pub required_days: Option<f64>,
    /// The cycle is long enough (`None` without a TTL).
    pub ok: Option<bool>,
}

/// The capacity and lifecycle figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CapacityReport {
    /// Region servers.
    pub servers: u32,
    /// Bytes per record used.
    pub record_bytes: u64,
    /// Records per second used.
    pub write_rate: f64,
    /// The inputs as given or defaulted.
    pub inputs: CapacityOptions,
    /// After 1, 6 and 12 months.
    pub horizons: Vec<Horizon>,
    /// The most regions per server whose memstores fit: heap × share / flush size.
    pub memstore_regions_per_server: f64,
    /// The key leads with a time or a sequence: one region takes the writes, regions of old
    /// data are never written again.
    pub time_leading: bool,
    /// Month by month (1 to 12), the regions and how many of them are empty (a time-leading
    /// key with a TTL); empty otherwise.
    pub monthly: Vec<Horizon>,
    /// The pre-split region count: the regions a year of data needs, rounded up to a multiple
    /// of the servers, at least one per server.
    pub recommended_presplit: u64,
    /// The cyclic key check, when the key writes a time without its year.
    pub cycle: Option<CycleCheck>,
    /// What the figures mean for this design, in words.
    pub notes: Vec<String>,
}

/// Regions per server against the reference guide's 20–200.
fn guide(per_server: f64) -> &'static str {
    if per_server < 20.0 {
        "below"
    } else if per_server > 200.0 {
        "above"
    } else {
        "within"
    }
}

/// The cycle of a time pattern without a year, in days.
fn cycle_days(pattern: &str) -> Option<f64> {
    if pattern.contains('y') || pattern.contains('Y') {
        return None;
    }
    if pattern.contains('M') || pattern.contains('D') {
        Some(365.0)
    } else if pattern.contains('d') {
        // The shortest month: a `dd` key repeats after 28 days in February.
        Some(28.0)
    } else if pattern.contains('E') || pattern.contains('u') {
        Some(7.0)
    } else if pattern.contains('H') || pattern.contains('k') {
        Some(1.0)
    } else {
        None
    }
}

fn cyclic_pattern(segments: &[Segment]) -> Option<(String, f64)> {
    segments.iter().find_map(|s| match s {
        Segment::Time(t) => cycle_days(&t.pattern).map(|d| (t.pattern.clone(), d)),
        _ => None,
    })
}

/// What the capacity arithmetic takes of an evaluation: its mean key bytes, its regions and
/// the regions it wrote per window.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measured {
    /// Mean row key bytes.
    pub key_bytes: f64,
    /// Regions at the end of the run.
    pub regions: usize,
    /// Regions written per time window (mean).
    pub active_regions_per_window: f64,
}

impl From<&CandidateMetrics> for Measured {
    fn from(m: &CandidateMetrics) -> Measured {
        Measured {
            key_bytes: m.key_bytes,
            regions: m.regions,
            active_regions_per_window: m.active_regions_per_window,
        }
    }
}

/// The capacity of `design` (evaluated as `m`) on `servers` region servers: its months
/// simulated under HBase's rules ([`super::lifecycle`]), the horizons and the monthly figures
/// read off the simulation. The pre-split count stays the sizing rule (a year's kept bytes in
/// regions of `maxFileSize`), and the cyclic key's check the arithmetic's. When the table
/// cannot be simulated (more servers than the simulator takes, say) the figures are the
/// arithmetic's ([`arithmetic`]), and a note says why.
pub fn capacity(
    design: &DesignDocument,
    m: &Measured,
    opts: &CapacityOptions,
    servers: u32,
) -> CapacityReport {
    let mut c = arithmetic(design, m, opts, servers);
    let inputs = super::lifecycle::Inputs {
        max_file_size: opts.max_file_size,
        memstore_flush_size: opts.memstore_flush_size,
        ttl_days: opts.ttl_days,
        heap_bytes: opts.heap_bytes,
        memstore_share: opts.memstore_share,
        major_compaction_days: opts.major_compaction_days,
    };
    let sim = super::lifecycle::simulate(
        design,
        &inputs,
        c.servers,
        c.write_rate,
        opts.record_bytes.or(Some(c.record_bytes)),
    );
    let report = match sim {
        Ok(r) => r,
        Err(e) => {
            c.notes.insert(
                1,
                format!(
                    "the months could not be simulated ({e}): the figures are the arithmetic's"
                ),
            );
            return c;
        }
    };
    let arith_year = c.horizons.last().map_or(0, |h| h.regions);
    let horizons: Vec<Horizon> = [1u32, 6, 12]
        .iter()
        .filter_map(|&mo| horizon(&report, mo, c.servers))
        .collect();
    if horizons.len() == 3 {
        c.horizons = horizons;
    }
    if !c.monthly.is_empty() {
        c.monthly = (1..=super::lifecycle::MONTHS)
            .filter_map(|mo| horizon(&report, mo, c.servers))
            .collect();
    }
    c.notes = notes(
        &c.horizons,
        c.memstore_regions_per_server,
        c.time_leading,
        opts,
        c.cycle.as_ref(),
    );
    if let Some(first) = c.notes.first_mut() {
        *first = format!(
            "simulated month by month under HBase's rules ({}, {}-hour steps, 30-day months): cells as KeyValues ({} + 20 + family + qualifier bytes) split at maxFileSize with its jitter, flushes, compactions, the TTL and the balancer; the arithmetic (bytes / maxFileSize) would say {} regions after 12 months",
            report.policy,
            super::lifecycle::STEP_HOURS,
            c.record_bytes,
            arith_year,
        );
    }
    c
}

/// Month `m` (1-based) of a simulation as a capacity horizon on `servers`: KeyValue bytes
/// written, store-file bytes on disk, the regions, the most one server wrote at once, the
/// empty ones.
fn horizon(report: &crate::life::LifeReport, m: u32, servers: u32) -> Option<Horizon> {
    let month = report.months.iter().find(|x| x.month == m)?;
    let per_server = f64::from(month.regions) / f64::from(servers.max(1));
    Some(Horizon {
        months: m,
        written_bytes: month.written_bytes,
        kept_bytes: month.on_disk_bytes,
        regions: u64::from(month.regions),
        regions_per_server: per_server,
        guide: guide(per_server).into(),
        active_regions_per_server: f64::from(month.max_regions_written_at_once),
        empty_regions: u64::from(month.empty_regions),
    })
}

/// The capacity as arithmetic on the inputs (the module's rules): a cross-check of the
/// simulation, and its stand-in when the table cannot be simulated.
pub fn arithmetic(
    design: &DesignDocument,
    m: &Measured,
    opts: &CapacityOptions,
    servers: u32,
) -> CapacityReport {
    let servers = servers.max(1);
    let workload = design.workload.clone().unwrap_or_default();
    let record_bytes = opts.record_bytes.unwrap_or_else(|| {
        (m.key_bytes.max(0.0).round() as u64).saturating_add(workload.value_size)
    });
    let rate = opts.write_rate.unwrap_or(workload.write_rate);
    let presplit =
        super::presplit::region_count(&design.regions.clone().unwrap_or_default().presplit) as u64;
    let time_leading = crate::design::lint(design)
        .iter()
        .any(|f| f.rule == "monotonic-leading");
    let max_file = opts.max_file_size as f64;
    let per_day = rate * record_bytes as f64 * DAY;
    let ttl_hold = opts.ttl_days.map(|t| t + opts.major_compaction_days);
    // The share of regions written at a time, measured on the evaluation.
    let active_share = if m.regions > 0 {
        (m.active_regions_per_window / m.regions as f64).min(1.0)
    } else {
        1.0
    };
    let at = |days: f64, months: u32| -> Horizon {
        let written = per_day * days;
        let kept = per_day * ttl_hold.map_or(days, |h| days.min(h));
        let (regions, empty, active) = if time_leading {
            let half = max_file / 2.0;
            let regions = ((written / half).ceil() as u64).max(presplit);
            let expired = ttl_hold.map_or(0.0, |h| (days - h).max(0.0));
            let empty = ((per_day * expired / half).floor() as u64).min(regions);
            (
                regions,
                empty,
                m.active_regions_per_window.min(regions as f64),
            )
        } else {
            let regions = ((kept / max_file).ceil() as u64).max(presplit);
            (regions, 0, regions as f64 * active_share)
        };
        let per_server = regions as f64 / f64::from(servers);
        Horizon {
            months,
            written_bytes: written,
            kept_bytes: kept,
            regions,
            regions_per_server: per_server,
            guide: guide(per_server).into(),
            active_regions_per_server: active / f64::from(servers),
            empty_regions: empty,
        }
    };
    let horizons: Vec<Horizon> = [1u32, 6, 12]
        .iter()
        .map(|&mo| at(f64::from(mo) * MONTH_DAYS, mo))
        .collect();
    let monthly: Vec<Horizon> = if time_leading && opts.ttl_days.is_some() {
        (1..=12u32)
            .map(|mo| at(f64::from(mo) * MONTH_DAYS, mo))
            .collect()
    } else {
        Vec::new()
    };
    let memstore = opts.heap_bytes as f64 * opts.memstore_share / opts.memstore_flush_size as f64;
    let year = horizons.last().map_or(presplit, |h| h.regions);
    let s = u64::from(servers);
    let recommended = if time_leading {
        s
    } else {
        year.max(s).div_ceil(s).saturating_mul(s)
    };
    let cycle = cyclic_pattern(&design.key.segments).map(|(pattern, days)| {
        let required = opts.ttl_days.map(|t| t + 2.0 * opts.major_compaction_days);
        CycleCheck {
            pattern,
            cycle_days: days,
            required_days: required,
            ok: required.map(|r| days >= r),
        }
    });
    let notes = notes(&horizons, memstore, time_leading, opts, cycle.as_ref());
    CapacityReport {
        servers,
        record_bytes,
        write_rate: rate,
        inputs: opts.clone(),
        horizons,
        memstore_regions_per_server: memstore,
        time_leading,
        monthly,
        recommended_presplit: recommended,
        cycle,
        notes,
    }
}

fn notes(
    horizons: &[Horizon],
    memstore: f64,
    time_leading: bool,
    opts: &CapacityOptions,
    cycle: Option<&CycleCheck>,
) -> Vec<String> {
    use crate::support::num_text::fixed;
    let mut out = vec![
        "arithmetic on the inputs, not a simulation: 30-day months, bytes as written (key + value, no compression), regions split at maxFileSize".to_string(),
    ];
    if let Some(y) = horizons.last() {
        out.push(format!(
            "after 12 months: {} GiB kept in {} regions, {} per server ({} the guide's 20-200)",
            fixed(y.kept_bytes / (1u64 << 30) as f64, 1),
            y.regions,
            fixed(y.regions_per_server, 1),
            y.guide
        ));
        if y.active_regions_per_server < 1.0 {
            out.push(format!(
                "{} regions written per server at a time: fewer than 1, so some servers take no writes",
                fixed(y.active_regions_per_server, 2)
            ));
        } else if y.active_regions_per_server > memstore {
            out.push(format!(
                "{} regions written per server at a time: more than the {} memstores the heap holds (heap x {} / flush size), so memstores flush early and small",
                fixed(y.active_regions_per_server, 1),
                fixed(memstore, 1),
                fixed(opts.memstore_share, 2)
            ));
        }
    }
    if time_leading {
        out.push(
            "the key leads with a time or a sequence: one region takes the writes whatever the pre-split; salt or reorder the key".into(),
        );
        if opts.ttl_days.is_some() {
            if let Some(y) = horizons.last() {
                out.push(format!(
                    "with the TTL, {} of the {} regions are empty after 12 months and never merge",
                    y.empty_regions, y.regions
                ));
            }
        }
    }
    // the pre-split count's own note is the region plan's (`regions::region_plan_with`), which
    // knows whether a salt's buckets decide it
    if let Some(c) = cycle {
        out.push(match (c.required_days, c.ok) {
            (Some(r), Some(true)) => format!(
                "the cyclic key `{}` repeats after {} days, at least TTL + 2 x major compaction = {} days: expired rows are gone before their keys come back",
                c.pattern, fixed(c.cycle_days, 0), fixed(r, 1)
            ),
            (Some(r), _) => format!(
                "the cyclic key `{}` repeats after {} days, less than TTL + 2 x major compaction = {} days: new rows land among expired ones not yet compacted away",
                c.pattern, fixed(c.cycle_days, 0), fixed(r, 1)
            ),
            _ => format!(
                "the cyclic key `{}` repeats after {} days: give ttlDays to check it against TTL + 2 x major compaction",
                c.pattern, fixed(c.cycle_days, 0)
            ),
        });
    }
    out
}
