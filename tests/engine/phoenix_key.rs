//! Phoenix primary keys through a design document: every recorded `phoenix.rowkey` vector
//! (`PTableImpl.newKey` after UPSERT, `../shared/vectors-pending/phoenix.rowkey.jsonl`) is
//! rebuilt as a design (fields, a `salt(N, hash=phoenix)` for `SALT_BUCKETS`, one `pk(...)`
//! per column, in the key language's text form), read by the design-document reader, compiled
//! and encoded; the bytes must be the recorded ones, or both sides must refuse. Keys decode
//! back to the values the port's own decoder reads.

// A failed assertion is how a test reports; the no-panic rule is for the library.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use rowkey_lab::design::DesignDocument;
use rowkey_lab::error::ErrorKind;
use rowkey_lab::keyspec::{CompiledKey, FieldType, FieldValue};
use serde_json::{json, Value};

fn vectors() -> Vec<Value> {
    let dir = std::env::var_os("VECTORS_PENDING_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/vectors-pending"),
        PathBuf::from,
    );
    let path = dir.join("phoenix.rowkey.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

fn to_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The field type a column's values come from in the design.
fn field_type(sql: &str) -> &'static str {
    match sql {
        "INTEGER" | "UNSIGNED_INT" => "int",
        "SMALLINT" | "TINYINT" => "short",
        "BIGINT" | "UNSIGNED_LONG" => "long",
        "FLOAT" => "float",
        "DOUBLE" => "double",
        "DECIMAL" | "TIMESTAMP" => "bigDecimal",
        "BOOLEAN" => "boolean",
        "DATE" | "TIME" => "timestamp",
        _ => "string",
    }
}

fn ty(name: &str) -> FieldType {
    match name {
        "int" => FieldType::Int,
        "short" => FieldType::Short,
        "long" => FieldType::Long,
        "float" => FieldType::Float,
        "double" => FieldType::Double,
        "bigDecimal" => FieldType::BigDecimal,
        "boolean" => FieldType::Boolean,
        "timestamp" => FieldType::Timestamp,
        _ => FieldType::String,
    }
}

/// The `pk(...)` text of one vector column.
fn pk_text(c: &Value) -> String {
    let t = c["type"].as_str().unwrap();
    let (len, scale) = (c["maxLength"].as_i64(), c["scale"].as_i64());
    let mut out = match (len, scale) {
        (Some(l), Some(s)) => format!("pk({}, {t}({l}, {s})", c["name"].as_str().unwrap()),
        (Some(l), None) => format!("pk({}, {t}({l})", c["name"].as_str().unwrap()),
        _ => format!("pk({}, {t}", c["name"].as_str().unwrap()),
    };
    if c["sortOrder"] == "DESC" {
        out.push_str(", desc");
    }
    if c["nullable"] == true {
        out.push_str(", nullable");
    }
    if let (None, Some(s)) = (len, scale) {
        out.push_str(&format!(", scale={s}"));
    }
    out.push(')');
    out
}

/// A vector value as the record value of its field; `None`: not expressible as a record
/// (VARBINARY/BINARY bytes that are not UTF-8 text).
fn field_value(c: &Value, v: &Value, name: &str, fty: FieldType) -> Option<FieldValue> {
    if v.is_null() {
        return Some(FieldValue::Null);
    }
    let sql = c["type"].as_str().unwrap();
    Some(match sql {
        "FLOAT" => FieldValue::Double(f64::from(f32::from_bits(
            u32::from_str_radix(v.as_str()?, 16).ok()?,
        ))),
        "DOUBLE" => FieldValue::Double(f64::from_bits(u64::from_str_radix(v.as_str()?, 16).ok()?)),
        "VARBINARY" | "BINARY" => FieldValue::Str(String::from_utf8(hex(v.as_str()?)).ok()?),
        "VARCHAR" | "CHAR" => match v.get("utf16") {
            Some(u) => FieldValue::Utf16(
                u.as_array()?
                    .iter()
                    .map(|x| x.as_u64().unwrap() as u16)
                    .collect(),
            ),
            None => FieldValue::Str(v.as_str()?.to_string()),
        },
        "TIMESTAMP" => {
            let s = v["seconds"].as_str()?;
            let n = v["nanos"].as_i64()?;
            // seconds + nanos / 1e9, written out: -5 s + 250 ns is -4.999999750.
            let secs: i128 = s.parse().ok()?;
            let total = secs * 1_000_000_000 + i128::from(n);
            let sign = if total < 0 { "-" } else { "" };
            let a = total.unsigned_abs();
            let text = format!("{sign}{}.{:09}", a / 1_000_000_000, a % 1_000_000_000);
            FieldValue::from_json(name, fty, &json!(text)).ok()?
        }
        _ => FieldValue::from_json(name, fty, v).ok()?,
    })
}

fn kind_of(throws: &str) -> Option<ErrorKind> {
    Some(match throws.rsplit('.').next()? {
        "IllegalDataException" => ErrorKind::IllegalData,
        "DataExceedsCapacityException" => ErrorKind::DataExceedsCapacity,
        "ConstraintViolationException" => ErrorKind::ConstraintViolation,
        "NumberFormatException" => ErrorKind::NumberFormat,
        "ArrayIndexOutOfBoundsException" => ErrorKind::IndexOutOfBounds,
        _ => return None,
    })
}

/// One vector as a design document, and the record values in field order.
fn design(a: &Value) -> Option<(String, Vec<FieldValue>)> {
    let columns = a["columns"].as_array().unwrap();
    let values = a["values"].as_array().unwrap();
    let mut fields = Vec::new();
    let mut parts = Vec::new();
    let mut record = Vec::new();
    if let Some(n) = a["saltBuckets"].as_i64() {
        parts.push(format!("salt({n}, hash=phoenix)"));
    }
    for (i, c) in columns.iter().enumerate() {
        let name = c["name"].as_str().unwrap();
        let t = field_type(c["type"].as_str().unwrap());
        fields.push(json!({"name": name, "type": t}));
        parts.push(pk_text(c));
        let v = values.get(i).unwrap_or(&Value::Null);
        record.push(field_value(c, v, name, ty(t))?);
    }
    let doc = json!({"v": 1, "name": "phoenix.rowkey vector", "fields": fields,
        "key": parts.join(" + ")});
    Some((doc.to_string(), record))
}

#[test]
fn every_rowkey_vector_through_a_design_document() {
    let (mut run, mut skipped_rko, mut skipped_bytes) = (0, 0, 0);
    let mut failures = Vec::new();
    for (line, v) in vectors().iter().enumerate() {
        let a = &v["args"];
        if a["rowKeyOrderOptimizable"] == false {
            // Tables from before Phoenix 4.7: the key language writes today's tables only.
            skipped_rko += 1;
            continue;
        }
        let Some((doc, record)) = design(a) else {
            skipped_bytes += 1;
            continue;
        };
        run += 1;
        let got = DesignDocument::from_json(&doc).and_then(|d| {
            let mut ck = CompiledKey::new(&d.key, &d.key_fields())?;
            ck.encode_values(&record)
        });
        let expect = &v["expect"];
        let ok = match (expect.as_str(), &got) {
            (Some(h), Ok(k)) => to_hex(k) == h,
            (None, Err(e)) => {
                let throws = expect["throws"].as_str().unwrap_or_default();
                // A SALT_BUCKETS out of range is refused when the design is read.
                kind_of(throws) == Some(e.kind)
                    || (e.kind == ErrorKind::Invalid && a["saltBuckets"].is_number())
            }
            _ => false,
        };
        if !ok {
            failures.push(format!(
                "line {}: {doc}\n  expected {expect}, got {got:?}",
                line + 1
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {run} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // 269 vectors: 12 describe pre-4.7 tables; the rest run unless a VARBINARY value is
    // not UTF-8 text (a design's string field cannot hold it).
    assert_eq!(run + skipped_rko + skipped_bytes, 269);
    assert_eq!(skipped_rko, 12);
    assert_eq!(
        (run, skipped_bytes),
        (238, 19),
        "vectors run, and skipped for non-text bytes"
    );
}

#[test]
fn vector_keys_decode_to_their_values() {
    let mut decoded = 0;
    for v in vectors() {
        let a = &v["args"];
        let Some(h) = v["expect"].as_str() else {
            continue;
        };
        if a["rowKeyOrderOptimizable"] == false {
            continue;
        }
        let Some((doc, record)) = design(a) else {
            continue;
        };
        let d = DesignDocument::from_json(&doc).unwrap();
        let ck = CompiledKey::new(&d.key, &d.key_fields()).unwrap();
        let key = hex(h);
        // Keys Phoenix itself cannot split back (a separator inside a value, a NULL
        // fixed-width column written as no bytes, a rescaled DESC DECIMAL) are the port's
        // documented limits; every key that decodes must give its record back exactly.
        let Ok(dk) = ck.decode(&key) else { continue };
        if dk.verified != Some(true) {
            continue;
        }
        let mut ck2 = ck.clone();
        let values: Vec<FieldValue> = ck2
            .field_names()
            .map(|n| {
                dk.fields
                    .iter()
                    .find(|f| f.name == n)
                    .map_or(FieldValue::Null, |f| {
                        FieldValue::from_json(n, d.field(n).unwrap().field_type, &f.value).unwrap()
                    })
            })
            .collect();
        assert_eq!(to_hex(&ck2.encode_values(&values).unwrap()), h, "{doc}");
        let _ = record;
        decoded += 1;
    }
    eprintln!("{decoded} keys decoded and verified");
    assert!(decoded >= 150, "only {decoded} keys decoded and verified");
}

/// A design read from `sql` with `reads` (JSON) added.
fn with_reads(sql: &str, reads: Value) -> DesignDocument {
    let doc = rowkey_lab::design::phoenix::parse_create_table(sql).unwrap();
    let mut v: Value = serde_json::from_str(&doc.to_json()).unwrap();
    v["reads"] = reads;
    DesignDocument::from_json(&v.to_string()).unwrap()
}

fn scans(doc: &DesignDocument) -> Vec<Vec<(String, String)>> {
    doc.plan_reads(&[])
        .unwrap()
        .into_iter()
        .map(|p| {
            p.scans
                .into_iter()
                .map(|s| (s.start_row_hex, s.stop_row_hex))
                .collect()
        })
        .collect()
}

/// Reads on the leading key columns become Phoenix's scans: the columns' own bytes, a DESC
/// column's range inverted, one scan per salt bucket.
#[test]
fn reads_plan_phoenix_scans() {
    let doc = with_reads(
        "CREATE TABLE t (host VARCHAR NOT NULL, ts DATE NOT NULL \
         CONSTRAINT pk PRIMARY KEY (host, ts DESC)) SALT_BUCKETS = 4",
        json!([
            {"type": "range", "name": "a, ts in [1000, 2000)",
             "from": {"HOST": "a", "TS": 1000}, "to": {"HOST": "a", "TS": 2000}},
            {"type": "prefix", "record": {"HOST": "a"}},
            {"type": "get", "record": {"HOST": "a", "TS": 1000}}
        ]),
    );
    let plans = scans(&doc);
    // DATE 1000 = 80000000000003e8, inverted 7ffffffffffffc17; DATE 2000 = 80000000000007d0,
    // inverted 7ffffffffffff82f. ts < 2000 is inverted bytes > ...f82f: from ...f830; ts >= 1000
    // is inverted bytes <= ...fc17: up to ...fc18. "a" is 61, then its 00 separator.
    let range: Vec<(String, String)> = (0..4)
        .map(|b| {
            (
                format!("{b:02x}61007ffffffffffff830"),
                format!("{b:02x}61007ffffffffffffc18"),
            )
        })
        .collect();
    assert_eq!(plans[0], range);
    let prefix: Vec<(String, String)> = (0..4)
        .map(|b| (format!("{b:02x}6100"), format!("{b:02x}6101")))
        .collect();
    assert_eq!(plans[1], prefix);
    let rest = hex("61007ffffffffffffc17");
    let salt = rowkey_lab::hbase::salt::phoenix::salt_for(&rest, 4).unwrap();
    let key = format!("{salt:02x}{}", to_hex(&rest));
    assert_eq!(plans[2], vec![(key.clone(), format!("{key}00"))]);

    // Unsalted, ASC: the range is the values' bytes; a leading VARCHAR range needs no separator.
    let doc = with_reads(
        "CREATE TABLE t (host VARCHAR NOT NULL, n INTEGER NOT NULL CONSTRAINT pk PRIMARY KEY (host, n))",
        json!([
            {"type": "range", "from": {"HOST": "a"}, "to": {"HOST": "c"}},
            {"type": "range", "from": {"HOST": "a", "N": -1}, "to": {"HOST": "a", "N": 2}}
        ]),
    );
    // INTEGER -1 = 7fffffff, 2 = 80000002 (sign bit flipped).
    assert_eq!(
        scans(&doc),
        vec![
            vec![("61".to_string(), "63".to_string())],
            vec![("61007fffffff".to_string(), "610080000002".to_string())]
        ]
    );
}

#[test]
fn generated_values_fit_their_columns() {
    // Every type's generator writes keys the column takes: the design analyses.
    let doc = rowkey_lab::design::phoenix::parse_create_table(
        "CREATE TABLE t (a DECIMAL(2,2) NOT NULL, b DECIMAL(5,1) NOT NULL, c CHAR(3) NOT NULL, \
         d TINYINT NOT NULL, e BINARY(2) NOT NULL, f VARCHAR(3) NOT NULL, g TIMESTAMP NOT NULL, \
         h BOOLEAN NOT NULL, i UNSIGNED_LONG NOT NULL, j FLOAT NOT NULL, k VARBINARY NOT NULL \
         CONSTRAINT pk PRIMARY KEY (a, b, c, d, e, f, g, h, i, j, k))",
    )
    .unwrap();
    let json = doc.to_json().replacen(
        "\"v\": 1,",
        "\"v\": 1, \"workload\": {\"records\": 500},",
        1,
    );
    let doc = DesignDocument::from_json(&json).unwrap();
    let opts = rowkey_lab::analyze::AnalyzeOptions::default();
    let r = rowkey_lab::analyze::analyze(&doc, &opts).unwrap();
    assert_eq!(r.writes, 500);
}

mod differential {
    //! Random Phoenix tables and values: the key language's `pk(...)` keys (through a design
    //! document) against the port's `row_key`, equal bytes or the same refusal; every key
    //! decodes without panicking, and a verified decode gives the values back.

    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;
    use rowkey_lab::design::DesignDocument;
    use rowkey_lab::hbase::phoenix::types::ALL_TYPES;
    use rowkey_lab::hbase::phoenix::{
        row_key, Decimal, PhoenixColumn, PhoenixTable, PhoenixType, PhoenixValue, SortOrder,
        Timestamp,
    };
    use rowkey_lab::keyspec::{CompiledKey, FieldType, FieldValue};
    use serde_json::json;

    const DECIMALS: &[&str] = &[
        "0", "-0.000", "1.5", "123.456", "-1", "99.99", "1E+3", "-7.25",
    ];

    fn column(rng: &mut Xoshiro256PlusPlus, i: usize) -> PhoenixColumn {
        let t = ALL_TYPES[rng.gen_range(0..ALL_TYPES.len())];
        let needs = matches!(t, PhoenixType::Char | PhoenixType::Binary);
        let takes = needs
            || matches!(
                t,
                PhoenixType::Varchar | PhoenixType::Varbinary | PhoenixType::Decimal
            );
        let max_length = (takes && (needs || rng.gen())).then(|| rng.gen_range(1..8));
        let scale = match (t, max_length) {
            (PhoenixType::Decimal, Some(p)) if rng.gen() => Some(rng.gen_range(0..=p)),
            _ => None,
        };
        PhoenixColumn {
            name: format!("K{i}"),
            data_type: t,
            sort_order: if rng.gen() {
                SortOrder::Asc
            } else {
                SortOrder::Desc
            },
            nullable: rng.gen(),
            max_length,
            scale,
        }
    }

    /// A value and the same value as a record holds it (`None`: NULL).
    fn value(rng: &mut Xoshiro256PlusPlus, t: PhoenixType) -> (Option<PhoenixValue>, FieldValue) {
        use PhoenixValue as V;
        if rng.gen_ratio(1, 8) {
            return (None, FieldValue::Null);
        }
        let (v, f) = match t {
            PhoenixType::Integer | PhoenixType::UnsignedInt => {
                let x: i32 = rng.gen();
                (V::Integer(x), FieldValue::Long(i64::from(x)))
            }
            PhoenixType::Bigint
            | PhoenixType::UnsignedLong
            | PhoenixType::Date
            | PhoenixType::Time => {
                let x: i64 = rng.gen();
                let v = match t {
                    PhoenixType::Date => V::Date(x),
                    PhoenixType::Time => V::Time(x),
                    _ => V::Long(x),
                };
                (v, FieldValue::Long(x))
            }
            PhoenixType::Smallint => {
                let x: i16 = rng.gen();
                (V::Short(x), FieldValue::Long(i64::from(x)))
            }
            PhoenixType::Tinyint => {
                let x: i8 = rng.gen();
                (V::Byte(x), FieldValue::Long(i64::from(x)))
            }
            PhoenixType::Float => {
                let x = f32::from_bits(rng.gen());
                (V::Float(x), FieldValue::Double(f64::from(x)))
            }
            PhoenixType::Double => {
                let x = f64::from_bits(rng.gen());
                (V::Double(x), FieldValue::Double(x))
            }
            PhoenixType::Decimal => {
                let s = DECIMALS[rng.gen_range(0..DECIMALS.len())];
                let f = FieldValue::from_json("d", FieldType::BigDecimal, &json!(s)).unwrap();
                (V::Decimal(Decimal::parse(s).unwrap()), f)
            }
            PhoenixType::Varchar | PhoenixType::Char => {
                let s: String = (0..rng.gen_range(0..5))
                    .map(|_| ['a', 'b', 'é', '€', ' ', 'z'][rng.gen_range(0..6)])
                    .collect();
                (V::string(&s), FieldValue::Str(s))
            }
            PhoenixType::Varbinary | PhoenixType::Binary => {
                let s: String = (0..rng.gen_range(0..5))
                    .map(|_| char::from(rng.gen_range(0x20u8..0x7f)))
                    .collect();
                (V::Bytes(s.clone().into_bytes()), FieldValue::Str(s))
            }
            PhoenixType::Boolean => {
                let b: bool = rng.gen();
                (V::Boolean(b), FieldValue::Bool(b))
            }
            PhoenixType::Timestamp => {
                let secs: i64 = rng.gen_range(-10_000_000_000..10_000_000_000);
                let nanos: i32 = rng.gen_range(0..1_000_000_000);
                // secs + nanos / 1e9 as decimal text, written out.
                let total = i128::from(secs) * 1_000_000_000 + i128::from(nanos);
                let sign = if total < 0 { "-" } else { "" };
                let a = total.unsigned_abs();
                let text = format!("{sign}{}.{:09}", a / 1_000_000_000, a % 1_000_000_000);
                let f = FieldValue::from_json("t", FieldType::BigDecimal, &json!(text)).unwrap();
                (
                    V::Timestamp(Timestamp::from_epoch_second(secs, nanos).unwrap()),
                    f,
                )
            }
        };
        (Some(v), f)
    }

    fn field_type(t: PhoenixType) -> &'static str {
        match t {
            PhoenixType::Integer | PhoenixType::UnsignedInt => "int",
            PhoenixType::Smallint | PhoenixType::Tinyint => "short",
            PhoenixType::Bigint | PhoenixType::UnsignedLong => "long",
            PhoenixType::Float => "float",
            PhoenixType::Double => "double",
            PhoenixType::Decimal | PhoenixType::Timestamp => "bigDecimal",
            PhoenixType::Boolean => "boolean",
            PhoenixType::Date | PhoenixType::Time => "timestamp",
            _ => "string",
        }
    }

    #[test]
    fn language_keys_equal_the_port_s() {
        let (mut same, mut refused) = (0, 0);
        for seed in 0..2000u64 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let n = rng.gen_range(1..5);
            let columns: Vec<PhoenixColumn> = (0..n).map(|i| column(&mut rng, i)).collect();
            let salt = rng.gen_ratio(1, 3).then(|| rng.gen_range(1..=256));
            let table = PhoenixTable {
                name: "T".into(),
                columns: columns.clone(),
                salt_buckets: salt,
                row_key_order_optimizable: true,
            };
            let (values, record): (Vec<_>, Vec<_>) =
                columns.iter().map(|c| value(&mut rng, c.data_type)).unzip();
            let mut key = salt
                .map(|n| vec![json!({"kind": "salt", "buckets": n, "hash": "phoenix"})])
                .unwrap_or_default();
            for c in &columns {
                key.push(serde_json::to_value(rowkey_lab::keyspec::phoenix::segment(c)).unwrap());
            }
            let fields: Vec<_> = columns
                .iter()
                .map(|c| json!({"name": c.name, "type": field_type(c.data_type)}))
                .collect();
            let doc = json!({"v": 1, "fields": fields, "key": {"segments": key}}).to_string();
            let d = DesignDocument::from_json(&doc)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{doc}"));
            let mut ck = CompiledKey::new(&d.key, &d.key_fields()).unwrap();
            let ours = ck.encode_values(&record);
            let port = row_key(&table, &values);
            match (&ours, &port) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a, b, "seed {seed}: {doc} {values:?}");
                    same += 1;
                    // Keys Phoenix cannot split back (a NULL fixed-width column written as no
                    // bytes, a separator inside a value) may be refused; one that decodes and
                    // verifies gives its values back.
                    let Ok(dk) = ck.decode(a) else { continue };
                    if dk.verified == Some(true) {
                        let back: Vec<FieldValue> = ck
                            .field_names()
                            .map(|n| {
                                let ty = d.field(n).unwrap().field_type;
                                dk.fields
                                    .iter()
                                    .find(|f| f.name == n)
                                    .map_or(FieldValue::Null, |f| {
                                        FieldValue::from_json(n, ty, &f.value).unwrap()
                                    })
                            })
                            .collect();
                        assert_eq!(ck.encode_values(&back).as_ref(), Ok(a), "seed {seed}");
                    }
                }
                (Err(a), Err(b)) => {
                    assert_eq!(a.kind, b.kind, "seed {seed}: {a} / {b}");
                    refused += 1;
                }
                _ => panic!("seed {seed}: {doc}\n{values:?}\nlanguage {ours:?}\nport {port:?}"),
            }
        }
        // Both outcomes are exercised.
        assert!(
            same > 500 && refused > 100,
            "{same} keys, {refused} refusals"
        );
    }
}

/// A latest read is newest-first when a DESC time column follows the entity: one scan with a
/// limit, or one per salt bucket, each with the limit, merged.
#[test]
fn latest_reads_use_a_desc_time_column() {
    let latest = json!([{"type": "latest", "record": {"HOST": "a"}, "n": 10}]);
    let unsalted = with_reads(
        "CREATE TABLE t (host VARCHAR NOT NULL, ts DATE NOT NULL CONSTRAINT pk PRIMARY KEY (host, ts DESC))",
        latest.clone(),
    );
    let p = unsalted.plan_reads(&[]).unwrap();
    assert_eq!((p[0].limit, p[0].scans.len()), (Some(10), 1));
    assert_eq!(p[0].rows_read_per_row_returned, Some(1.0));
    let salted = with_reads(
        "CREATE TABLE t (host VARCHAR NOT NULL, ts DATE NOT NULL CONSTRAINT pk PRIMARY KEY (host, ts DESC)) SALT_BUCKETS = 4",
        latest.clone(),
    );
    let p = salted.plan_reads(&[]).unwrap();
    // Four scans of at most 10 rows each for the newest 10: 4 rows read per row returned.
    assert_eq!((p[0].limit, p[0].scans.len()), (Some(10), 4));
    assert_eq!(p[0].rows_read_per_row_returned, Some(4.0));
    let ascending = with_reads(
        "CREATE TABLE t (host VARCHAR NOT NULL, ts DATE NOT NULL CONSTRAINT pk PRIMARY KEY (host, ts))",
        latest,
    );
    let p = ascending.plan_reads(&[]).unwrap();
    assert_eq!(p[0].limit, None);
    assert!(
        p[0].notes.iter().any(|n| n.contains("whole entity")),
        "{:?}",
        p[0].notes
    );
}

/// A design read from a statement says what it invented: the statement gives the key, not the
/// data, so the workload and each key column's values are guesses until the user sets them.
#[test]
fn a_design_read_from_a_statement_says_what_it_invented() {
    let d = rowkey_lab::design::phoenix::parse_create_table(
        "CREATE TABLE T (TENANT VARCHAR(6) NOT NULL, TS DATE NOT NULL, V INTEGER \
         CONSTRAINT PK PRIMARY KEY (TENANT, TS)) SALT_BUCKETS = 4",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let text = d.description.unwrap_or_default();
    assert!(
        text.contains("The statement gives the key, not the data"),
        "{text}"
    );
    // each key column named with what was invented for it, and the workload's defaults
    assert!(
        text.contains("TENANT random 6-character text, almost every row a new value"),
        "{text}"
    );
    assert!(text.contains("TS the write time"), "{text}");
    assert!(text.contains("100000 records at 1000 a second"), "{text}");
}
