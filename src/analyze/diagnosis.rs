//! The diagnosis: the one verdict on how a run's writes spread over the regions ([`Spread`]),
//! chosen once here from every figure it summarises, and the findings that follow it. Every
//! shell shows these sentences as they are (the page's headline and the heatmap's
//! description, the CLI, Python, Compare): none derives a verdict of its own.

use super::report::{AnalysisReport, RegionReport};
use super::MAX_CELLS;
use crate::analyze::metrics::LoadMetrics;
use crate::hbase::bytes::to_string_binary;
use crate::support::num_text::fixed;

mod rows;
pub use rows::row_findings;
pub(crate) use rows::size_text;
use rows::{heaviest_row, heavy_prefix};

/// The region that takes 90 % or more of the whole run's writes, with the smallest and
/// largest of its sampled keys (the sample is sorted) when it has two.
type Stuck<'a> = (&'a RegionReport, Option<(&'a [u8], &'a [u8])>);
fn stuck_region(r: &AnalysisReport) -> Option<Stuck<'_>> {
    if r.metrics.overall.busiest_share < 0.9 {
        return None;
    }
    let g = r.regions.iter().max_by_key(|g| g.writes)?;
    let mut keys = r
        .sample
        .iter()
        .filter(|s| s.region == g.index)
        .map(|s| &s.key[..]);
    let range = keys.next().zip(keys.next_back());
    Some((g, range))
}

pub use super::report::Spread;

/// A busiest region at this many times the mean load or more is a hotspot.
pub const HOTSPOT: f64 = 2.0;
/// A busiest region under this many times the mean load is even.
pub const EVEN: f64 = 1.5;
/// A window's effective parallelism under this share of the whole run's (after counting
/// noise, see [`WindowFigures`]) says the load moves.
pub const WINDOW_PARALLELISM: f64 = 0.75;
/// A window figure counts only when it is this many times what counting noise alone gives.
pub const NOISE_MARGIN: f64 = 1.25;
/// One region taking this share of a loaded window or more, in every window, is the
/// time-led key's signature.
pub const HOT_WINDOW_SHARE: f64 = 0.9;

/// What a window sees, with what counting noise alone would show on a perfectly even key:
/// with λ writes per region and window, the busiest of n regions takes about
/// 1 + √(2 ln n / λ) times the mean (the largest of n Poisson counts, in the normal
/// approximation), and the effective parallelism is about n · λ / (λ + 1). A window figure
/// is judged only beyond those, so a short window over few writes is not called a hotspot.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WindowFigures {
    /// Mean writes per region in a loaded window (λ).
    pub writes_per_region: f64,
    /// The busiest region's factor over the mean that noise alone gives.
    pub noise_hotspot: f64,
    /// The share of the run's effective parallelism that noise alone leaves a window.
    pub noise_parallelism: f64,
}

impl WindowFigures {
    /// The noise figures of a report's windows.
    pub fn of(r: &AnalysisReport) -> WindowFigures {
        let n = r.regions.len().max(1) as f64;
        let loaded = r.metrics.loaded_windows.max(1) as f64;
        let lambda = r.writes as f64 / loaded / n;
        if lambda <= 0.0 {
            return WindowFigures {
                writes_per_region: 0.0,
                noise_hotspot: n,
                noise_parallelism: 0.0,
            };
        }
        WindowFigures {
            writes_per_region: lambda,
            noise_hotspot: 1.0 + libm::sqrt(2.0 * libm::log(n) / lambda),
            noise_parallelism: lambda / (lambda + 1.0),
        }
    }

    /// The windows' mean hotspot factor is beyond noise and at least `factor`.
    fn hotspot_at_least(&self, mean_window_hotspot: f64, factor: f64) -> bool {
        mean_window_hotspot >= factor && mean_window_hotspot >= NOISE_MARGIN * self.noise_hotspot
    }
}

/// The verdict on `r`, first rule that holds:
/// 1. no writes → [`Spread::NoWrites`]; one region → [`Spread::OneRegion`];
/// 2. one region takes [`HOT_WINDOW_SHARE`] or more of every loaded window →
///    [`Spread::HotEveryWindow`];
/// 3. with two loaded windows or more, a window's mean effective parallelism is under
///    [`WINDOW_PARALLELISM`] × the run's × noise's share, or its mean hotspot factor is at
///    least [`HOTSPOT`], [`NOISE_MARGIN`] × noise's and 1.5 × the run's → [`Spread::MovingHotspot`];
/// 4. the run's hotspot factor, or a window's beyond noise, is at least [`HOTSPOT`] →
///    [`Spread::HotRegion`];
/// 5. either is at least [`EVEN`], or a region took no writes → [`Spread::Uneven`];
/// 6. else [`Spread::Even`].
pub fn spread_of(r: &AnalysisReport) -> Spread {
    let m = &r.metrics;
    let n = r.regions.len();
    if r.writes == 0 {
        return Spread::NoWrites;
    }
    if n <= 1 {
        return Spread::OneRegion;
    }
    if min_window_share(r).is_some_and(|s| s >= HOT_WINDOW_SHARE) {
        return Spread::HotEveryWindow;
    }
    let noise = WindowFigures::of(r);
    let overall = &m.overall;
    if m.loaded_windows > 1
        && (m.mean_effective_parallelism
            < WINDOW_PARALLELISM * overall.effective_parallelism * noise.noise_parallelism
            || (noise.hotspot_at_least(m.mean_hotspot_factor, HOTSPOT)
                && m.mean_hotspot_factor >= 1.5 * overall.hotspot_factor))
    {
        return Spread::MovingHotspot;
    }
    if overall.hotspot_factor >= HOTSPOT || noise.hotspot_at_least(m.mean_hotspot_factor, HOTSPOT) {
        return Spread::HotRegion;
    }
    if overall.hotspot_factor >= EVEN
        || overall.empty_regions > 0
        || noise.hotspot_at_least(m.mean_hotspot_factor, EVEN)
    {
        return Spread::Uneven;
    }
    Spread::Even
}

/// The smallest share the busiest region takes of a loaded window (`None` without one).
fn min_window_share(r: &AnalysisReport) -> Option<f64> {
    let loaded: Vec<&LoadMetrics> = r
        .metrics
        .per_window
        .iter()
        .filter(|w| w.total > 0)
        .collect();
    (!loaded.is_empty()).then(|| {
        loaded
            .iter()
            .map(|w| w.busiest_share)
            .fold(f64::INFINITY, f64::min)
    })
}

/// Plain-language findings from a report, the verdict ([`spread_of`]) first, then the
/// heaviest row when one row outweighs a region's even share, empty regions and splits.
/// `led_by_time` says whether the key design leads with a timestamp or sequence (lint's
/// `monotonic-leading`), when the caller knows the design: one region hot all run long then
/// has one cause, not two.
pub fn diagnose(r: &AnalysisReport, led_by_time: Option<bool>) -> Vec<String> {
    let mut out = Vec::new();
    let m = &r.metrics;
    let n = r.regions.len();
    let spread = spread_of(r);
    match spread {
        Spread::NoWrites => {
            out.push("no writes were analyzed".to_string());
            return out;
        }
        Spread::OneRegion => out.push(one_region(r)),
        Spread::HotEveryWindow => out.push(hot_in_every_window(
            r,
            min_window_share(r).unwrap_or(1.0),
            led_by_time,
        )),
        Spread::MovingHotspot => out.extend(moving_hotspot(r)),
        Spread::HotRegion => out.extend(hot_region(r)),
        Spread::Uneven => out.extend(uneven(r)),
        Spread::Even => out.extend(even(r)),
    }
    if matches!(spread, Spread::HotEveryWindow | Spread::MovingHotspot)
        && m.overall.hotspot_factor >= HOTSPOT
    {
        out.push(format!(
            "over the whole run the busiest region takes {} x the mean load ({} % of all writes)",
            fixed(m.overall.hotspot_factor, 1),
            fixed(m.overall.busiest_share * 100.0, 0)
        ));
    }
    if let Some(line) = heaviest_row(r) {
        out.push(line);
    } else if let Some(line) = heavy_prefix(r) {
        out.push(line);
    }
    if n > 1 && m.overall.empty_regions > 0 {
        out.extend(unwritten(r, n));
    }
    if !r.splits.is_empty() {
        out.push(format!(
            "auto-split created {} regions from {} splits",
            n,
            r.splits.len()
        ));
    }
    if r.split_limit_reached {
        out.push(format!(
            "auto-split stopped at {n} regions: more would exceed {MAX_CELLS} matrix cells"
        ));
    }
    out
}

/// The regions that took no writes, told apart: a range that holds no key of the design (a
/// pre-split at the wrong places) is not a region a split left behind a key that moves with
/// time, which holds the rows written before its split and is simply no longer written.
fn unwritten(r: &AnalysisReport, n: usize) -> Vec<String> {
    let (behind, empty): (Vec<_>, Vec<_>) = r
        .regions
        .iter()
        .filter(|g| g.writes == 0)
        .partition(|g| g.distinct_rows > 0);
    let mut out = Vec::new();
    if !empty.is_empty() {
        out.push(format!(
            "{} of {n} regions received no writes: their key ranges hold no keys of this \
             design (for example `Bytes.split` over hex text leaves the ranges between '9' \
             and 'a' and above 'f' empty)",
            empty.len()
        ));
    }
    if !behind.is_empty() {
        let rows: u64 = behind.iter().map(|g| g.distinct_rows).sum();
        // an estimate's figure carries its bound (each region's; the sum's is no wider)
        let bound = behind
            .iter()
            .map(|g| g.distinct_rows_error)
            .fold(0.0, f64::max);
        let estimate = if bound > 0.0 {
            format!(" (an estimate, within ± {} %)", fixed(bound * 100.0, 1))
        } else {
            String::new()
        };
        out.push(format!(
            "{} of {n} regions took no writes after the split that made them: they hold the \
             {rows} rows{estimate} written before it, behind writes that moved on (a key that \
             moves with time or a sequence leaves each region it splits behind it), not empty \
             ranges",
            behind.len()
        ));
    }
    out
}

/// One region: what it means on a cluster, whatever the numbers say about evenness.
fn one_region(r: &AnalysisReport) -> String {
    let servers = r.servers.len();
    let idle = if servers > 1 {
        format!(" ({} of the {servers} servers take nothing)", servers - 1)
    } else {
        String::new()
    };
    format!(
        "one region takes every write and every read: HBase serves a region from one server, \
         so the table uses one server however large the cluster{idle}. Pre-split the table \
         (at the key's buckets, or at quantiles of its keys) or let auto-split cut it"
    )
}

/// A hotspot that moves: the headline (what one window sees, against the whole run), then what
/// it means and a window's busiest region. Each verdict is a short headline and a line of its
/// figures: the headline is what an embedded map's caption and a compare column show.
fn moving_hotspot(r: &AnalysisReport) -> [String; 2] {
    let m = &r.metrics;
    let n = r.regions.len();
    [
        format!(
            "a hotspot that moves: {} of {n} regions take the writes of any {} window on \
             average (effective parallelism {} per window against {} over the whole run)",
            fixed(m.mean_active_regions, 1),
            window_text(r.window_ms),
            fixed(m.mean_effective_parallelism, 1),
            fixed(m.overall.effective_parallelism, 1),
        ),
        format!(
            "writes move through the key space, so the cluster writes at the speed of the \
             regions a window reaches, not of all {n}: the busiest region of a window takes {} \
             x the mean (up to {} x)",
            fixed(m.mean_hotspot_factor, 2),
            fixed(m.max_hotspot_factor, 2),
        ),
    ]
}

/// The busiest region named, with its share of the whole run.
fn busiest(r: &AnalysisReport) -> String {
    let m = &r.metrics.overall;
    let name = m.busiest_region.and_then(|i| r.regions.get(i)).map_or(
        "the busiest region".to_string(),
        |g| {
            if g.start_key.is_empty() {
                format!("region {} (from the first row)", g.index)
            } else {
                format!("region {} (from `{}`)", g.index, g.start_key)
            }
        },
    );
    format!(
        "{name} takes {} x the mean load ({} % of all writes)",
        fixed(m.hotspot_factor, 1),
        fixed(m.busiest_share * 100.0, 0)
    )
}

/// What a window's busiest region takes, with the parallelism of a window against the run's.
fn window_hotspot(r: &AnalysisReport) -> String {
    let m = &r.metrics;
    format!(
        "the busiest region of a {} window takes {} x the mean (up to {} x; effective \
         parallelism {} per window against {} over the whole run)",
        window_text(r.window_ms),
        fixed(m.mean_hotspot_factor, 2),
        fixed(m.max_hotspot_factor, 2),
        fixed(m.mean_effective_parallelism, 1),
        fixed(m.overall.effective_parallelism, 1),
    )
}

/// One region hot over the run, or in its windows when the run's totals are not (the
/// window's figure leads then: it is what the servers feel); the other figure follows.
fn hot_region(r: &AnalysisReport) -> [String; 2] {
    if r.metrics.overall.hotspot_factor >= HOTSPOT {
        [
            format!("a hot region: {}", busiest(r)),
            format!("in a window, {}", window_hotspot(r)),
        ]
    } else {
        [
            format!("a hot region at any one time: {}", window_hotspot(r)),
            format!("over the whole run {}", busiest(r)),
        ]
    }
}

/// A spread neither even nor hot.
fn uneven(r: &AnalysisReport) -> [String; 2] {
    let m = &r.metrics;
    [
        format!("writes are uneven: {}", busiest(r)),
        format!(
            "effective parallelism {} of {} regions over the run and {} per {} window",
            fixed(m.overall.effective_parallelism, 1),
            r.regions.len(),
            fixed(m.mean_effective_parallelism, 1),
            window_text(r.window_ms),
        ),
    ]
}

/// An even spread: over the run and per window; then the busiest region against what
/// counting noise gives.
fn even(r: &AnalysisReport) -> [String; 2] {
    let m = &r.metrics;
    let noise = WindowFigures::of(r);
    [
        format!(
            "writes are spread evenly: effective parallelism {} of {} regions over the run, {} \
             per {} window",
            fixed(m.overall.effective_parallelism, 1),
            r.regions.len(),
            fixed(m.mean_effective_parallelism, 1),
            window_text(r.window_ms),
        ),
        format!(
            "the busiest region takes {} x the mean ({} x in a window, about what counting {} \
             writes per region and window gives by chance)",
            fixed(m.overall.hotspot_factor, 2),
            fixed(m.mean_hotspot_factor, 2),
            fixed(noise.writes_per_region, 0),
        ),
    ]
}

/// A window's length in words, as an adjective: `56-second`, `2.5-minute`, `3-hour`.
fn window_text(ms: i64) -> String {
    let ms = ms.max(0) as f64;
    let (value, unit) = if ms < 1_000.0 {
        (ms, "millisecond")
    } else if ms < 120_000.0 {
        (ms / 1_000.0, "second")
    } else if ms < 7_200_000.0 {
        (ms / 60_000.0, "minute")
    } else if ms < 172_800_000.0 {
        (ms / 3_600_000.0, "hour")
    } else {
        (ms / 86_400_000.0, "day")
    };
    let digits = if value >= 10.0 || (value - value.round()).abs() < 0.05 {
        0
    } else {
        1
    };
    format!("{}-{unit}", fixed(value, digits))
}

/// The finding when one region takes at least `min_share` (0.9 or more) of the writes in
/// every time window: the time-led key, or (when the same region is hot all run long and
/// the design does not lead with time) split points that miss the keys' range.
fn hot_in_every_window(r: &AnalysisReport, min_share: f64, led_by_time: Option<bool>) -> String {
    let n = r.regions.len();
    let share = if min_share >= 0.995 {
        "all the".to_string()
    } else {
        format!("{} % or more of the", fixed(min_share * 100.0, 0))
    };
    let time = format!(
        "the key leads with something that grows with time (a timestamp or sequence), so \
         {} of {n} regions idle while one is hot. Put a salt or hash bucket, or a \
         high-cardinality field, in front",
        n - 1
    );
    let (Some((g, range)), Some(false) | None) = (stuck_region(r), led_by_time) else {
        return format!("one region takes {share} writes in every time window: {time}");
    };
    // The same region all run long: every key falls between two split points.
    // Keys and bounds as the shell prints them (toStringBinary), in backticks: JSON
    // quotes would double every backslash of `\x02`.
    let keys = range.map_or(String::new(), |(lo, hi)| {
        format!(" (`{}` … `{}`)", to_string_binary(lo), to_string_binary(hi))
    });
    let cause = if led_by_time.is_some() {
        "the key does not lead with a timestamp or sequence, so the split points \
         miss the range the keys fall in, as with split keys made for another key \
         design. Split inside that range: at the key's salt buckets, or at \
         quantiles of its keys"
            .to_string()
    } else {
        format!(
            "either {time}, or the split points miss the range the keys fall in \
             (split keys made for another key design): then split inside it"
        )
    };
    let bound = |k: &str, none: &str| {
        if k.is_empty() {
            none.to_string()
        } else {
            format!("`{k}`")
        }
    };
    format!(
        "one region takes {share} writes in every time window, region {} (from {} \
         to {}), which every key falls in{keys}: {cause}",
        g.index,
        bound(&g.start_key, "the first row"),
        bound(&g.end_key, "the end of the table"),
    )
}
