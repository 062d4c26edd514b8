//! Sematext HBaseWD row-key distributors: write `prefix || key`, scan every bucket.
//!
//! * [`HashPrefixDistributor`] = `RowKeyDistributorByHashPrefix` with `OneByteSimpleHash(m)`:
//!   the prefix is a hash of the key, so a row can be found again from its key.
//! * [`OneBytePrefixDistributor`] = `RowKeyDistributorByOneBytePrefix(n)`: prefixes are handed
//!   out round robin by a per-instance counter, so a point lookup must try every bucket.

use super::java_bytes_hash;
use crate::error::{Error, ErrorKind, Result};

/// A scan interval `[start, stop)`; an empty `stop` means "to the end of the table".
pub type Interval = (Vec<u8>, Vec<u8>);

/// Java class name HBaseWD stores in front of the hasher parameters.
const ONE_BYTE_SIMPLE_HASH_CLASS: &str =
    "com.sematext.hbase.wd.RowKeyDistributorByHashPrefix$OneByteSimpleHash";

/// `OneByteSimpleHash(maxBuckets)`: a one-byte hash prefix over `maxBuckets` buckets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OneByteSimpleHash {
    buckets: u16,
}

impl OneByteSimpleHash {
    /// A hasher over `max_buckets` buckets; upstream accepts `1..=256`
    /// (anything else is `IllegalArgument`).
    pub fn new(max_buckets: i32) -> Result<Self> {
        match u16::try_from(max_buckets) {
            Ok(b) if (1..=256).contains(&b) => Ok(OneByteSimpleHash { buckets: b }),
            _ => Err(Error::arg(
                "max_buckets",
                format!("HBaseWD bucket count must be 1..=256, got {max_buckets}"),
            )),
        }
    }

    /// The bucket count.
    pub fn buckets(&self) -> u16 {
        self.buckets
    }

    /// `getHashPrefix(key)`: `(byte)((long) Math.abs(hash) % m)`.
    ///
    /// Copied bug (spec §13.8): `Math.abs` runs on the 32-bit hash before widening, so a key
    /// hashing to `Integer.MIN_VALUE` keeps a negative dividend and gets a prefix outside
    /// `0..m` (e.g. `f8` for `m = 10`); such rows are missed by the distributed scan.
    pub fn prefix(&self, key: &[u8]) -> u8 {
        let h = i64::from(java_bytes_hash(key).wrapping_abs());
        (h % i64::from(self.buckets)) as u8
    }

    /// `getAllPossiblePrefixes()`: `00 … m-1`, one byte each, in that order.
    pub fn all_prefixes(&self) -> Vec<Vec<u8>> {
        (0..self.buckets).map(|i| vec![i as u8]).collect()
    }

    /// `getParamsToStore()`: the decimal bucket count.
    pub fn params_to_store(&self) -> String {
        self.buckets.to_string()
    }
}

/// `OneByteSimpleHash(max_buckets).getHashPrefix(key)` as a plain function; the prefix byte.
pub fn one_byte_simple_hash_prefix(key: &[u8], max_buckets: i32) -> Result<u8> {
    Ok(OneByteSimpleHash::new(max_buckets)?.prefix(key))
}

/// `Bytes.tail(adjusted, adjusted.length - 1)`: drop the one-byte prefix. An empty key is
/// `NegativeArraySize` as in Java.
fn strip_one_byte(adjusted: &[u8]) -> Result<Vec<u8>> {
    match adjusted.get(1..) {
        Some(rest) => Ok(rest.to_vec()),
        None => Err(Error::new(
            ErrorKind::NegativeArraySize,
            "distributed key is empty: it has no prefix byte to remove",
        )
        .at_path("adjusted_key")),
    }
}

fn prefixed(prefix: &[u8], key: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(prefix.len() + key.len());
    out.extend_from_slice(prefix);
    out.extend_from_slice(key);
    out
}

/// `AbstractRowKeyDistributor.getDistributedIntervals` given the prefixes in order.
/// With a non-empty stop: `[p||start, p||stop)` per prefix. With an empty stop: the start keys
/// sorted (unsigned) and each interval ends at the next prefix, the last one open.
fn intervals(prefixes: &[Vec<u8>], start: &[u8], stop: &[u8]) -> Result<Vec<Interval>> {
    let starts: Vec<Vec<u8>> = prefixes.iter().map(|p| prefixed(p, start)).collect();
    if !stop.is_empty() {
        return Ok(starts
            .into_iter()
            .zip(prefixes.iter().map(|p| prefixed(p, stop)))
            .collect());
    }
    if prefixes.is_empty() {
        // stopKeys[stopKeys.length - 1] with no keys.
        return Err(
            Error::new(ErrorKind::IndexOutOfBounds, "there are no buckets to scan")
                .at_path("buckets_count"),
        );
    }
    let starts = crate::hbase::bytes::sorted_keys(&starts);
    let stops = prefixes
        .iter()
        .skip(1)
        .cloned()
        .chain(std::iter::once(Vec::new()));
    Ok(starts.into_iter().zip(stops).collect())
}

/// `RowKeyDistributorByHashPrefix(new OneByteSimpleHash(m))`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HashPrefixDistributor {
    hasher: OneByteSimpleHash,
}

impl HashPrefixDistributor {
    /// A distributor over `max_buckets` buckets (`1..=256`, else `IllegalArgument`).
    pub fn new(max_buckets: i32) -> Result<Self> {
        Ok(HashPrefixDistributor {
            hasher: OneByteSimpleHash::new(max_buckets)?,
        })
    }

    /// The hasher in use.
    pub fn hasher(&self) -> OneByteSimpleHash {
        self.hasher
    }

    /// `getDistributedKey(key)`: `prefix(key) || key`.
    pub fn distributed_key(&self, key: &[u8]) -> Vec<u8> {
        prefixed(&[self.hasher.prefix(key)], key)
    }

    /// `getOriginalKey(adjusted)`: drop the one-byte prefix (empty -> `NegativeArraySize`).
    pub fn original_key(&self, adjusted_key: &[u8]) -> Result<Vec<u8>> {
        strip_one_byte(adjusted_key)
    }

    /// `getAllDistributedKeys(key)`: every prefix `|| key`, prefixes in order.
    pub fn all_distributed_keys(&self, key: &[u8]) -> Vec<Vec<u8>> {
        self.hasher
            .all_prefixes()
            .iter()
            .map(|p| prefixed(p, key))
            .collect()
    }

    /// `getDistributedIntervals(start, stop)`: one scan interval per bucket covering the
    /// original range `[start, stop)` (empty `stop` = to the end of the table).
    pub fn distributed_intervals(&self, start: &[u8], stop: &[u8]) -> Vec<Interval> {
        // Never empty (1..=256 buckets), so the error branch cannot be taken.
        intervals(&self.hasher.all_prefixes(), start, stop).unwrap_or_default()
    }

    /// `getParamsToStore()`: `<hasher class>--<m>`, the string HBaseWD stores in the job
    /// configuration to rebuild the distributor.
    pub fn params_to_store(&self) -> String {
        format!(
            "{ONE_BYTE_SIMPLE_HASH_CLASS}--{}",
            self.hasher.params_to_store()
        )
    }
}

/// `RowKeyDistributorByOneBytePrefix(byte bucketsCount)`: round-robin one-byte prefixes.
///
/// The counter is a Java `byte` like upstream's, so after 127 keys it wraps to -128 and the
/// sequence continues from `|-128 % n|` rather than restarting at 0; this is reproduced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OneBytePrefixDistributor {
    max_prefix: i8,
    next_prefix: i8,
}

/// Upstream's prefix table holds `Byte.MAX_VALUE` (127) one-byte arrays `00 … 7e`.
const ONE_BYTE_PREFIXES: i32 = 127;

impl OneBytePrefixDistributor {
    /// A fresh distributor (counter at 0). `buckets_count` is a Java byte: `1..=127` is
    /// meaningful; `0` fails on the first key, negatives cycle like `|n|` but cannot
    /// enumerate buckets, exactly as upstream.
    pub fn new(buckets_count: i8) -> Self {
        OneBytePrefixDistributor {
            max_prefix: buckets_count,
            next_prefix: 0,
        }
    }

    /// The configured bucket count.
    pub fn buckets_count(&self) -> i8 {
        self.max_prefix
    }

    /// `getDistributedKey(key)`: `(|counter++ % n|) || key`. `n == 0` -> `Arithmetic`
    /// (the counter still advances, as in Java).
    pub fn distributed_key(&mut self, key: &[u8]) -> Result<Vec<u8>> {
        let current = i32::from(self.next_prefix);
        self.next_prefix = self.next_prefix.wrapping_add(1);
        let n = i32::from(self.max_prefix);
        if n == 0 {
            return Err(Error::new(
                ErrorKind::Arithmetic,
                "bucket count is 0 (division by zero)",
            )
            .at_path("buckets_count"));
        }
        // Java: (byte) Math.abs(counter % n), then PREFIXES[prefix] (127 entries).
        let prefix = (current % n).wrapping_abs();
        if prefix >= ONE_BYTE_PREFIXES {
            return Err(Error::new(
                ErrorKind::IndexOutOfBounds,
                format!("prefix {prefix} is past the 127-entry prefix table"),
            )
            .at_path("buckets_count"));
        }
        Ok(prefixed(&[prefix as u8], key))
    }

    /// `getOriginalKey(adjusted)`: drop the one-byte prefix (empty -> `NegativeArraySize`).
    pub fn original_key(&self, adjusted_key: &[u8]) -> Result<Vec<u8>> {
        strip_one_byte(adjusted_key)
    }

    /// The prefixes `00 … n-1`; a negative count is `NegativeArraySize` as in Java.
    pub fn all_prefixes(&self) -> Result<Vec<Vec<u8>>> {
        let n = self.max_prefix;
        if n < 0 {
            return Err(Error::new(
                ErrorKind::NegativeArraySize,
                format!("bucket count is negative: {n}"),
            )
            .at_path("buckets_count"));
        }
        Ok((0..n).map(|i| vec![i as u8]).collect())
    }

    /// `getAllDistributedKeys(key)`: every prefix `|| key`.
    pub fn all_distributed_keys(&self, key: &[u8]) -> Result<Vec<Vec<u8>>> {
        Ok(self
            .all_prefixes()?
            .iter()
            .map(|p| prefixed(p, key))
            .collect())
    }

    /// `getDistributedIntervals(start, stop)`: one scan interval per bucket (see
    /// [`HashPrefixDistributor::distributed_intervals`]). `n == 0` with an empty stop is
    /// `IndexOutOfBounds`, as upstream.
    pub fn distributed_intervals(&self, start: &[u8], stop: &[u8]) -> Result<Vec<Interval>> {
        intervals(&self.all_prefixes()?, start, stop)
    }

    /// `getParamsToStore()`: the decimal bucket count.
    pub fn params_to_store(&self) -> String {
        self.max_prefix.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_counts_and_range() {
        // OneByteSimpleHashTest: m=256 has 256 prefixes, m=10 has 10; 3-byte keys map into them.
        for m in [256, 10] {
            let h = OneByteSimpleHash::new(m).unwrap_or(OneByteSimpleHash { buckets: 1 });
            assert_eq!(h.all_prefixes().len(), m as usize);
            for k in [
                [0u8, 0, 0],
                [1, 2, 3],
                [0xff, 0x80, 0x7f],
                [0x12, 0xfe, 0x00],
            ] {
                let p = h.prefix(&k);
                assert!(u16::from(p) < h.buckets(), "{k:?} -> {p}");
                assert_eq!(p, h.prefix(&k));
            }
        }
    }

    #[test]
    fn min_value_hash_gives_out_of_range_prefix() {
        // Spec §9: hash == Integer.MIN_VALUE -> (byte)(-(2^31 mod m)).
        let key = [-106i8, 0, -10, 0, 19, -2].map(|b| b as u8);
        assert_eq!(one_byte_simple_hash_prefix(&key, 10), Ok(0xf8));
        assert_eq!(one_byte_simple_hash_prefix(&key, 3), Ok(0xfe));
        assert_eq!(one_byte_simple_hash_prefix(&key, 100), Ok(0xd0));
        assert_eq!(one_byte_simple_hash_prefix(&key, 256), Ok(0x00));
    }

    #[test]
    fn bad_bucket_counts() {
        for m in [0, -1, 257, i32::MIN, i32::MAX] {
            assert_eq!(
                HashPrefixDistributor::new(m).map_err(|e| e.kind),
                Err(ErrorKind::IllegalArgument)
            );
        }
        let mut d = OneBytePrefixDistributor::new(0);
        assert_eq!(
            d.distributed_key(b"a").map_err(|e| e.kind),
            Err(ErrorKind::Arithmetic)
        );
        assert_eq!(
            d.distributed_intervals(b"", b"").map_err(|e| e.kind),
            Err(ErrorKind::IndexOutOfBounds)
        );
        assert_eq!(d.distributed_intervals(b"", b"z"), Ok(vec![]));
        let d = OneBytePrefixDistributor::new(-3);
        assert_eq!(
            d.all_distributed_keys(b"").map_err(|e| e.kind),
            Err(ErrorKind::NegativeArraySize)
        );
        assert_eq!(
            d.original_key(b"").map_err(|e| e.kind),
            Err(ErrorKind::NegativeArraySize)
        );
        // n = -128: |127 % -128| = 127 is past upstream's 127-entry prefix table.
        let mut d = OneBytePrefixDistributor::new(i8::MIN);
        let kinds: Vec<_> = (0..130)
            .map(|_| d.distributed_key(b"").err().map(|e| e.kind))
            .collect();
        assert_eq!(kinds.get(127), Some(&Some(ErrorKind::IndexOutOfBounds)));
        assert_eq!(kinds.get(126), Some(&None));
    }

    #[test]
    fn round_robin_and_intervals() {
        let mut d = OneBytePrefixDistributor::new(2);
        let keys: Vec<_> = (0..3)
            .map(|_| d.distributed_key(b"k").unwrap_or_default())
            .collect();
        assert_eq!(
            keys,
            vec![b"\x00k".to_vec(), b"\x01k".to_vec(), b"\x00k".to_vec()]
        );
        let h = HashPrefixDistributor::new(3).unwrap_or(HashPrefixDistributor {
            hasher: OneByteSimpleHash { buckets: 1 },
        });
        assert_eq!(
            h.distributed_intervals(b"a", b""),
            vec![
                (b"\x00a".to_vec(), vec![1]),
                (b"\x01a".to_vec(), vec![2]),
                (b"\x02a".to_vec(), vec![])
            ]
        );
        assert_eq!(
            h.params_to_store(),
            "com.sematext.hbase.wd.RowKeyDistributorByHashPrefix$OneByteSimpleHash--3"
        );
    }
}
