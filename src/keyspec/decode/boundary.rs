//! A region boundary (a split key, a region's start key) decoded through the key: a boundary
//! is a key's first bytes, not a whole key, so decoding stops where it ends. What it gives is
//! what a key visualizer labels a region with: the salt bucket and the leading fields'
//! values ("salt 07 · host=web03"), a value the boundary may cut marked as a start only.

use serde::Serialize;

use super::{derr, CompiledKey, DecodedField, Decoding, Frame};
use crate::error::Result;
use crate::hbase::bytes;
use crate::keyspec::compile::Op;

/// A region boundary read through the key.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Boundary {
    /// The boundary as toStringBinary text.
    pub key: String,
    /// The salt or hash prefix it opens with, as its digits (`"07"`) or its byte's value,
    /// when the key opens with one and the boundary holds it whole.
    pub salt: Option<String>,
    /// The fields it holds, in the key's order; a value the boundary may cut has `exact:
    /// false` (the values of its range start so).
    pub fields: Vec<DecodedField>,
    /// `salt 07 · host=web03 · ts=…`, or the key's text when it does not read as this key.
    pub label: String,
    /// Whether it read as this key.
    pub decoded: bool,
}

impl Decoding<'_> {
    /// One segment of a boundary: a segment the boundary cuts inside a fixed width ends the
    /// decoding before it; a variable one runs to its separator, else to the boundary's end
    /// (then its value may be cut).
    pub(super) fn run_prefix(
        &mut self,
        op: &Op,
        rest: &[Op],
        cont: &[Frame],
        pos: usize,
    ) -> Result<()> {
        match op {
            Op::When { f, is, then } => return self.run_when(*f, is, then, rest, cont, pos),
            Op::Pk { run, .. } => {
                // A Phoenix key read whole or not at all: a boundary inside it says nothing.
                let snap = self.snapshot();
                if self.run_pk(run, cont, pos).is_err() {
                    self.restore(snap);
                }
                return Ok(());
            }
            _ => {}
        }
        let avail = self.key.len().saturating_sub(pos);
        let (widths, cut) = match op.width() {
            Some(w) if w > avail => return Ok(()),
            Some(w) => (vec![w], false),
            None => match Self::first_of(rest, cont) {
                Some(Op::Lit(sep)) if !sep.is_empty() => {
                    match self.separator_widths(op, sep, pos) {
                        Ok(w) => (w, false),
                        Err(_) => (vec![avail], true),
                    }
                }
                _ => (vec![avail], true),
            },
        };
        let mut first_err = None;
        for w in widths {
            let end = pos.saturating_add(w).min(self.key.len());
            let snap = self.snapshot();
            let part = self.key.get(pos..end).unwrap_or(&[]);
            self.cut = cut;
            let r = self.read(op, part, pos);
            self.cut = false;
            let r = r.and_then(|_| {
                self.spans.push((pos, end));
                self.run(rest, cont, end)
            });
            match r {
                Ok(()) => return Ok(()),
                Err(e) => {
                    self.restore(snap);
                    first_err.get_or_insert(e);
                }
            }
        }
        // A value the boundary cuts may not read (half a character): the boundary ends before.
        if cut {
            return Ok(());
        }
        Err(first_err.unwrap_or_else(|| derr(pos, "no way to split the boundary")))
    }
}

/// The salt's text: its digits when it is written as text, else its bytes' value.
fn salt_text(b: &[u8]) -> String {
    if !b.is_empty() && b.iter().all(u8::is_ascii_digit) {
        return String::from_utf8_lossy(b).into_owned();
    }
    match b {
        [one] => format!("{one:02}"),
        _ => bytes::to_hex(b),
    }
}

impl CompiledKey {
    /// Decode a region boundary: the fields it holds whole or in part, and its label. A
    /// boundary that does not read as this key (another design's split key) is an error.
    pub fn decode_boundary(&self, key: &[u8]) -> Result<Boundary> {
        let text = bytes::to_string_binary(key);
        if key.is_empty() {
            return Ok(Boundary {
                key: text,
                salt: None,
                fields: Vec::new(),
                label: "(first)".into(),
                decoded: true,
            });
        }
        let d = self.walk_with(key, true)?;
        let prefixed = matches!(
            self.ops.first(),
            Some(Op::Salt { .. } | Op::Hash15 { .. } | Op::Md5 { .. } | Op::Md5Hex { .. })
        );
        let salt = prefixed
            .then(|| d.spans.first())
            .flatten()
            .and_then(|&(a, b)| key.get(a..b))
            .map(salt_text);
        // The fields in the order the key holds them (the ops' order, each once).
        let mut order = Vec::new();
        super::collect_fields(&self.ops, &mut order);
        let mut seen = vec![false; self.fields.len()];
        order.retain(|&f| seen.get_mut(f).is_some_and(|s| !std::mem::replace(s, true)));
        let fields: Vec<DecodedField> = order
            .iter()
            .filter_map(|&i| {
                let (name, ty) = self.fields.get(i)?;
                let g = d.got.get(i)?.as_ref()?;
                Some(DecodedField {
                    name: name.clone(),
                    value: g.value.to_json(*ty),
                    exact: g.exact,
                    note: g.note.clone(),
                })
            })
            .collect();
        let mut parts: Vec<String> = salt.iter().map(|s| format!("salt {s}")).collect();
        parts.extend(fields.iter().map(|f| {
            let v = match &f.value {
                serde_json::Value::String(s) => s.clone(),
                v => v.to_string(),
            };
            format!("{}={v}{}", f.name, if f.exact { "" } else { "…" })
        }));
        let label = if parts.is_empty() {
            text.clone()
        } else {
            parts.join(" · ")
        };
        Ok(Boundary {
            key: text,
            salt,
            fields,
            label,
            decoded: true,
        })
    }
}
