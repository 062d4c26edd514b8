//! A fast hash for maps keyed by the user's own bytes (a profile's values, a verifier's rows):
//! xxh3 over the bytes a value hashes. SipHash's resistance to chosen collisions is not needed
//! for a user's own data, and it was a seventh of a profile's time.

use std::hash::{BuildHasherDefault, Hasher};

/// xxh3 over the bytes a value hashes (its length, then its bytes).
#[derive(Default)]
pub(crate) struct Xxh3Hasher(u64);

impl Hasher for Xxh3Hasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0 = xxhash_rust::xxh3::xxh3_64_with_seed(bytes, self.0);
    }
    fn write_usize(&mut self, n: usize) {
        self.0 = self.0.rotate_left(29) ^ (n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// A `HashMap`'s hasher: [`Xxh3Hasher`].
pub(crate) type Fast = BuildHasherDefault<Xxh3Hasher>;
