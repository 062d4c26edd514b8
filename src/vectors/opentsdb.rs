//! Vector glue for the `opentsdb.*` family (files `opentsdb.*.jsonl`, recorded from
//! OpenTSDB 2.5's `Internal`, `RowKey` and `TSDB.addPoint`; see the pending folder's README).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::{from_hex, hex_value, long_value, outcome, Args, Dispatched, Outcome};
use crate::hbase::opentsdb::{
    add_point, internal as i, row_key, DataPoint, PointValue, Put, TsdbConfig, Uids,
};

/// `None`: not one of this family's functions.
pub(super) fn dispatch(func: &str, args: &Args) -> Dispatched {
    let name = func.strip_prefix("opentsdb.")?;
    let r = match name {
        "Internal.baseTime" => args
            .long("timestamp")
            .map(|t| Outcome::Value(long_value(i::base_time(t)))),
        "Internal.buildQualifier" => (|| {
            let (t, flags) = (args.long("timestamp")?, args.int("flags")?);
            // The recording casts the int to a Java short.
            Ok(Outcome::Value(hex_value(&i::build_qualifier(
                t,
                flags as i16,
            ))))
        })(),
        "Internal.vleEncodeLong" => args
            .long("value")
            .map(|v| Outcome::Value(hex_value(&i::vle_encode_long(v)))),
        "Internal.getMaxUnsignedValueOnBytes" => args
            .i32("width")
            .map(|w| outcome(i::max_unsigned_value_on_bytes(w), long_value)),
        "Internal.getOffsetFromQualifier" => reader(args, |q, o| {
            outcome(i::offset_from_qualifier(q, o), Value::from)
        }),
        "Internal.getValueLengthFromQualifier" => reader(args, |q, o| {
            outcome(i::value_length_from_qualifier(q, o), Value::from)
        }),
        "Internal.getFlagsFromQualifier" => reader(args, |q, o| {
            outcome(i::flags_from_qualifier(q, o), Value::from)
        }),
        "Internal.getQualifierLength" => {
            reader(args, |q, o| outcome(i::qualifier_length(q, o), Value::from))
        }
        "Internal.isFloat" => reader(args, |q, o| outcome(i::is_float(q, o), Value::Bool)),
        "Internal.inMilliseconds" => {
            reader(args, |q, o| outcome(i::in_milliseconds(q, o), Value::Bool))
        }
        "Internal.getTimestampFromQualifier" => (|| {
            let base = args.long("baseTime")?;
            reader(args, |q, o| {
                outcome(i::timestamp_from_qualifier(q, base, o), long_value)
            })
        })(),
        "RowKey.getSaltBytes" => (|| {
            let (b, w) = (args.i32("bucket")?, args.i32("saltWidth")?);
            Ok(outcome(row_key::get_salt_bytes(b, w), |v| hex_value(&v)))
        })(),
        "RowKey.prefixKeyWithSalt" => (|| {
            let cfg = config(args)?;
            let mut row = args.bytes("row")?;
            Ok(outcome(
                cfg.validate()
                    .and_then(|()| row_key::prefix_key_with_salt(&mut row, &cfg.salt())),
                |()| hex_value(&row),
            ))
        })(),
        "RowKey.rowKeyFromTSUID" => (|| {
            let cfg = config(args)?;
            let (tsuid, ts) = (args.bytes("tsuid")?, args.long("timestamp")?);
            Ok(outcome(
                cfg.validate()
                    .and_then(|()| row_key::row_key_from_tsuid(&tsuid, ts, &cfg.salt())),
                |v| hex_value(&v),
            ))
        })(),
        "TSDB.addPoint" => point(args),
        _ => return None,
    };
    Some(r)
}

/// A qualifier reader: `(qualifier, offset)` arguments.
fn reader(args: &Args, f: impl FnOnce(&[u8], i32) -> Outcome) -> Result<Outcome, String> {
    let (q, o) = (args.bytes("qualifier")?, args.i32("offset")?);
    Ok(f(&q, o))
}

/// The `config` object: a TSD's storage settings.
fn config(args: &Args) -> Result<TsdbConfig, String> {
    let c = args
        .raw("config")
        .as_object()
        .ok_or("arg `config`: expected an object")?;
    let c = Args(c);
    Ok(TsdbConfig {
        salt_width: c.i32("saltWidth")?,
        salt_buckets: c.i32("saltBuckets")?,
        metric_width: c.i32("metricWidth")?,
        tagk_width: c.i32("tagkWidth")?,
        tagv_width: c.i32("tagvWidth")?,
        max_tags: c.i32("maxTags")?,
    })
}

/// A `{name: value}` object of strings, in its order.
fn string_map(v: &Value, what: &str) -> Result<Vec<(String, String)>, String> {
    let m: &Map<String, Value> = v
        .as_object()
        .ok_or_else(|| format!("arg `{what}`: expected an object"))?;
    m.iter()
        .map(|(k, v)| {
            v.as_str()
                .map(|s| (k.clone(), s.to_string()))
                .ok_or_else(|| format!("arg `{what}.{k}`: expected a string"))
        })
        .collect()
}

/// The `uids` object: `{metric|tagk|tagv: {name: hex}}`.
fn uids(args: &Args) -> Result<Uids, String> {
    let table = |kind: &str| -> Result<BTreeMap<String, Vec<u8>>, String> {
        let what = format!("uids.{kind}");
        string_map(args.raw("uids").get(kind).unwrap_or(&Value::Null), &what)?
            .into_iter()
            .map(|(k, h)| {
                from_hex(&h)
                    .map(|b| (k.clone(), b))
                    .ok_or_else(|| format!("arg `{what}.{k}`: bad hex {h:?}"))
            })
            .collect()
    };
    Ok(Uids {
        metric: table("metric")?,
        tagk: table("tagk")?,
        tagv: table("tagv")?,
    })
}

/// The point's value by `valueType`: a decimal long, or raw float / double bits in hex.
pub(crate) fn point_value(args: &Args) -> Result<PointValue, String> {
    match args.text("valueType")?.as_str() {
        "long" => args.long("value").map(PointValue::Long),
        "float" => {
            let bits = args.bits("value")?;
            u32::try_from(bits)
                .map(PointValue::Float)
                .map_err(|_| format!("arg `value`: {bits:x} is not 32 bits"))
        }
        "double" => args.bits("value").map(PointValue::Double),
        t => Err(format!("arg `valueType`: unknown {t:?}")),
    }
}

fn point(args: &Args) -> Result<Outcome, String> {
    let cfg = config(args)?;
    let uids = uids(args)?;
    let tags = string_map(args.raw("tags"), "tags")?;
    let metric = args.text("metric")?;
    let p = DataPoint {
        metric: &metric,
        timestamp: args.long("timestamp")?,
        value: point_value(args)?,
        tags: &tags,
    };
    Ok(outcome(add_point(&cfg, &uids, &p), |put: Put| {
        let mut m = Map::new();
        m.insert("row".into(), hex_value(&put.row));
        m.insert("qualifier".into(), hex_value(&put.qualifier));
        m.insert("value".into(), hex_value(&put.value));
        Value::Object(m)
    }))
}
