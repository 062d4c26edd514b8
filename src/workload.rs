//! Workload generators (placeholder: replaced by the analyzer work).

use serde::{Deserialize, Serialize};

/// How one field's values are generated (placeholder).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Generator(pub serde_json::Value);

/// Record count, rate and seed of a workload (placeholder).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WorkloadSpec(pub serde_json::Value);
