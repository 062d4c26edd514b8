//! The HBase release lines whose defaults differ where a table's life depends on them.

use serde::{Deserialize, Serialize};

/// The HBase release line; where 2.5/2.6 and 3.x differ, the simulator follows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum HBaseVersion {
    /// branch-2.5: `overallfiles` false, the balancer's 602-weight function set.
    #[serde(rename = "2.5")]
    V2_5,
    /// branch-2.6 (the default: the line most clusters run): as 2.5.
    #[default]
    #[serde(rename = "2.6")]
    V2_6,
    /// branch-3 and master: `overallfiles` true; CPRequest and StoreFileTableSkew (642).
    #[serde(rename = "3")]
    V3,
}

/// The release lines by their names in a document.
pub const VERSIONS: [(&str, HBaseVersion); 3] = [
    ("2.5", HBaseVersion::V2_5),
    ("2.6", HBaseVersion::V2_6),
    ("3", HBaseVersion::V3),
];

impl HBaseVersion {
    /// `hbase.hregion.split.overallfiles`' default (HBASE-24664 changed it in 3.0).
    pub fn overall_hregion_files(self) -> bool {
        matches!(self, HBaseVersion::V3)
    }

    /// Whether the balancer has the 3.x cost functions (CPRequest, StoreFileTableSkew).
    pub fn balancer_3x(self) -> bool {
        matches!(self, HBaseVersion::V3)
    }
}
