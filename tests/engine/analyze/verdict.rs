//! The diagnosis's verdict ([`spread_of`]), on both sides of each threshold of its rule, on
//! matrices built by hand: which regions take a window's writes is set by the test, so the
//! figures the rule reads are known without the engine (16 regions, 8 windows of 1 s).

use rowkey_lab::analyze::{AnalysisReport, Analyzer, Spread, HOTSPOT};

use super::common::{mix, opts, T0};

/// 16 regions split at one-byte keys 0x10, 0x20, … 0xf0.
fn splits() -> Vec<Vec<u8>> {
    (1..16u8).map(|i| vec![i * 16]).collect()
}

/// A report of `writes(window, region)` writes into each region in each of 8 windows, each
/// write its own row (key: the region's byte, then a counter).
fn report(writes: impl Fn(usize, usize) -> u64) -> AnalysisReport {
    let mut a = Analyzer::new(splits(), opts(8, 1000)).unwrap();
    let mut n = 0u64;
    for w in 0..8 {
        for g in 0..16 {
            for _ in 0..writes(w, g) {
                n += 1;
                let mut key = vec![g as u8 * 16];
                key.extend_from_slice(&n.to_be_bytes());
                a.push(&key, T0 + w as i64 * 1000 + 500, 100);
            }
        }
    }
    a.finish()
}

fn head(r: &AnalysisReport) -> &str {
    r.diagnosis.first().map_or("", String::as_str)
}

#[test]
fn one_region_is_its_own_verdict() {
    let mut a = Analyzer::new(vec![], opts(8, 1000)).unwrap();
    for i in 0..1000u64 {
        a.push(&mix(i).to_be_bytes(), T0 + (i as i64 % 8000), 100);
    }
    let r = a.finish();
    // every metric is "perfectly even" for one region: the verdict must not say so
    assert!((r.metrics.overall.hotspot_factor - 1.0).abs() < 1e-9);
    assert_eq!(r.spread, Spread::OneRegion);
    assert!(
        head(&r).starts_with("one region takes every write"),
        "{r:?}"
    );
    assert!(head(&r).contains("one server"), "{}", head(&r));
    assert!(!r.diagnosis.iter().any(|d| d.contains("evenly")));
}

#[test]
fn a_window_at_half_the_runs_parallelism_moves() {
    // The salted key each of whose buckets split once: its older half takes the first half of
    // the run, its newer half the rest. Over the run every region takes 1/16 (parallelism 16),
    // in a window 8 regions (parallelism 8): under 0.75 x 16.
    let r = report(|w, g| if (g % 2 == 0) == (w < 4) { 200 } else { 0 });
    let m = &r.metrics;
    assert!((m.overall.effective_parallelism - 16.0).abs() < 1e-9);
    assert!((m.mean_effective_parallelism - 8.0).abs() < 1e-9);
    assert_eq!(r.spread, Spread::MovingHotspot, "{:?}", r.diagnosis);
    assert!(head(&r).contains("hotspot that moves"), "{}", head(&r));
    assert!(
        head(&r).contains("8.0 per window against 16.0"),
        "{}",
        head(&r)
    );
    assert!(
        !r.diagnosis.iter().any(|d| d.contains("evenly")),
        "{:?}",
        r.diagnosis
    );
    // The other side: a window reaches 14 of 16 regions (parallelism 14, above 0.75 x 16
    // = 12): even, with the window's figure quoted beside the run's.
    let r = report(|w, g| if (g + w) % 8 == 0 { 0 } else { 200 });
    let m = &r.metrics;
    assert!(
        (m.mean_effective_parallelism - 14.0).abs() < 1e-9,
        "{}",
        m.mean_effective_parallelism
    );
    assert!(m.mean_effective_parallelism >= 0.75 * m.overall.effective_parallelism);
    assert_ne!(r.spread, Spread::MovingHotspot, "{:?}", r.diagnosis);
    assert!(
        head(&r).contains("14.0 per 1-second window"),
        "{}",
        head(&r)
    );
}

#[test]
fn a_windows_hotspot_past_twice_the_mean_and_half_again_the_runs_moves() {
    // One region a window takes 3 shares of 18 (hotspot 16 x 3/18 = 2.67), each window
    // another: the run's totals even out (hotspot 1.0, parallelism 16), a window's do not.
    let hot = |w: usize, g: usize, heavy: u64| if g == w * 2 { heavy } else { 100 };
    let r = report(|w, g| hot(w, g, 300));
    let m = &r.metrics;
    assert!(
        m.mean_hotspot_factor >= HOTSPOT,
        "{}",
        m.mean_hotspot_factor
    );
    assert!(
        m.mean_effective_parallelism >= 0.75 * 16.0,
        "{}",
        m.mean_effective_parallelism
    );
    assert!(
        m.overall.hotspot_factor < 1.5,
        "{}",
        m.overall.hotspot_factor
    );
    assert_eq!(r.spread, Spread::MovingHotspot, "{:?}", r.diagnosis);
    // Under twice the mean (16 x 2.1/17.1 = 1.96), still above 1.5: uneven, never "evenly".
    let r = report(|w, g| hot(w, g, 210));
    assert!(r.metrics.mean_hotspot_factor < HOTSPOT);
    assert_eq!(r.spread, Spread::Uneven, "{:?}", r.diagnosis);
    assert!(head(&r).starts_with("writes are uneven"), "{}", head(&r));
}

#[test]
fn the_run_past_twice_the_mean_is_a_hot_region() {
    // Region 3 takes k times the others' writes in every window: hotspot 16k / (15 + k).
    let r = report(|_, g| if g == 3 { 300 } else { 100 }); // 48/18 = 2.67
    assert_eq!(r.spread, Spread::HotRegion, "{:?}", r.diagnosis);
    assert!(head(&r).contains("region 3 (from `0`)"), "{}", head(&r));
    let r = report(|_, g| if g == 3 { 180 } else { 100 }); // 28.8/16.8 = 1.71
    assert_eq!(r.spread, Spread::Uneven, "{:?}", r.diagnosis);
    let r = report(|_, g| if g == 3 { 140 } else { 100 }); // 22.4/16.4 = 1.37
    assert_eq!(r.spread, Spread::Even, "{:?}", r.diagnosis);
    assert!(
        head(&r).starts_with("writes are spread evenly"),
        "{}",
        head(&r)
    );
}

#[test]
fn an_empty_region_is_never_even() {
    let r = report(|_, g| if g == 15 { 0 } else { 100 });
    assert_eq!(r.metrics.overall.empty_regions, 1);
    assert_eq!(r.spread, Spread::Uneven, "{:?}", r.diagnosis);
}

#[test]
fn counting_noise_is_not_a_hotspot() {
    // 3 writes per region and window, at random: the busiest region of a window takes over
    // twice the mean by chance alone (1 + sqrt(2 ln 16 / 3) = 2.36), on a perfectly even key.
    let mut a = Analyzer::new(splits(), opts(8, 1000)).unwrap();
    for i in 0..(16 * 8 * 3) as u64 {
        let mut key = vec![(mix(i) >> 56) as u8];
        key.extend_from_slice(&i.to_be_bytes());
        a.push(&key, T0 + (i as i64 % 8) * 1000 + 1, 100);
    }
    let r = a.finish();
    assert!(
        r.metrics.mean_hotspot_factor >= HOTSPOT,
        "premise: {}",
        r.metrics.mean_hotspot_factor
    );
    assert!(
        !matches!(r.spread, Spread::HotRegion | Spread::MovingHotspot),
        "{:?}: {:?}",
        r.spread,
        r.diagnosis
    );
}

#[test]
fn a_row_past_an_even_regions_share_is_named() {
    // One row takes 10 % of the writes, more than 1/16: named, with its share.
    let mut a = Analyzer::new(splits(), opts(8, 1000)).unwrap();
    let mut n = 0u64;
    for w in 0..8i64 {
        for g in 0..16u8 {
            for _ in 0..90 {
                n += 1;
                let mut key = vec![g * 16 + 1];
                key.extend_from_slice(&n.to_be_bytes());
                a.push(&key, T0 + w * 1000, 100);
            }
        }
    }
    for i in 0..1280i64 {
        a.push(b"\x55hot-row", T0 + (i % 8) * 1000, 100);
    }
    let r = a.finish();
    let named: Vec<&String> = r
        .diagnosis
        .iter()
        .filter(|d| d.starts_with("a heavy row"))
        .collect();
    assert_eq!(named.len(), 1, "{:?}", r.diagnosis);
    assert!(
        named[0].contains("`Uhot-row` takes 10.0 % of all writes"),
        "{}",
        named[0]
    );
    // At 5 % (under 1/16 = 6.25 %) it is not.
    let mut a = Analyzer::new(splits(), opts(8, 1000)).unwrap();
    for i in 0..12160u64 {
        let mut key = vec![(i % 16) as u8 * 16 + 1];
        key.extend_from_slice(&i.to_be_bytes());
        a.push(&key, T0 + (i as i64 % 8) * 1000, 100);
    }
    for i in 0..640i64 {
        a.push(b"\x55hot-row", T0 + (i % 8) * 1000, 100);
    }
    let r = a.finish();
    assert!(
        !r.diagnosis.iter().any(|d| d.starts_with("a heavy row")),
        "{:?}",
        r.diagnosis
    );
}

#[test]
fn a_heavy_key_prefix_is_named_with_its_share_and_regions() {
    // 200,000 readings in time order, one device of 1,000 sending 27 % of them, the key its id
    // then the time, the table cut at 16 quantiles of the keys: dev-00001 fills the first
    // regions, and in time order, so one of them takes its writes at a time.
    let mut keys: Vec<(Vec<u8>, i64)> = Vec::new();
    for i in 0..200_000u64 {
        let x = mix(i);
        let device = if x % 100 < 27 { 1 } else { 2 + (x >> 8) % 999 };
        let t = T0 + i as i64 * 10;
        let mut k = format!("dev-{device:05}_").into_bytes();
        k.extend_from_slice(&t.to_be_bytes());
        keys.push((k, t));
    }
    let mut sorted: Vec<&Vec<u8>> = keys.iter().map(|k| &k.0).collect();
    sorted.sort();
    let splits: Vec<Vec<u8>> = (1..16)
        .map(|q| sorted[q * sorted.len() / 16].clone())
        .collect();
    let mut a = Analyzer::new(splits, opts(64, 2_000_000 / 64)).unwrap();
    for (k, t) in &keys {
        a.push(k, *t, 100);
    }
    let r = a.finish();
    let named: Vec<&String> = r
        .diagnosis
        .iter()
        .filter(|d| d.starts_with("a heavy key prefix"))
        .collect();
    assert_eq!(named.len(), 1, "{:#?}", r.diagnosis);
    assert!(
        named[0].contains("keys starting `dev-00001`"),
        "{}",
        named[0]
    );
    // about 27 % of a 1,000-key sample: within four standard errors (1.4 % each)
    let share: f64 = named[0]
        .split("take about ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|t| t.parse().ok())
        .unwrap();
    assert!((share - 27.0).abs() <= 6.0, "{share}");
    assert!(
        named[0].contains("regions 0 to 4 hold them"),
        "{}",
        named[0]
    );
    // and the verdict: the run's totals are even (quantiles), a window's are not
    assert_eq!(r.spread, Spread::MovingHotspot, "{:#?}", r.diagnosis);
    // A salt's buckets, each an even share, are not heavy: 8 buckets on 16 regions.
    let mut a = Analyzer::new(splits_of_buckets(), opts(8, 1000)).unwrap();
    for i in 0..20_000u64 {
        let mut k = vec![(mix(i) % 8) as u8];
        k.extend_from_slice(&i.to_be_bytes());
        a.push(&k, T0 + (i as i64 % 8000), 100);
    }
    let r = a.finish();
    assert!(
        !r.diagnosis.iter().any(|d| d.starts_with("a heavy")),
        "{:#?}",
        r.diagnosis
    );
}

/// 16 regions over 8 one-byte salt buckets: each bucket cut in two.
fn splits_of_buckets() -> Vec<Vec<u8>> {
    (0..8u8)
        .flat_map(|b| [vec![b, 0x80], vec![b + 1]])
        .take(15)
        .collect()
}
