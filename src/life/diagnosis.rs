//! What a table's months mean and what to do about them, decided once here so every shell
//! (the CLI, `check`, the page's Months view, Python) shows the same sentences: the findings,
//! worst first, each with the month it starts, its figure, what it means, and the change that
//! fixes it, **checked by simulating that change** ([`super::simulate`] again with the changed
//! settings or writes), its figure beside the original's. A table with no finding gets a
//! headline that says its figures, so a verdict never hides what the table shows.
//!
//! The order, worst first: what piles up without end (empty regions: a time-led key under a TTL
//! leaves one more every few hours, and HBase never removes a region), then what caps the
//! write rate today (one server takes the writes), then the reference guide's limits (regions
//! per server, the memstore bound, a region over 20 GiB), then what costs I/O (expired cells
//! kept on disk, split storms).

mod findings;
mod plans;

use findings::*;
use serde::Serialize;

use super::keys::{KeyModel, LaneOrder, LifeWorkload};
use super::options::{CompactionOptions, LifeOptions, NormalizerOptions, SplitOptions};
use super::report::{LifeMonth, LifeReport, LARGE_REGION_BYTES, REGIONS_PER_SERVER_GUIDE};
use super::settings::{
    CompactionPolicy, LifeSettings, MAX_LANES, MAX_LIFE_SERVERS, MAX_PRESPLIT_REGIONS,
};
use crate::hbase::policy::SplitPolicy;
use crate::support::num_text::fixed;

/// Empty regions are a finding from a month's end where at least this share of the regions
/// (and [`MIN_EMPTY_REGIONS`]) hold no byte. A quarter: under a TTL the normalizer merging
/// 0 MB regions still leaves those emptied in the last `merge.min_region_age.days` (3 of a
/// 30-day TTL's regions: about a tenth) and the merged ones still young, which is HBase
/// working as meant, not a table to change.
pub const EMPTY_SHARE: f64 = 0.25;
/// The fewest empty regions that make a finding.
pub const MIN_EMPTY_REGIONS: u32 = 1;
/// One server is hot when it takes at least this share of an hour's writes (on 2 servers), or
/// twice its even share on more ([`hot_share`]).
pub const HOT_SERVER_SHARE: f64 = 0.9;
/// Expired cells kept on disk are a finding when they are at least this share of the bytes
/// on disk at a month's end (and at least [`MIN_EXPIRED_BYTES`]).
pub const EXPIRED_SHARE: f64 = 0.25;
/// The fewest expired bytes on disk that make a finding (1 GiB).
pub const MIN_EXPIRED_BYTES: f64 = (1u64 << 30) as f64;
/// A split storm: a day when at least a tenth of the regions (those at the month's start) and
/// at least [`MIN_STORM_SPLITS`] a server split; storms are a finding from [`MIN_STORM_DAYS`]
/// such days. (A salted time key's tails splitting together, one a server, is no storm.)
pub const STORM_SHARE: f64 = 0.1;
/// The fewest splits a server in a day that make a storm.
pub const MIN_STORM_SPLITS: u32 = 4;
/// The fewest storm days that make a finding (a table's first wave alone is not one).
pub const MIN_STORM_DAYS: usize = 3;
/// `hbase.hregion.max.filesize` as HBase ships it (10 GiB): the size a fix restores.
const DEFAULT_MAX_FILE_SIZE: i64 = 10 << 30;
/// A server's regions a fix aims at when the table outgrows 200 a server.
const REGIONS_PER_SERVER_AIM: f64 = 150.0;

/// What a finding is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum FindingKind {
    /// Regions holding no byte pile up (TTL-emptied, or never written).
    EmptyRegions,
    /// One server takes most of each hour's writes.
    HotServer,
    /// A server holds more than 200 of the table's regions.
    RegionsPerServer,
    /// A server has more regions written at once than its memstores hold at the flush size.
    MemstoreBound,
    /// A region passes 20 GiB.
    LargeRegion,
    /// Cells past the TTL stay on disk until a compaction rewrites their file.
    ExpiredOnDisk,
    /// Many days when a tenth of the regions split or major-compact at once.
    SplitStorms,
}

/// A change that fixes a finding, and what the simulation says it does.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LifeFix {
    /// The change, in HBase's names.
    pub change: String,
    /// The change as the options of a run over the run's own (what `life`'s options take),
    /// when it is a setting; `None` when it changes the key or the pre-split.
    pub options: Option<LifeOptions>,
    /// The finding's figure with the change, beside the original's, at the last month (or,
    /// for a finding that eases by then, at the month it was found):
    /// `with the normalizer merging 0 MB regions: 1 of 14 regions empty at month 12 (8 of 9
    /// without)`; or why it could not be checked.
    pub checked: String,
    /// The figure at that month without the change.
    pub before: f64,
    /// The figure at that month with it (`None`: not simulated).
    pub after: Option<f64>,
    /// The finding no longer holds at the last month with the change (for one that eased by
    /// then: in no month).
    pub clears: bool,
}

/// One thing the months show that a person should act on.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LifeFinding {
    /// What it is about.
    pub kind: FindingKind,
    /// The first month (1-based) at whose end it holds.
    pub month: u32,
    /// Its figure in words: `8 of 9 regions empty at month 3 (300 of 310 at month 12)`.
    pub figure: String,
    /// What it means, in a sentence.
    pub meaning: String,
    /// The change that fixes it, checked by simulation; `None` when there is none to offer.
    pub fix: Option<LifeFix>,
}

/// The conclusion of a simulation: a headline and the findings, worst first.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LifeDiagnosis {
    /// One sentence: the worst finding and how many more, or the healthy table's figures.
    pub headline: String,
    /// Worst first (the order of [`FindingKind`]).
    pub findings: Vec<LifeFinding>,
}

/// A change to simulate: the settings and writes with it, and its words.
struct Plan {
    /// `with …`: how the checked figure names it.
    with: String,
    /// The change in HBase's names.
    change: String,
    options: Option<LifeOptions>,
    settings: LifeSettings,
    workload: LifeWorkload,
}

/// A finding found, before its fix is simulated.
struct Found {
    kind: FindingKind,
    month: u32,
    figure: String,
    meaning: String,
    plan: Option<Plan>,
    /// Why there is no plan, when there is none.
    no_plan: Option<String>,
}

/// The diagnosis of `r`, the months of `w` on a table set up by `s`; each fix is simulated
/// (with `s`'s months), so this costs up to one simulation per distinct fix. A fix whose
/// simulation fails says so in its `checked` text; nothing here fails.
pub fn diagnose(s: &LifeSettings, w: &LifeWorkload, r: &LifeReport) -> LifeDiagnosis {
    let Some(last) = r.months.last() else {
        return LifeDiagnosis {
            headline: "no month was simulated".into(),
            findings: Vec::new(),
        };
    };
    if w.writes_per_second <= 0.0 {
        return LifeDiagnosis {
            headline: format!(
                "No writes: the table keeps its {} region(s) for {} months.",
                last.regions, last.month
            ),
            findings: Vec::new(),
        };
    }
    let found: Vec<Found> = [
        empty_regions(s, w, r),
        hot_server(s, w, r),
        regions_per_server(s, w, r),
        memstore_bound(s, w, r),
        large_region(s, w, r),
        expired_on_disk(s, w, r),
        split_storms(s, w, r),
    ]
    .into_iter()
    .flatten()
    .collect();
    // One simulation per distinct change: several findings may share a fix.
    let mut runs: Vec<(String, Result<LifeReport, String>)> = Vec::new();
    let mut findings = Vec::with_capacity(found.len());
    for f in found {
        let fix = f.plan.map(|p| {
            if !runs.iter().any(|(w, _)| *w == p.with) {
                let run = super::simulate(&p.settings, &p.workload).map_err(|e| e.to_string());
                runs.push((p.with.clone(), run));
            }
            let run = runs.iter().find(|(w, _)| *w == p.with).map(|(_, x)| x);
            checked_fix(f.kind, s, r, p, run)
        });
        let meaning = match &f.no_plan {
            Some(why) => format!("{} {why}", f.meaning),
            None => f.meaning,
        };
        findings.push(LifeFinding {
            kind: f.kind,
            month: f.month,
            figure: f.figure,
            meaning,
            fix,
        });
    }
    LifeDiagnosis {
        headline: headline(s, last, &findings),
        findings,
    }
}

/// The finding's figure with the change, against the original's (see [`LifeFix::checked`]).
fn checked_fix(
    kind: FindingKind,
    s: &LifeSettings,
    r: &LifeReport,
    p: Plan,
    run: Option<&Result<LifeReport, String>>,
) -> LifeFix {
    // Read at the last month when the finding holds there; a finding that eases by then (a
    // server hot until the table spreads) at the month it was first found, the change's run at
    // the same month, and cleared only when that run never has it.
    let at_end = holds_at_end(kind, s, r);
    let at = if at_end {
        r.months.last().map(|m| m.month)
    } else {
        first_month(kind, s, r)
    };
    let (before, before_text) = measure(kind, s, r, at);
    let (after, checked, clears) = match run {
        Some(Ok(fixed_run)) => {
            let (after, text) = measure(kind, &p.settings, fixed_run, at);
            let clears = if at_end {
                !holds_at_end(kind, &p.settings, fixed_run)
            } else {
                first_month(kind, &p.settings, fixed_run).is_none()
            };
            let verdict = if clears {
                "no longer a finding then"
            } else if after < before {
                "better, not gone"
            } else {
                "no better here"
            };
            (
                Some(after),
                format!("{}: {text} ({before_text} without; {verdict})", p.with),
                clears,
            )
        }
        Some(Err(e)) => (None, format!("{}: not checked ({e})", p.with), false),
        None => (None, format!("{}: not checked", p.with), false),
    };
    LifeFix {
        change: p.change,
        options: p.options,
        checked,
        before,
        after,
        clears,
    }
}

/// The headline: the worst finding and how many follow, or the figures of a healthy table
/// (never a bare "nothing crossed").
fn headline(s: &LifeSettings, last: &LifeMonth, findings: &[LifeFinding]) -> String {
    match findings.split_first() {
        Some((worst, rest)) => {
            let more = match rest.len() {
                0 => String::new(),
                1 => "; 1 more finding".into(),
                n => format!("; {n} more findings"),
            };
            let fix = worst
                .fix
                .as_ref()
                .map_or(String::new(), |f| format!(". Fix: {}", f.change));
            format!("{}{more}{fix}.", capitalised(&worst.figure))
        }
        None => {
            let fullest = last.servers.iter().map(|x| x.regions).max().unwrap_or(0);
            // the servers' figures only where there are servers to compare (on one, every
            // region and every write is that server's)
            let hot = if s.servers > 1 {
                format!(
                    ", the hottest server takes {} % of an hour's writes (even: {} %), at most {fullest} on one server",
                    pct(last.hottest_server_write_share),
                    pct(1.0 / f64::from(s.servers))
                )
            } else {
                String::new()
            };
            format!(
                "Nothing to fix over {} months: at month {}, {} regions ({} empty){hot}, the largest region reaching {}.",
                last.month,
                last.month,
                last.regions,
                last.empty_regions,
                // in the unit its size reads in, as the summary beside it (9.66 MiB, not 0.0 GiB)
                crate::support::num_text::bytes_text(last.largest_region_bytes as u64)
            )
        }
    }
}

const GIB: f64 = (1u64 << 30) as f64;

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn pct(x: f64) -> String {
    fixed(x * 100.0, 0)
}

/// The share of an hour's writes that makes a server hot on `servers`: twice the even share,
/// but never above [`HOT_SERVER_SHARE`] (on 2 servers twice the even share is every write).
pub fn hot_share(servers: u32) -> f64 {
    (2.0 / f64::from(servers.max(1))).min(HOT_SERVER_SHARE)
}

fn fullest(m: &LifeMonth) -> u32 {
    m.servers.iter().map(|x| x.regions).max().unwrap_or(0)
}

fn empty_holds(m: &LifeMonth) -> bool {
    m.empty_regions >= MIN_EMPTY_REGIONS
        && f64::from(m.empty_regions) >= EMPTY_SHARE * f64::from(m.regions)
}

fn expired_on_disk_bytes(m: &LifeMonth) -> f64 {
    (m.on_disk_bytes - m.live_bytes).max(0.0)
}

fn expired_holds(m: &LifeMonth) -> bool {
    let e = expired_on_disk_bytes(m);
    e >= MIN_EXPIRED_BYTES && e >= EXPIRED_SHARE * m.on_disk_bytes
}

/// The storm days: (month, splits that day), in order. A month's threshold counts the regions
/// at its start (the previous month's end; the first month's at its end, the pre-split's
/// count unknown here, which only makes a storm harder to reach).
fn storm_days(s: &LifeSettings, r: &LifeReport) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut before = r.months.first().map_or(0, |m| m.regions);
    for m in &r.months {
        let floor = (STORM_SHARE * f64::from(before)).ceil() as u32;
        let need = floor.max(MIN_STORM_SPLITS.saturating_mul(s.servers));
        out.extend(
            m.splits_by_day
                .iter()
                .filter(|&&x| x >= need)
                .map(|&x| (m.month, x)),
        );
        before = m.regions;
    }
    out
}

/// The first month at whose end the finding holds; `None`: it never does.
fn first_month(kind: FindingKind, s: &LifeSettings, r: &LifeReport) -> Option<u32> {
    let first = |f: &dyn Fn(&LifeMonth) -> bool| r.months.iter().find(|m| f(m)).map(|m| m.month);
    match kind {
        FindingKind::EmptyRegions => first(&empty_holds),
        FindingKind::HotServer => {
            let hot = hot_share(s.servers);
            if s.servers < 2 {
                return None;
            }
            first(&|m| m.hottest_server_write_share >= hot)
        }
        FindingKind::RegionsPerServer => first(&|m| fullest(m) > REGIONS_PER_SERVER_GUIDE),
        FindingKind::MemstoreBound => {
            first(&|m| f64::from(m.max_regions_written_at_once) > s.memstore_bound())
        }
        FindingKind::LargeRegion => first(&|m| m.largest_region_bytes > LARGE_REGION_BYTES),
        FindingKind::ExpiredOnDisk => first(&expired_holds),
        FindingKind::SplitStorms => {
            let days = storm_days(s, r);
            if days.len() < MIN_STORM_DAYS {
                return None;
            }
            days.first().map(|d| d.0)
        }
    }
}

/// The finding holds at the last month's end (split storms: over the months).
fn holds_at_end(kind: FindingKind, s: &LifeSettings, r: &LifeReport) -> bool {
    let Some(last) = r.months.last() else {
        return false;
    };
    match kind {
        FindingKind::SplitStorms => first_month(kind, s, r).is_some(),
        _ => first_month(
            kind,
            s,
            &LifeReport {
                months: vec![last.clone()],
                ..empty_report()
            },
        )
        .is_some(),
    }
}

fn empty_report() -> LifeReport {
    LifeReport {
        policy: String::new(),
        overall_hregion_files: false,
        memstore_bound: 0.0,
        months: Vec::new(),
        crossings: Default::default(),
        regions_at_end: Vec::new(),
        ran_with: String::new(),
        notes: Vec::new(),
        changed_settings: Vec::new(),
        diagnosis: None,
        table: None,
    }
}

/// The finding's figure at month `at` (the last when `None` or past the run), as a number
/// and in words.
fn measure(kind: FindingKind, s: &LifeSettings, r: &LifeReport, at: Option<u32>) -> (f64, String) {
    let Some(m) = at
        .and_then(|a| r.months.iter().find(|m| m.month == a))
        .or(r.months.last())
    else {
        return (0.0, "no month".into());
    };
    let at = m.month;
    match kind {
        FindingKind::EmptyRegions => (
            f64::from(m.empty_regions),
            format!(
                "{} of {} regions empty at month {at}",
                m.empty_regions, m.regions
            ),
        ),
        FindingKind::HotServer => (
            m.hottest_server_write_share,
            format!(
                "the hottest server takes {} % of an hour's writes at month {at}",
                pct(m.hottest_server_write_share)
            ),
        ),
        FindingKind::RegionsPerServer => (
            f64::from(fullest(m)),
            format!("at most {} regions on one server at month {at}", fullest(m)),
        ),
        FindingKind::MemstoreBound => (
            f64::from(m.max_regions_written_at_once),
            format!(
                "at most {} regions written at once on one server in month {at} (bound {})",
                m.max_regions_written_at_once,
                fixed(s.memstore_bound(), 0)
            ),
        ),
        FindingKind::LargeRegion => (
            m.largest_region_bytes / GIB,
            format!(
                "a region reached {} GiB in month {at}",
                fixed(m.largest_region_bytes / GIB, 1)
            ),
        ),
        FindingKind::ExpiredOnDisk => (
            expired_on_disk_bytes(m) / GIB,
            format!(
                "{} GiB of expired cells on disk at month {at}",
                fixed(expired_on_disk_bytes(m) / GIB, 1)
            ),
        ),
        FindingKind::SplitStorms => {
            let days = storm_days(s, r);
            (
                days.len() as f64,
                format!("{} split storm days over {at} months", days.len()),
            )
        }
    }
}
