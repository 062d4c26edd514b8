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
    /// One row by its key. Give every field the key reads; a get that leaves one out is
    /// planned as a prefix scan (the notes say so).
    "get" => ReadPattern::Get {
        /// The read's label in reports; absent, its type.
        name: opt("name", string),
        /// The row's fields.
        record: req("record", map),
    },
    /// Every row whose leading key fields equal these.
    "prefix" => ReadPattern::Prefix {
        /// The read's label in reports; absent, its type.
        name: opt("name", string),
        /// The leading fields.
        record: req("record", map),
    },
    /// Rows from `from` (inclusive) to `to` (exclusive): two partial records that agree on
    /// the leading fields and differ in one, such as a time.
    "range" => ReadPattern::Range {
        /// The read's label in reports; absent, its type.
        name: opt("name", string),
        /// The first row's fields.
        from: req("from", map),
        /// The fields of the row the range stops before; above `from`.
        to: req("to", map),
    },
    /// The newest `n` rows of one entity. With a reversed timestamp right after the entity,
    /// each scan stops after `n` rows (`LIMIT`); otherwise the whole entity is read.
    "latest" => ReadPattern::Latest {
        /// The read's label in reports; absent, its type.
        name: opt("name", string),
        /// The entity's fields.
        record: req("record", map),
        /// How many rows, at least 1.
        n: req("n", latest_n),
    },
}

crate::support::json::deserialize_through! {
    ReadPattern => read_pattern,
}
