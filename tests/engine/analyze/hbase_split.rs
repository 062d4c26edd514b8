//! Auto-split on HBase's rules, derived by hand: a region is looked at only after a flush (or
//! the compaction one asks for), its size is its store files' KeyValue bytes after
//! compression, it splits at the middle of its largest store file, and a daughter holding
//! references splits only after compacting them.

use rowkey_lab::analyze::{Analyzer, AnalyzerOptions, PERIODIC_FLUSH_MS};
use rowkey_lab::hbase::bytes::{to_bytes_long, to_hex};
use rowkey_lab::hbase::policy::SplitPolicy;
use rowkey_lab::hbase::store::CellBytes;

use super::common::{auto, opts, T0};

/// A one-region table under ConstantSize at `max` with a 64 KiB flush, counting cells with
/// `cell`.
fn table(max: i64, cell: CellBytes) -> Analyzer {
    let o = AnalyzerOptions {
        auto_split: Some(auto(SplitPolicy::ConstantSize, max, 1 << 16)),
        cell_bytes: cell,
        ..opts(10, 1000)
    };
    Analyzer::new(vec![], o).unwrap()
}

/// Rows 0, 1, 2, … (8-byte longs, ascending) of 1,000 bytes each (key and value), one per ms.
fn ascending(a: &mut Analyzer, from: i64, to: i64) {
    for i in from..to {
        a.push(&to_bytes_long(i), T0 + i, 1000);
    }
}

#[test]
fn a_time_led_key_splits_after_the_flush_at_its_largest_files_middle() {
    // Each write is a KeyValue of 1,000 + 20 + family 1 + qualifier 1 = 1,022 bytes; a 64 KiB
    // (65,536) memstore flushes at its 65th write (64 × 1,022 = 65,408 is short of it), into a
    // file of 66,430 bytes. One flush leaves the region under 100,000; the second (writes
    // 65..129, the 130th write at T0 + 129) takes it to 132,860.
    let mut a = table(100_000, CellBytes::default());
    ascending(&mut a, 0, 129);
    assert_eq!(a.region_count(), 1, "no split before the second flush");
    ascending(&mut a, 129, 130);
    let r = a.finish();
    assert_eq!(r.splits.len(), 1);
    let s = &r.splits[0];
    assert_eq!(s.time_ms, T0 + 129);
    assert_eq!(s.parent_bytes, 132_860);
    assert_eq!(s.size_to_check, 100_000);
    // The two files are equal; the first is the largest (StoreUtils keeps the first of
    // equals). Its index holds rows 0..64, its mid block is entry (65 − 1) / 2 = 32, and the
    // separator between rows 31 (…1f) and 32 (…20) is row 32 itself. A median of the
    // region's rows would be row 65.
    assert_eq!(s.split_key_hex, to_hex(&to_bytes_long(32)));
    let rules = r.auto_split.expect("the rules");
    assert_eq!(rules.flushes, 2);
    assert_eq!(rules.key_value_overhead, 22);
    assert_eq!(rules.key_value_bytes, 130 * 1022);
    assert_eq!(rules.memstore_bytes, 0);
    assert!(rules
        .rules
        .iter()
        .any(|l| l.contains("ConstantSizeRegionSplitPolicy")));
}

#[test]
fn a_daughter_splits_only_after_compacting_its_references() {
    // After the split above, the upper daughter holds the upper 33 of the first file's 65
    // index rows (33/65 × 66,430 = 33,726) and all of the second file (66,430): 100,156
    // bytes, over 100,000. A region that could split at once would split now; a daughter of
    // references waits for its compaction, which comes with its first flush: writes 130..194,
    // at T0 + 194. Then its 163 index rows (each 1,022 bytes) are cut to 128 at the quantiles
    // (j + ½) / 128: the mid block, entry 63, is the union's entry 80 (63.5 / 128 × 163 =
    // 80.9 rows reached), row 32 + 80 = 112, whose separator after row 111 (…6f, …70) is
    // row 112. Its size: 33,726 + 66,430 + 66,430 = 166,586.
    let mut a = table(100_000, CellBytes::default());
    ascending(&mut a, 0, 194);
    assert_eq!(a.region_count(), 2, "the daughter waits for its compaction");
    ascending(&mut a, 194, 195);
    let r = a.finish();
    assert_eq!(r.splits.len(), 2);
    let s = &r.splits[1];
    assert_eq!(s.time_ms, T0 + 194);
    assert_eq!(s.parent_bytes, 166_586);
    assert_eq!(s.split_key_hex, to_hex(&to_bytes_long(112)));
    let rules = r.auto_split.expect("the rules");
    assert_eq!(rules.flushes, 3);
    // One compaction: the daughter's references (two files never reach the minor's three).
    assert_eq!(rules.compactions, 1);
}

#[test]
fn keyvalue_bytes_count_family_qualifier_and_compression() {
    // Family 2 and qualifier 10 bytes: a KeyValue of 1,000 + 32 = 1,032 bytes, so a flush
    // every 64 writes (64 × 1,032 = 66,048 ≥ 65,536; 63 × 1,032 = 65,016 is not), stored at
    // half: 33,024 bytes a file. Under 60,000 the first flush is short of it, the second
    // (66,048) over it: the split comes at write 128 (T0 + 127). Without compression it comes
    // at the first flush (66,048 > 60,000), at T0 + 63.
    let cell = CellBytes {
        family_bytes: 2,
        qualifier_bytes: 10,
        compression_ratio: 0.5,
    };
    let mut a = table(60_000, cell);
    ascending(&mut a, 0, 128);
    let r = a.finish();
    assert_eq!(r.splits.len(), 1);
    assert_eq!(r.splits[0].time_ms, T0 + 127);
    assert_eq!(r.splits[0].parent_bytes, 66_048);
    let rules = r.auto_split.expect("the rules");
    assert_eq!(rules.key_value_overhead, 32);
    assert_eq!(rules.key_value_bytes, 128 * 1032);
    let plain = CellBytes {
        compression_ratio: 1.0,
        ..cell
    };
    let mut b = table(60_000, plain);
    ascending(&mut b, 0, 64);
    let r = b.finish();
    assert_eq!(r.splits.len(), 1);
    assert_eq!(r.splits[0].time_ms, T0 + 63);
}

#[test]
fn a_run_shorter_than_one_flush_never_splits_and_says_so() {
    // 100 writes of 1,022 KeyValue bytes (102,200) against a 64 KiB flush would flush once;
    // 60 writes (61,320) never do. The policy's size (1,000 bytes) was passed by the 1st
    // write, which the old per-write check split at; HBase never looks at the region.
    let mut a = table(1_000, CellBytes::default());
    ascending(&mut a, 0, 60);
    let r = a.finish();
    assert!(r.splits.is_empty());
    let rules = r.auto_split.as_ref().expect("the rules");
    assert_eq!(rules.flushes, 0);
    assert_eq!(rules.memstore_bytes, 60 * 1022);
    let line = r
        .diagnosis
        .iter()
        .find(|l| l.contains("never split"))
        .unwrap_or_else(|| panic!("{:#?}", r.diagnosis));
    assert!(line.contains("no memstore flushed (60 writes)"), "{line}");
    assert!(line.contains("only after a flush"), "{line}");
}

#[test]
fn an_idle_memstore_flushes_an_hour_after_its_oldest_edit() {
    // Rows a..f, twelve minutes apart, far below the flush size: the memstore's oldest edit (a,
    // at T0) is an hour old when f arrives at T0 + 60 min, so it flushes first: a file of
    // a..e (5 × 1,022 = 5,110 bytes, over the 1,000 of the policy). Its mid block is entry
    // (5 − 1) / 2 = 2, row c, after row b: the separator is c. f then starts a new memstore.
    let mut a = table(1_000, CellBytes::default());
    for (i, k) in [b"a", b"b", b"c", b"d", b"e", b"f"].iter().enumerate() {
        a.push(*k, T0 + i as i64 * PERIODIC_FLUSH_MS / 5, 1000);
    }
    let r = a.finish();
    assert_eq!(r.splits.len(), 1);
    assert_eq!(r.splits[0].split_key, "c");
    assert_eq!(r.splits[0].time_ms, T0 + PERIODIC_FLUSH_MS);
    assert_eq!(r.splits[0].parent_bytes, 5 * 1022);
    let rules = r.auto_split.expect("the rules");
    assert_eq!(rules.flushes, 1);
    assert_eq!(rules.memstore_bytes, 1022);
}

/// A table as [`table`] makes it, with `hbase.hregion.max.filesize.jitter` at `jitter` and the
/// run's `seed`.
fn jittered(max: i64, jitter: f64, seed: u64) -> Analyzer {
    let mut auto = auto(SplitPolicy::ConstantSize, max, 1 << 16);
    auto.config.jitter = jitter;
    let o = AnalyzerOptions {
        auto_split: Some(auto),
        seed,
        ..opts(10, 1000)
    };
    Analyzer::new(vec![], o).unwrap()
}

#[test]
fn each_region_s_size_limit_is_jittered_within_the_configured_rate() {
    // ConstantSizeRegionSplitPolicy: desiredMaxFileSize += desiredMaxFileSize × (u − 0.5) ×
    // jitter, u one nextFloat() per region: with jitter 0.25, within ±12.5 % of 300,000.
    let splits = |jitter, seed| {
        let mut a = jittered(300_000, jitter, seed);
        ascending(&mut a, 0, 20_000);
        a.finish().splits
    };
    let js = splits(0.25, 1);
    assert!(js.len() > 20, "{} splits", js.len());
    assert!(js
        .iter()
        .all(|s| (262_500..=337_500).contains(&s.size_to_check)));
    let mut limits: Vec<i64> = js.iter().map(|s| s.size_to_check).collect();
    limits.sort_unstable();
    limits.dedup();
    assert!(
        limits.len() > js.len() / 2,
        "the regions draw their own: {limits:?}"
    );
    // Each split happens at the first flush past the region's own limit: the parent holds
    // more than its limit, and less than one flush (66,430 bytes) more.
    assert!(js.iter().all(|s| (s.parent_bytes as i64) > s.size_to_check
        && (s.parent_bytes as i64) <= s.size_to_check + 66_430));
    // The same seed, the same run; another seed, other limits.
    assert_eq!(
        js.iter().map(|s| s.size_to_check).collect::<Vec<_>>(),
        splits(0.25, 1)
            .iter()
            .map(|s| s.size_to_check)
            .collect::<Vec<_>>()
    );
    assert_ne!(
        js.iter().map(|s| s.size_to_check).collect::<Vec<_>>(),
        splits(0.25, 2)
            .iter()
            .map(|s| s.size_to_check)
            .collect::<Vec<_>>()
    );
    // Without jitter every region splits at 300,000.
    assert!(splits(0.0, 1).iter().all(|s| s.size_to_check == 300_000));
}

#[test]
fn the_report_says_which_jitter_and_which_daughters_placement_it_used() {
    let rules = |mut a: Analyzer| {
        ascending(&mut a, 0, 2_000);
        a.finish().auto_split.expect("the rules").rules
    };
    let plain = rules(jittered(300_000, 0.0, 1));
    assert!(plain
        .iter()
        .any(|l| l.ends_with("no jitter (hbase.hregion.max.filesize.jitter 0)")));
    assert!(plain
        .iter()
        .any(|l| l.starts_with("daughters open on the parent's server")));
    let jitter = rules(jittered(300_000, 0.25, 1));
    assert!(
        jitter.iter().any(|l| l.contains("up to ±12.5 %")),
        "{jitter:?}"
    );
}
