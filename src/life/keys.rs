//! How a table's writes fall over its key space and over time, in aggregate: the key space is
//! a row of lanes (a salt bucket, a key prefix, a stretch of hashed keys), lane `i` the
//! coordinate range `[i, i + 1)`, each with its share of the writes. Inside a lane the
//! writes either spread evenly (a hash, a random id) or move with time (a time-led key, the
//! time after a salt): then step `t` of `T` writes `[i + t/T, i + (t+1)/T)` (ascending) or its
//! mirror (descending), so a lane's older rows stay behind as the lane's regions split.
//! The simulator's cost follows regions × steps, never writes.

use serde::{Deserialize, Serialize};

use super::settings::{check_f64, out_of_range, MAX_LANES, MAX_PRESPLIT_REGIONS};
use crate::error::Result;

/// Where a step's writes go inside a lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum LaneOrder {
    /// Evenly over the lane, every step (hashed or random keys within the lane).
    #[default]
    Spread,
    /// At the lane's high end, moving up with time (a timestamp after the lane's prefix).
    Ascending,
    /// At the lane's low end, moving down with time (a reversed timestamp).
    Descending,
}

/// The key space as lanes with write shares; see the module header.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KeyModel {
    /// Each lane's share of the writes, in key order (normalised to sum 1).
    pub weights: Vec<f64>,
    /// Where writes go inside a lane.
    #[serde(default)]
    pub order: LaneOrder,
    /// The lanes are the key's prefix values (a salt, a tenant): the KeyPrefix and
    /// DelimitedKeyPrefix policies cut a split point back to its lane's start.
    #[serde(default)]
    pub prefix_lanes: bool,
}

impl KeyModel {
    /// One lane written in time order: a key that leads with the time.
    pub fn time_led() -> KeyModel {
        KeyModel {
            weights: vec![1.0],
            order: LaneOrder::Ascending,
            prefix_lanes: false,
        }
    }

    /// `lanes` equal lanes with writes spread over each: a hashed or salted random key.
    pub fn uniform(lanes: usize) -> KeyModel {
        KeyModel {
            weights: vec![1.0; lanes.max(1)],
            order: LaneOrder::Spread,
            prefix_lanes: false,
        }
    }

    /// `buckets` salt buckets, each written in time order (`salt + time`).
    pub fn salted_time(buckets: usize) -> KeyModel {
        KeyModel {
            weights: vec![1.0; buckets.max(1)],
            order: LaneOrder::Ascending,
            prefix_lanes: true,
        }
    }

    /// Lanes, 1 to 65,536, with finite non-negative shares of positive sum.
    pub fn validate(&self) -> Result<()> {
        if self.weights.is_empty() || self.weights.len() > MAX_LANES {
            return Err(out_of_range(
                "/keys/weights",
                format!("{} lanes: expected 1 to {MAX_LANES}", self.weights.len()),
            ));
        }
        for (i, w) in self.weights.iter().enumerate() {
            check_f64(&format!("/keys/weights/{i}"), *w, 0.0, 1e12)?;
        }
        if self.weights.iter().sum::<f64>() <= 0.0 {
            return Err(out_of_range("/keys/weights", "the lanes' shares sum to 0"));
        }
        Ok(())
    }

    /// The number of lanes: the coordinate space is `[0, lanes)`.
    pub fn lanes(&self) -> usize {
        self.weights.len()
    }
}

/// The lanes' shares normalised, with their running sums, for O(1) range shares.
#[derive(Debug, Clone)]
pub(crate) struct Lanes {
    pub share: Vec<f64>,
    cum: Vec<f64>,
    pub order: LaneOrder,
    pub prefix_lanes: bool,
}

impl Lanes {
    pub fn new(m: &KeyModel) -> Lanes {
        let total: f64 = m.weights.iter().sum();
        let share: Vec<f64> = m.weights.iter().map(|w| w / total).collect();
        let mut cum = Vec::with_capacity(share.len() + 1);
        let mut acc = 0.0;
        cum.push(0.0);
        for s in &share {
            acc += s;
            cum.push(acc);
        }
        Lanes {
            share,
            cum,
            order: m.order,
            prefix_lanes: m.prefix_lanes,
        }
    }

    pub fn len(&self) -> usize {
        self.share.len()
    }

    /// The share of writes below coordinate `x` when writes spread over each lane.
    fn below(&self, x: f64) -> f64 {
        let n = self.share.len();
        if x <= 0.0 {
            return 0.0;
        }
        if x >= n as f64 {
            return 1.0;
        }
        let i = x.floor() as usize;
        let base = self.cum.get(i).copied().unwrap_or(1.0);
        base + (x - i as f64) * self.share.get(i).copied().unwrap_or(0.0)
    }

    /// The spread share of writes in `[lo, hi)`.
    pub fn spread_share(&self, lo: f64, hi: f64) -> f64 {
        (self.below(hi) - self.below(lo)).max(0.0)
    }

    /// The spread writes in `[lo, hi)` as segments `(x0, x1, share)`, lane by lane.
    pub fn spread_segments(&self, lo: f64, hi: f64) -> Vec<(f64, f64, f64)> {
        let mut out = Vec::new();
        let first = lo.max(0.0).floor() as usize;
        let mut i = first;
        while (i as f64) < hi && i < self.share.len() {
            let a = lo.max(i as f64);
            let b = hi.min(i as f64 + 1.0);
            let s = self.share.get(i).copied().unwrap_or(0.0) * (b - a);
            if b > a && s > 0.0 {
                out.push((a, b, s));
            }
            i += 1;
        }
        out
    }

    /// Where lane `i` writes during step `t` of `steps` when its writes move with time.
    pub fn ordered_span(&self, i: usize, t: u32, steps: u32) -> (f64, f64) {
        let n = f64::from(steps.max(1));
        let (a, b) = (f64::from(t) / n, f64::from(t + 1) / n);
        let base = i as f64;
        match self.order {
            LaneOrder::Descending => (base + 1.0 - b, base + 1.0 - a),
            _ => (base + a, base + b),
        }
    }

    /// The start of the lane holding `x`: where a prefix restriction cuts a split point.
    pub fn lane_start(&self, x: f64) -> f64 {
        x.floor()
    }
}

/// The writes a table takes: their rate, their size and where they fall.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LifeWorkload {
    /// Writes (cells) per second, constant over the months.
    pub writes_per_second: f64,
    /// Bytes of one cell as a KeyValue: 20 + row + family + qualifier + value.
    pub cell_bytes: f64,
    /// How the writes fall over the key space.
    pub keys: KeyModel,
    /// The table's split points at creation, as coordinates (lane `i` starts at `i`),
    /// strictly ascending inside `(0, lanes)`.
    #[serde(default)]
    pub presplit: Vec<f64>,
}

impl LifeWorkload {
    /// Rate, size, lanes and split points in range.
    pub fn validate(&self) -> Result<()> {
        check_f64("/writesPerSecond", self.writes_per_second, 0.0, 1e9)?;
        check_f64("/cellBytes", self.cell_bytes, 21.0, 1e9)?;
        self.keys.validate()?;
        if self.presplit.len() >= MAX_PRESPLIT_REGIONS {
            return Err(out_of_range(
                "/presplit",
                format!(
                    "{} split points: expected fewer than {MAX_PRESPLIT_REGIONS}",
                    self.presplit.len()
                ),
            ));
        }
        let n = self.keys.lanes() as f64;
        let mut last = 0.0;
        for (i, x) in self.presplit.iter().enumerate() {
            if !(x.is_finite() && *x > last && *x < n) {
                return Err(out_of_range(
                    &format!("/presplit/{i}"),
                    format!("{x}: split points must ascend strictly inside (0, {n})"),
                ));
            }
            last = *x;
        }
        Ok(())
    }

    /// Split points at every lane boundary: one region per lane (a salt's pre-split).
    pub fn presplit_by_lane(lanes: usize) -> Vec<f64> {
        (1..lanes).map(|i| i as f64).collect()
    }
}
