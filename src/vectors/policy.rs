//! Vector glue for the `policy` family (`split_policy.jsonl`): region split policies, split
//! restrictions and the `HRegion.checkSplit` glue.

use serde_json::Value;

use super::{from_hex, hex_value, long_value, Args, Dispatched, Outcome};
use crate::hbase::policy::{
    self, PolicyLimits, RegionState, SplitPolicy, SplitRestriction, StoreState, Values,
    RESTRICTION_DELIMITER_KEY, RESTRICTION_PREFIX_LENGTH_KEY, RESTRICTION_TYPE_KEY,
};

/// `None`: not one of this family's functions.
pub(super) fn dispatch(func: &str, args: &Args) -> Dispatched {
    let r = match func {
        "ConstantSizeRegionSplitPolicy.desiredMaxFileSize" => desired(args),
        "ConstantSizeRegionSplitPolicy.applyJitter" => jitter(args),
        "IncreasingToUpperBoundRegionSplitPolicy.initialSize" => initial(args),
        "IncreasingToUpperBoundRegionSplitPolicy.getSizeToCheck" => {
            size_to_check(args, &SplitPolicy::IncreasingToUpperBound)
        }
        "SteppingSplitPolicy.getSizeToCheck" => size_to_check(args, &SplitPolicy::Stepping),
        "ConstantSizeRegionSplitPolicy.shouldSplit" => {
            should_split(args, &SplitPolicy::ConstantSize)
        }
        "IncreasingToUpperBoundRegionSplitPolicy.shouldSplit" => {
            should_split(args, &SplitPolicy::IncreasingToUpperBound)
        }
        "SteppingSplitPolicy.shouldSplit" => should_split(args, &SplitPolicy::Stepping),
        "RegionSplitPolicy.getSplitPoint" => split_point(args, |_| SplitPolicy::ConstantSize),
        "KeyPrefixRegionSplitPolicy.getSplitPoint" => {
            split_point(args, SplitPolicy::key_prefix_from_table)
        }
        "DelimitedKeyPrefixRegionSplitPolicy.getSplitPoint" => {
            split_point(args, SplitPolicy::delimited_from_table)
        }
        "RegionSplitRestriction.create" => restriction_create(args),
        "KeyPrefixRegionSplitRestriction.getRestrictedSplitPoint" => {
            restricted(args, RESTRICTION_PREFIX_LENGTH_KEY)
        }
        "DelimitedKeyPrefixRegionSplitRestriction.getRestrictedSplitPoint" => {
            restricted(args, RESTRICTION_DELIMITER_KEY)
        }
        "HRegion.checkSplit" => check_split(args),
        _ => return None,
    };
    Some(r)
}

type Res = Result<Outcome, String>;

fn opt_long(args: &Args, name: &str) -> Result<Option<i64>, String> {
    if args.has(name) {
        args.long(name).map(Some)
    } else {
        Ok(None)
    }
}

fn desired(args: &Args) -> Res {
    let table = opt_long(args, "table_max_file_size")?;
    let conf = opt_long(args, "conf_max_file_size")?.unwrap_or(policy::DEFAULT_MAX_FILE_SIZE);
    Ok(Outcome::Value(long_value(policy::desired_max_file_size(
        table, conf,
    ))))
}

fn jitter(args: &Args) -> Res {
    let max = args.long("max_file_size")?;
    let rate = f64::from_bits(args.bits("jitter_rate_bits")?);
    Ok(Outcome::Value(long_value(policy::apply_jitter(max, rate))))
}

fn initial(args: &Args) -> Res {
    let conf_initial = opt_long(args, "conf_initial_size")?;
    let table_flush = opt_long(args, "table_memstore_flush_size")?;
    let conf_flush =
        opt_long(args, "conf_memstore_flush_size")?.unwrap_or(policy::DEFAULT_MEMSTORE_FLUSH_SIZE);
    Ok(Outcome::Value(long_value(policy::initial_size(
        conf_initial,
        table_flush,
        conf_flush,
    ))))
}

fn limits(args: &Args) -> Result<PolicyLimits, String> {
    Ok(PolicyLimits {
        desired_max_file_size: args.long("desired_max_file_size")?,
        initial_size: args.long("initial_size")?,
        overall_hregion_files: if args.has("overall_hregion_files") {
            args.bool("overall_hregion_files")?
        } else {
            true
        },
    })
}

fn size_to_check(args: &Args, p: &SplitPolicy) -> Res {
    let l = limits(args)?;
    let n = args.i32("table_regions_count")?;
    Ok(Outcome::Value(long_value(p.size_to_check(&l, n))))
}

fn stores(args: &Args) -> Result<Vec<StoreState>, String> {
    let a = args
        .raw("stores")
        .as_array()
        .ok_or("arg `stores`: expected a list")?;
    a.iter()
        .map(|s| {
            let o = s.as_object().ok_or("arg `stores`: expected objects")?;
            let a = Args(o);
            let split_point = match a.raw("split_point") {
                Value::Null => None,
                Value::String(h) => {
                    Some(from_hex(h).ok_or_else(|| format!("stores: bad hex split_point {h:?}"))?)
                }
                v => return Err(format!("stores: bad split_point {v}")),
            };
            Ok(StoreState {
                size: a.long("size")?,
                can_split: if a.has("can_split") {
                    a.bool("can_split")?
                } else {
                    true
                },
                split_point,
            })
        })
        .collect()
}

fn should_split(args: &Args, p: &SplitPolicy) -> Res {
    let l = limits(args)?;
    let ids = match args.raw("online_region_replica_ids") {
        Value::Null => None,
        Value::Array(a) => Some(
            a.iter()
                .map(|x| {
                    x.as_i64()
                        .and_then(|v| i32::try_from(v).ok())
                        .ok_or_else(|| format!("online_region_replica_ids: bad id {x}"))
                })
                .collect::<Result<Vec<i32>, String>>()?,
        ),
        v => {
            return Err(format!(
                "online_region_replica_ids: expected a list or null, got {v}"
            ))
        }
    };
    let n = policy::count_table_regions(ids.as_deref());
    let region = RegionState::with_stores(stores(args)?);
    Ok(Outcome::Value(Value::Bool(p.should_split(&l, &region, n))))
}

fn values(args: &Args, name: &str) -> Result<Values, String> {
    match args.raw(name) {
        Value::Null => Ok(Values::new()),
        Value::Object(o) => o
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => Ok((k.clone(), s.clone())),
                v => Err(format!("arg `{name}`: value of {k:?} is not a string: {v}")),
            })
            .collect(),
        v => Err(format!("arg `{name}`: expected an object, got {v}")),
    }
}

fn opt_bytes_value(b: Option<Vec<u8>>) -> Value {
    b.map_or(Value::Null, |b| hex_value(&b))
}

fn split_point(args: &Args, make: impl FnOnce(&Values) -> SplitPolicy) -> Res {
    let p = make(&values(args, "table_values")?);
    Ok(Outcome::Value(opt_bytes_value(
        p.split_point(&stores(args)?),
    )))
}

fn restriction_create(args: &Args) -> Res {
    let mut table = Values::new();
    let mut conf = Values::new();
    if let Some(t) = args.opt_text("table_type")? {
        table.insert(RESTRICTION_TYPE_KEY.into(), t);
    }
    if let Some(t) = args.opt_text("conf_type")? {
        conf.insert(RESTRICTION_TYPE_KEY.into(), t);
    }
    let r = SplitRestriction::create(&table, &conf);
    Ok(Outcome::Value(Value::String(r.class_name().into())))
}

/// `conf_value` is the configuration's value of `conf_key` (prefix length or delimiter).
fn restricted(args: &Args, conf_key: &str) -> Res {
    let table = values(args, "table_values")?;
    let mut conf = Values::new();
    if let Some(v) = args.opt_text("conf_value")? {
        conf.insert(conf_key.into(), v);
    }
    let r = SplitRestriction::create(&table, &conf);
    Ok(Outcome::Value(hex_value(
        &r.restricted_split_point(&args.bytes("split_point")?),
    )))
}

fn check_split(args: &Args) -> Res {
    let r = SplitRestriction::create(&values(args, "table_values")?, &Values::new());
    let point = args.opt_bytes("policy_split_point")?;
    let start = args.bytes("region_start")?;
    let end = args.bytes("region_end")?;
    Ok(Outcome::Value(opt_bytes_value(policy::check_split(
        point, &r, &start, &end,
    ))))
}
