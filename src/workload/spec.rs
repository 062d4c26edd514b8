//! The workload half of the design document: [`WorkloadSpec`] (record count, seed, write
//! rate, value size, start time) and the per-field [`Generator`] choices with their serde
//! defaults. Plain data and its validation, kept apart from the sampling machinery.

use serde::Serialize;

use super::{invalid, DEFAULT_START_TIME_MS, MAX_RECORDS, MAX_VALUE_SIZE, MAX_WRITE_RATE};
use crate::error::Result;
use crate::keyspec::{Field, FieldType};

/// Record count, seed, write rate, value size and start time of a workload.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WorkloadSpec {
    /// How many records to write (1 to [`MAX_RECORDS`]).
    pub records: u64,
    /// The seed: the same seed gives the same records on every platform.
    #[serde(default)]
    pub seed: u64,
    /// Records written per second; record `i` is written at `startTime + i * 1000 / writeRate` ms.
    #[serde(default = "default_write_rate")]
    pub write_rate: f64,
    /// Bytes of cell data per record besides the key (for region sizes and split timing).
    #[serde(default = "default_value_size")]
    pub value_size: u64,
    /// The write time of the first record, in milliseconds since the Unix epoch.
    #[serde(default = "default_start_time")]
    pub start_time: i64,
}

fn default_write_rate() -> f64 {
    1000.0
}
fn default_value_size() -> u64 {
    100
}
fn default_start_time() -> i64 {
    DEFAULT_START_TIME_MS
}

impl Default for WorkloadSpec {
    fn default() -> Self {
        WorkloadSpec {
            records: 100_000,
            seed: 0,
            write_rate: default_write_rate(),
            value_size: default_value_size(),
            start_time: default_start_time(),
        }
    }
}

impl WorkloadSpec {
    /// Checks the record count, the write rate and the value size.
    pub fn validate(&self) -> Result<()> {
        if self.records == 0 {
            return Err(crate::error::Error::limit(
                "/workload/records",
                "the record count must be at least 1",
            ));
        }
        if self.records > MAX_RECORDS {
            return Err(invalid(
                "/workload/records",
                format!(
                    "{} records is more than the {MAX_RECORDS} this analyzer accepts",
                    self.records
                ),
            ));
        }
        if !(self.write_rate.is_finite() && self.write_rate > 0.0) {
            return Err(invalid(
                "/workload/writeRate",
                "the write rate must be a positive number of records per second",
            ));
        }
        if self.write_rate > MAX_WRITE_RATE {
            return Err(invalid(
                "/workload/writeRate",
                format!(
                    "a write rate above {} records per second is not supported",
                    crate::support::num_text::plain(MAX_WRITE_RATE)
                ),
            ));
        }
        if self.value_size > MAX_VALUE_SIZE {
            return Err(crate::error::Error::limit(
                "/workload/valueSize",
                format!("a value size above {MAX_VALUE_SIZE} bytes is not supported"),
            ));
        }
        let end = self.write_time(self.records - 1);
        if end.is_none() {
            return Err(invalid(
                "/workload/startTime",
                "the last record's write time does not fit in a 64-bit millisecond count",
            ));
        }
        Ok(())
    }

    /// Milliseconds between two records, `1000 / writeRate`.
    pub fn ms_per_record(&self) -> f64 {
        1000.0 / self.write_rate
    }

    /// The write time of record `index` in ms: `startTime + floor(index * 1000 / writeRate)`,
    /// or `None` when it overflows.
    pub fn write_time(&self, index: u64) -> Option<i64> {
        offset_ms(index, self.ms_per_record()).and_then(|o| self.start_time.checked_add(o))
    }

    /// The write time of the last record plus one interval: the end of the time axis.
    pub fn end_time(&self) -> Option<i64> {
        self.write_time(self.records)
    }
}

/// `floor(index * ms_per)` as an integer, `None` when it does not fit.
pub(super) fn offset_ms(index: u64, ms_per: f64) -> Option<i64> {
    let x = index as f64 * ms_per;
    // `x >= 0` here (`ms_per > 0`), where the truncating cast is the floor: no call to a
    // floor routine per record. `floor(x) < 9e18` exactly when `x < 9e18`.
    if x.is_finite() && (0.0..9.0e18).contains(&x) {
        Some(x as i64)
    } else {
        None
    }
}

/// Visit order of a list generator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ListOrder {
    /// Each record picks a value uniformly at random.
    #[default]
    Uniform,
    /// Record `i` takes value `i mod len` (round robin).
    Sequential,
}

/// How one field's values are generated. JSON: `{"kind": "zipf", "n": 1000, "s": 1.1}`.
///
/// Integer generators (sequence, clock, uniformInt, zipf, latest, hotspot) fill long, int,
/// short and timestamp fields, double and float fields (as the same number) and string and
/// bigDecimal fields (as decimal text). String generators (uniformString, phone, uuid) fill
/// string fields; a digits-only phone also fills a long. List, weighted and constant values
/// are JSON values converted to the field's type when the stream is built.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
pub enum Generator {
    /// `start, start + step, start + 2*step, ...` (monotonic ids).
    #[serde(rename_all = "camelCase")]
    Sequence {
        /// The first value.
        #[serde(default)]
        start: i64,
        /// The increment per record.
        #[serde(default = "one")]
        step: i64,
    },
    /// Timestamps in ms: `start + floor(i * 1000 / rate) ± jitter`.
    #[serde(rename_all = "camelCase")]
    Clock {
        /// The first timestamp (default: the workload's start time).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        start: Option<i64>,
        /// Ticks per second (default: the workload's write rate, so the value is the write time).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rate: Option<f64>,
        /// Uniform jitter in ms added to each value, in `[-jitterMs, +jitterMs]`.
        #[serde(default)]
        jitter_ms: u64,
    },
    /// A uniform integer in `[min, max]`.
    #[serde(rename_all = "camelCase")]
    UniformInt {
        /// The smallest value.
        min: i64,
        /// The largest value (inclusive).
        max: i64,
    },
    /// A uniform double in `[min, max)`.
    #[serde(rename_all = "camelCase")]
    UniformDouble {
        /// The smallest value.
        #[serde(default)]
        min: f64,
        /// The upper bound (exclusive).
        #[serde(default = "one_f")]
        max: f64,
    },
    /// A string of `length` characters drawn uniformly from `alphabet`.
    #[serde(rename_all = "camelCase")]
    UniformString {
        /// Number of characters.
        length: u32,
        /// The characters to draw from (default `0-9A-Za-z`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        alphabet: Option<String>,
    },
    /// Zipf over `n` distinct integers `offset .. offset + n - 1` (hot entities): rank 1 is
    /// the most frequent, with probability proportional to `1 / rank^s`.
    #[serde(rename_all = "camelCase")]
    Zipf {
        /// Number of distinct values.
        n: u64,
        /// The exponent (YCSB's default 0.99); 0 is uniform.
        #[serde(default = "default_zipf_s")]
        s: f64,
        /// The smallest value.
        #[serde(default)]
        offset: i64,
        /// Scatter the ranks over the value range with a fixed permutation, as YCSB's
        /// `ScrambledZipfianGenerator` does, so the hot values are not all neighbours.
        #[serde(default = "yes")]
        scramble: bool,
    },
    /// YCSB's `latest`: the id of a recently written record, skewed towards the newest. Record
    /// `i` has id `offset + i`; it reads id `offset + i - (r - 1)` with `r` Zipf over the
    /// `min(i + 1, window)` newest ids.
    #[serde(rename_all = "camelCase")]
    Latest {
        /// The Zipf exponent.
        #[serde(default = "default_zipf_s")]
        s: f64,
        /// How many of the newest ids are candidates (default: all written so far).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        window: Option<u64>,
        /// The id of the first record.
        #[serde(default)]
        offset: i64,
    },
    /// YCSB's `hotspot`: a fraction `hotOpFraction` of the draws fall uniformly in the first
    /// `hotSetFraction` of `[min, max]`, the rest uniformly in the remainder.
    #[serde(rename_all = "camelCase")]
    Hotspot {
        /// The smallest value.
        min: i64,
        /// The largest value (inclusive).
        max: i64,
        /// Fraction of the range that is hot (YCSB default 0.2).
        #[serde(default = "default_hot_set")]
        hot_set_fraction: f64,
        /// Fraction of the draws that go to the hot set (YCSB default 0.8).
        #[serde(default = "default_hot_op")]
        hot_op_fraction: f64,
    },
    /// One of `values`, chosen with probability proportional to `weights` (engine types,
    /// provinces).
    #[serde(rename_all = "camelCase")]
    Weighted {
        /// The values (JSON strings, numbers or booleans).
        values: Vec<serde_json::Value>,
        /// Non-negative weights, one per value; at least one positive.
        weights: Vec<f64>,
    },
    /// Phone-number-like text: a prefix from `prefixes` followed by `digits` random digits.
    /// With `distinct`, the numbers come from a fixed set of that many phones, picked
    /// uniformly or, with `s`, Zipf-skewed (a few very busy subscribers).
    #[serde(rename_all = "camelCase")]
    Phone {
        /// Number prefixes such as `["134", "135", "188"]` (default `["1"]`).
        #[serde(default = "default_phone_prefixes")]
        prefixes: Vec<String>,
        /// Random digits after the prefix (default 10, giving 11-digit numbers).
        #[serde(default = "default_phone_digits")]
        digits: u32,
        /// How many distinct phones the workload uses (default: unbounded).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        distinct: Option<u64>,
        /// Zipf exponent over the distinct phones (default: uniform).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        s: Option<f64>,
    },
    /// A random (version 4) UUID such as `0f8fad5b-d9cb-469f-a165-70867728950e`.
    #[serde(rename_all = "camelCase")]
    Uuid {
        /// Leave out the dashes (32 hex digits, like an MD5 hex string).
        #[serde(default)]
        compact: bool,
        /// Upper-case hex digits.
        #[serde(default)]
        upper_case: bool,
    },
    /// Values from a user-supplied list, picked uniformly or in order.
    #[serde(rename_all = "camelCase")]
    List {
        /// The values (JSON strings, numbers or booleans).
        values: Vec<serde_json::Value>,
        /// `uniform` (default) or `sequential`.
        #[serde(default)]
        order: ListOrder,
    },
    /// The same value in every record.
    #[serde(rename_all = "camelCase")]
    Constant {
        /// The value (a JSON string, number or boolean).
        value: serde_json::Value,
    },
    /// `true` with probability `p`.
    #[serde(rename_all = "camelCase")]
    Boolean {
        /// Probability of `true` (default 0.5).
        #[serde(default = "half")]
        p: f64,
    },
}

pub(crate) fn one() -> i64 {
    1
}
pub(crate) fn one_f() -> f64 {
    1.0
}
pub(crate) fn yes() -> bool {
    true
}
pub(crate) fn half() -> f64 {
    0.5
}
pub(crate) fn default_zipf_s() -> f64 {
    0.99
}
pub(crate) fn default_hot_set() -> f64 {
    0.2
}
pub(crate) fn default_hot_op() -> f64 {
    0.8
}
pub(crate) fn default_phone_prefixes() -> Vec<String> {
    vec!["1".to_string()]
}
pub(crate) fn default_phone_digits() -> u32 {
    10
}

impl Generator {
    /// The generator's `kind` tag, as written in JSON.
    pub fn kind(&self) -> &'static str {
        match self {
            Generator::Sequence { .. } => "sequence",
            Generator::Clock { .. } => "clock",
            Generator::UniformInt { .. } => "uniformInt",
            Generator::UniformDouble { .. } => "uniformDouble",
            Generator::UniformString { .. } => "uniformString",
            Generator::Zipf { .. } => "zipf",
            Generator::Latest { .. } => "latest",
            Generator::Hotspot { .. } => "hotspot",
            Generator::Weighted { .. } => "weighted",
            Generator::Phone { .. } => "phone",
            Generator::Uuid { .. } => "uuid",
            Generator::List { .. } => "list",
            Generator::Constant { .. } => "constant",
            Generator::Boolean { .. } => "boolean",
        }
    }

    /// The generator a field gets when it has none, chosen from its type and cardinality:
    /// timestamps follow the write clock; with a cardinality `c`, integers and strings are
    /// uniform over `c` values; otherwise strings are 8 random alphanumerics, integers are
    /// uniform over the non-negative values of their type, floats are uniform in `[0, 1)`.
    pub fn default_for(field_type: FieldType, cardinality: Option<u64>) -> Generator {
        let card = cardinality.filter(|c| *c > 0);
        let by_card = |c: u64| Generator::UniformInt {
            min: 0,
            max: i64::try_from(c - 1).unwrap_or(i64::MAX),
        };
        match field_type {
            FieldType::Timestamp => Generator::Clock {
                start: None,
                rate: None,
                jitter_ms: 0,
            },
            FieldType::String => match card {
                Some(c) => by_card(c),
                None => Generator::UniformString {
                    length: 8,
                    alphabet: None,
                },
            },
            FieldType::Long => card.map(by_card).unwrap_or(Generator::UniformInt {
                min: 0,
                max: i64::MAX,
            }),
            FieldType::Int => card.map(by_card).unwrap_or(Generator::UniformInt {
                min: 0,
                max: i64::from(i32::MAX),
            }),
            FieldType::Short => card.map(by_card).unwrap_or(Generator::UniformInt {
                min: 0,
                max: i64::from(i16::MAX),
            }),
            FieldType::BigDecimal => card.map(by_card).unwrap_or(Generator::UniformInt {
                min: 0,
                max: 999_999,
            }),
            FieldType::Double | FieldType::Float => Generator::UniformDouble { min: 0.0, max: 1.0 },
            FieldType::Boolean => Generator::Boolean { p: 0.5 },
        }
    }
}

/// One field of the record.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FieldDecl {
    /// The field name, as used in the key design and in records.
    pub name: String,
    /// The field's type.
    #[serde(rename = "type")]
    pub field_type: FieldType,
    /// Number of distinct values, when known: the linter uses it for field ordering.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cardinality: Option<u64>,
    /// How the analyzer generates this field's values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generator: Option<Generator>,
}

impl FieldDecl {
    /// The field as the key language sees it (name and type).
    pub fn key_field(&self) -> Field {
        Field::new(self.name.clone(), self.field_type)
    }
}

/// The fields as the key language sees them, in declaration order.
pub fn key_fields(decls: &[FieldDecl]) -> Vec<Field> {
    decls.iter().map(FieldDecl::key_field).collect()
}
