//! Readers of the workload: the `workload` section, field declarations and generators.

use crate::keyspec::read::field_type;
use crate::support::json::{
    bool_, f64_, f64s, i64_, string, strings, tag, u32_, u64_, unit, value, values, Json, Node,
    Obj, R,
};
use crate::workload::{self, FieldDecl, Generator, ListOrder, WorkloadSpec};

/// A [`FieldDecl`]: `{"name", "type", "cardinality", "generator"}`.
pub fn field_decl(n: &Node) -> R<FieldDecl> {
    let o = Obj::new(
        n,
        "struct FieldDecl",
        &["name", "type", "cardinality", "generator"],
        None,
        false,
    )?;
    Ok(FieldDecl {
        name: o.req("name", string)?,
        field_type: o.req("type", field_type)?,
        cardinality: o.opt("cardinality", u64_)?,
        generator: o.opt("generator", generator)?,
    })
}

/// A [`WorkloadSpec`].
pub fn workload(n: &Node) -> R<WorkloadSpec> {
    let o = Obj::new(
        n,
        "struct WorkloadSpec",
        &["records", "seed", "writeRate", "valueSize", "startTime"],
        None,
        false,
    )?;
    let d = WorkloadSpec::default();
    Ok(WorkloadSpec {
        records: o.req("records", u64_)?,
        seed: o.or("seed", u64_, 0)?,
        write_rate: o.or("writeRate", f64_, d.write_rate)?,
        value_size: o.or("valueSize", u64_, d.value_size)?,
        start_time: o.or("startTime", epoch_ms, d.start_time)?,
    })
}

/// A time: ms since the epoch, or an ISO-8601 date-time as records take it
/// (`2021-09-01T00:00:00Z`, an offset, or a bare date at midnight UTC).
fn epoch_ms(n: &Node) -> R<i64> {
    match &n.v {
        Json::Str(s) => crate::keyspec::time::parse_iso(s.trim()).ok_or_else(|| {
            n.error(format!("`{s}` is not a time: give ms since the epoch or an ISO-8601 date-time such as 2021-09-01T00:00:00Z"))
        }),
        _ => i64_(n),
    }
}

const GENERATOR_KINDS: &[&str] = &[
    "sequence",
    "clock",
    "uniformInt",
    "uniformDouble",
    "uniformString",
    "zipf",
    "latest",
    "hotspot",
    "weighted",
    "phone",
    "uuid",
    "list",
    "constant",
    "boolean",
];

/// A [`Generator`]: `{"kind": "zipf", "n": 1000, "s": 1.1}`.
pub fn generator(n: &Node) -> R<Generator> {
    let k = tag(
        n,
        "internally tagged enum Generator",
        "kind",
        GENERATOR_KINDS,
    )?;
    let obj = |fields: &[&str]| Obj::new(n, "struct variant", fields, Some("kind"), false);
    Ok(match k {
        0 => {
            let o = obj(&["start", "step"])?;
            Generator::Sequence {
                start: o.or("start", i64_, 0)?,
                step: o.or("step", i64_, workload::one())?,
            }
        }
        1 => {
            let o = obj(&["start", "rate", "jitterMs"])?;
            Generator::Clock {
                start: o.opt("start", epoch_ms)?,
                rate: o.opt("rate", f64_)?,
                jitter_ms: o.or("jitterMs", u64_, 0)?,
            }
        }
        2 => {
            let o = obj(&["min", "max"])?;
            Generator::UniformInt {
                min: o.req("min", i64_)?,
                max: o.req("max", i64_)?,
            }
        }
        3 => {
            let o = obj(&["min", "max"])?;
            Generator::UniformDouble {
                min: o.or("min", f64_, 0.0)?,
                max: o.or("max", f64_, workload::one_f())?,
            }
        }
        4 => {
            let o = obj(&["length", "alphabet"])?;
            Generator::UniformString {
                length: o.req("length", u32_)?,
                alphabet: o.opt("alphabet", string)?,
            }
        }
        5 => {
            let o = obj(&["n", "s", "offset", "scramble"])?;
            Generator::Zipf {
                n: o.req("n", u64_)?,
                s: o.or("s", f64_, workload::default_zipf_s())?,
                offset: o.or("offset", i64_, 0)?,
                scramble: o.or("scramble", bool_, workload::yes())?,
            }
        }
        6 => {
            let o = obj(&["s", "window", "offset"])?;
            Generator::Latest {
                s: o.or("s", f64_, workload::default_zipf_s())?,
                window: o.opt("window", u64_)?,
                offset: o.or("offset", i64_, 0)?,
            }
        }
        7 => {
            let o = obj(&["min", "max", "hotSetFraction", "hotOpFraction"])?;
            Generator::Hotspot {
                min: o.req("min", i64_)?,
                max: o.req("max", i64_)?,
                hot_set_fraction: o.or("hotSetFraction", f64_, workload::default_hot_set())?,
                hot_op_fraction: o.or("hotOpFraction", f64_, workload::default_hot_op())?,
            }
        }
        8 => {
            let o = obj(&["values", "weights"])?;
            Generator::Weighted {
                values: o.req("values", values)?,
                weights: o.req("weights", f64s)?,
            }
        }
        9 => {
            let o = obj(&["prefixes", "digits", "distinct", "s"])?;
            Generator::Phone {
                prefixes: match o.get("prefixes") {
                    None => workload::default_phone_prefixes(),
                    Some(_) => o.req("prefixes", strings)?,
                },
                digits: o.or("digits", u32_, workload::default_phone_digits())?,
                distinct: o.opt("distinct", u64_)?,
                s: o.opt("s", f64_)?,
            }
        }
        10 => {
            let o = obj(&["compact", "upperCase"])?;
            Generator::Uuid {
                compact: o.or("compact", bool_, false)?,
                upper_case: o.or("upperCase", bool_, false)?,
            }
        }
        11 => {
            let o = obj(&["values", "order"])?;
            Generator::List {
                values: o.req("values", values)?,
                order: o.or(
                    "order",
                    |n| {
                        unit(
                            n,
                            &[
                                ("uniform", ListOrder::Uniform),
                                ("sequential", ListOrder::Sequential),
                            ],
                        )
                    },
                    ListOrder::Uniform,
                )?,
            }
        }
        12 => {
            let o = obj(&["value"])?;
            Generator::Constant {
                value: o.req("value", value)?,
            }
        }
        _ => {
            let o = obj(&["p"])?;
            Generator::Boolean {
                p: o.or("p", f64_, workload::half())?,
            }
        }
    })
}

crate::support::json::deserialize_through! {
    WorkloadSpec => workload,
    Generator => generator,
}
