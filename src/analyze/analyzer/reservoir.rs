//! Uniform samples of a stream of keys (Algorithm L): the report's key sample, and each
//! region's sample that auto-split takes its midpoint key from.

use rand_core::RngCore;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

/// A uniform sample of at most `cap` items of a stream, by Li's Algorithm L: after the
/// reservoir fills, the number of items to skip before the next one is kept is drawn from its
/// geometric-like law, so a stream of `n` items costs `O(k log(n/k))` random draws instead of
/// one draw and one division per item (Algorithm R). Logarithms and exponentials come from
/// `libm`, so native and wasm builds keep the same sample.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Reservoir<T> {
    /// The sample, in no particular order.
    pub(super) items: Vec<T>,
    /// Items offered so far.
    seen: u64,
    /// The `seen` count at which the next item is kept (after the reservoir filled).
    next: u64,
    /// Algorithm L's running `W`.
    w: f64,
}

impl<T> Default for Reservoir<T> {
    fn default() -> Self {
        Reservoir {
            items: Vec::new(),
            seen: 0,
            next: u64::MAX,
            w: 1.0,
        }
    }
}

/// A uniform draw in `0..n` (0 when `n` is 0): the high half of a 64 × 64-bit product.
fn below(rng: &mut Xoshiro256PlusPlus, n: u64) -> u64 {
    ((u128::from(rng.next_u64()) * u128::from(n)) >> 64) as u64
}

/// `m` of `items` at random (a partial Fisher–Yates shuffle), in the order drawn.
fn choose<T>(mut items: Vec<T>, m: usize, rng: &mut Xoshiro256PlusPlus) -> Vec<T> {
    let n = items.len();
    for i in 0..m.min(n) {
        let j = i + usize::try_from(below(rng, (n - i) as u64)).unwrap_or(0);
        items.swap(i, j.min(n - 1));
    }
    items.truncate(m);
    items
}

/// A uniform draw in `(0, 1)`, never 0 (53 random bits, centred).
fn unit_open(rng: &mut Xoshiro256PlusPlus) -> f64 {
    ((rng.next_u64() >> 11) as f64 + 0.5) * (1.0 / 9_007_199_254_740_992.0)
}

impl<T> Reservoir<T> {
    /// A reservoir that has seen exactly `items` (a daughter region's share of its parent's).
    pub(super) fn from_items(items: Vec<T>, cap: usize, rng: &mut Xoshiro256PlusPlus) -> Self {
        let mut r = Reservoir {
            seen: items.len() as u64,
            items,
            ..Reservoir::default()
        };
        if cap > 0 && r.items.len() >= cap {
            r.w = 1.0;
            r.skip(cap, rng);
        }
        r
    }

    /// One uniform sample of at most `cap` items of the stream `a` then `b`, from uniform
    /// samples of each: how many of the merged items come from `a` is drawn as a draw without
    /// replacement from `a.seen + b.seen` items would fall (hypergeometric, one item at a
    /// time), and that many are taken from `a`'s items at random, the rest from `b`'s. The
    /// merged reservoir is not offered more items (its Algorithm L state is spent).
    pub(super) fn merge(a: Self, b: Self, cap: usize, rng: &mut Xoshiro256PlusPlus) -> Self {
        let seen = a.seen.saturating_add(b.seen);
        let size = usize::try_from(seen).unwrap_or(usize::MAX).min(cap);
        let (mut left_a, mut left_all) = (a.seen, seen);
        let mut from_a = 0usize;
        for _ in 0..size {
            if below(rng, left_all) < left_a {
                from_a += 1;
                left_a -= 1;
            }
            left_all -= 1;
        }
        let from_a = from_a.min(a.items.len());
        let from_b = (size - from_a).min(b.items.len());
        let mut items = choose(a.items, from_a, rng);
        items.extend(choose(b.items, from_b, rng));
        Reservoir {
            items,
            seen,
            ..Reservoir::default()
        }
    }

    /// Algorithm L's step: `W *= U^(1/k)`, then the next kept item is
    /// `floor(ln U' / ln(1 - W)) + 1` items on.
    fn skip(&mut self, cap: usize, rng: &mut Xoshiro256PlusPlus) {
        let k = cap.max(1) as f64;
        self.w *= libm::exp(libm::log(unit_open(rng)) / k);
        let gap = libm::floor(libm::log(unit_open(rng)) / libm::log1p(-self.w));
        // A saturating cast: NaN or a negative gap keeps the very next item.
        self.next = self.seen.saturating_add(gap as u64).saturating_add(1);
    }

    /// Offer one item: `make` builds it when the reservoir is still filling, `set` writes it
    /// over the evicted item's storage when it is kept later (no allocation).
    #[inline]
    pub(super) fn offer(
        &mut self,
        cap: usize,
        rng: &mut Xoshiro256PlusPlus,
        make: impl FnOnce() -> T,
        set: impl FnOnce(&mut T),
    ) {
        self.seen = self.seen.saturating_add(1);
        if cap == 0 {
            return;
        }
        if self.items.len() < cap {
            self.items.push(make());
            if self.items.len() == cap {
                self.w = 1.0;
                self.skip(cap, rng);
            }
            return;
        }
        if self.seen < self.next {
            return;
        }
        let j = rng.next_u64() % cap as u64;
        if let Some(slot) = usize::try_from(j).ok().and_then(|j| self.items.get_mut(j)) {
            set(slot);
        }
        self.skip(cap, rng);
    }
}
