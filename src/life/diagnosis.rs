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

use serde::Serialize;
use serde_json::{json, Value};

use super::keys::{KeyModel, LaneOrder, LifeWorkload};
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
    /// The change as `LifeSettings` members over the run's (what `life`'s options take), when
    /// it is a setting; `None` when it changes the key or the pre-split.
    pub options: Option<Value>,
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
    options: Option<Value>,
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

fn ordered(w: &LifeWorkload) -> bool {
    w.keys.order != LaneOrder::Spread
}

/// The normalizer merging 0 MB regions, when it does not already.
fn merge_plan(s: &LifeSettings, w: &LifeWorkload) -> Option<Plan> {
    let n = &s.normalizer;
    if n.enabled && n.merge_enabled && n.merge_min_region_size_mb == 0 && !n.split_enabled {
        return None;
    }
    // Merges only: with split plans on (HBase's default) the normalizer also cuts the written
    // tail of a time-led table into ever smaller regions, below the average the empty ones
    // pull down.
    let mut settings = s.clone();
    settings.normalizer.enabled = true;
    settings.normalizer.merge_enabled = true;
    settings.normalizer.split_enabled = false;
    settings.normalizer.merge_min_region_size_mb = 0;
    Some(Plan {
        with: "with the normalizer merging 0 MB regions".into(),
        change: "turn the table's normalizer on (NORMALIZATION_ENABLED => true) to merge only: \
                 hbase.normalizer.merge.min_region_size.mb = 0 (so the regions the TTL emptied \
                 merge) and hbase.normalizer.split.enabled = false"
            .into(),
        options: Some(
            json!({"normalizer": {"enabled": true, "mergeEnabled": true, "splitEnabled": false, "mergeMinRegionSizeMb": 0}}),
        ),
        settings,
        workload: w.clone(),
    })
}

/// A salt of `buckets` in front of the key: each lane's writes shared by the buckets, the
/// lanes in each bucket as they were, one region per bucket at creation.
fn salt_plan(s: &LifeSettings, w: &LifeWorkload, buckets: usize) -> Result<Plan, String> {
    let lanes = w.keys.lanes();
    let total = buckets.saturating_mul(lanes);
    if buckets < 2 || total > MAX_LANES || buckets >= MAX_PRESPLIT_REGIONS {
        return Err(format!(
            "a salt of {buckets} buckets over {lanes} lanes is past what the simulator models"
        ));
    }
    let weights: Vec<f64> = (0..buckets)
        .flat_map(|_| w.keys.weights.iter().map(|x| x / buckets as f64))
        .collect();
    let presplit = (1..buckets).map(|b| (b * lanes) as f64).collect();
    let hash = if ordered(w) { "salt" } else { "salt or hash" };
    Ok(Plan {
        with: format!("with a {buckets}-bucket {hash} in front, pre-split one region per bucket"),
        change: format!(
            "put a {hash} of {buckets} buckets (one per server) in front of the key, e.g. \
             salt(…, {buckets}), and pre-split the table one region per bucket"
        ),
        options: None,
        settings: s.clone(),
        workload: LifeWorkload {
            keys: KeyModel {
                weights,
                order: w.keys.order,
                prefix_lanes: true,
            },
            presplit,
            ..w.clone()
        },
    })
}

/// The table pre-split into `regions` at equal shares of its writes (the key's quantiles).
fn presplit_plan(s: &LifeSettings, w: &LifeWorkload, regions: usize) -> Option<Plan> {
    let regions = regions.clamp(2, MAX_PRESPLIT_REGIONS - 1);
    let total: f64 = w.keys.weights.iter().sum();
    if total <= 0.0 {
        return None;
    }
    let mut cuts = Vec::with_capacity(regions);
    let (mut acc, mut k) = (0.0, 1usize);
    for (i, x) in w.keys.weights.iter().enumerate() {
        let share = x / total;
        while k < regions && share > 0.0 && acc + share >= k as f64 / regions as f64 {
            let at = i as f64 + (k as f64 / regions as f64 - acc) / share;
            let last: f64 = cuts.last().copied().unwrap_or(0.0);
            if at > last && at < w.keys.lanes() as f64 {
                cuts.push(at);
            }
            k += 1;
        }
        acc += share;
    }
    if cuts.is_empty() {
        return None;
    }
    let n = cuts.len() + 1;
    Some(Plan {
        with: format!("pre-split into {n} regions at the key's quantiles"),
        change: format!(
            "pre-split the table into {n} regions at quantiles of its keys (split points where \
             the keys fall: `rowkey-lab split-points`)"
        ),
        options: None,
        settings: s.clone(),
        workload: LifeWorkload {
            presplit: cuts,
            ..w.clone()
        },
    })
}

/// More servers: enough for the table's last regions at 150 a server.
fn servers_plan(s: &LifeSettings, w: &LifeWorkload, servers: u32) -> Option<Plan> {
    let servers = servers.min(MAX_LIFE_SERVERS);
    if servers <= s.servers {
        return None;
    }
    let mut settings = s.clone();
    settings.servers = servers;
    Some(Plan {
        with: format!("on {servers} servers"),
        change: format!(
            "run the table on {servers} region servers instead of {}",
            s.servers
        ),
        options: Some(json!({ "servers": servers })),
        settings,
        workload: w.clone(),
    })
}

/// Regions up to HBase's shipped 10 GiB under Stepping, when the table's are smaller or its
/// policy does not split by size.
fn split_size_plan(s: &LifeSettings, w: &LifeWorkload) -> Option<Plan> {
    let small = s.split.desired_max_file_size() < DEFAULT_MAX_FILE_SIZE;
    let policy = !matches!(
        s.policy,
        SplitPolicy::Stepping | SplitPolicy::IncreasingToUpperBound
    );
    if !small && !policy {
        return None;
    }
    let mut settings = s.clone();
    settings.split.max_file_size = DEFAULT_MAX_FILE_SIZE;
    settings.split.table_max_file_size = None;
    settings.policy = SplitPolicy::Stepping;
    Some(Plan {
        with: "with 10 GiB regions under SteppingSplitPolicy".into(),
        change: "split at HBase's shipped size: hbase.hregion.max.filesize = 10 GiB (no table \
                 MAX_FILESIZE), SteppingSplitPolicy"
            .into(),
        options: Some(
            json!({"policy": {"type": "stepping"}, "split": {"maxFileSize": DEFAULT_MAX_FILE_SIZE}}),
        ),
        settings,
        workload: w.clone(),
    })
}

fn days(ttl: u64) -> String {
    fixed(ttl as f64 / 86_400.0, if ttl % 86_400 == 0 { 0 } else { 1 })
}

fn empty_regions(s: &LifeSettings, w: &LifeWorkload, r: &LifeReport) -> Option<Found> {
    let month = first_month(FindingKind::EmptyRegions, s, r)?;
    let start = r.months.iter().find(|m| m.month == month)?;
    let last = r.months.last()?;
    let mut figure = format!(
        "{} of {} regions empty at month {month}",
        start.empty_regions, start.regions
    );
    if last.month != month {
        figure.push_str(&format!(
            " ({} of {} at month {})",
            last.empty_regions, last.regions, last.month
        ));
    }
    let n = &s.normalizer;
    let (meaning, plan, no_plan) = if let Some(ttl) =
        s.ttl_seconds.filter(|_| last.expired_bytes > 0.0)
    {
        let cause = if ordered(w) {
            format!(
                "the {}-day TTL empties the regions a key that moves with time has stopped writing, and HBase never removes a region",
                days(ttl)
            )
        } else {
            format!(
                "the {}-day TTL empties regions no write refills, and HBase never removes a region",
                days(ttl)
            )
        };
        let gate = if !n.enabled {
            "; with the normalizer off (NORMALIZATION_ENABLED is false by default) they never merge"
                .to_string()
        } else if !n.merge_enabled {
            "; the normalizer's merges are off (hbase.normalizer.merge.enabled), so they never merge".to_string()
        } else if n.merge_min_region_size_mb > 0 {
            format!(
                "; the normalizer is on, but hbase.normalizer.merge.min_region_size.mb = {} (as hbase-default.xml ships it) keeps 0 MB regions out of every merge",
                n.merge_min_region_size_mb
            )
        } else {
            "; the normalizer merges them once 3 days old, so those left are young or in runs too short to merge".to_string()
        };
        let plan = merge_plan(s, w);
        let no_plan = plan.is_none().then(|| {
            "The normalizer already merges 0 MB regions: no setting here does more.".to_string()
        });
        (
            format!("{cause}{gate}: each is a region the master tracks, a server opens and the balancer moves."),
            plan,
            no_plan,
        )
    } else if ordered(w) {
        let plan = salt_plan(s, w, s.servers.max(2) as usize);
        let meaning = "the key moves with time, so regions pre-split ahead of or behind the \
                       writes never take one: they hold no byte and cost a region each."
            .to_string();
        match plan {
            Ok(p) => (meaning, Some(p), None),
            Err(e) => (meaning, None, Some(e)),
        }
    } else {
        let regions = usize::try_from(last.regions).unwrap_or(2);
        (
            "their key ranges hold no keys of this design (split points made for another key, or for text the key never writes), so they never take a write and cost a region each.".to_string(),
            presplit_plan(s, w, regions.saturating_sub(last.empty_regions as usize).max(2)),
            None,
        )
    };
    Some(Found {
        kind: FindingKind::EmptyRegions,
        month,
        figure,
        meaning,
        plan,
        no_plan,
    })
}

fn hot_server(s: &LifeSettings, w: &LifeWorkload, r: &LifeReport) -> Option<Found> {
    let month = first_month(FindingKind::HotServer, s, r)?;
    let start = r.months.iter().find(|m| m.month == month)?;
    let lanes = w.keys.lanes();
    let one = start.hottest_server_write_share >= 0.995;
    let figure = if one {
        format!(
            "one server takes every write from month {month}, of {} servers",
            s.servers
        )
    } else {
        format!(
            "one server takes {} % of each hour's writes from month {month} (even on {} servers: {} %)",
            pct(start.hottest_server_write_share),
            s.servers,
            pct(1.0 / f64::from(s.servers))
        )
    };
    let meaning = if ordered(w) && lanes < s.servers as usize {
        let lead = if lanes == 1 {
            "the key leads with time, so each hour's writes fall at the key space's end: one region, on one server".to_string()
        } else {
            format!(
                "each of the key's {lanes} prefixes is written in time order, so each hour's writes fall in {lanes} regions, on {lanes} servers at most"
            )
        };
        format!(
            "{lead}; the table writes at that server's speed, and the balancer evens region counts, not writes (a region's daughters stay on its server)."
        )
    } else {
        let top = w.keys.weights.iter().copied().fold(0.0, f64::max)
            / w.keys.weights.iter().sum::<f64>().max(f64::MIN_POSITIVE);
        format!(
            "a few key ranges take most writes (the busiest of {lanes} takes {} %), and the balancer evens region counts, not writes: the table writes at that server's speed.",
            pct(top)
        )
    };
    let (plan, no_plan) = match salt_plan(s, w, s.servers as usize) {
        Ok(p) => (Some(p), None),
        Err(e) => (None, Some(e)),
    };
    Some(Found {
        kind: FindingKind::HotServer,
        month,
        figure,
        meaning,
        plan,
        no_plan,
    })
}

fn regions_per_server(s: &LifeSettings, w: &LifeWorkload, r: &LifeReport) -> Option<Found> {
    let month = first_month(FindingKind::RegionsPerServer, s, r)?;
    let start = r.months.iter().find(|m| m.month == month)?;
    let last = r.months.last()?;
    let figure = format!(
        "a server passes 200 regions in month {month} ({} at most at month {})",
        fullest(last),
        last.month
    );
    let mostly_empty = 2 * last.empty_regions > last.regions;
    let (meaning, plan) = if mostly_empty && s.ttl_seconds.is_some() {
        (
            "most of them are empty (the finding above): each holds a memstore slot, a place in hbase:meta and the master's memory, and slows a server's restart.".to_string(),
            merge_plan(s, w),
        )
    } else {
        let plan = split_size_plan(s, w).or_else(|| {
            let want = (f64::from(last.regions) / REGIONS_PER_SERVER_AIM).ceil() as u32;
            servers_plan(s, w, want)
        });
        (
            format!(
                "the reference guide keeps a server to 20–200 regions: each holds memstores sharing the heap, a place in hbase:meta, and its share of a restart ({} regions in month {month}).",
                start.regions
            ),
            plan,
        )
    };
    let no_plan = plan
        .is_none()
        .then(|| "No setting the simulator models does better.".to_string());
    Some(Found {
        kind: FindingKind::RegionsPerServer,
        month,
        figure,
        meaning,
        plan,
        no_plan,
    })
}

fn memstore_bound(s: &LifeSettings, w: &LifeWorkload, r: &LifeReport) -> Option<Found> {
    let month = first_month(FindingKind::MemstoreBound, s, r)?;
    let start = r.months.iter().find(|m| m.month == month)?;
    let bound = s.memstore_bound();
    let figure = format!(
        "{} regions written at once on one server in month {month}, past the memstore bound of {}",
        start.max_regions_written_at_once,
        fixed(bound, 0)
    );
    let meaning = "more regions take writes on a server than its memstores hold at the flush size (heap × hbase.regionserver.global.memstore.size / flush size): HBase flushes them early into small files, which costs compactions, or blocks writes.".to_string();
    let most = r
        .months
        .iter()
        .map(|m| m.max_regions_written_at_once)
        .max()
        .unwrap_or(0);
    // Aim at 80 % of the bound: the balancer evens region counts within its 20 % slop.
    let want = (f64::from(s.servers) * f64::from(most) / (0.8 * bound).max(1.0)).ceil() as u32;
    let plan = servers_plan(s, w, want.max(s.servers + 1)).or_else(|| split_size_plan(s, w));
    let no_plan = plan
        .is_none()
        .then(|| "No setting the simulator models does better.".to_string());
    Some(Found {
        kind: FindingKind::MemstoreBound,
        month,
        figure,
        meaning,
        plan,
        no_plan,
    })
}

fn large_region(s: &LifeSettings, w: &LifeWorkload, r: &LifeReport) -> Option<Found> {
    let month = first_month(FindingKind::LargeRegion, s, r)?;
    let start = r.months.iter().find(|m| m.month == month)?;
    let figure = format!(
        "a region passes 20 GiB in month {month} ({} GiB)",
        fixed(start.largest_region_bytes / GIB, 1)
    );
    let limited = r.crossings.split_limit.is_some_and(|m| m <= month);
    let meaning = if limited {
        "its server reached hbase.regionserver.regionSplitLimit, so its regions stop splitting: a region that large compacts for hours and moves slowly.".to_string()
    } else {
        format!(
            "the table splits later than the reference guide's 20 GiB ({} at {} GiB): a region that large compacts for hours and moves slowly.",
            s.policy.class_name(),
            fixed(s.split.desired_max_file_size() as f64 / GIB, 1)
        )
    };
    let mostly_empty = r
        .months
        .last()
        .is_some_and(|m| 2 * m.empty_regions > m.regions && s.ttl_seconds.is_some());
    let plan = if limited && mostly_empty {
        merge_plan(s, w)
    } else if limited {
        let want = (f64::from(r.months.last()?.regions) / REGIONS_PER_SERVER_AIM).ceil() as u32;
        servers_plan(s, w, want)
    } else {
        split_size_plan(s, w)
    };
    let no_plan = plan
        .is_none()
        .then(|| "No setting the simulator models does better.".to_string());
    Some(Found {
        kind: FindingKind::LargeRegion,
        month,
        figure,
        meaning,
        plan,
        no_plan,
    })
}

fn expired_on_disk(s: &LifeSettings, w: &LifeWorkload, r: &LifeReport) -> Option<Found> {
    let ttl = s.ttl_seconds?;
    if s.compaction.policy == CompactionPolicy::Fifo {
        return None;
    }
    let month = first_month(FindingKind::ExpiredOnDisk, s, r)?;
    let start = r.months.iter().find(|m| m.month == month)?;
    let figure = format!(
        "{} GiB of expired cells on disk at month {month} ({} % of the disk)",
        fixed(expired_on_disk_bytes(start) / GIB, 1),
        pct(expired_on_disk_bytes(start) / start.on_disk_bytes.max(1.0))
    );
    let meaning = format!(
        "ExploringCompactionPolicy drops cells past the {}-day TTL only when it rewrites their file: a region no longer written keeps them until a major compaction, 3.5 to 10.5 days later, and each such major rewrites the region.",
        days(ttl)
    );
    let mut settings = s.clone();
    settings.compaction.policy = CompactionPolicy::Fifo;
    let plan = Plan {
        with: "with FIFO compaction".into(),
        change: "use FIFOCompactionPolicy (hbase.hstore.defaultengine.compactionpolicy.class) \
                 with the TTL: it deletes a file whose cells have all expired and never \
                 rewrites one (for rows written once, never updated)"
            .into(),
        options: Some(json!({"compaction": {"policy": "fifo"}})),
        settings,
        workload: w.clone(),
    };
    Some(Found {
        kind: FindingKind::ExpiredOnDisk,
        month,
        figure,
        meaning,
        plan: Some(plan),
        no_plan: None,
    })
}

fn split_storms(s: &LifeSettings, w: &LifeWorkload, r: &LifeReport) -> Option<Found> {
    let month = first_month(FindingKind::SplitStorms, s, r)?;
    let last = r.months.last()?;
    let days = storm_days(s, r);
    let most = days.iter().map(|d| d.1).max().unwrap_or(0);
    let figure = format!(
        "split storms: on {} days a tenth of the regions or more (at least {} a server) split at once (the most: {most} in a day), from month {month}",
        days.len(),
        MIN_STORM_SPLITS
    );
    let meaning = "regions that grow alike split alike: each wave rewrites the daughters' references at once, so the I/O and the regions' moments offline come together.".to_string();
    let plan = if ordered(w) {
        None
    } else {
        presplit_plan(s, w, usize::try_from(last.regions).unwrap_or(2))
    };
    let no_plan = plan.is_none().then(|| {
        "A pre-split cannot spread a key that moves with time; the splits follow its writes."
            .to_string()
    });
    Some(Found {
        kind: FindingKind::SplitStorms,
        month,
        figure,
        meaning,
        plan,
        no_plan,
    })
}
