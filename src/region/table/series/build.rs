//! The series being built from its readings: the regions alive at each snapshot (with their
//! key ranges and parents), and each interval's rates (per region, per server) and events.

use std::collections::{BTreeSet, HashMap};

use super::read::{Reading, Seen, Server};
use super::{
    Counted, Interval, RegionEvent, RegionRate, SeriesLayout, SeriesRegion, ServerRate, Snapshot,
    TOP_REGIONS,
};
use crate::hbase::bytes::to_string_binary;
use crate::region::{Assignment, KeyEncoding, PreSplit};

/// The series being built: regions, their start keys, readings per snapshot, events.
pub(super) struct Build {
    pub(super) regions: Vec<SeriesRegion>,
    pub(super) starts: Vec<Option<Vec<u8>>>,
    pub(super) seen: Vec<HashMap<usize, Seen>>,
    pub(super) snapshots: Vec<Snapshot>,
    pub(super) events: Vec<RegionEvent>,
    /// (snapshot, region) whose size read 0 before HBase's metrics were filled.
    pub(super) unfilled: BTreeSet<(usize, usize)>,
}

/// Seconds from `a` to `b` ms, when `b` is later.
fn seconds(a: u64, b: u64) -> Option<f64> {
    (b > a).then(|| (b - a) as f64 / 1000.0)
}

/// Whether `[s1, e1)` and `[s2, e2)` overlap (an empty end is the end of the table).
fn overlaps(s1: &[u8], e1: &[u8], s2: &[u8], e2: &[u8]) -> bool {
    (e1.is_empty() || s2 < e1) && (e2.is_empty() || s1 < e2)
}

impl Build {
    /// The regions alive at snapshot `k` (read there, or read before and after it, or last read
    /// on a server with no dump at `k` and not replaced since), in key order (regions without a
    /// start key last), each with its end key when known.
    fn alive(&self, k: usize) -> Vec<(usize, Option<Vec<u8>>)> {
        let mut keyed: Vec<(&[u8], u64, usize)> = Vec::new();
        let mut unkeyed = Vec::new();
        let mut carried = Vec::new();
        for (i, r) in self.regions.iter().enumerate() {
            let read = self.seen.get(k).is_some_and(|m| m.contains_key(&i));
            if !(read || (r.first < k && k < r.last)) {
                if r.last < k && self.server_missing(i, k).is_some() {
                    carried.push(i);
                }
                continue;
            }
            match self.starts.get(i).and_then(Option::as_deref) {
                Some(s) => keyed.push((s, r.region_id.unwrap_or(0), i)),
                None => unkeyed.push(i),
            }
        }
        keyed.sort_unstable();
        // A region kept from its last reading unless a region opened after that reading (a
        // daughter, a merged region; read now or kept too) starts where it does, or covers its
        // start with no region read now between them.
        let start = |i: usize| self.starts.get(i).and_then(Option::as_deref);
        let first = |i: usize| self.regions.get(i).map_or(0, |r| r.first);
        let candidates: Vec<(&[u8], usize)> = keyed
            .iter()
            .map(|&(s, _, i)| (s, i))
            .chain(carried.iter().filter_map(|&i| Some((start(i)?, i))))
            .collect();
        let mut kept = Vec::new();
        for &i in &carried {
            let Some(s) = start(i) else {
                unkeyed.push(i);
                continue;
            };
            let last = self.regions.get(i).map_or(0, |r| r.last);
            let replaced = candidates.iter().any(|&(t, j)| {
                first(j) > last
                    && (t == s || (t < s && !keyed.iter().any(|&(u, _, _)| t < u && u <= s)))
            });
            if !replaced {
                kept.push((
                    s,
                    self.regions.get(i).and_then(|r| r.region_id).unwrap_or(0),
                    i,
                ));
            }
        }
        keyed.extend(kept);
        keyed.sort_unstable();
        let mut out: Vec<(usize, Option<Vec<u8>>)> =
            Vec::with_capacity(keyed.len() + unkeyed.len());
        for (j, &(s, _, i)) in keyed.iter().enumerate() {
            let end = keyed
                .get(j + 1..)
                .and_then(|rest| rest.iter().find(|(t, _, _)| *t > s))
                .map_or_else(Vec::new, |(t, _, _)| t.to_vec());
            out.push((i, Some(end)));
        }
        out.extend(unkeyed.into_iter().map(|i| (i, None)));
        out
    }

    /// Region `r`'s server at its last reading before snapshot `k`, when that server has no
    /// dump at `k`.
    fn server_missing(&self, r: usize, k: usize) -> Option<Server> {
        let server = self.last_reading(r, k)?.reading.server?;
        self.snapshots
            .get(k)
            .is_some_and(|sn| sn.missing_servers.contains(&server.host))
            .then_some(server)
    }

    /// The regions gone between snapshots `k - 1` and `k` whose ranges overlap region `r`'s
    /// at `k`: its split parent or merged regions.
    fn parents(
        &self,
        r: usize,
        end_now: &[u8],
        before: &[(usize, Option<Vec<u8>>)],
        now: &BTreeSet<usize>,
    ) -> Vec<usize> {
        let Some(Some(s)) = self.starts.get(r) else {
            return Vec::new();
        };
        before
            .iter()
            .filter(|(p, _)| !now.contains(p))
            .filter(
                |(p, e)| match (self.starts.get(*p).and_then(Option::as_deref), e) {
                    (Some(ps), Some(pe)) => overlaps(ps, pe, s, end_now),
                    _ => false,
                },
            )
            .map(|(p, _)| *p)
            .collect()
    }

    pub(super) fn interval(&mut self, k: usize) -> Interval {
        let before = self.alive(k - 1);
        let now = self.alive(k);
        let now_set: BTreeSet<usize> = now.iter().map(|(i, _)| *i).collect();
        let from_ms = self.snapshots.get(k - 1).map_or(0, |s| s.time_ms);
        let to_ms = self.snapshots.get(k).map_or(0, |s| s.time_ms);
        let mut rates = Vec::with_capacity(now.len());
        let mut children: Vec<(usize, Vec<usize>)> = Vec::new();
        for (r, end) in &now {
            let (r, end) = (*r, end.clone());
            let cur = self.seen.get(k).and_then(|m| m.get(&r)).cloned();
            let prev = self.seen.get(k - 1).and_then(|m| m.get(&r)).cloned();
            let mut rate = RegionRate {
                region: r,
                start_key: self.regions.get(r).and_then(|g| g.start_key.clone()),
                end_key: end.as_deref().map(to_string_binary),
                server: cur
                    .as_ref()
                    .and_then(|c| c.reading.server.as_ref())
                    .map(Server::name),
                server_missing: false,
                counted: Counted::Gap,
                seconds: None,
                reads_per_sec: None,
                writes_per_sec: None,
                requests_per_sec: None,
                size_bytes: cur.as_ref().and_then(|c| size(&c.reading)),
                growth_bytes_per_sec: None,
                share: None,
            };
            match (&cur, &prev) {
                (Some(c), Some(p)) => self.between(k, r, p, c, &mut rate),
                (Some(c), None) if self.regions.get(r).is_some_and(|g| g.first == k) => {
                    let parents = self.parents(r, end.as_deref().unwrap_or(&[]), &before, &now_set);
                    if !parents.is_empty() {
                        rate.counted = if parents.len() == 1 {
                            Counted::Split
                        } else {
                            Counted::Merged
                        };
                        since_open(&c.reading, seconds(from_ms, c.time_ms), &mut rate);
                        if let Some(g) = self.regions.get_mut(r) {
                            g.parents.clone_from(&parents);
                        }
                        children.push((r, parents));
                    }
                }
                (Some(_), None) => {}
                (None, _) => {
                    let missing = self.server_missing(r, k);
                    rate.server_missing = missing.is_some();
                    rate.server = self
                        .last_reading(r, k)
                        .and_then(|l| l.reading.server)
                        .map(|s| s.name());
                    self.events.push(RegionEvent::Gap {
                        snapshot: k,
                        region: r,
                        missing_server: missing.map(|s| s.host),
                    });
                }
            }
            // A /jmx size of 0 from a region opened within the interval, or that held bytes at
            // its last reading: the metrics wrapper had not run yet (it fills sizes 45 s after
            // the region opens), not an empty region.
            let opened = matches!(
                rate.counted,
                Counted::Split | Counted::Merged | Counted::Reopened
            );
            let held = prev
                .as_ref()
                .and_then(|p| self.size_at(k - 1, r, &p.reading))
                > Some(0);
            if rate.size_bytes == Some(0) && (opened || held) {
                rate.size_bytes = None;
                rate.growth_bytes_per_sec = None;
                self.unfilled.insert((k, r));
            }
            rates.push(rate);
        }
        self.family_events(k, children, &before, &now_set);
        finish(k - 1, from_ms, to_ms, rates)
    }

    /// Region `r`'s size at snapshot `k` from its reading there, unless it was found not filled.
    fn size_at(&self, k: usize, r: usize, reading: &Reading) -> Option<u64> {
        if self.unfilled.contains(&(k, r)) {
            return None;
        }
        size(reading)
    }

    /// The last reading of region `r` before snapshot `k`.
    fn last_reading(&self, r: usize, k: usize) -> Option<Seen> {
        self.seen
            .get(..k)?
            .iter()
            .rev()
            .find_map(|m| m.get(&r).cloned())
    }

    /// A region read at both ends of interval `k`: the difference, or since it reopened.
    fn between(&mut self, k: usize, r: usize, p: &Seen, c: &Seen, rate: &mut RegionRate) {
        let dt = seconds(p.time_ms, c.time_ms);
        rate.seconds = dt;
        let (a, b) = (&p.reading, &c.reading);
        let moved = match (&a.server, &b.server) {
            (Some(x), Some(y)) if x.reopened_on(y) => Some((x, y)),
            _ => None,
        };
        let down = |x: Option<u64>, y: Option<u64>| matches!((x, y), (Some(x), Some(y)) if y < x);
        let reset =
            down(a.reads, b.reads) || down(a.writes, b.writes) || down(requests(a), requests(b));
        if let Some((x, y)) = moved.filter(|(x, y)| x.host != y.host) {
            self.events.push(RegionEvent::Move {
                snapshot: k,
                region: r,
                from: x.name(),
                to: y.name(),
            });
        } else if moved.is_some() || reset {
            self.events.push(RegionEvent::Reopen {
                snapshot: k,
                region: r,
            });
        }
        if moved.is_some() || reset {
            rate.counted = Counted::Reopened;
            since_open(b, dt, rate);
        } else {
            rate.counted = Counted::Difference;
            let per = |x: Option<u64>, y: Option<u64>| Some(y?.checked_sub(x?)? as f64 / dt?);
            rate.reads_per_sec = per(a.reads, b.reads);
            rate.writes_per_sec = per(a.writes, b.writes);
            rate.requests_per_sec = per(requests(a), requests(b));
        }
        // Sizes are gauges, not counters: a reopen keeps the store files.
        if let (Some(x), Some(y), Some(dt)) = (self.size_at(k - 1, r, a), size(b), dt) {
            rate.growth_bytes_per_sec = Some((y as f64 - x as f64) / dt);
        }
    }

    /// Split and merge events of interval `k`, and the regions gone with no successor.
    fn family_events(
        &mut self,
        k: usize,
        children: Vec<(usize, Vec<usize>)>,
        before: &[(usize, Option<Vec<u8>>)],
        now: &BTreeSet<usize>,
    ) {
        let mut split: Vec<(usize, Vec<usize>)> = Vec::new();
        let mut replaced = BTreeSet::new();
        for (child, parents) in children {
            replaced.extend(parents.iter().copied());
            match parents.as_slice() {
                [p] => match split.iter_mut().find(|(q, _)| q == p) {
                    Some((_, d)) => d.push(child),
                    None => split.push((*p, vec![child])),
                },
                _ => self.events.push(RegionEvent::Merge {
                    snapshot: k,
                    parents,
                    merged: child,
                }),
            }
        }
        for (parent, daughters) in split {
            self.events.push(RegionEvent::Split {
                snapshot: k,
                parent,
                daughters,
            });
        }
        for (p, _) in before {
            if !now.contains(p) && !replaced.contains(p) {
                self.events.push(RegionEvent::Gone {
                    snapshot: k,
                    region: *p,
                });
            }
        }
    }
}

/// The regions alive at the end of `iv` (snapshot `k`) as a design's pre-split and placement.
pub(super) fn layout(k: usize, iv: &Interval) -> Option<SeriesLayout> {
    // Without the table's first region the design would have one region more than the series.
    if iv.regions.first()?.start_key.as_deref() != Some("") {
        return None;
    }
    let mut keys = Vec::with_capacity(iv.regions.len());
    for (j, r) in iv.regions.iter().enumerate() {
        let start = r.start_key.clone()?;
        // The first region's empty start key is the table's start, not a split key.
        if j > 0 || !start.is_empty() {
            keys.push(start);
        }
    }
    let servers: Option<Vec<String>> = iv.regions.iter().map(|r| r.server.clone()).collect();
    Some(SeriesLayout {
        snapshot: k,
        regions: iv.regions.iter().map(|r| r.region).collect(),
        presplit: if keys.is_empty() {
            PreSplit::None
        } else {
            PreSplit::Explicit {
                keys,
                encoding: KeyEncoding::StringBinary,
            }
        },
        assignment: servers.map(Assignment::Servers),
    })
}

/// Reads and writes together, or `list_regions`' REQ.
fn requests(r: &Reading) -> Option<u64> {
    match (r.reads, r.writes) {
        (Some(a), Some(b)) => Some(a.saturating_add(b)),
        _ => r.requests,
    }
}

/// Store files and memstore, bytes; unknown while a `/jmx` dump's `storeCount` is 0 (its
/// figures not filled yet: every region has a store per family).
fn size(r: &Reading) -> Option<u64> {
    if r.store_count == Some(0) {
        return None;
    }
    r.store_bytes
        .map(|s| s.saturating_add(r.memstore_bytes.unwrap_or(0)))
}

/// Rates from the counters since the region opened, over `dt` seconds.
fn since_open(r: &Reading, dt: Option<f64>, rate: &mut RegionRate) {
    rate.seconds = dt;
    let per = |x: Option<u64>| Some(x? as f64 / dt?);
    rate.reads_per_sec = per(r.reads);
    rate.writes_per_sec = per(r.writes);
    rate.requests_per_sec = per(requests(r));
}

/// The interval from its rates: shares, the busiest regions, per-server sums.
fn finish(from: usize, from_ms: u64, to_ms: u64, mut regions: Vec<RegionRate>) -> Interval {
    let total: f64 = regions.iter().filter_map(|r| r.requests_per_sec).sum();
    for r in &mut regions {
        r.share = r
            .requests_per_sec
            .filter(|_| total > 0.0)
            .map(|x| x / total);
    }
    let mut top: Vec<usize> = (0..regions.len())
        .filter(|&i| regions.get(i).is_some_and(|r| r.requests_per_sec.is_some()))
        .collect();
    let req = |i: &usize| {
        regions
            .get(*i)
            .and_then(|r| r.requests_per_sec)
            .unwrap_or(0.0)
    };
    top.sort_by(|a, b| req(b).total_cmp(&req(a)).then(a.cmp(b)));
    top.truncate(TOP_REGIONS);
    let mut servers: Vec<ServerRate> = Vec::new();
    for r in &regions {
        let Some(name) = &r.server else { continue };
        let i = match servers.iter().position(|s| &s.server == name) {
            Some(i) => i,
            None => {
                servers.push(ServerRate {
                    server: name.clone(),
                    regions: 0,
                    reads_per_sec: 0.0,
                    writes_per_sec: 0.0,
                    requests_per_sec: 0.0,
                    share: 0.0,
                    server_missing: r.server_missing,
                });
                servers.len() - 1
            }
        };
        if let Some(s) = servers.get_mut(i) {
            s.regions += 1;
            s.reads_per_sec += r.reads_per_sec.unwrap_or(0.0);
            s.writes_per_sec += r.writes_per_sec.unwrap_or(0.0);
            s.requests_per_sec += r.requests_per_sec.unwrap_or(0.0);
        }
    }
    for s in &mut servers {
        s.share = if total > 0.0 {
            s.requests_per_sec / total
        } else {
            0.0
        };
    }
    servers.sort_by(|a, b| a.server.cmp(&b.server));
    let known = regions.iter().any(|r| r.requests_per_sec.is_some());
    Interval {
        from,
        from_ms,
        to_ms,
        regions,
        top,
        servers,
        requests_per_sec: known.then_some(total),
    }
}
