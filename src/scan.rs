//! Read patterns and scan planning (placeholder: replaced by the analyzer work).

use serde::{Deserialize, Serialize};

/// A read the table must serve (placeholder).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReadPattern(pub serde_json::Value);
