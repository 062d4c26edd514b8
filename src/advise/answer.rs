//! The answer: the Pareto front over write spread, read cost and key bytes, one
//! recommendation, and its reasons in words, each naming what it gains and what it costs.
//!
//! The policy, in full:
//! 1. A candidate that turns one of the input's gets (one scan) into several scans or a
//!    full-table scan is never recommended (it is flagged).
//! 2. Among the others, those whose write spread is within 25 % of the best are "even enough".
//!    A Phoenix design's candidate that makes one of its global indexes concentrate writes
//!    (the analysis's hotspot verdict on the index's table) where the input's does not gives
//!    way to one that does not, when there is one: an index key ends with the data key's
//!    columns and takes the table's salt, so a data key also decides its indexes' spread.
//! 3. Of those, the lowest read cost wins; on a tie, among the write spreads within 5 % of
//!    the lowest (the same spread, sampled twice; and no more than 2 % above the input's when
//!    the input reads as cheaply), the shorter key, then the lower spread, then the earlier
//!    candidate.
//! 4. The input stays the recommendation when it is on the front, among the cheapest readers
//!    of step 3, and its write spread is within 5 % of the winner's, or when it is among the
//!    cheapest readers and the winner differs from it only within sampling (no gain or cost
//!    to name): a change must buy something.

use serde::Serialize;

use super::candidates::CandidateSet;
use super::capacity::CapacityReport;
use super::evaluate::CandidateMetrics;
use super::AdviseOptions;
use crate::design::DesignDocument;
use crate::error::Result;

mod words;
use words::{flags, input_flags, newly_hot_indexes, reasons, skewed_salt};

/// A candidate with its figures (or why it could not be evaluated).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Evaluated {
    /// Position in the candidate list (0: the input).
    pub index: usize,
    /// Its label.
    pub label: String,
    /// What changed from the input.
    pub changes: Vec<String>,
    /// The key in the text form.
    pub key_text: String,
    /// The whole design document.
    pub design: DesignDocument,
    /// Its figures; `None` when the analysis failed (see `error`).
    pub metrics: Option<CandidateMetrics>,
    /// Why the analysis failed.
    pub error: Option<String>,
    /// On the Pareto front over (write spread, read cost, key bytes).
    pub pareto: bool,
    /// What it breaks compared with the input (a get that becomes a scan, a read that becomes
    /// a full-table scan).
    pub flags: Vec<String>,
    /// Its table at month 12, simulated for the input and the few candidates the
    /// recommendation is chosen among ([`super::months`]); `None` for the others.
    pub months: Option<super::months::CandidateMonths>,
}

/// The recommended design and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Recommendation {
    /// Position in the candidate list (0: keep the input).
    pub index: usize,
    /// Its label.
    pub label: String,
    /// The key in the text form.
    pub key_text: String,
    /// The whole design document, ready for the analyzer, the CLI and the page.
    pub design: DesignDocument,
    /// The reasons, each naming a gain or a cost against the input.
    pub why: Vec<String>,
    /// Its figures.
    pub metrics: CandidateMetrics,
    /// What moving the input's table to it needs that the old key cannot give back (a field
    /// it holds hashed, in part or not at all, so the move must read it from the rows), in a
    /// sentence; `None` when the old key gives every field back, when it is the input, and
    /// over a user's rows (the move reads their columns).
    pub move_note: Option<String>,
}

/// The advisor's answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Advice {
    /// The recommendation.
    pub recommended: Recommendation,
    /// Every candidate, the input first.
    pub candidates: Vec<Evaluated>,
    /// What is wrong with the input design itself (a get that is not one scan, a read that
    /// scans the whole table).
    pub input_flags: Vec<String>,
    /// The region servers designed for.
    pub servers: u32,
    /// The region count writes should spread over.
    pub target_regions: u32,
    /// Records each candidate was evaluated on.
    pub records: u64,
    /// How the advisor's figures were made and why they differ from the design's own analysis
    /// (other records, windows, and a hotspot factor over the regions writes should spread on).
    pub basis: String,
    /// The fields every read fixes.
    pub fixed_fields: Vec<String>,
    /// Capacity and lifecycle of the recommended design.
    pub capacity: CapacityReport,
    /// How many regions to create the recommended design with, in the region plan's one line
    /// (its headline, with the design's own pre-split where it differs): the Splits view's
    /// answer for that design, not a second count.
    pub region_plan: String,
    /// Each global Phoenix index of the input whose table concentrates its writes, with the
    /// changes that fix it, each checked over the same records or rows as the candidates
    /// ([`super::IndexFinding`]); empty when every index spreads and without indexes.
    pub index_findings: Vec<super::IndexFinding>,
}

/// `a` dominates `b`: no worse on every objective and better on one.
fn dominates(a: &CandidateMetrics, b: &CandidateMetrics) -> bool {
    let (x, y) = (objectives(a), objectives(b));
    x.iter().zip(&y).all(|(p, q)| p <= q) && x.iter().zip(&y).any(|(p, q)| p < q)
}

fn objectives(m: &CandidateMetrics) -> [f64; 3] {
    [m.hotspot_factor, m.read_cost, m.key_bytes]
}

/// The answer from the candidates and their evaluations (in candidate order; an error keeps
/// its candidate out of the front and the recommendation). Fails when the input itself could
/// not be evaluated.
pub fn advise_from(
    doc: &DesignDocument,
    opts: &AdviseOptions,
    set: &CandidateSet,
    evaluations: Vec<Result<CandidateMetrics>>,
) -> Result<Advice> {
    advise_from_rows(doc, opts, set, evaluations, None)
}

/// [`advise_from`] for candidates evaluated on a sample of a user's rows: `rows` is the rows
/// sampled and the file's rows, for the records figure and the basis. Without the sample
/// itself no index finding is made over rows ([`advise_from_sample`] makes them).
pub fn advise_from_rows(
    doc: &DesignDocument,
    opts: &AdviseOptions,
    set: &CandidateSet,
    evaluations: Vec<Result<CandidateMetrics>>,
    rows: Option<(u64, u64)>,
) -> Result<Advice> {
    advise_with(doc, opts, set, evaluations, rows, None)
}

/// [`advise_from`] for candidates evaluated on `rows`, a sample of a user's rows
/// ([`super::evaluate_on_rows`]): the index findings are counted over the same rows, each
/// fix checked by analyzing the changed index over them.
#[cfg(feature = "rows")]
pub fn advise_from_sample(
    doc: &DesignDocument,
    opts: &AdviseOptions,
    set: &CandidateSet,
    evaluations: Vec<Result<CandidateMetrics>>,
    rows: &crate::rows::RowSample,
) -> Result<Advice> {
    let counts = (rows.len() as u64, rows.file_rows());
    advise_with(doc, opts, set, evaluations, Some(counts), Some(rows))
}

/// The answer; `rows`, the rows sampled and the file's; `sample`, the rows themselves when the
/// index findings are counted over them.
fn advise_with(
    doc: &DesignDocument,
    opts: &AdviseOptions,
    set: &CandidateSet,
    evaluations: Vec<Result<CandidateMetrics>>,
    rows: Option<(u64, u64)>,
    sample: super::indexes::Over<'_>,
) -> Result<Advice> {
    let mut list = evaluated(set, evaluations);
    let base = input_metrics(&list)?;
    let eligible = mark_front(&mut list, &base);
    simulate_months(&mut list, &eligible, opts, set.servers);
    let mut input_flags = input_flags(&base);
    input_flags.extend(skewed_salt(&list, &base));
    let pick = recommended(&list, &base, &eligible);
    // the pick's months beside the input's, when it was not among the few simulated
    simulate_months_of(&mut list, pick, opts, set.servers);
    let chosen = list.get(pick).or(list.first());
    let (label, key_text, design, metrics, f) = match chosen {
        Some(e) => (
            e.label.clone(),
            e.key_text.clone(),
            e.design.clone(),
            e.metrics.clone().unwrap_or_else(|| base.clone()),
            e.flags.clone(),
        ),
        None => (
            "current".into(),
            doc.key.to_text(),
            doc.clone(),
            base.clone(),
            Vec::new(),
        ),
    };
    let mut why = reasons(&label, &base, &metrics, pick == 0, &f);
    let move_note = if pick == 0 || rows.is_some() {
        None
    } else {
        move_note(doc, &design)?
    };
    let months_of = |i: usize| list.get(i).and_then(|e| e.months.as_ref());
    if let (Some(b), Some(m), true) = (months_of(0), months_of(pick), pick != 0) {
        why.extend(super::months::reason(b, m));
    }
    // the one region plan, as the Splits view shows it for this design
    let measured = super::RegionPlanInput {
        key_bytes: metrics.key_bytes,
        regions: metrics.regions,
        active_regions_per_window: metrics.active_regions_per_window,
        write_rate: None,
    };
    let plan = super::regions::region_plan_with(&design, &measured, &opts.capacity, set.servers);
    // A finding's fixes are checked over what the candidates were evaluated on: the generated
    // workload, or the sample of rows (without the sample, counts alone: no finding).
    let index_findings = match (rows, sample) {
        (Some(_), None) => Vec::new(),
        _ => super::indexes::index_findings(
            doc,
            &base.indexes,
            base.busiest_share,
            opts,
            (set.servers, set.target_regions),
            sample,
        )?,
    };
    Ok(Advice {
        recommended: Recommendation {
            index: pick,
            label,
            key_text,
            design,
            why,
            metrics,
            move_note,
        },
        input_flags,
        candidates: list,
        servers: set.servers,
        target_regions: set.target_regions,
        records: rows.map_or(opts.records, |(sampled, _)| sampled),
        basis: basis(doc, opts, set.target_regions, rows),
        fixed_fields: set.fixed_fields.clone(),
        capacity: plan.capacity,
        region_plan: plan.headline,
        index_findings,
    })
}

/// The sentence that says which fields of `new`'s key a move from `old` cannot take from the old
/// key (the rekey plan's field sources without rows: what its "Not ready" would list).
fn move_note(old: &DesignDocument, new: &DesignDocument) -> Result<Option<String>> {
    let missing: Vec<(String, String)> = crate::rekey::field_sources(old, new, None)?
        .into_iter()
        .filter(|f| f.from == crate::rekey::Source::Missing)
        .map(|f| {
            let why = f
                .why
                .unwrap_or_else(|| "the old key does not hold it".into());
            (f.field, why)
        })
        .collect();
    let rows = "an export of the table's cells, or a file";
    Ok(match missing.as_slice() {
        [] => None,
        [(field, why)] => Some(format!(
            "Moving the table to it needs `{field}`, which the current key cannot give back: {why}. Plan the move over rows that hold it as a column ({rows})."
        )),
        many => Some(format!(
            "Moving the table to it needs {}, which the current key cannot give back ({}). Plan the move over rows that hold them as columns ({rows}).",
            many.iter().map(|(f, _)| format!("`{f}`")).collect::<Vec<_>>().join(", "),
            many.iter().map(|(f, w)| format!("`{f}`: {w}")).collect::<Vec<_>>().join("; ")
        )),
    })
}

/// The input's and the few lowest-spread eligible candidates' months
/// ([`super::months::chosen`]), each read at month 12.
fn simulate_months(list: &mut [Evaluated], eligible: &[usize], opts: &AdviseOptions, servers: u32) {
    let spread: Vec<(usize, f64)> = eligible
        .iter()
        .filter_map(|&i| Some((i, list.get(i)?.metrics.as_ref()?.hotspot_factor)))
        .collect();
    for i in super::months::chosen(&spread) {
        simulate_months_of(list, i, opts, servers);
    }
}

/// Candidate `i`'s months, unless simulated already.
fn simulate_months_of(list: &mut [Evaluated], i: usize, opts: &AdviseOptions, servers: u32) {
    if let Some(e) = list.get_mut(i) {
        if let (Some(m), None) = (&e.metrics, &e.months) {
            e.months = super::months::candidate_months(&e.design, m, &opts.capacity, servers).ok();
        }
    }
}

/// Each candidate with its evaluation (in candidate order) or the error that kept it out.
fn evaluated(set: &CandidateSet, evaluations: Vec<Result<CandidateMetrics>>) -> Vec<Evaluated> {
    let mut evals = evaluations.into_iter();
    let mut list: Vec<Evaluated> = Vec::with_capacity(set.candidates.len());
    for (index, c) in set.candidates.iter().enumerate() {
        let (metrics, error) = match evals.next() {
            Some(Ok(m)) => (Some(m), None),
            Some(Err(e)) => (None, Some(e.to_string())),
            None => (None, Some("not evaluated".to_string())),
        };
        list.push(Evaluated {
            index,
            label: c.label.clone(),
            changes: c.changes.clone(),
            key_text: c.key_text.clone(),
            design: c.design.clone(),
            metrics,
            error,
            pareto: false,
            flags: Vec::new(),
            months: None,
        });
    }
    list
}

/// The input design's metrics (candidate 0): every other candidate is judged against them, so
/// an input that could not be evaluated fails the whole answer.
fn input_metrics(list: &[Evaluated]) -> Result<CandidateMetrics> {
    match list.first() {
        Some(Evaluated {
            metrics: Some(m), ..
        }) => Ok(m.clone()),
        Some(Evaluated { error: Some(e), .. }) => Err(crate::error::Error::new(
            crate::error::ErrorKind::Invalid,
            format!("the input design cannot be evaluated: {e}"),
        )),
        _ => Err(crate::error::Error::new(
            crate::error::ErrorKind::Invalid,
            "no candidates",
        )),
    }
}

/// Each evaluated candidate marked on the Pareto front or not and flagged against the input;
/// the candidates that may be recommended (those that do not break the design's gets).
fn mark_front(list: &mut [Evaluated], base: &CandidateMetrics) -> Vec<usize> {
    let all: Vec<Option<CandidateMetrics>> = list.iter().map(|e| e.metrics.clone()).collect();
    let mut eligible = Vec::new();
    for e in list.iter_mut() {
        let Some(m) = &e.metrics else { continue };
        e.pareto = !all.iter().flatten().any(|o| dominates(o, m));
        let (f, breaks_get) = flags(base, m);
        e.flags = f;
        if !breaks_get {
            eligible.push(e.index);
        }
    }
    eligible
}

/// The recommended candidate's index among the `eligible`: the writes spread within 25 % of
/// the best, then the cheapest reads, then the shortest key among spreads that sampling
/// cannot tell apart; the input (0) when the winner gains nothing worth a change.
fn recommended(list: &[Evaluated], base: &CandidateMetrics, eligible: &[usize]) -> usize {
    let metric = |i: usize| list.get(i).and_then(|e| e.metrics.as_ref());
    let best_h = eligible
        .iter()
        .filter_map(|&i| metric(i))
        .map(|m| m.hotspot_factor)
        .fold(f64::INFINITY, f64::min);
    let even: Vec<usize> = eligible
        .iter()
        .copied()
        .filter(|&i| metric(i).is_some_and(|m| m.hotspot_factor <= best_h * 1.25))
        .collect();
    // The months: a candidate whose month 12 has one server take the writes gives way to an
    // even one whose month 12 does not (a hot server caps the table's write rate).
    let hot = |i: usize| {
        list.get(i)
            .and_then(|e| e.months.as_ref())
            .map(|m| m.hot_server)
    };
    let even: Vec<usize> = if even.iter().any(|&i| hot(i) == Some(false)) {
        even.into_iter().filter(|&i| hot(i) != Some(true)).collect()
    } else {
        even
    };
    // The indexes: a candidate that makes an index concentrate writes gives way to an even one
    // that does not.
    let hot_index =
        |i: usize| metric(i).is_some_and(|m| newly_hot_indexes(base, m).next().is_some());
    let even: Vec<usize> = if even.iter().any(|&i| !hot_index(i)) {
        even.into_iter().filter(|&i| !hot_index(i)).collect()
    } else {
        even
    };
    let best_r = even
        .iter()
        .filter_map(|&i| metric(i))
        .map(|m| m.read_cost)
        .fold(f64::INFINITY, f64::min);
    let cheapest: Vec<usize> = even
        .iter()
        .copied()
        .filter(|&i| metric(i).is_some_and(|m| m.read_cost <= best_r * (1.0 + 1e-9)))
        .collect();
    // Write spreads within 5 % of the lowest are the same spread (two samples of an even
    // spread differ by that much): the shorter key wins among them.
    let low_h = cheapest
        .iter()
        .filter_map(|&i| metric(i))
        .map(|m| m.hotspot_factor)
        .fold(f64::INFINITY, f64::min);
    // When the input reads as cheaply, a shorter key may not cost spread: no worse than the
    // input's (2 % for sampling).
    let band = if cheapest.contains(&0) {
        (low_h * 1.05).min(base.hotspot_factor * 1.02).max(low_h)
    } else {
        low_h * 1.05
    };
    let winner = cheapest
        .iter()
        .copied()
        .filter(|&i| metric(i).is_some_and(|m| m.hotspot_factor <= band))
        .min_by(|&a, &b| {
            let key = |i: usize| {
                metric(i).map_or((f64::INFINITY, f64::INFINITY), |m| {
                    (m.key_bytes, m.hotspot_factor)
                })
            };
            key(a)
                .partial_cmp(&key(b))
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(a.cmp(&b))
        })
        .unwrap_or(0);
    let winner_h = metric(winner).map_or(f64::INFINITY, |m| m.hotspot_factor);
    let input_on_front = list.first().is_some_and(|e| e.pareto);
    // A winner that reads as cheaply as the input and differs from it only within sampling
    // (no reason to give) is no change worth making.
    let no_gain = cheapest.contains(&0)
        && metric(winner).is_some_and(|m| {
            let flags = list.get(winner).map_or(&[][..], |e| &e.flags[..]);
            reasons("", base, m, false, flags).len() <= 1
        });
    if no_gain
        || (cheapest.contains(&0) && input_on_front && base.hotspot_factor <= winner_h * 1.05)
    {
        0
    } else {
        winner
    }
}

/// The advisor's basis, said where its figures meet the analysis's: the same design shows a
/// hotspot factor of 54.85 here and 14.21 in the analysis, and a user must see why.
fn basis(
    doc: &DesignDocument,
    opts: &AdviseOptions,
    target: u32,
    rows: Option<(u64, u64)>,
) -> String {
    let own = doc.workload.as_ref().map_or_else(
        || crate::workload::WorkloadSpec::default().records,
        |w| w.records,
    );
    let records = if let Some((sampled, file)) = rows {
        if sampled == file {
            format!("your {file} rows")
        } else {
            format!(
                "a sample of {sampled} of your {file} rows (those with the smallest hashes of their values, in the file's order)"
            )
        }
    } else if own == opts.records {
        format!("{} records (the design's workload)", opts.records)
    } else {
        format!(
            "{} records of the design's workload (which has {own}: the analysis counts those)",
            opts.records
        )
    };
    format!(
        "Each candidate is analysed on {records} in {} time windows. Its hotspot factor is \
         the busiest region of a window against the mean of at least {target} regions (the \
         regions the servers should spread writes over), so a design with fewer regions scores \
         worse here than in the analysis, which divides by the design's own regions. A design \
         that splits as it grows is counted with its split sizes scaled to the records counted, \
         so it splits into the regions its own analysis shows. The input and the {} eligible candidates with the lowest hotspot factor are also simulated \
         for 12 months (as the capacity figures are): their month 12's regions, empty regions \
         and hottest server's share stand beside today's figures, and a candidate whose month \
         12 has one server take the writes gives way to one whose does not (the recommendation \
         is simulated too); the others are not.",
        opts.windows,
        super::months::MONTHS_CANDIDATES
    )
}
