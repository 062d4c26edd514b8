//! Vector glue for the `split` family: `bytes_split.jsonl`, `region_splitter.jsonl`,
//! `regions.jsonl`.

use serde_json::Value;

use super::{hex_list, hex_value, outcome, Args, Dispatched, Outcome};
use crate::hbase::split::{
    bytes_split, create_table_split_keys, iterate_on_splits, verify_split_keys, AlgorithmKind,
    SplitAlgorithm,
};
use crate::region::{minimum_midpoint, row_end_key_compare, row_is_in_range};

/// `None`: not one of this family's functions.
pub(super) fn dispatch(func: &str, args: &Args) -> Dispatched {
    if let Some((class, method)) = func.split_once('.') {
        if let Some(kind) = AlgorithmKind::from_name(class) {
            return Some(splitter(kind, method, args));
        }
    }
    let r = match func {
        "Bytes.split" => (|| {
            Ok(outcome(
                bytes_split(
                    &args.bytes("a")?,
                    &args.bytes("b")?,
                    false,
                    args.i32("num")?,
                ),
                |v| hex_list(&v),
            ))
        })(),
        "Bytes.split_inclusive" => (|| {
            let r = bytes_split(
                &args.bytes("a")?,
                &args.bytes("b")?,
                args.bool("inclusive")?,
                args.i32("num")?,
            );
            Ok(outcome(r, |v| hex_list(&v)))
        })(),
        "Bytes.iterateOnSplits" => (|| {
            let r = iterate_on_splits(
                &args.bytes("a")?,
                &args.bytes("b")?,
                args.bool("inclusive")?,
                args.i32("num")?,
            );
            Ok(outcome(r, |v| hex_list(&v)))
        })(),
        "Admin.getSplitKeys" => (|| {
            let r = create_table_split_keys(
                &args.bytes("start")?,
                &args.bytes("end")?,
                args.i32("num_regions")?,
            );
            Ok(outcome(r, |v| hex_list(&v)))
        })(),
        "Admin.verifySplitKeys" => (|| {
            Ok(outcome(
                verify_split_keys(args.bytes_list("split_keys")?),
                |v| hex_list(&v),
            ))
        })(),
        "HRegion.rowIsInRange" => (|| {
            Ok(Outcome::Value(Value::Bool(row_is_in_range(
                &args.bytes("row")?,
                &args.bytes("start")?,
                &args.bytes("end")?,
            ))))
        })(),
        "Bytes.RowEndKeyComparator.compare" => (|| {
            let o = row_end_key_compare(&args.bytes("a")?, &args.bytes("b")?);
            Ok(Outcome::Value(Value::from(o as i8)))
        })(),
        "HFileWriterImpl.getMinimumMidpointArray" => (|| {
            let r = minimum_midpoint(&args.bytes("left")?, &args.bytes("right")?);
            Ok(outcome(r, |v| v.map_or(Value::Null, |m| hex_value(&m))))
        })(),
        _ => return None,
    };
    Some(r)
}

/// A Java `String` argument that must not be `null`.
fn jstr(args: &Args, name: &str) -> Result<Vec<u16>, String> {
    args.jstring(name)?
        .ok_or_else(|| format!("arg `{name}`: null string"))
}

fn splitter(kind: AlgorithmKind, method: &str, args: &Args) -> Result<Outcome, String> {
    let mut alg = SplitAlgorithm::new(kind);
    // Setters run before the call, first row then last row; a setter may throw.
    if args.has("first_row") || args.0.contains_key("first_row_utf16") {
        if let Err(e) = alg.set_first_row_str(&jstr(args, "first_row")?) {
            return Ok(e.into());
        }
    }
    if let Some(b) = args.opt_bytes("first_row_bytes")? {
        alg.set_first_row_bytes(&b);
    }
    if args.has("last_row") || args.0.contains_key("last_row_utf16") {
        if let Err(e) = alg.set_last_row_str(&jstr(args, "last_row")?) {
            return Ok(e.into());
        }
    }
    if let Some(b) = args.opt_bytes("last_row_bytes")? {
        alg.set_last_row_bytes(&b);
    }
    Ok(match method {
        "split(n)" => outcome(alg.split_n(args.i32("n")?), |v| hex_list(&v)),
        "split(start,end)" => outcome(
            alg.split_range(&args.bytes("start")?, &args.bytes("end")?),
            |v| hex_value(&v),
        ),
        "split(start,end,numSplits,inclusive)" => {
            let r = alg.split_range_n(
                &args.bytes("start")?,
                &args.bytes("end")?,
                args.i32("num_splits")?,
                args.bool("inclusive")?,
            );
            outcome(r, |v| hex_list(&v))
        }
        "rollingSplitPoint" => outcome(
            alg.rolling_split_point(&args.bytes("start")?, &args.bytes("end")?),
            |v| hex_value(&v),
        ),
        "firstRow" => Outcome::Value(hex_value(&alg.first_row())),
        "lastRow" => Outcome::Value(hex_value(&alg.last_row())),
        "strToRow" => outcome(alg.str_to_row(&jstr(args, "s")?), |v| hex_value(&v)),
        "rowToStr" => Outcome::Value(Value::String(alg.row_to_str(&args.bytes("row")?))),
        "separator" => Outcome::Value(Value::String(alg.separator().to_string())),
        _ => return Err(format!("unknown {} method `{method}`", kind.name())),
    })
}
