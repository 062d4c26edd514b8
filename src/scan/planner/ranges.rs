//! The scans of a read: prefix scans of a partial record, and ranges between two records cut
//! at salt buckets, time units or modulo buckets.

use super::*;

impl Planner {
    /// Scans of the rows under the key prefix `vals` writes (one per salt bucket when the
    /// bucket cannot be computed). `whole`: the prefix is the whole row key, and the scan reads
    /// that row alone, `[row, row + \x00)`, as HBase's `Get` does (the prefix range would also
    /// take longer keys that start with it).
    pub(super) fn prefix_ranges(
        &self,
        vals: &Values,
        whole: bool,
        ranges: &mut Vec<(Vec<u8>, Vec<u8>)>,
        notes: &mut Vec<String>,
    ) -> Result<()> {
        let stop = |p: &Vec<u8>| {
            if whole {
                let mut s = p.clone();
                s.push(0);
                s
            } else {
                next_prefix(p)
            }
        };
        match self.salt() {
            Some((_, seg, buckets))
                if !self.known(seg, vals) || matches!(seg.seg, Segment::Random(_)) =>
            {
                notes.push(format!("the salt bucket cannot be computed from the read: one scan per bucket ({buckets})"));
                check_count(buckets as usize)?;
                for b in 0..u64::from(buckets) {
                    let (p, _) = self.prefix(vals, Some(b));
                    ranges.push((p.clone(), stop(&p)));
                }
            }
            _ => {
                let (p, n) = self.prefix(vals, None);
                if n == 0 && !self.segs.is_empty() {
                    notes.push("the read fixes no leading segment: a full-table scan".into());
                }
                ranges.push((p.clone(), stop(&p)));
            }
        }
        Ok(())
    }

    /// Scans for a range read; returns the fields the scan bounds fix (the others given are
    /// filtered).
    pub(super) fn range_ranges(
        &self,
        from: &Values,
        to: &Values,
        ranges: &mut Vec<(Vec<u8>, Vec<u8>)>,
        notes: &mut Vec<String>,
    ) -> Result<Vec<String>> {
        // Fields whose bounds differ.
        let varying: Vec<String> = self
            .decls
            .iter()
            .zip(from.iter().zip(to))
            .filter(|(_, (a, b))| a != b)
            .map(|(d, _)| d.name.clone())
            .collect();
        let reads_varying = |s: &Seg| s.fields.iter().any(|x| varying.contains(x));
        let differs = |s: &Seg| {
            self.encode_seg(s, from).is_none() || self.encode_seg(s, from) != self.encode_seg(s, to)
        };
        // The first segment where the bounds differ (or one is open).
        let diff = self.segs.iter().position(differs);
        // The same, with salts left to the salt logic below and `ts % n` buckets of a varying
        // field counted as varying even when both bounds fall in the same bucket.
        let d_eff = self.segs.iter().position(|s| match &s.seg {
            Segment::Salt(_) | Segment::Random(_) => false,
            Segment::Bucket(b) if b.modulo.is_some() && reads_varying(s) => true,
            _ => differs(s),
        });
        let bounded = d_eff.is_some_and(|i| {
            self.segs
                .get(i)
                .is_some_and(|s| self.known(s, from) && self.known(s, to))
        });
        let mut used = self.fields_before(d_eff.unwrap_or(self.segs.len()));
        if bounded {
            used.extend(varying.iter().cloned());
        }
        let (f, t) = self.flip_reversed(diff, from, to, notes);
        if let Some(i) = diff {
            if let Some(fixed) = self.hashed_range(i, &f, &t, ranges, notes) {
                return Ok(fixed);
            }
        }
        let salt = self.salt();
        let salt_fixed = salt.map_or(true, |(_, seg, _)| {
            self.known(seg, &f) && !matches!(seg.seg, Segment::Random(_)) && !reads_varying(seg)
        });
        // A salt the read cannot compute: its buckets are enumerated too.
        let salt_open = salt.is_some_and(|(_, seg, _)| {
            !self.known(seg, &f) || matches!(seg.seg, Segment::Random(_))
        });
        if let (true, Some(i)) = (salt_fixed || salt_open, d_eff) {
            let open_buckets = match salt {
                Some((_, _, n)) if salt_open => Some(n),
                _ => None,
            };
            if self.modulo_ranges(i, &f, &t, open_buckets, ranges, notes)? {
                return Ok(used);
            }
        }
        match salt {
            Some(salt) => {
                let varies = reads_varying(salt.1);
                self.salted_ranges(salt, varies, &f, &t, ranges, notes)?;
            }
            None => ranges.push((self.bound(&f, None), self.bound(&t, None))),
        }
        Ok(used)
    }

    /// The bounds in key order: swapped and each moved down by one when the first segment
    /// that differs is a reversed timestamp (`[rev(to-1), rev(from-1))`).
    fn flip_reversed(
        &self,
        diff: Option<usize>,
        f: &Values,
        t: &Values,
        notes: &mut Vec<String>,
    ) -> (Values, Values) {
        let Some(Segment::Revts(r)) = diff.and_then(|i| self.segs.get(i)).map(|s| &s.seg) else {
            return (f.clone(), t.clone());
        };
        notes.push("a reversed timestamp: the time range flips, [rev(to-1), rev(from-1))".into());
        let field = r.field.clone();
        let tf = self.ts_of(t, &field).and_then(|x| x.checked_sub(1));
        let ff = self.ts_of(f, &field).and_then(|x| x.checked_sub(1));
        match (tf, ff) {
            (Some(tf), Some(ff)) => (self.with_ts(t, &field, tf), self.with_ts(f, &field, ff)),
            _ => (t.clone(), f.clone()),
        }
    }

    /// A hash at or before segment `i` (the first that differs) that differs between the
    /// bounds: key order is lost, so one scan of the whole hashed space under the segments
    /// before the first hash. Returns the fields that scan fixes; `None` when no hash differs.
    fn hashed_range(
        &self,
        i: usize,
        f: &Values,
        t: &Values,
        ranges: &mut Vec<(Vec<u8>, Vec<u8>)>,
        notes: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        let is_hash = |s: &Seg| {
            matches!(
                s.seg,
                Segment::Md5(_) | Segment::Md5Hex(_) | Segment::Hash15(_)
            )
        };
        let hashed = self.segs.get(..=i).is_some_and(|s| {
            s.iter()
                .any(|s| is_hash(s) && self.encode_seg(s, f) != self.encode_seg(s, t))
        });
        if !hashed {
            return None;
        }
        notes.push("a hash covers the varying field: key order is lost, the range is a scan of the whole hashed space with a filter".into());
        let keep = self.segs.iter().take_while(|s| !is_hash(s)).count();
        let mut pre = Vec::new();
        let mut n = 0;
        for s in self.segs.iter().take(keep) {
            match self.encode_seg(s, f) {
                Some(b) => pre.extend_from_slice(&b),
                None => break,
            }
            n += 1;
        }
        ranges.push((pre.clone(), next_prefix(&pre)));
        Some(self.fields_before(n))
    }

    /// When segment `i` is a `ts % n` bucket of the varying field: one scan per bucket the
    /// range reaches (per salt bucket too, `open_buckets`, when the salt cannot be computed).
    /// `false` (nothing written) when it is not.
    fn modulo_ranges(
        &self,
        i: usize,
        f: &Values,
        t: &Values,
        open_buckets: Option<u32>,
        ranges: &mut Vec<(Vec<u8>, Vec<u8>)>,
        notes: &mut Vec<String>,
    ) -> Result<bool> {
        let Some(
            seg @ Seg {
                seg: Segment::Bucket(bk),
                ..
            },
        ) = self.segs.get(i)
        else {
            return Ok(false);
        };
        let (Some(m), Some(a), Some(b)) = (
            bk.modulo,
            self.ts_of(f, &bk.field),
            self.ts_of(t, &bk.field),
        ) else {
            return Ok(false);
        };
        // The range [a, b) holds b - a values; when that is fewer than the
        // period, only the buckets of those values; otherwise all of them.
        let reach = b.saturating_sub(a).max(0).min(m.unsigned_abs() as i64);
        check_count(reach as usize)?;
        let bs: Vec<Vec<u8>> = (0..reach)
            .filter_map(|k| self.encode_seg(seg, &self.with_ts(f, &bk.field, a + k)))
            .collect();
        let mut bs = crate::hbase::bytes::sorted_keys(&bs);
        bs.dedup();
        notes.push(format!(
            "the key starts a bucket `{} % {m}` of the varying field: one scan per bucket the range reaches ({}), merged by the key after the bucket",
            bk.field,
            bs.len()
        ));
        let salts: Vec<Option<u64>> = match open_buckets {
            Some(n) => (0..u64::from(n)).map(Some).collect(),
            None => vec![None],
        };
        check_count(bs.len().saturating_mul(salts.len()))?;
        for sb in salts {
            for bv in &bs {
                ranges.push((
                    self.bound_with(f, sb, (i, bv)),
                    self.bound_with(t, sb, (i, bv)),
                ));
            }
        }
        Ok(true)
    }

    /// A range under a salt (`salt`: its index, segment and bucket count; `varies`: it reads
    /// a field whose bounds differ): one scan when the salt is the same for the whole range,
    /// pieces cut at the time unit it hashes, or one scan per bucket.
    fn salted_ranges(
        &self,
        (si, seg, buckets): (usize, &Seg, u32),
        varies: bool,
        f: &Values,
        t: &Values,
        ranges: &mut Vec<(Vec<u8>, Vec<u8>)>,
        notes: &mut Vec<String>,
    ) -> Result<()> {
        let computable = self.known(seg, f) && !matches!(seg.seg, Segment::Random(_));
        if computable && !varies {
            ranges.push((self.bound(f, None), self.bound(t, None)));
            return Ok(());
        }
        // The salt hashes a field that varies: cut at its time unit.
        if computable && self.known(seg, t) && self.time_cut(si, seg, f, t, ranges, notes)? {
            return Ok(());
        }
        self.per_bucket(f, t, buckets, ranges, notes)
    }

    /// The range cut at each time unit of the time the salt `seg` (at `si`) hashes, each
    /// piece scanning its own bucket. `false` (nothing written) when the salt hashes no
    /// `time(...)` or a bound has no value for its field.
    fn time_cut(
        &self,
        si: usize,
        seg: &Seg,
        f: &Values,
        t: &Values,
        ranges: &mut Vec<(Vec<u8>, Vec<u8>)>,
        notes: &mut Vec<String>,
    ) -> Result<bool> {
        let Some((field, unit)) = self.salt_time(seg) else {
            return Ok(false);
        };
        let (Some(a), Some(b)) = (self.ts_of(f, &field), self.ts_of(t, &field)) else {
            return Ok(false);
        };
        notes.push(format!("the salt hashes `{field}`: the range is cut at each {} and each piece scans its own bucket", unit.name()));
        // Count the pieces before building any: a range of more than MAX_SCANS pieces (a salt
        // over the second, a day's range) fails at once instead of after encoding 10,000.
        let mut pieces = 0usize;
        let mut lo = a;
        while lo < b {
            let hi = next_boundary(lo, unit).unwrap_or(b).min(b);
            pieces += 1;
            check_count(ranges.len() + pieces)?;
            if hi <= lo {
                break;
            }
            lo = hi;
        }
        let mut lo = a;
        while lo < b {
            let hi = next_boundary(lo, unit).unwrap_or(b).min(b);
            let pf = self.with_ts(f, &field, lo);
            let pt = self.with_ts(t, &field, hi);
            // The piece's bucket comes from its own first instant.
            let bucket = self.encode_seg(seg, &pf);
            let (mut s, n1) = self.prefix(&pf, None);
            s = self.trim_time(s, &pf, n1);
            let mut stop = bucket.unwrap_or_default();
            let (rest, n2) = self.prefix_after_salt(&pt, si);
            stop.extend_from_slice(&rest);
            let stop = self.trim_time(stop, &pt, n2);
            ranges.push((s, stop));
            check_count(ranges.len())?;
            if hi <= lo {
                break;
            }
            lo = hi;
        }
        Ok(true)
    }

    /// The encoded segments after the salt at `si` (the salt itself left out).
    fn prefix_after_salt(&self, vals: &Values, si: usize) -> (Vec<u8>, usize) {
        let mut out = Vec::new();
        let mut n = si + 1;
        for seg in self.segs.iter().skip(si + 1) {
            match self.encode_seg(seg, vals) {
                Some(b) => out.extend_from_slice(&b),
                None => break,
            }
            n += 1;
        }
        (out, n)
    }

    fn per_bucket(
        &self,
        f: &Values,
        t: &Values,
        buckets: u32,
        ranges: &mut Vec<(Vec<u8>, Vec<u8>)>,
        notes: &mut Vec<String>,
    ) -> Result<()> {
        notes.push(format!(
            "one scan per salt bucket ({buckets}), merged by the key after the salt"
        ));
        check_count(buckets as usize)?;
        for b in 0..u64::from(buckets) {
            ranges.push((self.bound(f, Some(b)), self.bound(t, Some(b))));
        }
        Ok(())
    }

    /// The time field and unit a salt's sources read through a `time(...)` segment.
    fn salt_time(&self, seg: &Seg) -> Option<(String, Unit)> {
        let Segment::Salt(sp) = &seg.seg else {
            return None;
        };
        sp.of.as_ref()?.iter().find_map(|s| match s {
            Segment::Time(ts) => Some((ts.field.clone(), pattern_unit(&ts.pattern))),
            _ => None,
        })
    }
}
