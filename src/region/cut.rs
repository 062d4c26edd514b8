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
    quantile_split_keys_in(sample, regions, &[])
}

/// [`quantile_split_keys`] for a key that opens with a salt of `bounds.len() + 1` buckets
/// (`bounds`: where buckets 1.. start, ascending): the regions keep each bucket whole, as
/// [`plan_cut`] lays them out. No bounds is the plain cut.
pub fn quantile_split_keys_in(
    sample: &[Vec<u8>],
    regions: u32,
    bounds: &[Vec<u8>],
) -> Result<Vec<Vec<u8>>> {
    cut_sample(sample, regions, bounds, &|_| 1)
}

/// The `regions - 1` split keys that cut a sample of row keys (any order) into `regions` parts
/// of equal bytes, each key weighing its length and `value_size` (a write as the analysis
/// counts it): each cut at the first key whose running bytes pass its share
/// ([`byte_cut_ranks`]), with the rules of [`quantile_split_keys`] (no empty key, no repeat,
/// no empty first region). An empty sample is an error.
pub fn byte_split_keys(sample: &[Vec<u8>], regions: u32, value_size: u64) -> Result<Vec<Vec<u8>>> {
    byte_split_keys_in(sample, regions, value_size, &[])
}

/// [`byte_split_keys`] keeping a leading salt's buckets whole (see [`quantile_split_keys_in`]).
pub fn byte_split_keys_in(
    sample: &[Vec<u8>],
    regions: u32,
    value_size: u64,
    bounds: &[Vec<u8>],
) -> Result<Vec<Vec<u8>>> {
    cut_sample(sample, regions, bounds, &|k| {
        (k.len() as u64).saturating_add(value_size)
    })
}

/// A sample sorted and cut by [`cut_sorted_keys`]. One body, the weight a `dyn` (the page's
/// first-load wasm carries one copy of the cut, not one a weight).
fn cut_sample(
    sample: &[Vec<u8>],
    regions: u32,
    bounds: &[Vec<u8>],
    weight: &dyn Fn(&[u8]) -> u64,
) -> Result<Vec<Vec<u8>>> {
    check_cut(sample, regions)?;
    if regions == 1 {
        return Ok(Vec::new());
    }
    // `Vec<&Vec<u8>>`, not `Vec<&[u8]>`: the analyzer sorts its samples the same way, so the
    // wasm has one sort for both.
    let mut sorted: Vec<&Vec<u8>> = sample.iter().collect();
    sorted.sort_unstable();
    let sorted: Vec<&[u8]> = sorted.into_iter().map(Vec::as_slice).collect();
    Ok(cut_sorted_keys(&sorted, weight, regions, bounds))
}

/// A cut needs at least one region and, for more than one, some keys.
fn check_cut(sample: &[Vec<u8>], regions: u32) -> Result<()> {
    if regions == 0 {
        return Err(Error::new(
            ErrorKind::Invalid,
            "a table has at least one region",
        ));
    }
    if regions > 1 && sample.is_empty() {
        return Err(Error::new(
            ErrorKind::Invalid,
            "sample quantiles need a non-empty sample of row keys",
        ));
    }
    Ok(())
}

/// One cut inside a bucket: at the first row, in key order, whose running weight (itself
/// included, counted from the table's first row) times `den` is more than `num`. Exact in
/// integers; with every row weighing one, the row at rank `num / den`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CutTarget {
    /// The bucket the cut falls in (0 without a salt).
    pub bucket: usize,
    /// The share's numerator.
    pub num: u128,
    /// The share's denominator (never 0).
    pub den: u128,
}

impl CutTarget {
    /// The target's rank in sorted order when every row weighs one.
    pub fn rank(&self) -> u64 {
        u64::try_from(self.num / self.den.max(1)).unwrap_or(u64::MAX)
    }
}

/// Where a table's rows are cut into regions: the salt buckets whose first byte starts a
/// region (`bounds[k - 1]` for bucket `k`), and the cuts inside buckets, in key order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CutPlan {
    /// Buckets (1..) that start a region at their bound.
    pub buckets: Vec<usize>,
    /// The cuts inside buckets, ascending.
    pub targets: Vec<CutTarget>,
}

/// How rows weighing `weights` per salt bucket (one entry without a salt) are cut into
/// `regions` regions, each bucket kept whole:
/// - one bucket: cut `j` at `j/regions` of the weight (the plain equal-count or equal-bytes
///   cut);
/// - at least as many regions as buckets: every bucket starts a region, and the rest go one by
///   one to the bucket whose regions are heaviest (`weight / regions`, ties to the first
///   bucket), which makes the heaviest region as light as whole buckets allow; a bucket with
///   `r` regions is cut at `j/r` of its weight;
/// - fewer regions than buckets: region `j` starts at the bucket bound whose weight ahead is
///   nearest `floor(j · total / regions)` (ties to the later bound), each bound after the
///   last one taken and leaving one for each cut still to come.
pub fn plan_cut(weights: &[u64], regions: u32) -> CutPlan {
    let n = regions as usize;
    let mut plan = CutPlan::default();
    if n <= 1 {
        return plan;
    }
    // the weight ahead of each bucket, and in all
    let mut ahead: Vec<u128> = Vec::with_capacity(weights.len());
    let mut total: u128 = 0;
    for &w in weights {
        ahead.push(total);
        total += u128::from(w);
    }
    if weights.len() > n {
        plan.buckets = grouped_bounds(&ahead, total, n);
        return plan;
    }
    let share = allot(weights, n);
    for k in 0..weights.len() {
        let (w, r, at) = (u128::from(weights[k]), u128::from(share[k]), ahead[k]);
        if k > 0 {
            plan.buckets.push(k);
        }
        for j in 1..r {
            if w > 0 {
                plan.targets.push(CutTarget {
                    bucket: k,
                    num: at * r + j * w,
                    den: r,
                });
            }
        }
    }
    plan
}

/// `n` regions over buckets of `weights` (at least one each): each next one to the bucket
/// whose regions are heaviest, the lower bucket on a tie (Adams' apportionment, which minimizes
/// the heaviest). A max-heap by hand, of bucket indexes: only its top ever changes (a region
/// more makes it lighter), so one sift down a region; the std heap would be 1.5 KB of the
/// page's first-load wasm.
fn allot(weights: &[u64], n: usize) -> Vec<u32> {
    let mut share = vec![1u32; weights.len()];
    let mut heap: Vec<usize> = (0..weights.len()).collect();
    let sift = |heap: &mut Vec<usize>, share: &[u32], mut i: usize| loop {
        // `a` goes above `b`: more weight per region, or as much and a lower bucket
        let above = |a: usize, b: usize| {
            let x = u128::from(weights[a]) * u128::from(share[b]);
            let y = u128::from(weights[b]) * u128::from(share[a]);
            x > y || (x == y && a < b)
        };
        let mut top = i;
        for c in [2 * i + 1, 2 * i + 2] {
            if c < heap.len() && above(heap[c], heap[top]) {
                top = c;
            }
        }
        if top == i {
            return;
        }
        heap.swap(i, top);
        i = top;
    };
    for i in (0..heap.len() / 2).rev() {
        sift(&mut heap, &share, i);
    }
    for _ in weights.len()..n {
        share[heap[0]] += 1;
        sift(&mut heap, &share, 0);
    }
    share
}

/// The `n - 1` buckets (1..) that start regions when fewer regions than buckets group them
/// (see [`plan_cut`]); `ahead[k]`: the weight ahead of bucket `k`. The distance from a bound
/// to a share falls, then rises (the weights ahead only grow), so one walk forward finds each
/// nearest, the later on a tie.
fn grouped_bounds(ahead: &[u128], total: u128, n: usize) -> Vec<usize> {
    let last = ahead.len() - 1;
    let mut out: Vec<usize> = Vec::with_capacity(n - 1);
    let mut s = 1;
    for j in 1..n {
        let target = j as u128 * total / n as u128;
        // bounds up to `hi` are open to cut j: one is left for each cut after it
        let hi = last - (n - 1 - j);
        while s < hi && ahead[s + 1].abs_diff(target) <= ahead[s].abs_diff(target) {
            s += 1;
        }
        out.push(s);
        s += 1;
    }
    out
}

/// The bucket (0..=`bounds.len()`) of `key`: how many bounds are at or below it.
pub fn bucket_of(bounds: &[Vec<u8>], key: &[u8]) -> usize {
    bounds.partition_point(|b| key_order(b, key) != std::cmp::Ordering::Greater)
}

/// [`bucket_of`] for every row of a table: bounds of one byte each (a byte salt, the common
/// case) are looked up by the key's first byte, not searched for (3.4 M keys of a salted
/// design are counted by bucket before each exact cut).
pub struct Buckets<'a> {
    bounds: &'a [Vec<u8>],
    by_byte: Option<Box<[u32; 256]>>,
}

impl<'a> Buckets<'a> {
    /// The buckets that start at `bounds` (ascending).
    pub fn new(bounds: &'a [Vec<u8>]) -> Buckets<'a> {
        let by_byte = bounds.iter().all(|b| b.len() == 1).then(|| {
            let mut t = Box::new([0u32; 256]);
            for (byte, slot) in t.iter_mut().enumerate() {
                // a key starting with this byte is at or above each bound of at most it
                *slot = bounds
                    .partition_point(|b| b.first().is_some_and(|&x| usize::from(x) <= byte))
                    as u32;
            }
            t
        });
        Buckets { bounds, by_byte }
    }

    /// The bucket of `key`.
    pub fn of(&self, key: &[u8]) -> usize {
        match (&self.by_byte, key.first()) {
            (Some(t), Some(&b)) => t[usize::from(b)] as usize,
            (Some(_), None) => 0,
            (None, _) => bucket_of(self.bounds, key),
        }
    }
}

/// Each cut of `targets` (ascending) that falls among rows in sorted order: `sizes` are the
/// weights of a run of them, `before` the weight of the rows ahead of it (a Spark partition
/// of a sort). Returns `(target index, row index in the run)`, ascending; a heavy row may take
/// several cuts.
pub fn target_cuts(before: u64, sizes: &[u64], targets: &[CutTarget]) -> Vec<(usize, u64)> {
    let mut running = u128::from(before);
    // the first target the rows ahead did not pass
    let mut t = 0;
    while t < targets.len() && running * targets[t].den > targets[t].num {
        t += 1;
    }
    let mut out = Vec::new();
    for (i, &size) in sizes.iter().enumerate() {
        running += u128::from(size);
        while t < targets.len() && running * targets[t].den > targets[t].num {
            out.push((t, i as u64));
            t += 1;
        }
    }
    out
}

/// Each key of a cut in key order to `f`: each bucket bound the plan takes (`true`), each
/// followed by the keys picked at its bucket's targets (`false`; a target no row fell on left
/// out).
fn walk_cut(
    bounds: &[Vec<u8>],
    plan: &CutPlan,
    picks: &[Option<&[u8]>],
    f: &mut dyn FnMut(bool, &[u8]),
) {
    let (mut b, mut t) = (0, 0);
    for k in 0..=bounds.len() {
        if plan.buckets.get(b) == Some(&k) {
            b += 1;
            if let Some(bound) = k.checked_sub(1).and_then(|i| bounds.get(i)) {
                f(true, bound);
            }
        }
        while t < plan.targets.len() && plan.targets[t].bucket <= k {
            if let Some(Some(key)) = picks.get(t) {
                f(false, key);
            }
            t += 1;
        }
    }
}

/// The split keys of a cut: each bucket bound the plan takes, then the keys picked at its
/// targets (`picks`, one per target, `None` where no row fell), with HBase's rules: no empty
/// key, none at or below the one before it (so a run of equal keys cuts once), none at or
/// below `smallest` (the first region would be empty) until a bound is taken.
pub fn assemble_cut(
    bounds: &[Vec<u8>],
    plan: &CutPlan,
    smallest: Option<&[u8]>,
    picks: &[Option<&[u8]>],
) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = Vec::new();
    walk_cut(bounds, plan, picks, &mut |bound, key| {
        let floor = out.last().map_or(smallest.unwrap_or(&[]), Vec::as_slice);
        if bound || (!key.is_empty() && key > floor) {
            out.push(key.to_vec());
        }
    });
    out
}

/// A cut in the form a `sampleQuantiles` sample carries it: cut again as a sample
/// ([`quantile_split_keys_in`], the same bounds and region count), these keys give back the
/// cut's split keys. The smallest key when it is in the first bucket, each bound taken, each
/// key picked (repeats kept: a bucket's count is its regions).
pub fn cut_summary(
    bounds: &[Vec<u8>],
    plan: &CutPlan,
    smallest: Option<&[u8]>,
    picks: &[Option<&[u8]>],
) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = Vec::new();
    if let Some(s) = smallest.filter(|s| bucket_of(bounds, s) == 0) {
        out.push(s.to_vec());
    }
    walk_cut(bounds, plan, picks, &mut |_, key| out.push(key.to_vec()));
    out
}

/// Keys in HBase's order cut into `regions` regions of equal `weight` ([`plan_cut`] over the
/// weight of each bucket of `bounds`), with [`assemble_cut`]'s rules.
pub fn cut_sorted_keys(
    sorted: &[&[u8]],
    weight: &dyn Fn(&[u8]) -> u64,
    regions: u32,
    bounds: &[Vec<u8>],
) -> Vec<Vec<u8>> {
    let sizes: Vec<u64> = sorted.iter().map(|k| weight(k)).collect();
    cut_sorted_weighted(sorted, &sizes, regions, bounds)
}

/// [`cut_sorted_keys`] with each key's weight given (`sizes[i]` is `sorted[i]`'s; a missing
/// one weighs 0): the rekey plan from a snapshot series weighs each sampled key by the bytes of
/// the old region it stands for, not by its own length, and is cut by this same rule, each
/// bucket kept whole.
pub fn cut_sorted_weighted(
    sorted: &[&[u8]],
    sizes: &[u64],
    regions: u32,
    bounds: &[Vec<u8>],
) -> Vec<Vec<u8>> {
    let mut weights = vec![0u64; bounds.len() + 1];
    let mut k = 0;
    for (i, key) in sorted.iter().enumerate() {
        while k < bounds.len() && bounds[k].as_slice() <= *key {
            k += 1;
        }
        let w = sizes.get(i).copied().unwrap_or(0);
        weights[k] = weights[k].saturating_add(w);
    }
    let plan = plan_cut(&weights, regions);
    let mut picks: Vec<Option<&[u8]>> = vec![None; plan.targets.len()];
    for (t, i) in target_cuts(0, sizes, &plan.targets) {
        picks[t] = sorted.get(i as usize).copied();
    }
    assemble_cut(bounds, &plan, sorted.first().copied(), &picks)
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
    let plan = plan_cut(&[total], regions);
    let sizes: Vec<u64> = sizes.into_iter().collect();
    target_cuts(before, &sizes, &plan.targets)
        .into_iter()
        .map(|(t, i)| (t as u32 + 1, i))
        .collect()
}
