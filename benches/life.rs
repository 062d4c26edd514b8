//! Months of life (issue 58): 12 months of a table growing to about 2,000 regions on 20
//! servers (a hashed key written at 40 GiB a day, Stepping, one region at create), and a
//! time-led key under a 30-day TTL with the normalizer on (merging empty regions). The goal is at most 1 s natively
//! for the first; the cost follows regions × hours, not writes. Medians of the rounds.
//!
//! `cargo bench --bench life [-- <rounds>]` (default 5).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

use std::time::Instant;

use rowkey_lab::life::{simulate, KeyModel, LifeReport, LifeSettings, LifeWorkload};

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
}

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .and_then(|a| a.parse().ok())
        .unwrap_or(5);
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
    run("hashed key, 20 servers", &grow, &hashed, rounds);
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
    run(
        "time-led key, 30-day TTL, normalizer",
        &ttl,
        &time_led,
        rounds,
    );
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
    run(
        "time-led key at 50 GB a day, 30-day TTL",
        &fast,
        &fast_led,
        rounds,
    );
}
