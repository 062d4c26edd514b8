//! How one shared reading hands each row to every design ([`FanSink`]): where each design's
//! values lie in the shared row ([`Map`]), and, on a row with a null, which designs' keys
//! build, so each counts the row or skips it as its own reading would. Apart from
//! [`SharedRows`](super::SharedRows), which drives the reading: here each design is told the
//! row as its own reading would have seen it.

use std::collections::BTreeMap;

use super::MAX_SHARED_DESIGNS;
use crate::analyze::run::rows::indexes::IndexKeyer;
use crate::analyze::run::rows::session::RowsSession;
use crate::error::{Error, Result};
use crate::keyspec::{CompiledKey, FieldValue};
use crate::rows::{NullPolicy, RowSink, RowStats};

/// Where a design's values are in the shared row.
pub(super) enum Map {
    /// Its fields are the shared row's first `n`.
    Prefix(usize),
    /// Its field `i` is the shared row's `at[i]`.
    Gather(Vec<usize>),
}

/// What hands each shared row to every design: where each design's values are, its key (to
/// tell, on a row with a null, which designs' keys build), and the rows one design skipped
/// that another kept.
pub(super) struct Fan {
    pub(super) maps: Vec<Map>,
    /// The shared row's fields some key reads.
    pub(super) used: Vec<usize>,
    /// Per design: the fields its key reads, in its declaration order, as (shared index,
    /// column name): the column a skipped row is counted under, as its reader alone counts it.
    pub(super) own_used: Vec<Vec<(usize, String)>>,
    pub(super) keys: Vec<CompiledKey>,
    /// Per design, its global Phoenix indexes' keyer (`None` without any): a row counts for a
    /// design when its key and every index key build, as its own reading's first pass says.
    pub(super) indexes: Vec<Option<IndexKeyer>>,
    /// Per design, its values gathered ([`Map::Gather`]).
    pub(super) scratch: Vec<Vec<FieldValue>>,
    pub(super) key: Vec<u8>,
    pub(super) nulls: NullPolicy,
    /// Per design, this pass: rows it skipped (`nulls: skip`) that another design kept, by column.
    pub(super) skipped: Vec<BTreeMap<String, u64>>,
    /// Per design, its fields' names (what reading found is told per design).
    pub(super) names: Vec<Vec<String>>,
}

impl Fan {
    /// What reading found, as design `i`'s own reading would have said it: the rows only it
    /// skipped moved from `used` to `skipped`, only its fields' columns.
    pub(super) fn stats_of(&self, i: usize, read: &RowStats) -> RowStats {
        let mut s = read.clone();
        if let Some(skipped) = self.skipped.get(i) {
            for (col, n) in skipped {
                s.used = s.used.saturating_sub(*n);
                let c = s.skipped.entry(col.clone()).or_insert(0);
                *c = c.saturating_add(*n);
            }
        }
        if let Some(names) = self.names.get(i) {
            s.columns.retain(|field, _| names.contains(field));
        }
        s
    }
}

/// Design `i`'s values of the shared row `values`.
fn values_of<'a>(
    map: &Map,
    scratch: &'a mut Vec<FieldValue>,
    values: &'a [FieldValue],
) -> &'a [FieldValue] {
    match map {
        Map::Prefix(n) => values.get(..*n).unwrap_or(values),
        Map::Gather(at) => {
            scratch.clear();
            scratch.extend(
                at.iter()
                    .map(|&u| values.get(u).cloned().unwrap_or(FieldValue::Null)),
            );
            scratch
        }
    }
}

/// The sink the shared reader hands rows to: each to every design whose pass takes rows.
pub(super) struct FanSink<'a> {
    pub(super) fan: &'a mut Fan,
    pub(super) sessions: &'a mut [RowsSession],
}

impl RowSink for FanSink<'_> {
    /// A row leaves no trace when it fails, as a [`RowSink`] must: a row with a null in a
    /// field some key reads is first encoded for every design (its key and its global
    /// indexes' keys, not counted);
    /// when no key builds, the reader skips it (or stops) for all; when some build and
    /// `nulls: skip`, the others count it skipped, as each design's own reading would; under
    /// `nulls: error` the reading stops, as one of them alone would.
    ///
    /// One difference is left: under `nulls: skip`, a row with a null in another design's field
    /// whose key fails for this design on a value that is not null is skipped here, where this
    /// design's own reading would stop at it with the key's error.
    fn row(&mut self, values: &[FieldValue], time_ms: Option<i64>) -> Result<()> {
        let fan = &mut *self.fan;
        let null = fan
            .used
            .iter()
            .any(|&i| matches!(values.get(i), Some(FieldValue::Null)));
        let mut take = [true; MAX_SHARED_DESIGNS];
        if null {
            let mut failed: Option<Error> = None;
            let mut built = false;
            for (i, s) in self.sessions.iter().enumerate() {
                if s.analyzed_from_memory() {
                    continue;
                }
                let (Some(map), Some(scratch), Some(key)) =
                    (fan.maps.get(i), fan.scratch.get_mut(i), fan.keys.get_mut(i))
                else {
                    continue;
                };
                fan.key.clear();
                let own = values_of(map, scratch, values);
                let keyed = key.encode_values_into(&mut fan.key, own).and_then(|()| {
                    match fan.indexes.get_mut(i).and_then(Option::as_mut) {
                        Some(k) => k.encode(own),
                        None => Ok(()),
                    }
                });
                match keyed {
                    Ok(()) => built = true,
                    Err(e) => {
                        if let Some(t) = take.get_mut(i) {
                            *t = false;
                        }
                        failed.get_or_insert(e);
                    }
                }
            }
            if let Some(e) = failed {
                if !built || fan.nulls == NullPolicy::Error {
                    return Err(e);
                }
                for (i, s) in self.sessions.iter().enumerate() {
                    if take.get(i) == Some(&false) && !s.analyzed_from_memory() {
                        let col = fan
                            .own_used
                            .get(i)
                            .and_then(|u| {
                                u.iter().find(|(at, _)| {
                                    matches!(values.get(*at), Some(FieldValue::Null))
                                })
                            })
                            .map_or("?", |(_, c)| c.as_str())
                            .to_string();
                        if let Some(m) = fan.skipped.get_mut(i) {
                            *m.entry(col).or_insert(0) += 1;
                        }
                    }
                }
            }
        }
        for (i, s) in self.sessions.iter_mut().enumerate() {
            if take.get(i) != Some(&true) || s.analyzed_from_memory() {
                continue;
            }
            let (Some(map), Some(scratch)) = (fan.maps.get(i), fan.scratch.get_mut(i)) else {
                continue;
            };
            s.pass_sink()?
                .row(values_of(map, scratch, values), time_ms)?;
        }
        Ok(())
    }
}
