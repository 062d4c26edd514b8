//! The table over time: regions with their memstores and store files, stepped hour by hour,
//! and inside each step the events at their own times: a flush each time a memstore reaches the
//! flush size (so a region written at 16 flush sizes an hour makes 16 files that hour), the
//! compaction checker, the normalizer and the balancer at their own periods. The month's
//! figures are gathered as it goes.

use super::keys::{LaneOrder, Lanes, LifeWorkload};
use super::report::{LifeMonth, ServerMonth};
use super::settings::{LifeSettings, MIB};
use super::store::{self, Bins, Profile, StoreFile};
use crate::hbase::policy::{PolicyLimits, SplitConfig};

/// Days in a month.
pub const MONTH_DAYS: u32 = 30;
/// The most flushes of one region an hour: a region written faster (a rate no table takes,
/// 32 GiB an hour at the default flush size) has its flushes taken this many to the hour, each
/// larger than the flush size, so the work stays bounded; the report says when.
pub const MAX_FLUSHES_PER_HOUR: f64 = 256.0;
/// The most events a trace keeps (the first ones).
pub const MAX_EVENTS: usize = 1_000_000;

/// What happened when ([`crate::life::simulate_events`]).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    /// Seconds from the table's creation.
    pub seconds: f64,
    /// What happened.
    pub kind: EventKind,
    /// The region's id (0 for a chore's look at the table).
    pub region: u64,
    /// Files written or read: 1 for a flush, the files selected for a compaction; the regions
    /// merged for a merge.
    pub files: u32,
    /// On-disk bytes: the flushed file, the compaction's output, the merged region's.
    pub bytes: f64,
}

/// The kinds of [`Event`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub enum EventKind {
    /// A memstore flushed into one store file.
    Flush,
    /// A region split (by its policy or the normalizer's plan).
    Split,
    /// The normalizer's split plan carried out (after its `Split`).
    NormalizerSplit,
    /// Adjacent regions merged by the normalizer.
    Merge,
    /// The balancer moved a region.
    Move,
    /// A minor compaction (Exploring's selection).
    MinorCompaction,
    /// A major compaction (every file).
    MajorCompaction,
    /// The normalizer chore looked at the table (a look that would see nothing new is skipped).
    NormalizerLook,
    /// The balancer chore looked at the table.
    BalancerLook,
    /// The `CompactionChecker` chore ran.
    CheckerLook,
}

/// One region. Its fields in declaration order (`repr(C)`), those every step's passes over the
/// regions read first: a pass then reads the first of its four cache lines, or two, and the table's
/// regions are passed over several times a step (the 12-month benchmark's cost is this memory
/// traffic, measured in docs/life.md).
#[derive(Debug, Clone)]
#[repr(C)]
pub(crate) struct Region {
    /// This step's writes to the region: KeyValue bytes over the whole step, spread evenly in
    /// time, and for lanes that move with time the segments they fall on over the whole step.
    pub pend_kv: f64,
    /// The point of the step (0 to 1) up to which those writes are in the memstore.
    pub synced: f64,
    /// KeyValue bytes in the memstore.
    pub mem_kv: f64,
    /// When the memstore's oldest edit was written, in steps (the periodic flush's clock).
    pub mem_first: Option<f64>,
    /// KeyValue bytes written this step and this month.
    pub step_writes: f64,
    pub month_writes: f64,
    /// KeyValue bytes planned for it this hour (steps under an hour add up to the hour the
    /// hottest-server figures read).
    pub hour_writes: f64,
    /// Its share of the writes when lanes spread (0 when writes move with time).
    pub share: f64,
    pub pend_segs: Vec<(f64, f64, f64)>,
    pub id: u64,
    pub start: f64,
    pub server: u32,
    /// The split policy instance's jitter draw (one per region open).
    pub jitter: f32,
    /// Whether a file is a reference: read by every split check and compaction request, so
    /// kept with `disk`.
    references: bool,
    /// Exploring found nothing to compact in the files as they are: the selection is a function
    /// of their sizes alone, so the checker's looks skip it until the files change.
    pub nothing_to_select: bool,
    /// The files' bytes: read by every split check and chore look, so kept rather than summed.
    disk: f64,
    /// Its store files, changed only through [`Sim::edit_files`] (and at open), which keeps
    /// `disk` and the server's MB with them.
    files: Vec<StoreFile>,
    pub end: f64,
    /// When it opened, in steps (its regionId's time; a merge gives a new one).
    pub created: f64,
    /// The split policy's desired max file size with the region's jitter draw (fixed while it
    /// is open: each split check after a flush reads it).
    pub desired_max_file_size: i64,
    /// Where its writes fall when lanes spread.
    pub profile: Profile,
    pub mem_segs: Vec<(f64, f64, f64)>,
    pub mem_bins: Bins,
}

impl Region {
    pub fn files(&self) -> &[StoreFile] {
        &self.files
    }

    /// The files, taken out (the region is closing).
    pub fn take_files(&mut self) -> Vec<StoreFile> {
        self.disk = 0.0;
        self.references = false;
        std::mem::take(&mut self.files)
    }

    pub fn disk(&self) -> f64 {
        self.disk
    }

    /// The store-file MB the region server reports for it (`RegionMetrics.getStoreFileSize` in
    /// MB, truncated): what the balancer's `BalancerRegionLoad` and the normalizer read.
    pub fn size_mb(&self) -> i64 {
        // Bytes are never negative: the cast truncates as `floor` would, without its call.
        (self.disk / MIB) as i64
    }

    pub fn has_references(&self) -> bool {
        self.references
    }
}

/// Counts for the month being simulated.
#[derive(Debug, Clone, Default)]
pub(crate) struct Counters {
    pub month: LifeMonth,
    pub day_splits: u32,
    pub day_majors: u32,
    /// The sum over the month's steps of the largest share of a step's writes one server took.
    pub hottest_sum: f64,
    pub hottest_steps: u32,
}

pub(crate) struct Sim<'a> {
    pub s: &'a LifeSettings,
    pub lanes: Lanes,
    pub config: SplitConfig,
    /// The policy's limits without jitter (each region's draw replaces the desired size).
    pub limits: PolicyLimits,
    pub regions: Vec<Region>,
    pub server_regions: Vec<u32>,
    pub steps: u32,
    /// Seconds in a step ([`LifeSettings::step_seconds`], read at every event).
    pub step_secs: f64,
    /// Steps in an hour (1 for steps of an hour or more): the hottest-server figures are an
    /// hour's.
    pub steps_per_hour: u32,
    pub step_kv: f64,
    pub ratio: f64,
    pub flush_size: f64,
    pub ttl_steps: Option<f64>,
    pub bin_steps: u32,
    pub periodic_flush_steps: f64,
    pub major_period_steps: f64,
    /// The major compactions' jitter in steps, rounded (`Math.round(period × jitter)`).
    pub major_jitter_steps: f64,
    /// The shortest jittered period in steps (`major_due`'s first test, made for every region
    /// at each of the checker's looks).
    pub major_shortest_steps: f64,
    pub rng: u64,
    pub next_seq: u64,
    pub next_id: u64,
    pub lane_region: Vec<usize>,
    pub c: Counters,
    pub written: f64,
    pub expired: f64,
    /// The step being simulated.
    pub t: u32,
    /// How far into the step (0 to 1) the simulation is.
    pub tau: f64,
    /// Bumped by every change a chore could see (a file flushed, compacted or dropped, a
    /// region opened): a chore that looked since and saw nothing change would plan the same.
    pub version: u64,
    /// The chores' next runs, in seconds from the start.
    pub next_normalizer: f64,
    pub next_balancer: f64,
    pub next_checker: f64,
    /// The version the normalizer last looked at, and when a region next becomes old enough to
    /// merge (steps).
    pub normalizer_seen: Option<u64>,
    pub normalizer_age_gate: f64,
    /// The version the balancer last looked at (the writes' loads change only with the regions
    /// or when a lane's writes move to another region, which bumps the version too).
    pub balancer_seen: Option<u64>,
    /// Events, when traced.
    pub trace: Option<Vec<Event>>,
    /// Region-steps written past [`MAX_FLUSHES_PER_HOUR`] (their flushes taken larger).
    pub lumped: u64,
    /// KeyValue bytes each server took this step and this month: counted as they reach a
    /// memstore, on the server holding it then (a region moved or split mid-step leaves the
    /// writes it took where it took them).
    pub server_step_writes: Vec<f64>,
    pub server_month_writes: Vec<f64>,
    /// Each server's store-file MB, the sum of its regions' [`Region::size_mb`]: kept as the
    /// files change, so a balancer look reads it without a pass over the regions.
    pub server_mb: Vec<i64>,
    /// Bumped when a region's writes this step change (the step's plan, a split, a merge, a
    /// move): the balancer's write loads are summed again only then.
    pub writes_version: u64,
    /// Each server's writes this step as last summed, and the `writes_version` they are of.
    pub server_writes: (Option<u64>, Vec<f64>),
    /// Where regions opened holding references (a split's daughters, a merged region, a
    /// moved one not yet compacted) start: HBase requests their compaction as they open, so
    /// they compact right after the event that opened them.
    pub opened_with_references: Vec<f64>,
    /// The normalizer's view of the regions, kept between its looks for its allocation.
    pub normalizer_view: Vec<super::normalizer::NormalizerRegion>,
}

pub(crate) fn splitmix(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl<'a> Sim<'a> {
    pub fn new(s: &'a LifeSettings, w: &LifeWorkload) -> Sim<'a> {
        let step_secs = s.step_seconds();
        let steps = s.months * MONTH_DAYS * s.steps_per_day();
        let ttl_steps = s.ttl_seconds.map(|t| t as f64 / step_secs);
        // Bins fine enough for the TTL (a thirtieth of it), at most a day; one bin without TTL.
        let bin_steps = match ttl_steps {
            Some(t) => ((t / 30.0).floor() as u32).clamp(1, s.steps_per_day()),
            None => u32::MAX,
        };
        let major_period_steps = s.compaction.major_period_hours * 3600.0 / step_secs;
        let major_jitter_steps = (major_period_steps * s.compaction.major_jitter).round();
        let mut sim = Sim {
            s,
            lanes: Lanes::new(&w.keys),
            config: s.split_config(),
            limits: s.split_config().limits(None),
            regions: Vec::new(),
            server_regions: vec![0; s.servers as usize],
            steps,
            step_secs,
            steps_per_hour: (3600.0 / step_secs).round().max(1.0) as u32,
            step_kv: w.writes_per_second * step_secs * w.cell_bytes,
            ratio: s.compression_ratio,
            flush_size: s.flush_size(),
            ttl_steps,
            bin_steps,
            periodic_flush_steps: s.compaction.periodic_flush_hours * 3600.0 / step_secs,
            major_period_steps,
            major_jitter_steps,
            major_shortest_steps: major_period_steps + major_jitter_steps
                - (2.0 * major_jitter_steps).round(),
            rng: s.seed ^ 0x6C69_6665,
            next_seq: 0,
            next_id: 0,
            lane_region: Vec::new(),
            c: Counters::default(),
            written: 0.0,
            expired: 0.0,
            t: 0,
            tau: 0.0,
            version: 0,
            next_normalizer: s.normalizer.period_seconds,
            next_balancer: s.balancer.period_seconds,
            next_checker: s.compaction.checker_seconds,
            normalizer_seen: None,
            normalizer_age_gate: f64::INFINITY,
            balancer_seen: None,
            trace: None,
            lumped: 0,
            server_step_writes: vec![0.0; s.servers as usize],
            server_month_writes: vec![0.0; s.servers as usize],
            server_mb: vec![0; s.servers as usize],
            writes_version: 0,
            server_writes: (None, Vec::new()),
            opened_with_references: Vec::new(),
            normalizer_view: Vec::new(),
        };
        let mut bounds = vec![0.0];
        bounds.extend(w.presplit.iter().copied());
        bounds.push(sim.lanes.len() as f64);
        // Round-robin at create (BaseLoadBalancer.roundRobinAssignment with offset 0).
        for (i, pair) in bounds.windows(2).enumerate() {
            if let [a, b] = pair {
                let server = (i % s.servers as usize) as u32;
                let r = sim.open_region(*a, *b, server, Vec::new());
                sim.regions.push(r);
            }
        }
        sim.lane_region = vec![0; sim.lanes.len()];
        sim
    }

    /// A region opening on `server`: a new id, a new jitter draw, its write share.
    pub fn open_region(
        &mut self,
        start: f64,
        end: f64,
        server: u32,
        files: Vec<StoreFile>,
    ) -> Region {
        let id = self.next_id;
        self.next_id += 1;
        self.version += 1;
        let jitter = ((splitmix(&mut self.rng) >> 40) as f32) / ((1u32 << 24) as f32);
        if let Some(n) = self.server_regions.get_mut(server as usize) {
            *n += 1;
        }
        let spread = self.lanes.order == LaneOrder::Spread;
        let disk = files.iter().map(|f| f.bytes).sum();
        let references = files.iter().any(|f| f.reference);
        if references {
            self.opened_with_references.push(start);
        }
        let r = Region {
            id,
            start,
            end,
            server,
            created: self.now(),
            jitter,
            desired_max_file_size: self
                .config
                .limits(Some(jitter).filter(|_| self.config.jitter > 0.0))
                .desired_max_file_size,
            share: if spread {
                self.lanes.spread_share(start, end)
            } else {
                0.0
            },
            profile: if spread {
                Profile::from_segments(self.lanes.spread_segments(start, end))
            } else {
                Profile::from_segments(Vec::new())
            },
            mem_kv: 0.0,
            mem_segs: Vec::new(),
            mem_bins: Vec::new(),
            mem_first: None,
            files,
            disk,
            references,
            nothing_to_select: false,
            pend_kv: 0.0,
            pend_segs: Vec::new(),
            synced: self.tau,
            step_writes: 0.0,
            month_writes: 0.0,
            hour_writes: 0.0,
        };
        if let Some(mb) = self.server_mb.get_mut(server as usize) {
            *mb += r.size_mb();
        }
        let m = &mut self.c.month;
        m.largest_region_bytes = m.largest_region_bytes.max(r.disk);
        self.writes_version += 1;
        r
    }

    /// Region `r` leaves its server (split, merged, moved).
    pub fn close_region(&mut self, r: &Region) {
        self.close(r.server, r.size_mb());
    }

    /// A region of `size_mb` leaves `server` ([`Sim::close_region`] by its figures).
    pub fn close(&mut self, server: u32, size_mb: i64) {
        if let Some(n) = self.server_regions.get_mut(server as usize) {
            *n = n.saturating_sub(1);
        }
        if let Some(mb) = self.server_mb.get_mut(server as usize) {
            *mb -= size_mb;
        }
        self.writes_version += 1;
    }

    /// Change region `i`'s store files with `edit`; its bytes and its server's MB follow.
    pub fn edit_files<T>(
        &mut self,
        i: usize,
        edit: impl FnOnce(&mut Vec<StoreFile>) -> T,
    ) -> Option<T> {
        let r = self.regions.get_mut(i)?;
        let before = r.size_mb();
        let out = edit(&mut r.files);
        r.disk = r.files.iter().map(|f| f.bytes).sum();
        r.references = r.files.iter().any(|f| f.reference);
        r.nothing_to_select = false;
        let m = &mut self.c.month;
        m.largest_region_bytes = m.largest_region_bytes.max(r.disk);
        let after = r.size_mb();
        if let Some(mb) = self.server_mb.get_mut(r.server as usize) {
            *mb += after - before;
        }
        self.version += 1;
        Some(out)
    }

    pub fn bin(&self, step: u32) -> u32 {
        if self.bin_steps == u32::MAX {
            0
        } else {
            step / self.bin_steps
        }
    }

    /// The time, in steps.
    pub fn now(&self) -> f64 {
        f64::from(self.t) + self.tau
    }

    /// The time, in seconds from the start.
    pub fn seconds(&self) -> f64 {
        self.now() * self.step_secs
    }

    /// Note `kind` on region `region` at this time, when traced.
    pub fn note(&mut self, kind: EventKind, region: u64) {
        self.note_io(kind, region, 0, 0.0);
    }

    /// [`Sim::note`] with the files and bytes it wrote.
    pub fn note_io(&mut self, kind: EventKind, region: u64, files: u32, bytes: f64) {
        let seconds = self.seconds();
        if let Some(t) = self.trace.as_mut() {
            if t.len() < MAX_EVENTS {
                t.push(Event {
                    seconds,
                    kind,
                    region,
                    files,
                    bytes,
                });
            }
        }
    }

    /// Now − TTL, in steps: cells written before it have expired.
    pub fn cutoff(&self) -> Option<f64> {
        Some(self.now() - self.ttl_steps?)
    }

    /// Whether a file whose newest cell is from `max_step` has wholly passed the TTL.
    pub fn file_expired(&self, f: &StoreFile) -> bool {
        self.ttl_steps
            .is_some_and(|ttl| f64::from(f.max_step) + 1.0 <= self.now() - ttl)
    }

    /// The month's end figures per server and for the table.
    pub fn month_snapshot(&mut self) -> LifeMonth {
        let mut m = std::mem::take(&mut self.c.month);
        if self.c.hottest_steps > 0 {
            m.hottest_server_write_share = self.c.hottest_sum / f64::from(self.c.hottest_steps);
        }
        self.c.hottest_sum = 0.0;
        self.c.hottest_steps = 0;
        let (cutoff, bin_steps) = (self.cutoff(), self.bin_steps);
        let mut servers = vec![ServerMonth::default(); self.s.servers as usize];
        let total_writes: f64 = self.server_month_writes.iter().sum();
        for (s, w) in servers.iter_mut().zip(&mut self.server_month_writes) {
            if total_writes > 0.0 {
                s.write_share = *w / total_writes;
            }
            *w = 0.0;
        }
        m.size_histogram = vec![0; super::report::SIZE_BIN_EDGES.len() + 1];
        for r in &mut self.regions {
            let disk = r.disk();
            let live: f64 = match cutoff {
                Some(cut) => r
                    .files
                    .iter()
                    .flat_map(|f| store::live_bins(&f.bins, f.min_step, f.max_step, bin_steps, cut))
                    .map(|b| b.1)
                    .sum(),
                None => disk,
            };
            m.regions += 1;
            if disk <= 0.0 && r.mem_kv <= 0.0 {
                m.empty_regions += 1;
            }
            if live <= 0.0 && r.mem_kv <= 0.0 {
                m.expired_regions += 1;
            }
            if let Some(h) = m.size_histogram.get_mut(super::report::size_bin(disk)) {
                *h += 1;
            }
            m.largest_region_bytes = m.largest_region_bytes.max(disk);
            m.on_disk_bytes += disk;
            m.live_bytes += live;
            m.memstore_bytes += r.mem_kv;
            if let Some(s) = servers.get_mut(r.server as usize) {
                s.regions += 1;
                s.bytes += disk;
                if r.month_writes > 0.0 {
                    s.written_regions += 1;
                }
            }
            r.month_writes = 0.0;
        }
        m.servers = servers;
        m.written_bytes = self.written;
        m.expired_bytes = self.expired;
        m
    }
}
