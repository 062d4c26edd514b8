//! One region as the analyzer counts it ([`Region`]: its counters, laid out so that one write
//! touches a cache line or two) and the server each region is placed on at creation. Apart
//! from the counting: a region is built and placed when the table is created or splits, never
//! on a write's path.

use super::rows::{self, Distinct};
use super::store::FileModel;
use super::{autosplit, Analyzer, Reservoir};
use crate::analyze::invalid;
use crate::error::Result;
use crate::region::{Assignment, Placement};

/// One region while the analyzer runs. `repr(C)`, the fields every write updates first, so
/// they share a cache line or two (the compiler's own order spread them, and the distinct
/// rows' floor, over more lines than one write should touch).
#[derive(Debug, Clone)]
#[repr(C, align(64))]
pub(super) struct Region {
    pub(super) rows: u64,
    pub(super) bytes: u64,
    /// Auto-split's memstore: KeyValue bytes since its last flush.
    pub(super) mem_kv: u64,
    pub(super) server: u32,
    /// Auto-split's last try found its middle row to be its first or last row.
    pub(super) unsplittable: bool,
    /// The split policy's jitter draw for this region (`nextFloat()` at its open), from the
    /// run's seed and its start key: the same in any reading order.
    pub(super) jitter: f32,
    /// Its distinct rows and cells.
    pub(super) distinct: Distinct,
    pub(super) windows: Vec<u64>,
    /// Keys with their window, for the middle key and the split of the counts.
    pub(super) sample: Reservoir<(Vec<u8>, u32)>,
    pub(super) cells: Distinct,
    pub(super) start: Vec<u8>,
    pub(super) end: Vec<u8>,
    pub(super) created_at: Option<i64>,
    /// The time of the memstore's oldest edit (`i64::MAX`: empty), for the periodic flush.
    pub(super) mem_first_ms: i64,
    /// The rows written since the last flush: the next store file's block index.
    pub(super) mem_sample: Reservoir<Vec<u8>>,
    /// Auto-split's store files.
    pub(super) files: Vec<FileModel>,
}

impl Region {
    pub(super) fn new(
        start: Vec<u8>,
        end: Vec<u8>,
        windows: usize,
        server: u32,
        seed: u64,
    ) -> Region {
        Region {
            jitter: autosplit::jitter_draw(seed, &start),
            start,
            end,
            rows: 0,
            bytes: 0,
            windows: vec![0; windows],
            created_at: None,
            server,
            sample: Reservoir::default(),
            mem_kv: 0,
            mem_first_ms: i64::MAX,
            mem_sample: Reservoir::default(),
            files: Vec::new(),
            distinct: Distinct::new(rows::REGION_PRECISION),
            cells: Distinct::new(rows::REGION_PRECISION),
            unsplittable: false,
        }
    }
}

/// An explicit placement names one server per region at creation, and no more servers than
/// `regionServers` counts (the analyzer keeps that many server slots).
pub(super) fn check_placement(p: &Placement, servers: u32, regions: usize) -> Result<()> {
    if p.servers.len() != regions {
        return Err(invalid(
            "/regions/assignment/servers",
            format!(
                "the assignment names {} servers for the table's {regions} regions at creation: one name per region, in key order",
                p.servers.len()
            ),
        ));
    }
    if p.names.len() > servers as usize {
        return Err(invalid(
            "/regions/regionServers",
            format!(
                "the assignment places regions on {} servers, but regionServers is {servers}: leave regionServers out (it then counts the names) or count every server",
                p.names.len()
            ),
        ));
    }
    Ok(())
}

impl Analyzer {
    /// A server for the `i`-th region placed at creation, counted in `server_regions`.
    pub(super) fn place(&mut self, i: usize) -> u32 {
        let n = self.server_regions.len().max(1);
        let s = match self.opts.assignment {
            Assignment::RoundRobin => i % n,
            Assignment::Balanced => self.least_loaded_server(),
            Assignment::Servers(_) => self.initial_servers.get(i).map_or(0, |&s| s as usize),
        };
        if let Some(c) = self.server_regions.get_mut(s) {
            *c = c.saturating_add(1);
        }
        u32::try_from(s).unwrap_or(0)
    }

    pub(super) fn least_loaded_server(&self) -> usize {
        let mut best = 0;
        let mut min = u32::MAX;
        for (i, c) in self.server_regions.iter().enumerate() {
            if *c < min {
                min = *c;
                best = i;
            }
        }
        best
    }
}
