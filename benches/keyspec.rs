//! `cargo bench --bench keyspec`: row keys per second for every preset, and the cost of each
//! MD5-prefixed design relative to `md5_as_hex` alone on the same input.
//!
//! No criterion (build time): each preset's examples are varied into a few thousand records
//! (digits of strings permuted, timestamps and longs shifted), converted to typed values once,
//! then encoded in a loop for a fixed time budget; the median of several runs is reported.
//! An MD5 design and its MD5 alone run alternately, and the ratio is the median of the
//! per-pair ratios (a shared machine's load drifts between runs of one side otherwise).
// A bench is a test binary: a broken preset should stop it loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use rowkey_lab::design::DesignDocument;
use rowkey_lab::hbase::hash::md5_as_hex;
use rowkey_lab::keyspec::FieldType;
use rowkey_lab::keyspec::{CompiledKey, FieldValue, KeySpec, Segment};

const RECORDS: usize = 4096;
const RUNS: usize = 7;
/// Alternated runs of a design and of its MD5 alone.
const PAIRS: usize = 11;
const BUDGET: Duration = Duration::from_millis(150);

/// xorshift64*: deterministic variation without a dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// A variant of `v`: every digit of a string replaced, longs and timestamps shifted.
fn vary(v: &FieldValue, ty: FieldType, r: &mut Rng) -> FieldValue {
    match (v, ty) {
        (FieldValue::Str(s), _) => FieldValue::Str(
            s.chars()
                .map(|c| {
                    if c.is_ascii_digit() {
                        char::from(b'0' + (r.next() % 10) as u8)
                    } else {
                        c
                    }
                })
                .collect(),
        ),
        (FieldValue::Long(x), FieldType::Timestamp | FieldType::Long) => {
            FieldValue::Long(x.wrapping_add((r.next() % 1_000_000_000_000) as i64))
        }
        (FieldValue::Long(x), _) => FieldValue::Long(x.wrapping_add((r.next() % 1000) as i64)),
        _ => v.clone(),
    }
}

/// This thread's CPU time (`/proc/thread-self/schedstat`, Linux), so a busy shared machine
/// does not skew the figures; wall time elsewhere.
fn cpu_now(wall: Instant) -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .map_or_else(|| wall.elapsed(), Duration::from_nanos)
}

/// Run `f` over `n` items for `BUDGET` of CPU time: items per second of CPU time.
fn rate(n: usize, f: &mut impl FnMut(usize)) -> f64 {
    let wall = Instant::now();
    let start = cpu_now(wall);
    let mut done = 0usize;
    while cpu_now(wall) - start < BUDGET {
        for i in 0..n {
            f(i);
        }
        done += n;
    }
    done as f64 / (cpu_now(wall) - start).as_secs_f64()
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// [`rate`] `RUNS` times: the median.
fn median_rate(n: usize, mut f: impl FnMut(usize)) -> f64 {
    median((0..RUNS).map(|_| rate(n, &mut f)).collect())
}

/// `a` and `b` alternately, `PAIRS` times each: their median rates and the median of the
/// per-pair ratios `rate(b) / rate(a)`. Each pair shares the machine's state of the moment,
/// so a shared machine's drifts cancel in the ratio instead of landing on one side.
fn paired(
    n: usize,
    mut a: impl FnMut(usize),
    m: usize,
    mut b: impl FnMut(usize),
) -> (f64, f64, f64) {
    let (mut ra, mut rb, mut q) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..PAIRS {
        let x = rate(n, &mut a);
        let y = rate(m, &mut b);
        ra.push(x);
        rb.push(y);
        q.push(y / x);
    }
    (median(ra), median(rb), median(q))
}

/// The `of` segments of every MD5 segment at the top level of the key.
fn md5_sources(spec: &KeySpec) -> Vec<KeySpec> {
    spec.segments
        .iter()
        .filter_map(|s| match s {
            Segment::Md5(h) => h.of.clone(),
            Segment::Md5Hex(h) => h.of.clone(),
            _ => None,
        })
        .map(|segments| KeySpec { segments })
        .collect()
}

fn main() {
    println!(
        "| preset | keys/s (median of {RUNS}; MD5 designs {PAIRS}) | ns/key | md5_as_hex alone, ns | ratio (median of {PAIRS} alternated pairs) |"
    );
    println!("|---|---:|---:|---:|---:|");
    // `cargo bench --bench keyspec -- md5`: only presets whose id contains an argument.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    for p in rowkey_lab::design::presets::all() {
        if !filters.is_empty() && !filters.iter().any(|f| p.id.contains(f.as_str())) {
            continue;
        }
        let doc = DesignDocument::from_json(p.json).unwrap();
        let mut ck = CompiledKey::new(&doc.key, &doc.key_fields()).unwrap();
        let types: Vec<FieldType> = doc.fields.iter().map(|f| f.field_type).collect();
        let bases: Vec<Vec<FieldValue>> = doc
            .examples
            .iter()
            .map(|e| ck.values_from_json(&e.record).unwrap())
            .collect();
        let mut r = Rng(0x9E37_79B9_7F4A_7C15);
        let mut records = Vec::with_capacity(RECORDS);
        for i in 0..RECORDS {
            let base = &bases[i % bases.len()];
            let v: Vec<FieldValue> = base
                .iter()
                .zip(&types)
                .map(|(v, t)| vary(v, *t, &mut r))
                .collect();
            // A variant the design rejects (a dictionary miss) falls back to the example.
            records.push(if ck.encode_values(&v).is_ok() {
                v
            } else {
                base.clone()
            });
        }
        let mut out = Vec::with_capacity(256);
        let mut encode = |i: usize| {
            out.clear();
            ck.encode_values_into(&mut out, black_box(&records[i]))
                .unwrap();
            black_box(&out);
        };
        let sources = md5_sources(&doc.key);
        let (rate, base_ns, ratio) = if sources.is_empty() {
            (
                median_rate(records.len(), encode),
                String::new(),
                String::new(),
            )
        } else {
            // The exact bytes each MD5 hashes, per record.
            let mut subs: Vec<CompiledKey> = sources
                .iter()
                .map(|s| CompiledKey::new(s, &doc.key_fields()).unwrap())
                .collect();
            let inputs: Vec<Vec<Vec<u8>>> = records
                .iter()
                .map(|v| {
                    subs.iter_mut()
                        .map(|c| c.encode_values(v).unwrap())
                        .collect()
                })
                .collect();
            let md5 = |i: usize| {
                for b in &inputs[i] {
                    black_box(md5_as_hex(black_box(b)));
                }
            };
            let (md5_rate, rate, q) = paired(inputs.len(), md5, records.len(), &mut encode);
            (
                rate,
                format!("{:.0}", 1e9 / md5_rate),
                format!("{:.2}×", 1.0 / q),
            )
        };
        println!(
            "| {} | {:.2} M | {:.0} | {} | {} |",
            p.id,
            rate / 1e6,
            1e9 / rate,
            base_ns,
            ratio
        );
    }
}
