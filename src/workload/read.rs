//! Readers of the workload: the `workload` section, field declarations and generators.

use crate::keyspec::read::{field_type, FIELD_TYPES};
use crate::support::json::{
    bool_, bytes_u64, f64_, f64s, i64_, object_reader, string, strings, tagged_reader, u32_, u64_,
    unit, value, values, Json, Node, R,
};
use crate::workload::{self, FieldDecl, Generator, ListOrder, WorkloadSpec};
use crate::workload::{MAX_RECORDS, MAX_VALUE_SIZE};

object_reader! {
    /// A [`FieldDecl`]: `{"name", "type", "cardinality", "generator"}`.
    pub fn field_decl(n) -> FieldDecl; "struct FieldDecl";
    /// A field declaration's members, as [`field_decl`] reads them.
    table FIELD_DECL;
    FieldDecl {
        /// The field name, as the key and records use it. Not empty; unique in the document.
        name: req("name", string),
        /// The field's type: how the key encodes it and which JSON values a record may give
        /// ([keyspec.md, Records and field types](keyspec.md#records-and-field-types)).
        /// `timestamp` is milliseconds since the epoch.
        field_type: req("type", field_type) of FIELD_TYPES,
        /// How many distinct values the field has in the real data. The linter's
        /// `cardinality-order` rule uses it (few-valued fields belong first), the read planner
        /// estimates rows read from it, and a string, integer or bigDecimal field without a
        /// generator draws from that many values.
        cardinality: opt("cardinality", u64_),
        /// How the analysis generates the field's values; absent, a generator chosen by the
        /// field's type (see [Generators](#generators)).
        generator: opt("generator", generator),
    }
}

object_reader! {
    /// A [`WorkloadSpec`].
    pub fn workload(n) -> WorkloadSpec; "struct WorkloadSpec";
    /// The workload's members, as [`workload()`] reads them.
    table WORKLOAD;
    WorkloadSpec {
        /// How many records to write (100,000 when `workload` is absent).
        records: req("records", u64_) in 1 ..= MAX_RECORDS,
        /// The seed of every field's generator. Change it to see whether a result depends on
        /// luck.
        seed: or("seed", u64_, 0) = "0",
        /// Records per second, more than 0 and at most 10⁹. It sets the time axis (and the
        /// `clock` generator's default rate), not a throughput limit.
        write_rate: or("writeRate", f64_, WorkloadSpec::default().write_rate) = "1000",
        /// Bytes of cell data per record besides the row key (10 MiB at most, HBase's
        /// `hbase.client.keyvalue.maxsize`). A region's size is the sum of its rows' key
        /// length + `valueSize`: it decides when [auto-split](#autosplit) splits. Bytes, or a
        /// size with a unit (`"2 KiB"`).
        value_size: or("valueSize", bytes_u64, WorkloadSpec::default().value_size) = "100" in 0 ..= MAX_VALUE_SIZE,
        /// The write time of record 0 (2021-09-07T00:00:00Z by default): milliseconds since
        /// the epoch, or an ISO-8601 date-time as records take it (`"2022-01-01T00:00:00Z"`,
        /// an offset such as `+08:00`, or a bare date at midnight UTC); the normalized
        /// document says milliseconds. The last record's time must fit in 64 bits.
        start_time: or("startTime", epoch_ms, WorkloadSpec::default().start_time) = "1630972800000",
    }
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

/// A list generator's orders by their document names.
const LIST_ORDERS: [(&str, ListOrder); 2] = [
    ("uniform", ListOrder::Uniform),
    ("sequential", ListOrder::Sequential),
];

fn list_order(n: &Node) -> R<ListOrder> {
    unit(n, &LIST_ORDERS)
}

tagged_reader! {
    /// A [`Generator`]: `{"kind": "zipf", "n": 1000, "s": 1.1}`.
    pub fn generator(n) -> Generator; "internally tagged enum Generator", tag "kind";
    /// The generator kinds and their members, as [`generator`] reads them.
    table GENERATORS;
    /// Monotonic ids, `start`, `start + step`, …: the classic hotspot when the key starts
    /// with them. Fills integer fields.
    "sequence" => Generator::Sequence {
        /// The first value.
        start: or("start", i64_, 0) = "0",
        /// The step between values.
        step: or("step", i64_, workload::one()) = "1",
    },
    /// Event times: `start + floor(i × 1000 / rate)` ms, plus a uniform jitter in
    /// [−`jitterMs`, +`jitterMs`]. With the defaults the value is the record's write time.
    "clock" => Generator::Clock {
        /// The first tick (ms or an ISO-8601 date-time); absent, the workload's `startTime`.
        start: opt("start", epoch_ms),
        /// Ticks per second, at most 10⁹; absent, the workload's `writeRate`.
        rate: opt("rate", f64_),
        /// The jitter's bound in ms, at most 10¹².
        jitter_ms: or("jitterMs", u64_, 0) = "0",
    },
    /// Uniform in [`min`, `max`]: ids without skew. Fills integer fields.
    "uniformInt" => Generator::UniformInt {
        /// The least value.
        min: req("min", i64_),
        /// The largest value, at least `min`.
        max: req("max", i64_),
    },
    /// Uniform in [`min`, `max`): measurements. Fills double and float fields, integer
    /// fields (truncated), string and bigDecimal fields (Java's `Double.toString` text).
    "uniformDouble" => Generator::UniformDouble {
        /// The least value.
        min: or("min", f64_, 0.0) = "0",
        /// The bound the values stay below.
        max: or("max", f64_, workload::one_f()) = "1",
    },
    /// `length` characters drawn uniformly from `alphabet`: random codes, VINs, hostnames.
    /// Fills string fields.
    "uniformString" => Generator::UniformString {
        /// How many characters, at most 4,096.
        length: req("length", u32_),
        /// The characters drawn from; absent, `0-9A-Za-z`.
        alphabet: opt("alphabet", string),
    },
    /// A few very busy customers or devices: `offset` … `offset + n − 1`, rank r drawn with
    /// probability ∝ 1 / r^`s`. Fills integer fields.
    "zipf" => Generator::Zipf {
        /// How many values, 1 to 2⁵³.
        n: req("n", u64_),
        /// The skew, 0 (uniform) to 100.
        s: or("s", f64_, workload::default_zipf_s()) = "0.99",
        /// The first value.
        offset: or("offset", i64_, 0) = "0",
        /// Scatter the hot values over the range, as YCSB's `ScrambledZipfianGenerator` does.
        scramble: or("scramble", bool_, workload::yes()) = "true",
    },
    /// YCSB's `latest`: record i takes the id `offset + i − (r − 1)`, r Zipf over the
    /// `window` newest ids. Activity on recently created entities; fills integer fields.
    "latest" => Generator::Latest {
        /// The skew, as `zipf`'s.
        s: or("s", f64_, workload::default_zipf_s()) = "0.99",
        /// How many of the newest ids are drawn from (1 to 2⁵³); absent, all written so far.
        window: opt("window", u64_),
        /// The first id.
        offset: or("offset", i64_, 0) = "0",
    },
    /// YCSB's `hotspot`: a share `hotOpFraction` of the draws falls uniformly in the first
    /// `hotSetFraction` of [`min`, `max`], the rest in the remainder. Fills integer fields.
    "hotspot" => Generator::Hotspot {
        /// The least value.
        min: req("min", i64_),
        /// The largest value.
        max: req("max", i64_),
        /// The hot share of the range, 0 to 1.
        hot_set_fraction: or("hotSetFraction", f64_, workload::default_hot_set()) = "0.2",
        /// The share of draws that fall in it, 0 to 1.
        hot_op_fraction: or("hotOpFraction", f64_, workload::default_hot_op()) = "0.8",
    },
    /// One of `values`, with probability ∝ its weight: a known mix. Fills any field.
    "weighted" => Generator::Weighted {
        /// The values (at most 1,000,000), converted to the field's type.
        values: req("values", values),
        /// One weight per value, each ≥ 0, at least one > 0.
        weights: req("weights", f64s),
    },
    /// A prefix followed by `digits` random digits: subscribers, a few of them busy. Fills
    /// string fields, and integer fields when every prefix is digits and a prefix plus
    /// `digits` is at most 18 digits.
    "phone" => Generator::Phone {
        /// The prefixes (at most 1,000,000).
        prefixes: or("prefixes", strings, workload::default_phone_prefixes()) = "[\"1\"]",
        /// Digits after the prefix, at most 18.
        digits: or("digits", u32_, workload::default_phone_digits()) = "10",
        /// Numbers from a fixed set of this many phones (at most `prefixes` × 10^`digits`);
        /// absent, unbounded.
        distinct: opt("distinct", u64_),
        /// The skew over the `distinct` phones (Zipf); absent, uniform.
        s: opt("s", f64_),
    },
    /// A random version 4 UUID, `0f8fad5b-d9cb-469f-a165-70867728950e`. Fills string fields.
    "uuid" => Generator::Uuid {
        /// No dashes.
        compact: or("compact", bool_, false) = "false",
        /// Upper-case hex digits.
        upper_case: or("upperCase", bool_, false) = "false",
    },
    /// One of `values`, uniformly or in turn: a fixed set. Fills any field.
    "list" => Generator::List {
        /// The values (1 to 1,000,000), converted to the field's type.
        values: req("values", values),
        /// `uniform`, or `sequential`: record i takes value i mod length.
        order: or("order", list_order, ListOrder::Uniform) = "\"uniform\"" of LIST_ORDERS,
    },
    /// The same value in every record: a field the key needs but that does not vary.
    "constant" => Generator::Constant {
        /// The value, converted to the field's type.
        value: req("value", value),
    },
    /// `true` with probability `p`: flags. Fills boolean and string fields.
    "boolean" => Generator::Boolean {
        /// The probability of `true`, 0 to 1.
        p: or("p", f64_, workload::half()) = "0.5",
    },
}

crate::support::json::deserialize_through! {
    WorkloadSpec => workload,
    Generator => generator,
}
