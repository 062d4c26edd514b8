//! Uniform samples of a stream of keys: the report's key sample (bottom-k by priority, which
//! merges), and each region's sample that auto-split takes its midpoint key from (Algorithm L).

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

/// A uniform sample of at most `cap` keys of a stream by priority: each write's priority is a
/// hash of its position in the stream and the seed, and the sample keeps the keys of the `cap`
/// smallest priorities (a bottom-k sample). Unlike [`Reservoir`], what it keeps does not depend
/// on the order the writes arrive in, so the samples of two runs of blocks merge into exactly
/// the sample one pass over both keeps ([`merge`](Self::merge)), and it needs no random draws.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(super) struct KeySample {
    /// `(priority, key)`, a max-heap on the priority: the root is the first to go.
    items: Vec<(u64, Vec<u8>)>,
    cap: usize,
    /// Writes of this priority or more are not kept: `u64::MAX` while filling, then the
    /// root's (0 with `cap` 0). Kept apart so the common case is one comparison, inlined.
    threshold: u64,
}

impl KeySample {
    pub(super) fn new(cap: usize) -> KeySample {
        KeySample {
            items: Vec::new(),
            cap,
            threshold: if cap == 0 { 0 } else { u64::MAX },
        }
    }

    /// Whether a write of priority `p` would be kept.
    #[inline(always)]
    pub(super) fn takes(&self, p: u64) -> bool {
        p < self.threshold
    }

    /// The priority of the write at `index` of a stream seeded `seed`: splitmix64, a
    /// bijection, so no two writes of a run tie.
    #[inline]
    pub(super) fn priority(seed: u64, index: u64) -> u64 {
        crate::workload::splitmix64(index ^ seed)
    }

    /// Offer `key` at priority `p` (kept when [`takes`](Self::takes) it); the bytes held are
    /// returned as (added, evicted).
    #[inline(never)]
    pub(super) fn offer(&mut self, p: u64, key: &[u8]) -> (usize, usize) {
        if !self.takes(p) {
            return (0, 0);
        }
        let out = if self.items.len() < self.cap {
            self.items.push((p, key.to_vec()));
            self.sift_up(self.items.len() - 1);
            0
        } else {
            let Some(root) = self.items.first_mut() else {
                return (0, 0);
            };
            let out = root.1.len();
            root.0 = p;
            root.1.clear();
            root.1.extend_from_slice(key);
            self.sift_down(0);
            out
        };
        if self.items.len() >= self.cap {
            self.threshold = self.items.first().map_or(0, |x| x.0);
        }
        (key.len(), out)
    }

    fn sift_up(&mut self, mut i: usize) {
        while i > 0 {
            let parent = (i - 1) / 2;
            let (Some(a), Some(b)) = (self.items.get(parent), self.items.get(i)) else {
                return;
            };
            if a.0 >= b.0 {
                return;
            }
            self.items.swap(parent, i);
            i = parent;
        }
    }

    fn sift_down(&mut self, mut i: usize) {
        let n = self.items.len();
        loop {
            let (l, r) = (2 * i + 1, 2 * i + 2);
            let p = |j: usize| self.items.get(j).map_or(0, |x| x.0);
            let mut big = i;
            if l < n && p(l) > p(big) {
                big = l;
            }
            if r < n && p(r) > p(big) {
                big = r;
            }
            if big == i {
                return;
            }
            self.items.swap(i, big);
            i = big;
        }
    }

    /// Keep what `other` kept too: the `cap` smallest priorities of both.
    pub(super) fn merge(&mut self, other: &KeySample) -> bool {
        if self.cap != other.cap {
            return false;
        }
        for (p, k) in &other.items {
            self.offer(*p, k);
        }
        true
    }

    /// The keys kept.
    pub(super) fn keys(&self) -> impl Iterator<Item = &Vec<u8>> {
        self.items.iter().map(|x| &x.1)
    }

    /// Bytes of the keys kept.
    pub(super) fn bytes(&self) -> usize {
        self.items.iter().map(|x| x.1.len()).sum()
    }
}
