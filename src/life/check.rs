//! A gate on a table's simulated months, for CI (`rowkey-lab check --max-empty-regions N
//! --max-regions-per-server N`): the verdict and the month that breaks it, computed here.

use serde::Serialize;

use super::report::LifeReport;
use super::{simulate_writes, LifeMonth, LifeOptions, Writes};
use crate::design::DesignDocument;
use crate::error::Result;

/// The most a simulated month may show; each absent one is not checked. Read from JSON by
/// [`super::read::life_budgets`] (`LifeBudgets::from_json`).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LifeBudgets {
    /// The most empty regions (no store file, no memstore) at any month's end.
    pub max_empty_regions: Option<u32>,
    /// The most of the table's regions on one server at any month's end.
    pub max_regions_per_server: Option<u32>,
}

/// One checked figure over the months.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MonthFigure {
    /// The budget.
    pub limit: u32,
    /// The highest value over the months.
    pub worst: u32,
    /// The month it was highest (the first such).
    pub worst_month: u32,
    /// The first month over the budget; `None`: within it every month.
    pub first_month_over: Option<u32>,
}

/// The verdict on a simulation.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LifeCheck {
    /// Every checked figure within its budget in every month.
    pub ok: bool,
    /// Months simulated.
    pub months: u32,
    /// Empty regions, when checked.
    pub empty_regions: Option<MonthFigure>,
    /// Regions on the fullest server, when checked.
    pub regions_per_server: Option<MonthFigure>,
    /// Each breach in words, naming its month.
    pub breaches: Vec<String>,
    /// The months' diagnosis (the report's), so a failed gate can name the worst finding and
    /// its fix.
    pub diagnosis: Option<super::LifeDiagnosis>,
}

/// `report` checked against `b`.
pub fn check(report: &LifeReport, b: &LifeBudgets) -> LifeCheck {
    let empty = b
        .max_empty_regions
        .map(|limit| figure(report, limit, |m| m.empty_regions));
    let per_server = b.max_regions_per_server.map(|limit| {
        figure(report, limit, |m| {
            m.servers.iter().map(|s| s.regions).max().unwrap_or(0)
        })
    });
    let mut breaches = Vec::new();
    let mut say = |f: &Option<MonthFigure>, what: &str| {
        if let Some(MonthFigure {
            limit,
            worst,
            worst_month,
            first_month_over: Some(first),
        }) = f
        {
            breaches.push(format!(
                "{what} over {limit} from month {first} (the most: {worst} in month {worst_month})"
            ));
        }
    };
    say(&empty, "empty regions");
    say(&per_server, "regions on one server");
    LifeCheck {
        ok: breaches.is_empty(),
        months: report.months.len() as u32,
        empty_regions: empty,
        regions_per_server: per_server,
        breaches,
        diagnosis: report.diagnosis.clone(),
    }
}

fn figure(report: &LifeReport, limit: u32, of: fn(&LifeMonth) -> u32) -> MonthFigure {
    let mut f = MonthFigure {
        limit,
        worst: 0,
        worst_month: 0,
        first_month_over: None,
    };
    for m in &report.months {
        let v = of(m);
        if v > f.worst || f.worst_month == 0 {
            f.worst = v;
            f.worst_month = m.month;
        }
        if v > limit && f.first_month_over.is_none() {
            f.first_month_over = Some(m.month);
        }
    }
    f
}

/// A design's table simulated under `options` (as [`super::simulate_design`]) and checked
/// against `budgets`.
pub fn check_design(
    doc: &DesignDocument,
    options: &LifeOptions,
    budgets: &LifeBudgets,
) -> Result<LifeCheck> {
    check_writes(doc, Writes::Design, options, budgets)
}

/// [`check_design`] with the table's writes from `writes` (the design's workload or a user's
/// rows).
pub fn check_writes(
    doc: &DesignDocument,
    writes: Writes<'_>,
    options: &LifeOptions,
    budgets: &LifeBudgets,
) -> Result<LifeCheck> {
    Ok(check(&simulate_writes(doc, writes, options)?, budgets))
}
