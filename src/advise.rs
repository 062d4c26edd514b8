//! The design advisor: from a design document to alternative designs, their evaluation on the
//! same workload, the Pareto front and one recommendation with its reasons, plus the capacity
//! and lifecycle figures (months of life simulated, seed 000's arithmetic as their check).
//!
//! The flow is three pure steps, so a caller without threads (the page, Node) can fan the
//! middle one out to workers and get the very same answer:
//!
//! 1. [`candidates()`]: the input design and its alternatives, each a complete design document
//!    (key, pre-split and examples updated) with a deterministic label;
//! 2. [`evaluate()`]: one candidate through the analyzer (on `records` generated records) and
//!    the read planner, giving its [`CandidateMetrics`];
//! 3. [`advise_from`]: the evaluations to the Pareto front, the recommendation and its
//!    reasons, and the capacity figures.
//!
//! [`advise`] does all three, evaluating on every core natively ([`evaluate_all`]; one
//! thread on wasm32, which has none). Results do not depend on the thread count: each
//! candidate's evaluation is a pure function of its document and the options.

use serde::Serialize;

use crate::design::DesignDocument;
use crate::error::{Error, ErrorKind, Result};

mod answer;
mod candidates;
pub mod capacity;
mod evaluate;
mod index_cost;
mod indexes;
pub mod lifecycle;
pub mod months;
mod presplit;
pub(crate) mod read;
mod regions;
mod shape;

#[cfg(feature = "rows")]
pub use answer::advise_from_sample;
pub use answer::{advise_from, advise_from_rows, Advice, Evaluated, Recommendation};
pub use candidates::{candidates, Candidate, CandidateSet, MIN_SPREAD};
pub use capacity::{capacity, CapacityOptions, CapacityReport, Measured};
#[cfg(feature = "rows")]
pub use evaluate::evaluate_on_rows;
pub use evaluate::{evaluate, evaluate_all, CandidateMetrics, ReadCost};
pub use index_cost::IndexCost;
pub use indexes::{IndexFinding, IndexFix, IndexFixKind, IndexFixRead, ReadRoute};
pub use regions::{region_plan, region_plan_with, RegionPlan, RegionPlanInput};
// the wasm bindings' (src/wasm/advise.rs: the npm package's and the page's speed build)
#[cfg(all(
    target_arch = "wasm32",
    any(feature = "library", feature = "fast"),
    not(feature = "vectors-only")
))]
pub(crate) use read::advise_options as read_options;
pub use read::evaluations as read_evaluations;
pub use read::schema;

/// The default number of records each candidate is evaluated on.
pub const DEFAULT_RECORDS: u64 = 200_000;
/// The most records per candidate (the sweep runs them once per candidate).
pub const MAX_RECORDS: u64 = 10_000_000;
/// The most time windows of each candidate's analysis (one analysis per candidate).
pub const MAX_ADVISE_WINDOWS: u32 = 4096;

/// What the advisor explores and how it evaluates.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AdviseOptions {
    /// Region servers to design for; absent: the document's `regions.regionServers`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub servers: Option<u32>,
    /// Records generated for each candidate's evaluation (the document's workload, this many
    /// records, its seed).
    pub records: u64,
    /// Time windows of each analysis (per-window hotspot factors and active regions).
    pub windows: u32,
    /// Native only: threads evaluating candidates (0: every core). Results do not depend on
    /// it.
    pub threads: u32,
    /// Capacity and lifecycle inputs (HBase's defaults when absent).
    pub capacity: CapacityOptions,
}

impl Default for AdviseOptions {
    fn default() -> Self {
        AdviseOptions {
            servers: None,
            records: DEFAULT_RECORDS,
            windows: 64,
            threads: 0,
            capacity: CapacityOptions::default(),
        }
    }
}

impl AdviseOptions {
    /// Checks every limit, naming the option at fault.
    pub fn validate(&self) -> Result<()> {
        if let Some(s) = self.servers {
            if s == 0 || s > crate::region::MAX_SERVERS {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!(
                        "the region server count must be between 1 and {}",
                        crate::region::MAX_SERVERS
                    ),
                )
                .at_path("servers"));
            }
        }
        if self.records == 0 || self.records > MAX_RECORDS {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!("records must be between 1 and {MAX_RECORDS}"),
            )
            .at_path("records"));
        }
        if self.windows == 0 || self.windows > MAX_ADVISE_WINDOWS {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!("windows must be between 1 and {MAX_ADVISE_WINDOWS}"),
            )
            .at_path("windows"));
        }
        self.capacity.validate()
    }

    /// The region servers to design for: the option, else the document's.
    pub fn servers_for(&self, doc: &DesignDocument) -> u32 {
        self.servers
            .or_else(|| doc.regions.as_ref().map(|r| r.region_servers))
            .unwrap_or(1)
            .max(1)
    }
}

/// The whole advice for `doc`: candidates, their evaluation (in parallel natively), the
/// Pareto front, the recommendation and the capacity figures.
pub fn advise(doc: &DesignDocument, opts: &AdviseOptions) -> Result<Advice> {
    opts.validate()?;
    let set = candidates(doc, opts)?;
    let designs: Vec<&DesignDocument> = set.candidates.iter().map(|c| &c.design).collect();
    let evaluations = evaluate_all(&designs, opts, set.target_regions, opts.threads);
    advise_from(doc, opts, &set, evaluations)
}

/// [`advise`] with every candidate evaluated on a sample of a user's rows
/// ([`crate::rows::RowSample`], read by a first pass with a row sample) instead of the
/// design's workload.
#[cfg(feature = "rows")]
pub fn advise_on_rows(
    doc: &DesignDocument,
    opts: &AdviseOptions,
    rows: &crate::rows::RowSample,
) -> Result<Advice> {
    opts.validate()?;
    // the designs sized to the rows' file: the candidates carry it, and the capacity figures
    // are the rows' rate and volume
    let doc = &crate::analyze::doc_for_rows(doc, &rows.file_summary());
    let set = candidates(doc, opts)?;
    let designs: Vec<&DesignDocument> = set.candidates.iter().map(|c| &c.design).collect();
    let one = |d: &&DesignDocument| evaluate_on_rows(d, opts, set.target_regions, rows);
    let n = crate::support::threads::count(opts.threads).min(designs.len());
    let evaluations = crate::support::threads::map(&designs, n, &one);
    advise_from_sample(doc, opts, &set, evaluations, rows)
}

/// The answer from evaluations made elsewhere (workers) on `rows`, a sample of a user's rows,
/// in candidate order: `doc` sized to the rows' file as [`advise_on_rows`] sizes it, its
/// candidates, and the index findings counted over the same rows.
#[cfg(feature = "rows")]
pub fn advise_from_rows_evaluated(
    doc: &DesignDocument,
    opts: &AdviseOptions,
    evaluations: Vec<Result<crate::advise::CandidateMetrics>>,
    rows: &crate::rows::RowSample,
) -> Result<Advice> {
    let doc = &crate::analyze::doc_for_rows(doc, &rows.file_summary());
    let set = candidates(doc, opts)?;
    advise_from_sample(doc, opts, &set, evaluations, rows)
}
