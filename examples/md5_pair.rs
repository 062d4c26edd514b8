//! MD5 of 11-byte messages one at a time vs in pairs (`rowkey_lab::hbase::hash::md5_pair`), thread
//! CPU ns per message: `cargo run --profile bench --example md5_pair`.
#![allow(clippy::unwrap_used, missing_docs)]
use rowkey_lab::hbase::hash::{md5, md5_pair};
use std::hint::black_box;
fn cpu() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}
fn main() {
    let n = 4_000_000u64;
    let msg = |i: u64| -> [u8; 11] {
        let mut m = *b"13800000000";
        for (k, b) in m.iter_mut().enumerate().skip(3) {
            *b = b'0' + ((i >> (k * 3)) % 10) as u8;
        }
        m
    };
    for _ in 0..3 {
        let t = cpu();
        let mut acc = 0u8;
        for i in 0..n {
            acc ^= md5(black_box(&msg(i)))[15];
        }
        let one = (cpu() - t) as f64 / n as f64;
        let t = cpu();
        for i in (0..n).step_by(2) {
            let [x, y] = md5_pair(black_box(&msg(i)), black_box(&msg(i + 1)));
            acc ^= x[15] ^ y[15];
        }
        let two = (cpu() - t) as f64 / n as f64;
        println!("md5 one at a time {one:.1} ns, in pairs {two:.1} ns per message ({acc})");
    }
}
