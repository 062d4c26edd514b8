//! Workload generators: seeded, deterministic, streaming record generators.
//!
//! A [`WorkloadSpec`] says how many records to write, how fast (the time axis) and with which
//! seed; each field of the design document may carry a [`Generator`] (`{"kind": "zipf",
//! "n": 1000, "s": 1.1}`), and a field without one gets a default chosen by its type.
//! [`WorkloadStream`] yields the records one at a time, reusing one [`Record`] buffer if the
//! caller wants, so memory never grows with the record count.
//!
//! Determinism: every field has its own xoshiro256++ stream seeded from the workload seed and
//! the field *name*, so adding a field does not change the values of the others. Integers come
//! from `rand`'s fixed-width uniform ranges (never `usize`, whose width differs on wasm32);
//! floats from 53-bit integer draws and IEEE basic operations; the Zipf sampler's logarithms
//! and exponentials from the pure-Rust `libm` crate. The same seed therefore gives the same
//! stream natively, in Node and in the browser.

mod zipf;

use rand::Rng;
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

use crate::design::{FieldDecl, FieldType};
use crate::error::{Error, ErrorKind, Result};
use zipf::ZipfSampler;

/// The largest record count a workload may ask for (10^10): more is certainly a typo, and at
/// tens of millions of records per second it would already take minutes.
pub const MAX_RECORDS: u64 = 10_000_000_000;
/// The largest value size in bytes (HBase's default `hbase.client.keyvalue.maxsize`, 10 MiB).
pub const MAX_VALUE_SIZE: u64 = 10 * 1024 * 1024;
/// The largest write rate in records per second.
pub const MAX_WRITE_RATE: f64 = 1e9;
/// The largest number of distinct values of a Zipf, latest or phone generator (2^53, the
/// integers a double holds exactly).
pub const MAX_DISTINCT: u64 = 1 << 53;
/// The longest generated string, in characters.
pub const MAX_STRING_LENGTH: u32 = 4096;
/// The most values a list, weighted or phone-prefix generator may hold.
pub const MAX_LIST_VALUES: usize = 1_000_000;

/// 2021-09-07T00:00:00Z, the day of seed 000's telecom walkthrough: the default start time.
pub const DEFAULT_START_TIME_MS: i64 = 1_630_972_800_000;

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
            return Err(invalid(
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
                format!("a write rate above {MAX_WRITE_RATE} records per second is not supported"),
            ));
        }
        if self.value_size > MAX_VALUE_SIZE {
            return Err(invalid(
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
fn offset_ms(index: u64, ms_per: f64) -> Option<i64> {
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

/// One generated field value. Integer-typed fields (long, int, short, timestamp) hold
/// `Long`, double and float fields `Double`, boolean fields `Bool`, string and bigDecimal
/// fields `Str` (a bigDecimal as its decimal text).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "camelCase")]
pub enum FieldValue {
    /// Text.
    Str(String),
    /// A 64-bit integer (also int, short and timestamp fields).
    Long(i64),
    /// A 64-bit float (also float fields).
    Double(f64),
    /// A boolean.
    Bool(bool),
}

impl Default for FieldValue {
    fn default() -> Self {
        FieldValue::Long(0)
    }
}

/// Somewhere a generator can write one field's value: the workload's own [`FieldValue`], or
/// the key encoder's value type, so the analyzer feeds the encoder without a conversion.
pub trait ValueSlot {
    /// A fresh slot.
    fn new_slot() -> Self
    where
        Self: Sized;
    /// Store an integer.
    fn put_long(&mut self, x: i64);
    /// Store a float.
    fn put_double(&mut self, x: f64);
    /// Store a boolean.
    fn put_bool(&mut self, b: bool);
    /// Make the slot text and return its (cleared) buffer, reusing it when it already is.
    fn put_text(&mut self) -> &mut String;
    /// Store a copy of `v`, reusing the slot's text buffer.
    fn put_value(&mut self, v: &FieldValue) {
        match v {
            FieldValue::Str(s) => self.put_text().push_str(s),
            FieldValue::Long(x) => self.put_long(*x),
            FieldValue::Double(x) => self.put_double(*x),
            FieldValue::Bool(b) => self.put_bool(*b),
        }
    }
}

impl ValueSlot for FieldValue {
    fn new_slot() -> Self {
        FieldValue::default()
    }
    fn put_long(&mut self, x: i64) {
        *self = FieldValue::Long(x);
    }
    fn put_double(&mut self, x: f64) {
        *self = FieldValue::Double(x);
    }
    fn put_bool(&mut self, b: bool) {
        *self = FieldValue::Bool(b);
    }
    fn put_text(&mut self) -> &mut String {
        if !matches!(self, FieldValue::Str(_)) {
            *self = FieldValue::Str(String::new());
        }
        match self {
            FieldValue::Str(s) => {
                s.clear();
                s
            }
            // Unreachable: the value was made a `Str` just above. Replace to stay total.
            other => {
                *other = FieldValue::Str(String::new());
                other.put_text()
            }
        }
    }
}

impl ValueSlot for crate::keyspec::FieldValue {
    fn new_slot() -> Self {
        crate::keyspec::FieldValue::Null
    }
    fn put_long(&mut self, x: i64) {
        *self = crate::keyspec::FieldValue::Long(x);
    }
    fn put_double(&mut self, x: f64) {
        *self = crate::keyspec::FieldValue::Double(x);
    }
    fn put_bool(&mut self, b: bool) {
        *self = crate::keyspec::FieldValue::Bool(b);
    }
    fn put_text(&mut self) -> &mut String {
        use crate::keyspec::FieldValue as K;
        if !matches!(self, K::Str(_)) {
            *self = K::Str(String::new());
        }
        match self {
            K::Str(s) => {
                s.clear();
                s
            }
            // Unreachable: the value was made a `Str` just above. Replace to stay total.
            other => {
                *other = K::Str(String::new());
                other.put_text()
            }
        }
    }
}

/// One generated record: its index, its write time and one value per declared field.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    /// 0-based position in the stream.
    pub index: u64,
    /// Write time in ms since the epoch (`startTime + index * 1000 / writeRate`).
    pub time_ms: i64,
    /// The field values, in the order of the field declarations.
    pub values: Vec<FieldValue>,
}

/// What kind of value a field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Out {
    Long,
    Double,
    Str,
    Bool,
}

fn out_of(t: FieldType) -> Out {
    match t {
        FieldType::Long | FieldType::Int | FieldType::Short | FieldType::Timestamp => Out::Long,
        FieldType::Double | FieldType::Float => Out::Double,
        FieldType::String | FieldType::BigDecimal => Out::Str,
        FieldType::Boolean => Out::Bool,
    }
}

/// The prepared state of one field's generator.
#[derive(Debug, Clone)]
enum State {
    Sequence {
        start: i64,
        step: i64,
    },
    Clock {
        start: i64,
        ms_per: f64,
        jitter: i64,
    },
    UniformInt {
        min: i64,
        max: i64,
    },
    UniformDouble {
        min: f64,
        width: f64,
    },
    UniformString {
        alphabet: Vec<char>,
        length: u32,
    },
    Zipf {
        sampler: ZipfSampler,
        offset: i64,
        perm: Option<Permutation>,
    },
    Latest {
        window: u64,
        offset: i64,
        sampler: ZipfSampler,
    },
    Hotspot {
        lower: i64,
        /// The last hot value; `None` when the hot set is empty.
        hot_upper: Option<i64>,
        upper: i64,
        hot_op: f64,
    },
    Weighted {
        values: Vec<FieldValue>,
        cumulative: Vec<f64>,
    },
    Phone {
        prefixes: Vec<String>,
        digits: u32,
        pick: Option<PhonePick>,
    },
    Uuid {
        compact: bool,
        upper: bool,
    },
    List {
        values: Vec<FieldValue>,
        sequential: bool,
    },
    Constant(FieldValue),
    Boolean {
        p: f64,
    },
}

/// A phone picked from a fixed set of `distinct` numbers.
#[derive(Debug, Clone)]
struct PhonePick {
    distinct: u64,
    zipf: Option<ZipfSampler>,
    /// Spreads set members over the number space of one prefix.
    perm: Permutation,
}

/// A fixed bijection of `[0, n)`: `i -> (a * i + b) mod n` with `gcd(a, n) = 1`.
#[derive(Debug, Clone, Copy)]
struct Permutation {
    n: u64,
    a: u64,
    b: u64,
}

impl Permutation {
    fn new(n: u64, salt: u64) -> Self {
        let n = n.max(1);
        // Start near n / golden ratio so neighbours land far apart, then find a unit mod n.
        let mut a = ((n as u128 * 0x9E37_79B9_7F4A_7C15u128) >> 64) as u64 | 1;
        if a == 0 || a >= n {
            a = 1;
        }
        while gcd(a, n) != 1 {
            a += 1;
        }
        Permutation {
            n,
            a,
            b: splitmix64(salt) % n,
        }
    }
    fn apply(&self, i: u64) -> u64 {
        if self.n <= 1 << 32 {
            // a, i mod n, b < n <= 2^32: a * i + b < 2^64, the same value in 64-bit
            // arithmetic (a 128-bit division is a slow library call, slower still in wasm).
            // `i < n` in every caller: skip that division.
            let i = if i < self.n { i } else { i % self.n };
            return (self.a * i + self.b) % self.n;
        }
        ((u128::from(self.a) * u128::from(i % self.n) + u128::from(self.b)) % u128::from(self.n))
            as u64
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// SplitMix64's finalizer: a well-mixed 64-bit hash of `x`.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// FNV-1a over the field name: ties a field's stream to its name, not its position.
fn fnv1a(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// One field's generator, its RNG and the kind of value it writes.
#[derive(Debug, Clone)]
struct FieldGen {
    rng: Xoshiro256PlusPlus,
    state: State,
    out: Out,
}

/// A seeded, streaming record generator: yields `spec.records` records in write-time order.
#[derive(Debug, Clone)]
pub struct WorkloadStream {
    spec: WorkloadSpec,
    ms_per: f64,
    fields: Vec<FieldGen>,
    next: u64,
}

fn invalid(path: impl Into<String>, message: impl Into<String>) -> Error {
    Error::new(ErrorKind::Invalid, message).at_path(path)
}

impl WorkloadStream {
    /// A stream over `fields` (in declaration order) for `spec`. Fails, naming the field,
    /// when a generator does not suit its field's type or its parameters are out of range.
    pub fn new(spec: &WorkloadSpec, fields: &[FieldDecl]) -> Result<Self> {
        spec.validate()?;
        let mut gens = Vec::with_capacity(fields.len());
        for (i, f) in fields.iter().enumerate() {
            let path = format!("/fields/{i}/generator");
            let default;
            let g = match &f.generator {
                Some(g) => g,
                None => {
                    default = Generator::default_for(f.field_type, f.cardinality);
                    &default
                }
            };
            let state = prepare(g, f, spec, &path)?;
            let seed = splitmix64(spec.seed ^ splitmix64(fnv1a(&f.name)));
            gens.push(FieldGen {
                rng: Xoshiro256PlusPlus::seed_from_u64(seed),
                state,
                out: out_of(f.field_type),
            });
        }
        Ok(WorkloadStream {
            spec: spec.clone(),
            ms_per: spec.ms_per_record(),
            fields: gens,
            next: 0,
        })
    }

    /// The workload this stream generates.
    pub fn spec(&self) -> &WorkloadSpec {
        &self.spec
    }

    /// Records still to come.
    pub fn remaining(&self) -> u64 {
        self.spec.records.saturating_sub(self.next)
    }

    /// Write the next record into `rec` (reusing its buffers); `false` when the stream is done.
    pub fn next_into(&mut self, rec: &mut Record) -> bool {
        match self.next_values(&mut rec.values) {
            Some((index, time_ms)) => {
                rec.index = index;
                rec.time_ms = time_ms;
                true
            }
            None => false,
        }
    }

    /// Write the next record's values into `values` (one per field, reusing their buffers)
    /// and return its index and write time; `None` when the stream is done.
    pub fn next_values<V: ValueSlot>(&mut self, values: &mut Vec<V>) -> Option<(u64, i64)> {
        if self.next >= self.spec.records {
            return None;
        }
        let i = self.next;
        self.next += 1;
        let time_ms = self
            .spec
            .start_time
            .saturating_add(offset_ms(i, self.ms_per).unwrap_or(i64::MAX));
        if values.len() != self.fields.len() {
            values.resize_with(self.fields.len(), V::new_slot);
        }
        for (g, v) in self.fields.iter_mut().zip(values.iter_mut()) {
            g.fill(i, v);
        }
        Some((i, time_ms))
    }
}

impl Iterator for WorkloadStream {
    type Item = Record;
    fn next(&mut self) -> Option<Record> {
        let mut r = Record::default();
        self.next_into(&mut r).then_some(r)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let r = usize::try_from(self.remaining()).unwrap_or(usize::MAX);
        (r, usize::try_from(self.remaining()).ok())
    }
}

const ALPHANUMERIC: &str = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// Checks a generator against its field and the workload, and prepares its state.
fn prepare(g: &Generator, f: &FieldDecl, spec: &WorkloadSpec, path: &str) -> Result<State> {
    let out = out_of(f.field_type);
    let kind = g.kind();
    let type_name = f.field_type.name();
    let integer_kind = matches!(
        g,
        Generator::Sequence { .. }
            | Generator::Clock { .. }
            | Generator::UniformInt { .. }
            | Generator::Zipf { .. }
            | Generator::Latest { .. }
            | Generator::Hotspot { .. }
    );
    if integer_kind && out == Out::Bool {
        return Err(invalid(
            format!("{path}/kind"),
            format!("`{kind}` makes integers; field `{}` is boolean", f.name),
        ));
    }
    let mismatch = |what: &str| {
        invalid(
            format!("{path}/kind"),
            format!("`{kind}` makes {what}; field `{}` is {type_name}", f.name),
        )
    };
    let last = spec.records - 1;
    let state = match g {
        Generator::Sequence { start, step } => {
            // The last value must fit in i64 and in the field's type.
            let end = i128::from(*start) + i128::from(*step) * i128::from(last);
            check_range(f, path, i128::from(*start), end)?;
            State::Sequence {
                start: *start,
                step: *step,
            }
        }
        Generator::Clock {
            start,
            rate,
            jitter_ms,
        } => {
            let rate = rate.unwrap_or(spec.write_rate);
            if !(rate.is_finite() && rate > 0.0 && rate <= MAX_WRITE_RATE) {
                return Err(invalid(
                    format!("{path}/rate"),
                    format!("the clock rate must be a positive number of ticks per second up to {MAX_WRITE_RATE}"),
                ));
            }
            let jitter = i64::try_from(*jitter_ms)
                .ok()
                .filter(|j| *j <= 1_000_000_000_000)
                .ok_or_else(|| {
                    invalid(
                        format!("{path}/jitterMs"),
                        "the jitter must be at most 10^12 ms",
                    )
                })?;
            let start = start.unwrap_or(spec.start_time);
            let ms_per = 1000.0 / rate;
            let span = offset_ms(last, ms_per).ok_or_else(|| {
                invalid(
                    format!("{path}/rate"),
                    "the clock runs past the 64-bit ms range",
                )
            })?;
            let lo = i128::from(start) - i128::from(jitter);
            let hi = i128::from(start) + i128::from(span) + i128::from(jitter);
            check_range(f, path, lo, hi)?;
            State::Clock {
                start,
                ms_per,
                jitter,
            }
        }
        Generator::UniformInt { min, max } => {
            if min > max {
                return Err(invalid(
                    format!("{path}/max"),
                    format!("max {max} is below min {min}"),
                ));
            }
            check_range(f, path, i128::from(*min), i128::from(*max))?;
            State::UniformInt {
                min: *min,
                max: *max,
            }
        }
        Generator::UniformDouble { min, max } => {
            if out == Out::Bool {
                return Err(mismatch("doubles"));
            }
            let width = max - min;
            if !(min.is_finite() && max.is_finite() && width.is_finite() && width >= 0.0) {
                return Err(invalid(
                    format!("{path}/max"),
                    "min and max must be finite with min <= max",
                ));
            }
            State::UniformDouble { min: *min, width }
        }
        Generator::UniformString { length, alphabet } => {
            if out != Out::Str {
                return Err(mismatch("strings"));
            }
            if *length > MAX_STRING_LENGTH {
                return Err(invalid(
                    format!("{path}/length"),
                    format!("a generated string is at most {MAX_STRING_LENGTH} characters"),
                ));
            }
            let alphabet: Vec<char> = alphabet
                .as_deref()
                .unwrap_or(ALPHANUMERIC)
                .chars()
                .collect();
            if alphabet.is_empty() {
                return Err(invalid(format!("{path}/alphabet"), "the alphabet is empty"));
            }
            if alphabet.len() > MAX_LIST_VALUES {
                return Err(invalid(
                    format!("{path}/alphabet"),
                    "the alphabet is too long",
                ));
            }
            State::UniformString {
                alphabet,
                length: *length,
            }
        }
        Generator::Zipf {
            n,
            s,
            offset,
            scramble,
        } => {
            check_distinct(*n, &format!("{path}/n"))?;
            check_exponent(*s, &format!("{path}/s"))?;
            let hi = i128::from(*offset) + i128::from(*n) - 1;
            check_range(f, path, i128::from(*offset), hi)?;
            State::Zipf {
                sampler: ZipfSampler::new(*n, *s),
                offset: *offset,
                perm: scramble.then(|| Permutation::new(*n, fnv1a(&f.name))),
            }
        }
        Generator::Latest { s, window, offset } => {
            check_exponent(*s, &format!("{path}/s"))?;
            let window = window.unwrap_or(MAX_DISTINCT);
            if window == 0 || window > MAX_DISTINCT {
                return Err(invalid(
                    format!("{path}/window"),
                    format!("the window must be between 1 and {MAX_DISTINCT}"),
                ));
            }
            let hi = i128::from(*offset) + i128::from(last);
            check_range(f, path, i128::from(*offset), hi)?;
            State::Latest {
                window,
                offset: *offset,
                sampler: ZipfSampler::new(1, *s),
            }
        }
        Generator::Hotspot {
            min,
            max,
            hot_set_fraction,
            hot_op_fraction,
        } => {
            if min > max {
                return Err(invalid(
                    format!("{path}/max"),
                    format!("max {max} is below min {min}"),
                ));
            }
            for (name, v) in [
                ("hotSetFraction", hot_set_fraction),
                ("hotOpFraction", hot_op_fraction),
            ] {
                if !(0.0..=1.0).contains(v) {
                    return Err(invalid(
                        format!("{path}/{name}"),
                        format!("{name} must be between 0 and 1"),
                    ));
                }
            }
            check_range(f, path, i128::from(*min), i128::from(*max))?;
            // YCSB: hot interval = the first floor(interval * hotSetFraction) values.
            let interval = i128::from(*max) - i128::from(*min) + 1;
            let hot = libm::floor(interval as f64 * hot_set_fraction) as i128;
            let hot = hot.clamp(0, interval);
            let hot_upper = i128::from(*min) + hot - 1;
            State::Hotspot {
                lower: *min,
                hot_upper: if hot > 0 {
                    i64::try_from(hot_upper).ok()
                } else {
                    None
                },
                upper: *max,
                hot_op: *hot_op_fraction,
            }
        }
        Generator::Weighted { values, weights } => {
            if values.is_empty() {
                return Err(invalid(
                    format!("{path}/values"),
                    "no values to choose from",
                ));
            }
            if values.len() > MAX_LIST_VALUES {
                return Err(invalid(format!("{path}/values"), "too many values"));
            }
            if weights.len() != values.len() {
                return Err(invalid(
                    format!("{path}/weights"),
                    format!(
                        "{} weights for {} values: give one weight per value",
                        weights.len(),
                        values.len()
                    ),
                ));
            }
            let mut cumulative = Vec::with_capacity(weights.len());
            let mut total = 0.0f64;
            for (j, w) in weights.iter().enumerate() {
                if !(w.is_finite() && *w >= 0.0) {
                    return Err(invalid(
                        format!("{path}/weights/{j}"),
                        "a weight must be a finite number >= 0",
                    ));
                }
                total += w;
                cumulative.push(total);
            }
            if !(total > 0.0 && total.is_finite()) {
                return Err(invalid(
                    format!("{path}/weights"),
                    "at least one weight must be positive (and the sum finite)",
                ));
            }
            State::Weighted {
                values: convert_all(values, f, &format!("{path}/values"))?,
                cumulative,
            }
        }
        Generator::Phone {
            prefixes,
            digits,
            distinct,
            s,
        } => {
            if prefixes.is_empty() {
                return Err(invalid(
                    format!("{path}/prefixes"),
                    "give at least one prefix",
                ));
            }
            if prefixes.len() > MAX_LIST_VALUES {
                return Err(invalid(format!("{path}/prefixes"), "too many prefixes"));
            }
            if *digits > 18 {
                return Err(invalid(
                    format!("{path}/digits"),
                    "at most 18 random digits after the prefix",
                ));
            }
            match out {
                Out::Str => {}
                Out::Long => {
                    let numeric = prefixes.iter().all(|p| {
                        p.bytes().all(|b| b.is_ascii_digit()) && p.len() + *digits as usize <= 18
                    });
                    if !numeric {
                        return Err(invalid(
                            format!("{path}/prefixes"),
                            format!(
                                "field `{}` is {type_name}: phone prefixes must be digits and at most 18 digits long in all",
                                f.name
                            ),
                        ));
                    }
                }
                _ => return Err(mismatch("phone-number text")),
            }
            let space = 10u64.pow(*digits);
            let pick = match distinct {
                None => {
                    if s.is_some() {
                        return Err(invalid(
                            format!("{path}/s"),
                            "a Zipf exponent needs `distinct`, the number of phones to skew over",
                        ));
                    }
                    None
                }
                Some(d) => {
                    check_distinct(*d, &format!("{path}/distinct"))?;
                    let capacity = u128::from(space) * prefixes.len() as u128;
                    if u128::from(*d) > capacity {
                        return Err(invalid(
                            format!("{path}/distinct"),
                            format!("{d} distinct phones do not fit in {} prefixes x 10^{digits} numbers", prefixes.len()),
                        ));
                    }
                    let zipf = match s {
                        Some(s) => {
                            check_exponent(*s, &format!("{path}/s"))?;
                            Some(ZipfSampler::new(*d, *s))
                        }
                        None => None,
                    };
                    Some(PhonePick {
                        distinct: *d,
                        zipf,
                        perm: Permutation::new(space, fnv1a(&f.name)),
                    })
                }
            };
            State::Phone {
                prefixes: prefixes.clone(),
                digits: *digits,
                pick,
            }
        }
        Generator::Uuid {
            compact,
            upper_case,
        } => {
            if out != Out::Str {
                return Err(mismatch("UUID text"));
            }
            State::Uuid {
                compact: *compact,
                upper: *upper_case,
            }
        }
        Generator::List { values, order } => {
            if values.is_empty() {
                return Err(invalid(format!("{path}/values"), "the list is empty"));
            }
            if values.len() > MAX_LIST_VALUES {
                return Err(invalid(format!("{path}/values"), "too many values"));
            }
            State::List {
                values: convert_all(values, f, &format!("{path}/values"))?,
                sequential: *order == ListOrder::Sequential,
            }
        }
        Generator::Constant { value } => {
            State::Constant(convert(value, f, &format!("{path}/value"))?)
        }
        Generator::Boolean { p } => {
            if out != Out::Bool && out != Out::Str {
                return Err(mismatch("booleans"));
            }
            if !(0.0..=1.0).contains(p) {
                return Err(invalid(format!("{path}/p"), "p must be between 0 and 1"));
            }
            State::Boolean { p: *p }
        }
    };
    Ok(state)
}

/// Values `lo..=hi` must fit in i64 and, for int and short fields, in the field's type.
fn check_range(f: &FieldDecl, path: &str, lo: i128, hi: i128) -> Result<()> {
    let (min, max) = match f.field_type {
        FieldType::Int => (i128::from(i32::MIN), i128::from(i32::MAX)),
        FieldType::Short => (i128::from(i16::MIN), i128::from(i16::MAX)),
        _ => (i128::from(i64::MIN), i128::from(i64::MAX)),
    };
    let (lo, hi) = (lo.min(hi), lo.max(hi));
    if lo < min || hi > max {
        return Err(invalid(
            path.to_string(),
            format!(
                "field `{}` ({}) would get values from {lo} to {hi}, outside {min}..={max}",
                f.name,
                f.field_type.name()
            ),
        ));
    }
    Ok(())
}

fn check_distinct(n: u64, path: &str) -> Result<()> {
    if n == 0 || n > MAX_DISTINCT {
        return Err(invalid(
            path.to_string(),
            format!("the number of distinct values must be between 1 and {MAX_DISTINCT}"),
        ));
    }
    Ok(())
}

fn check_exponent(s: f64, path: &str) -> Result<()> {
    if !(s.is_finite() && (0.0..=100.0).contains(&s)) {
        return Err(invalid(
            path.to_string(),
            "the Zipf exponent must be a number between 0 and 100",
        ));
    }
    Ok(())
}

fn convert_all(values: &[serde_json::Value], f: &FieldDecl, path: &str) -> Result<Vec<FieldValue>> {
    values
        .iter()
        .enumerate()
        .map(|(j, v)| convert(v, f, &format!("{path}/{j}")))
        .collect()
}

/// A JSON value as the field's value: numbers and numeric text for numeric fields,
/// booleans and `"true"`/`"false"` for boolean fields, any scalar as text for string fields.
pub fn convert(v: &serde_json::Value, f: &FieldDecl, path: &str) -> Result<FieldValue> {
    use serde_json::Value as J;
    let bad = |what: &str| {
        invalid(
            path.to_string(),
            format!(
                "{v} is not {what} (field `{}` is {})",
                f.name,
                f.field_type.name()
            ),
        )
    };
    match out_of(f.field_type) {
        Out::Str => match v {
            J::String(s) => {
                if f.field_type == FieldType::BigDecimal && !is_decimal(s) {
                    return Err(bad("a decimal number"));
                }
                Ok(FieldValue::Str(s.clone()))
            }
            J::Number(n) => Ok(FieldValue::Str(n.to_string())),
            J::Bool(b) if f.field_type == FieldType::String => Ok(FieldValue::Str(b.to_string())),
            _ => Err(bad("a string or number")),
        },
        Out::Long => {
            let x = match v {
                J::Number(n) => n.as_i64(),
                J::String(s) => s.trim().parse::<i64>().ok(),
                _ => None,
            }
            .ok_or_else(|| bad("a 64-bit integer"))?;
            check_range(f, path, i128::from(x), i128::from(x))?;
            Ok(FieldValue::Long(x))
        }
        Out::Double => {
            let x = match v {
                J::Number(n) => n.as_f64(),
                J::String(s) => s.trim().parse::<f64>().ok(),
                _ => None,
            }
            .ok_or_else(|| bad("a number"))?;
            Ok(FieldValue::Double(x))
        }
        Out::Bool => match v {
            J::Bool(b) => Ok(FieldValue::Bool(*b)),
            J::String(s) if s == "true" => Ok(FieldValue::Bool(true)),
            J::String(s) if s == "false" => Ok(FieldValue::Bool(false)),
            _ => Err(bad("a boolean")),
        },
    }
}

/// `[+-]digits[.digits][e[+-]digits]`, the text `new BigDecimal(String)` accepts.
fn is_decimal(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i = 1;
    }
    let mut digits = 0;
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
        digits += 1;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let mut exp = 0;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
            exp += 1;
        }
        if exp == 0 {
            return false;
        }
    }
    i == b.len()
}

impl FieldGen {
    /// Write record `i`'s value into `v`.
    fn fill<V: ValueSlot>(&mut self, i: u64, v: &mut V) {
        let out = self.out;
        let rng = &mut self.rng;
        let int = match &mut self.state {
            State::Sequence { start, step } => {
                start.wrapping_add(step.wrapping_mul(i64::try_from(i).unwrap_or(i64::MAX)))
            }
            State::Clock {
                start,
                ms_per,
                jitter,
            } => {
                let base = start.saturating_add(offset_ms(i, *ms_per).unwrap_or(i64::MAX));
                if *jitter > 0 {
                    base.saturating_add(rng.gen_range(-*jitter..=*jitter))
                } else {
                    base
                }
            }
            State::UniformInt { min, max } => rng.gen_range(*min..=*max),
            State::UniformDouble { min, width } => {
                let u: f64 = rng.gen::<f64>();
                return put_double(out, *min + u * *width, v);
            }
            State::UniformString { alphabet, length } => {
                let s = v.put_text();
                let n = alphabet.len() as u64;
                for _ in 0..*length {
                    let j = rng.gen_range(0..n);
                    if let Some(c) = usize::try_from(j).ok().and_then(|j| alphabet.get(j)) {
                        s.push(*c);
                    }
                }
                return;
            }
            State::Zipf {
                sampler,
                offset,
                perm,
            } => {
                let r = sampler.sample(rng) - 1;
                let r = match perm {
                    Some(p) => p.apply(r),
                    None => r,
                };
                offset.wrapping_add(r as i64)
            }
            State::Latest {
                window,
                offset,
                sampler,
            } => {
                let n = i.saturating_add(1).min(*window);
                if sampler.n() != n {
                    sampler.set_n(n);
                }
                let r = sampler.sample(rng) - 1;
                offset.wrapping_add(i.saturating_sub(r) as i64)
            }
            State::Hotspot {
                lower,
                hot_upper,
                upper,
                hot_op,
            } => {
                let u: f64 = rng.gen::<f64>();
                match *hot_upper {
                    // The cold set is empty when the hot set covers the whole range.
                    Some(h) if u < *hot_op || h >= *upper => rng.gen_range(*lower..=h),
                    Some(h) => rng.gen_range(h.saturating_add(1)..=*upper),
                    None => rng.gen_range(*lower..=*upper),
                }
            }
            State::Weighted { values, cumulative } => {
                let total = cumulative.last().copied().unwrap_or(0.0);
                let u: f64 = rng.gen::<f64>() * total;
                let j = cumulative.partition_point(|c| *c <= u);
                let j = j.min(values.len().saturating_sub(1));
                if let Some(x) = values.get(j) {
                    clone_into(x, v);
                }
                return;
            }
            State::Phone {
                prefixes,
                digits,
                pick,
            } => {
                let space = 10u64.pow(*digits);
                let np = prefixes.len() as u64;
                let (p, number) = match pick {
                    None => (rng.gen_range(0..np), rng.gen_range(0..space)),
                    Some(pk) => {
                        let member = match &pk.zipf {
                            Some(z) => z.sample(rng) - 1,
                            None => rng.gen_range(0..pk.distinct),
                        };
                        (member % np, pk.perm.apply(member / np))
                    }
                };
                let prefix = usize::try_from(p)
                    .ok()
                    .and_then(|p| prefixes.get(p))
                    .map(String::as_str)
                    .unwrap_or("");
                if out == Out::Long {
                    let scale = 10i64.pow(*digits);
                    let head = prefix.parse::<i64>().unwrap_or(0);
                    v.put_long(head.saturating_mul(scale).saturating_add(number as i64));
                } else {
                    let s = v.put_text();
                    s.push_str(prefix);
                    push_zero_padded(s, number, *digits);
                }
                return;
            }
            State::Uuid { compact, upper } => {
                let hi = rng.gen::<u64>();
                let lo = rng.gen::<u64>();
                // Version 4, IETF variant.
                let hi = (hi & !0xF000) | 0x4000;
                let lo = (lo & !(0xC << 60)) | (0x8 << 60);
                let bytes = (u128::from(hi) << 64 | u128::from(lo)).to_be_bytes();
                let s = v.put_text();
                let digits: &[u8; 16] = if *upper {
                    b"0123456789ABCDEF"
                } else {
                    b"0123456789abcdef"
                };
                for (k, b) in bytes.iter().enumerate() {
                    if !*compact && matches!(k, 4 | 6 | 8 | 10) {
                        s.push('-');
                    }
                    s.push(char::from(digits[usize::from(b >> 4)]));
                    s.push(char::from(digits[usize::from(b & 0xF)]));
                }
                return;
            }
            State::List { values, sequential } => {
                let n = values.len() as u64;
                let j = if *sequential {
                    i % n.max(1)
                } else {
                    rng.gen_range(0..n.max(1))
                };
                if let Some(x) = usize::try_from(j).ok().and_then(|j| values.get(j)) {
                    clone_into(x, v);
                }
                return;
            }
            State::Constant(x) => {
                clone_into(x, v);
                return;
            }
            State::Boolean { p } => {
                let b = rng.gen::<f64>() < *p;
                match out {
                    Out::Str => v.put_text().push_str(if b { "true" } else { "false" }),
                    _ => v.put_bool(b),
                }
                return;
            }
        };
        put_int(out, int, v);
    }
}

fn put_int<V: ValueSlot>(out: Out, x: i64, v: &mut V) {
    match out {
        Out::Long => v.put_long(x),
        Out::Double => v.put_double(x as f64),
        Out::Str => {
            use std::fmt::Write;
            let s = v.put_text();
            let _ = write!(s, "{x}");
        }
        Out::Bool => v.put_bool(x != 0),
    }
}

fn put_double<V: ValueSlot>(out: Out, x: f64, v: &mut V) {
    match out {
        Out::Double => v.put_double(x),
        Out::Long => v.put_long(x as i64),
        // Java's `String.valueOf(double)`, the text a Java writer would build.
        Out::Str => v
            .put_text()
            .push_str(&crate::bytes::java_double_to_string(x)),
        Out::Bool => v.put_bool(x != 0.0),
    }
}

/// Append `x` as exactly `width` decimal digits (zero-padded; `width` <= 20 and `x < 10^width`).
/// Natively, up to 12 digits come four at a time from [`DIGITS4`], text already: no UTF-8
/// check per record (`from_utf8` and the digit loop were 12 % of the telecom analysis; the
/// table took 6 % off it). The `lean` (browser) wasm keeps [`push_zero_padded_small`]: the
/// table is 40 kB.
#[cfg(not(lean))]
fn push_zero_padded(s: &mut String, x: u64, width: u32) {
    let w = width as usize;
    if w > 12 || x >= 1_000_000_000_000 {
        return push_zero_padded_small(s, x, width);
    }
    // Up to three groups of four digits, as offsets into the table; four-digit slices are
    // copied as constant-size moves (a variable length calls `memcpy`), so the leading group
    // is only cut when it is shorter.
    let (a, b, c) = (
        (x / 100_000_000) as usize * 4,
        (x / 10_000 % 10_000) as usize * 4,
        (x % 10_000) as usize * 4,
    );
    let four = |g: usize| DIGITS4.get(g..g + 4).unwrap_or("");
    let lead = |g: usize, n: usize| match n {
        4 => four(g),
        _ => DIGITS4.get(g + 4 - n..g + 4).unwrap_or(""),
    };
    match w {
        0 => {}
        1..=4 => s.push_str(lead(c, w)),
        5..=8 => {
            s.push_str(lead(b, w - 4));
            s.push_str(four(c));
        }
        _ => {
            s.push_str(lead(a, w - 8));
            s.push_str(four(b));
            s.push_str(four(c));
        }
    }
}

#[cfg(lean)]
fn push_zero_padded(s: &mut String, x: u64, width: u32) {
    push_zero_padded_small(s, x, width);
}

/// "0000" to "9999" as one text, built at compile time.
#[cfg(not(lean))]
static DIGITS4: &str = {
    // Used once, by this initializer (the static below is the only copy).
    #[allow(clippy::large_const_arrays)]
    const BYTES: [u8; 40_000] = {
        let mut b = [0u8; 40_000];
        let mut i = 0;
        while i < 10_000 {
            b[i * 4] = b'0' + (i / 1000) as u8;
            b[i * 4 + 1] = b'0' + (i / 100 % 10) as u8;
            b[i * 4 + 2] = b'0' + (i / 10 % 10) as u8;
            b[i * 4 + 3] = b'0' + (i % 10) as u8;
            i += 1;
        }
        b
    };
    match std::str::from_utf8(&BYTES) {
        Ok(t) => t,
        Err(_) => "",
    }
};

/// [`push_zero_padded`] without a table.
#[cfg_attr(not(lean), allow(dead_code))]
fn push_zero_padded_small(s: &mut String, x: u64, width: u32) {
    let mut buf = [b'0'; 20];
    let width = (width as usize).min(buf.len());
    let digits = buf.get_mut(..width).unwrap_or(&mut []);
    fill_digits(digits, x);
    // ASCII digits: appended in one copy (a `char` iterator pushed them one by one, 11 % of
    // the telecom analysis).
    if let Ok(t) = std::str::from_utf8(digits) {
        s.push_str(t);
    }
}

use crate::keyspec::value::DIGIT_PAIRS;

/// Write the last `buf.len()` decimal digits of `x` into `buf`, four at a time (two
/// independent pairs per step instead of one dependent division per digit).
fn fill_digits(buf: &mut [u8], mut x: u64) {
    let mut end = buf.len();
    while end >= 4 {
        let c = (x % 10_000) as usize;
        x /= 10_000;
        let (hi, lo) = (c / 100 * 2, c % 100 * 2);
        if let (Some(dst), Some(h), Some(l)) = (
            buf.get_mut(end - 4..end),
            DIGIT_PAIRS.get(hi..hi + 2),
            DIGIT_PAIRS.get(lo..lo + 2),
        ) {
            dst[..2].copy_from_slice(h);
            dst[2..].copy_from_slice(l);
        }
        end -= 4;
    }
    while end > 0 {
        end -= 1;
        if let Some(d) = buf.get_mut(end) {
            *d = b'0' + (x % 10) as u8;
        }
        x /= 10;
    }
}

/// `*dst = src.clone()`, reusing `dst`'s string buffer.
fn clone_into<V: ValueSlot>(src: &FieldValue, dst: &mut V) {
    dst.put_value(src);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both digit writers (the table natively, the loop in wasm) against `format!`, every
    /// width, values at the edges of each width and pseudo-random ones.
    #[test]
    fn zero_padded_digits_match_format() {
        let mut r = 0x2545_F491_4F6C_DD1Du64;
        for width in 0..=20u32 {
            let cap = 10u128.pow(width);
            let mut xs = vec![0u64, 1, 9, 10, 9999, 10_000, 12_345_678];
            xs.push(u64::try_from(cap - 1).unwrap_or(u64::MAX));
            for _ in 0..500 {
                r ^= r << 13;
                r ^= r >> 7;
                r ^= r << 17;
                xs.push(u64::try_from(u128::from(r) % cap.max(1)).unwrap_or(r));
            }
            for x in xs.into_iter().filter(|&x| u128::from(x) < cap.max(1)) {
                let want = if width == 0 {
                    String::new()
                } else {
                    format!("{x:0w$}", w = width as usize)
                };
                let (mut a, mut b) = ("p".to_string(), "p".to_string());
                push_zero_padded(&mut a, x, width);
                push_zero_padded_small(&mut b, x, width);
                assert_eq!(a, format!("p{want}"), "table: {x} width {width}");
                assert_eq!(b, format!("p{want}"), "loop: {x} width {width}");
            }
        }
    }

    fn field(name: &str, t: FieldType, g: Option<Generator>) -> FieldDecl {
        FieldDecl {
            name: name.into(),
            field_type: t,
            cardinality: None,
            generator: g,
        }
    }

    #[test]
    fn permutation_is_a_bijection() {
        for n in [1u64, 2, 7, 10, 64, 1000, 1023] {
            let p = Permutation::new(n, 99);
            let mut seen = vec![false; n as usize];
            for i in 0..n {
                let j = p.apply(i) as usize;
                assert!(!seen[j]);
                seen[j] = true;
            }
        }
    }

    #[test]
    fn decimal_text_check() {
        for ok in ["1", "-1.5", "+0.25", "3e10", ".5", "5.", "1E-3"] {
            assert!(is_decimal(ok), "{ok}");
        }
        for bad in ["", "-", ".", "1e", "abc", "1.2.3", "1 "] {
            assert!(!is_decimal(bad), "{bad}");
        }
    }

    #[test]
    fn string_buffers_are_reused() {
        let spec = WorkloadSpec {
            records: 3,
            ..WorkloadSpec::default()
        };
        let f = [field(
            "s",
            FieldType::String,
            Some(Generator::UniformString {
                length: 5,
                alphabet: Some("ab".into()),
            }),
        )];
        let mut st = WorkloadStream::new(&spec, &f).unwrap();
        let mut rec = Record::default();
        let mut n = 0;
        while st.next_into(&mut rec) {
            match &rec.values[0] {
                FieldValue::Str(s) => {
                    assert_eq!(s.len(), 5);
                    assert!(s.chars().all(|c| c == 'a' || c == 'b'));
                }
                other => panic!("{other:?}"),
            }
            n += 1;
        }
        assert_eq!(n, 3);
        assert!(!st.next_into(&mut rec));
    }
}
