//! `example-key`: a design's examples record the row keys its rows were stored under. A key
//! change that writes other bytes for the same record leaves those rows out of reach of every
//! get and scan the new design makes, so the linter compares each example, as `check` does.

use serde_json::Value;

use super::{finding, Finding, Severity};
use crate::design::{DesignDocument, Example};
use crate::hbase::bytes;
use crate::keyspec::{CompiledKey, SegmentLayout};

const RULE: &str = "example-key";

/// `example 2 (phone 13412341234, ts 1631000000000)`: which example, as a CI log shows it.
fn describe(i: usize, ex: &Example) -> String {
    let mut s = format!("example {i} (");
    for (j, (k, v)) in ex.record.iter().enumerate() {
        s.push_str(if j == 0 { "" } else { ", " });
        s.push_str(k);
        s.push(' ');
        match v {
            Value::String(t) => s.push_str(t),
            other => s.push_str(&crate::support::json::json_text(other)),
        }
    }
    s.push(')');
    s
}

/// One finding per example whose recorded key (`key`, else `keyBinary`) is not what `ck` writes
/// for its record. Bytes a `random(...)` segment draws are not compared: no key matches them.
pub(super) fn check(
    doc: &DesignDocument,
    ck: &mut CompiledKey,
    layout: &[SegmentLayout],
    out: &mut Vec<Finding>,
) {
    for (i, ex) in doc.examples.iter().enumerate() {
        let want = match (&ex.key, &ex.key_binary) {
            // The reader refuses a key that is not hex; were one to get here, it is skipped
            // rather than compared as empty.
            (Some(hex), _) => match bytes::from_hex(hex) {
                Ok(b) => b,
                Err(_) => continue,
            },
            (None, Some(shown)) => bytes::to_bytes_binary_str(shown),
            (None, None) => continue,
        };
        let got = match ck.encode_json(&ex.record) {
            Ok(k) => k,
            Err(e) => {
                out.push(Finding {
                    example: Some(i),
                    ..finding(
                        RULE,
                        Severity::Warning,
                        None,
                        format!(
                            "{}: the design cannot write its record ({e}), so the row stored under its key is out of reach",
                            describe(i, ex)
                        ),
                    )
                });
                continue;
            }
        };
        // Each segment's bytes; a key that cannot be split back is compared whole.
        let spans = ck
            .segment_spans(&got)
            .unwrap_or_else(|_| vec![(0, got.len())]);
        let random =
            |j: usize| spans.len() > 1 && layout.get(j).is_some_and(|l| l.kind == "random");
        let differs =
            |j: usize, (a, b): (usize, usize)| !random(j) && got.get(a..b) != want.get(a..b);
        let first = spans.iter().enumerate().position(|(j, &s)| differs(j, s));
        if first.is_none() && got.len() == want.len() {
            continue;
        }
        let at = first
            .and_then(|j| layout.get(j))
            .map(|l| format!(" (segment `{}` changed)", l.text))
            .unwrap_or_default();
        out.push(Finding {
            example: Some(i),
            ..finding(
            RULE,
            Severity::Warning,
            first,
            format!(
                "{}: the key writes {}, the example says {}{at}; rows stored under the old key are out of reach of this design's gets and scans (a deliberate change needs the table rewritten, and the example updated)",
                describe(i, ex),
                bytes::to_string_binary(&got),
                bytes::to_string_binary(&want),
            ),
        )
        });
    }
}
