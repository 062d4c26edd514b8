//! Rooms that say what they hold (issue 71 item 5): no function of the engine runs over 150
//! lines, so each reads as one step of its operation, and no source file runs over 600 unless
//! it says why. Counted from the source text, as a reviewer would: a `fn` item's line to the
//! closing brace at its own indentation; a file's lines.

// A failed assertion is how a test reports; the no-panic rule is for the library.
#![allow(clippy::panic)]

use std::fs;
use std::path::{Path, PathBuf};

/// The longest function the engine keeps, in lines (its signature and body).
const MOST_LINES: usize = 150;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Each function of `text` with its length in lines: a line whose code starts with `fn` (after
/// `pub`, `pub(crate)`, `const`, `async`, `unsafe`) and does not end a declaration with `;`,
/// to the first line after it that is its indentation and `}`.
fn functions(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let code = line.trim_start();
        let indent = &line[..line.len() - code.len()];
        let mut rest = code;
        for p in [
            "pub(crate) ",
            "pub(super) ",
            "pub ",
            "const ",
            "async ",
            "unsafe ",
        ] {
            rest = rest.strip_prefix(p).unwrap_or(rest);
        }
        let Some(sig) = rest.strip_prefix("fn ") else {
            continue;
        };
        if code.ends_with(';') {
            continue;
        }
        let name: String = sig
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let close = format!("{indent}}}");
        if let Some(end) = lines.iter().skip(i + 1).position(|l| *l == close) {
            out.push((name, end + 2));
        }
    }
    out
}

#[test]
fn no_engine_function_runs_over_150_lines() {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    assert!(files.len() > 100, "the engine's sources are read");
    let mut long = Vec::new();
    for f in files {
        let text = fs::read_to_string(&f).unwrap_or_default();
        for (name, n) in functions(&text) {
            if n > MOST_LINES {
                long.push(format!("{} fn {name}: {n} lines", f.display()));
            }
        }
    }
    assert!(
        long.is_empty(),
        "over {MOST_LINES} lines:\n{}",
        long.join("\n")
    );
}

#[test]
fn the_counter_counts_a_function_to_its_closing_brace() {
    let text =
        "impl X {\n    pub fn a(&self) -> u8 {\n        1\n    }\n    fn b();\n}\nfn c() {\n}\n";
    assert_eq!(
        functions(text),
        [("a".to_string(), 3), ("c".to_string(), 2)]
    );
}

/// The longest source file the engine keeps, in lines.
const MOST_FILE_LINES: usize = 600;

/// The files allowed past [`MOST_FILE_LINES`], each with why (`("src/x.rs", "why")`).
const LONG_FILES: &[(&str, &str)] = &[];

#[test]
fn no_source_file_runs_over_600_lines_unless_it_says_why() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    assert!(files.len() > 100, "the engine's sources are read");
    let mut long = Vec::new();
    for f in files {
        let n = fs::read_to_string(&f).unwrap_or_default().lines().count();
        let rel = f
            .strip_prefix(root)
            .unwrap_or(&f)
            .to_string_lossy()
            .into_owned();
        if n > MOST_FILE_LINES && !LONG_FILES.iter().any(|(p, _)| *p == rel) {
            long.push(format!("{rel}: {n} lines"));
        }
    }
    assert!(
        long.is_empty(),
        "over {MOST_FILE_LINES} lines (split it along a seam, or say why in LONG_FILES):\n{}",
        long.join("\n")
    );
}
