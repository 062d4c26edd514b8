//! Salting schemes that spread monotonically increasing row keys over regions by putting a
//! computed prefix in front of them, reproduced byte for byte from their upstream code:
//!
//! * [`phoenix`]: Apache Phoenix `SALT_BUCKETS` (`SaltingUtil`): one salt byte.
//! * [`hbasewd`]: Sematext HBaseWD row-key distributors (hash prefix and round robin).
//! * [`opentsdb`]: OpenTSDB 2.2+ `tsd.storage.salt.*` (`RowKey`): a 0..8-byte salt.
//!
//! Upstream quirks are copied deliberately (spec §13.8, §13.9) because the point of this
//! crate is to predict where the real systems put a row.

pub mod hbasewd;
pub mod opentsdb;
pub mod phoenix;

/// Java `Arrays.hashCode(byte[])` over `bytes`: `h = 1; h = 31*h + signedByte` with 32-bit
/// wrap-around. Phoenix, HBaseWD and OpenTSDB all hash with this same loop.
pub(crate) fn java_bytes_hash(bytes: &[u8]) -> i32 {
    bytes.iter().fold(1i32, |h, &b| {
        h.wrapping_mul(31).wrapping_add(i32::from(b as i8))
    })
}

#[cfg(test)]
mod tests {
    use super::java_bytes_hash;

    #[test]
    fn java_hash_basics() {
        assert_eq!(java_bytes_hash(&[]), 1);
        assert_eq!(java_bytes_hash(&[1]), 32);
        // SaltingUtilTest: this key hashes to Integer.MIN_VALUE.
        let key = [-106i8, 0, -10, 0, 19, -2].map(|b| b as u8);
        assert_eq!(java_bytes_hash(&key), i32::MIN);
    }
}
