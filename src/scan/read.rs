//! Reading a read pattern from a JSON tree.

use crate::scan::ReadPattern;
use crate::support::json::{map, string, tagged_reader, u64_, Node, R};

/// A latest read's row count: at least one.
fn latest_n(n: &Node) -> R<u64> {
    match u64_(n)? {
        0 => Err(n.error("a latest read returns at least 1 row (`n` >= 1)")),
        v => Ok(v),
    }
}

tagged_reader! {
    /// A [`ReadPattern`]: `{"type": "prefix", "record": {...}}`.
    pub fn read_pattern(n) -> ReadPattern; "internally tagged enum ReadPattern", tag "type";
    /// The read types and their members, as [`read_pattern`] reads them.
    table READ_PATTERNS;
    "get" => ReadPattern::Get {
        name: opt("name", string),
        record: req("record", map),
    },
    "prefix" => ReadPattern::Prefix {
        name: opt("name", string),
        record: req("record", map),
    },
    "range" => ReadPattern::Range {
        name: opt("name", string),
        from: req("from", map),
        to: req("to", map),
    },
    "latest" => ReadPattern::Latest {
        name: opt("name", string),
        record: req("record", map),
        n: req("n", latest_n),
    },
}

crate::support::json::deserialize_through! {
    ReadPattern => read_pattern,
}
