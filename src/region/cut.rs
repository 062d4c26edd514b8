//! Cutting sorted row keys into regions: at equal counts (a `sampleQuantiles` pre-split, split
//! points from a table's rows) or at equal bytes; HBase's split-row rules (no empty key, no
//! repeat, no region left empty) applied to the keys picked.

use crate::error::{Error, ErrorKind, Result};

/// The `regions - 1` split keys that cut a sample of row keys (sorted or not) into `regions`
/// equal-count parts: with the sample sorted as `s[0..m)`, key `j` is `s[floor(j * m / regions)]`,
/// the first row of region `j`. Empty keys, repeats (a sample with few distinct keys) and keys
/// equal to the smallest sample key (which would leave the first region empty) are skipped, so
/// the result may have fewer keys; an empty sample is an error.
pub fn quantile_split_keys(sample: &[Vec<u8>], regions: u32) -> Result<Vec<Vec<u8>>> {
    if regions == 0 {
        return Err(Error::new(
            ErrorKind::Invalid,
            "a table has at least one region",
        ));
    }
    if regions == 1 {
        return Ok(Vec::new());
    }
    if sample.is_empty() {
        return Err(Error::new(
            ErrorKind::Invalid,
            "sample quantiles need a non-empty sample of row keys",
        ));
    }
    // `Vec<&Vec<u8>>`, not `Vec<&[u8]>`: the analyzer sorts its samples the same way, so the
    // wasm has one sort for both.
    let mut sorted: Vec<&Vec<u8>> = sample.iter().collect();
    sorted.sort_unstable();
    let first: &[u8] = sorted.first().map_or(&[], |k| k.as_slice());
    let mut out: Vec<Vec<u8>> = Vec::with_capacity(regions as usize - 1);
    for rank in quantile_ranks(sorted.len() as u64, regions) {
        let idx = usize::try_from(rank).unwrap_or(usize::MAX);
        let Some(k) = sorted.get(idx) else { continue };
        // A key equal to the smallest sample key would leave the first region empty.
        let floor = out.last().map_or(first, Vec::as_slice);
        if k.is_empty() || k.as_slice() <= floor {
            continue;
        }
        out.push(k.to_vec());
    }
    Ok(out)
}

/// The `regions - 1` split keys that cut a sample of row keys (any order) into `regions` parts
/// of equal bytes, each key weighing its length and `value_size` (a write as the analysis
/// counts it): the smallest key and the key at each [`byte_cut_ranks`] cut, given to
/// [`quantile_split_keys`] to cut with the same rules (no empty key, no repeat, no empty first
/// region). An empty sample is an error.
pub fn byte_split_keys(sample: &[Vec<u8>], regions: u32, value_size: u64) -> Result<Vec<Vec<u8>>> {
    if regions <= 1 || sample.is_empty() {
        return quantile_split_keys(sample, regions);
    }
    let mut sorted: Vec<&Vec<u8>> = sample.iter().collect();
    sorted.sort_unstable();
    let weight = |k: &&Vec<u8>| (k.len() as u64).saturating_add(value_size);
    let total = sorted.iter().fold(0u64, |t, k| t.saturating_add(weight(k)));
    let mut picked: Vec<Vec<u8>> = sorted.first().map(|k| k.to_vec()).into_iter().collect();
    for (_, i) in byte_cut_ranks(0, sorted.iter().map(weight), total, regions) {
        let k = usize::try_from(i).ok().and_then(|i| sorted.get(i));
        picked.push(k.map_or_else(Vec::new, |k| k.to_vec()));
    }
    // `regions` picked keys (the first and one per cut, a heavy row's repeats kept): an
    // equal-count cut of them takes key j at rank j.
    while picked.len() < regions as usize {
        picked.push(Vec::new());
    }
    quantile_split_keys(&picked, regions)
}

/// The ranks (0-based, in sorted order) of the keys that start regions 1.. when `rows` sorted
/// keys are cut into `regions` equal-count regions: `floor(j * rows / regions)` for `j` in
/// `1..regions`. A caller that sorts the keys elsewhere (Spark) picks these ranks, then gives
/// the smallest key and the picked ones to [`quantile_split_keys`], which cuts them as it cuts
/// every key.
pub fn quantile_ranks(rows: u64, regions: u32) -> Vec<u64> {
    let m = u128::from(rows);
    (1..u128::from(regions))
        .map(|j| u64::try_from(j * m / u128::from(regions)).unwrap_or(u64::MAX))
        .collect()
}

/// Two keys in HBase's order (unsigned bytes, a prefix first), compared eight bytes at a time:
/// the same answer as `a.cmp(b)`, but a row key's long shared prefix (a salt, a date) costs a
/// few word compares, where the byte loop wasm's `memcmp` runs cost half of a 3.4 M-row cut.
pub fn key_order(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
    /// The eight bytes of `k` from `at`, zeros past its end, as one big-endian word.
    fn word(k: &[u8], at: usize) -> u64 {
        if let Some(w) = k.get(at..at + 8) {
            let mut b = [0u8; 8];
            b.copy_from_slice(w);
            return u64::from_be_bytes(b);
        }
        let mut b = [0u8; 8];
        let tail = k.get(at..).unwrap_or(&[]);
        b[..tail.len()].copy_from_slice(tail);
        u64::from_be_bytes(b)
    }
    let mut at = 0;
    loop {
        let (x, y) = (word(a, at), word(b, at));
        if x != y {
            // a shorter key's zeros compare below any byte the longer one has there, or equal
            // it: a difference here is the keys' own
            return x.cmp(&y);
        }
        if a.len() <= at + 8 || b.len() <= at + 8 {
            // equal up to the shorter one's end (the longer one's bytes here are zeros): the
            // shorter first
            return a.len().cmp(&b.len());
        }
        at += 8;
    }
}

/// Put the elements at `ranks` (ascending) of `v` where a sort by `order` puts them, without
/// sorting the rest: the cut of a pre-split needs a few dozen of a table's keys in order, not
/// all of them (a select per rank, each on the part of `v` between its neighbours' ranks:
/// about `n · log(ranks)` compares where a sort makes `n · log(n)`). A rank past `v` is
/// ignored.
pub fn select_ranks<T>(
    v: &mut [T],
    ranks: &[usize],
    order: &mut impl FnMut(&T, &T) -> std::cmp::Ordering,
) {
    let mid = ranks.len() / 2;
    let Some(&m) = ranks.get(mid) else {
        return;
    };
    if m >= v.len() {
        return select_ranks(v, ranks.get(..mid).unwrap_or(&[]), order);
    }
    v.select_nth_unstable_by(m, |a, b| order(a, b));
    let (left, right) = v.split_at_mut(m);
    select_ranks(left, ranks.get(..mid).unwrap_or(&[]), order);
    let after: Vec<usize> = ranks
        .get(mid + 1..)
        .unwrap_or(&[])
        .iter()
        .filter(|&&r| r > m)
        .map(|r| r - m - 1)
        .collect();
    if let Some(rest) = right.get_mut(1..) {
        select_ranks(rest, &after, order);
    }
}

/// Where rows in sorted order are cut into `regions` regions of equal bytes: cut `j` (in
/// `1..regions`) falls on the first row whose running bytes, itself included, pass `j/regions`
/// of `total` (`running · regions > j · total`, exact in integers). With every row the same
/// size this is [`quantile_ranks`]'s cut. The rows may come in chunks (a Spark partition of a
/// sort): `before` is the bytes of the rows ahead of this chunk, `sizes` this chunk's rows' bytes
/// in order; returns each cut that falls in the chunk as `(j, index in the chunk)`, ascending.
/// A row heavier than a region's share takes several cuts (the caller's HBase rules drop the
/// repeats); `total == 0` gives no cut.
pub fn byte_cut_ranks(
    before: u64,
    sizes: impl IntoIterator<Item = u64>,
    total: u64,
    regions: u32,
) -> Vec<(u32, u64)> {
    let (n, t) = (u128::from(regions), u128::from(total));
    let mut running = u128::from(before);
    // the first cut the rows ahead did not pass: the least j with j · total >= before · regions
    let mut j: u128 = if t == 0 {
        n
    } else {
        (running * n).div_ceil(t).max(1)
    };
    let mut out = Vec::new();
    for (i, size) in sizes.into_iter().enumerate() {
        if j >= n {
            break;
        }
        running += u128::from(size);
        while j < n && running * n > j * t {
            out.push((j as u32, i as u64));
            j += 1;
        }
    }
    out
}
