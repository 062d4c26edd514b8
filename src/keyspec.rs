//! The key-design language (placeholder: replaced by the key-language work).

use serde::{Deserialize, Serialize};

/// A row key design (placeholder).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeySpec(pub String);
