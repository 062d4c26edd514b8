//! The advisor's sweep (issue 28): every candidate of a preset evaluated on 200,000 records,
//! on one thread and on every core, in one run. Throughput in records/s over all candidates;
//! the target is at least 0.8 × cores × the one-thread sweep's (whose records/s is a single
//! analysis's, one candidate after the other). Rounds alternate the two so both see the same
//! machine load; medians are printed.
//!
//! `cargo bench --bench advise [-- <preset> <records> <rounds>]` (default seed000-vehicle,
//! 200000, 3).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

use std::time::Instant;

use rowkey_lab::advise::{candidates, evaluate_all, AdviseOptions};
use rowkey_lab::design::presets;

/// CPU seconds of this process so far (user + system, `/proc/self/stat` in ticks of 1/100 s);
/// 0 where there is no /proc. On a machine shared with other work the wall-clock speed-up is
/// capped by the cores left free; the CPU time per record says whether the sweep itself
/// wastes any.
fn cpu_secs() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    let after = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<f64> = after
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0.0))
        .collect();
    (f.get(11).copied().unwrap_or(0.0) + f.get(12).copied().unwrap_or(0.0)) / 100.0
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let id = args.first().map_or("seed000-vehicle", String::as_str);
    let records: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(200_000);
    let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(3);
    let doc = presets::get(id).unwrap();
    let opts = AdviseOptions {
        records,
        ..AdviseOptions::default()
    };
    let set = candidates(&doc, &opts).unwrap();
    let designs: Vec<_> = set.candidates.iter().map(|c| &c.design).collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let total = records as f64 * designs.len() as f64;
    let (mut one, mut all) = (Vec::new(), Vec::new());
    let (mut cpu_one, mut cpu_all) = (0.0, 0.0);
    let mut first = None;
    for _ in 0..rounds {
        let (t, c) = (Instant::now(), cpu_secs());
        let a = evaluate_all(&designs, &opts, set.target_regions, 1);
        one.push(total / t.elapsed().as_secs_f64());
        cpu_one += cpu_secs() - c;
        let (t, c) = (Instant::now(), cpu_secs());
        let b = evaluate_all(&designs, &opts, set.target_regions, 0);
        all.push(total / t.elapsed().as_secs_f64());
        cpu_all += cpu_secs() - c;
        assert_eq!(a, b, "one thread and every core disagree");
        first.get_or_insert(a);
    }
    let failed = first.iter().flatten().filter(|r| r.is_err()).count();
    let (one, all) = (median(one), median(all));
    let ratio = all / one;
    println!(
        "advise sweep: {id}, {} candidates ({failed} failed) x {records} records, {cores} cores, median of {rounds}",
        designs.len()
    );
    println!("| threads | records/s | speed-up |");
    println!("| 1 | {:.2} M | 1.00x |", one / 1e6);
    println!("| {cores} | {:.2} M | {ratio:.2}x |", all / 1e6);
    println!(
        "speed-up {ratio:.2} = {:.2} x cores (target >= 0.80 x cores)",
        ratio / cores as f64
    );
    if cpu_one > 0.0 {
        println!(
            "CPU time: {cpu_one:.1} s on 1 thread, {cpu_all:.1} s on {cores} ({:.2}x the work); load average {}",
            cpu_all / cpu_one,
            std::fs::read_to_string("/proc/loadavg")
                .unwrap_or_default()
                .split_whitespace()
                .next()
                .unwrap_or("?")
        );
    }
}
