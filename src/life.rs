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
//! default) and the balancer run at their own periods (5 minutes), inside the step. Splits cut at the middle of the largest store
//! file, daughters stay on the parent's server and cannot split before compacting, and no
//! server splits past `hbase.regionserver.regionSplitLimit`.
//!
//! Left out (as the research file's §E says, no public model exists): memstore pressure from
//! other tables and blocked writes (so no BusyRegionSplitPolicy), HDFS locality, `hbase:meta`
//! load, region replicas, reads. Column families are filled alike (`families`), so with
//! `overallfiles` false a store is the region over the families. The balancer's search is a
//! seeded greedy stand-in (`balancer`).
//!
//! The rooms: `run` (the loop: each step's events in time order), `memstore` (writes, flushes),
//! `split`, `compaction`, `master` (the balancer's and the normalizer's looks), over `sim` (the
//! regions and their store files) and `store` (a file's bytes, key profile and time bins);
//! `read` reads a run's options (`options`, typed) and the gate's budgets from JSON;
//! `settings`, `design` and `keys` read a design into settings and writes; `report`, `notes`,
//! `diagnosis`, `check` and `view` say what the months mean.

mod balancer;
mod check;
mod compaction;
mod design;
mod diagnosis;
mod keys;
mod master;
mod memstore;
mod normalizer;
mod notes;
mod options;
pub mod read;
mod report;
mod run;
mod settings;
mod sim;
mod split;
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
pub use options::{
    BalancerOptions, CompactionOptions, LifeOptions, NormalizerOptions, SplitOptions,
};
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

/// Simulate `w` on a table set up by `s`, month by month. Deterministic from `s.seed`.
pub fn simulate(s: &LifeSettings, w: &LifeWorkload) -> Result<LifeReport> {
    simulate_observed(s, w, &mut |_| Ok(()))
}

/// [`simulate`], with the simulation's events in time order (the first [`MAX_EVENTS`]): each
/// flush, split, merge, move and compaction, and each chore's look, at its time.
pub fn simulate_events(s: &LifeSettings, w: &LifeWorkload) -> Result<(LifeReport, Vec<LifeEvent>)> {
    let mut events = Vec::new();
    let report = run::run(s, w, &mut |_| Ok(()), Some(&mut events))?;
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
    run::run(s, w, on_month, None)
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

    /// The workload these writes make under `s`, and the notes that say how they were read;
    /// `index` builds each generated record's key (an expression index's table).
    pub(crate) fn workload(
        &self,
        doc: &crate::design::DesignDocument,
        s: &LifeSettings,
        index: Option<design::IndexKeys>,
    ) -> Result<(LifeWorkload, Vec<String>)> {
        match self {
            Writes::Design => {
                let w = design::workload_keyed(doc, s, index)?;
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

/// Simulate a design document's table: its servers and split policy, with `options` over
/// them, and its writes as [`workload_from_design`] finds them.
pub fn simulate_design(
    doc: &crate::design::DesignDocument,
    options: &LifeOptions,
) -> Result<LifeReport> {
    simulate_writes(doc, Writes::Design, options)
}

/// [`simulate_design`] with its writes from `writes` (the design's workload or a user's rows).
pub fn simulate_writes(
    doc: &crate::design::DesignDocument,
    writes: Writes<'_>,
    options: &LifeOptions,
) -> Result<LifeReport> {
    let (doc, options, table, keys) = design::table_for(doc, options, writes.is_rows())?;
    let s = settings_for_design(&doc, &options)?;
    let (w, notes) = writes.workload(&doc, &s, keys)?;
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
    split::should_split(s, &s.split_config(), size, regions_on_server, jitter)
}
