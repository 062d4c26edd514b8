//! What a Phoenix table's global indexes add to a rows analysis: the first pass over an
//! in-memory CSV of N orders (default 1,000,000) of a table salted 8 ways, read by one
//! `RowsSession` on this thread, with the table's two global indexes (an index on the
//! creation time, a covered index on the customer) and without them (`without_indexes`), in
//! turns, REPS times each (default 5), then the whole analysis (both passes) once each way.
//! The first pass's times are this thread's CPU time (`/proc/thread-self/schedstat`), robust to
//! other jobs on a shared machine; the whole analysis's are wall times. `cargo run --profile native-tests --example index_rows -- 1000000`.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
use rowkey_lab::analyze::{AnalyzeOptions, RowsSession};
use rowkey_lab::design::phoenix::parse_create_table;
use rowkey_lab::rows::RowsOptions;

const SQL: &str = "CREATE TABLE ORDERS (
    ORDER_ID VARCHAR NOT NULL PRIMARY KEY,
    CUSTOMER_ID VARCHAR,
    CREATED_AT TIMESTAMP,
    TOTAL DECIMAL(10, 2)
) SALT_BUCKETS = 8;
CREATE INDEX BY_TIME ON ORDERS (CREATED_AT) SALT_BUCKETS = 0;
CREATE INDEX BY_CUSTOMER ON ORDERS (CUSTOMER_ID) INCLUDE (TOTAL);";

/// This thread's CPU time in ns; wall time where the kernel does not say it.
fn cpu_ns(wall: &std::time::Instant) -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| wall.elapsed().as_nanos() as u64)
}

/// `n` orders, one every 50 ms from 2023-11-14T22:13:20Z, 5,000 customers.
fn orders_csv(n: u64) -> Vec<u8> {
    use std::fmt::Write;
    let mut s = String::from("ORDER_ID,CUSTOMER_ID,CREATED_AT,TOTAL\n");
    let t0 = 1_700_000_000_000i64;
    for j in 0..n {
        let ms = t0 + 50 * j as i64;
        let (secs, milli) = (ms / 1000, ms % 1000);
        let (day, rest) = (secs / 86_400, secs % 86_400);
        // 2023-11-14 is day 19,675 since 1970-01-01; the run stays within November's 30 days
        let dom = 14 + (day - 19_675);
        writeln!(
            s,
            "o{j:08},c{:05},2023-11-{dom:02}T{:02}:{:02}:{:02}.{milli:03}Z,{}.{:02}",
            j * 7919 % 5000,
            rest / 3600,
            rest % 3600 / 60,
            rest % 60,
            j % 900 + 10,
            j % 100
        )
        .unwrap();
    }
    s.into_bytes()
}

fn session(indexes: bool) -> RowsSession {
    let doc = parse_create_table(SQL).unwrap();
    let rows = RowsOptions {
        name: Some("orders.csv".into()),
        time: Some("CREATED_AT".into()),
        ..RowsOptions::default()
    };
    let mut s = RowsSession::new(doc, AnalyzeOptions::default(), rows).unwrap();
    if !indexes {
        s.without_indexes().unwrap();
    }
    s
}

/// The first pass's CPU time (ms), and the whole analysis's wall time when `whole` (its
/// counting may spread over threads).
fn run(csv: &[u8], indexes: bool, whole: bool) -> (f64, f64) {
    let wall = std::time::Instant::now();
    let t = cpu_ns(&wall);
    let mut s = session(indexes);
    s.push(csv).unwrap();
    let end = s.end_scan().unwrap();
    let first = cpu_ns(&wall) - t;
    if !whole {
        return (first as f64 / 1e6, 0.0);
    }
    if !end.analyzed {
        s.push(csv).unwrap();
    }
    s.end().unwrap();
    let report = s.report().unwrap();
    assert_eq!(report.indexes.len(), if indexes { 2 } else { 0 });
    (first as f64 / 1e6, wall.elapsed().as_secs_f64() * 1e3)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let reps: usize = std::env::var("REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let csv = orders_csv(n);
    // ONLY=with: the first pass with the indexes alone, REPS times (for a profiler's samples)
    if std::env::var("ONLY").is_ok_and(|o| o == "with") {
        for _ in 0..reps {
            println!("first pass with indexes {:.0} ms", run(&csv, true, false).0);
        }
        return;
    }
    println!("{n} rows, {} MB of CSV", csv.len() / 1_000_000);
    let (mut with, mut without) = (Vec::new(), Vec::new());
    for r in 0..reps {
        let a = run(&csv, false, false).0;
        let b = run(&csv, true, false).0;
        println!("rep {r}: first pass without indexes {a:.0} ms, with 2 global indexes {b:.0} ms");
        without.push(a);
        with.push(b);
    }
    let (a, b) = (median(without), median(with));
    println!(
        "median of {reps}: first pass without indexes {a:.0} ms, with {b:.0} ms (+{:.0} ms for the indexes)",
        b - a
    );
    let (_, a) = run(&csv, false, true);
    let (_, b) = run(&csv, true, true);
    println!("whole analysis once (wall): without indexes {a:.0} ms, with {b:.0} ms");
}
