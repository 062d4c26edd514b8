//! Vector glue for the `salt` family: Phoenix `SaltingUtil`, HBaseWD distributors and
//! OpenTSDB `RowKey` / `Const` (files `phoenix_salt.jsonl`, `hbasewd.jsonl`,
//! `opentsdb_salt.jsonl`).

use serde_json::Value;

use super::{hex_list, hex_value, outcome, Args, Dispatched, Outcome};
use crate::hbase::salt::hbasewd::{
    self, HashPrefixDistributor, Interval, OneBytePrefixDistributor,
};
use crate::hbase::salt::opentsdb::{self, SaltConfig};
use crate::hbase::salt::phoenix;

/// `None`: not one of this family's functions.
pub(super) fn dispatch(func: &str, args: &Args) -> Dispatched {
    let r = match func {
        "SaltingUtil.getSaltingByte" => phoenix_salting_byte(args),
        "SaltingUtil.getSalteByteSplitPoints" => args
            .i32("bucket_num")
            .map(|n| outcome(phoenix::salt_byte_split_points(n), |v| hex_list(&v))),
        "SaltingUtil.getSaltedKey" => phoenix_salted_key(args),
        "OneByteSimpleHash.getHashPrefix" => (|| {
            let (m, key) = (args.i32("max_buckets")?, args.bytes("key")?);
            Ok(outcome(
                hbasewd::one_byte_simple_hash_prefix(&key, m),
                |b| hex_value(&[b]),
            ))
        })(),
        f if f.starts_with("RowKeyDistributorByHashPrefix.") => hash_prefix(f, args),
        f if f.starts_with("RowKeyDistributorByOneBytePrefix.") => one_byte_prefix(f, args),
        "RowKey.getSaltBytes" => (|| {
            let (w, b) = (args.i32("salt_width")?, args.i32("bucket")?);
            Ok(outcome(opentsdb::salt_bytes(b, w), |v| hex_value(&v)))
        })(),
        "RowKey.prefixKeyWithSalt" => (|| {
            let cfg = config(args)?;
            let mut row = args.bytes("row_key")?;
            Ok(outcome(
                opentsdb::prefix_key_with_salt(&mut row, &cfg),
                |()| hex_value(&row),
            ))
        })(),
        "RowKey.rowKeyFromTSUID" => (|| {
            let cfg = config(args)?;
            let (tsuid, ts) = (args.bytes("tsuid")?, args.long("timestamp")?);
            Ok(outcome(
                opentsdb::row_key_from_tsuid(&tsuid, ts, &cfg),
                |v| hex_value(&v),
            ))
        })(),
        "Const.setSaltWidth" => args
            .i32("width")
            .map(|w| outcome(opentsdb::validate_salt_width(w), |()| Value::Null)),
        "Const.setSaltBuckets" => args
            .i32("buckets")
            .map(|b| outcome(opentsdb::validate_salt_buckets(b), |()| Value::Null)),
        _ => return None,
    };
    Some(r)
}

fn phoenix_salting_byte(args: &Args) -> Result<Outcome, String> {
    let value = args.bytes("value")?;
    let (off, len, n) = (
        args.i32("offset")?,
        args.i32("length")?,
        args.i32("bucket_num")?,
    );
    Ok(outcome(phoenix::salting_byte(&value, off, len, n), |b| {
        hex_value(&[b])
    }))
}

fn phoenix_salted_key(args: &Args) -> Result<Outcome, String> {
    let buffer = args.bytes("buffer")?;
    let (off, len, n) = (
        args.i32("offset")?,
        args.i32("length")?,
        args.i32("bucket_num")?,
    );
    Ok(outcome(phoenix::salted_key(&buffer, off, len, n), |v| {
        hex_value(&v)
    }))
}

fn config(args: &Args) -> Result<SaltConfig, String> {
    Ok(SaltConfig {
        width: args.i32("salt_width")?,
        buckets: args.i32("salt_buckets")?,
        metric_width: args.i32("metric_width")?,
    })
}

fn intervals_value(v: &[Interval]) -> Value {
    Value::Array(
        v.iter()
            .map(|(a, b)| Value::Array(vec![hex_value(a), hex_value(b)]))
            .collect(),
    )
}

fn hash_prefix(func: &str, args: &Args) -> Result<Outcome, String> {
    let d = match HashPrefixDistributor::new(args.i32("max_buckets")?) {
        Ok(d) => d,
        Err(e) => return Ok(e.into()),
    };
    Ok(match func {
        "RowKeyDistributorByHashPrefix.getDistributedKey" => {
            Outcome::Value(hex_value(&d.distributed_key(&args.bytes("key")?)))
        }
        "RowKeyDistributorByHashPrefix.getOriginalKey" => {
            outcome(d.original_key(&args.bytes("adjusted_key")?), |v| {
                hex_value(&v)
            })
        }
        "RowKeyDistributorByHashPrefix.getAllDistributedKeys" => {
            Outcome::Value(hex_list(&d.all_distributed_keys(&args.bytes("key")?)))
        }
        "RowKeyDistributorByHashPrefix.getDistributedIntervals" => {
            let (start, stop) = (args.bytes("start")?, args.bytes("stop")?);
            Outcome::Value(intervals_value(&d.distributed_intervals(&start, &stop)))
        }
        "RowKeyDistributorByHashPrefix.getParamsToStore" => {
            Outcome::Value(Value::String(d.params_to_store()))
        }
        _ => return Err(format!("unknown fn `{func}`")),
    })
}

fn one_byte_prefix(func: &str, args: &Args) -> Result<Outcome, String> {
    let n = args.int("buckets_count")?;
    let n = i8::try_from(n).map_err(|_| format!("arg `buckets_count`: {n} does not fit a byte"))?;
    let mut d = OneBytePrefixDistributor::new(n);
    Ok(match func {
        "RowKeyDistributorByOneBytePrefix.getDistributedKey[sequence]" => {
            let keys = args.bytes_list("keys")?;
            let r: crate::error::Result<Vec<Vec<u8>>> =
                keys.iter().map(|k| d.distributed_key(k)).collect();
            outcome(r, |v| hex_list(&v))
        }
        "RowKeyDistributorByOneBytePrefix.getOriginalKey" => {
            outcome(d.original_key(&args.bytes("adjusted_key")?), |v| {
                hex_value(&v)
            })
        }
        "RowKeyDistributorByOneBytePrefix.getAllDistributedKeys" => {
            outcome(d.all_distributed_keys(&args.bytes("key")?), |v| {
                hex_list(&v)
            })
        }
        "RowKeyDistributorByOneBytePrefix.getDistributedIntervals" => {
            let (start, stop) = (args.bytes("start")?, args.bytes("stop")?);
            outcome(d.distributed_intervals(&start, &stop), |v| {
                intervals_value(&v)
            })
        }
        "RowKeyDistributorByOneBytePrefix.getParamsToStore" => {
            Outcome::Value(Value::String(d.params_to_store()))
        }
        _ => return Err(format!("unknown fn `{func}`")),
    })
}
