//! Months of life (issue 58): the research file's worked numbers for the split policies, the
//! normalizer and the balancer, and scenarios whose expected figures are derived by hand.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use rowkey_lab::design::DesignDocument;
use rowkey_lab::error::Result;
use rowkey_lab::life::{settings_for_design, LifeOptions, LifeSettings};

/// A run's options from JSON, read as every binding reads them.
fn opts(v: serde_json::Value) -> LifeOptions {
    LifeOptions::from_json(&v.to_string()).unwrap_or_else(|e| panic!("{v}: {e}"))
}

/// The settings `v` (a run's options as JSON) gives over the design's, or the error reading
/// or checking them.
fn settings_of(doc: &DesignDocument, v: serde_json::Value) -> Result<LifeSettings> {
    settings_for_design(doc, &LifeOptions::from_json(&v.to_string())?)
}

mod balancer;
mod normalizer;
mod policy;

mod chores;
mod design;
mod diagnosis;
mod errors;
mod indexes;
mod months;
#[cfg(feature = "rows")]
mod rows;
mod scenarios;
