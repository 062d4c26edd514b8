//! Tests of `layout`.

use super::*;
use crate::hbase::shell::{shell_create, splits_file};

fn layout(p: PreSplit) -> RegionLayout {
    RegionLayout {
        presplit: p,
        ..RegionLayout::default()
    }
}

#[test]
fn byte_cuts_by_hand() {
    // sizes 10, 30, 20, 40 (total 100) in 4 regions: running 10, 40, 60, 100; cut 1 passes
    // 25 at row 1, cut 2 passes 50 at row 2, cut 3 passes 75 at row 3
    assert_eq!(
        byte_cut_ranks(0, [10, 30, 20, 40], 100, 4),
        vec![(1, 1), (2, 2), (3, 3)]
    );
    // a row of exactly a share does not pass it: 25 is not past 25, the cut is the next row
    assert_eq!(
        byte_cut_ranks(0, [25, 25, 50], 100, 4),
        vec![(1, 1), (2, 2), (3, 2)]
    );
    // one heavy row takes every cut
    assert_eq!(byte_cut_ranks(0, [1, 98, 1], 100, 3), vec![(1, 1), (2, 1)]);
    assert!(byte_cut_ranks(0, [0, 0], 0, 3).is_empty());
    assert!(byte_cut_ranks(0, [5], 5, 1).is_empty());
}

#[test]
fn byte_cuts_of_equal_rows_are_quantile_ranks_and_chunks_agree() {
    let mut seed = 7u64;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        seed >> 33
    };
    for rows in [1u64, 2, 7, 100, 1001] {
        for regions in [1u32, 2, 3, 16, 200] {
            let want: Vec<(u32, u64)> = quantile_ranks(rows, regions)
                .into_iter()
                .zip(1..)
                .map(|(r, j)| (j, r))
                .collect();
            let got = byte_cut_ranks(0, (0..rows).map(|_| 17), rows * 17, regions);
            assert_eq!(got, want, "{rows} rows, {regions} regions");
            // random sizes cut whole, and cut chunk by chunk from each chunk's bytes ahead
            let sizes: Vec<u64> = (0..rows).map(|_| next() % 50).collect();
            let total: u64 = sizes.iter().sum();
            let whole = byte_cut_ranks(0, sizes.iter().copied(), total, regions);
            let (mut at, mut before, mut chunked) = (0usize, 0u64, Vec::new());
            while at < sizes.len() {
                let end = (at + 1 + (next() % 9) as usize).min(sizes.len());
                for (j, i) in byte_cut_ranks(before, sizes[at..end].iter().copied(), total, regions)
                {
                    chunked.push((j, i + at as u64));
                }
                before += sizes[at..end].iter().sum::<u64>();
                at = end;
            }
            assert_eq!(chunked, whole, "{rows} rows, {regions} regions, in chunks");
            if total > 0 {
                assert_eq!(whole.len(), regions as usize - 1);
            }
        }
    }
}

#[test]
fn quantiles_of_a_known_sample() {
    let sample: Vec<Vec<u8>> = (0..100u32)
        .rev()
        .map(|i| format!("{i:03}").into_bytes())
        .collect();
    let keys = quantile_split_keys(&sample, 4).unwrap();
    assert_eq!(
        keys,
        vec![b"025".to_vec(), b"050".to_vec(), b"075".to_vec()]
    );
    // Few distinct keys: repeats are dropped.
    let dup = vec![b"a".to_vec(), b"a".to_vec(), b"a".to_vec(), b"b".to_vec()];
    assert_eq!(quantile_split_keys(&dup, 4).unwrap(), vec![b"b".to_vec()]);
    assert!(quantile_split_keys(&[], 4).is_err());
    assert!(quantile_split_keys(&sample, 1).unwrap().is_empty());
}

#[test]
fn salt_keys() {
    let k = salt_split_keys(4, SaltStyle::Byte, None).unwrap();
    assert_eq!(k, vec![vec![1u8], vec![2], vec![3]]);
    let d = salt_split_keys(12, SaltStyle::Decimal, None).unwrap();
    assert_eq!(d.first().unwrap(), b"01");
    assert_eq!(d.last().unwrap(), b"11");
    assert_eq!(d.len(), 11);
    assert!(salt_split_keys(257, SaltStyle::Byte, None).is_err());
    assert!(salt_split_keys(0, SaltStyle::Byte, None).is_err());
    assert!(salt_split_keys(100, SaltStyle::Decimal, Some(1)).is_err());
    assert!(salt_split_keys(1, SaltStyle::Decimal, None)
        .unwrap()
        .is_empty());
}

#[test]
fn explicit_keys_point_at_the_bad_one() {
    let l = layout(PreSplit::Explicit {
        keys: vec!["b".into(), "a".into()],
        encoding: KeyEncoding::StringBinary,
    });
    let e = l.split_keys(&[]).unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("/regions/presplit/keys/1"));
    let l = layout(PreSplit::Explicit {
        keys: vec!["a".into(), "a".into()],
        encoding: KeyEncoding::StringBinary,
    });
    assert!(l.split_keys(&[]).unwrap_err().message.contains("twice"));
    let l = layout(PreSplit::Explicit {
        keys: vec!["0a".into(), "zz".into()],
        encoding: KeyEncoding::Hex,
    });
    let e = l.split_keys(&[]).unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("/regions/presplit/keys/1"));
    let l = layout(PreSplit::Explicit {
        keys: vec!["\\x00".into(), "\\xFFa".into()],
        encoding: KeyEncoding::StringBinary,
    });
    assert_eq!(
        l.split_keys(&[]).unwrap(),
        vec![vec![0u8], vec![0xff, b'a']]
    );
}

#[test]
fn region_count_guidance() {
    assert_eq!(recommend_region_count(0).0, 5);
    assert_eq!(recommend_region_count(30 * GIB).0, 6);
    assert_eq!(recommend_region_count(49 * GIB).0, 10);
    assert_eq!(recommend_region_count(50 * GIB).0, 10);
    assert_eq!(recommend_region_count(1024 * GIB).0, 103);
    let (n, why) = recommend_region_count(10 * 1024 * GIB);
    assert_eq!(n, 120);
    assert!(why.contains("capped"), "{why}");
}

#[test]
fn shell_and_file_rendering() {
    let keys = vec![vec![1u8], b"a'b".to_vec(), vec![0xff, b'x']];
    assert_eq!(
        shell_create("ns:t", "f", &keys).unwrap(),
        "create 'ns:t', 'f', SPLITS => ['\\x01', 'a\\'b', '\\xFFx']"
    );
    assert_eq!(shell_create("t", "f", &[]).unwrap(), "create 't', 'f'");
    assert_eq!(
        splits_file(&[b" a ".to_vec(), b"b".to_vec()]).unwrap(),
        "\\x20a\\x20\nb\n"
    );
    assert_eq!(splits_file(&[b"  ".to_vec()]).unwrap(), "\\x20\\x20\n");
}

#[test]
fn sample_quantiles_by_bytes_weigh_each_key() {
    // keys b, c, d (1 byte), e + 99 x (100 bytes), f (1 byte), no value: 104 bytes. Two
    // regions by bytes: the first row whose running bytes pass 52 is e… (3 → 103); by rows the
    // key at rank floor(5 / 2) = 2 is d.
    let long = format!("e{}", "x".repeat(99));
    let sample: Vec<String> = ["b", "c", "d", long.as_str(), "f"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let by = |by| {
        layout(PreSplit::SampleQuantiles {
            regions: 2,
            sample: Some(sample.clone()),
            by,
        })
        .split_keys_valued(&[], 0)
        .unwrap()
    };
    assert_eq!(by(SplitBy::Bytes), vec![long.as_bytes().to_vec()]);
    assert_eq!(by(SplitBy::Rows), vec![b"d".to_vec()]);
    // A value of 10,000 bytes a row evens the weights (10,001 … 10,100 of 50,104): the running
    // sum passes half at rank 2 (d), as rows do.
    let valued = |v| {
        layout(PreSplit::SampleQuantiles {
            regions: 2,
            sample: Some(sample.clone()),
            by: SplitBy::Bytes,
        })
        .split_keys_valued(&[], v)
        .unwrap()
    };
    assert_eq!(valued(10_000), vec![b"d".to_vec()]);
}

#[test]
fn sample_quantiles_read_by_and_refuse_others() {
    let read = |j: &str| crate::region::read::presplit(&crate::support::json::parse(j).unwrap());
    let p = read(r#"{"kind": "sampleQuantiles", "regions": 4, "by": "bytes"}"#).unwrap();
    assert!(matches!(
        p,
        PreSplit::SampleQuantiles {
            by: SplitBy::Bytes,
            ..
        }
    ));
    let p = read(r#"{"kind": "sampleQuantiles", "regions": 4}"#).unwrap();
    assert!(matches!(
        p,
        PreSplit::SampleQuantiles {
            by: SplitBy::Rows,
            ..
        }
    ));
    let e = read(r#"{"kind": "sampleQuantiles", "regions": 4, "by": "weight"}"#).unwrap_err();
    let m = e.message();
    assert!(m.contains("rows") && m.contains("bytes"), "{m}");
    // written back without `by` when it is the default
    let json = serde_json::to_string(&PreSplit::SampleQuantiles {
        regions: 4,
        sample: None,
        by: SplitBy::Rows,
    })
    .unwrap();
    assert!(!json.contains("by"), "{json}");
}

/// `key_order` is the slices' own order (the oracle: `<[u8]>::cmp`) on keys built to meet at
/// every word boundary: shared prefixes of 0..20 bytes, zero bytes where a shorter key's
/// padding would be, and 0x00/0x80/0xff tails.
#[test]
fn key_order_is_the_byte_order() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let bytes = [0u8, 1, 0x7f, 0x80, 0xfe, 0xff];
    let mut keys: Vec<Vec<u8>> = vec![vec![], vec![0], vec![0, 0], vec![0; 8], vec![0; 9]];
    for _ in 0..600 {
        let shared = (next() % 20) as usize;
        let mut k = vec![b'a'; shared];
        for _ in 0..next() % 6 {
            k.push(bytes[(next() % 6) as usize]);
        }
        keys.push(k);
    }
    for a in &keys {
        for b in &keys {
            assert_eq!(key_order(a, b), a.as_slice().cmp(b), "{a:?} vs {b:?}");
        }
    }
}

/// `select_ranks` puts at each rank the element a full sort puts there (the oracle: the sorted
/// copy), for rank sets with repeats of rows (duplicate keys), the first and last rank, and
/// ranks past the end.
#[test]
fn select_ranks_picks_what_a_sort_puts_there() {
    let mut seed = 7u64;
    let mut next = || {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        seed >> 33
    };
    for n in [1usize, 2, 3, 10, 257, 5000] {
        for regions in [2u32, 3, 16, 33, 200] {
            let keys: Vec<Vec<u8>> = (0..n)
                .map(|_| format!("k{}", next() % (n as u64 / 2 + 1)).into_bytes())
                .collect();
            let mut sorted = keys.clone();
            sorted.sort();
            let mut ranks: Vec<usize> = std::iter::once(0)
                .chain(
                    quantile_ranks(n as u64, regions)
                        .into_iter()
                        .map(|r| r as usize),
                )
                .collect();
            ranks.push(n - 1);
            ranks.push(n + 5);
            ranks.sort_unstable();
            ranks.dedup();
            let mut order: Vec<usize> = (0..n).collect();
            select_ranks(&mut order, &ranks, &mut |&a, &b| {
                key_order(&keys[a], &keys[b])
            });
            for &r in ranks.iter().filter(|&&r| r < n) {
                assert_eq!(
                    keys[order[r]], sorted[r],
                    "{n} keys, {regions} regions, rank {r}"
                );
            }
        }
    }
}

#[test]
fn salt_bucket_cuts_by_hand() {
    // fewer regions than buckets: the bound whose weight ahead is nearest the share
    assert_eq!(plan_cut(&[10, 10, 10, 10], 2).buckets, vec![2]);
    // 15 is 5 from the bound at 10 and 5 from the one at 20: the later
    assert_eq!(plan_cut(&[10, 10, 10], 2).buckets, vec![2]);
    // a heavy first bucket: shares at 34 and 68 are nearest 100 and 101 of the bounds left
    // open (each leaves one for the region to come)
    let p = plan_cut(&[100, 1, 1, 1], 3);
    assert_eq!((p.buckets, p.targets), (vec![1, 2], vec![]));
    // more regions than buckets: each next one to the heaviest per region (30 → 15 → 10)
    let p = plan_cut(&[30, 10, 0], 5);
    assert_eq!(p.buckets, vec![1, 2]);
    let t: Vec<(usize, u128, u128)> = p.targets.iter().map(|t| (t.bucket, t.num, t.den)).collect();
    assert_eq!(t, vec![(0, 30, 3), (0, 60, 3)]);
    // equal loads: the first bucket
    let p = plan_cut(&[10, 10], 3);
    assert_eq!(
        p.targets.iter().map(|t| t.bucket).collect::<Vec<_>>(),
        vec![0]
    );
    // a second bucket's cut counts the weight ahead of it: 40 + 20/2
    let p = plan_cut(&[40, 20], 3);
    let t: Vec<(usize, u128, u128)> = p.targets.iter().map(|t| (t.bucket, t.num, t.den)).collect();
    assert_eq!(t, vec![(0, 40, 2)]);
    let p = plan_cut(&[20, 40], 3);
    let t: Vec<(usize, u128, u128)> = p.targets.iter().map(|t| (t.bucket, t.num, t.den)).collect();
    assert_eq!(t, vec![(1, 20 * 2 + 40, 2)]);
    assert_eq!(p.targets[0].rank(), 40);
    // one bucket: the plain cut
    assert!(plan_cut(&[7], 1).targets.is_empty());
    assert_eq!(plan_cut(&[0], 4).targets, vec![]);
}

/// A cut carried as its summary (the form a `sampleQuantiles` sample keeps) is cut again into
/// the same split keys, by rows and by bytes, with empty buckets, heavy buckets and repeated
/// keys, for any region count.
#[test]
fn a_cut_summary_cuts_again_into_the_same_keys() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
    for round in 0..60 {
        let buckets: u8 = rng.gen_range(1..12);
        let bounds: Vec<Vec<u8>> = (1..buckets).map(|b| vec![b]).collect();
        let rows = rng.gen_range(1..300);
        let mut keys: Vec<Vec<u8>> = (0..rows)
            .map(|_| {
                // some buckets empty, the first often busy, few distinct tails
                let b = if rng.gen_bool(0.4) {
                    0
                } else {
                    rng.gen_range(0..buckets) / 2 * 2
                };
                let tail: u16 = rng.gen_range(0..if round % 3 == 0 { 4 } else { 500 });
                let mut k = vec![b];
                k.extend_from_slice(tail.to_string().as_bytes());
                k
            })
            .collect();
        keys.sort();
        let sorted: Vec<&[u8]> = keys.iter().map(Vec::as_slice).collect();
        for n in 1..(2 * u32::from(buckets) + 6) {
            for bytes in [false, true] {
                let weight = |k: &[u8]| if bytes { k.len() as u64 + 3 } else { 1 };
                let direct = cut_sorted_keys(&sorted, &weight, n, &bounds);
                let mut w = vec![0u64; bounds.len() + 1];
                for k in &sorted {
                    w[bucket_of(&bounds, k)] += weight(k);
                }
                let plan = plan_cut(&w, n);
                let mut picks: Vec<Option<&[u8]>> = vec![None; plan.targets.len()];
                let sizes: Vec<u64> = sorted.iter().map(|k| weight(k)).collect();
                for (t, i) in target_cuts(0, &sizes, &plan.targets) {
                    picks[t] = Some(sorted[i as usize]);
                }
                let summary = cut_summary(&bounds, &plan, sorted.first().copied(), &picks);
                let again = quantile_split_keys_in(&summary, n, &bounds).unwrap();
                assert_eq!(again, direct, "round {round}, {n} regions, bytes {bytes}");
            }
        }
    }
}

/// The first-byte table gives every key the bucket a search of the bounds gives.
#[test]
fn buckets_by_first_byte_are_the_search() {
    let bytes: Vec<Vec<u8>> = vec![vec![1], vec![2], vec![7], vec![200]];
    let text: Vec<Vec<u8>> = vec![b"01".to_vec(), b"02".to_vec(), b"10".to_vec()];
    for bounds in [bytes, text, Vec::new()] {
        let b = Buckets::new(&bounds);
        let mut keys: Vec<Vec<u8>> = vec![Vec::new()];
        for x in 0..=255u8 {
            keys.push(vec![x]);
            keys.push(vec![x, 0]);
            keys.push(vec![x, b'1', 9]);
        }
        for k in &keys {
            assert_eq!(b.of(k), bucket_of(&bounds, k), "{k:?} in {bounds:?}");
        }
    }
}
