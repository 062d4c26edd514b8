//! Golden-vector harness: runs every `*.jsonl` under `VECTORS_DIR` (default
//! `../shared/vectors`) through the core and fails on any line that fails or cannot run.
//! Closing line: `vectors: N passed, M failed`; the exit code is non-zero on any failure.
//! It is a plain `main` (`harness = false`) so the summary always prints. Works unchanged on any folder of vector
//! files in the same format (see `../shared/vectors/README.md`).

use std::path::{Path, PathBuf};

use rowkey_lab::vectors::{run_line, Verdict};

/// How many failures are printed in full before the summary.
const SHOW_FAILURES: usize = 25;

fn vectors_dir() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    match std::env::var_os("VECTORS_DIR") {
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
        None => manifest.join("../shared/vectors"),
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

fn main() {
    let dir = vectors_dir();
    let mut files = Vec::new();
    collect(&dir, &mut files);
    files.sort();
    if files.is_empty() {
        die(format!("no *.jsonl files under {}", dir.display()));
    }
    let (mut passed, mut failed) = (0usize, 0usize);
    let mut shown = Vec::new();
    for f in &files {
        let name = f.strip_prefix(&dir).unwrap_or(f).display().to_string();
        let text =
            std::fs::read_to_string(f).unwrap_or_else(|e| die(format!("cannot read {name}: {e}")));
        let (mut fp, mut ff) = (0usize, 0usize);
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let v = run_line(line);
            if v == Verdict::Pass {
                fp += 1;
                continue;
            }
            ff += 1;
            if shown.len() < SHOW_FAILURES {
                shown.push(match v {
                    Verdict::Fail { func, args, expected, got } => format!(
                        "FAIL {name}:{} fn={func}\n  args:     {args}\n  expected: {expected}\n  got:      {got}",
                        i + 1
                    ),
                    Verdict::CannotRun { func, reason } => {
                        format!("CANNOT RUN {name}:{} fn={func}: {reason}\n  line: {line}", i + 1)
                    }
                    Verdict::Pass => String::new(),
                });
            }
        }
        println!("{name}: {fp} passed, {ff} failed");
        passed += fp;
        failed += ff;
    }
    for s in &shown {
        println!("{s}");
    }
    println!("vectors: {passed} passed, {failed} failed");
    if failed > 0 || passed == 0 {
        std::process::exit(1);
    }
}
