//! The case-table harness of the engine's tests (`advise`, `analyze`, `keyspec`, `rows`,
//! `workload`: `crate::cases`).
//!
//! A test that checks a table of cases (a fixture file's entries, golden-vector lines, a list
//! of keys) records each failing case in a [`Failures`] and reports them all at the end, so one
//! broken case is one entry naming it, with what was expected and what came out, and the
//! other cases still run. [`fixture`] reads a test folder's `cases/*.json` files.

use std::fmt::{Debug, Display, Write};
use std::path::Path;

use serde_json::Value;

/// How many failing checks a report prints in full; the rest are counted.
const SHOWN: usize = 40;

/// Values whose one-line form is at most this long are shown on one line each, longer ones
/// as a line diff of their pretty forms.
const ONE_LINE: usize = 100;

/// The failing cases of one table, reported together by [`Failures::finish`].
#[must_use = "call finish() to report the failures"]
pub struct Failures {
    table: String,
    checks: usize,
    failures: Vec<String>,
}

impl Failures {
    /// An empty report for the table `table` (what the cases test, as the failure heading).
    pub fn new(table: impl Display) -> Failures {
        Failures {
            table: table.to_string(),
            checks: 0,
            failures: Vec::new(),
        }
    }

    /// Records a failure of `case` unless `actual == expected`; true when they are equal.
    pub fn eq<T: PartialEq + Debug + ?Sized>(
        &mut self,
        case: impl Display,
        actual: &T,
        expected: &T,
    ) -> bool {
        let ok = actual == expected;
        self.checks += 1;
        if !ok {
            let (e, a) = (format!("{expected:?}"), format!("{actual:?}"));
            let detail = if e.len().max(a.len()) <= ONE_LINE {
                format!("expected: {e}\nactual:   {a}")
            } else {
                diff(&format!("{expected:#?}"), &format!("{actual:#?}"))
            };
            self.push(case, detail);
        }
        ok
    }

    /// Records a failure of `case`, described by `detail`, unless `ok`; returns `ok`.
    pub fn check(&mut self, case: impl Display, ok: bool, detail: impl Display) -> bool {
        self.checks += 1;
        if !ok {
            self.push(case, detail.to_string());
        }
        ok
    }

    /// Records a failure of `case` (a step that could not run: a parse, an encode).
    pub fn fail(&mut self, case: impl Display, detail: impl Display) {
        self.check(case, false, detail);
    }

    /// Fails the test with every recorded failure, or returns the number of checks made.
    #[allow(clippy::panic)] // a failed test panics
    #[track_caller]
    pub fn finish(self) -> usize {
        if self.failures.is_empty() {
            return self.checks;
        }
        let mut out = format!(
            "{}: {} of {} checks failed\n",
            self.table,
            self.failures.len(),
            self.checks
        );
        for f in self.failures.iter().take(SHOWN) {
            let _ = writeln!(out, "{f}");
        }
        if self.failures.len() > SHOWN {
            let _ = writeln!(out, "... and {} more", self.failures.len() - SHOWN);
        }
        panic!("{out}");
    }

    fn push(&mut self, case: impl Display, detail: String) {
        let detail = detail.trim_end().replace('\n', "\n    ");
        self.failures.push(format!("- {case}\n    {detail}"));
    }
}

/// A line diff of two pretty-printed values (`-` expected only, `+` actual only); for values
/// too long to diff whole, the first differing line with the lines around it.
fn diff(expected: &str, actual: &str) -> String {
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    if e.len().saturating_mul(a.len()) > 1_000_000 {
        let at = e.iter().zip(&a).take_while(|(x, y)| x == y).count();
        let from = at.saturating_sub(3);
        let mut out = format!("first difference at line {} of the pretty form:\n", at + 1);
        for (sign, lines) in [("-", &e), ("+", &a)] {
            for l in lines.iter().skip(from).take(at + 4 - from) {
                let _ = writeln!(out, "{sign} {l}");
            }
        }
        return out;
    }
    // Longest common subsequence of lines, from the end.
    let mut lcs = vec![vec![0usize; a.len() + 1]; e.len() + 1];
    for i in (0..e.len()).rev() {
        for j in (0..a.len()).rev() {
            lcs[i][j] = if e[i] == a[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut out = String::from("expected (-) / actual (+):\n");
    let (mut i, mut j) = (0, 0);
    while i < e.len() || j < a.len() {
        if i < e.len() && j < a.len() && e[i] == a[j] {
            let _ = writeln!(out, "  {}", e[i]);
            (i, j) = (i + 1, j + 1);
        } else if i < e.len() && (j == a.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            let _ = writeln!(out, "- {}", e[i]);
            i += 1;
        } else {
            let _ = writeln!(out, "+ {}", a[j]);
            j += 1;
        }
    }
    out
}

/// Where two JSON values differ, as `path: expected X, actual Y` lines (at most `limit`), for
/// large structured values such as whole reports.
pub fn json_differences(expected: &Value, actual: &Value, limit: usize) -> Vec<String> {
    fn walk(path: &str, e: &Value, a: &Value, out: &mut Vec<String>, limit: usize) {
        if out.len() >= limit || e == a {
            return;
        }
        match (e, a) {
            (Value::Object(eo), Value::Object(ao)) => {
                let keys: std::collections::BTreeSet<&String> =
                    eo.keys().chain(ao.keys()).collect();
                for k in keys {
                    let (x, y) = (
                        eo.get(k).unwrap_or(&Value::Null),
                        ao.get(k).unwrap_or(&Value::Null),
                    );
                    walk(&format!("{path}/{k}"), x, y, out, limit);
                }
            }
            (Value::Array(ea), Value::Array(aa)) => {
                if ea.len() != aa.len() {
                    out.push(format!(
                        "{path}: expected {} items, actual {}",
                        ea.len(),
                        aa.len()
                    ));
                }
                for (i, (x, y)) in ea.iter().zip(aa).enumerate() {
                    walk(&format!("{path}/{i}"), x, y, out, limit);
                }
            }
            _ => out.push(format!("{path}: expected {e}, actual {a}")),
        }
    }
    let mut out = Vec::new();
    walk("", expected, actual, &mut out, limit);
    out
}

/// The JSON fixture `tests/engine/<area>/cases/<name>`.
#[allow(clippy::panic)] // a missing or malformed fixture fails the test
pub fn fixture(area: &str, name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/engine")
        .join(area)
        .join("cases")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The entries of a fixture's array member `key`, each with its index.
#[allow(clippy::panic)] // a malformed fixture fails the test
pub fn entries<'a>(fixture: &'a Value, key: &str) -> impl Iterator<Item = (usize, &'a Value)> {
    fixture[key]
        .as_array()
        .unwrap_or_else(|| panic!("the fixture has no array `{key}`"))
        .iter()
        .enumerate()
}
