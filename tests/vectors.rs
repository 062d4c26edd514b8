//! Golden-vector harness: runs every `*.jsonl` under `VECTORS_DIR` (default
//! `../shared/vectors`) and under `VECTORS_PENDING_DIR` (default `../shared/vectors-pending`)
//! through the core and fails on any line that fails or cannot run. A line whose function the
//! engine does not implement yet (`rowkey_lab::vectors::NOT_YET`) is counted as pending, by
//! function family, and is neither a pass nor a failure.
//! Closing line: `vectors: N passed, M failed`; the exit code is non-zero on any failure.
//! It is a plain `main` (`harness = false`) so the summary always prints. Works unchanged on any folder of vector
//! files in the same format (see `../shared/vectors/README.md`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rowkey_lab::vectors::{run_line, Verdict};

/// How many failures are printed in full before the summary.
const SHOW_FAILURES: usize = 25;

fn vectors_dir(var: &str, default: &str) -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    match std::env::var_os(var) {
        Some(d) => {
            let p = PathBuf::from(d);
            if p.is_absolute() {
                p
            } else {
                std::env::current_dir()
                    .unwrap_or_else(|_| manifest.to_path_buf())
                    .join(p)
            }
        }
        None => manifest.join(default),
    }
}

/// Report a harness problem and fail the run.
fn die(msg: String) -> ! {
    eprintln!("{msg}");
    println!("vectors: 0 passed, 1 failed");
    std::process::exit(1)
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let rd = match std::fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) => die(format!("cannot read vectors folder {}: {e}", dir.display())),
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "jsonl") {
            out.push(p);
        }
    }
}

/// Totals over every file run.
#[derive(Default)]
struct Tally {
    passed: usize,
    failed: usize,
    /// Pending lines by family (`phoenix`, `opentsdb.Internal`…: the `fn` up to its last dot).
    pending: BTreeMap<String, usize>,
    shown: Vec<String>,
}

fn run_file(name: &str, text: &str, t: &mut Tally) {
    let (mut fp, mut ff, mut pending) = (0usize, 0usize, 0usize);
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v = run_line(line);
        match &v {
            Verdict::Pass => {
                fp += 1;
                continue;
            }
            Verdict::Pending { func } => {
                pending += 1;
                let family = func.rsplit_once('.').map_or(func.as_str(), |(f, _)| f);
                *t.pending.entry(family.to_string()).or_default() += 1;
                continue;
            }
            _ => ff += 1,
        }
        if t.shown.len() < SHOW_FAILURES {
            t.shown.push(match v {
                Verdict::Fail { func, args, expected, got } => format!(
                    "FAIL {name}:{} fn={func}\n  args:     {args}\n  expected: {expected}\n  got:      {got}",
                    i + 1
                ),
                Verdict::CannotRun { func, reason } => {
                    format!("CANNOT RUN {name}:{} fn={func}: {reason}\n  line: {line}", i + 1)
                }
                Verdict::Pass | Verdict::Pending { .. } => String::new(),
            });
        }
    }
    let pending = if pending > 0 {
        format!(", {pending} pending")
    } else {
        String::new()
    };
    println!("{name}: {fp} passed, {ff} failed{pending}");
    t.passed += fp;
    t.failed += ff;
}

fn run_dir(dir: &Path, label: &str, t: &mut Tally) {
    let mut files = Vec::new();
    collect(dir, &mut files);
    files.sort();
    if files.is_empty() {
        die(format!("no *.jsonl files under {}", dir.display()));
    }
    for f in &files {
        let name = format!("{label}{}", f.strip_prefix(dir).unwrap_or(f).display());
        let text =
            std::fs::read_to_string(f).unwrap_or_else(|e| die(format!("cannot read {name}: {e}")));
        run_file(&name, &text, t);
    }
}

fn main() {
    let mut t = Tally::default();
    run_dir(&vectors_dir("VECTORS_DIR", "../shared/vectors"), "", &mut t);
    run_dir(
        &vectors_dir("VECTORS_PENDING_DIR", "../shared/vectors-pending"),
        "pending/",
        &mut t,
    );
    for s in &t.shown {
        println!("{s}");
    }
    if !t.pending.is_empty() {
        let families: Vec<String> = t.pending.iter().map(|(f, n)| format!("{f} {n}")).collect();
        println!(
            "not implemented yet (pending, not run): {}",
            families.join(", ")
        );
    }
    println!("vectors: {} passed, {} failed", t.passed, t.failed);
    if t.failed > 0 || t.passed == 0 {
        std::process::exit(1);
    }
}
