//! The analysis in blocks: runs of consecutive blocks counted apart (as threads or the page's
//! workers do) and added up give the report of one pass over every block, byte for byte,
//! however the blocks are cut and in whatever order the partial counts arrive; what cannot be
//! added up is refused with a reason; the merged largest rows still find the heavy rows.

use std::collections::HashMap;

use rowkey_lab::analyze::{
    analyze, analyze_parallel, block_ranges, AnalysisReport, AnalysisRun, AnalyzeOptions, Analyzer,
};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::workload::BLOCK_RECORDS;

use super::paths::same_report;
use crate::cases::Failures;

fn opts() -> AnalyzeOptions {
    AnalyzeOptions {
        windows: 16,
        sample_size: 300,
        ..AnalyzeOptions::default()
    }
}

/// `id` with `records` records.
fn preset(id: &str, records: u64) -> DesignDocument {
    let mut doc = rowkey_lab::design::presets::get(id).unwrap();
    let mut w = doc.workload.clone().unwrap_or_default();
    w.records = records;
    doc.workload = Some(w);
    doc
}

/// The report of `ranges` counted apart and combined, the partials handed over in reverse.
fn combined(doc: &DesignDocument, o: &AnalyzeOptions, ranges: &[(u64, u64)]) -> AnalysisReport {
    let mut parts = Vec::new();
    for &(a, b) in ranges {
        let mut run = AnalysisRun::for_blocks(doc, o, a, b).unwrap();
        while !run.step(1 << 16).unwrap().finished {}
        parts.push(run.partial().unwrap());
    }
    parts.reverse();
    let parts: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    AnalysisRun::combine(doc, o, &parts).unwrap().finish()
}

/// Runs of consecutive blocks, `(first, end)` each.
type Cut<'a> = &'a [(u64, u64)];

#[test]
fn blocks_counted_apart_give_the_report_of_one_pass() {
    let mut failures = Failures::new("blocks counted apart against one pass");
    // Five blocks, the last one short: cuts that split the merge tree's nodes unevenly.
    let cases: &[(&str, u64, &[Cut])] = &[
        (
            "seed002-salt-byte",
            4 * BLOCK_RECORDS + 12_345,
            &[
                &[(0, 1), (1, 5)],
                &[(0, 3), (3, 5)],
                &[(0, 2), (2, 3), (3, 5)],
                &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)],
            ],
        ),
        // A String.hashCode salt over a pre-split, the analyzer bench's design family.
        (
            "seed000-telecom",
            2 * BLOCK_RECORDS + 777,
            &[&[(0, 1), (1, 3)], &[(0, 2), (2, 3)]],
        ),
        // A cells section (VERSIONS, the cell sample and the rows' cells merge too).
        (
            "seed001-log-wide",
            2 * BLOCK_RECORDS + 5,
            &[&[(0, 1), (1, 3)]],
        ),
        // MD5 buckets filled in batches: batches end at the blocks' ends.
        ("seed004-md5", 2 * BLOCK_RECORDS + 63, &[&[(0, 2), (2, 3)]]),
    ];
    let o = opts();
    for &(id, records, cuts) in cases {
        let doc = preset(id, records);
        let one = analyze(&doc, &o).unwrap();
        failures.eq(format!("{id}: writes"), &records, &one.writes);
        for cut in cuts {
            same_report(
                &mut failures,
                &format!("{id} cut {cut:?}"),
                &combined(&doc, &o, cut),
                &one,
            );
        }
        let threads = analyze_parallel(&doc, &o, 2).unwrap();
        same_report(&mut failures, &format!("{id} on 2 threads"), &threads, &one);
    }
    failures.finish();
}

#[test]
fn blocks_handed_over_mid_run_give_the_report_of_one_pass() {
    // Work stealing as the page's counting workers do it: two runs start on halves; whenever a
    // run ends, the run with the most blocks left hands the second half of its unbegun blocks
    // over to a new run. Thirteen blocks, the last one short.
    let mut failures = Failures::new("blocks handed over against one pass");
    let o = opts();
    let records = 12 * BLOCK_RECORDS + 12_345;
    for id in ["seed002-salt-byte", "seed004-md5"] {
        let doc = preset(id, records);
        let one = analyze(&doc, &o).unwrap();
        // (`run`, blocks it covers as handed out) and how many blocks each step counts
        for speeds in [[1u64, 3], [3, 1], [2, 1]] {
            let mut runs: Vec<(AnalysisRun, usize)> = block_ranges(13, 2)
                .into_iter()
                .enumerate()
                .map(|(i, (a, b))| (AnalysisRun::for_blocks(&doc, &o, a, b).unwrap(), i))
                .collect();
            let mut parts = Vec::new();
            let mut handed = 0;
            while !runs.is_empty() {
                let mut ended = Vec::new();
                for (k, (run, lane)) in runs.iter_mut().enumerate() {
                    let p = run.step(speeds[*lane] * BLOCK_RECORDS).unwrap();
                    if p.finished {
                        ended.push(k);
                    }
                }
                for k in ended.into_iter().rev() {
                    let (run, lane) = runs.remove(k);
                    parts.push(run.partial().unwrap());
                    let busiest = runs
                        .iter_mut()
                        .max_by_key(|(r, _)| r.progress().total - r.progress().done);
                    if let Some((victim, _)) = busiest {
                        let before = victim.progress().total;
                        if let Some((a, b)) = victim.cede_half().unwrap() {
                            handed += 1;
                            let taken = AnalysisRun::for_blocks(&doc, &o, a, b).unwrap();
                            // the victim's records to count fell by those handed over
                            assert_eq!(before - victim.progress().total, taken.progress().total);
                            runs.push((taken, lane));
                        }
                    }
                }
            }
            assert!(handed > 0, "{id} {speeds:?}: no block was handed over");
            let parts: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
            let got = AnalysisRun::combine(&doc, &o, &parts).unwrap().finish();
            let case = format!("{id} at speeds {speeds:?}, {handed} handovers");
            same_report(&mut failures, &case, &got, &one);
        }
    }
    failures.finish();
    // fewer than two unbegun blocks: nothing handed over, the run unchanged
    let doc = preset("seed002-salt-byte", records);
    let mut run = AnalysisRun::for_blocks(&doc, &o, 0, 2).unwrap();
    run.step(1).unwrap();
    assert_eq!(run.cede_half().unwrap(), None);
    assert_eq!(run.progress().total, 2 * BLOCK_RECORDS);
    let mut run = AnalysisRun::for_blocks(&doc, &o, 0, 7).unwrap();
    assert_eq!(run.cede_half().unwrap(), Some((4, 7)));
    assert_eq!(run.cede_half().unwrap(), Some((2, 4)));
    assert_eq!(run.cede_half().unwrap(), Some((1, 2)));
    assert_eq!(run.cede_half().unwrap(), None);
    // a whole run hands nothing over
    let mut whole = AnalysisRun::new(&doc, &o).unwrap();
    assert!(whole.cede_half().is_err());
}

#[test]
fn a_workload_within_one_block_is_one_block() {
    // Up to BLOCK_RECORDS records a workload is one block: nothing to spread, and its figures
    // are those of the analysis before blocks existed (block 0 keeps the workload's seeds).
    let doc = preset("seed000-telecom", BLOCK_RECORDS);
    assert_eq!(AnalysisRun::new(&doc, &opts()).unwrap().blocks(), 1);
    let doc = preset("seed000-telecom", BLOCK_RECORDS + 1);
    assert_eq!(AnalysisRun::new(&doc, &opts()).unwrap().blocks(), 2);
    assert_eq!(block_ranges(5, 2), vec![(0, 2), (2, 5)]);
    assert_eq!(block_ranges(2, 4), vec![(0, 1), (1, 2)]);
}

#[test]
fn what_cannot_be_added_up_is_refused_with_a_reason() {
    let o = opts();
    let doc = preset("seed002-salt-byte", 2 * BLOCK_RECORDS + 10);
    let part = |a, b| {
        let mut run = AnalysisRun::for_blocks(&doc, &o, a, b).unwrap();
        while !run.step(1 << 16).unwrap().finished {}
        run.partial().unwrap()
    };
    let (p0, p1, p2) = (part(0, 1), part(1, 2), part(2, 3));
    let err = |parts: &[&[u8]], o: &AnalyzeOptions, d: &DesignDocument| {
        AnalysisRun::combine(d, o, parts)
            .err()
            .map(|e| e.message)
            .unwrap_or_default()
    };
    let missing = err(&[&p0, &p2], &o, &doc);
    assert!(
        missing.contains("blocks from 1 expected, got blocks 2..3"),
        "{missing}"
    );
    let short = err(&[&p0, &p1], &o, &doc);
    assert!(short.contains("count blocks 0..2 of 0..3"), "{short}");
    let twice = err(&[&p0, &p1, &p1], &o, &doc);
    assert!(
        twice.contains("blocks from 2 expected, got blocks 1..2"),
        "{twice}"
    );
    // more partials than blocks: refused by their count, before one is read
    let many = err(&[&p0, &p1, &p1, b"not read"], &o, &doc);
    assert!(
        many.contains("4 partial analyses is over the limit of 3"),
        "{many}"
    );
    let other = preset("seed002-salt-byte", 2 * BLOCK_RECORDS + 11);
    let foreign = err(&[&p0, &p1, &p2], &o, &other);
    assert!(
        foreign.contains("partial 0 counted another design or other options"),
        "{foreign}"
    );
    let windows = AnalyzeOptions {
        windows: 8,
        ..o.clone()
    };
    assert!(err(&[&p0, &p1, &p2], &windows, &doc).contains("another design or other options"));
    let garbage = err(&[&p0, b"\x01\x02not partial counts"], &o, &doc);
    assert!(
        garbage.contains("partial 1: its checksum does not match"),
        "{garbage}"
    );
    let truncated = err(&[&p0[..p0.len() / 2]], &o, &doc);
    assert!(
        truncated.contains("partial 0: its checksum does not match"),
        "{truncated}"
    );
    // one byte changed anywhere (issue 56, item 11: 572 of 3,000 such partials combined into
    // another report without an error)
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..3000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let mut bad = p1.clone();
        let at = (x % bad.len() as u64) as usize;
        bad[at] ^= ((x >> 32) as u8).max(1);
        let e = err(&[&p0, &bad, &p2], &o, &doc);
        assert!(
            e.contains("partial 1: its checksum does not match"),
            "byte {at}: {e}"
        );
    }
    // Out of range blocks.
    let e = AnalysisRun::for_blocks(&doc, &o, 2, 4)
        .err()
        .unwrap()
        .message;
    assert!(e.contains("blocks 2..4: this run has blocks 0..3"), "{e}");
    // Auto-split counts in one pass: one block, no partial counts from a later block.
    let mut auto = preset("seed000-telecom", 2 * BLOCK_RECORDS);
    let regions = auto.regions.get_or_insert_with(Default::default);
    regions.auto_split = Some(rowkey_lab::region::AutoSplit::default());
    let run = AnalysisRun::new(&auto, &o).unwrap();
    assert_eq!(run.blocks(), 1);
    let whole = AnalysisRun::for_blocks(&auto, &o, 0, 1).unwrap();
    assert!(whole.partial().err().unwrap().message.contains("one pass"));
    // Partial counts come from runs of blocks, which know what they count.
    assert!(run.partial().err().unwrap().message.contains("for_blocks"));
    let mut a = Analyzer::new(
        Vec::new(),
        rowkey_lab::analyze::analyzer_options(&auto, &o).unwrap(),
    )
    .unwrap();
    assert!(a
        .start_at_block(1)
        .err()
        .unwrap()
        .message
        .contains("one pass"));
}

#[test]
fn merged_largest_rows_find_the_heavy_rows() {
    // 3.5 blocks of writes over 200,000 rows, of which 20 take 1 % of the writes each: the
    // merged sketch lists those 20 first, with counts close to the true ones, counted in one
    // pass or in two analyzers added up.
    let o = rowkey_lab::analyze::AnalyzerOptions::default();
    let n = 3 * BLOCK_RECORDS + BLOCK_RECORDS / 2;
    let key = |i: u64| -> Vec<u8> {
        let x = super::common::mix(i);
        if x % 100 < 20 {
            format!("hot{:02}", x % 20).into_bytes()
        } else {
            format!("row{:06}", x % 200_000).into_bytes()
        }
    };
    let mut truth: HashMap<Vec<u8>, u64> = HashMap::new();
    let mut one = Analyzer::new(Vec::new(), o.clone()).unwrap();
    let mut first = Analyzer::new(Vec::new(), o.clone()).unwrap();
    let mut second = Analyzer::new(Vec::new(), o.clone()).unwrap();
    second.start_at_block(2).unwrap();
    for i in 0..n {
        let k = key(i);
        one.push(&k, o.start_time_ms, 100);
        if i < 2 * BLOCK_RECORDS {
            first.push(&k, o.start_time_ms, 100);
        } else {
            second.push(&k, o.start_time_ms, 100);
        }
        *truth.entry(k).or_default() += 1;
    }
    let mut sum = Analyzer::new(Vec::new(), o.clone()).unwrap();
    sum.absorb(first.partial(1).unwrap()).unwrap();
    sum.absorb(second.partial(1).unwrap()).unwrap();
    let report = one.finish();
    assert_eq!(sum.finish(), report);
    let top: Vec<_> = report.largest_rows.iter().take(20).collect();
    for r in &top {
        let name = String::from_utf8_lossy(&r.key);
        assert!(name.starts_with("hot"), "{name} among the 20 largest");
        let t = truth[&r.key];
        assert!(
            r.writes <= t && r.writes as f64 >= 0.98 * t as f64,
            "{name}: {} of {t}",
            r.writes
        );
    }
}
