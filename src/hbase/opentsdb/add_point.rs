//! `TSDB.addPoint`: the row, qualifier and value OpenTSDB writes for one data point.
//!
//! The steps are upstream's, in its order: the value's bytes and flags (`addPoint(long)`,
//! `(float)`, `(double)`), `checkTimestampAndTags`, `IncomingDataPoints.checkMetricAndTags`
//! (`Tags.validateString`, the tag count), `IncomingDataPoints.rowKeyTemplate` (metric UID,
//! room for the base time, `tagk UID + tagv UID` pairs sorted with `Bytes.MEMCMP`, which
//! orders them by tag-key UID), `Internal.buildQualifier`, then `storeIntoDB`'s base time
//! (`Bytes.setInt`) and `RowKey.prefixKeyWithSalt`. UIDs are inputs ([`Uids`]), as if read
//! from the UID table; a name without one is `NoSuchUniqueName` ([`ErrorKind::Invalid`]).

use std::collections::BTreeMap;

use super::internal::{base_time, build_qualifier, is_ms, vle_encode_long, FLAG_FLOAT};
use super::row_key::{prefix_key_with_salt, SaltConfig, TIMESTAMP_BYTES};
use crate::error::{Error, ErrorKind, Result};

/// The storage settings a TSD applies at start-up (`tsd.storage.salt.width`,
/// `tsd.storage.salt.buckets`, `tsd.storage.uid.width.metric|tagk|tagv`,
/// `tsd.storage.max_tags`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TsdbConfig {
    /// Salt width in bytes, 0 (no salt) to 8.
    pub salt_width: i32,
    /// Salt buckets, at least 1.
    pub salt_buckets: i32,
    /// Metric UID width, 1 to 8 (default 3).
    pub metric_width: i32,
    /// Tag-key UID width, 1 to 8 (default 3).
    pub tagk_width: i32,
    /// Tag-value UID width, 1 to 8 (default 3).
    pub tagv_width: i32,
    /// Most tags per data point (default 8).
    pub max_tags: i32,
}

impl Default for TsdbConfig {
    /// `new Config(false)`: no salt (20 buckets if enabled), 3-byte UIDs, 8 tags.
    fn default() -> Self {
        TsdbConfig {
            salt_width: 0,
            salt_buckets: 20,
            metric_width: 3,
            tagk_width: 3,
            tagv_width: 3,
            max_tags: 8,
        }
    }
}

impl TsdbConfig {
    /// The checks the TSDB constructor makes (`Const.setSaltWidth`, `Const.setSaltBuckets`,
    /// `new UniqueId(..., width)`): `IllegalArgument` for a setting a TSD refuses to start with.
    pub fn validate(&self) -> Result<()> {
        crate::hbase::salt::opentsdb::validate_salt_width(self.salt_width)?;
        crate::hbase::salt::opentsdb::validate_salt_buckets(self.salt_buckets)?;
        for (name, w) in [
            ("metricWidth", self.metric_width),
            ("tagkWidth", self.tagk_width),
            ("tagvWidth", self.tagv_width),
        ] {
            if !(1..=8).contains(&w) {
                return Err(Error::arg(name, format!("Invalid width: {w}")));
            }
        }
        Ok(())
    }

    /// The salt settings `RowKey` reads.
    pub fn salt(&self) -> SaltConfig {
        SaltConfig {
            width: self.salt_width,
            buckets: self.salt_buckets,
            metric_width: self.metric_width,
        }
    }
}

/// The UID tables: name -> UID bytes for metrics, tag keys and tag values.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Uids {
    /// Metric names.
    pub metric: BTreeMap<String, Vec<u8>>,
    /// Tag keys.
    pub tagk: BTreeMap<String, Vec<u8>>,
    /// Tag values (one table for every tag key, as upstream).
    pub tagv: BTreeMap<String, Vec<u8>>,
}

/// `UniqueId.getId(name)` from a seeded cache: the UID, or `NoSuchUniqueName`.
fn get_id<'a>(table: &'a BTreeMap<String, Vec<u8>>, kind: &str, name: &str) -> Result<&'a [u8]> {
    table.get(name).map(Vec::as_slice).ok_or_else(|| {
        Error::new(
            ErrorKind::Invalid,
            format!("No such name for '{kind}': '{name}'"),
        )
        .at_path(format!("uids/{kind}"))
    })
}

/// A data point's value, as the `addPoint` overload it goes through.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PointValue {
    /// `addPoint(..., long, ...)`: 1, 2, 4 or 8 bytes, flags `length - 1`.
    Long(i64),
    /// `addPoint(..., float, ...)`, given as raw IEEE-754 bits: 4 bytes, flags `0xB`.
    Float(u32),
    /// `addPoint(..., double, ...)`, given as raw IEEE-754 bits: 8 bytes, flags `0xF`.
    Double(u64),
}

impl PointValue {
    /// The stored bytes and the qualifier flags; `IllegalArgument` for NaN or an infinity.
    pub fn encode(self) -> Result<(Vec<u8>, i16)> {
        let nan = || Error::arg("value", "value is NaN or Infinite");
        match self {
            PointValue::Long(v) => {
                let b = vle_encode_long(v);
                let flags = b.len() as i16 - 1;
                Ok((b, flags))
            }
            PointValue::Float(bits) => {
                if !f32::from_bits(bits).is_finite() {
                    return Err(nan());
                }
                Ok((bits.to_be_bytes().to_vec(), FLAG_FLOAT | 0x3))
            }
            PointValue::Double(bits) => {
                if !f64::from_bits(bits).is_finite() {
                    return Err(nan());
                }
                Ok((bits.to_be_bytes().to_vec(), FLAG_FLOAT | 0x7))
            }
        }
    }
}

/// One data point: metric, timestamp (seconds, or milliseconds when any of the top 32 bits is
/// set), value and tags (`tag key -> tag value`).
#[derive(Debug, Clone, PartialEq)]
pub struct DataPoint<'a> {
    /// The metric name.
    pub metric: &'a str,
    /// Seconds or milliseconds since the epoch.
    pub timestamp: i64,
    /// The value.
    pub value: PointValue,
    /// The tags, in any order (distinct keys).
    pub tags: &'a [(String, String)],
}

/// What `storeIntoDB` puts: one cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Put {
    /// The row key: salt, metric UID, base time, sorted tag UID pairs.
    pub row: Vec<u8>,
    /// The column qualifier (`Internal.buildQualifier`).
    pub qualifier: Vec<u8>,
    /// The value bytes.
    pub value: Vec<u8>,
}

/// `TSDB.addPoint` with the UID tables seeded: the cell the point is written to, or the
/// exception upstream throws (see the module comment for the order of the checks).
pub fn add_point(cfg: &TsdbConfig, uids: &Uids, p: &DataPoint) -> Result<Put> {
    cfg.validate()?;
    let (value, flags) = p.value.encode()?;
    check_timestamp(p.timestamp)?;
    check_metric_and_tags(p.metric, p.tags, cfg.max_tags)?;
    let mut row = row_key_template(cfg, uids, p.metric, p.tags)?;
    let qualifier = build_qualifier(p.timestamp, flags);
    set_base_time(&mut row, cfg, base_time(p.timestamp))?;
    prefix_key_with_salt(&mut row, &cfg.salt())?;
    Ok(Put {
        row,
        qualifier,
        value,
    })
}

/// `checkTimestampAndTags`' time check: no negative timestamps, and milliseconds up to
/// 9999999999999 (year 2286).
fn check_timestamp(ts: i64) -> Result<()> {
    if ts < 0 || (is_ms(ts) && ts > 9_999_999_999_999) {
        let what = if ts < 0 { "negative " } else { "bad" };
        return Err(Error::arg("timestamp", format!("{what} timestamp={ts}")));
    }
    Ok(())
}

/// `IncomingDataPoints.checkMetricAndTags`: 1 to `max_tags` tags, and every name valid.
pub fn check_metric_and_tags(metric: &str, tags: &[(String, String)], max_tags: i32) -> Result<()> {
    if tags.is_empty() {
        return Err(Error::arg(
            "tags",
            format!("Need at least one tag (metric={metric})"),
        ));
    }
    if i64::try_from(tags.len()).unwrap_or(i64::MAX) > i64::from(max_tags) {
        return Err(Error::arg(
            "tags",
            format!("Too many tags: {} maximum allowed: {max_tags}", tags.len()),
        ));
    }
    validate_string("metric name", metric)?;
    for (k, v) in tags {
        validate_string(&format!("tag name with value [{v}]"), k)?;
        validate_string(&format!("tag value with key [{k}]"), v)?;
    }
    Ok(())
}

/// `Tags.validateString`: non-empty, and every UTF-16 unit an ASCII letter or digit, one of
/// `-_./`, or a letter by `Character.isLetter(char)` (so a letter outside the BMP, two
/// surrogates, is refused like upstream). `tsd.core.tag.allow_specialchars` is not modelled
/// (its default is empty).
pub fn validate_string(what: &str, s: &str) -> Result<()> {
    if s.is_empty() {
        return Err(Error::arg(what, format!("Invalid {what}: empty string")));
    }
    for u in s.encode_utf16() {
        let ok = matches!(u, 0x30..=0x39 | 0x41..=0x5A | 0x61..=0x7A)
            || matches!(u, 0x2D | 0x5F | 0x2E | 0x2F)
            || super::letters::is_letter(u);
        if !ok {
            let c = char::from_u32(u32::from(u)).unwrap_or('\u{FFFD}');
            return Err(Error::arg(
                what,
                format!("Invalid {what} (\"{s}\"): illegal character: {c}"),
            ));
        }
    }
    Ok(())
}

/// `System.arraycopy(src, 0, row, at, src.length)`, bounds checked like Java.
fn copy_in(row: &mut [u8], at: i64, src: &[u8]) -> Result<()> {
    let dst = usize::try_from(at)
        .ok()
        .and_then(|a| row.get_mut(a..a.checked_add(src.len())?));
    match dst {
        Some(d) => {
            d.copy_from_slice(src);
            Ok(())
        }
        None => Err(Error::new(
            ErrorKind::IndexOutOfBounds,
            format!(
                "arraycopy: last destination index {} out of bounds for byte[{}]",
                at.saturating_add(src.len() as i64),
                row.len()
            ),
        )
        .at_path("uids")),
    }
}

/// `IncomingDataPoints.rowKeyTemplate`: the row with the salt and base time left as zeros.
/// UIDs are copied at their own length (a cached UID is not checked against the width), the
/// metric's slot is `metric_width` bytes whatever its UID's length, as upstream.
fn row_key_template(
    cfg: &TsdbConfig,
    uids: &Uids,
    metric: &str,
    tags: &[(String, String)],
) -> Result<Vec<u8>> {
    let n = i64::try_from(tags.len()).unwrap_or(i64::MAX);
    let size = i64::from(cfg.salt_width)
        + i64::from(cfg.metric_width)
        + i64::from(TIMESTAMP_BYTES)
        + (i64::from(cfg.tagk_width) + i64::from(cfg.tagv_width)).saturating_mul(n);
    let size = usize::try_from(size).map_err(|_| {
        Error::new(ErrorKind::NegativeArraySize, format!("row size {size}")).at_path("config")
    })?;
    let mut row = vec![0u8; size];
    let metric_id = get_id(&uids.metric, "metrics", metric)?;
    let mut pos = i64::from(cfg.salt_width);
    copy_in(&mut row, pos, metric_id)?;
    pos += i64::from(cfg.metric_width) + i64::from(TIMESTAMP_BYTES);
    for tag in resolve_all(uids, tags)? {
        copy_in(&mut row, pos, &tag)?;
        pos += tag.len() as i64;
    }
    Ok(row)
}

/// `Tags.resolveAllInternal`: `tagk UID + tagv UID` per tag, sorted with `Bytes.MEMCMP`
/// (unsigned bytes, a prefix first: `Vec<u8>`'s order), i.e. by tag-key UID.
pub fn resolve_all(uids: &Uids, tags: &[(String, String)]) -> Result<Vec<Vec<u8>>> {
    let mut out = Vec::with_capacity(tags.len());
    for (k, v) in tags {
        let mut pair = get_id(&uids.tagk, "tagk", k)?.to_vec();
        pair.extend_from_slice(get_id(&uids.tagv, "tagv", v)?);
        out.push(pair);
    }
    out.sort();
    Ok(out)
}

/// `storeIntoDB`'s `Bytes.setInt(row, (int) base_time, metric_width + SALT_WIDTH)`.
fn set_base_time(row: &mut [u8], cfg: &TsdbConfig, base: i64) -> Result<()> {
    let at = i64::from(cfg.metric_width) + i64::from(cfg.salt_width);
    copy_in(row, at, &(base as i32).to_be_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uids() -> Uids {
        let t = |v: &[(&str, &[u8])]| {
            v.iter()
                .map(|(k, b)| ((*k).to_string(), b.to_vec()))
                .collect::<BTreeMap<_, _>>()
        };
        Uids {
            metric: t(&[("sys.cpu.user", &[0, 0, 1])]),
            tagk: t(&[("host", &[0, 0, 1]), ("cpu", &[0, 0, 2])]),
            tagv: t(&[("web01", &[0, 0, 1]), ("0", &[0, 0, 2])]),
        }
    }

    fn tags(v: &[(&str, &str)]) -> Vec<(String, String)> {
        v.iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect()
    }

    #[test]
    fn rows_sort_tags_by_tagk_uid() {
        let t = tags(&[("cpu", "0"), ("host", "web01")]);
        let p = DataPoint {
            metric: "sys.cpu.user",
            timestamp: 1356998410,
            value: PointValue::Long(32768),
            tags: &t,
        };
        let put = add_point(&TsdbConfig::default(), &uids(), &p);
        assert_eq!(
            put,
            Ok(Put {
                row: vec![0, 0, 1, 0x50, 0xe2, 0x27, 0, 0, 0, 1, 0, 0, 1, 0, 0, 2, 0, 0, 2],
                qualifier: vec![0x00, 0xa3],
                value: vec![0, 0, 0x80, 0],
            })
        );
    }

    #[test]
    fn bad_points_are_errors() {
        let t = tags(&[("host", "web 01")]);
        let mut p = DataPoint {
            metric: "sys.cpu.user",
            timestamp: 1356998410,
            value: PointValue::Long(1),
            tags: &t,
        };
        let kind =
            |p: &DataPoint| add_point(&TsdbConfig::default(), &uids(), p).map_err(|e| e.kind);
        assert_eq!(kind(&p), Err(ErrorKind::IllegalArgument));
        let t2 = tags(&[("host", "web02")]);
        p.tags = &t2;
        assert_eq!(kind(&p), Err(ErrorKind::Invalid));
        p.value = PointValue::Double(f64::NAN.to_bits());
        assert_eq!(kind(&p), Err(ErrorKind::IllegalArgument));
        assert!(validate_string("m", "温度").is_ok());
        assert!(validate_string("m", "\u{1D49C}").is_err());
    }
}
