//! What the page's Months view draws, computed here so the page only draws: the report with
//! the settings it ran with and a key-range × month map of the regions (each month's
//! boundaries and sizes over the key space, at a fixed resolution, so its size follows
//! months, not regions); and two settings of one design side by side, with the figures that
//! differ and the words that say so. Progress is reported at each month's end.

use serde::Serialize;

use super::keys::{LaneOrder, LifeWorkload};
use super::report::{LifeMonth, LifeReport};
use super::settings::LifeSettings;
use super::{settings_for_design, simulate_observed, LifeOptions, MonthEnd, Writes};
use crate::design::DesignDocument;
use crate::error::Result;

/// Rows of the key-range map: the key space cut into this many equal stretches.
pub const MAP_ROWS: u32 = 256;

/// The regions month by month over the key space: row `r` is the stretch of coordinates
/// `[r, r + 1) × lanes / rows`, column `c` the end of month `c + 1`; each array row-major
/// (`r * cols + c`).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyMonthMap {
    /// Key-space stretches (rows).
    pub rows: u32,
    /// Months (columns).
    pub cols: u32,
    /// The key space's lanes: coordinates run from 0 to this (lane `i` is `[i, i + 1)`).
    pub lanes: u32,
    /// The lanes are the key's prefix values (salt buckets, tenants).
    pub prefix_lanes: bool,
    /// Where writes go inside a lane (`ascending`: a key that moves up with time, so lower
    /// coordinates are older rows).
    pub order: LaneOrder,
    /// Store-file bytes of the region holding the stretch's middle.
    pub bytes: Vec<f64>,
    /// Region boundaries (start keys) inside the stretch.
    pub boundaries: Vec<u32>,
    /// That region's server.
    pub server: Vec<u32>,
    /// That region's start coordinate.
    pub region_start: Vec<f64>,
    /// That region's end coordinate.
    pub region_end: Vec<f64>,
}

impl KeyMonthMap {
    fn new(months: u32) -> KeyMonthMap {
        let n = (MAP_ROWS * months) as usize;
        KeyMonthMap {
            rows: MAP_ROWS,
            cols: months,
            bytes: vec![0.0; n],
            boundaries: vec![0; n],
            server: vec![0; n],
            region_start: vec![0.0; n],
            region_end: vec![0.0; n],
            ..KeyMonthMap::default()
        }
    }

    /// Column `e.month.month - 1` from the regions at that month's end.
    fn add(&mut self, e: &MonthEnd<'_>) {
        let Some(col) = (e.month.month as usize).checked_sub(1) else {
            return;
        };
        let cols = self.cols as usize;
        if col >= cols {
            return;
        }
        self.lanes = e.lanes as u32;
        let width = e.lanes as f64 / f64::from(self.rows);
        let mut at = 0usize;
        for row in 0..self.rows as usize {
            let (lo, hi) = (row as f64 * width, (row + 1) as f64 * width);
            let mid = (lo + hi) / 2.0;
            while e.regions.get(at + 1).is_some_and(|r| r.start <= mid) {
                at += 1;
            }
            let i = row * cols + col;
            if let Some(r) = e.regions.get(at) {
                set(&mut self.bytes, i, r.disk());
                set(&mut self.server, i, r.server);
                set(&mut self.region_start, i, r.start);
                set(&mut self.region_end, i, r.end);
            }
        }
        for r in e.regions.iter().filter(|r| r.start > 0.0) {
            let row = ((r.start / width) as usize).min(self.rows as usize - 1);
            if let Some(b) = self.boundaries.get_mut(row * cols + col) {
                *b += 1;
            }
        }
    }
}

fn set<T>(v: &mut [T], i: usize, x: T) {
    if let Some(slot) = v.get_mut(i) {
        *slot = x;
    }
}

/// One simulation as the Months view draws it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LifeView {
    /// The report, as `lifeDesign` gives it.
    pub report: LifeReport,
    /// The settings it ran with (the design's, the HBase defaults and the options).
    pub settings: LifeSettings,
    /// The regions over the key space, month by month.
    pub map: KeyMonthMap,
}

/// A design's table month by month with its map; `progress(done, total)` is called at each
/// month's end with the months simulated (its error stops the simulation).
pub fn months_of_design(
    doc: &DesignDocument,
    options: &LifeOptions,
    progress: &mut dyn FnMut(u32, u32) -> Result<()>,
) -> Result<LifeView> {
    months_of_writes(doc, Writes::Design, options, progress)
}

/// [`months_of_design`] with its writes from `writes` (the design's workload or a user's rows).
pub fn months_of_writes(
    doc: &DesignDocument,
    writes: Writes<'_>,
    options: &LifeOptions,
    progress: &mut dyn FnMut(u32, u32) -> Result<()>,
) -> Result<LifeView> {
    view_of(doc, writes, options, 0, 0, progress)
}

/// `w` on a table set up by `s` (as [`super::simulate`]), with its map; `progress` as for
/// [`months_of_design`].
pub fn months_of(
    s: &LifeSettings,
    w: &LifeWorkload,
    progress: &mut dyn FnMut(u32, u32) -> Result<()>,
) -> Result<LifeView> {
    observed(s, w, 0, s.months, progress)
}

/// [`months_of`] with `before` months already done of `total`.
fn observed(
    s: &LifeSettings,
    w: &LifeWorkload,
    before: u32,
    total: u32,
    progress: &mut dyn FnMut(u32, u32) -> Result<()>,
) -> Result<LifeView> {
    let mut map = KeyMonthMap::new(s.months);
    map.prefix_lanes = w.keys.prefix_lanes;
    map.order = w.keys.order;
    let report = simulate_observed(s, w, &mut |e| {
        map.add(e);
        progress(before + e.month.month, total)
    })?;
    Ok(LifeView {
        report,
        settings: s.clone(),
        map,
    })
}

/// [`months_of_design`] with `before` months already done of `total` (0: this one's months).
fn view_of(
    doc: &DesignDocument,
    writes: Writes<'_>,
    options: &LifeOptions,
    before: u32,
    total: u32,
    progress: &mut dyn FnMut(u32, u32) -> Result<()>,
) -> Result<LifeView> {
    let (doc, options, table, keys) = super::design::table_for(doc, options, writes.is_rows())?;
    let s = settings_for_design(&doc, &options)?;
    let (w, mut notes) = writes.workload(&doc, &s, keys)?;
    let (table, note) = table.unzip();
    notes.splice(0..0, note);
    let total = if total == 0 { s.months } else { total };
    let mut v = observed(&s, &w, before, total, progress)?;
    v.report.notes.extend(notes);
    v.report.table = table;
    v.report.diagnosis = Some(super::diagnose(&s, &w, &v.report));
    Ok(v)
}

/// One figure of two simulations, and which is better (lower is better for each).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ComparedFigure {
    /// What it is, in words.
    pub figure: String,
    /// A's value.
    pub a: f64,
    /// B's value.
    pub b: f64,
    /// `"a"`, `"b"`, or `None` when they are within 5 % of each other.
    pub better: Option<String>,
}

/// Two settings of one design side by side.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LifeComparison {
    /// The first setting's simulation.
    pub a: LifeView,
    /// The second's.
    pub b: LifeView,
    /// The figures compared.
    pub figures: Vec<ComparedFigure>,
    /// The verdict in words: a summary line, then one line per figure that differs.
    pub verdict: Vec<String>,
}

/// The design under `a` and under `b` (each over the design's settings), compared; `progress` counts the months of both.
pub fn compare_design(
    doc: &DesignDocument,
    a: &LifeOptions,
    b: &LifeOptions,
    progress: &mut dyn FnMut(u32, u32) -> Result<()>,
) -> Result<LifeComparison> {
    compare_writes(doc, Writes::Design, a, b, progress)
}

/// [`compare_design`] with its writes from `writes` (the design's workload or a user's rows).
pub fn compare_writes(
    doc: &DesignDocument,
    writes: Writes<'_>,
    a: &LifeOptions,
    b: &LifeOptions,
    progress: &mut dyn FnMut(u32, u32) -> Result<()>,
) -> Result<LifeComparison> {
    // Each setting's errors name it: `options/months`, `otherOptions/months`.
    let named = super::read::in_argument;
    let months = |o: &LifeOptions| -> Result<u32> {
        let (doc, o, _, _) = super::design::table_for(doc, o, writes.is_rows())?;
        Ok(settings_for_design(&doc, &o)?.months)
    };
    let ma = months(a).map_err(named("options"))?;
    let mb = months(b).map_err(named("otherOptions"))?;
    let total = ma + mb;
    let va = view_of(doc, writes, a, 0, total, progress)?;
    let vb = view_of(doc, writes, b, ma, total, progress)?;
    let figures = figures(&va.report, &vb.report);
    let verdict = verdict(&figures);
    Ok(LifeComparison {
        a: va,
        b: vb,
        figures,
        verdict,
    })
}

/// The figures a person weighs two settings by, each lower-is-better.
fn figures(a: &LifeReport, b: &LifeReport) -> Vec<ComparedFigure> {
    type Of = fn(&LifeReport) -> f64;
    let rows: [(&str, Of); 9] = [
        ("regions at the end", |r| last(r, |m| f64::from(m.regions))),
        ("empty regions at the end", |r| {
            last(r, |m| f64::from(m.empty_regions))
        }),
        ("most regions on one server at the end", |r| {
            last(r, |m| {
                f64::from(m.servers.iter().map(|s| s.regions).max().unwrap_or(0))
            })
        }),
        (
            "the hottest server's share of the last month's writes",
            |r| last(r, |m| m.hottest_server_write_share),
        ),
        ("GiB on disk at the end", |r| {
            last(r, |m| m.on_disk_bytes / GIB)
        }),
        ("the largest region (its peak in the month), GiB", |r| {
            last(r, |m| m.largest_region_bytes / GIB)
        }),
        ("splits", |r| sum(r, |m| f64::from(m.splits))),
        ("GiB written by compactions", |r| {
            sum(r, |m| m.compaction_bytes / GIB)
        }),
        ("busy days (a tenth of the regions split or compact)", |r| {
            sum(r, |m| f64::from(m.busy_days))
        }),
    ];
    rows.iter()
        .map(|(name, of)| {
            let (x, y) = (of(a), of(b));
            let better = if (x - y).abs() <= 0.05 * x.abs().max(y.abs()) {
                None
            } else if x < y {
                Some("a".to_string())
            } else {
                Some("b".to_string())
            };
            ComparedFigure {
                figure: (*name).to_string(),
                a: x,
                b: y,
                better,
            }
        })
        .collect()
}

const GIB: f64 = (1u64 << 30) as f64;

/// A figure of the last month.
fn last(r: &LifeReport, f: fn(&LifeMonth) -> f64) -> f64 {
    r.months.last().map_or(0.0, f)
}

/// A figure summed over the months.
fn sum(r: &LifeReport, f: fn(&LifeMonth) -> f64) -> f64 {
    r.months.iter().map(f).sum()
}

/// A summary line (which setting is lower on more figures), then each figure that differs.
fn verdict(figures: &[ComparedFigure]) -> Vec<String> {
    let count = |w: &str| {
        figures
            .iter()
            .filter(|f| f.better.as_deref() == Some(w))
            .count()
    };
    let (a, b) = (count("a"), count("b"));
    let summary = match (a, b) {
        (0, 0) => "A and B end alike: no figure differs by more than 5 %.".to_string(),
        (a, 0) => format!("A is lower on {a} figure(s) and higher on none."),
        (0, b) => format!("B is lower on {b} figure(s) and higher on none."),
        (a, b) if a > b => format!("A is lower on {a} figures, B on {b}."),
        (a, b) if b > a => format!("B is lower on {b} figures, A on {a}."),
        (a, _) => format!("A is lower on {a} figures, B on as many."),
    };
    let mut out = vec![summary];
    for f in figures {
        if let Some(w) = &f.better {
            let (lo, hi, other) = if w == "a" {
                (f.a, f.b, "B")
            } else {
                (f.b, f.a, "A")
            };
            out.push(format!(
                "{}: {} {} against {other}'s {}",
                f.figure,
                w.to_uppercase(),
                figure_text(lo),
                figure_text(hi)
            ));
        }
    }
    out
}

/// A figure in words: whole numbers as they are, others to two significant places.
fn figure_text(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.0}")
    } else if x.abs() >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}
