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
        f: &Values,
        t: &Values,
        ranges: &mut Vec<(Vec<u8>, Vec<u8>)>,
        notes: &mut Vec<String>,
    ) -> Result<Vec<String>> {
        // Fields whose bounds differ.
        let varying: Vec<String> = self
            .decls
            .iter()
            .zip(f.iter().zip(t))
            .filter(|(_, (a, b))| a != b)
            .map(|(d, _)| d.name.clone())
            .collect();
        let reads_varying = |s: &Seg| s.fields.iter().any(|x| varying.contains(x));
        // The first segment where the bounds differ (or one is open).
        let diff = self.segs.iter().position(|s| {
            self.encode_seg(s, f).is_none() || self.encode_seg(s, f) != self.encode_seg(s, t)
        });
        // The same, with salts left to the salt logic below and `ts % n` buckets of a varying
        // field counted as varying even when both bounds fall in the same bucket.
        let d_eff = self.segs.iter().position(|s| match &s.seg {
            Segment::Salt(_) | Segment::Random(_) => false,
            Segment::Bucket(b) if b.modulo.is_some() && reads_varying(s) => true,
            _ => self.encode_seg(s, f).is_none() || self.encode_seg(s, f) != self.encode_seg(s, t),
        });
        let bounded = d_eff.is_some_and(|i| {
            self.segs
                .get(i)
                .is_some_and(|s| self.known(s, f) && self.known(s, t))
        });
        let mut used = self.fields_before(d_eff.unwrap_or(self.segs.len()));
        if bounded {
            used.extend(varying.iter().cloned());
        }
        let flip = matches!(
            diff.and_then(|i| self.segs.get(i)).map(|s| &s.seg),
            Some(Segment::Revts(_))
        );
        let (f, t) = if flip {
            notes.push(
                "a reversed timestamp: the time range flips, [rev(to-1), rev(from-1))".into(),
            );
            let field = match diff.and_then(|i| self.segs.get(i)).map(|s| &s.seg) {
                Some(Segment::Revts(r)) => r.field.clone(),
                _ => String::new(),
            };
            let tf = self.ts_of(t, &field).and_then(|x| x.checked_sub(1));
            let ff = self.ts_of(f, &field).and_then(|x| x.checked_sub(1));
            match (tf, ff) {
                (Some(tf), Some(ff)) => (self.with_ts(t, &field, tf), self.with_ts(f, &field, ff)),
                _ => (t.clone(), f.clone()),
            }
        } else {
            (f.clone(), t.clone())
        };
        if let Some(i) = diff {
            let is_hash = |s: &Seg| {
                matches!(
                    s.seg,
                    Segment::Md5(_) | Segment::Md5Hex(_) | Segment::Hash15(_)
                )
            };
            let hashed = self.segs.get(..=i).is_some_and(|s| {
                s.iter()
                    .any(|s| is_hash(s) && self.encode_seg(s, &f) != self.encode_seg(s, &t))
            });
            if hashed {
                notes.push("a hash covers the varying field: key order is lost, the range is a scan of the whole hashed space with a filter".into());
                let keep = self.segs.iter().take_while(|s| !is_hash(s)).count();
                let mut pre = Vec::new();
                let mut n = 0;
                for s in self.segs.iter().take(keep) {
                    match self.encode_seg(s, &f) {
                        Some(b) => pre.extend_from_slice(&b),
                        None => break,
                    }
                    n += 1;
                }
                ranges.push((pre.clone(), next_prefix(&pre)));
                return Ok(self.fields_before(n));
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
        // A `ts % n` bucket of the varying field: every bucket the range can reach.
        if let (true, Some(i)) = (salt_fixed || salt_open, d_eff) {
            if let Some(Seg {
                seg: Segment::Bucket(bk),
                ..
            }) = self.segs.get(i)
            {
                if let (Some(m), Some(a), Some(b)) = (
                    bk.modulo,
                    self.ts_of(&f, &bk.field),
                    self.ts_of(&t, &bk.field),
                ) {
                    let seg = &self.segs[i];
                    // The range [a, b) holds b - a values; when that is fewer than the
                    // period, only the buckets of those values; otherwise all of them.
                    let reach = b.saturating_sub(a).max(0).min(m.unsigned_abs() as i64);
                    check_count(reach as usize)?;
                    let bs: Vec<Vec<u8>> = (0..reach)
                        .filter_map(|k| self.encode_seg(seg, &self.with_ts(&f, &bk.field, a + k)))
                        .collect();
                    let mut bs = crate::hbase::bytes::sorted_keys(&bs);
                    bs.dedup();
                    notes.push(format!(
                        "the key starts a bucket `{} % {m}` of the varying field: one scan per bucket the range reaches ({}), merged by the key after the bucket",
                        bk.field,
                        bs.len()
                    ));
                    let salts: Vec<Option<u64>> = match salt {
                        Some((_, _, n)) if salt_open => (0..u64::from(n)).map(Some).collect(),
                        _ => vec![None],
                    };
                    check_count(bs.len().saturating_mul(salts.len()))?;
                    for sb in salts {
                        for bv in &bs {
                            ranges.push((
                                self.bound_with(&f, sb, (i, bv)),
                                self.bound_with(&t, sb, (i, bv)),
                            ));
                        }
                    }
                    return Ok(used);
                }
            }
        }
        match salt {
            Some((si, seg, buckets)) => {
                let computable = self.known(seg, &f) && !matches!(seg.seg, Segment::Random(_));
                if computable && !reads_varying(seg) {
                    ranges.push((self.bound(&f, None), self.bound(&t, None)));
                } else if computable && self.known(seg, &t) {
                    // The salt hashes a field that varies: cut at its time unit.
                    let Some((field, unit)) = self.salt_time(seg) else {
                        self.per_bucket(&f, &t, buckets, ranges, notes)?;
                        return Ok(used);
                    };
                    let (Some(a), Some(b)) = (self.ts_of(&f, &field), self.ts_of(&t, &field))
                    else {
                        self.per_bucket(&f, &t, buckets, ranges, notes)?;
                        return Ok(used);
                    };
                    notes.push(format!("the salt hashes `{field}`: the range is cut at each {} and each piece scans its own bucket", unit.name()));
                    let mut lo = a;
                    while lo < b {
                        let hi = next_boundary(lo, unit).unwrap_or(b).min(b);
                        let pf = self.with_ts(&f, &field, lo);
                        let pt = self.with_ts(&t, &field, hi);
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
                } else {
                    self.per_bucket(&f, &t, buckets, ranges, notes)?;
                }
            }
            None => ranges.push((self.bound(&f, None), self.bound(&t, None))),
        }
        Ok(used)
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
