//! Months of life (issue 58): 12 months of a table growing to about 2,000 regions on 20
//! servers (a hashed key written at 40 GiB a day, Stepping, one region at create), and a
//! time-led key under a 30-day TTL with the normalizer on (merging empty regions). The goal is at most 1 s natively
//! for the first; the cost follows regions × hours, not writes. Medians of the rounds.
//!
//! `cargo bench --bench life [-- <rounds> [<case>]]` (default 5, every case); `-- steps [months]` measures what the
//! hourly step approximates (any profile: the figures do not depend on it).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

use std::time::Instant;

use rowkey_lab::life::{simulate, KeyModel, LifeMonth, LifeReport, LifeSettings, LifeWorkload};

const GIB: f64 = (1u64 << 30) as f64;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn run(name: &str, s: &LifeSettings, w: &LifeWorkload, rounds: usize) {
    let mut times = Vec::new();
    let mut last: Option<LifeReport> = None;
    for _ in 0..rounds {
        let t = Instant::now();
        let r = simulate(s, w).unwrap();
        times.push(t.elapsed().as_secs_f64());
        last = Some(r);
    }
    let r = last.unwrap();
    let secs = median(times);
    let end = r.months.last().unwrap();
    let region_hours: f64 = r.months.iter().map(|m| f64::from(m.regions)).sum::<f64>() * 720.0;
    println!(
        "{name}: {} months, {} regions at the end on {} servers, {:.3} s; {:.1} months/s, {:.2e} region-hours/s",
        s.months,
        end.regions,
        s.servers,
        secs,
        f64::from(s.months) / secs,
        region_hours / secs,
    );
    let total = |f: fn(&LifeMonth) -> u64| r.months.iter().map(f).sum::<u64>();
    println!(
        "  {name}: {} flushes, {} balancer runs moving {} regions, {} splits, {} merges",
        total(|m| m.flushes),
        total(|m| u64::from(m.balancer_runs)),
        total(|m| u64::from(m.moves)),
        total(|m| u64::from(m.splits)),
        total(|m| u64::from(m.merges)),
    );
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let cases = cases();
    if args.first().is_some_and(|a| a == "steps") {
        let months: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(3);
        let short: Vec<_> = cases
            .into_iter()
            .map(|(n, mut s, w)| {
                s.months = months;
                (n, s, w)
            })
            .collect();
        steps(&short);
        return;
    }
    let rounds: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(5);
    // A second argument runs only the cases whose name holds it (for a profile of one).
    let only = args.get(1).map_or("", String::as_str);
    for (name, s, w) in cases.iter().filter(|c| c.0.contains(only)) {
        run(name, s, w, rounds);
    }
}

/// The three cases: a hashed key growing to 2,048 regions (the 1 s goal), a time-led key under
/// a 30-day TTL with the normalizer on, a time-led key at 50 GB a day.
fn cases() -> Vec<(&'static str, LifeSettings, LifeWorkload)> {
    let cell = 1000.0;
    let grow = LifeSettings {
        months: 12,
        servers: 20,
        ..LifeSettings::default()
    };
    let hashed = LifeWorkload {
        writes_per_second: 40.0 * GIB / 86_400.0 / cell,
        cell_bytes: cell,
        keys: KeyModel::uniform(1024),
        presplit: vec![],
    };
    let mut ttl = LifeSettings {
        months: 12,
        servers: 20,
        ttl_seconds: Some(30 * 86_400),
        ..LifeSettings::default()
    };
    ttl.normalizer.enabled = true;
    // The Java constant's 0 MB: the emptied regions merge (at 1 MB they pile up instead).
    ttl.normalizer.merge_min_region_size_mb = 0;
    let time_led = LifeWorkload {
        writes_per_second: 20.0 * GIB / 86_400.0 / cell,
        cell_bytes: cell,
        keys: KeyModel::time_led(),
        presplit: vec![],
    };
    // 50 GB a day into the tail region of a time-led key: about 15 flushes of 128 MiB an
    // hour, each its own store file (issue 68), under HBase's defaults and a 30-day TTL.
    let fast = LifeSettings {
        months: 12,
        servers: 20,
        ttl_seconds: Some(30 * 86_400),
        ..LifeSettings::default()
    };
    let fast_led = LifeWorkload {
        writes_per_second: 50e9 / 86_400.0 / cell,
        cell_bytes: cell,
        keys: KeyModel::time_led(),
        presplit: vec![],
    };
    vec![
        ("hashed key, 20 servers", grow, hashed),
        ("time-led key, 30-day TTL, normalizer", ttl, time_led),
        ("time-led key at 50 GB a day, 30-day TTL", fast, fast_led),
    ]
}

/// `steps`: what the hour approximates, measured. Each case runs at hourly steps and at 15- and
/// 5-minute steps (writes given to regions every 5 minutes, chores and flushes at their times
/// either way); for each figure the Months view shows, the largest difference of the hourly run
/// from the 5-minute one over the months, relative to the 5-minute figure.
fn steps(cases: &[(&str, LifeSettings, LifeWorkload)]) {
    type Figure = (&'static str, fn(&LifeMonth) -> f64);
    let figures: [Figure; 9] = [
        ("regions", |m| f64::from(m.regions)),
        ("empty regions", |m| f64::from(m.empty_regions)),
        ("on disk", |m| m.on_disk_bytes),
        ("within the TTL", |m| m.live_bytes),
        ("largest region (peak)", |m| m.largest_region_bytes),
        ("hottest server's share", |m| m.hottest_server_write_share),
        ("most regions on a server", |m| {
            f64::from(m.servers.iter().map(|s| s.regions).max().unwrap_or(0))
        }),
        ("splits", |m| f64::from(m.splits)),
        ("merges", |m| f64::from(m.merges)),
    ];
    for (name, s, w) in cases {
        let run = |hours: f64, seed: u64| {
            let mut s = s.clone();
            s.step_hours = hours;
            s.seed = seed;
            simulate(&s, w).unwrap()
        };
        let (hourly, quarter, fine) = (run(1.0, 0), run(0.25, 0), run(1.0 / 12.0, 0));
        // The same 5-minute run with another seed (the split policy's and the major
        // compactions' jitter): how far a figure moves with a draw HBase makes at random.
        let reseeded = run(1.0 / 12.0, 1);
        println!(
            "{name}, {} months: | figure | 1 h vs 5 min | 15 min vs 5 min | 5 min, another seed |",
            s.months
        );
        for (label, f) in &figures {
            let worst = |r: &LifeReport| {
                r.months
                    .iter()
                    .zip(&fine.months)
                    .map(|(a, b)| {
                        let (a, b) = (f(a), f(b));
                        if b == 0.0 {
                            if a == 0.0 {
                                0.0
                            } else {
                                f64::INFINITY
                            }
                        } else {
                            (a - b).abs() / b.abs()
                        }
                    })
                    .fold(0.0, f64::max)
            };
            println!(
                "steps | {name} | {label} | {:.2} % | {:.2} % | {:.2} % |",
                100.0 * worst(&hourly),
                100.0 * worst(&quarter),
                100.0 * worst(&reseeded)
            );
        }
    }
}
