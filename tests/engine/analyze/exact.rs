//! Exact where users decide, marked where not: rows fed to a run (or counted with `exactRows`)
//! are counted exactly while they fit `MAX_EXACT_ROWS`, so the largest rows and the distinct
//! rows of the table and of each region are the truth; past the cap they are the sketches'
//! estimates, marked with their bounds, and the truth lies within them. Either way the report
//! is the same whatever the blocks were counted apart.

use std::collections::BTreeMap;

use rowkey_lab::analyze::{
    analyze, analyze_parallel, AnalysisReport, AnalysisRun, AnalyzeOptions, Analyzer,
    MAX_EXACT_ROWS,
};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::workload::BLOCK_RECORDS;
use serde_json::{json, Map, Value};

use super::common::{mix, opts, T0};
use crate::cases::Failures;

/// Bytes of every write's value in the fed design.
const VALUE: u64 = 10;

/// A design keyed by one string field, pre-split at `b` and `m`.
fn id_doc() -> DesignDocument {
    let text = json!({"v": 1,
        "fields": [{"name": "id", "type": "string"}],
        "key": "id",
        "workload": {"records": 1, "valueSize": VALUE},
        "regions": {"presplit": {"kind": "explicit", "keys": ["b", "m"]}}});
    DesignDocument::from_json(&text.to_string()).unwrap()
}

/// The rows fed, in order: 60,000 rows of one write (`a…`, `c…`, `x…`), 31 rows of two writes
/// (`d…`) whose second write comes after every other row, 3 rows of three and one of four
/// (`n…`, `e…`), interleaved with the single rows so a bounded sketch meets them late.
fn fed_ids() -> Vec<String> {
    let mut ids = Vec::new();
    let single = |i: u32| {
        let p = ["a", "c", "x"][(i % 3) as usize];
        format!("{p}{i:07}")
    };
    for i in 0..60_000u32 {
        ids.push(single(i));
        match i {
            10_000 | 20_000 | 30_000 | 40_000 => ids.push("n0000004".into()),
            15_000 | 25_000 | 35_000 => {
                for k in 1..=3 {
                    ids.push(format!("e000000{k}"));
                }
            }
            _ => {}
        }
        if i % 1000 == 500 && i / 1000 < 31 {
            ids.push(format!("d{:07}", i / 1000));
        }
    }
    for k in 0..31 {
        ids.push(format!("d{k:07}"));
    }
    ids
}

fn records(ids: &[String]) -> Vec<Map<String, Value>> {
    ids.iter()
        .map(|id| {
            let mut m = Map::new();
            m.insert("id".into(), Value::String(id.clone()));
            m
        })
        .collect()
}

/// The truth, counted here: writes per row, the largest by bytes (ties by key).
fn truth(ids: &[String]) -> (BTreeMap<&str, u64>, Vec<(&str, u64)>) {
    let mut per: BTreeMap<&str, u64> = BTreeMap::new();
    for id in ids {
        *per.entry(id.as_str()).or_default() += 1;
    }
    let mut top: Vec<(&str, u64)> = per.iter().map(|(k, w)| (*k, *w)).collect();
    // Every key has 8 bytes: bytes order like writes.
    top.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    top.truncate(32);
    (per, top)
}

fn fed_report(ids: &[String]) -> AnalysisReport {
    let doc = id_doc();
    let mut run = AnalysisRun::new(&doc, &AnalyzeOptions::default()).unwrap();
    for chunk in records(ids).chunks(4096) {
        run.feed(chunk).unwrap();
    }
    run.finish()
}

#[test]
fn fed_rows_give_the_exact_largest_rows_and_distinct_rows_per_region() {
    let ids = fed_ids();
    let (per, top) = truth(&ids);
    let r = fed_report(&ids);
    let mut f = Failures::new("fed rows, exact");
    f.eq("largest rows exact", &r.largest_rows_exact, &true);
    f.eq("distinct rows exact", &r.distinct_rows_exact, &true);
    f.eq("table distinct rows", &r.distinct_rows, &(per.len() as u64));
    f.eq("table error", &r.distinct_rows_error, &0.0);
    let got: Vec<(String, u64)> = r
        .largest_rows
        .iter()
        .map(|w| (String::from_utf8_lossy(&w.key).into_owned(), w.writes))
        .collect();
    let want: Vec<(String, u64)> = top.iter().map(|(k, w)| (k.to_string(), *w)).collect();
    f.eq("largest rows and their writes", &got, &want);
    // [4, 3, 3, 3, 2 × 28]: the truth's shape, stated apart from the count above.
    let writes: Vec<u64> = r.largest_rows.iter().map(|w| w.writes).collect();
    f.eq(
        "the writes of the largest",
        &writes[..5],
        &[4u64, 3, 3, 3, 2][..],
    );
    for w in &r.largest_rows {
        let key = String::from_utf8_lossy(&w.key).into_owned();
        f.eq(format!("{key}: bytes"), &w.bytes, &(w.writes * (8 + VALUE)));
        f.eq(
            format!("{key}: bounds"),
            &(w.writes_error, w.bytes_error),
            &(0, 0),
        );
        f.eq(format!("{key}: cells"), &w.cells, &w.writes);
    }
    // Regions [, b), [b, m), [m, ): counted from the keys here.
    let want_regions = [
        per.keys().filter(|k| **k < "b").count(),
        per.keys().filter(|k| **k >= "b" && **k < "m").count(),
        per.keys().filter(|k| **k >= "m").count(),
    ];
    for (g, want) in r.regions.iter().zip(want_regions) {
        f.eq(
            format!("region {} distinct rows", g.index),
            &g.distinct_rows,
            &(want as u64),
        );
        f.eq(
            format!("region {} marked exact", g.index),
            &(g.distinct_rows_exact, g.distinct_rows_error),
            &(true, 0.0),
        );
    }
    f.finish();
}

/// `n` writes of distinct 16-hex-digit keys, with every seventh key written three times over
/// the run, into an analyzer counting rows exactly; blocks `first..end` only.
fn push_blocks(a: &mut Analyzer, n: u64, first: u64, end: u64) {
    for i in first * BLOCK_RECORDS..(end * BLOCK_RECORDS).min(n) {
        // Writes i and i + 1000, i + 2000 of a multiple of 7000 go to the same row.
        let row = if i % 1000 < 3 && (i / 1000) % 7 == 0 {
            i / 1000
        } else {
            i + n
        };
        let key = format!("{:016x}", mix(row));
        a.push(key.as_bytes(), T0 + i as i64, 16 + 8);
    }
}

fn exact_analyzer() -> Analyzer {
    let mut o = opts(8, 1000);
    o.exact_rows = true;
    let splits = ["4", "8", "c"]
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect();
    Analyzer::new(splits, o).unwrap()
}

/// One pass over `n` writes, and the same writes counted in runs of blocks cut at `cuts`
/// and absorbed in order: the report JSON of each.
fn one_and_cut(n: u64, cuts: &[u64]) -> (String, String) {
    let blocks = n.div_ceil(BLOCK_RECORDS);
    let mut one = exact_analyzer();
    push_blocks(&mut one, n, 0, blocks);
    let mut total = exact_analyzer();
    let mut edges = vec![0];
    edges.extend_from_slice(cuts);
    edges.push(blocks);
    for w in edges.windows(2) {
        let mut part = exact_analyzer();
        if w[0] > 0 {
            part.start_at_block(w[0]).unwrap();
        }
        push_blocks(&mut part, n, w[0], w[1]);
        total.absorb(part.partial(7).unwrap()).unwrap();
    }
    let text = |a: &Analyzer| serde_json::to_string(&a.finish()).unwrap();
    (text(&one), text(&total))
}

#[test]
fn rows_within_the_cap_are_exact_and_the_same_counted_in_blocks() {
    let n = 3 * BLOCK_RECORDS + 777;
    let (one, cut) = one_and_cut(n, &[1, 3]);
    assert_eq!(one, cut, "blocks 0, 1-2, 3 combined differ from one pass");
    let r: AnalysisReport = serde_json::from_str(&one).unwrap();
    // Every write is a row of its own but for the three writes of every seventh thousand.
    let repeated = (0..n)
        .filter(|i| i % 1000 < 3 && (i / 1000) % 7 == 0)
        .count() as u64;
    let rows_of_three = repeated / 3;
    assert_eq!(r.distinct_rows, n - repeated + rows_of_three);
    assert!(r.distinct_rows_exact && r.largest_rows_exact);
    let sum: u64 = r.regions.iter().map(|g| g.distinct_rows).sum();
    assert_eq!(sum, r.distinct_rows, "regions' rows add up to the table's");
    assert!(r
        .largest_rows
        .iter()
        .take(rows_of_three as usize)
        .all(|w| w.writes == 3));
}

#[test]
fn rows_past_the_cap_are_marked_estimates_holding_the_truth_and_the_same_in_blocks() {
    // Past the cap in one pass; past it only once three runs of blocks are merged; and with
    // the first run past it alone.
    let n = MAX_EXACT_ROWS as u64 + 100_000;
    let blocks = n.div_ceil(BLOCK_RECORDS);
    for cuts in [vec![blocks / 3, 2 * blocks / 3], vec![blocks - 1]] {
        let (one, cut) = one_and_cut(n, &cuts);
        assert_eq!(one, cut, "cut at {cuts:?}: combined differs from one pass");
    }
    let (one, _) = one_and_cut(n, &[]);
    let r: AnalysisReport = serde_json::from_str(&one).unwrap();
    assert!(!r.distinct_rows_exact && !r.largest_rows_exact);
    // The truth, counted here.
    let mut per: BTreeMap<Vec<u8>, u64> = BTreeMap::new();
    for i in 0..n {
        let row = if i % 1000 < 3 && (i / 1000) % 7 == 0 {
            i / 1000
        } else {
            i + n
        };
        *per.entry(format!("{:016x}", mix(row)).into_bytes())
            .or_default() += 1;
    }
    let true_rows = per.len() as f64;
    assert!((r.distinct_rows_error - 3.0 * 1.04 / 128.0).abs() < 1e-12);
    let off = (r.distinct_rows as f64 - true_rows).abs() / true_rows;
    assert!(
        off <= r.distinct_rows_error,
        "table: {} against {true_rows}: {off} off, error {}",
        r.distinct_rows,
        r.distinct_rows_error
    );
    let bounds = [b"4".to_vec(), b"8".to_vec(), b"c".to_vec()];
    for g in &r.regions {
        let lo = g.index.checked_sub(1).map(|i| bounds[i].clone());
        let hi = bounds.get(g.index).cloned();
        let want = per
            .keys()
            .filter(|k| {
                lo.as_ref().map_or(true, |l| *k >= l) && hi.as_ref().map_or(true, |h| *k < h)
            })
            .count() as f64;
        assert!(!g.distinct_rows_exact && (g.distinct_rows_error - 3.0 * 0.065).abs() < 1e-12);
        let off = (g.distinct_rows as f64 - want).abs() / want;
        assert!(
            off <= 3.0 * g.distinct_rows_error,
            "region {}: {} against {want}",
            g.index,
            g.distinct_rows
        );
    }
    // Each listed row: a lower bound, and the truth within its bound.
    for w in &r.largest_rows {
        let t = per.get(&w.key).copied().unwrap_or(0);
        assert!(
            w.writes <= t && t <= w.writes + w.writes_error,
            "{:?}: {} writes (+{}) against {t}",
            w.key,
            w.writes,
            w.writes_error
        );
        let tb = t * 24;
        assert!(w.bytes <= tb && tb <= w.bytes + w.bytes_error);
    }
}

#[test]
fn exact_rows_of_a_generated_workload_are_the_same_on_any_worker_count() {
    // The telecom design, three blocks and a short one: one pass, three threads, blocks
    // combined in reverse order.
    let mut doc = rowkey_lab::design::presets::get("seed000-telecom").unwrap();
    let mut w = doc.workload.clone().unwrap_or_default();
    w.records = 3 * BLOCK_RECORDS + 4_321;
    doc.workload = Some(w);
    let o = AnalyzeOptions {
        windows: 8,
        exact_rows: true,
        ..AnalyzeOptions::default()
    };
    let one = analyze(&doc, &o).unwrap();
    assert!(one.distinct_rows_exact && one.largest_rows_exact);
    let text = serde_json::to_string(&one).unwrap();
    let threads = analyze_parallel(&doc, &o, 3).unwrap();
    assert_eq!(serde_json::to_string(&threads).unwrap(), text, "3 threads");
    let blocks = AnalysisRun::new(&doc, &o).unwrap().blocks();
    let mut parts = Vec::new();
    for b in (0..blocks).rev() {
        let mut run = AnalysisRun::for_blocks(&doc, &o, b, b + 1).unwrap();
        while !run.step(1 << 16).unwrap().finished {}
        parts.push(run.partial().unwrap());
    }
    let parts: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    let combined = AnalysisRun::combine(&doc, &o, &parts).unwrap().finish();
    assert_eq!(
        serde_json::to_string(&combined).unwrap(),
        text,
        "blocks combined"
    );
    // The same rows without exactRows: the sketches' figures, marked.
    let sketch = analyze(
        &doc,
        &AnalyzeOptions {
            exact_rows: false,
            ..o
        },
    )
    .unwrap();
    assert!(!sketch.distinct_rows_exact && !sketch.largest_rows_exact);
    assert!(sketch
        .regions
        .iter()
        .all(|g| !g.distinct_rows_exact && g.distinct_rows_error > 0.0));
}
