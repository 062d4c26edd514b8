//! Vector glue for the `phoenix.*` family (`../shared/vectors-pending/phoenix.*.jsonl`):
//! `P<Type>.toBytes`, `PChar.pad`, `PBinary.pad`, `PDecimal.coerce`,
//! `SaltingUtil.getSaltingByte` and `rowkey` (`PTableImpl.newKey` after UPSERT's column
//! assignment). Values arrive in each type's vector encoding (see the README's table).

use serde_json::{Map, Value};

use super::{hex_value, outcome, Args, Dispatched, Outcome};
use crate::hbase::phoenix::{
    decimal, row_key, Decimal, PhoenixColumn, PhoenixTable, PhoenixType, PhoenixValue, SortOrder,
    Timestamp,
};
use crate::hbase::salt::phoenix::salting_byte;

/// `None`: not one of this family's functions.
pub(super) fn dispatch(func: &str, args: &Args) -> Dispatched {
    let rest = func.strip_prefix("phoenix.")?;
    let r = match rest {
        "rowkey" => rowkey(args),
        "PDecimal.coerce" => coerce(args),
        "SaltingUtil.getSaltingByte" => (|| {
            let (key, n) = (args.bytes("key")?, args.i32("buckets")?);
            let len = i32::try_from(key.len()).map_err(|_| "arg `key`: too long".to_string())?;
            Ok(outcome(salting_byte(&key, 0, len, n), |b| hex_value(&[b])))
        })(),
        _ => {
            let (class, method) = rest.split_once('.')?;
            let ty = PhoenixType::from_class_name(class)?;
            match method {
                "toBytes" => to_bytes(ty, args),
                "pad" if matches!(ty, PhoenixType::Char | PhoenixType::Binary) => pad(ty, args),
                _ => return None,
            }
        }
    };
    Some(r)
}

fn sort_order(args: &Args) -> Result<SortOrder, String> {
    let s = args.text("sortOrder")?;
    SortOrder::from_name(&s).ok_or_else(|| format!("arg `sortOrder`: {s:?} is not ASC or DESC"))
}

fn opt_i32(args: &Args, name: &str) -> Result<Option<i32>, String> {
    if args.has(name) {
        args.i32(name).map(Some)
    } else {
        Ok(None)
    }
}

fn to_bytes(ty: PhoenixType, args: &Args) -> Result<Outcome, String> {
    let so = sort_order(args)?;
    let value = value_of(ty, args.raw("value"), args.0.get("utf16"))?;
    Ok(outcome(ty.to_bytes(value.as_ref(), so), |b| hex_value(&b)))
}

fn pad(ty: PhoenixType, args: &Args) -> Result<Outcome, String> {
    let so = sort_order(args)?;
    let max = args.i32("maxLength")?;
    let max = usize::try_from(max).map_err(|_| format!("arg `maxLength`: {max} < 0"))?;
    let value = value_of(ty, args.raw("value"), args.0.get("utf16"))?;
    Ok(outcome(ty.to_bytes(value.as_ref(), so), |b| {
        hex_value(&ty.pad(b, max, so))
    }))
}

fn coerce(args: &Args) -> Result<Outcome, String> {
    let so = sort_order(args)?;
    let (p, s) = (opt_i32(args, "precision")?, opt_i32(args, "scale")?);
    let Some(PhoenixValue::Decimal(v)) = value_of(PhoenixType::Decimal, args.raw("value"), None)?
    else {
        return Err("arg `value`: expected a decimal string".into());
    };
    Ok(outcome(decimal::coerce(&v, p, s, so, "D"), |b| {
        hex_value(&b)
    }))
}

fn rowkey(args: &Args) -> Result<Outcome, String> {
    let (table, values) = rowkey_args(args)?;
    Ok(outcome(row_key(&table, &values), |b| hex_value(&b)))
}

/// The table and values of a `phoenix.rowkey` line.
fn rowkey_args(args: &Args) -> Result<(PhoenixTable, Vec<Option<PhoenixValue>>), String> {
    let columns = args
        .raw("columns")
        .as_array()
        .ok_or("arg `columns`: expected a list")?
        .iter()
        .map(column)
        .collect::<Result<Vec<_>, _>>()?;
    let raw_values = args
        .raw("values")
        .as_array()
        .ok_or("arg `values`: expected a list")?;
    let values = columns
        .iter()
        .zip(raw_values)
        .map(|(c, v)| match v {
            Value::Object(o) if o.contains_key("utf16") => value_of(
                c.data_type,
                o.get("value").unwrap_or(&Value::Null),
                o.get("utf16"),
            ),
            v => value_of(c.data_type, v, None),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let table = PhoenixTable {
        name: args.text("table")?,
        columns,
        salt_buckets: opt_i32(args, "saltBuckets")?,
        row_key_order_optimizable: args.bool("rowKeyOrderOptimizable")?,
    };
    Ok((table, values))
}

fn column(v: &Value) -> Result<PhoenixColumn, String> {
    let o = v.as_object().ok_or("a column must be an object")?;
    let a = Args(o);
    let type_name = a.text("type")?;
    Ok(PhoenixColumn {
        name: a.text("name")?,
        data_type: PhoenixType::from_sql_name(&type_name)
            .ok_or_else(|| format!("unknown Phoenix type {type_name:?}"))?,
        sort_order: sort_order(&a)?,
        nullable: a.bool("nullable")?,
        max_length: opt_i32(&a, "maxLength")?,
        scale: opt_i32(&a, "scale")?,
    })
}

/// A value in the vector encoding of `ty` (`null` is Java `null`); `utf16` is the exact
/// UTF-16 of a string that holds lone surrogates.
fn value_of(
    ty: PhoenixType,
    v: &Value,
    utf16: Option<&Value>,
) -> Result<Option<PhoenixValue>, String> {
    if v.is_null() {
        return Ok(None);
    }
    let mut m = Map::new();
    m.insert("v".into(), v.clone());
    let a = Args(&m);
    let int = |lo: i64, hi: i64| -> Result<i64, String> {
        let n = a.int("v")?;
        if (lo..=hi).contains(&n) {
            Ok(n)
        } else {
            Err(format!("value {n} does not fit {}", ty.sql_name()))
        }
    };
    use PhoenixValue as V;
    Ok(Some(match ty {
        PhoenixType::Integer | PhoenixType::UnsignedInt => {
            V::Integer(i32::try_from(int(i32::MIN.into(), i32::MAX.into())?).unwrap_or(0))
        }
        PhoenixType::Smallint => {
            V::Short(i16::try_from(int(i16::MIN.into(), i16::MAX.into())?).unwrap_or(0))
        }
        PhoenixType::Tinyint => {
            V::Byte(i8::try_from(int(i8::MIN.into(), i8::MAX.into())?).unwrap_or(0))
        }
        PhoenixType::Bigint | PhoenixType::UnsignedLong => V::Long(a.long("v")?),
        PhoenixType::Float => {
            let bits = u32::try_from(a.bits("v")?).map_err(|_| "FLOAT bits: 8 hex digits")?;
            V::Float(f32::from_bits(bits))
        }
        PhoenixType::Double => V::Double(f64::from_bits(a.bits("v")?)),
        PhoenixType::Decimal => {
            V::Decimal(Decimal::parse(&a.text("v")?).map_err(|e| e.to_string())?)
        }
        PhoenixType::Varchar | PhoenixType::Char => match utf16 {
            Some(u) => {
                let mut m = Map::new();
                m.insert("s".into(), Value::Null);
                m.insert("utf16".into(), u.clone());
                V::String(Args(&m).jstring("s")?.unwrap_or_default())
            }
            None => V::string(&a.text("v")?),
        },
        PhoenixType::Boolean => V::Boolean(a.bool("v")?),
        PhoenixType::Date => V::Date(a.long("v")?),
        PhoenixType::Time => V::Time(a.long("v")?),
        PhoenixType::Timestamp => {
            let o = v
                .as_object()
                .ok_or("TIMESTAMP: expected {seconds, nanos}")?;
            let t = Args(o);
            let ts = Timestamp::from_epoch_second(t.long("seconds")?, t.i32("nanos")?);
            V::Timestamp(ts.map_err(|e| e.to_string())?)
        }
        PhoenixType::Varbinary | PhoenixType::Binary => V::Bytes(a.bytes("v")?),
    }))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use crate::vectors::{run_line, Verdict};

    const NULL_INT: &str = r#"{"fn":"phoenix.PInteger.toBytes","args":{"value":null,"sortOrder":"ASC"},"expect":{"throws":"org.apache.phoenix.schema.IllegalDataException","message":"java.sql.SQLException: ERROR 201 (22000): Illegal data. INTEGER may not be null"}}"#;

    #[test]
    fn sql_error_code_is_part_of_the_contract() {
        assert_eq!(run_line(NULL_INT), Verdict::Pass);
        // The same class with another code (TYPE_MISMATCH) is not what the engine raises.
        let other = NULL_INT.replace("ERROR 201 (22000)", "ERROR 203 (22005)");
        assert!(matches!(run_line(&other), Verdict::CannotRun { .. }));
    }
}

/// Every `phoenix.rowkey` vector key decodes back to its columns: each column reads what
/// UPSERT assigned to it (padded as newKey writes it), and values that UPSERT keeps as they are
/// come back equal to the input.
#[cfg(test)]
mod round_trip {
    use super::*;
    use crate::hbase::phoenix::rowkey::separator_byte;
    use crate::hbase::phoenix::{assign_value, decode_row_key};

    fn keeps_value(t: PhoenixType) -> bool {
        !matches!(
            t,
            PhoenixType::Decimal | PhoenixType::Char | PhoenixType::Binary | PhoenixType::Boolean
        )
    }

    #[test]
    #[allow(clippy::unwrap_used, clippy::panic)]
    fn vector_keys_decode_to_their_values() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/vectors-pending/phoenix.rowkey.jsonl");
        let text = std::fs::read_to_string(&path).unwrap();
        let (mut keys, mut holes, mut self_separating) = (0, 0, 0);
        let mut unsplittable = Vec::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: Value = serde_json::from_str(line).unwrap();
            let Some(hex) = v.get("expect").and_then(Value::as_str) else {
                continue;
            };
            let args = Args(v.get("args").and_then(Value::as_object).unwrap());
            let (table, values) = rowkey_args(&args).unwrap();
            let key = crate::vectors::from_hex(hex).unwrap();
            let written = |v: &Option<PhoenixValue>| {
                v.as_ref().is_some_and(|x| {
                    !matches!(x, PhoenixValue::String(s) if s.is_empty())
                        && !matches!(x, PhoenixValue::Bytes(b) if b.is_empty())
                })
            };
            let last = values.iter().rposition(written);
            // A NULL fixed-width column before the last value is written as no bytes at all
            // (CHAR/BINARY excepted: they pad), so no reader, Phoenix's included, can find the
            // columns after it.
            let hole = table
                .columns
                .iter()
                .zip(&values)
                .enumerate()
                .any(|(i, (c, v))| {
                    last.is_some_and(|l| i < l) && !written(v) && c.data_type.byte_size().is_some()
                });
            if hole {
                holes += 1;
                continue;
            }
            let decoded = decode_row_key(&table, &key).unwrap();
            // What each column holds: UPSERT's bytes, padded as newKey pads them; trailing
            // NULLs are not written at all.
            for (i, ((c, v), d)) in table
                .columns
                .iter()
                .zip(&values)
                .zip(&decoded.columns)
                .enumerate()
            {
                let mut b = assign_value(c, v.as_ref()).unwrap();
                let sep =
                    separator_byte(table.row_key_order_optimizable, b.is_empty(), c.sort_order);
                let ambiguous = b.contains(&sep) || b.first() == Some(&0);
                if !c.data_type.is_fixed_width() && i + 1 < table.columns.len() && ambiguous {
                    // The value holds the byte that ends it (VARBINARY 00, a DESC value's ff)
                    // or starts with 00 (read as NULL): the key cannot be split there, by
                    // Phoenix's RowKeySchema either.
                    self_separating += 1;
                    break;
                }
                if last.is_some_and(|l| i <= l) {
                    if let Some(m) = c.max_length.and_then(|m| usize::try_from(m).ok()) {
                        b = c.data_type.pad(b, m, c.sort_order);
                    }
                }
                let held = c.data_type.to_object(&b, c.sort_order).unwrap();
                if d.value != held {
                    // A value holding its own separator byte cannot be split back out (VARCHAR
                    // with U+0000, a DESC value with ff); Phoenix reads those wrongly too.
                    unsplittable.push(format!("{line}\n  {}: {:?} != {:?}", c.name, d.value, held));
                    continue;
                }
                // A DECIMAL comes back cut to the column's scale (rounded down), except a DESC
                // one that UPSERT rescaled: Phoenix stored it ascending (see decimal::coerce).
                if let (Some(PhoenixValue::Decimal(x)), Some(PhoenixValue::Decimal(got))) =
                    (v, &d.value)
                {
                    // Exponents past DECIMAL's one-byte range wrap (1E-130 reads back as
                    // 1E+126), so the expectation goes through the encoding too.
                    let wrapped = |x: Decimal| {
                        let b = x.to_phoenix_bytes().unwrap();
                        Decimal::from_phoenix_bytes(&b)
                            .unwrap()
                            .normalize()
                            .unwrap()
                    };
                    let x = x.normalize().unwrap();
                    let cut = c.scale.filter(|&s| x.scale() > s);
                    if let Some(s) = cut {
                        if c.sort_order == SortOrder::Asc {
                            let want = x.set_scale_round_down(s).unwrap().normalize().unwrap();
                            assert_eq!(got.normalize().unwrap(), wrapped(want), "{line}");
                        }
                    } else {
                        assert_eq!(got.normalize().unwrap(), wrapped(x), "{line}");
                    }
                }
                // A lone surrogate is written as `?` (Java's UTF-8 encoder): not kept.
                let lossy =
                    matches!(v, Some(PhoenixValue::String(s)) if String::from_utf16(s).is_err());
                if keeps_value(c.data_type) && !lossy && v.is_some() && last.is_some_and(|l| i <= l)
                {
                    assert_eq!(d.value.as_ref(), v.as_ref(), "{line}");
                }
            }
            if table.salt_buckets.is_some() {
                assert_eq!(decoded.salt, key.first().copied());
            }
            keys += 1;
        }
        assert!(
            keys > 200,
            "only {keys} keys decoded ({holes} with a NULL fixed-width hole, \
             {self_separating} with a value holding its separator)"
        );
        assert!(unsplittable.is_empty(), "{}", unsplittable.join("\n"));
    }
}
