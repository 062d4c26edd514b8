//! Tests of `analyzer`.

use super::*;

#[test]
fn bytewise_prefix_matches_be_prefix() {
    let bytes: Vec<u8> = (0..12u8)
        .map(|i| i.wrapping_mul(37).wrapping_add(0xF0))
        .collect();
    for len in 0..=bytes.len() {
        let key = bytes.get(..len).unwrap_or(&[]);
        assert_eq!(be_prefix_bytewise(key), be_prefix(key), "length {len}");
    }
    assert_eq!(be_prefix_bytewise(&[0xFF; 9]), u64::MAX);
}

#[test]
fn region_lookup_matches_the_plain_binary_search() {
    // Keys sharing 8-byte prefixes, prefixes of each other, and short keys.
    let mut keys: Vec<Vec<u8>> = vec![
        b"a".to_vec(),
        b"abcdefgh".to_vec(),
        b"abcdefgh\x00".to_vec(),
        b"abcdefghij".to_vec(),
        b"abcdefgi".to_vec(),
        b"b\x00\x00".to_vec(),
        b"b\x00\x00\x00\x00\x00\x00\x00\x00".to_vec(),
        vec![0xff; 12],
    ];
    keys.sort();
    check_region_lookup(&keys);
    // With 16 or more split keys the search starts from the first-two-bytes index:
    // salt-like keys, keys sharing two bytes, one-byte keys and 0xff.. keys.
    let mut many = keys.clone();
    for i in 0..64u32 {
        many.push(format!("{i:02}").into_bytes());
        many.push(format!("{i:02}_5").into_bytes());
    }
    many.extend([
        b"\x00".to_vec(),
        b"\x00\x00".to_vec(),
        b"\x00\x01".to_vec(),
        b"ab".to_vec(),
        b"ab\x00".to_vec(),
        b"abc".to_vec(),
        vec![0xff],
        vec![0xff, 0xff],
        vec![0xff, 0xff, 0x00],
    ]);
    many.sort();
    many.dedup();
    check_region_lookup(&many);
}

#[test]
fn region_lookup_index_follows_auto_splits() {
    use crate::hbase::policy::{SplitConfig, SplitPolicy};
    use crate::region::AutoSplit;
    let o = AnalyzerOptions {
        start_time_ms: 0,
        window_ms: 1000,
        windows: 4,
        auto_split: Some(AutoSplit {
            policy: SplitPolicy::ConstantSize,
            config: SplitConfig {
                max_file_size: 1 << 16,
                memstore_flush_size: 1 << 12,
                jitter: 0.0,
                ..SplitConfig::default()
            },
        }),
        ..AnalyzerOptions::default()
    };
    let mut a = Analyzer::new(vec![], o).unwrap_or_else(|e| unreachable!("{e:?}"));
    let mut x = 7u64;
    let mut rows = Vec::new();
    for i in 0..20_000u64 {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        // Two-byte prefixes shared by many keys, and some short keys.
        let key = match i % 3 {
            0 => format!("{:02}_{:016x}", (x >> 58) % 40, x).into_bytes(),
            1 => format!("{:016x}", x).into_bytes(),
            _ => vec![(x >> 56) as u8, (x >> 48) as u8],
        };
        a.push(&key, (i / 100) as i64, 1000);
        if i % 97 == 0 {
            rows.push(key);
        }
        if i % 1000 == 999 {
            if !a.first2.is_empty() {
                assert_eq!(a.first2.len(), (1 << 16) + 1);
            }
            for r in &rows {
                let exact = a
                    .split_keys
                    .partition_point(|k| k.as_slice() <= r.as_slice());
                assert_eq!(a.region_of(r), exact, "{r:?} after {i}");
            }
        }
    }
    assert!(a.split_keys.len() >= 16, "{}", a.split_keys.len());
    assert!(!a.first2.is_empty());
}

fn check_region_lookup(keys: &[Vec<u8>]) {
    let a = Analyzer::new(keys.to_vec(), AnalyzerOptions::default()).unwrap_or_else(|e| {
        unreachable!("{e:?}");
    });
    assert_eq!(a.first2.is_empty(), keys.len() < 16);
    let mut rows: Vec<Vec<u8>> = keys.to_vec();
    for k in keys {
        let mut longer = k.clone();
        longer.push(0);
        rows.push(longer.clone());
        longer.push(0xff);
        rows.push(longer);
        rows.push(k.get(..k.len() - 1).unwrap_or(&[]).to_vec());
        let mut bumped = k.clone();
        if let Some(last) = bumped.last_mut() {
            *last = last.wrapping_add(1);
        }
        rows.push(bumped);
    }
    rows.extend([
        vec![],
        vec![0],
        b"abcdefgh\x01".to_vec(),
        vec![0xff; 20],
        b"b".to_vec(),
        b"05_13412341234_20210907".to_vec(),
    ]);
    for r in &rows {
        assert_eq!(
            a.region_of(r),
            keys.partition_point(|k| k.as_slice() <= r.as_slice()),
            "{r:?}"
        );
    }
}

#[test]
fn algorithm_l_samples_uniformly() {
    // 2000 runs of a 100-item stream into a 10-item reservoir: each item is kept with
    // probability 1/10, so about 200 times (binomial sd 13.4; 6 sd = 80).
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut hits = [0u32; 100];
    for _ in 0..2000 {
        let mut r: Reservoir<usize> = Reservoir::default();
        for i in 0..100usize {
            r.offer(10, &mut rng, || i, |s| *s = i);
        }
        assert_eq!(r.items.len(), 10);
        for &i in &r.items {
            hits[i] += 1;
        }
    }
    for (i, h) in hits.iter().enumerate() {
        assert!((120..=280).contains(h), "item {i}: {h}");
    }
    // Early, middle and late thirds of the stream equally represented (each ~6667).
    let third = |a: usize, b: usize| hits[a..b].iter().sum::<u32>() as f64 / (b - a) as f64;
    for t in [third(0, 33), third(33, 66), third(66, 100)] {
        assert!((t - 200.0).abs() < 15.0, "{t}");
    }
}
