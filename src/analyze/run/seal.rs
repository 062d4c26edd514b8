//! A checksum at the end of the bytes a partial analysis travels as (blocks' partials for
//! `combineAnalyses`, rows' partials for Python and Spark): a partial changed on its way (one
//! byte flipped, cut short) is refused as such, where it could still decode into other counts
//! and merge into another report without a word.

use crate::error::{Error, ErrorKind, Result};

/// Bytes of the checksum (xxh3-64 of what comes before, little-endian).
const SEAL: usize = 8;

/// `bytes` with their checksum appended.
pub(super) fn seal(mut bytes: Vec<u8>) -> Vec<u8> {
    let sum = xxhash_rust::xxh3::xxh3_64(&bytes);
    bytes.extend_from_slice(&sum.to_le_bytes());
    bytes
}

/// The bytes of partial `i` before their checksum, once it matches.
pub(super) fn unseal(i: usize, bytes: &[u8]) -> Result<&[u8]> {
    let bad = || {
        Error::new(
            ErrorKind::Invalid,
            format!("partial {i}: its checksum does not match its bytes: it was changed or cut on its way"),
        )
    };
    let at = bytes.len().checked_sub(SEAL).ok_or_else(bad)?;
    let (body, sum) = bytes.split_at(at);
    let sum = <[u8; SEAL]>::try_from(sum).map_err(|_| bad())?;
    if u64::from_le_bytes(sum) != xxhash_rust::xxh3::xxh3_64(body) {
        return Err(bad());
    }
    Ok(body)
}
