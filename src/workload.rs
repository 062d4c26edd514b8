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

mod convert;
mod digits;
mod mix;
mod prepare;
pub(crate) mod read;
mod spec;
#[cfg(test)]
mod tests;
mod value;
mod write_order;
mod zipf;

use rand::Rng;
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorKind, Result};
use crate::keyspec::FieldType;
pub(crate) use mix::splitmix64;
use mix::{fnv1a, Permutation};
use zipf::ZipfSampler;

pub use convert::convert;
use digits::{clone_into, push_zero_padded, put_double, put_int};
use prepare::prepare;
use spec::offset_ms;
pub(crate) use spec::{
    default_hot_op, default_hot_set, default_phone_digits, default_phone_prefixes, default_zipf_s,
    half, one, one_f, yes,
};
pub use spec::{key_fields, FieldDecl, Generator, ListOrder, WorkloadSpec};
pub use value::{FieldValue, ValueSlot};
pub use write_order::{WriteOrder, WriteSample, WRITE_SAMPLE_BYTES, WRITE_SAMPLE_ROWS};

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

/// Records per block. A workload is cut into blocks of this many records, and each field's
/// random stream restarts at every block from a seed of its own ([`block_seed`]): record `i`'s
/// values then depend on its block alone, so block `b` can be generated without generating
/// the blocks before it, and an analysis can be spread over threads or workers block by block
/// with the same result as one pass. Block 0 keeps the workload's own seeds: a workload of at
/// most this many records is the same as before blocks existed. Small enough that two or more
/// workers get even shares of a few million records (a run of 2^20-record blocks split 4 M
/// records 2.1 M / 1.9 M: the page's two workers waited 10 % for the longer), large enough that
/// a block's fresh sketches (33 KiB) cost nothing beside its records.
pub const BLOCK_RECORDS: u64 = 1 << 16;

/// The seed of block `block` of a stream seeded `seed`: `seed` itself for block 0, a mix of
/// both after.
pub fn block_seed(seed: u64, block: u64) -> u64 {
    if block == 0 {
        seed
    } else {
        splitmix64(seed ^ splitmix64(block))
    }
}

/// 2021-09-07T00:00:00Z, the day of seed 000's telecom walkthrough: the default start time.
pub const DEFAULT_START_TIME_MS: i64 = 1_630_972_800_000;

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

/// One field's generator, its RNG and the kind of value it writes.
#[derive(Debug, Clone)]
struct FieldGen {
    /// The field's seed for block 0 ([`block_seed`] gives the others').
    seed: u64,
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
    /// The first record after this stream's range (`spec.records` unless [`seek`](Self::seek)
    /// narrowed it).
    end: u64,
    /// The first record of the next block: the fields' streams restart there.
    block_end: u64,
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
                seed,
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
            end: spec.records,
            block_end: BLOCK_RECORDS,
        })
    }

    /// Generate only records `first..end` (clamped to the workload) from now on: the stream
    /// starts over at `first` with the seeds of its block, so `first` must start a block
    /// (a multiple of [`BLOCK_RECORDS`]; others are rounded down to one).
    pub fn seek(&mut self, first: u64, end: u64) {
        let block = first / BLOCK_RECORDS;
        self.enter_block(block);
        self.next = block.saturating_mul(BLOCK_RECORDS).min(self.spec.records);
        self.end = end.min(self.spec.records);
    }

    /// The index of the next record this stream generates.
    pub fn position(&self) -> u64 {
        self.next
    }

    /// The index after the last record this stream generates.
    pub fn end(&self) -> u64 {
        self.end
    }

    /// End the stream at record `end` instead (never before the records already generated,
    /// never after its end).
    pub fn end_at(&mut self, end: u64) {
        self.end = end.clamp(self.next, self.end);
    }

    /// Restart every field's stream for block `block`.
    #[cold]
    fn enter_block(&mut self, block: u64) {
        for g in &mut self.fields {
            g.rng = Xoshiro256PlusPlus::seed_from_u64(block_seed(g.seed, block));
        }
        self.block_end = block.saturating_add(1).saturating_mul(BLOCK_RECORDS);
    }

    /// The workload this stream generates.
    pub fn spec(&self) -> &WorkloadSpec {
        &self.spec
    }

    /// Records still to come.
    pub fn remaining(&self) -> u64 {
        self.end.saturating_sub(self.next)
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

    /// The write time of record `i`: `startTime + i * 1000 / writeRate` ms (saturating).
    pub fn time_of(&self, i: u64) -> i64 {
        self.spec
            .start_time
            .saturating_add(offset_ms(i, self.ms_per).unwrap_or(i64::MAX))
    }

    /// Write the next record's values into `values` (one per field, reusing their buffers)
    /// and return its index and write time; `None` when the stream is done.
    pub fn next_values<V: ValueSlot>(&mut self, values: &mut Vec<V>) -> Option<(u64, i64)> {
        if self.next >= self.end {
            return None;
        }
        let i = self.next;
        if i >= self.block_end {
            self.enter_block(i / BLOCK_RECORDS);
        }
        self.next += 1;
        let time_ms = self.time_of(i);
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
                return uniform_string(rng, alphabet, *length, v.put_text())
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
            } => hotspot(rng, *lower, *hot_upper, *upper, *hot_op),
            State::Weighted { values, cumulative } => {
                return weighted(rng, values, cumulative, v);
            }
            State::Phone {
                prefixes,
                digits,
                pick,
            } => return phone(rng, prefixes, *digits, pick.as_ref(), out, v),
            State::Uuid { compact, upper } => return uuid(rng, *compact, *upper, v.put_text()),
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

/// One of `values`, drawn with the weights whose running sums are `cumulative`.
#[inline]
fn weighted<V: ValueSlot>(
    rng: &mut Xoshiro256PlusPlus,
    values: &[FieldValue],
    cumulative: &[f64],
    v: &mut V,
) {
    let total = cumulative.last().copied().unwrap_or(0.0);
    let u: f64 = rng.gen::<f64>() * total;
    let j = cumulative.partition_point(|c| *c <= u);
    let j = j.min(values.len().saturating_sub(1));
    if let Some(x) = values.get(j) {
        clone_into(x, v);
    }
}

/// `length` characters drawn uniformly from `alphabet`, into `s`.
#[inline]
fn uniform_string(rng: &mut Xoshiro256PlusPlus, alphabet: &[char], length: u32, s: &mut String) {
    let n = alphabet.len() as u64;
    for _ in 0..length {
        let j = rng.gen_range(0..n);
        if let Some(c) = usize::try_from(j).ok().and_then(|j| alphabet.get(j)) {
            s.push(*c);
        }
    }
}

/// YCSB's hotspot: a value of the hot set `lower..=hot_upper` with probability `hot_op`,
/// else of the cold rest up to `upper`.
#[inline]
fn hotspot(
    rng: &mut Xoshiro256PlusPlus,
    lower: i64,
    hot_upper: Option<i64>,
    upper: i64,
    hot_op: f64,
) -> i64 {
    let u: f64 = rng.gen::<f64>();
    match hot_upper {
        // The cold set is empty when the hot set covers the whole range.
        Some(h) if u < hot_op || h >= upper => rng.gen_range(lower..=h),
        Some(h) => rng.gen_range(h.saturating_add(1)..=upper),
        None => rng.gen_range(lower..=upper),
    }
}

/// A phone number: a prefix and `digits` random digits, any of them or one of a fixed set
/// (`pick`), as text or, for an integer field, as one number.
#[inline]
fn phone<V: ValueSlot>(
    rng: &mut Xoshiro256PlusPlus,
    prefixes: &[String],
    digits: u32,
    pick: Option<&PhonePick>,
    out: Out,
    v: &mut V,
) {
    let space = 10u64.pow(digits);
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
        let scale = 10i64.pow(digits);
        let head = prefix.parse::<i64>().unwrap_or(0);
        v.put_long(head.saturating_mul(scale).saturating_add(number as i64));
    } else {
        let s = v.put_text();
        s.push_str(prefix);
        push_zero_padded(s, number, digits);
    }
}

/// A random (version 4, IETF variant) UUID's text, into `s`.
#[inline]
fn uuid(rng: &mut Xoshiro256PlusPlus, compact: bool, upper: bool, s: &mut String) {
    let hi = rng.gen::<u64>();
    let lo = rng.gen::<u64>();
    // Version 4, IETF variant.
    let hi = (hi & !0xF000) | 0x4000;
    let lo = (lo & !(0xC << 60)) | (0x8 << 60);
    let bytes = (u128::from(hi) << 64 | u128::from(lo)).to_be_bytes();
    let digits: &[u8; 16] = if upper {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    for (k, b) in bytes.iter().enumerate() {
        if !compact && matches!(k, 4 | 6 | 8 | 10) {
            s.push('-');
        }
        s.push(char::from(digits[usize::from(b >> 4)]));
        s.push(char::from(digits[usize::from(b & 0xF)]));
    }
}
