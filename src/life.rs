//! Months of life: what HBase's own machinery does to a table over months (issue 58), by the
//! rules of the research file (part A), simulated in time steps over the key space in
//! aggregate (`keys`), so the cost follows regions × steps, not writes.
//!
//! Each step (an hour by default): daughters and merged regions compact their references;
//! the writes fall into memstores; a memstore flushes at the flush size or at the periodic
//! flush, and a flush is followed by a split check (`hbase::policy`'s size checks, n = the
//! table's regions on that server, the region's own jitter draw) and, when the store needs
//! one, a compaction (Exploring's selection, TTL dropping expired cells) and another split
//! check; the `CompactionChecker` chore (every 10,000 s) requests compactions and periodic
//! majors (jittered 3.5–10.5 days), removing whole expired files; the normalizer (off by
//! default) and the balancer run once a step. Splits cut at the middle of the largest store
//! file, daughters stay on the parent's server and cannot split before compacting, and no
//! server splits past `hbase.regionserver.regionSplitLimit`.
//!
//! Left out (as the research file's §E says, no public model exists): memstore pressure from
//! other tables and blocked writes (so no BusyRegionSplitPolicy), HDFS locality, `hbase:meta`
//! load, region replicas, reads. Column families are filled alike (`families`), so with
//! `overallfiles` false a store is the region over the families. The balancer's search is a
//! seeded greedy stand-in (`balancer`).

mod balancer;
mod check;
mod compaction;
mod design;
mod diagnosis;
mod keys;
mod master;
mod normalizer;
mod report;
mod settings;
mod sim;
mod store;
mod view;

pub use balancer::{double_array_cost, weight_sum, BalancerCost, Trigger};
pub use check::{
    check as check_months, check_design, check_writes, LifeBudgets, LifeCheck, MonthFigure,
};
pub use design::{settings_for_design, workload_from_design, workload_from_rows};
pub use diagnosis::{
    diagnose, hot_share, FindingKind, LifeDiagnosis, LifeFinding, LifeFix, EMPTY_SHARE,
    EXPIRED_SHARE, HOT_SERVER_SHARE, MIN_EMPTY_REGIONS, MIN_EXPIRED_BYTES, MIN_STORM_DAYS,
    MIN_STORM_SPLITS, STORM_SHARE,
};
pub use keys::{KeyModel, LaneOrder, LifeWorkload};
pub use normalizer::{average_mb, plans as normalizer_plans, NormalizerPlans, NormalizerRegion};
pub use report::{
    Crossings, LifeMonth, LifeReport, RegionEnd, ServerMonth, LARGE_REGION_BYTES,
    REGIONS_PER_SERVER_GUIDE, SIZE_BIN_EDGES,
};
pub use settings::{
    BalancerSettings, CompactionPolicy, CompactionSettings, HBaseVersion, LifeSettings,
    NormalizerSettings, MAX_LANES, MAX_LIFE_REGIONS, MAX_LIFE_SERVERS, MAX_MONTHS,
    REGION_SPLIT_LIMIT,
};
pub use sim::{Event as LifeEvent, EventKind as LifeEventKind, MAX_EVENTS, MONTH_DAYS};
pub use view::{
    compare_design, compare_writes, months_of, months_of_design, months_of_writes, ComparedFigure,
    KeyMonthMap, LifeComparison, LifeView, MAP_ROWS,
};

use crate::error::Result;
use sim::{EventKind, Sim};

/// Simulate `w` on a table set up by `s`, month by month. Deterministic from `s.seed`.
pub fn simulate(s: &LifeSettings, w: &LifeWorkload) -> Result<LifeReport> {
    simulate_observed(s, w, &mut |_| Ok(()))
}

/// [`simulate`], with the simulation's events in time order (the first [`MAX_EVENTS`]): each
/// flush, split, merge, move and compaction, and each chore's look, at its time.
pub fn simulate_events(s: &LifeSettings, w: &LifeWorkload) -> Result<(LifeReport, Vec<LifeEvent>)> {
    let mut events = Vec::new();
    let report = run(s, w, &mut |_| Ok(()), Some(&mut events))?;
    Ok((report, events))
}

/// What an observer of a simulation sees at each month's end (`view`'s map and progress).
pub(crate) struct MonthEnd<'a> {
    /// The month's figures.
    pub month: &'a LifeMonth,
    /// The regions then, in key order.
    pub regions: &'a [sim::Region],
    /// The key space's lanes (coordinates run from 0 to this).
    pub lanes: usize,
}

/// [`simulate`], calling `on_month` at each month's end; its error stops the simulation.
pub(crate) fn simulate_observed(
    s: &LifeSettings,
    w: &LifeWorkload,
    on_month: &mut dyn FnMut(&MonthEnd<'_>) -> Result<()>,
) -> Result<LifeReport> {
    run(s, w, on_month, None)
}

/// The simulation, its events into `events` when given.
fn run(
    s: &LifeSettings,
    w: &LifeWorkload,
    on_month: &mut dyn FnMut(&MonthEnd<'_>) -> Result<()>,
    events: Option<&mut Vec<LifeEvent>>,
) -> Result<LifeReport> {
    s.validate()?;
    w.validate()?;
    let mut sim = Sim::new(s, w);
    if events.is_some() {
        sim.trace = Some(Vec::new());
    }
    let steps_per_day = s.steps_per_day();
    let steps_per_month = steps_per_day * MONTH_DAYS;
    let mut months = Vec::with_capacity(s.months as usize);
    let mut crossings = Crossings::default();
    let mut capped = None;
    for t in 0..sim.steps {
        sim.t = t;
        step(&mut sim);
        if (t + 1) % steps_per_day == 0 {
            close_day(&mut sim);
        }
        if (t + 1) % steps_per_month == 0 {
            let mut m = sim.month_snapshot();
            m.month = (t + 1) / steps_per_month;
            m.balancer_cost = balancer::cost(&sim.loads(), 0, s.version);
            note_crossings(&mut crossings, &m, s);
            if capped.is_none() && m.regions as usize >= MAX_LIFE_REGIONS {
                capped = Some(m.month);
            }
            on_month(&MonthEnd {
                month: &m,
                regions: &sim.regions,
                lanes: sim.lanes.len(),
            })?;
            months.push(m);
        }
    }
    if let (Some(out), Some(trace)) = (events, sim.trace.take()) {
        *out = trace;
    }
    Ok(LifeReport {
        policy: s.policy.class_name().to_string(),
        overall_hregion_files: s.overall_files(),
        memstore_bound: s.memstore_bound(),
        months,
        crossings,
        regions_at_end: sim
            .regions
            .iter()
            .map(|r| RegionEnd {
                start: r.start,
                end: r.end,
                bytes: r.disk(),
                server: r.server,
            })
            .collect(),
        ran_with: ran_with(s),
        notes: notes(s, capped, sim.lumped),
        changed_settings: s.changed_from_defaults(),
        diagnosis: None,
        table: None,
    })
}

/// Where a simulation's writes come from.
#[derive(Debug, Clone, Copy)]
pub enum Writes<'a> {
    /// The design's generated workload ([`workload_from_design`]).
    Design,
    /// A user's rows ([`workload_from_rows`]): their keys in write order and the design's
    /// pre-split cut at them.
    Rows {
        /// The keys in write order.
        sample: &'a crate::workload::WriteSample,
        /// The design's pre-split keys cut at the rows.
        split_keys: &'a [Vec<u8>],
    },
}

impl<'a> Writes<'a> {
    /// A user's rows (not the design's generated workload).
    pub(crate) fn is_rows(&self) -> bool {
        matches!(self, Writes::Rows { .. })
    }

    /// The rows a session read with [`keep_write_sample`](crate::analyze::RowsSession::keep_write_sample),
    /// after its `end_scan`.
    #[cfg(feature = "rows")]
    pub fn of_session(session: &'a crate::analyze::RowsSession) -> Result<Writes<'a>> {
        Ok(Writes::Rows {
            sample: session.write_sample()?,
            split_keys: &session.split_keys()?.keys,
        })
    }

    /// The workload these writes make under `s`, and the notes that say how they were read.
    pub(crate) fn workload(
        &self,
        doc: &crate::design::DesignDocument,
        s: &LifeSettings,
    ) -> Result<(LifeWorkload, Vec<String>)> {
        match self {
            Writes::Design => {
                let w = workload_from_design(doc, s)?;
                let note = writes_note(&w);
                Ok((w, vec![note]))
            }
            Writes::Rows { sample, split_keys } => {
                let (w, rows) = workload_from_rows(doc, s, sample, split_keys)?;
                let note = writes_note(&w);
                Ok((w, vec![rows, note]))
            }
        }
    }
}

/// Simulate a design document's table: its servers and split policy, with `options` (a JSON
/// object of [`LifeSettings`] members, `null` for none) over them, and its writes as
/// [`workload_from_design`] finds them.
pub fn simulate_design(
    doc: &crate::design::DesignDocument,
    options: &serde_json::Value,
) -> Result<LifeReport> {
    simulate_writes(doc, Writes::Design, options)
}

/// [`simulate_design`] with its writes from `writes` (the design's workload or a user's rows).
pub fn simulate_writes(
    doc: &crate::design::DesignDocument,
    writes: Writes<'_>,
    options: &serde_json::Value,
) -> Result<LifeReport> {
    let (doc, options, table) = design::table_for(doc, options, writes.is_rows())?;
    let s = settings_for_design(&doc, &options)?;
    let (w, notes) = writes.workload(&doc, &s)?;
    let mut report = simulate(&s, &w)?;
    let (table, note) = table.unzip();
    let scaled = design::scaled_sizes_note(&doc, &s);
    report
        .notes
        .extend(note.into_iter().chain(notes).chain(scaled));
    report.table = table;
    report.diagnosis = Some(diagnose(&s, &w, &report));
    Ok(report)
}

/// The note that says how the design's writes were read.
pub(crate) fn writes_note(w: &LifeWorkload) -> String {
    format!(
        "the design's writes: {:.0} cells/s of {:.0} bytes, {} lane(s) of the key space, {}",
        w.writes_per_second,
        w.cell_bytes,
        w.keys.weights.len(),
        match w.keys.order {
            LaneOrder::Spread => "spread over each lane",
            LaneOrder::Ascending => "each written in ascending time order",
            LaneOrder::Descending => "each written in descending time order",
        }
    )
}

/// Whether the table's policy splits a region of `size` store-file bytes with
/// `regions_on_server` of the table's regions on its server and the jitter draw `jitter`
/// (`None`: no jitter): the very check the simulation makes after each flush and compaction.
pub fn splits_at(s: &LifeSettings, size: f64, regions_on_server: u32, jitter: Option<f32>) -> bool {
    sim::should_split(s, &s.split_config(), size, regions_on_server, jitter)
}

/// One step of the table's life, its events in time order: the regions' flushes as their
/// memstores reach the flush size (each followed by a split check and a compaction request),
/// the chores at their own periods; at the step's end the writes still in memstores, the
/// periodic flush, and the chores due then.
fn step(sim: &mut Sim) {
    sim.tau = 0.0;
    // Regions opened with references compacted them as they opened (compact_opened).
    sim.plan_writes();
    let mut fast = fast_regions(sim, true);
    let mut opened = sim.next_id;
    loop {
        let flush = next_flush(sim, &mut fast);
        let chore = next_chore(sim);
        let at = flush.map_or(f64::INFINITY, |f| f.0);
        if at.min(chore) >= 1.0 {
            break;
        }
        if at <= chore {
            sim.tau = at;
            if let Some((_, i)) = flush {
                sim.flush(i);
                after_flush(sim, i);
            }
        } else {
            sim.tau = chore;
            run_chores(sim);
        }
        compact_opened(sim);
        if sim.next_id != opened {
            fast = fast_regions(sim, false);
            opened = sim.next_id;
        }
    }
    sim.tau = 1.0;
    // The step's writes still in flight reach the memstores, and the flushes due then (a
    // split's daughters open with nothing in flight).
    each_region(sim, |sim, i| {
        sim.sync(i);
        sim.flush_due(i) && {
            sim.flush(i);
            after_flush(sim, i)
        }
    });
    run_chores(sim);
    compact_opened(sim);
    // The hottest-server figures are of an hour (of a step, for steps of hours).
    if (sim.t + 1) % sim.steps_per_hour == 0 {
        sim.note_hottest();
    }
}

/// The compactions HBase requests as a region opens holding references (`HRegionServer`'s
/// post-open tasks), each followed by its split check, for the regions the last event opened.
fn compact_opened(sim: &mut Sim) {
    while !sim.opened_with_references.is_empty() {
        let opened = std::mem::take(&mut sim.opened_with_references);
        for start in opened {
            // The region starting there now (a moved one keeps its id past its open).
            let i = sim
                .regions
                .partition_point(|r| r.start <= start)
                .saturating_sub(1);
            if sim.regions.get(i).is_some_and(|r| r.has_references()) {
                sim.request_compaction(i, false);
                try_split(sim, i);
            }
        }
    }
}

/// `visit(sim, i)` on each region in key order; it returns whether region `i` split, and then
/// its two daughters are stepped over.
fn each_region(sim: &mut Sim, mut visit: impl FnMut(&mut Sim, usize) -> bool) {
    let mut i = 0;
    while i < sim.regions.len() {
        i += if visit(sim, i) { 2 } else { 1 };
    }
}

/// `MemStoreFlusher.flushRegion`'s checks after a flush: a split when the policy says so, else a
/// compaction when the store needs one, and a split check after it. Whether it split.
fn after_flush(sim: &mut Sim, i: usize) -> bool {
    try_split(sim, i) || (sim.request_compaction(i, false) && try_split(sim, i))
}

/// The regions whose memstores reach the flush size before the step ends, by id and start;
/// with `at_start`, the regions written too fast for one file per flush counted too
/// (`lumped`, for the notes), in the same pass.
fn fast_regions(sim: &mut Sim, at_start: bool) -> Vec<(u64, f64)> {
    let flush_size = sim.flush_size;
    let mut lumped = 0;
    let fast = (0..sim.regions.len())
        .filter(|&i| {
            if at_start {
                lumped += u64::from(
                    sim.regions
                        .get(i)
                        .is_some_and(|r| sim.flush_threshold(r) > flush_size),
                );
            }
            sim.flush_at(i).is_some_and(|at| at < 1.0)
        })
        .filter_map(|i| sim.regions.get(i).map(|r| (r.id, r.start)))
        .collect();
    sim.lumped += lumped;
    fast
}

/// The next flush of a fast region in this step: its time and index. Regions no longer there
/// (split, merged) leave the list.
fn next_flush(sim: &Sim, fast: &mut Vec<(u64, f64)>) -> Option<(f64, usize)> {
    let mut best: Option<(f64, usize)> = None;
    fast.retain(|&(id, start)| {
        let i = sim
            .regions
            .partition_point(|r| r.start <= start)
            .saturating_sub(1);
        if sim.regions.get(i).map(|r| r.id) != Some(id) {
            return false;
        }
        if let Some(at) = sim.flush_at(i) {
            if best.map_or(true, |b| at < b.0) {
                best = Some((at, i));
            }
        }
        true
    });
    best
}

/// When in this step (0 to 1; past 1: not this step) the next chore runs.
fn next_chore(sim: &Sim) -> f64 {
    let step_secs = sim.step_secs;
    let start = f64::from(sim.t) * step_secs;
    let mut at = sim.next_checker;
    if sim.s.normalizer.enabled {
        at = at.min(sim.next_normalizer);
    }
    if sim.s.balancer.enabled && sim.s.servers > 1 {
        at = at.min(sim.next_balancer);
    }
    ((at - start) / step_secs).max(sim.tau)
}

/// The chores due by now, each at its period: the compaction checker (compactions and periodic
/// majors), the normalizer, the balancer.
fn run_chores(sim: &mut Sim) {
    // A hair past now: a chore due at the step's end runs at it, not a step late.
    let now = sim.seconds() + 1e-6;
    if sim.next_checker <= now {
        sim.next_checker = next_run(sim.next_checker, sim.s.compaction.checker_seconds, now);
        sim.note(EventKind::CheckerLook, 0);
        each_region(sim, |sim, i| {
            sim.request_compaction(i, true) && try_split(sim, i)
        });
    }
    if sim.next_normalizer <= now {
        sim.next_normalizer = next_run(sim.next_normalizer, sim.s.normalizer.period_seconds, now);
        sim.normalize();
    }
    if sim.next_balancer <= now {
        sim.next_balancer = next_run(sim.next_balancer, sim.s.balancer.period_seconds, now);
        sim.balance();
    }
}

/// A chore's first run after `now`, from its run at `last` every `period` seconds.
fn next_run(last: f64, period: f64, now: f64) -> f64 {
    let missed = ((now - last) / period).floor().max(0.0);
    last + (missed + 1.0) * period
}

/// A split check on region `i`, and the split when it says so.
fn try_split(sim: &mut Sim, i: usize) -> bool {
    match sim.check_split(i, false) {
        Some(x) => {
            sim.split(i, x);
            true
        }
        None => false,
    }
}

fn close_day(sim: &mut Sim) {
    let c = &mut sim.c;
    c.month.max_splits_per_day = c.month.max_splits_per_day.max(c.day_splits);
    c.month.splits_by_day.push(c.day_splits);
    c.month.major_compactions_by_day.push(c.day_majors);
    c.month.max_major_compactions_per_day = c.month.max_major_compactions_per_day.max(c.day_majors);
    let busy = (sim.regions.len() as u32 / 10).max(4);
    let is_busy = c.day_splits + c.day_majors >= busy;
    c.month.busy_days += u32::from(is_busy);
    c.month.busy_by_day.push(is_busy);
    c.day_splits = 0;
    c.day_majors = 0;
}

fn note_crossings(c: &mut Crossings, m: &LifeMonth, s: &LifeSettings) {
    let first = |slot: &mut Option<u32>, crossed: bool| {
        if crossed && slot.is_none() {
            *slot = Some(m.month);
        }
    };
    let max_regions = m.servers.iter().map(|x| x.regions).max().unwrap_or(0);
    let max_written = m.max_regions_written_at_once;
    first(
        &mut c.regions_per_server_over_200,
        max_regions > REGIONS_PER_SERVER_GUIDE,
    );
    first(
        &mut c.memstore_bound,
        f64::from(max_written) > s.memstore_bound(),
    );
    first(
        &mut c.region_over_20_gib,
        m.largest_region_bytes > LARGE_REGION_BYTES,
    );
    first(&mut c.split_limit, max_regions >= s.region_split_limit);
}

/// `x` to 4 decimals, without trailing zeros (`10`, `0.25`).
fn trim(x: f64) -> String {
    let s = format!("{x:.4}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The settings a run ran with, in a line ([`LifeReport::ran_with`]).
fn ran_with(s: &LifeSettings) -> String {
    let mib = |b: f64| b / (1u64 << 20) as f64;
    let gib = |b: i64| trim(b as f64 / (1u64 << 30) as f64);
    format!(
            "{} server{}, {}, split size {} GiB (hbase.hregion.max.filesize), flush size {:.0} MiB, TTL {}, normalizer {}, balancer {}, major compactions {}",
            s.servers,
            if s.servers == 1 { "" } else { "s" },
            s.policy.class_name(),
            gib(s.split.desired_max_file_size()),
            mib(s.flush_size()),
            s.ttl_seconds.map_or("FOREVER".to_string(), |t| format!("{t} s ({} days)", trim(t as f64 / 86_400.0))),
            if s.normalizer.enabled { "on" } else { "off" },
            if s.balancer.enabled { "on" } else { "off" },
            if s.compaction.major_period_hours > 0.0 {
                format!("every {} h ± {:.0} %", s.compaction.major_period_hours, s.compaction.major_jitter * 100.0)
            } else {
                "off".to_string()
            },
    )
}

fn notes(s: &LifeSettings, capped: Option<u32>, lumped: u64) -> Vec<String> {
    let changed = s.changed_from_defaults();
    let mut n = vec![
        format!("ran with: {}", ran_with(s)),
        if changed.is_empty() {
            "every setting is HBase's default".to_string()
        } else {
            format!(
                "settings that differ from HBase's defaults: {}",
                changed
                    .iter()
                    .map(|c| {
                        let default = if c.default == "null" { "unset" } else { &c.default };
                        format!("{} = {} (default {default})", c.name, c.value)
                    })
                    .collect::<Vec<_>>()
                    .join("; ")
            )
        },
        format!(
            "split checks after each flush and compaction under {} (n = the table's regions on the server), one jitter draw per region open",
            s.policy.class_name()
        ),
        "split point: the middle of the largest store file; daughters stay on the parent's server and cannot split before compacting their references".into(),
        "cell size: 20 + row + family + qualifier + value bytes, times the compression ratio on disk".into(),
        "balancer: StochasticLoadBalancer's trigger and cost functions; a seeded greedy search stands in for its random one; locality, read and memstore costs are 0".into(),
        "left out: memstore pressure from other tables and blocked writes, HDFS locality, hbase:meta load, replicas, reads".into(),
    ];
    if let Some(m) = capped {
        n.push(format!(
            "the table reached the simulator's {MAX_LIFE_REGIONS} regions in month {m}; it splits no further"
        ));
    }
    if !s.normalizer.enabled {
        n.push("normalizer off (NORMALIZATION_ENABLED is false by default)".into());
    }
    let n_cfg = &s.normalizer;
    let span_days = f64::from(s.months * MONTH_DAYS);
    if n_cfg.enabled && n_cfg.merge_enabled && n_cfg.merge_min_region_age_days >= span_days {
        n.push(format!(
            "no region grows older than hbase.normalizer.merge.min_region_age.days ({}) within the {} days simulated: the normalizer merges nothing",
            n_cfg.merge_min_region_age_days, span_days
        ));
    }
    if s.compaction.min_files > s.compaction.max_files {
        n.push(format!(
            "hbase.hstore.compaction.min ({}) is above hbase.hstore.compaction.max ({}): no minor compaction is ever selected",
            s.compaction.min_files, s.compaction.max_files
        ));
    }
    if lumped > 0 {
        n.push(format!(
            "{lumped} region-step(s) were written faster than {} flush sizes an hour: their flushes were taken {} to the hour, each larger than the flush size",
            sim::MAX_FLUSHES_PER_HOUR, sim::MAX_FLUSHES_PER_HOUR
        ));
    }
    n
}
