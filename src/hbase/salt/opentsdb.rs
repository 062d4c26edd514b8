//! OpenTSDB 2.2+ salting (`RowKey`, `Const`): row keys are
//! `[salt: W bytes][metric UID][base time: 4 bytes][tagk UID tagv UID]*` and the salt is
//! `|Arrays.hashCode(metric || tags) % buckets|` written big-endian into the W salt bytes.
//!
//! Upstream keeps the salt settings in mutable globals (`Const.SALT_WIDTH()`,
//! `Const.SALT_BUCKETS()`, `TSDB.metrics_width()`); here they are a [`SaltConfig`] passed in.
//! Arithmetic uses Java `int` semantics so errors come out as the same exception kinds.

use super::java_bytes_hash;
use crate::error::{Error, ErrorKind, Result};

/// Bytes of the base-time field (`Const.TIMESTAMP_BYTES`).
pub const TIMESTAMP_BYTES: i32 = 4;
/// Row span in seconds (`Const.MAX_TIMESPAN`): rows start on the hour.
pub const MAX_TIMESPAN: i64 = 3600;
/// Largest salt width `Const.setSaltWidth` accepts.
pub const MAX_SALT_WIDTH: i32 = 8;
/// Most buckets [`all_salt_prefixes`] will enumerate (a guard against absurd allocations;
/// OpenTSDB itself opens one scanner per bucket, so real deployments use far fewer).
pub const MAX_ENUMERATED_BUCKETS: i32 = 1 << 16;

/// The salt settings in force: `tsd.storage.salt.width`, `tsd.storage.salt.buckets` and
/// `tsd.storage.uid.width.metric`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SaltConfig {
    /// Salt width W in bytes; 0 disables salting (upstream range 0..=8).
    pub width: i32,
    /// Number of salt buckets (upstream: at least 1).
    pub buckets: i32,
    /// Width of the metric UID in bytes (default 3).
    pub metric_width: i32,
}

impl Default for SaltConfig {
    /// OpenTSDB's defaults: salting off (W = 0), 20 buckets, 3-byte metric UIDs.
    fn default() -> Self {
        SaltConfig {
            width: 0,
            buckets: 20,
            metric_width: 3,
        }
    }
}

impl SaltConfig {
    /// A checked config: width 0..=8, buckets >= 1, metric width 1..=8 (the UID width range
    /// OpenTSDB accepts). The functions below also take unchecked configs and then behave
    /// like the Java code would with such globals.
    pub fn new(width: i32, buckets: i32, metric_width: i32) -> Result<Self> {
        validate_salt_width(width)?;
        validate_salt_buckets(buckets)?;
        if !(1..=8).contains(&metric_width) {
            return Err(Error::arg(
                "metric_width",
                format!("metric UID width must be 1..=8, got {metric_width}"),
            ));
        }
        Ok(SaltConfig {
            width,
            buckets,
            metric_width,
        })
    }
}

/// `Const.setSaltWidth` validation: the width must be 0..=8.
pub fn validate_salt_width(width: i32) -> Result<()> {
    if (0..=MAX_SALT_WIDTH).contains(&width) {
        Ok(())
    } else {
        Err(Error::arg(
            "width",
            format!("salt width must be between 0 and 8, got {width}"),
        ))
    }
}

/// `Const.setSaltBuckets` validation: at least one bucket.
pub fn validate_salt_buckets(buckets: i32) -> Result<()> {
    if buckets >= 1 {
        Ok(())
    } else {
        Err(Error::arg(
            "buckets",
            format!("salt buckets must be greater than 0, got {buckets}"),
        ))
    }
}

/// `RowKey.getSaltBytes(bucket)` with salt width `width`: byte `W-1-j` is the low 8 bits of
/// `bucket >>> (8*j)`.
///
/// Java masks shift distances to 5 bits, so for W = 5..8 the 4-byte pattern repeats
/// (`W=8, bucket=5` -> `0000000500000005`); copied on purpose (spec §13.9). A negative
/// width is `NegativeArraySize` as in Java; widths above 8 are refused (`IllegalArgument`)
/// because `Const` can never hold one.
pub fn salt_bytes(bucket: i32, width: i32) -> Result<Vec<u8>> {
    if width < 0 {
        return Err(Error::new(
            ErrorKind::NegativeArraySize,
            format!("salt width is negative: {width}"),
        )
        .at_path("width"));
    }
    if width > MAX_SALT_WIDTH {
        return Err(Error::arg(
            "width",
            format!("salt width must be between 0 and 8, got {width}"),
        ));
    }
    let w = width as u32;
    Ok((0..w)
        .map(|pos| {
            let j = w - 1 - pos;
            bucket.wrapping_shr(8 * j) as u8
        })
        .collect())
}

/// Every salt prefix `getSaltBytes(0) … getSaltBytes(buckets-1)`: what OpenTSDB's scanner
/// fans a query out over. Empty when salting is off (W = 0).
pub fn all_salt_prefixes(cfg: &SaltConfig) -> Result<Vec<Vec<u8>>> {
    if cfg.width == 0 {
        return Ok(Vec::new());
    }
    validate_salt_buckets(cfg.buckets)?;
    if cfg.buckets > MAX_ENUMERATED_BUCKETS {
        return Err(Error::limit(
            "buckets",
            format!(
                "refusing to enumerate {} salt buckets (limit {MAX_ENUMERATED_BUCKETS})",
                cfg.buckets
            ),
        ));
    }
    (0..cfg.buckets).map(|b| salt_bytes(b, cfg.width)).collect()
}

/// A Java array length: slices longer than `i32::MAX` cannot exist in Java.
fn java_len(len: usize, what: &str) -> Result<i32> {
    i32::try_from(len).map_err(|_| {
        Error::arg(
            what,
            format!("{len} bytes is longer than a Java array can be"),
        )
    })
}

/// The bounds checks of `System.arraycopy(src, src_pos, dst, dst_pos, n)` (overflow-safe).
fn arraycopy_check(
    src_len: i32,
    src_pos: i32,
    dst_len: i32,
    dst_pos: i32,
    n: i32,
    what: &str,
) -> Result<()> {
    let (sp, dp, n) = (i64::from(src_pos), i64::from(dst_pos), i64::from(n));
    if sp < 0 || dp < 0 || n < 0 || sp + n > i64::from(src_len) || dp + n > i64::from(dst_len) {
        return Err(Error::new(
            ErrorKind::IndexOutOfBounds,
            format!(
                "copying {n} bytes from {src_pos} of {src_len} to {dst_pos} of {dst_len} is out of bounds"
            ),
        )
        .at_path(what));
    }
    Ok(())
}

/// `lo..lo+n` of `b` as a slice (after [`arraycopy_check`] has passed).
fn slice(b: &[u8], lo: i32, n: i32) -> &[u8] {
    let lo = usize::try_from(lo).unwrap_or(0);
    let n = usize::try_from(n).unwrap_or(0);
    b.get(lo..lo.saturating_add(n)).unwrap_or(&[])
}

/// The salt bucket `prefixKeyWithSalt` would write for a complete row key, or `None` when it
/// leaves the row alone (salting off, row shorter than `W + metricWidth`, or an all-zero
/// metric, i.e. the global annotation row).
///
/// Rows at least `W + metricWidth` long but shorter than `W + metricWidth + 4` fail like
/// the Java code: `NegativeArraySize` or `IndexOutOfBounds` (spec §10). `buckets == 0` is
/// `Arithmetic`. A negative remainder (only with a negative bucket count) is negated.
pub fn salt_bucket(row_key: &[u8], cfg: &SaltConfig) -> Result<Option<i32>> {
    let w = cfg.width;
    if w <= 0 {
        return Ok(None);
    }
    let len = java_len(row_key.len(), "row_key")?;
    let mw = cfg.metric_width;
    let head = w.wrapping_add(mw);
    if len < head {
        return Ok(None);
    }
    if head < 0 {
        // new byte[SALT_WIDTH + metrics_width] for the all-zero comparison.
        return Err(Error::new(
            ErrorKind::NegativeArraySize,
            format!("salt width + metric width overflows: {head}"),
        )
        .at_path("metric_width"));
    }
    // Bytes.memcmp over the metric bytes against zeros (an empty range compares equal).
    if slice(row_key, w, mw.max(0)).iter().all(|&b| b == 0) {
        return Ok(None);
    }
    let tags_start = head.wrapping_add(TIMESTAMP_BYTES);
    let base_len = len.wrapping_sub(w).wrapping_sub(TIMESTAMP_BYTES);
    if base_len < 0 {
        return Err(Error::new(
            ErrorKind::NegativeArraySize,
            format!("row key of {len} bytes is too short for a {w}-byte salt and a timestamp"),
        )
        .at_path("row_key"));
    }
    arraycopy_check(len, w, base_len, 0, mw, "row_key")?;
    let tags_len = len.wrapping_sub(tags_start);
    arraycopy_check(len, tags_start, base_len, mw, tags_len, "row_key")?;
    let mut base = Vec::with_capacity(usize::try_from(base_len).unwrap_or(0));
    base.extend_from_slice(slice(row_key, w, mw));
    base.extend_from_slice(slice(row_key, tags_start, tags_len));
    if cfg.buckets == 0 {
        return Err(Error::new(
            ErrorKind::Arithmetic,
            "salt bucket count is 0 (division by zero)",
        )
        .at_path("buckets"));
    }
    let mut modulo = java_bytes_hash(&base).wrapping_rem(cfg.buckets);
    if modulo < 0 {
        modulo = modulo.wrapping_mul(-1);
    }
    Ok(Some(modulo))
}

/// `RowKey.prefixKeyWithSalt(row)`: compute the salt of a complete row key and write it into
/// its first W bytes, in place (see [`salt_bucket`] for when the row is left alone and how
/// short rows fail). On error the row is unchanged.
pub fn prefix_key_with_salt(row_key: &mut [u8], cfg: &SaltConfig) -> Result<()> {
    let Some(bucket) = salt_bucket(row_key, cfg)? else {
        return Ok(());
    };
    let salt = salt_bytes(bucket, cfg.width)?;
    match row_key.get_mut(..salt.len()) {
        Some(dst) => dst.copy_from_slice(&salt),
        None => {
            return Err(Error::new(
                ErrorKind::IndexOutOfBounds,
                "row key is shorter than the salt",
            )
            .at_path("row_key"))
        }
    }
    Ok(())
}

pub use crate::hbase::opentsdb::internal::base_time;

/// `RowKey.rowKeyFromTSUID(tsuid, timestamp)` followed by `prefixKeyWithSalt`: the salted
/// row key holding `timestamp` for the time series `tsuid` (metric UID then tag UID pairs).
///
/// A TSUID shorter than the metric width is `IllegalArgument` ("missing the metric").
pub fn row_key_from_tsuid(tsuid: &[u8], timestamp: i64, cfg: &SaltConfig) -> Result<Vec<u8>> {
    let tlen = java_len(tsuid.len(), "tsuid")?;
    let (w, mw) = (cfg.width, cfg.metric_width);
    if tlen < mw {
        return Err(Error::arg(
            "tsuid",
            format!("TSUID of {tlen} bytes appears to be missing the {mw}-byte metric"),
        ));
    }
    if w > MAX_SALT_WIDTH {
        return Err(Error::arg(
            "width",
            format!("salt width must be between 0 and 8, got {w}"),
        ));
    }
    let row_len = w.wrapping_add(tlen).wrapping_add(TIMESTAMP_BYTES);
    let Ok(row_len_usize) = usize::try_from(row_len) else {
        return Err(Error::new(
            ErrorKind::NegativeArraySize,
            format!("row key length is negative: {row_len}"),
        )
        .at_path("width"));
    };
    // Check every copy before allocating (the Java copies fail before anything is returned).
    let ts_at = w.wrapping_add(mw);
    arraycopy_check(tlen, 0, row_len, w, mw, "tsuid")?;
    arraycopy_check(TIMESTAMP_BYTES, 0, row_len, ts_at, TIMESTAMP_BYTES, "tsuid")?;
    let tags_at = ts_at.wrapping_add(TIMESTAMP_BYTES);
    let tags_len = tlen.wrapping_sub(mw);
    arraycopy_check(tlen, mw, row_len, tags_at, tags_len, "tsuid")?;

    let mut row = vec![0u8; row_len_usize];
    let stamp = (base_time(timestamp) as i32).to_be_bytes();
    for (at, src) in [
        (w, slice(tsuid, 0, mw)),
        (ts_at, &stamp[..]),
        (tags_at, slice(tsuid, mw, tags_len)),
    ] {
        let at = usize::try_from(at).unwrap_or(0);
        if let Some(dst) = row.get_mut(at..at.saturating_add(src.len())) {
            dst.copy_from_slice(src);
        }
    }
    prefix_key_with_salt(&mut row, cfg)?;
    Ok(row)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len() / 2)
            .filter_map(|i| s.get(2 * i..2 * i + 2))
            .filter_map(|p| u8::from_str_radix(p, 16).ok())
            .collect()
    }

    fn salted(row: &str, cfg: &SaltConfig) -> Vec<u8> {
        let mut r = hex(row);
        assert_eq!(prefix_key_with_salt(&mut r, cfg), Ok(()));
        r
    }

    #[test]
    fn test_row_key_salts() {
        // TestRowKey: W=1, 20 buckets, metric width 3, rows 00 000001 50e22700 + tags.
        let c = SaltConfig {
            width: 1,
            buckets: 20,
            metric_width: 3,
        };
        let first = |row: &str| salted(row, &c).first().copied();
        assert_eq!(first("0000000150e22700000001000001"), Some(0x08));
        assert_eq!(
            first("0000000150e22700000001000001000001000001"),
            Some(0x10)
        );
        assert_eq!(
            first("0000000150e22700000001000001000001000001000001000001"),
            Some(0x00)
        );
        assert_eq!(first("0000000150e22700000001000002"), Some(0x09));
        assert_eq!(
            first("0000000150e22700000001000001000002000003"),
            Some(0x03)
        );
        assert_eq!(first("0000000150e22700"), Some(0x0c));
        assert_eq!(first("0000000250e22700000001000001"), Some(0x09));
        assert_eq!(first("0000000350e22700000001000001"), Some(0x06));
        assert_eq!(first("000b142050e22700000001000001"), Some(0x06));
        for n in 1..=8 {
            let zeros = vec![0u8; n];
            let mut r = zeros.clone();
            assert_eq!(prefix_key_with_salt(&mut r, &c), Ok(()));
            assert_eq!(r, zeros);
        }
        assert_eq!(
            salted("0000000050e22700000001000001", &c),
            hex("0000000050e22700000001000001")
        );
        let off = SaltConfig { width: 0, ..c };
        assert_eq!(
            salted("0000000150e22700000001000001", &off),
            hex("0000000150e22700000001000001")
        );
    }

    #[test]
    fn test_row_key_from_tsuid() {
        let c = SaltConfig {
            width: 1,
            buckets: 2,
            metric_width: 3,
        };
        let tsuid = hex("000001000001000002");
        assert_eq!(
            row_key_from_tsuid(&tsuid, 1356998400, &c),
            Ok(hex("0100000150e22700000001000002"))
        );
        assert_eq!(
            row_key_from_tsuid(&tsuid, 0, &c),
            Ok(hex("0100000100000000000001000002"))
        );
        assert_eq!(
            row_key_from_tsuid(&tsuid, -1356998400, &c),
            Ok(hex("01000001ffeb5880000001000002"))
        );
        let c4 = SaltConfig { width: 4, ..c };
        assert_eq!(
            row_key_from_tsuid(&tsuid, 1356998400, &c4),
            Ok(hex("0000000100000150e22700000001000002"))
        );
        assert_eq!(
            row_key_from_tsuid(&[0, 1], 0, &c).map_err(|e| e.kind),
            Err(ErrorKind::IllegalArgument)
        );
    }

    #[test]
    fn test_salt_bytes() {
        assert_eq!(salt_bytes(2, 0), Ok(vec![]));
        assert_eq!(salt_bytes(2, 1), Ok(vec![2]));
        assert_eq!(salt_bytes(20, 1), Ok(vec![0x14]));
        assert_eq!(salt_bytes(20, 2), Ok(vec![0, 0x14]));
        assert_eq!(salt_bytes(20, 4), Ok(vec![0, 0, 0, 0x14]));
        assert_eq!(salt_bytes(-2, 1), Ok(vec![0xfe]));
        assert_eq!(salt_bytes(5, 8), Ok(hex("0000000500000005")));
        assert_eq!(
            salt_bytes(2, -1).map_err(|e| e.kind),
            Err(ErrorKind::NegativeArraySize)
        );
        assert_eq!(
            salt_bytes(2, i32::MAX).map_err(|e| e.kind),
            Err(ErrorKind::IllegalArgument)
        );
    }

    #[test]
    fn bad_configs_do_not_panic() {
        assert!(validate_salt_width(9).is_err() && validate_salt_width(-1).is_err());
        assert!(validate_salt_width(0).is_ok() && validate_salt_width(8).is_ok());
        assert!(validate_salt_buckets(0).is_err() && validate_salt_buckets(1).is_ok());
        assert!(SaltConfig::new(1, 20, 0).is_err());
        let row = hex("0000000150e22700000001000001");
        for (w, b, m) in [
            (1, 0, 3),
            (1, -7, 3),
            (8, 20, i32::MAX),
            (i32::MAX, 20, 3),
            (1, 20, i32::MIN),
            (1, i32::MIN, 3),
            (3, 20, 20),
        ] {
            let cfg = SaltConfig {
                width: w,
                buckets: b,
                metric_width: m,
            };
            let mut r = row.clone();
            let _ = prefix_key_with_salt(&mut r, &cfg);
            let _ = row_key_from_tsuid(&row, i64::MIN, &cfg);
            let _ = all_salt_prefixes(&cfg);
        }
        let zero = SaltConfig {
            width: 1,
            buckets: 0,
            metric_width: 3,
        };
        let mut r = row.clone();
        assert_eq!(
            prefix_key_with_salt(&mut r, &zero).map_err(|e| e.kind),
            Err(ErrorKind::Arithmetic)
        );
        let c = SaltConfig {
            width: 1,
            buckets: 20,
            metric_width: 3,
        };
        let mut short = hex("93383935");
        assert_eq!(
            prefix_key_with_salt(&mut short, &c).map_err(|e| e.kind),
            Err(ErrorKind::NegativeArraySize)
        );
        let c5 = SaltConfig {
            width: 1,
            buckets: 5,
            metric_width: 3,
        };
        let mut short = hex("0001ffa0e5cb");
        assert_eq!(
            prefix_key_with_salt(&mut short, &c5).map_err(|e| e.kind),
            Err(ErrorKind::IndexOutOfBounds)
        );
        assert_eq!(
            all_salt_prefixes(&SaltConfig {
                width: 2,
                buckets: 3,
                metric_width: 3
            }),
            Ok(vec![vec![0, 0], vec![0, 1], vec![0, 2]])
        );
        assert!(all_salt_prefixes(&SaltConfig {
            width: 1,
            buckets: i32::MAX,
            metric_width: 3
        })
        .is_err());
    }
}
