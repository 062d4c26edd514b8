//! The simulation's loop: each step's events in time order (the regions' flushes as their
//! memstores fill, each with its split check and compaction request; the chores at their own
//! periods), each day's and month's figures closed, the report assembled.

use super::notes::{notes, ran_with};
use super::report::{
    Crossings, LifeMonth, LifeReport, RegionEnd, LARGE_REGION_BYTES, REGIONS_PER_SERVER_GUIDE,
};
use super::settings::{LifeSettings, MAX_LIFE_REGIONS};
use super::sim::{EventKind, Sim, MONTH_DAYS};
use super::{balancer, LifeEvent, LifeWorkload, MonthEnd};
use crate::error::Result;

/// The simulation, its events into `events` when given.
pub(super) fn run(
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
