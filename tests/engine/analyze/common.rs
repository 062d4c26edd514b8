//! Helpers of the analyzer tests: the time axis, option and layout builders, key streams.

use rowkey_lab::analyze::{Analyzer, AnalyzerOptions};
use rowkey_lab::hbase::policy::{SplitConfig, SplitPolicy};
use rowkey_lab::region::{Assignment, AutoSplit};

/// The start of every run's time axis: 2021-09-07T00:00:00Z.
pub const T0: i64 = 1_630_972_800_000;

/// Analyzer options with `windows` windows of `window_ms` from T0.
pub fn opts(windows: u32, window_ms: i64) -> AnalyzerOptions {
    AnalyzerOptions {
        start_time_ms: T0,
        window_ms,
        windows,
        ..AnalyzerOptions::default()
    }
}

/// A mixing function standing in for a record's hash.
pub fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Auto-split under `policy` at `max` bytes with flush size `flush`, without jitter.
pub fn auto(policy: SplitPolicy, max: i64, flush: i64) -> AutoSplit {
    AutoSplit {
        policy,
        config: SplitConfig {
            max_file_size: max,
            memstore_flush_size: flush,
            jitter: 0.0,
            ..SplitConfig::default()
        },
    }
}

/// `n` uniformly spread 16-hex-digit keys of `bytes` bytes each, one per ms from T0.
pub fn random_keys(a: &mut Analyzer, n: u64, bytes: u64) {
    for i in 0..n {
        let key = format!("{:016x}", mix(i));
        a.push(key.as_bytes(), T0 + i as i64, bytes);
    }
}

/// 20,000 records of 10,000 phones (prefix 134) on a clock at 100 writes/s, keyed by `key`,
/// pre-split at `splits` (JSON strings, toStringBinary text).
pub fn phone_clock_doc(key: &str, splits: &str) -> rowkey_lab::design::DesignDocument {
    let text = format!(
        r#"{{"v": 1, "fields": [
          {{"name": "phone", "type": "string", "generator": {{"kind": "phone", "prefixes": ["134"], "digits": 8, "distinct": 10000}}}},
          {{"name": "ts", "type": "timestamp", "generator": {{"kind": "clock"}}}}],
          "key": {key:?},
          "workload": {{"records": 20000, "writeRate": 100}},
          "regions": {{"presplit": {{"kind": "explicit", "keys": [{splits}]}}}}}}"#
    );
    rowkey_lab::design::DesignDocument::from_json(&text).unwrap()
}

/// Regions placed on the named servers, one name per region.
pub fn names(n: &[&str]) -> Assignment {
    Assignment::Servers(n.iter().map(|s| s.to_string()).collect())
}
