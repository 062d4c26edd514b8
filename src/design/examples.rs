//! A design's examples as key tests: the key each example's record gets now against the one
//! recorded, and the document with the moved keys rewritten when a key change is deliberate.
//! The verdict of each example is the linter's `example-key` rule (it skips the bytes a
//! `random(...)` segment draws), so the CLI, the page and the library agree.

use std::collections::BTreeMap;

use serde::Serialize;

use super::lint::example_findings;
use super::{DesignDocument, Example, Finding};
use crate::error::Result;
use crate::hbase::bytes::{to_hex, to_string_binary};
use crate::keyspec::CompiledKey;

/// What an example's recorded key says against the key the design writes now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ExampleStatus {
    /// The design writes the recorded key.
    Same,
    /// The design writes another key than the recorded one.
    Moved,
    /// No key is recorded; the design writes one.
    Unrecorded,
    /// The design cannot write the record (a value does not fit its field).
    Error,
}

/// One example checked against the design.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExampleKey {
    /// The example's index in the document.
    pub index: usize,
    /// The record.
    pub record: serde_json::Map<String, serde_json::Value>,
    /// The recorded key as hex.
    pub key: Option<String>,
    /// The recorded key as toStringBinary text.
    pub key_binary: Option<String>,
    /// The key the design writes now, as hex (`None` when it cannot write it).
    pub key_now: Option<String>,
    /// The same key as toStringBinary text.
    pub key_binary_now: Option<String>,
    /// The verdict.
    pub status: ExampleStatus,
    /// Why it moved or failed, in words.
    pub message: Option<String>,
    /// The linter flags it (a recorded key the design no longer writes): a failed key test.
    pub failed: bool,
}

/// Every example of `doc` against the key the design writes now.
pub fn check_examples(doc: &DesignDocument) -> Result<Vec<ExampleKey>> {
    let mut codec = CompiledKey::new(&doc.key, &doc.key_fields())?;
    let findings: BTreeMap<usize, Finding> = example_findings(doc, &mut codec)
        .into_iter()
        .filter_map(|f| f.example.map(|i| (i, f)))
        .collect();
    Ok(doc
        .examples
        .iter()
        .enumerate()
        .map(|(i, ex)| example_key(i, ex, &mut codec, findings.get(&i)))
        .collect())
}

fn example_key(
    index: usize,
    ex: &Example,
    codec: &mut CompiledKey,
    finding: Option<&Finding>,
) -> ExampleKey {
    let (now, error) = match codec.encode_json(&ex.record) {
        Ok(k) => (Some(k), None),
        Err(e) => (None, Some(e.message.clone())),
    };
    let recorded = ex.key.is_some() || ex.key_binary.is_some();
    let status = match (recorded, finding.is_some(), error.is_some()) {
        (false, _, true) => ExampleStatus::Error,
        (false, _, false) => ExampleStatus::Unrecorded,
        (true, true, true) => ExampleStatus::Error,
        (true, true, false) => ExampleStatus::Moved,
        (true, false, _) => ExampleStatus::Same,
    };
    ExampleKey {
        index,
        record: ex.record.clone(),
        key: ex.key.clone(),
        key_binary: ex.key_binary.clone(),
        key_now: now.as_deref().map(to_hex),
        key_binary_now: now.as_deref().map(to_string_binary),
        status,
        message: finding.map(|f| f.message.clone()).or(error),
        failed: finding.is_some(),
    }
}

/// `doc` with every moved example's recorded key (hex, toStringBinary, whichever it records)
/// rewritten to the key the design writes now: for a deliberate key change. Examples the
/// design cannot write keep their keys. Also returns the check it was made from.
pub fn update_examples(doc: &DesignDocument) -> Result<(DesignDocument, Vec<ExampleKey>)> {
    let checked = check_examples(doc)?;
    let mut updated = doc.clone();
    for (ex, c) in updated.examples.iter_mut().zip(&checked) {
        if c.status != ExampleStatus::Moved {
            continue;
        }
        if ex.key.is_some() {
            ex.key.clone_from(&c.key_now);
        }
        if ex.key_binary.is_some() {
            ex.key_binary.clone_from(&c.key_binary_now);
        }
    }
    Ok((updated, checked))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(examples: &str) -> DesignDocument {
        let text = format!(
            r#"{{"v": 1, "fields": [{{"name": "id", "type": "long"}}], "key": "long(id)",
                "examples": {examples}}}"#
        );
        DesignDocument::from_json(&text).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn each_status_from_the_key_the_design_writes() {
        // long(7) is 0000000000000007; the second example records another key.
        let d = doc(r#"[{"record": {"id": 7}, "key": "0000000000000007"},
                {"record": {"id": 8}, "key": "0000000000000007"},
                {"record": {"id": 9}},
                {"record": {"id": "x"}}]"#);
        let got: Vec<ExampleStatus> = check_examples(&d)
            .unwrap_or_else(|e| panic!("{e}"))
            .iter()
            .map(|c| c.status)
            .collect();
        assert_eq!(
            got,
            [
                ExampleStatus::Same,
                ExampleStatus::Moved,
                ExampleStatus::Unrecorded,
                ExampleStatus::Error
            ]
        );
    }

    #[test]
    fn update_rewrites_only_moved_keys() {
        let d = doc(r#"[{"record": {"id": 7}, "key": "0000000000000007"},
                {"record": {"id": 8}, "key": "0000000000000007", "keyBinary": "old"}]"#);
        let (u, checked) = update_examples(&d).unwrap_or_else(|e| panic!("{e}"));
        assert!(checked[1].failed && !checked[0].failed);
        assert_eq!(u.examples[0], d.examples[0]);
        assert_eq!(u.examples[1].key.as_deref(), Some("0000000000000008"));
        assert_eq!(
            u.examples[1].key_binary.as_deref(),
            Some("\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x08")
        );
        // Updated, the design passes its own key tests.
        assert!(check_examples(&u)
            .unwrap_or_else(|e| panic!("{e}"))
            .iter()
            .all(|c| !c.failed));
    }
}
