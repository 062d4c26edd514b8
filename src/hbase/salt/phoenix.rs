//! Apache Phoenix salting (`SaltingUtil`): a salted table's row key is
//! `[salt byte][primary-key bytes]` with `salt = |hash(pk) % buckets|`.
//!
//! Offsets and lengths are Java `int`s so that the `(buffer, offset, length)` calls behave
//! exactly like the Java ones, including which exception a bad slice raises.

use super::java_bytes_hash;
use crate::error::{Error, ErrorKind, Result};

/// Largest `SALT_BUCKETS` Phoenix accepts (the salt is one unsigned byte).
pub const MAX_BUCKET_NUM: i32 = 256;

/// Check a `SALT_BUCKETS` table option: Phoenix accepts `0..=256` (`0` = not salted).
pub fn validate_salt_buckets(bucket_num: i32) -> Result<()> {
    if (0..=MAX_BUCKET_NUM).contains(&bucket_num) {
        Ok(())
    } else {
        Err(Error::arg(
            "bucket_num",
            format!("salt bucket count must be 0..=256 (0 = not salted), got {bucket_num}"),
        ))
    }
}

/// Java's `int` hash of `value[offset .. offset+length)` with Java's failure modes: the loop
/// end `offset + length` wraps like a Java `int` (an empty loop when it wraps negative), and
/// touching an index outside the array is `ArrayIndexOutOfBoundsException`.
fn hash_slice(value: &[u8], offset: i32, length: i32) -> Result<i32> {
    let end = offset.wrapping_add(length);
    if offset >= end {
        return Ok(1);
    }
    let (Ok(start), Ok(stop)) = (usize::try_from(offset), usize::try_from(end)) else {
        return Err(oob("offset", offset, value.len()));
    };
    match value.get(start..stop) {
        Some(s) => Ok(java_bytes_hash(s)),
        None => Err(oob("offset + length", end, value.len())),
    }
}

fn oob(what: &str, index: i32, len: usize) -> Error {
    Error::new(
        ErrorKind::IndexOutOfBounds,
        format!("index {index} is out of bounds for an array of length {len}"),
    )
    .at_path(what)
}

/// `SaltingUtil.getSaltingByte(value, offset, length, bucketNum)`: the salt byte for the PK
/// bytes `value[offset .. offset+length)`, i.e. `(byte) |hash % bucketNum|`.
///
/// Remainder first, absolute value second, so a hash of `Integer.MIN_VALUE` still gives
/// `0..n-1`. `bucket_num == 0` is `Arithmetic` (Java `/ by zero`); values above 256 or
/// negative ones are computed as Java does (the result keeps only the low 8 bits).
pub fn salting_byte(value: &[u8], offset: i32, length: i32, bucket_num: i32) -> Result<u8> {
    let hash = hash_slice(value, offset, length)?;
    if bucket_num == 0 {
        return Err(Error::new(
            ErrorKind::Arithmetic,
            "salt bucket count is 0 (division by zero)",
        )
        .at_path("bucket_num"));
    }
    // Java `%` never overflows (`MIN % -1 == 0`), and `Math.abs(MIN) == MIN`: both are the
    // wrapping forms; the cast to byte keeps the low 8 bits.
    Ok(hash.wrapping_rem(bucket_num).wrapping_abs() as u8)
}

/// The salt byte of a whole primary key (`salting_byte(pk, 0, pk.len(), bucket_num)`).
pub fn salt_for(pk: &[u8], bucket_num: i32) -> Result<u8> {
    let length = i32::try_from(pk.len()).map_err(|_| {
        Error::arg(
            "pk",
            format!("key of {} bytes exceeds a Java array", pk.len()),
        )
    })?;
    salting_byte(pk, 0, length, bucket_num)
}

/// The salted row key `[salt][pk]` a Phoenix table with `bucket_num` buckets stores for the
/// (unsalted) primary key bytes `pk`.
pub fn salt_row_key(pk: &[u8], bucket_num: i32) -> Result<Vec<u8>> {
    let salt = salt_for(pk, bucket_num)?;
    let mut out = Vec::with_capacity(pk.len() + 1);
    out.push(salt);
    out.extend_from_slice(pk);
    Ok(out)
}

/// `SaltingUtil.getSalteByteSplitPoints(n)` (sic): the `n-1` one-byte pre-split keys
/// `01, 02, …, n-1` Phoenix creates a salted table with, giving regions
/// `["",01), [01,02), …, [n-1,"")`.
///
/// The whole `int` domain as Java computes it: `n <= 0` is `NegativeArraySize` (`new
/// byte[n-1][]`), and past 256 buckets key `i` is `(byte) i`, which wraps: 257 gives `01 … ff`
/// then `00` (Phoenix never creates such a table, but the function returns that).
/// Past [`MAX_SPLIT_KEYS`](crate::hbase::split::MAX_SPLIT_KEYS) keys the answer is a `Limit`
/// error, where Java would allocate until its heap ran out.
pub fn salt_byte_split_points(bucket_num: i32) -> Result<Vec<Vec<u8>>> {
    if bucket_num <= 0 {
        return Err(Error::new(
            ErrorKind::NegativeArraySize,
            format!("salt bucket count must be at least 1 to pre-split, got {bucket_num}"),
        )
        .at_path("bucket_num"));
    }
    let max = crate::hbase::split::MAX_SPLIT_KEYS;
    if usize::try_from(bucket_num - 1).map_or(true, |keys| keys > max) {
        return Err(crate::limits::limit_error(
            "bucket_num",
            format!("{} split keys", i64::from(bucket_num) - 1),
            format!("{max} split keys"),
            "Java would allocate them until its heap ran out",
        ));
    }
    // `(byte) i`: the low 8 bits, as Java's narrowing cast keeps them.
    Ok((1..bucket_num).map(|i| vec![i as u8]).collect())
}

/// `SaltingUtil.getSaltedKey(key, bucketNum)` where `key` is the slice
/// `buffer[offset .. offset+length)` whose first byte is a placeholder for the salt: returns
/// a copy of the slice with byte 0 replaced by the salt of the remaining bytes.
///
/// Failures follow Java's order: `length < 0` -> `NegativeArraySize`; hashing outside the
/// buffer -> `IndexOutOfBounds`; `bucket_num == 0` -> `Arithmetic`; `length == 0` or a copy
/// past the buffer -> `IndexOutOfBounds`. Nothing is allocated before the checks pass.
pub fn salted_key(buffer: &[u8], offset: i32, length: i32, bucket_num: i32) -> Result<Vec<u8>> {
    if length < 0 {
        return Err(Error::new(
            ErrorKind::NegativeArraySize,
            format!("key length is negative: {length}"),
        )
        .at_path("length"));
    }
    let pk_off = offset.wrapping_add(1);
    let pk_len = length.wrapping_sub(1);
    let salt = salting_byte(buffer, pk_off, pk_len, bucket_num)?;
    if length == 0 {
        return Err(oob("length", 0, 0));
    }
    // System.arraycopy(buffer, offset+1, keyBytes, 1, length-1): overflow-safe bounds.
    let src = i64::from(pk_off);
    let n = i64::from(pk_len);
    if src < 0 || src + n > buffer.len() as i64 {
        return Err(oob("offset + length", pk_off, buffer.len()));
    }
    let (Ok(s), Ok(e)) = (usize::try_from(src), usize::try_from(src + n)) else {
        return Err(oob("offset", pk_off, buffer.len()));
    };
    let Some(rest) = buffer.get(s..e) else {
        return Err(oob("offset + length", pk_off, buffer.len()));
    };
    let mut out = Vec::with_capacity(rest.len() + 1);
    out.push(salt);
    out.extend_from_slice(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_keys_with_three_buckets_cover_exactly_0_1_2() {
        // SaltingUtilTest: salting Bytes.toBytes(i) for i in 0..99 with 3 buckets -> {0,1,2}.
        let mut seen = std::collections::BTreeSet::new();
        for i in 0i32..100 {
            seen.insert(salt_for(&i.to_be_bytes(), 3).unwrap_or(99));
        }
        assert_eq!(seen.into_iter().collect::<Vec<_>>(), vec![0, 1, 2]);
    }

    #[test]
    fn min_value_hash_stays_in_range() {
        let key = [-106i8, 0, -10, 0, 19, -2].map(|b| b as u8);
        assert_eq!(salting_byte(&key, 0, 6, 3), Ok(2));
    }

    #[test]
    fn split_points() {
        assert_eq!(salt_byte_split_points(1), Ok(vec![]));
        assert_eq!(salt_byte_split_points(3), Ok(vec![vec![1], vec![2]]));
        let all = salt_byte_split_points(256).unwrap_or_default();
        assert_eq!(all.len(), 255);
        assert_eq!(all.last(), Some(&vec![0xff]));
        for bad in [0, -1, i32::MIN] {
            assert_eq!(
                salt_byte_split_points(bad).map_err(|e| e.kind),
                Err(ErrorKind::NegativeArraySize)
            );
        }
        // Past 256 as Java computes it: `(byte) i` wraps.
        let wrapped = salt_byte_split_points(257).unwrap_or_default();
        assert_eq!(wrapped.len(), 256);
        assert_eq!(wrapped.first(), Some(&vec![0x01]));
        assert_eq!(wrapped.get(254), Some(&vec![0xff]));
        assert_eq!(wrapped.last(), Some(&vec![0x00]));
        let more = salt_byte_split_points(600).unwrap_or_default();
        assert_eq!(more.len(), 599);
        assert_eq!(more.get(255..258), Some(&[vec![0], vec![1], vec![2]][..]));
        assert_eq!(more.last(), Some(&vec![599u32 as u8]));
        // At the cap and past it: a limit, never an allocation of 2^31 keys.
        let cap = i32::try_from(crate::hbase::split::MAX_SPLIT_KEYS).unwrap_or(i32::MAX);
        assert_eq!(
            salt_byte_split_points(cap + 1).map(|v| v.len()),
            Ok(cap as usize)
        );
        for bad in [cap + 2, i32::MAX] {
            assert_eq!(
                salt_byte_split_points(bad).map_err(|e| e.kind),
                Err(ErrorKind::Limit)
            );
        }
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        let k = [1u8, 2, 3];
        assert_eq!(
            salting_byte(&k, 0, 3, 0).map_err(|e| e.kind),
            Err(ErrorKind::Arithmetic)
        );
        assert_eq!(
            salting_byte(&k, -1, 3, 4).map_err(|e| e.kind),
            Err(ErrorKind::IndexOutOfBounds)
        );
        assert_eq!(
            salting_byte(&k, 2, 5, 4).map_err(|e| e.kind),
            Err(ErrorKind::IndexOutOfBounds)
        );
        // offset + length wraps negative: Java's loop does not run, the hash stays 1.
        assert_eq!(salting_byte(&k, i32::MAX, 5, 4), Ok(1));
        assert_eq!(salting_byte(&k, 0, 3, i32::MIN).map(|_| ()), Ok(()));
        assert_eq!(
            salted_key(&k, 0, -1, 4).map_err(|e| e.kind),
            Err(ErrorKind::NegativeArraySize)
        );
        assert_eq!(
            salted_key(&k, 0, 0, 4).map_err(|e| e.kind),
            Err(ErrorKind::IndexOutOfBounds)
        );
        assert_eq!(
            salted_key(&k, 1, 5, 4).map_err(|e| e.kind),
            Err(ErrorKind::IndexOutOfBounds)
        );
        assert_eq!(
            salted_key(&k, i32::MAX, i32::MAX, 4).map_err(|e| e.kind),
            Err(ErrorKind::IndexOutOfBounds)
        );
        assert_eq!(salted_key(&[0, 5, 6], 0, 3, 1), Ok(vec![0, 5, 6]));
        assert!(validate_salt_buckets(257).is_err());
        assert!(validate_salt_buckets(0).is_ok());
    }
}
