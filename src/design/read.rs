//! Reading the design document from a JSON tree: the document itself and its examples. Each
//! section is read by the module that owns its type (`keyspec`, `workload`, `region`,
//! `scan`), with the same located errors.

use crate::design::{DesignDocument, Example};
use crate::keyspec::read::key_spec;
use crate::region::read::region_layout;
use crate::scan::read::read_pattern;
use crate::support::json::{bool_, list, map, object_reader, string, u32_, Node, R};
use crate::workload::read::{field_decl, workload};

// ------------------------------------------------------------------------------------------
// The design document.
// ------------------------------------------------------------------------------------------

object_reader! {
    /// A [`DesignDocument`] (not yet validated).
    pub fn design(n) -> DesignDocument; "struct DesignDocument";
    /// The document's top-level members, as [`design`] reads them.
    table DOCUMENT;
    DesignDocument {
        /// The format version; must be `1`.
        v: req("v", u32_) in 1 ..= 1,
        /// A short name for menus and titles.
        name: opt("name", string),
        /// What the design is for, in a sentence or two.
        description: opt("description", string),
        /// The record's [fields](#fields), in declaration order.
        fields: or("fields", |n| list(n, field_decl), Vec::new()) = "[]",
        /// The row key design: the text form (a string) or the JSON form (an object). See
        /// [`key`](#key).
        key: req("key", key_spec),
        /// How many records are written, how fast, with which seed ([`workload`](#workload)).
        /// Absent: the defaults of every workload member and 100,000 records.
        workload: opt("workload", workload),
        /// How the table is pre-split, split as it grows, and placed on region servers
        /// ([`regions`](#regions)). Absent: one region on one server, never split.
        regions: opt("regions", region_layout),
        /// What a write puts into its row: its column qualifier and the column family's
        /// `VERSIONS` ([`cells`](#cells)). Absent: every write is its own cell.
        cells: opt("cells", crate::design::cells::cell_spec),
        /// The table and cluster its months of life depend on: the family's TTL, compression,
        /// the release line, the normalizer and the balancer ([`hbase`](#hbase)). Absent:
        /// HBase's defaults.
        hbase: opt("hbase", crate::design::table::table_spec),
        /// The [reads](#reads) the table must serve; each is planned as the scans HBase would
        /// run.
        reads: or("reads", |n| list(n, read_pattern), Vec::new()) = "[]",
        /// Reads want the newest rows first; the linter then expects a reversed timestamp.
        latest_first: or("latestFirst", bool_, false) = "false",
        /// Sample records with the row key each one encodes to ([examples](#examples)).
        examples: or("examples", |n| list(n, example), Vec::new()) = "[]",
        /// An Apache Phoenix table's `CREATE TABLE` beyond its primary key: the table name,
        /// the other columns, the table options ([`phoenix`](#phoenix)).
        phoenix: opt("phoenix", crate::design::phoenix::section),
    }
}

object_reader! {
    /// An [`Example`].
    pub(super) fn example(n) -> Example; "struct Example";
    /// An example's members, as [`example`] reads them.
    table EXAMPLE;
    Example {
        /// The record: field name → value, as
        /// [keyspec.md](keyspec.md#records-and-field-types) describes.
        record: req("record", map),
        /// The row key in hex (`Bytes.fromHex`: an even number of digits, either case).
        key: opt("key", hex_key),
        /// The row key as `Bytes.toStringBinary` prints it; compared when `key` is absent.
        key_binary: opt("keyBinary", string),
        /// Where the example comes from, or why it differs from its source.
        note: opt("note", string),
    }
}

/// An example's row key as hex (`Bytes.fromHex`: even length, either case): checked here so
/// a typo is an error at its path rather than a key that never matches.
fn hex_key(n: &Node) -> R<String> {
    let s = string(n)?;
    match crate::hbase::bytes::from_hex(&s) {
        Ok(_) => Ok(s),
        Err(e) => Err(n.error(format!("not a row key in hex: {}", e.message))),
    }
}

crate::support::json::deserialize_through! {
    DesignDocument => design,
}

#[cfg(test)]
mod tests {
    use crate::error::{Error, ErrorKind::Parse};

    #[test]
    fn an_error_at_the_document_root_names_no_path() {
        // The empty JSON pointer is the root: the text starts with the reason, not ": ".
        let e = crate::design::DesignDocument::from_json(r#"{"v": 1}"#).unwrap_err();
        assert_eq!(e.location.path.as_deref(), Some(""));
        assert!(e.to_string().starts_with("missing field `"), "{e}");
        let e = Error::new(Parse, "bad").at_path("/key");
        assert_eq!(e.to_string(), "/key: bad");
    }
}
