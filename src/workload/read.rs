//! Readers of the workload: the `workload` section, field declarations and generators.

use crate::keyspec::read::field_type;
use crate::support::json::{
    bool_, f64_, f64s, i64_, read_object, string, strings, tagged_reader, u32_, u64_, unit, value,
    values, Json, Node, R,
};
use crate::workload::{self, FieldDecl, Generator, ListOrder, WorkloadSpec};

/// A [`FieldDecl`]: `{"name", "type", "cardinality", "generator"}`.
pub fn field_decl(n: &Node) -> R<FieldDecl> {
    Ok(read_object!(
        n,
        "struct FieldDecl",
        None,
        FieldDecl {
            name: req("name", string),
            field_type: req("type", field_type),
            cardinality: opt("cardinality", u64_),
            generator: opt("generator", generator),
        }
    ))
}

/// A [`WorkloadSpec`].
pub fn workload(n: &Node) -> R<WorkloadSpec> {
    let d = WorkloadSpec::default();
    Ok(read_object!(
        n,
        "struct WorkloadSpec",
        None,
        WorkloadSpec {
            records: req("records", u64_),
            seed: or("seed", u64_, 0),
            write_rate: or("writeRate", f64_, d.write_rate),
            value_size: or("valueSize", u64_, d.value_size),
            start_time: or("startTime", epoch_ms, d.start_time),
        }
    ))
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

fn list_order(n: &Node) -> R<ListOrder> {
    unit(
        n,
        &[
            ("uniform", ListOrder::Uniform),
            ("sequential", ListOrder::Sequential),
        ],
    )
}

tagged_reader! {
    /// A [`Generator`]: `{"kind": "zipf", "n": 1000, "s": 1.1}`.
    pub fn generator(n) -> Generator; "internally tagged enum Generator", tag "kind";
    /// The generator kinds and their members, as [`generator`] reads them.
    table GENERATORS;
    "sequence" => Generator::Sequence {
        start: or("start", i64_, 0),
        step: or("step", i64_, workload::one()),
    },
    "clock" => Generator::Clock {
        start: opt("start", epoch_ms),
        rate: opt("rate", f64_),
        jitter_ms: or("jitterMs", u64_, 0),
    },
    "uniformInt" => Generator::UniformInt {
        min: req("min", i64_),
        max: req("max", i64_),
    },
    "uniformDouble" => Generator::UniformDouble {
        min: or("min", f64_, 0.0),
        max: or("max", f64_, workload::one_f()),
    },
    "uniformString" => Generator::UniformString {
        length: req("length", u32_),
        alphabet: opt("alphabet", string),
    },
    "zipf" => Generator::Zipf {
        n: req("n", u64_),
        s: or("s", f64_, workload::default_zipf_s()),
        offset: or("offset", i64_, 0),
        scramble: or("scramble", bool_, workload::yes()),
    },
    "latest" => Generator::Latest {
        s: or("s", f64_, workload::default_zipf_s()),
        window: opt("window", u64_),
        offset: or("offset", i64_, 0),
    },
    "hotspot" => Generator::Hotspot {
        min: req("min", i64_),
        max: req("max", i64_),
        hot_set_fraction: or("hotSetFraction", f64_, workload::default_hot_set()),
        hot_op_fraction: or("hotOpFraction", f64_, workload::default_hot_op()),
    },
    "weighted" => Generator::Weighted {
        values: req("values", values),
        weights: req("weights", f64s),
    },
    "phone" => Generator::Phone {
        prefixes: or("prefixes", strings, workload::default_phone_prefixes()),
        digits: or("digits", u32_, workload::default_phone_digits()),
        distinct: opt("distinct", u64_),
        s: opt("s", f64_),
    },
    "uuid" => Generator::Uuid {
        compact: or("compact", bool_, false),
        upper_case: or("upperCase", bool_, false),
    },
    "list" => Generator::List {
        values: req("values", values),
        order: or("order", list_order, ListOrder::Uniform),
    },
    "constant" => Generator::Constant {
        value: req("value", value),
    },
    "boolean" => Generator::Boolean {
        p: or("p", f64_, workload::half()),
    },
}

crate::support::json::deserialize_through! {
    WorkloadSpec => workload,
    Generator => generator,
}
