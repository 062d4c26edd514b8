//! The StochasticLoadBalancer's trigger and cost (research file §A5): `DoubleArrayCost`, the
//! cost functions with their default weights per release line, `needsBalance` (idle server,
//! sloppy server, weighted cost ≥ `minCostNeedBalance`). HBase searches with unseeded random
//! steps; this module stands in with a greedy search over the same cost (its Load generator:
//! a region from the most-loaded server to the least-loaded one, the move that lowers the cost
//! most), so a run replays.
//!
//! Left at 0, since the simulator has no model of them: locality (no HDFS), read and
//! coprocessor requests (writes only), memstore size (its rate over the remembered loads
//! averages out between flushes), replicas.

use serde::Serialize;

use super::settings::HBaseVersion;

/// `…stochastic.regionCountCost`.
pub const REGION_COUNT_WEIGHT: f64 = 500.0;
/// `…stochastic.moveCost`.
pub const MOVE_WEIGHT: f64 = 7.0;
/// `…stochastic.localityCost`.
pub const LOCALITY_WEIGHT: f64 = 25.0;
/// `…stochastic.rackLocalityCost`.
pub const RACK_LOCALITY_WEIGHT: f64 = 15.0;
/// `…stochastic.tableSkewCost`.
pub const TABLE_SKEW_WEIGHT: f64 = 35.0;
/// `…stochastic.storefileTableSkewCost` (3.x only).
pub const STOREFILE_TABLE_SKEW_WEIGHT: f64 = 35.0;
/// Read, write, CP request (3.x), memstore size and store file: 5 each.
pub const LOAD_WEIGHT: f64 = 5.0;

/// The sum of the weights of the functions a table without replicas needs: 602 on 2.x,
/// 642 on 3.x.
pub fn weight_sum(version: HBaseVersion) -> f64 {
    let base = REGION_COUNT_WEIGHT
        + MOVE_WEIGHT
        + LOCALITY_WEIGHT
        + RACK_LOCALITY_WEIGHT
        + TABLE_SKEW_WEIGHT
        + 4.0 * LOAD_WEIGHT;
    if version.balancer_3x() {
        base + STOREFILE_TABLE_SKEW_WEIGHT + LOAD_WEIGHT
    } else {
        base
    }
}

/// `DoubleArrayCost`: how far `x` (one value per server) is from its most even spread,
/// scaled to [0, 1] between the most even and the most skewed spread of the same total.
pub fn double_array_cost(x: &[f64]) -> f64 {
    Spread::of(x).cost()
}

/// [`double_array_cost`]'s pieces for one load: a move between two servers keeps the count,
/// the total and so the mean and both bounds, and changes two terms of the sum of squares. The
/// balancer's search weighs each candidate move from them, without copying the loads.
#[derive(Debug, Clone, Copy)]
struct Spread {
    mean: f64,
    sum_sq: f64,
    min: f64,
    max: f64,
}

impl Spread {
    fn of(x: &[f64]) -> Spread {
        let n = x.len() as f64;
        if x.is_empty() {
            return Spread {
                mean: 0.0,
                sum_sq: 0.0,
                min: 0.0,
                max: 0.0,
            };
        }
        let total: f64 = x.iter().sum();
        let mean = total / n;
        let sum_sq = x.iter().map(|xi| (mean - xi).powi(2)).sum::<f64>();
        let max = ((total - mean).powi(2) + (n - 1.0) * mean * mean).sqrt();
        let min = if n <= total {
            let fl = mean.floor();
            let h = total - fl * n;
            let low = n - h;
            (h * (mean.ceil() - mean).powi(2) + low * (mean - fl).powi(2)).sqrt()
        } else {
            ((n - total) * mean * mean + (1.0 - mean).powi(2) * total).sqrt()
        };
        Spread {
            mean,
            sum_sq,
            min,
            max,
        }
    }

    fn cost(&self) -> f64 {
        scale(self.min, self.max, self.sum_sq.sqrt())
    }

    /// The cost with `d` moved from a server holding `from` to one holding `to`.
    fn moved(&self, from: f64, to: f64, d: f64) -> f64 {
        let (a, b) = (self.mean - from, self.mean - to);
        let sum_sq = self.sum_sq - a * a - b * b + (a + d).powi(2) + (b - d).powi(2);
        scale(self.min, self.max, sum_sq.max(0.0).sqrt())
    }
}

/// `CostFunction.scale`: `(value − min) / (max − min)` clamped to [0, 1]; 0 when the value or
/// the max is within one ulp of the min.
fn scale(min: f64, max: f64, value: f64) -> f64 {
    let ulp = |a: f64, b: f64| {
        (a - b).abs() <= f64::EPSILON * a.abs().max(b.abs()).max(f64::MIN_POSITIVE)
    };
    if ulp(max, min) || ulp(value, min) {
        return 0.0;
    }
    ((value - min) / (max - min)).clamp(0.0, 1.0)
}

/// Per-server loads the cost functions read.
#[derive(Debug, Clone, Default)]
pub(crate) struct Loads {
    /// The table's regions per server.
    pub regions: Vec<f64>,
    /// Writes per server (the write-request rate).
    pub writes: Vec<f64>,
    /// Store-file MB per server.
    pub storefile_mb: Vec<f64>,
}

/// The balancer's costs for one cluster state, each in [0, 1], and their weighted mean.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BalancerCost {
    /// RegionCountSkew.
    pub region_count_skew: f64,
    /// TableSkew (one table: its regions per server).
    pub table_skew: f64,
    /// StoreFileTableSkew (3.x; 0 on 2.x).
    pub store_file_table_skew: f64,
    /// WriteRequest.
    pub write_request: f64,
    /// StoreFile.
    pub store_file: f64,
    /// Move: regions moved over regions.
    pub moves: f64,
    /// `Σ weight × cost / Σ weight`.
    pub total: f64,
}

pub(crate) fn cost(loads: &Loads, moved: usize, version: HBaseVersion) -> BalancerCost {
    Weigher::new(loads, version).cost(moved)
}

/// The loads' spreads, weighed as they are or after one move: the balancer's search weighs
/// every region of the most-loaded server this way.
pub(crate) struct Weigher {
    regions: Spread,
    writes: Spread,
    storefile_mb: Spread,
    total_regions: f64,
    version: HBaseVersion,
}

impl Weigher {
    pub(crate) fn new(loads: &Loads, version: HBaseVersion) -> Weigher {
        Weigher {
            regions: Spread::of(&loads.regions),
            writes: Spread::of(&loads.writes),
            storefile_mb: Spread::of(&loads.storefile_mb),
            total_regions: loads.regions.iter().sum(),
            version,
        }
    }

    /// The cost of the loads as they are, after `moved` moves.
    pub(crate) fn cost(&self, moved: usize) -> BalancerCost {
        let sf = self.storefile_mb.cost();
        self.weigh(self.regions.cost(), self.writes.cost(), sf, moved)
    }

    /// The weighted cost after moving one region (`writes`, `mb`) from server `from` to `to`
    /// of `loads` (the loads this weigher was made from), the `moved`th move.
    pub(crate) fn moved_total(
        &self,
        loads: &Loads,
        (from, to): (usize, usize),
        (writes, mb): (f64, f64),
        moved: usize,
    ) -> f64 {
        let at = |v: &Vec<f64>, i: usize| v.get(i).copied().unwrap_or(0.0);
        let rc = self
            .regions
            .moved(at(&loads.regions, from), at(&loads.regions, to), 1.0);
        let wr = self
            .writes
            .moved(at(&loads.writes, from), at(&loads.writes, to), writes);
        let sf = self.storefile_mb.moved(
            at(&loads.storefile_mb, from),
            at(&loads.storefile_mb, to),
            mb,
        );
        self.weigh(rc, wr, sf, moved).total
    }

    fn weigh(&self, rc: f64, wr: f64, sf: f64, moved: usize) -> BalancerCost {
        let sf_skew = if self.version.balancer_3x() { sf } else { 0.0 };
        let total_regions = self.total_regions;
        let max_moves = total_regions.max(600.0);
        let mv = if moved as f64 > max_moves {
            1_000_000.0
        } else if total_regions > 0.0 {
            moved as f64 / total_regions
        } else {
            0.0
        };
        let weighted = REGION_COUNT_WEIGHT * rc
            + TABLE_SKEW_WEIGHT * rc
            + STOREFILE_TABLE_SKEW_WEIGHT * sf_skew
            + LOAD_WEIGHT * wr
            + LOAD_WEIGHT * sf
            + MOVE_WEIGHT * mv;
        BalancerCost {
            region_count_skew: rc,
            table_skew: rc,
            store_file_table_skew: sf_skew,
            write_request: wr,
            store_file: sf,
            moves: mv,
            total: weighted / weight_sum(self.version),
        }
    }
}

/// Why `needsBalance` says yes, if it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Trigger {
    /// A server holds no region while another holds more than one.
    IdleServer,
    /// A server is outside `[⌊avg × (1 − slop)⌋, ⌈avg × (1 + slop)⌉]` regions.
    SloppyServer,
    /// The weighted cost is at least `minCostNeedBalance`.
    Cost,
}

/// `StochasticLoadBalancer.needsBalance` for one table without replicas.
pub(crate) fn needs_balance(
    loads: &Loads,
    slop: f64,
    min_cost: f64,
    version: HBaseVersion,
) -> Option<Trigger> {
    let r = &loads.regions;
    if r.len() < 2 {
        return None;
    }
    let max = r.iter().copied().fold(0.0, f64::max);
    let min = r.iter().copied().fold(f64::INFINITY, f64::min);
    if min == 0.0 && max > 1.0 {
        return Some(Trigger::IdleServer);
    }
    let avg = r.iter().sum::<f64>() / r.len() as f64;
    if max > (avg * (1.0 + slop)).ceil() || min < (avg * (1.0 - slop)).floor() {
        return Some(Trigger::SloppyServer);
    }
    (cost(loads, 0, version).total >= min_cost).then_some(Trigger::Cost)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A move weighed from the spreads costs what the moved loads, summed again, cost.
    #[test]
    fn a_move_weighed_from_the_spreads_is_the_moved_loads_cost() {
        let mut seed = 7u64;
        let mut draw = |hi: f64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 11) as f64 / (1u64 << 53) as f64 * hi
        };
        for version in [HBaseVersion::V2_6, HBaseVersion::V3] {
            for servers in [2usize, 3, 20] {
                let loads = Loads {
                    regions: (0..servers).map(|_| draw(50.0).floor()).collect(),
                    writes: (0..servers).map(|_| draw(1e9)).collect(),
                    storefile_mb: (0..servers).map(|_| draw(1e5).floor()).collect(),
                };
                let (from, to) = (0, servers - 1);
                let (w, mb) = (draw(1e8), draw(1e4).floor());
                let mut moved = loads.clone();
                moved.regions[from] -= 1.0;
                moved.regions[to] += 1.0;
                moved.writes[from] -= w;
                moved.writes[to] += w;
                moved.storefile_mb[from] -= mb;
                moved.storefile_mb[to] += mb;
                let summed = cost(&moved, 3, version).total;
                let weighed =
                    Weigher::new(&loads, version).moved_total(&loads, (from, to), (w, mb), 3);
                assert!((summed - weighed).abs() < 1e-9, "{summed} vs {weighed}");
            }
        }
    }
}
