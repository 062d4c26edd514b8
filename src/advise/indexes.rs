//! The advisor's index findings: for each global Phoenix index of the input whose own table
//! concentrates its writes ([`super::IndexCost::concentrates_writes`]: the analysis's hotspot
//! verdict on the index's report, the rule the diagnosis applies to the data table), a finding
//! with its figure and the changes that fix it ([`IndexFinding`]), each checked by analyzing
//! the changed index over what the candidates were evaluated on ([`Over`]: the advisor's
//! workload, or the sample of the user's rows, the same rows for every fix) and ranked by that
//! result.
//!
//! The fixes tried, each only when it changes the index:
//! - **salt it**: `SALT_BUCKETS` = the data table's buckets, or, for an unsalted table, the
//!   bucket count the advisor gives a salted key (the first of its counts that reaches the
//!   regions writes should spread over); a range read through it becomes one scan per bucket;
//! - **lead with another column**: the index key's non-time column with the most distinct
//!   values (the data key's columns end every index key; over rows, distinct in the sample),
//!   first, the index split at quantiles of its keys (over rows, the sample's) into the target
//!   region count; a read that fixes only the old leading column can no longer range-scan the
//!   index;
//! - **make it local**: no region of its own, its rows in the data rows' regions (so it spreads
//!   as the data table does); a read through it is read in every data region.

use serde::Serialize;

// What the findings are counted over: the workload, or a sample of rows.
mod over;
pub(super) use over::Over;
use over::{data_report, distinct_values, index_analyses, index_keys_over, sample_rows};

use super::evaluate::{advisor_design, analyze_options};
use super::index_cost::IndexCost;
use super::AdviseOptions;
use crate::analyze::{
    initial_split_keys, plan_reads_through_indexes, Access, AnalysisReport, AnalyzeOptions,
    IndexWrites, ReadThrough, Spread,
};
use crate::design::phoenix::{
    index_shape, print_create_index, IndexKind, IndexedColumn, PhoenixIndex,
};
use crate::design::DesignDocument;
use crate::error::Result;
use crate::region::{PreSplit, SplitBy};
use crate::support::num_text::fixed;

/// Which change a fix makes to the index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum IndexFixKind {
    /// Salt the index (`SALT_BUCKETS`).
    Salt,
    /// Lead the index key with another column.
    Lead,
    /// Make it a local index.
    Local,
}

/// How one read is served, before or after a fix.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadRoute {
    /// The index read; `None`: the data table.
    pub through: Option<String>,
    /// How that table is read.
    pub access: Access,
    /// Scans HBase runs.
    pub scans: usize,
    /// Regions those scans touch.
    pub regions_touched: usize,
    /// Data-table lookups per row returned.
    pub data_lookups_per_row: u32,
}

impl ReadRoute {
    fn of(t: &ReadThrough) -> ReadRoute {
        ReadRoute {
            through: t.index.clone(),
            access: t.access,
            scans: t.plan.scans.len(),
            regions_touched: t.plan.regions_touched,
            data_lookups_per_row: t.data_lookups_per_row,
        }
    }

    fn text(&self) -> String {
        let table = self.through.as_deref().unwrap_or("the data table");
        let access = match self.access {
            Access::PointLookup => "a point lookup",
            Access::RangeScan => "a range scan",
            Access::FullScan => "a full scan",
        };
        let lookups = if self.data_lookups_per_row > 0 {
            ", a data-table lookup per row"
        } else {
            ""
        };
        format!(
            "{access} of {table}: {} over {} region{}{lookups}",
            super::evaluate::scans(self.scans),
            self.regions_touched,
            if self.regions_touched == 1 { "" } else { "s" }
        )
    }
}

/// A read of the design whose route a fix changes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexFixRead {
    /// The read's label.
    pub read: String,
    /// As the design is.
    pub before: ReadRoute,
    /// With the fix.
    pub after: ReadRoute,
}

/// One change to a hot index, checked: the changed index analyzed over what the candidates were
/// evaluated on (the advisor's workload, or the sample of the user's rows).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexFix {
    /// Which change.
    pub fix: IndexFixKind,
    /// The change in words.
    pub change: String,
    /// The changed index's `CREATE ... INDEX` statement.
    pub statement: String,
    /// The changed index as the design's `phoenix.indexes` member holds it.
    pub index: PhoenixIndex,
    /// Regions of its own (0 for a local index: the data table's).
    pub regions: usize,
    /// Mean over the loaded windows of the busiest region's share of its writes (a local
    /// index: the data table's).
    pub busiest_share: f64,
    /// The largest busiest-region share of any window.
    pub max_busiest_share: f64,
    /// Its table's verdict; `None` for a local index (the data table's regions).
    pub spread: Option<Spread>,
    /// The checked index no longer concentrates writes (a local index: neither does the data
    /// table).
    pub spreads: bool,
    /// Index writes per data write with the change.
    pub writes: IndexWrites,
    /// What it costs, one sentence each.
    pub costs: Vec<String>,
    /// The design's reads whose route the change alters, before and after.
    pub reads: Vec<IndexFixRead>,
}

/// A global index of the input design whose table concentrates its writes, and the fixes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexFinding {
    /// The index name.
    pub index: String,
    /// Its kind.
    pub kind: IndexKind,
    /// Its table's verdict.
    pub spread: Spread,
    /// Its regions.
    pub regions: usize,
    /// The busiest region's mean share of a window's index writes.
    pub busiest_share: f64,
    /// The data table's busiest region's mean share of a window's writes.
    pub data_busiest_share: f64,
    /// The finding in words, with its figures.
    pub finding: String,
    /// The index table's diagnosis, its first sentence (the analysis's).
    pub diagnosis: String,
    /// The fixes, each checked, best first: those that spread the index (the ones that spread
    /// it as well as the best, within sampling, first: salt, local, another leading column),
    /// by the busiest share they leave; then the others.
    pub fixes: Vec<IndexFix>,
}

/// The percentage of a share, whole.
fn pct(share: f64) -> String {
    fixed(share * 100.0, 0)
}

/// The findings for the input `doc` (whose candidate-0 figures are `input`): one per global
/// index that concentrates writes, with its checked fixes, counted `over` what the candidates
/// were. `servers` and `target` are the candidate set's; none when no index concentrates
/// writes.
pub(super) fn index_findings(
    doc: &DesignDocument,
    input: &[IndexCost],
    data_busiest_share: f64,
    opts: &AdviseOptions,
    (servers, target): (u32, u32),
    over: Over<'_>,
) -> Result<Vec<IndexFinding>> {
    let hot: Vec<usize> = input
        .iter()
        .enumerate()
        .filter(|(_, c)| c.concentrates_writes && c.kind != IndexKind::Local)
        .map(|(i, _)| i)
        .collect();
    if hot.is_empty() {
        return Ok(Vec::new());
    }
    // the design as the candidates were evaluated: on the advisor's records, or on the sample
    // of rows (its split sizes scaled to it, as `evaluate_on_rows` scales them)
    let doc = match over {
        None => advisor_design(doc, opts),
        Some(rows) => {
            let mut d = doc.clone();
            let (counted, own) = sample_rows(rows);
            super::evaluate::split_sizes_scaled(&mut d, counted, own);
            d
        }
    };
    let aopts = analyze_options(opts);
    // The data table's run, once: a local index's rows are counted over its regions, and no fix
    // changes it.
    let data = data_report(&doc, &aopts, over)?;
    let split_keys = initial_split_keys(&doc)?;
    let routes = if doc.reads.is_empty() {
        Vec::new()
    } else {
        plan_reads_through_indexes(&doc, &split_keys)?
    };
    let buckets = salt_buckets_for(&doc, servers, target);
    let mut out = Vec::with_capacity(hot.len());
    for i in hot {
        let (Some(cost), Some(x)) = (
            input.get(i),
            doc.phoenix.as_ref().and_then(|p| p.indexes.get(i)),
        ) else {
            continue;
        };
        // The index's own report again, for its diagnosis (the candidate figures keep none).
        let own = index_analyses(&only_index(&doc, x.clone()), &aopts, &data, over)?;
        let diagnosis = own
            .first()
            .and_then(|a| a.report.as_ref())
            .and_then(|r| r.diagnosis.first().cloned())
            .unwrap_or_default();
        let mut fixes = Vec::new();
        let ctx = Fixing {
            doc: &doc,
            i,
            aopts: &aopts,
            data: &data,
            split_keys: &split_keys,
            routes: &routes,
            over,
        };
        for (kind, change, changed) in changes(&doc, i, x, (buckets, target), &aopts, over)? {
            fixes.push(ctx.check(kind, change, changed)?);
        }
        rank(&mut fixes);
        let spread = cost.spread.unwrap_or_default();
        out.push(IndexFinding {
            index: x.name.clone(),
            kind: x.kind,
            spread,
            regions: cost.regions,
            busiest_share: cost.busiest_share,
            data_busiest_share,
            finding: format!(
                "the index {} concentrates its writes: its busiest region takes {} % of a window's index writes on average (up to {} %) over {} region{} of its own, where the data table's busiest takes {} %",
                x.name,
                pct(cost.busiest_share),
                pct(cost.max_busiest_share),
                cost.regions,
                if cost.regions == 1 { "" } else { "s" },
                pct(data_busiest_share)
            ),
            diagnosis,
            fixes,
        });
    }
    Ok(out)
}

/// Within this share of the lowest busiest share a spreading fix leaves, two fixes spread the
/// same (two samples of an even spread differ by that much), as the candidates' 5 % band.
const SAME_SPREAD: f64 = 1.05;

/// The fixes ranked by their checked result: those that spread the index, the ones whose
/// busiest share is within [`SAME_SPREAD`] of the lowest first, in the order that keeps most of
/// the index (salt, then local, then another leading column), then by the share they leave;
/// then those that do not spread.
fn rank(fixes: &mut [IndexFix]) {
    let best = fixes
        .iter()
        .filter(|x| x.spreads)
        .map(|x| x.busiest_share)
        .fold(f64::INFINITY, f64::min);
    let order = |k: IndexFixKind| match k {
        IndexFixKind::Salt => 0,
        IndexFixKind::Local => 1,
        IndexFixKind::Lead => 2,
    };
    let tier = |x: &IndexFix| match (x.spreads, x.busiest_share <= best * SAME_SPREAD) {
        (true, true) => 0,
        (true, false) => 1,
        (false, _) => 2,
    };
    fixes.sort_by(|a, b| {
        tier(a).cmp(&tier(b)).then_with(|| {
            if tier(a) == 0 {
                order(a.fix).cmp(&order(b.fix))
            } else {
                a.busiest_share.total_cmp(&b.busiest_share)
            }
        })
    });
}

/// The salt a fix gives an index: the data table's buckets, or the advisor's count for a
/// salted key when the table is not salted.
fn salt_buckets_for(doc: &DesignDocument, servers: u32, target: u32) -> Option<u32> {
    let table = doc.key.segments.iter().find_map(|s| match s {
        crate::keyspec::Segment::Salt(s) if s.hash == crate::keyspec::SaltHash::Phoenix => {
            Some(s.buckets)
        }
        _ => None,
    });
    table.or_else(|| {
        let counts = super::candidates::bucket_counts(servers, target, None);
        super::candidates::spreading_count(&counts, target)
    })
}

/// `doc` with index `x` as its only index.
fn only_index(doc: &DesignDocument, x: PhoenixIndex) -> DesignDocument {
    let mut one = doc.clone();
    if let Some(p) = one.phoenix.as_mut() {
        p.indexes = vec![x];
    }
    one
}

/// `doc` with index `i` replaced by `x`.
fn with_index(doc: &DesignDocument, i: usize, x: PhoenixIndex) -> DesignDocument {
    let mut d = doc.clone();
    if let Some(slot) = d.phoenix.as_mut().and_then(|p| p.indexes.get_mut(i)) {
        *slot = x;
    }
    d
}

/// The changes to try on index `i` (`x`), each with its words; those that would not change
/// the index, or that the design refuses, left out.
fn changes(
    doc: &DesignDocument,
    i: usize,
    x: &PhoenixIndex,
    (buckets, target): (Option<u32>, u32),
    aopts: &AnalyzeOptions,
    over: Over<'_>,
) -> Result<Vec<(IndexFixKind, String, PhoenixIndex)>> {
    let mut out = Vec::new();
    let current = index_shape(doc, i)?.salt_buckets;
    if let Some(n) = buckets.filter(|&n| current.map_or(true, |c| i64::from(c) < i64::from(n))) {
        let whose = if doc.key.segments.iter().any(|s| {
            matches!(s, crate::keyspec::Segment::Salt(t) if t.hash == crate::keyspec::SaltHash::Phoenix && t.buckets == n)
        }) {
            "the data table's"
        } else {
            "the advisor's count for the regions writes should spread over"
        };
        let salted = PhoenixIndex {
            salt_buckets: Some(n),
            split_on: Vec::new(),
            ..x.clone()
        };
        out.push((
            IndexFixKind::Salt,
            format!("salt the index: SALT_BUCKETS = {n} ({whose})"),
            salted,
        ));
    }
    if let Some((lead, changed)) = led_by_another(doc, i, x, target, aopts, over)? {
        let first = x.columns.first().map_or("", IndexedColumn::label);
        out.push((
            IndexFixKind::Lead,
            format!(
                "lead the index with {lead} (more distinct values than {first}), split at quantiles of its keys into {target} regions"
            ),
            changed,
        ));
    }
    let local = PhoenixIndex {
        kind: IndexKind::Local,
        salt_buckets: None,
        split_on: Vec::new(),
        ..x.clone()
    };
    out.push((
        IndexFixKind::Local,
        "make it a local index: its rows in the data table's regions, none of its own".into(),
        local,
    ));
    let doc_ok = |c: &PhoenixIndex| with_index(doc, i, c.clone()).validate().is_ok();
    out.retain(|(_, _, c)| doc_ok(c));
    Ok(out)
}

/// Index `i` led by the index key's non-time column with the most distinct values (when it has
/// more than the current leading column), unsalted, split at quantiles of its keys into
/// `target` regions; `None` when the key has no such column.
fn led_by_another(
    doc: &DesignDocument,
    i: usize,
    x: &PhoenixIndex,
    target: u32,
    aopts: &AnalyzeOptions,
    over: Over<'_>,
) -> Result<Option<(String, PhoenixIndex)>> {
    // An index with an indexed expression is not led by another column here: its split points
    // are cut at its keys through its own key over the workload, and an expression's placeholder
    // field (`index_design`) would not give the expression's values.
    if x.columns.iter().any(|c| c.expression.is_some()) {
        return Ok(None);
    }
    let shape = index_shape(doc, i)?;
    let names: Vec<&str> = shape.columns.iter().map(|c| c.name.as_str()).collect();
    let Some((first, rest)) = names.split_first() else {
        return Ok(None);
    };
    let time = |f: &str| super::shape::is_time_field(doc, f);
    let mut cards = std::collections::HashMap::new();
    for f in std::iter::once(first).chain(rest) {
        if doc.field(f).is_some() {
            cards.insert(*f, distinct_values(doc, f, over)?);
        }
    }
    let card = |f: &str| cards.get(f).copied().unwrap_or(u64::MAX);
    let Some(lead) = rest
        .iter()
        .copied()
        .filter(|f| doc.field(f).is_some() && !time(f))
        .filter(|f| time(first) || card(f) > card(first))
        .filter(|f| card(f) > 1)
        .rev()
        .max_by_key(|f| card(f))
    else {
        return Ok(None);
    };
    let mut columns: Vec<IndexedColumn> = x.columns.clone();
    match columns
        .iter()
        .position(|c| c.name == lead && c.expression.is_none())
    {
        Some(p) => {
            let c = columns.remove(p);
            columns.insert(0, c);
        }
        None => columns.insert(
            0,
            IndexedColumn {
                name: lead.to_string(),
                family: None,
                desc: false,
                expression: None,
            },
        ),
    }
    let mut changed = PhoenixIndex {
        columns,
        salt_buckets: Some(0),
        split_on: Vec::new(),
        ..x.clone()
    };
    // Its split points: quantiles of the led index's own keys over the workload (the first
    // keys of its run), or over the sample of rows (each row's key in the led index).
    let led = with_index(doc, i, changed.clone());
    if led.validate().is_err() {
        return Ok(None);
    }
    let mut idx = crate::design::phoenix::index_design(&led, i)?;
    let mut layout = idx.regions.take().unwrap_or_default();
    layout.presplit = PreSplit::SampleQuantiles {
        regions: target.max(2),
        sample: index_keys_over(&led, i, over)?,
        by: SplitBy::Rows,
    };
    idx.regions = Some(layout);
    let run = crate::analyze::AnalysisRun::new(&idx, aopts)?;
    changed.split_on = run
        .analyzer()
        .split_keys()
        .iter()
        .map(|k| crate::hbase::bytes::to_hex(k))
        .collect();
    Ok(Some((lead.to_string(), changed)))
}

/// What checking a fix needs: the advisor's design, the index, the data table's run and the
/// reads' routes as the design is, and what it is all counted over.
struct Fixing<'a> {
    doc: &'a DesignDocument,
    i: usize,
    aopts: &'a AnalyzeOptions,
    data: &'a AnalysisReport,
    split_keys: &'a [Vec<u8>],
    routes: &'a [crate::analyze::IndexReadPlan],
    over: Over<'a>,
}

impl Fixing<'_> {
    /// The changed index analyzed, its statement, its costs and the reads it reroutes.
    fn check(&self, fix: IndexFixKind, change: String, x: PhoenixIndex) -> Result<IndexFix> {
        let changed = with_index(self.doc, self.i, x.clone());
        let statement = print_create_index(&changed, self.i)?;
        let one = index_analyses(
            &only_index(self.doc, x.clone()),
            self.aopts,
            self.data,
            self.over,
        )?;
        let a = one.first().ok_or_else(|| {
            crate::error::Error::new(
                crate::error::ErrorKind::IllegalState,
                "the changed index was not analyzed",
            )
        })?;
        let (spread, spreads) = match &a.report {
            Some(r) => (Some(r.spread), !r.spread.concentrates_writes()),
            None => (None, !self.data.spread.concentrates_writes()),
        };
        let after = if self.routes.is_empty() {
            Vec::new()
        } else {
            plan_reads_through_indexes(&changed, self.split_keys)?
        };
        let reads: Vec<IndexFixRead> = self
            .routes
            .iter()
            .zip(&after)
            .map(|(b, a)| IndexFixRead {
                read: b.read.clone(),
                before: ReadRoute::of(&b.chosen),
                after: ReadRoute::of(&a.chosen),
            })
            .filter(|r| r.before != r.after)
            .collect();
        let mut costs = self.costs(fix, &x);
        costs.extend(reads.iter().map(|r| {
            format!(
                "the read '{}' becomes {} (was {})",
                r.read,
                r.after.text(),
                r.before.text()
            )
        }));
        Ok(IndexFix {
            fix,
            change,
            statement,
            index: x,
            regions: a.regions_of_its_own,
            busiest_share: a.busiest_share,
            max_busiest_share: a.max_busiest_share,
            spread,
            spreads,
            writes: a.writes,
            costs,
            reads,
        })
    }

    /// What the change costs whatever the reads: its scans, its writes, what it no longer
    /// serves.
    fn costs(&self, fix: IndexFixKind, x: &PhoenixIndex) -> Vec<String> {
        let data_regions = self.data.regions.len();
        let old = self
            .doc
            .phoenix
            .as_ref()
            .and_then(|p| p.indexes.get(self.i));
        match fix {
            IndexFixKind::Salt => vec![format!(
                "a read through the index runs one scan per salt bucket ({}), merged: a range of {} becomes {} scans",
                x.salt_buckets.unwrap_or(0),
                old.and_then(|o| o.columns.first()).map_or("its leading column", IndexedColumn::label),
                x.salt_buckets.unwrap_or(0)
            )],
            IndexFixKind::Lead => {
                let first = old
                    .and_then(|o| o.columns.first())
                    .map_or(String::new(), |c| c.label().to_string());
                vec![format!(
                    "a read that fixes or ranges over {first} without {} can no longer range-scan the index: it leads with {}",
                    x.columns.first().map_or("", |c| c.name.as_str()),
                    x.columns.first().map_or("", |c| c.name.as_str())
                )]
            }
            IndexFixKind::Local => vec![format!(
                "a read through a local index is read in every one of the data table's {data_regions} regions"
            )],
        }
    }
}
