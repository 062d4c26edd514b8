//! Splits: `HRegion.checkSplit` under the table's policy after each flush and compaction, the
//! split point (the middle of the largest store file, cut back by the prefix policies), and the
//! split itself (two daughters on the parent's server holding references to its files).

use super::keys::LaneOrder;
use super::settings::{LifeSettings, MAX_LIFE_REGIONS};
use super::sim::{EventKind, Region, Sim};
use super::store::{self, StoreFile};
use crate::hbase::policy::{exceeds_size, PolicyLimits, SplitConfig, SplitPolicy, StoreState};
use crate::hbase::store::largest_file;

impl Sim<'_> {
    /// `HRegion.checkSplit` under the table's policy, the server's split limit first
    /// (`CompactSplit.shouldSplitRegion`). Returns the split coordinate.
    pub fn check_split(&self, i: usize, force: bool) -> Option<f64> {
        let r = self.regions.get(i)?;
        if self.regions.len() >= MAX_LIFE_REGIONS {
            return None;
        }
        let on_server = self
            .server_regions
            .get(r.server as usize)
            .copied()
            .unwrap_or(0);
        if !force && on_server >= self.s.region_split_limit {
            return None;
        }
        if matches!(self.s.policy, SplitPolicy::Disabled) || r.has_references() {
            return None;
        }
        let n = on_server;
        let limits = PolicyLimits {
            desired_max_file_size: r.desired_max_file_size,
            ..self.limits
        };
        if !force && !split_by_size(self.s, &limits, r.disk(), n) {
            return None;
        }
        self.split_point(r)
    }

    /// The middle of the largest store file (`StoreUtils.getSplitPoint`: its mid block),
    /// cut back to the lane's start by the prefix policies; `None` when it would be the
    /// file's first or last row or outside the region.
    fn split_point(&self, r: &Region) -> Option<f64> {
        let f = r
            .files()
            .get(largest_file(r.files().iter().map(|f| f.bytes))?)?;
        let (lo, hi) = f.profile.span()?;
        let mut x = f.profile.quantile(0.5)?;
        if x <= lo || x >= hi {
            return None;
        }
        let prefix = matches!(
            self.s.policy,
            SplitPolicy::KeyPrefix { .. } | SplitPolicy::DelimitedKeyPrefix { .. }
        );
        if prefix && self.lanes.prefix_lanes {
            x = self.lanes.lane_start(x);
        }
        (x > r.start && x < r.end).then_some(x)
    }

    /// Split region `i` at `x`: two daughters on the parent's server, holding references to
    /// the parent's files (so neither splits before its compaction).
    pub fn split(&mut self, i: usize, x: f64) {
        self.flush(i);
        // The parent stays in its slot until its lower daughter takes it, and the upper one
        // goes in after it: one move of the regions after it, where removing the parent and
        // inserting two daughters made three (the normalizer's ratchet splits tens of
        // thousands of times over thousands of regions).
        let Some(parent) = self.regions.get_mut(i) else {
            return;
        };
        let pend_segs = std::mem::take(&mut parent.pend_segs);
        let parent = &*parent;
        let (start, end, server, id) = (parent.start, parent.end, parent.server, parent.id);
        let writes = (parent.month_writes, parent.hour_writes, parent.step_writes);
        let size_mb = parent.size_mb();
        let lower: Vec<StoreFile> = parent
            .files()
            .iter()
            .filter_map(|f| store::half(f, x, true))
            .collect();
        let upper: Vec<StoreFile> = parent
            .files()
            .iter()
            .filter_map(|f| store::half(f, x, false))
            .collect();
        self.close(server, size_mb);
        let mut a = self.open_region(start, x, server, lower);
        let mut b = self.open_region(x, end, server, upper);
        // The rest of the step's writes go where they fall.
        if self.lanes.order == LaneOrder::Spread {
            a.pend_kv = a.share * self.step_kv;
            b.pend_kv = b.share * self.step_kv;
        } else {
            for &(x0, x1, w) in &pend_segs {
                let left = 0.5 * (x0 + (x1 - x0) * self.tau + x1);
                let d = if left < x { &mut a } else { &mut b };
                d.pend_kv += w;
                d.pend_segs.push((x0, x1, w));
            }
        }
        self.note(EventKind::Split, id);
        // The writes stay counted on the parent's server, shared by the daughters' bytes.
        let below = a.disk() / (a.disk() + b.disk()).max(f64::MIN_POSITIVE);
        let (month, hour, step) = writes;
        a.month_writes = month * below;
        b.month_writes = month - a.month_writes;
        a.hour_writes = hour * below;
        b.hour_writes = hour - a.hour_writes;
        a.step_writes = step * below;
        b.step_writes = step - a.step_writes;
        if let Some(slot) = self.regions.get_mut(i) {
            *slot = a;
        }
        self.regions.insert(i + 1, b);
        self.c.month.splits += 1;
        self.c.day_splits += 1;
    }
}

/// The policy's `shouldSplit` for a region of `size` store-file bytes (one family, no
/// references) with `regions_on_server` of the table's regions on its server and the policy
/// instance's jitter draw: `hbase::policy`'s size checks, which the simulator applies.
pub fn should_split(
    s: &LifeSettings,
    config: &SplitConfig,
    size: f64,
    regions_on_server: u32,
    jitter: Option<f32>,
) -> bool {
    let draw = jitter.filter(|_| config.jitter > 0.0);
    split_by_size(s, &config.limits(draw), size, regions_on_server)
}

/// [`should_split`] with the policy instance's limits worked out.
fn split_by_size(
    s: &LifeSettings,
    limits: &PolicyLimits,
    size: f64,
    regions_on_server: u32,
) -> bool {
    if matches!(s.policy, SplitPolicy::Disabled) {
        return false;
    }
    // The families' stores are equal (writes fill them alike): the sum of all is the region,
    // any one is the region over the families. One store stands for them (no allocation, this
    // runs after every flush): `overallfiles` compares the sum, else one store.
    let families = f64::from(s.families.max(1));
    let store_size = if limits.overall_hregion_files {
        size
    } else {
        size / families
    };
    let store = StoreState {
        size: store_size.min(i64::MAX as f64) as i64,
        can_split: true,
        split_point: None,
    };
    let n = i32::try_from(regions_on_server).unwrap_or(i32::MAX);
    let limit = s.policy.size_to_check(limits, n);
    exceeds_size(
        std::slice::from_ref(&store),
        limit,
        limits.overall_hregion_files,
    )
}
