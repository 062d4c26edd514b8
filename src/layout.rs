//! Region layouts (placeholder: replaced by the analyzer work).

use serde::{Deserialize, Serialize};

/// How a table is pre-split and auto-split (placeholder).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RegionLayout(pub serde_json::Value);
