//! Budgets a design must keep, for CI: the mean per-window hotspot factor, the server hotspot
//! factor, the scans a read may need, the lint level that fails, and the example keys. One
//! verdict, computed here, for the CLI's `check`, the page and the library alike.

use serde::Serialize;

use crate::design::{lint, DesignDocument, Finding, Severity};
use crate::error::{Error, Result};
use crate::scan::ReadPlan;
use crate::support::json::{f64_, read_object, u32_, unit, Node, R};

use super::{AnalysisReport, AnalyzeOptions};

/// Which lint findings break the budget (example-key findings always do).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum LintLevel {
    /// Findings of severity `error` fail (what makes `lint` exit 1).
    Error,
    /// Findings of severity `error` or `warning` fail.
    Warning,
    /// Lint is not part of the budget.
    Off,
}

impl LintLevel {
    fn fails(self, s: Severity) -> bool {
        match self {
            LintLevel::Error => s == Severity::Error,
            LintLevel::Warning => s <= Severity::Warning,
            LintLevel::Off => false,
        }
    }
}

/// The limits a design is checked against. JSON: `{"maxHotspot": 2, "maxServerHotspot": 1.5,
/// "maxScans": 16, "lint": "error"}`, every member optional.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Budgets {
    /// The most the mean per-window hotspot factor (busiest region / mean region) may be.
    pub max_hotspot: f64,
    /// The most the server hotspot factor (busiest server / mean server) may be, if checked.
    pub max_server_hotspot: Option<f64>,
    /// The most scans any one read may need.
    pub max_scans: u32,
    /// Which lint findings fail.
    pub lint: LintLevel,
}

impl Default for Budgets {
    fn default() -> Budgets {
        Budgets {
            max_hotspot: 2.0,
            max_server_hotspot: None,
            max_scans: 16,
            lint: LintLevel::Error,
        }
    }
}

impl Budgets {
    /// A hotspot factor is never below 1 and a read needs at least one scan: a budget under
    /// either could never pass, so it is a mistake in the budget, not a finding.
    pub fn validate(&self) -> Result<()> {
        let factor = |v: f64, name: &str, of: &str| {
            if v.is_finite() && v >= 1.0 {
                Ok(())
            } else {
                Err(Error::arg(
                    name,
                    format!("must be a number of at least 1 ({of}), not {v}"),
                ))
            }
        };
        factor(
            self.max_hotspot,
            "maxHotspot",
            "busiest region / mean region",
        )?;
        if let Some(v) = self.max_server_hotspot {
            factor(v, "maxServerHotspot", "busiest server / mean server")?;
        }
        if self.max_scans < 1 {
            return Err(Error::arg(
                "maxScans",
                "must be a whole number of at least 1, not 0",
            ));
        }
        Ok(())
    }
}

/// The verdict of one design against [`Budgets`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckVerdict {
    /// No budget is broken.
    pub ok: bool,
    /// The mean per-window hotspot factor.
    pub hotspot_factor: f64,
    /// The server hotspot factor.
    pub server_hotspot_factor: f64,
    /// The most scans any read needs (0 without reads).
    pub max_scans: usize,
    /// The lint findings that fail at the budget's level (example-key findings aside).
    pub lint: Vec<Finding>,
    /// The example-key findings: recorded keys the design no longer writes.
    pub examples: Vec<Finding>,
    /// Every broken budget, in words.
    pub breaches: Vec<String>,
}

/// Check `doc`'s analysis `report` and read `plans` against `budgets`.
pub fn check(
    doc: &DesignDocument,
    report: &AnalysisReport,
    plans: &[ReadPlan],
    budgets: &Budgets,
) -> CheckVerdict {
    let mut breaches = Vec::new();
    let hot = report.metrics.mean_hotspot_factor;
    if hot > budgets.max_hotspot {
        breaches.push(format!("hotspot factor {hot:.2} > {}", budgets.max_hotspot));
    }
    let server_hot = report.server_metrics.hotspot_factor;
    if let Some(max) = budgets.max_server_hotspot.filter(|m| server_hot > *m) {
        breaches.push(server_breach(report, server_hot, max));
    }
    for p in plans
        .iter()
        .filter(|p| p.scans.len() > budgets.max_scans as usize)
    {
        breaches.push(format!(
            "read \"{}\" needs {} scans > {}",
            p.name,
            p.scans.len(),
            budgets.max_scans
        ));
    }
    // The examples are key tests, failed whatever the lint level: an example whose recorded
    // key the design no longer writes is a row stored where this design will not look.
    let (examples, others): (Vec<Finding>, Vec<Finding>) =
        lint(doc).into_iter().partition(|f| f.rule == "example-key");
    breaches.extend(examples.iter().map(|f| f.message.clone()));
    let failing: Vec<Finding> = others
        .into_iter()
        .filter(|f| budgets.lint.fails(f.severity))
        .collect();
    for f in &failing {
        let at = f
            .segment
            .map_or(String::new(), |s| format!(" (segment {s})"));
        breaches.push(format!(
            "lint {} {}{at}: {}",
            severity_name(f.severity),
            f.rule,
            f.message
        ));
    }
    CheckVerdict {
        ok: breaches.is_empty(),
        hotspot_factor: hot,
        server_hotspot_factor: server_hot,
        max_scans: plans.iter().map(|p| p.scans.len()).max().unwrap_or(0),
        lint: failing,
        examples,
        breaches,
    }
}

/// Analyze `doc`'s own workload, plan its reads over its pre-split, and check both.
pub fn check_design(
    doc: &DesignDocument,
    budgets: &Budgets,
    opts: &AnalyzeOptions,
) -> Result<CheckVerdict> {
    // Before the analysis: a budget that could never pass fails at once.
    budgets.validate()?;
    let report = super::analyze(doc, opts)?;
    check_report(doc, &report, budgets)
}

/// Check a finished `report` of `doc` (its own workload or records fed to an
/// [`AnalysisRun`](super::AnalysisRun)), its reads planned over the design's pre-split.
pub fn check_report(
    doc: &DesignDocument,
    report: &AnalysisReport,
    budgets: &Budgets,
) -> Result<CheckVerdict> {
    budgets.validate()?;
    let plans = doc.plan_reads(&super::initial_split_keys(doc)?)?;
    Ok(check(doc, report, &plans, budgets))
}

fn server_breach(report: &AnalysisReport, factor: f64, max: f64) -> String {
    let m = &report.server_metrics;
    let busiest = report.servers.get(m.busiest_region.unwrap_or(0));
    let name = busiest.map_or_else(
        || "server 0".to_string(),
        |s| {
            s.name
                .clone()
                .unwrap_or_else(|| format!("server {}", s.index))
        },
    );
    let named = report.servers.iter().any(|s| s.name.is_some());
    format!(
        "server hotspot factor {factor:.2} > {max} (busiest: {name}, {:.1} % of the writes on {} servers{})",
        m.busiest_share * 100.0,
        report.servers.len(),
        if named { " placed as the table has them" } else { "" }
    )
}

fn severity_name(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    }
}

/// [`Budgets`] from `{maxHotspot, maxServerHotspot, maxScans, lint}`, every member optional.
pub(crate) fn budgets(n: &Node) -> R<Budgets> {
    let d = Budgets::default();
    Ok(read_object!(
        n,
        "struct Budgets",
        None,
        Budgets {
            max_hotspot: or("maxHotspot", f64_, d.max_hotspot),
            max_server_hotspot: opt("maxServerHotspot", f64_),
            max_scans: or("maxScans", u32_, d.max_scans),
            lint: or("lint", lint_level, d.lint),
        }
    ))
}

fn lint_level(n: &Node) -> R<LintLevel> {
    unit(
        n,
        &[
            ("error", LintLevel::Error),
            ("warning", LintLevel::Warning),
            ("off", LintLevel::Off),
        ],
    )
}

impl Budgets {
    /// Budgets from their JSON text; errors carry the JSON path.
    pub fn from_json(text: &str) -> Result<Budgets> {
        let b = crate::support::json::from_json(text, budgets)?;
        b.validate()?;
        Ok(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn preset(id: &str) -> DesignDocument {
        crate::design::presets::get(id).unwrap_or_else(|e| panic!("{e}"))
    }

    fn quick() -> AnalyzeOptions {
        AnalyzeOptions {
            windows: 16,
            ..AnalyzeOptions::default()
        }
    }

    #[test]
    fn a_time_first_key_breaks_the_hotspot_budget_a_looser_one_does_not() {
        let doc = preset("seed000-telecom-time-first");
        let v = check_design(&doc, &Budgets::default(), &quick()).unwrap_or_else(|e| panic!("{e}"));
        assert!(!v.ok && v.hotspot_factor > 2.0, "{v:?}");
        assert!(v.breaches[0].starts_with("hotspot factor "), "{v:?}");
        let loose = Budgets {
            max_hotspot: v.hotspot_factor + 1.0,
            max_scans: 1 << 20,
            lint: LintLevel::Off,
            ..Budgets::default()
        };
        let v2 = check_design(&doc, &loose, &quick()).unwrap_or_else(|e| panic!("{e}"));
        assert!(v2.ok, "{v2:?}");
        assert_eq!(v2.hotspot_factor, v.hotspot_factor);
    }

    #[test]
    fn each_read_over_the_scan_budget_is_named() {
        let doc = preset("seed000-telecom");
        let plans = doc
            .plan_reads(&crate::analyze::initial_split_keys(&doc).unwrap_or_default())
            .unwrap_or_else(|e| panic!("{e}"));
        let most = plans.iter().map(|p| p.scans.len()).max().unwrap_or(0);
        assert!(most > 1, "the preset has a read with several scans");
        let tight = Budgets {
            max_hotspot: 1e9,
            max_scans: u32::try_from(most - 1).unwrap_or(1),
            lint: LintLevel::Off,
            ..Budgets::default()
        };
        let v = check_design(&doc, &tight, &quick()).unwrap_or_else(|e| panic!("{e}"));
        let over = plans.iter().filter(|p| p.scans.len() >= most).count();
        assert_eq!(v.breaches.len(), over, "{v:?}");
        assert_eq!(v.max_scans, most);
    }

    #[test]
    fn budgets_that_could_never_pass_are_refused_with_their_name() {
        for (text, path) in [
            (r#"{"maxHotspot": 0.5}"#, "maxHotspot"),
            (r#"{"maxServerHotspot": -1}"#, "maxServerHotspot"),
            (r#"{"maxScans": 0}"#, "maxScans"),
        ] {
            let e = Budgets::from_json(text).err();
            assert_eq!(
                e.and_then(|e| e.location.path),
                Some(path.to_string()),
                "{text}"
            );
        }
        assert!(Budgets::from_json(r#"{"lint": "loud"}"#).is_err());
        assert!(Budgets::from_json(r#"{"maxHotpsot": 2}"#).is_err());
        assert_eq!(Budgets::from_json("{}").ok(), Some(Budgets::default()));
    }

    #[test]
    fn lint_level_decides_which_findings_fail() {
        assert!(LintLevel::Warning.fails(Severity::Error));
        assert!(LintLevel::Warning.fails(Severity::Warning));
        assert!(!LintLevel::Warning.fails(Severity::Info));
        assert!(!LintLevel::Error.fails(Severity::Warning));
        assert!(!LintLevel::Off.fails(Severity::Error));
    }
}
