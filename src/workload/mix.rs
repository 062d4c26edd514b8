//! Deterministic mixing for the generators: per-field seeds, and the permutation that spreads
//! a fixed set of values over their number space.

/// A fixed bijection of `[0, n)`: `i -> (a * i + b) mod n` with `gcd(a, n) = 1`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Permutation {
    n: u64,
    a: u64,
    b: u64,
}

impl Permutation {
    pub(super) fn new(n: u64, salt: u64) -> Self {
        let n = n.max(1);
        // Start near n / golden ratio so neighbours land far apart, then find a unit mod n.
        let mut a = ((n as u128 * 0x9E37_79B9_7F4A_7C15u128) >> 64) as u64 | 1;
        if a == 0 || a >= n {
            a = 1;
        }
        while gcd(a, n) != 1 {
            a += 1;
        }
        Permutation {
            n,
            a,
            b: splitmix64(salt) % n,
        }
    }
    pub(super) fn apply(&self, i: u64) -> u64 {
        if self.n <= 1 << 32 {
            // a, i mod n, b < n <= 2^32: a * i + b < 2^64, the same value in 64-bit
            // arithmetic (a 128-bit division is a slow library call, slower still in wasm).
            // `i < n` in every caller: skip that division.
            let i = if i < self.n { i } else { i % self.n };
            return (self.a * i + self.b) % self.n;
        }
        ((u128::from(self.a) * u128::from(i % self.n) + u128::from(self.b)) % u128::from(self.n))
            as u64
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// SplitMix64's finalizer: a well-mixed 64-bit hash of `x`.
pub(crate) fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// FNV-1a over the field name: ties a field's stream to its name, not its position.
pub(super) fn fnv1a(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}
