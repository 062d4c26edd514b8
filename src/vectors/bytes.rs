//! Vector glue for the `bytes` family: `encodings.jsonl`, `to_string_binary.jsonl`,
//! `md5.jsonl`, `java_hashcode.jsonl` and `recipes.jsonl`.

use crate::hbase::bigint::BigInt;
use serde_json::{json, Value};

use super::{hex_value, long_value, outcome, Args, Dispatched, Outcome};
use crate::hbase::bytes as b;
use crate::hbase::hash as h;

/// A non-null Java string argument.
fn jstr(args: &Args, name: &str) -> Result<Vec<u16>, String> {
    args.jstring(name)?
        .ok_or_else(|| format!("arg `{name}`: null string not supported"))
}

/// A Java `short` argument.
fn i16_arg(args: &Args, name: &str) -> Result<i16, String> {
    let v = args.int(name)?;
    i16::try_from(v).map_err(|_| format!("arg `{name}`: {v} does not fit a short"))
}

fn big_decimal_value(d: &b::BigDecimal) -> Value {
    json!({"unscaled": d.unscaled.to_string(), "scale": d.scale, "repr": d.to_java_string()})
}

fn opt_hex(v: Option<Vec<u8>>) -> Value {
    v.map_or(Value::Null, |x| hex_value(&x))
}

fn ord_value(o: std::cmp::Ordering) -> Value {
    json!(o as i32)
}

/// Dispatch one `fn` id of this family; `None` when the id belongs to another family.
pub(super) fn dispatch(func: &str, args: &Args) -> Dispatched {
    run(func, args).transpose()
}

/// `Ok(None)`: not ours. `Err`: unparsable arguments.
fn run(func: &str, a: &Args) -> Result<Option<Outcome>, String> {
    if let Some(o) = conversion(func, a)? {
        return Ok(Some(o));
    }
    if let Some(o) = array_op(func, a)? {
        return Ok(Some(o));
    }
    hash_or_recipe(func, a)
}

/// `Bytes.toBytes` of each Java type, and the readers back (`Bytes.toLong`, ...).
fn conversion(func: &str, a: &Args) -> Result<Option<Outcome>, String> {
    Ok(Some(match func {
        "Bytes.toBytes(String)" => Outcome::Value(hex_value(&b::to_bytes_string(&jstr(a, "s")?))),
        "Bytes.toBytes(long)" => Outcome::Value(hex_value(&b::to_bytes_long(a.long("v")?))),
        "Bytes.toBytes(int)" => Outcome::Value(hex_value(&b::to_bytes_int(a.i32("v")?))),
        "Bytes.toBytes(short)" => Outcome::Value(hex_value(&b::to_bytes_short(i16_arg(a, "v")?))),
        "Bytes.toBytes(double)" => Outcome::Value(hex_value(&b::to_bytes_double(f64::from_bits(
            a.bits("bits")?,
        )))),
        "Bytes.toBytes(float)" => {
            let bits = a.bits("bits")?;
            let bits =
                u32::try_from(bits).map_err(|_| format!("arg `bits`: {bits:x} is not 32-bit"))?;
            Outcome::Value(hex_value(&b::to_bytes_float(f32::from_bits(bits))))
        }
        "Bytes.toBytes(boolean)" => Outcome::Value(hex_value(&b::to_bytes_boolean(a.bool("v")?))),
        "Bytes.toBytes(BigDecimal)" => {
            let u = a.text("unscaled")?;
            let unscaled = BigInt::parse_decimal(&u)
                .ok_or_else(|| format!("arg `unscaled`: bad integer {u:?}"))?;
            let d = b::BigDecimal::new(unscaled, a.i32("scale")?);
            Outcome::Value(hex_value(&b::to_bytes_big_decimal(&d)))
        }
        "Bytes.toLong" => outcome(b::to_long(&a.bytes("bytes")?), long_value),
        "Bytes.toInt" => outcome(b::to_int(&a.bytes("bytes")?), |v| json!(v)),
        "Bytes.toShort" => outcome(b::to_short(&a.bytes("bytes")?), |v| json!(v)),
        "Bytes.toDouble" => outcome(
            b::to_double(&a.bytes("bytes")?),
            |d| json!({"bits": format!("{:016x}", d.to_bits()), "repr": b::java_double_to_string(d)}),
        ),
        "Bytes.toFloat" => outcome(
            b::to_float(&a.bytes("bytes")?),
            |f| json!({"bits": format!("{:08x}", f.to_bits()), "repr": b::java_float_to_string(f)}),
        ),
        "Bytes.toBigDecimal" => Outcome::Value(
            b::to_big_decimal(&a.bytes("bytes")?).map_or(Value::Null, |d| big_decimal_value(&d)),
        ),
        _ => return Ok(None),
    }))
}

/// The byte-array helpers of `Bytes`: joining, comparing, incrementing, cutting, padding,
/// hex and the string forms.
fn array_op(func: &str, a: &Args) -> Result<Option<Outcome>, String> {
    Ok(Some(match func {
        "Bytes.add(a,b)" => Outcome::Value(hex_value(&b::add(&a.bytes("a")?, &a.bytes("b")?))),
        "Bytes.add(a,b,c)" => Outcome::Value(hex_value(&b::add3(
            &a.bytes("a")?,
            &a.bytes("b")?,
            &a.bytes("c")?,
        ))),
        "Bytes.add(byte[][])" => Outcome::Value(hex_value(&b::add_all(&a.bytes_list("arrays")?))),
        "Bytes.compareTo" => {
            Outcome::Value(ord_value(b::compare_to(&a.bytes("a")?, &a.bytes("b")?)))
        }
        "Bytes.incrementBytes" => outcome(
            b::increment_bytes(&a.bytes("value")?, a.long("amount")?),
            |v| hex_value(&v),
        ),
        "Bytes.unsignedCopyAndIncrement" => Outcome::Value(hex_value(
            &b::unsigned_copy_and_increment(&a.bytes("input")?),
        )),
        "Bytes.head" => outcome(b::head(&a.bytes("a")?, a.i32("length")?), opt_hex),
        "Bytes.tail" => outcome(b::tail(&a.bytes("a")?, a.i32("length")?), opt_hex),
        "Bytes.padHead" => outcome(b::pad_head(&a.bytes("a")?, a.i32("length")?), |v| {
            hex_value(&v)
        }),
        "Bytes.padTail" => outcome(b::pad_tail(&a.bytes("a")?, a.i32("length")?), |v| {
            hex_value(&v)
        }),
        "Bytes.toHex" => Outcome::Value(json!(b::to_hex(&a.bytes("b")?))),
        "Bytes.fromHex" => outcome(b::from_hex_utf16(&jstr(a, "hex")?), |v| hex_value(&v)),
        "Bytes.startsWith" => Outcome::Value(json!(b::starts_with(
            &a.bytes("bytes")?,
            &a.bytes("prefix")?
        ))),
        "Bytes.toString" => Outcome::Value(json!(b::to_string(&a.bytes("b")?))),
        "Bytes.toStringBinary" => Outcome::Value(json!(match a.opt_bytes("b")? {
            Some(x) => b::to_string_binary(&x),
            None => "null".to_string(),
        })),
        "Bytes.toStringBinary(b,off,len)" => outcome(
            b::to_string_binary_range(&a.bytes("b")?, a.i32("off")?, a.i32("len")?),
            |s| json!(s),
        ),
        "Bytes.toBytesBinary" => Outcome::Value(hex_value(&b::to_bytes_binary(&jstr(a, "s")?))),
        _ => return Ok(None),
    }))
}

/// MD5 and the Java hash codes, and the row-key recipes built from them.
fn hash_or_recipe(func: &str, a: &Args) -> Result<Option<Outcome>, String> {
    Ok(Some(match func {
        "MD5Hash.getMD5AsHex" => Outcome::Value(json!(h::md5_as_hex(&a.bytes("key")?))),
        "MD5Hash.getMD5AsHex(key,off,len)" => outcome(
            h::md5_as_hex_range(&a.bytes("key")?, a.i32("off")?, a.i32("len")?),
            |s| json!(s),
        ),
        "String.hashCode" => Outcome::Value(json!(h::java_string_hash_code(&jstr(a, "s")?))),
        "Arrays.hashCode(byte[])" => Outcome::Value(json!(match a.opt_bytes("b")? {
            Some(x) => h::arrays_hash_code(&x),
            None => 0,
        })),
        "Bytes.hashCode(byte[],int,int)" => outcome(
            h::bytes_hash_code(&a.bytes("b")?, a.i32("off")?, a.i32("len")?),
            |v| json!(v),
        ),
        "reverse_timestamp" => Outcome::Value(hex_value(&b::reverse_timestamp(a.long("ts")?))),
        "hash_short_prefix" => Outcome::Value(hex_value(&h::hash_short_prefix(&jstr(a, "s")?))),
        "md5_hex_prefix" => outcome(
            h::md5_hex_prefix(&jstr(a, "s")?, a.i32("prefix_len")?, &jstr(a, "sep")?),
            |v| hex_value(&v),
        ),
        "salt_abs_of_mod" => outcome(h::salt_abs_of_mod(&jstr(a, "s")?, a.i32("buckets")?), |v| {
            hex_value(&v)
        }),
        "salt_mod_of_abs" => outcome(h::salt_mod_of_abs(&jstr(a, "s")?, a.i32("buckets")?), |v| {
            hex_value(&v)
        }),
        "reverse_string" => Outcome::Value(hex_value(&b::reverse_string(&jstr(a, "s")?))),
        _ => return Ok(None),
    }))
}
