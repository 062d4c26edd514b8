//! The rekey plan across the boundary: `rk.rekey` analyzes both designs on the rows (the
//! package's `analyze`, a Spark DataFrame's `analyze_df`) and hands the two reports here; the
//! plan is the engine's (`rowkey_lab::advise::rekey`), as the CLI's `rekey` prints it.

use pyo3::prelude::*;
use rowkey_lab::advise::rekey::{rekey_plan_from, ReportFigures};
use rowkey_lab::advise::RekeyOptions;
use rowkey_lab::design::DesignDocument;
use rowkey_lab::error::Error;

use crate::core;

/// `rekey_plan(old, new, old_report, new_report, options)`: JSON texts in, the plan's JSON out.
#[pyfunction]
#[pyo3(signature = (old_json, new_json, old_report, new_report, options_json=None))]
pub(crate) fn rekey_plan(
    py: Python<'_>,
    old_json: &str,
    new_json: &str,
    old_report: &str,
    new_report: &str,
    options_json: Option<&str>,
) -> PyResult<String> {
    let doc = |name: &str, text: &str| {
        DesignDocument::from_json(text).map_err(|e| {
            let at = format!("{name}{}", e.location.path.as_deref().unwrap_or_default());
            e.at_path(at)
        })
    };
    let figures = |name: &str, text: &str| -> Result<ReportFigures, Error> {
        serde_json::from_str(text)
            .map_err(|e| Error::arg(name, format!("{name}: not an analysis report ({e})")))
    };
    let options = |text: Option<&str>| -> Result<RekeyOptions, Error> {
        match text {
            None => Ok(RekeyOptions::default()),
            Some(t) => {
                serde_json::from_str(t).map_err(|e| Error::arg("options", format!("options: {e}")))
            }
        }
    };
    core(
        py,
        (|| {
            let plan = rekey_plan_from(
                &doc("old", old_json)?,
                &doc("new", new_json)?,
                &figures("old_report", old_report)?,
                &figures("new_report", new_report)?,
                &options(options_json)?,
            )?;
            serde_json::to_string(&plan).map_err(|e| Error::arg("plan", e.to_string()))
        })(),
    )
}
