//! Rows read per row returned: the share of the workload each given field keeps, from the
//! declared cardinality or the workload's generators, for the fields a scan filters.

use super::planner::Planner;
use super::Values;
use crate::keyspec::FieldValue;
use crate::support::json::json_text;
use crate::support::num_text::{fixed, plain};
use crate::workload::FieldDecl;

impl Planner {
    /// Rows of one entity: records × the share of the records each given field keeps.
    pub(super) fn rows_per_entity(&self, vals: &Values, notes: &mut Vec<String>) -> Option<f64> {
        let mut rows = self.records as f64;
        let mut any = false;
        for (d, v) in self.decls.iter().zip(vals) {
            if !matches!(v, FieldValue::Null) {
                let (share, how) = self.value_share(d, v)?;
                notes.push(format!("`{}`: {how}", d.name));
                rows *= share;
                any = true;
            }
        }
        any.then_some(rows)
    }

    /// The share of the workload's records whose field `d` equals `v`, and how it was
    /// estimated: the value's weight in a weighted generator, else 1 / the declared
    /// cardinality, else 1 / the generator's distinct values (capped by the record count).
    fn value_share(&self, d: &FieldDecl, v: &FieldValue) -> Option<(f64, String)> {
        use crate::workload::Generator as G;
        let recs = self.records.max(1) as f64;
        if let Some(G::Weighted { values, weights }) = &d.generator {
            let total: f64 = weights.iter().sum();
            let w: f64 = values
                .iter()
                .zip(weights)
                .filter(|(x, _)| {
                    FieldValue::from_json(&d.name, d.field_type, x).is_ok_and(|x| &x == v)
                })
                .map(|(_, w)| *w)
                .sum();
            if total > 0.0 && w > 0.0 {
                return Some((
                    w / total,
                    format!(
                        "its weight {} of {} in the workload",
                        plain(w),
                        plain(total)
                    ),
                ));
            }
        }
        if let Some(c) = d.cardinality.filter(|c| *c > 0) {
            return Some((1.0 / c as f64, format!("1 in {c} (declared cardinality)")));
        }
        let distinct = |n: f64, what: &str| {
            let n = n.min(recs).max(1.0);
            Some((
                1.0 / n,
                format!("1 in {} (the workload's {what})", plain(n)),
            ))
        };
        match d.generator.as_ref()? {
            G::Sequence { .. } | G::Clock { .. } | G::Uuid { .. } | G::UniformDouble { .. } => {
                distinct(recs, "records: each value once")
            }
            G::UniformInt { min, max } | G::Hotspot { min, max, .. } => {
                distinct((*max as f64 - *min as f64 + 1.0).max(1.0), "integer range")
            }
            G::UniformString { length, alphabet } => {
                let k = alphabet.as_ref().map_or(62, |a| a.chars().count()) as f64;
                // `powi`: exact below 2^53, where the clamp to the record count can bite; `powf`
                // linked a 2 kB `pow` into the wasm for these two estimates.
                distinct(k.powi(pow_exp(*length)), "random strings")
            }
            G::Zipf { n, .. } => distinct(*n as f64, "zipf values"),
            G::Latest { window, .. } => distinct(window.map_or(recs, |w| w as f64), "latest ids"),
            G::Weighted { values, .. } => distinct(values.len() as f64, "weighted values"),
            G::List { values, .. } => {
                // As bytes, sorted by reference: the count needs no sorted copy, and the sort
                // is the byte-string one the wasm already has (bytes::sorted_keys).
                let u: Vec<Vec<u8>> = values.iter().map(|v| json_text(v).into_bytes()).collect();
                let mut refs: Vec<&Vec<u8>> = u.iter().collect();
                refs.sort_unstable();
                refs.dedup();
                distinct(refs.len() as f64, "list values")
            }
            G::Phone {
                distinct: Some(n), ..
            } => distinct(*n as f64, "distinct phones"),
            G::Phone { digits, .. } => distinct(10f64.powi(pow_exp(*digits)), "phone numbers"),
            G::Constant { .. } => Some((1.0, "a constant in the workload".into())),
            G::Boolean { p } => Some((
                if matches!(v, FieldValue::Bool(true)) {
                    *p
                } else {
                    1.0 - *p
                }
                .max(1.0 / recs)
                .min(1.0),
                "the workload's boolean probability".into(),
            )),
        }
    }

    /// The share of the workload's records whose field `d` lies in `[a, b)`: the overlap
    /// of the range with the clock's time span, or the sequence values inside it.
    fn range_share(&self, d: &FieldDecl, a: &FieldValue, b: &FieldValue) -> Option<(f64, String)> {
        use crate::workload::Generator as G;
        let (FieldValue::Long(a), FieldValue::Long(b)) = (a, b) else {
            return None;
        };
        let (a, b) = (*a as f64, *b as f64);
        let w = self.workload.as_ref()?;
        let recs = w.records.max(1) as f64;
        let (lo, hi, what) = match d.generator.as_ref()? {
            G::Clock { start, rate, .. } => {
                let s = start.unwrap_or(w.start_time) as f64;
                let r = rate.unwrap_or(w.write_rate);
                (r > 0.0).then_some(())?;
                (s, s + recs * 1000.0 / r, "time span")
            }
            G::Sequence { start, step } if *step > 0 => {
                let s = *start as f64;
                (s, s + recs * *step as f64, "sequence")
            }
            _ => return None,
        };
        let share = ((b.min(hi) - a.max(lo)) / (hi - lo)).clamp(0.0, 1.0);
        (share > 0.0).then(|| {
            (
                share,
                format!(
                    "the range keeps {} of the workload's {what}",
                    fixed(share, 4)
                ),
            )
        })
    }

    /// Rows read per row returned: 1 / the product of the shares of the given fields the
    /// scan bounds do not fix (they are filtered), each estimated from the declared
    /// cardinality or the workload, as the notes say. `None` when one cannot be estimated.
    pub(super) fn estimate(
        &self,
        f: &Values,
        t: Option<&Values>,
        used: &[String],
        notes: &mut Vec<String>,
    ) -> Option<f64> {
        let mut factor = 1f64;
        let mut known = true;
        for (i, (d, v)) in self.decls.iter().zip(f).enumerate() {
            if matches!(v, FieldValue::Null) || used.contains(&d.name) {
                continue;
            }
            let other = t.and_then(|t| t.get(i)).filter(|o| *o != v);
            let share = match other {
                Some(o) => self.range_share(d, v, o),
                None => self.value_share(d, v),
            };
            match share {
                Some((s, how)) => {
                    notes.push(format!(
                        "`{}` is not fixed by the scan bounds: it is filtered, not scanned ({how})",
                        d.name
                    ));
                    factor /= s;
                }
                None => {
                    notes.push(format!(
                        "`{}` is not fixed by the scan bounds: it is filtered, and its selectivity cannot be estimated",
                        d.name
                    ));
                    known = false;
                }
            }
        }
        known.then_some(factor.max(1.0))
    }
}
/// A generator's length or digit count as a `powi` exponent (they are small; saturating).
fn pow_exp(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}
