//! The region cut the engine promises, computed here from a sort of the keys alone (issue 59:
//! "split points … salt buckets kept whole"), naively and apart from `rowkey_lab::region`:
//!
//! - a key's bucket is how many bucket starts are at or below it;
//! - one bucket (no salt): region `j` starts at the first key whose running weight, itself
//!   included, passes `j/n` of the total;
//! - at least as many regions as buckets: every bucket starts a region; each further region
//!   goes to the bucket whose regions are heaviest (weight over regions, the first bucket on a
//!   tie); a bucket of `r` regions is cut as one table of `r` regions;
//! - fewer regions than buckets: region `j` starts at the bucket start whose weight ahead is
//!   nearest `floor(j · total / n)` (the later one on a tie), after the one before and leaving
//!   one for each region to come;
//! - HBase's rules: no empty key, none at or below the one before, none at or below the
//!   smallest key before a bucket start is taken.

// A helper of tests: a broken invariant here fails the test that asked (it ran under its users'
// crate-wide allowances when each included it with `#[path]`).
#![allow(clippy::unwrap_used)]

/// The split keys of `sorted` (ascending) cut into `n` regions of equal `weight`, each bucket
/// starting at `bounds` kept whole.
pub fn oracle_cut(
    sorted: &[&[u8]],
    weight: &dyn Fn(&[u8]) -> u64,
    n: usize,
    bounds: &[Vec<u8>],
) -> Vec<Vec<u8>> {
    let b = bounds.len() + 1;
    let bucket = |k: &[u8]| bounds.iter().filter(|s| s.as_slice() <= k).count();
    let mut w = vec![0u128; b];
    for k in sorted {
        w[bucket(k)] += u128::from(weight(k));
    }
    let total: u128 = w.iter().sum();
    let mut out: Vec<Vec<u8>> = Vec::new();
    let smallest: &[u8] = sorted.first().copied().unwrap_or(&[]);
    let push_cut = |out: &mut Vec<Vec<u8>>, k: &[u8]| {
        let floor = out.last().map_or(smallest, Vec::as_slice);
        if !k.is_empty() && k > floor {
            out.push(k.to_vec());
        }
    };
    if n <= 1 {
        return out;
    }
    if b > n {
        // fewer regions than buckets: bucket starts only
        let ahead = |s: usize| -> u128 {
            sorted
                .iter()
                .filter(|k| **k < bounds[s - 1].as_slice())
                .map(|k| u128::from(weight(k)))
                .sum()
        };
        let mut prev = 0;
        for j in 1..n {
            let target = j as u128 * total / n as u128;
            let mut best: Option<(u128, usize)> = None;
            for s in prev + 1..=(b - 1) - (n - 1 - j) {
                let d = ahead(s).abs_diff(target);
                match best {
                    Some((bd, _)) if d > bd => {}
                    _ => best = Some((d, s)),
                }
            }
            let s = best.unwrap().1;
            out.push(bounds[s - 1].clone());
            prev = s;
        }
        return out;
    }
    let mut r = vec![1u128; b];
    for _ in b..n {
        let mut top = 0;
        for k in 1..b {
            if w[k] * r[top] > w[top] * r[k] {
                top = k;
            }
        }
        r[top] += 1;
    }
    for k in 0..b {
        if k > 0 {
            out.push(bounds[k - 1].clone());
        }
        let keys: Vec<&[u8]> = sorted.iter().copied().filter(|x| bucket(x) == k).collect();
        for j in 1..r[k] {
            let mut running = 0u128;
            if let Some(x) = keys.iter().find(|x| {
                running += u128::from(weight(x));
                running * r[k] > j * w[k]
            }) {
                push_cut(&mut out, x);
            }
        }
    }
    out
}

/// Each bucket's first byte(s) for a salt written as one byte (`buckets` ≤ 256).
pub fn byte_bounds(buckets: u32) -> Vec<Vec<u8>> {
    (1..buckets).map(|b| vec![b as u8]).collect()
}

/// … and written as `width` decimal digits.
pub fn dec_bounds(buckets: u32, width: usize) -> Vec<Vec<u8>> {
    (1..buckets)
        .map(|b| format!("{b:0width$}").into_bytes())
        .collect()
}
