//! Reading the design document from a JSON tree: the document itself and its examples. Each
//! section is read by the module that owns its type (`keyspec`, `workload`, `region`,
//! `scan`), with the same located errors.

use crate::design::{DesignDocument, Example};
use crate::keyspec::read::key_spec;
use crate::region::read::region_layout;
use crate::scan::read::read_pattern;
use crate::support::json::{bool_, list, map, read_object, string, u32_, Node, R};
use crate::workload::read::{field_decl, workload};

// ------------------------------------------------------------------------------------------
// The design document.
// ------------------------------------------------------------------------------------------

/// A [`DesignDocument`] (not yet validated).
pub fn design(n: &Node) -> R<DesignDocument> {
    Ok(read_object!(
        n,
        "struct DesignDocument",
        None,
        DesignDocument {
            v: req("v", u32_),
            name: opt("name", string),
            description: opt("description", string),
            fields: or("fields", |n| list(n, field_decl), Vec::new()),
            key: req("key", key_spec),
            workload: opt("workload", workload),
            regions: opt("regions", region_layout),
            cells: opt("cells", crate::design::cells::cell_spec),
            reads: or("reads", |n| list(n, read_pattern), Vec::new()),
            latest_first: or("latestFirst", bool_, false),
            examples: or("examples", |n| list(n, example), Vec::new()),
            phoenix: opt("phoenix", crate::design::phoenix::section),
        }
    ))
}

fn example(n: &Node) -> R<Example> {
    Ok(read_object!(
        n,
        "struct Example",
        None,
        Example {
            record: req("record", map),
            key: opt("key", hex_key),
            key_binary: opt("keyBinary", string),
            note: opt("note", string),
        }
    ))
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
