//! Reads of a Phoenix primary key: the scans Phoenix runs for a query on the leading key
//! columns. The bounds are the columns' own bytes (`PTableImpl.newKey` of the leading
//! columns), a DESC column's range is inverted (`[next(to), next(from))` over the inverted
//! bytes), and a salted table runs the scan once per salt bucket, each behind its bucket byte.

use std::sync::Arc;

use super::*;
use crate::hbase::phoenix::{PhoenixType, SortOrder};
use crate::keyspec::phoenix::PkRun;

/// What a Phoenix read plan found: rows read per row returned, and the scan limit.
type Found = (Option<f64>, Option<u64>);

impl Planner {
    /// The key fields as the Phoenix run reads them.
    fn key_fields(&self) -> Vec<(String, crate::keyspec::FieldType)> {
        self.decls
            .iter()
            .map(|d| (d.name.clone(), d.field_type))
            .collect()
    }

    /// The number of leading key columns `vals` gives.
    fn leading(&self, run: &PkRun, vals: &Values) -> usize {
        run.fields
            .iter()
            .take_while(|&&f| vals.get(f).is_some_and(|v| !matches!(v, FieldValue::Null)))
            .count()
    }

    /// Each bucket's copy of `[start, stop)` behind its salt byte (`stop` empty: to the end of
    /// the bucket), or the range itself in an unsalted table.
    fn pk_per_bucket(
        run: &PkRun,
        start: &[u8],
        stop: Option<&[u8]>,
        ranges: &mut Vec<(Vec<u8>, Vec<u8>)>,
        notes: &mut Vec<String>,
    ) -> Result<()> {
        let Some(n) = run.table.salt_buckets else {
            ranges.push((start.to_vec(), stop.map_or_else(Vec::new, <[u8]>::to_vec)));
            return Ok(());
        };
        notes.push(format!(
            "SALT_BUCKETS = {n}: the salt byte hashes the whole key, so the read runs one scan per bucket ({n}) and merges them"
        ));
        check_count(usize::try_from(n).unwrap_or(usize::MAX))?;
        for b in 0..n {
            let mut s = vec![b as u8];
            s.extend_from_slice(start);
            let stop = match stop {
                Some(x) => {
                    let mut t = vec![b as u8];
                    t.extend_from_slice(x);
                    t
                }
                None => next_prefix(&[b as u8]),
            };
            ranges.push((s, stop));
        }
        Ok(())
    }

    /// The scans of a get, prefix or latest read of a Phoenix key.
    fn phoenix_point(
        &self,
        run: &Arc<PkRun>,
        read: &ReadPattern,
        vals: &Values,
        ranges: &mut Vec<(Vec<u8>, Vec<u8>)>,
        notes: &mut Vec<String>,
    ) -> Result<Found> {
        let fields = self.key_fields();
        let n = run.table.columns.len();
        let k = self.leading(run, vals);
        let used: Vec<String> = run
            .fields
            .iter()
            .take(k)
            .filter_map(|&f| fields.get(f).map(|x| x.0.clone()))
            .collect();
        if k == n {
            // The whole key: its salt byte is computed, and the scan reads that row alone.
            let mut key = run.leading_bytes(&fields, vals, n)?;
            if let Some(b) = run.table.salt_buckets {
                let salt = crate::hbase::salt::phoenix::salt_for(&key, b)?;
                key.insert(0, salt);
            }
            let mut stop = key.clone();
            stop.push(0);
            ranges.push((key, stop));
            if matches!(
                read,
                ReadPattern::Prefix { .. } | ReadPattern::Latest { .. }
            ) {
                notes.push("the read gives every key column: one row".into());
            }
            return Ok((self.estimate(vals, None, &used, notes), None));
        }
        if matches!(read, ReadPattern::Get { .. }) {
            notes.push(
                "the record does not give every key column: this get is a prefix scan".into(),
            );
        }
        let mut prefix = run.leading_bytes(&fields, vals, k)?;
        // A variable-width ASC column ends at its 00 separator (a DESC one already ends
        // with ff): the prefix must not match longer values that start with it.
        if let Some(c) = k.checked_sub(1).and_then(|i| run.table.columns.get(i)) {
            if !c.data_type.is_fixed_width() && c.sort_order == SortOrder::Asc {
                prefix.push(crate::hbase::phoenix::rowkey::SEPARATOR_BYTE);
            }
        }
        if k == 0 {
            notes.push("the read fixes no leading key column: a full-table scan".into());
        }
        let stop = next_prefix(&prefix);
        Self::pk_per_bucket(
            run,
            &prefix,
            (!stop.is_empty()).then_some(stop.as_slice()),
            ranges,
            notes,
        )?;
        let mut limit = None;
        let filter = self.estimate(vals, None, &used, notes);
        if let ReadPattern::Latest { n: want, .. } = read {
            let next = run.table.columns.get(k);
            let newest_first = next.is_some_and(|c| {
                c.sort_order == SortOrder::Desc
                    && matches!(
                        c.data_type,
                        PhoenixType::Date | PhoenixType::Time | PhoenixType::Timestamp
                    )
            });
            match (newest_first, run.table.salt_buckets) {
                (true, None) => {
                    limit = Some(*want);
                    notes.push(format!("a DESC time column follows the entity: the newest rows come first, a scan with limit {want} reads {want} rows"));
                }
                (true, Some(b)) => {
                    // Each bucket's scan meets its newest rows first; the client merges them.
                    limit = Some(*want);
                    notes.push(format!("a DESC time column follows the entity: each of the {b} bucket scans reads at most {want} rows, newest first, and the {b} × {want} rows are merged for the newest {want}"));
                    return Ok((filter.map(|f| f * f64::from(b)), limit));
                }
                (false, _) => {
                    // Every row of the entity is read to return its newest `want`.
                    let entity = self.rows_per_entity(vals, notes);
                    notes.push(format!("the entity's rows are not newest-first: the whole entity is read to find the newest {want} (a DESC time column after the entity would let a scan stop after {want} rows)"));
                    let rows = entity
                        .zip(filter)
                        .map(|(e, f)| (e * f / e.max(1.0).min((*want).max(1) as f64)).max(1.0));
                    return Ok((rows, limit));
                }
            }
        }
        Ok((filter, limit))
    }

    /// The scans of a range read of a Phoenix key: the leading columns both bounds give,
    /// then the first column where they differ, bounded by its two values.
    fn phoenix_range(
        &self,
        run: &Arc<PkRun>,
        from: &Values,
        to: &Values,
        ranges: &mut Vec<(Vec<u8>, Vec<u8>)>,
        notes: &mut Vec<String>,
    ) -> Result<Found> {
        let fields = self.key_fields();
        let n = run.table.columns.len();
        let given = |v: &Values, f: usize| v.get(f).is_some_and(|x| !matches!(x, FieldValue::Null));
        let d = run
            .fields
            .iter()
            .position(|&f| !given(from, f) || !given(to, f) || from.get(f) != to.get(f))
            .unwrap_or(n);
        let mut used: Vec<String> = run
            .fields
            .iter()
            .take(d + 1)
            .filter_map(|&f| fields.get(f).map(|x| x.0.clone()))
            .collect();
        let Some((c, &f)) = run.table.columns.get(d).zip(run.fields.get(d)) else {
            return self.phoenix_point(
                run,
                &ReadPattern::Get {
                    name: None,
                    record: Map::new(),
                },
                from,
                ranges,
                notes,
            );
        };
        let prefix = {
            let mut p = run.leading_bytes(&fields, from, d)?;
            if let Some(prev) = d.checked_sub(1).and_then(|i| run.table.columns.get(i)) {
                if !prev.data_type.is_fixed_width() && prev.sort_order == SortOrder::Asc {
                    p.push(crate::hbase::phoenix::rowkey::SEPARATOR_BYTE);
                }
            }
            p
        };
        let bound = |v: &Values| -> Result<Option<Vec<u8>>> {
            if given(v, f) {
                Ok(Some(run.leading_bytes(&fields, v, d + 1)?))
            } else {
                Ok(None)
            }
        };
        let (lo, hi) = (bound(from)?, bound(to)?);
        let (start, stop) = if c.sort_order == SortOrder::Desc {
            notes.push(format!(
                "{} is DESC: its bytes are inverted, so the range runs from the upper bound's bytes to the lower's",
                c.name
            ));
            (
                hi.map_or_else(|| prefix.clone(), |h| next_prefix(&h)),
                lo.map_or_else(|| next_prefix(&prefix), |l| next_prefix(&l)),
            )
        } else {
            (
                lo.unwrap_or_else(|| prefix.clone()),
                hi.unwrap_or_else(|| next_prefix(&prefix)),
            )
        };
        if !given(from, f) || !given(to, f) {
            used.pop();
        }
        Self::pk_per_bucket(
            run,
            &start,
            (!stop.is_empty()).then_some(stop.as_slice()),
            ranges,
            notes,
        )?;
        Ok((self.estimate(from, Some(to), &used, notes), None))
    }

    /// The scans of any read of a Phoenix key.
    pub(super) fn phoenix_ranges(
        &self,
        run: &Arc<PkRun>,
        read: &ReadPattern,
        ranges: &mut Vec<(Vec<u8>, Vec<u8>)>,
        notes: &mut Vec<String>,
    ) -> Result<Found> {
        match read {
            ReadPattern::Get { record, .. }
            | ReadPattern::Prefix { record, .. }
            | ReadPattern::Latest { record, .. } => {
                let vals = self.values(record, "record")?;
                self.phoenix_point(run, read, &vals, ranges, notes)
            }
            ReadPattern::Range { from, to, .. } => {
                let f = self.values(from, "from")?;
                let t = self.values(to, "to")?;
                self.phoenix_range(run, &f, &t, ranges, notes)
            }
        }
    }
}
