//! Uniform samples of a stream of keys (Algorithm L): the report's key sample, and each
//! region's sample that auto-split takes its midpoint key from.

use rand_core::RngCore;
use rand_xoshiro::Xoshiro256PlusPlus;

/// A uniform sample of at most `cap` items of a stream, by Li's Algorithm L: after the
/// reservoir fills, the number of items to skip before the next one is kept is drawn from its
/// geometric-like law, so a stream of `n` items costs `O(k log(n/k))` random draws instead of
/// one draw and one division per item (Algorithm R). Logarithms and exponentials come from
/// `libm`, so native and wasm builds keep the same sample.
#[derive(Debug, Clone)]
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
