//! Zipf sampling by rejection-inversion (Hörmann and Derflinger, "Rejection-inversion to
//! generate variates from monotone discrete distributions", 1996) — the algorithm of Apache
//! Commons RNG's `RejectionInversionZipfSampler` and of `rand_distr::Zipf`.
//!
//! Why not `rand_distr::Zipf` itself: it calls `f64::powf`/`ln` through `num-traits`, which
//! with `std` enabled (as it is in this crate) go to the platform's libm. glibc and the wasm
//! target's libm may differ in the last bit, and a one-ulp difference can flip an
//! accept/reject decision, so the native and wasm streams would drift apart. Here every
//! transcendental call goes through the pure-Rust `libm` crate, which is the same code on
//! every target, and the remaining arithmetic is IEEE basic operations (correctly rounded
//! everywhere). Setup is O(1) and sampling is O(1) expected, for any `n` up to 2^53.

use rand::Rng;

/// A Zipf(n, s) sampler over ranks `1..=n`; rank 1 is the most frequent.
#[derive(Debug, Clone)]
pub(crate) struct ZipfSampler {
    n: f64,
    n_int: u64,
    exponent: f64,
    h_integral_x1: f64,
    h_integral_n: f64,
    s: f64,
}

impl ZipfSampler {
    /// A sampler over `1..=n` with exponent `exponent`; `n >= 1` and `exponent >= 0` finite
    /// are checked by the caller (an exponent of 0 is the uniform distribution).
    pub(crate) fn new(n: u64, exponent: f64) -> Self {
        let n_int = n.max(1);
        let nf = n_int as f64;
        let mut z = ZipfSampler {
            n: nf,
            n_int,
            exponent,
            h_integral_x1: 0.0,
            h_integral_n: 0.0,
            s: 0.0,
        };
        z.h_integral_x1 = z.h_integral(1.5) - 1.0;
        z.h_integral_n = z.h_integral(nf + 0.5);
        z.s = 2.0 - z.h_integral_inverse(z.h_integral(2.5) - z.h(2.0));
        z
    }

    /// Change the number of ranks, keeping the exponent (one logarithm and one exponential
    /// instead of a full setup: only H(n + 1/2) depends on `n`).
    pub(crate) fn set_n(&mut self, n: u64) {
        self.n_int = n.max(1);
        self.n = self.n_int as f64;
        self.h_integral_n = self.h_integral(self.n + 0.5);
    }

    /// The number of ranks.
    pub(crate) fn n(&self) -> u64 {
        self.n_int
    }

    /// One rank in `1..=n`.
    pub(crate) fn sample<R: Rng>(&self, rng: &mut R) -> u64 {
        if self.n_int <= 1 {
            return 1;
        }
        // The loop accepts with probability well above 1/2 for every (n, s); the bound only
        // guarantees termination on a pathological stream.
        let mut k = 1.0;
        for _ in 0..10_000 {
            let u01: f64 = rng.gen::<f64>();
            let u = self.h_integral_n + u01 * (self.h_integral_x1 - self.h_integral_n);
            let x = self.h_integral_inverse(u);
            k = libm::floor(x + 0.5);
            if k < 1.0 {
                k = 1.0;
            } else if k > self.n {
                k = self.n;
            }
            if k - x <= self.s || u >= self.h_integral(k + 0.5) - self.h(k) {
                break;
            }
        }
        // `k` is an integral value in [1, n], so the conversion is exact.
        (k as u64).clamp(1, self.n_int)
    }

    /// H(x) = ((x^(1-s)) - 1) / (1 - s), continuous at s = 1 (where it is ln x).
    fn h_integral(&self, x: f64) -> f64 {
        let log_x = libm::log(x);
        helper2((1.0 - self.exponent) * log_x) * log_x
    }

    /// h(x) = x^(-s).
    fn h(&self, x: f64) -> f64 {
        libm::exp(-self.exponent * libm::log(x))
    }

    /// The inverse of H.
    fn h_integral_inverse(&self, x: f64) -> f64 {
        let mut t = x * (1.0 - self.exponent);
        if t < -1.0 {
            // Rounding may push t just below -1; log1p(-1) is -inf.
            t = -1.0;
        }
        libm::exp(helper1(t) * x)
    }
}

/// log1p(x) / x, with its Taylor series near 0.
fn helper1(x: f64) -> f64 {
    if x.abs() > 1e-8 {
        libm::log1p(x) / x
    } else {
        1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x))
    }
}

/// expm1(x) / x, with its Taylor series near 0.
fn helper2(x: f64) -> f64 {
    if x.abs() > 1e-8 {
        libm::expm1(x) / x
    } else {
        1.0 + x * 0.5 * (1.0 + x * (1.0 / 3.0) * (1.0 + 0.25 * x))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn rank_one_frequency_matches_the_harmonic_number() {
        // P(1) = 1 / H(n, s); for n = 10, s = 1: H = 2.928968..., P(1) = 0.34142...
        let z = ZipfSampler::new(10, 1.0);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut counts = [0u64; 11];
        let draws = 200_000;
        for _ in 0..draws {
            let k = z.sample(&mut rng) as usize;
            assert!((1..=10).contains(&k));
            counts[k] += 1;
        }
        let p1 = counts[1] as f64 / draws as f64;
        assert!((p1 - 0.341_417).abs() < 0.01, "p1 = {p1}");
        // P(2) / P(1) = 1/2 for s = 1.
        let ratio = counts[2] as f64 / counts[1] as f64;
        assert!((ratio - 0.5).abs() < 0.03, "ratio = {ratio}");
    }

    #[test]
    fn exponent_zero_is_uniform_and_n_one_is_constant() {
        let z = ZipfSampler::new(4, 0.0);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut counts = [0u64; 5];
        for _ in 0..40_000 {
            counts[z.sample(&mut rng) as usize] += 1;
        }
        for c in &counts[1..] {
            assert!((9_000..11_000).contains(c), "{counts:?}");
        }
        let mut grown = ZipfSampler::new(1, 1.2);
        grown.set_n(1000);
        let fresh = ZipfSampler::new(1000, 1.2);
        let (mut r1, mut r2) = (
            Xoshiro256PlusPlus::seed_from_u64(5),
            Xoshiro256PlusPlus::seed_from_u64(5),
        );
        for _ in 0..1000 {
            assert_eq!(grown.sample(&mut r1), fresh.sample(&mut r2));
        }
        let one = ZipfSampler::new(1, 1.2);
        assert_eq!(one.sample(&mut rng), 1);
        assert_eq!(one.n(), 1);
    }

    #[test]
    fn huge_n_stays_in_range() {
        let z = ZipfSampler::new(1 << 52, 1.1);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for _ in 0..10_000 {
            let k = z.sample(&mut rng);
            assert!((1..=(1u64 << 52)).contains(&k));
        }
    }
}
