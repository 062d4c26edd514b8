//! The design advisor across the boundary. `adviseDesign` does everything in one call (one
//! thread: wasm has none); for parallel work a caller takes `adviseCandidates`, hands each
//! candidate's design to a worker's `evaluateCandidate`, and gives the evaluations, in
//! candidate order, to `adviseFrom`, which answers exactly as `adviseDesign` would.

use wasm_bindgen::prelude::*;

use super::{core, doc_arg, int_arg, json_text, opts, to_js};
use crate::advise::{self, AdviseOptions};

/// Advisor options; `undefined` / `null` mean the defaults.
fn advise_opts(v: JsValue) -> Result<AdviseOptions, JsValue> {
    if v.is_undefined() || v.is_null() {
        Ok(AdviseOptions::default())
    } else {
        opts("options", v, advise::read_options)
    }
}

/// A row sample's bytes (`RowsSession.rowSample()`), or none.
#[cfg(feature = "rows")]
fn row_sample(rows: &JsValue) -> Result<Option<crate::rows::RowSample>, JsValue> {
    if rows.is_undefined() || rows.is_null() {
        return Ok(None);
    }
    let bytes = super::bytes_arg("rows", rows)?;
    Ok(Some(core(crate::rows::RowSample::from_bytes(&bytes))?))
}

/// The whole advice: `{recommended, candidates, inputFlags, capacity, …}`. `rows`: a sample
/// of the user's rows (`RowsSession.rowSample()`), which every candidate is evaluated on
/// instead of the design's workload (the npm package's and the speed build's).
#[wasm_bindgen(js_name = adviseDesign)]
pub fn advise_design(doc: JsValue, options: JsValue, rows: JsValue) -> Result<JsValue, JsValue> {
    let doc = doc_arg("doc", &doc)?;
    let o = advise_opts(options)?;
    #[cfg(feature = "rows")]
    if let Some(sample) = row_sample(&rows)? {
        return to_js(&core(advise::advise_on_rows(&doc, &o, &sample))?);
    }
    if !(rows.is_undefined() || rows.is_null()) {
        return Err(super::bad_arg(
            "rows",
            "nothing: this build reads no rows",
            &rows,
        ));
    }
    to_js(&core(advise::advise(&doc, &o))?)
}

/// The candidates (`{candidates: [{label, changes, keyText, design}], servers,
/// targetRegions, fixedFields}`), the input first; with `rows` (a sample of the user's rows)
/// each design's workload is sized to the rows' file, as `adviseDesign` sizes it.
#[wasm_bindgen(js_name = adviseCandidates)]
pub fn advise_candidates(
    doc: JsValue,
    options: JsValue,
    rows: JsValue,
) -> Result<JsValue, JsValue> {
    let (doc, _) = sized(doc_arg("doc", &doc)?, &rows)?;
    let o = advise_opts(options)?;
    to_js(&core(advise::candidates(&doc, &o))?)
}

/// `doc` sized to the rows of a sample's file (its header alone: the file's rows and time
/// span), or as it is without one; and the rows sampled and the file's, for the answer.
fn sized(
    doc: crate::design::DesignDocument,
    rows: &JsValue,
) -> Result<(crate::design::DesignDocument, Option<(u64, u64)>), JsValue> {
    if rows.is_undefined() || rows.is_null() {
        return Ok((doc, None));
    }
    #[cfg(feature = "rows")]
    {
        let bytes = super::bytes_arg("rows", rows)?;
        let (file, sampled) = core(crate::rows::RowSample::header(&bytes))?;
        Ok((
            crate::analyze::doc_for_rows(&doc, &file),
            Some((sampled, file.rows)),
        ))
    }
    #[cfg(not(feature = "rows"))]
    Err(super::bad_arg(
        "rows",
        "nothing: this build reads no rows",
        rows,
    ))
}

/// One candidate's figures on the advisor's workload (`targetRegions` from
/// `adviseCandidates`).
#[wasm_bindgen(js_name = evaluateCandidate)]
pub fn evaluate_candidate(
    design: JsValue,
    options: JsValue,
    target_regions: JsValue,
    rows: JsValue,
) -> Result<JsValue, JsValue> {
    let design = doc_arg("design", &design)?;
    let o = advise_opts(options)?;
    let t = int_arg("targetRegions", &target_regions, 1, 100_000)? as u32;
    #[cfg(feature = "rows")]
    if let Some(sample) = row_sample(&rows)? {
        return to_js(&core(advise::evaluate_on_rows(&design, &o, t, &sample))?);
    }
    if !(rows.is_undefined() || rows.is_null()) {
        return Err(super::bad_arg(
            "rows",
            "nothing: this build reads no rows",
            &rows,
        ));
    }
    to_js(&core(advise::evaluate(&design, &o, t))?)
}

/// The answer from evaluations made elsewhere (workers), in candidate order: each the
/// result of `evaluateCandidate` or `{error: message}`.
#[wasm_bindgen(js_name = adviseFrom)]
pub fn advise_from(
    doc: JsValue,
    options: JsValue,
    evaluations: JsValue,
    rows: JsValue,
) -> Result<JsValue, JsValue> {
    let doc = doc_arg("doc", &doc)?;
    let o = advise_opts(options)?;
    let evals = core(advise::read_evaluations(&json_text(
        "evaluations",
        &evaluations,
    )?))?;
    // over rows, the whole sample: the index findings are counted over it
    #[cfg(feature = "rows")]
    if let Some(sample) = row_sample(&rows)? {
        return to_js(&core(advise::advise_from_rows_evaluated(
            &doc, &o, evals, &sample,
        ))?);
    }
    let (doc, counts) = sized(doc, &rows)?;
    let set = core(advise::candidates(&doc, &o))?;
    to_js(&core(advise::advise_from_rows(
        &doc, &o, &set, evals, counts,
    ))?)
}

/// How many regions to create a table of this design with, from what its analysis measured
/// (`keyBytes`: the mean row key; `regions` at the end of the run; `activeRegionsPerWindow`;
/// `writeRate`, the report's, else the workload's):
/// `{recommended, capacityRegions, servers, presplit, presplitRegions, matchesDesign, capacity}`
/// (src/advise/regions.rs). The speed build's and the npm package's: the page asks a worker
/// on the speed build, so the first load does not carry the capacity arithmetic.
#[wasm_bindgen(js_name = planRegions)]
pub fn plan_regions(
    doc: JsValue,
    key_bytes: JsValue,
    regions: JsValue,
    active_regions_per_window: JsValue,
    write_rate: JsValue,
) -> Result<JsValue, JsValue> {
    // a design that is just a key, beside the rows that declared its fields (the page's report
    // over your rows)
    let doc = super::doc_arg_for_rows("doc", &doc)?;
    let number = |name: &str, v: &JsValue| match v.as_f64() {
        Some(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(super::bad_arg(name, "a number, 0 or more", v)),
    };
    let measured = advise::RegionPlanInput {
        key_bytes: number("keyBytes", &key_bytes)?,
        regions: int_arg("regions", &regions, 1, i64::from(u32::MAX))? as usize,
        active_regions_per_window: number("activeRegionsPerWindow", &active_regions_per_window)?,
        write_rate: if write_rate.is_undefined() || write_rate.is_null() {
            None
        } else {
            Some(number("writeRate", &write_rate)?)
        },
    };
    to_js(&advise::region_plan(&doc, &measured))
}

/// The rekey plan (src/advise/rekey.rs): moving the rows `oldReport` analysed under `oldDoc`
/// to `newDoc`, whose analysis of the same rows is `newReport` (each as `analyzeDesign` or a
/// rows session gives it; the plan reads its writes, bytes, regions, metrics, diagnosis and
/// split keys). `options`: `RekeyOptions` (family, maxFileSize, maxHfiles, replication,
/// compression, parallelism, readMibPerSec, writeMibPerSec, oldTable, newTable, columns).
#[cfg(feature = "library")]
#[wasm_bindgen(js_name = rekeyPlan)]
pub fn rekey_plan(
    old_doc: JsValue,
    new_doc: JsValue,
    old_report: JsValue,
    new_report: JsValue,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let old = super::doc_arg_for_rows("oldDoc", &old_doc)?;
    let new = super::doc_arg_for_rows("newDoc", &new_doc)?;
    // read as JSON text (src/wasm/js.rs's catching reads), the report's other members ignored
    let figures = |name: &str, v: JsValue| -> Result<crate::rekey::ReportFigures, JsValue> {
        let text = json_text(name, &v)?;
        let v = serde_json::from_str(&text).map_err(|e| {
            super::js_error(&crate::error::Error::arg(
                name,
                format!("not an analysis report ({e})"),
            ))
        })?;
        core(crate::rekey::ReportFigures::read(name, &v))
    };
    let a = figures("oldReport", old_report)?;
    let b = figures("newReport", new_report)?;
    let o: crate::rekey::RekeyOptions = options_arg(&options)?;
    to_js(&core(crate::rekey::rekey_plan_from(
        &old, &new, &a, &b, &o,
    ))?)
}

/// `cutAtRows(doc, cut)`: `doc` with the pre-split that cuts its table at the rows (`cut`:
/// `{regions, by}`; src/advise/rekey/rows.rs `cut_at_rows`): what `splits --records` and a
/// rekey's reading read the rows with.
#[cfg(feature = "library")]
#[wasm_bindgen(js_name = cutAtRows)]
pub fn cut_at_rows(doc: JsValue, cut: JsValue) -> Result<JsValue, JsValue> {
    let doc = super::doc_text("doc", &doc)?;
    let cut = optional_json("cut", &cut)?;
    js_sys::JSON::parse(&core(crate::calls::cut_at_rows(&doc, cut.as_deref()))?)
}

/// `rekeyReading(oldDoc, newDoc, cut)`: the designs a rekey's reading of the rows feeds (the
/// new one cut at the rows) and whether one reading feeds both: `{designs, shared, apart}`.
#[cfg(all(feature = "library", feature = "rows"))]
#[wasm_bindgen(js_name = rekeyReading)]
pub fn rekey_reading(old_doc: JsValue, new_doc: JsValue, cut: JsValue) -> Result<JsValue, JsValue> {
    let old = super::doc_text("oldDoc", &old_doc)?;
    let new = super::doc_text("newDoc", &new_doc)?;
    let cut = optional_json("cut", &cut)?;
    js_sys::JSON::parse(&core(crate::calls::rekey_reading(
        &old,
        &new,
        cut.as_deref(),
    ))?)
}

/// `rekeyRowsPlan(oldSide, newSide, options)`: the plan over the rows from what the reading
/// `rekeyReading` named found under each design (`{design, report, stats, splitKeysExact}`);
/// `options` as `rekeyPlan`'s, without `columns` (the rows' own are taken).
#[cfg(feature = "library")]
#[wasm_bindgen(js_name = rekeyRowsPlan)]
pub fn rekey_rows_plan(
    old_side: JsValue,
    new_side: JsValue,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let a = json_text("oldSide", &old_side)?;
    let b = json_text("newSide", &new_side)?;
    let o = optional_json("options", &options)?;
    js_sys::JSON::parse(&core(crate::calls::rekey_rows_plan(&a, &b, o.as_deref()))?)
}

/// An optional plain-data argument as JSON text (`undefined` or `null`: `None`).
#[cfg(feature = "library")]
fn optional_json(name: &str, v: &JsValue) -> Result<Option<String>, JsValue> {
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    super::plain_json(name, v).map(Some)
}

/// Verifying a rekey (src/rekey/verify.rs): `new RekeyVerifier(oldDoc, newDoc,
/// oldExport, newExport, options)` (`oldDoc` checked), each export `{rows, sample}` (its rows options, and what it says of its
/// columns: `{head, whole}` or a Parquet file's `{footer, fileLength}`, as `rowsDesign` takes),
/// `options` `{ignore, columns}`; while `next()` names a read, read that side's rows through
/// `design()` (a rows session whose keys carry their rows' digests: `keepKeys(true)`) into
/// `feed(side, keys, offsets)`; then `finish()`: `{oldRows, newRows, missing, extra, changed,
/// equal, complete, first, compared, ignored, onlyOld, onlyNew, …}`.
#[cfg(all(feature = "library", feature = "rows"))]
#[wasm_bindgen]
pub struct RekeyVerifier {
    inner: Option<crate::rekey::verify::Verifier>,
}

#[cfg(all(feature = "library", feature = "rows"))]
fn verify_side(side: &JsValue) -> Result<crate::rekey::verify::Side, JsValue> {
    use crate::rekey::verify::Side;
    match side.as_string().as_deref() {
        Some("old") => Ok(Side::Old),
        Some("new") => Ok(Side::New),
        _ => Err(super::bad_arg("side", "\"old\" or \"new\"", side)),
    }
}

/// A slice of keys as a reading gives them: `keys` (a `Uint8Array`) and `offsets` (a
/// `Uint32Array`), anything else an error at its name.
#[cfg(all(feature = "library", feature = "rows"))]
fn keys_args(keys: &JsValue, offsets: &JsValue) -> Result<(Vec<u8>, Vec<u32>), JsValue> {
    let k = super::js::u8_bytes("keys", keys)?
        .ok_or_else(|| super::bad_arg("keys", "a Uint8Array", keys))?;
    let o = super::js::u32_values("offsets", offsets)?
        .ok_or_else(|| super::bad_arg("offsets", "a Uint32Array", offsets))?;
    Ok((k, o))
}

/// One export's `{rows, sample}`: its rows options and what it says of its columns.
#[cfg(all(feature = "library", feature = "rows"))]
fn export_arg(
    name: &str,
    v: &JsValue,
) -> Result<(crate::rows::RowsOptions, crate::rows::OwnedSample), JsValue> {
    if !v.is_object() {
        return Err(super::bad_arg(name, "an object {rows, sample}", v));
    }
    let rows = super::rows::rows_opts(&super::js::get(name, v, "rows")?)?;
    let sample = super::js::get(name, v, "sample")?;
    let sample = super::rows::sample_arg(&format!("{name}.sample"), &sample, &rows)?;
    Ok((rows, sample))
}

#[cfg(all(feature = "library", feature = "rows"))]
#[wasm_bindgen]
impl RekeyVerifier {
    /// A comparison of two exports through the new design: every column both hold, unless
    /// `options` leaves it out.
    #[wasm_bindgen(constructor)]
    pub fn new(
        old_doc: JsValue,
        new_doc: JsValue,
        old_export: JsValue,
        new_export: JsValue,
        options: JsValue,
    ) -> Result<RekeyVerifier, JsValue> {
        use crate::rekey::verify::{ExportSample, Verifier, VerifyOptions};
        // the old design is only checked: the rows' keys are the new design's
        super::doc_arg_for_rows("oldDoc", &old_doc)?;
        let doc = super::doc_arg_for_rows("newDoc", &new_doc)?;
        let (ra, a) = export_arg("oldExport", &old_export)?;
        let (rb, b) = export_arg("newExport", &new_export)?;
        let opts: VerifyOptions = options_arg(&options)?;
        let old = ExportSample {
            rows: &ra,
            sample: a.sample(),
        };
        let new = ExportSample {
            rows: &rb,
            sample: b.sample(),
        };
        Ok(RekeyVerifier {
            inner: Some(core(Verifier::for_exports(doc, old, new, &opts))?),
        })
    }

    fn verifier(&mut self) -> Result<&mut crate::rekey::verify::Verifier, JsValue> {
        self.inner.as_mut().ok_or_else(|| {
            super::js_error(&crate::error::Error::new(
                crate::error::ErrorKind::IllegalState,
                "the verifier has finished",
            ))
        })
    }

    /// The design both exports are read with (the new design; each key read with its row's
    /// digest, `keepKeys(true)`), as JSON.
    pub fn design(&mut self) -> Result<JsValue, JsValue> {
        let d = self.verifier()?.design().to_json();
        Ok(JsValue::from_str(&d))
    }

    /// The read to make next, `{side: 'old' | 'new', buckets}` (`buckets` null: every row
    /// counted), or `null` when `finish()` answers: the engine's plan of rounds
    /// (src/rekey/verify.rs `next_read`), so no shell keeps its own.
    #[wasm_bindgen(js_name = next)]
    pub fn next_read(&mut self) -> Result<JsValue, JsValue> {
        match core(self.verifier()?.next_read())? {
            Some(read) => to_js(&read),
            None => Ok(JsValue::NULL),
        }
    }

    /// A slice of the side being read (its keys with their rows' digests), to the read under way.
    pub fn feed(&mut self, side: JsValue, keys: JsValue, offsets: JsValue) -> Result<(), JsValue> {
        let s = verify_side(&side)?;
        let (keys, offsets) = keys_args(&keys, &offsets)?;
        core(self.verifier()?.feed(s, &keys, &offsets))
    }

    /// The comparison (once).
    pub fn finish(&mut self) -> Result<JsValue, JsValue> {
        let v = self.inner.take().ok_or_else(|| {
            super::js_error(&crate::error::Error::new(
                crate::error::ErrorKind::IllegalState,
                "the verifier has finished",
            ))
        })?;
        to_js(&v.finish())
    }
}

/// The rekey plan on the old design's generated workload (`rekeyOnWorkload`): both designs run
/// its records, each on its own layout (src/advise/rekey.rs `rekey_on_workload`); `options` as
/// `rekeyPlan`'s. The page's Compare asks it of a worker on the speed build.
#[wasm_bindgen(js_name = rekeyOnWorkload)]
pub fn rekey_on_workload(
    old_doc: JsValue,
    new_doc: JsValue,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let old = doc_arg("oldDoc", &old_doc)?;
    let new = doc_arg("newDoc", &new_doc)?;
    let o: crate::rekey::RekeyOptions = options_arg(&options)?;
    to_js(&core(crate::rekey::rekey_on_workload(
        &old,
        &new,
        &crate::analyze::AnalyzeOptions::default(),
        &o,
    ))?)
}

/// The rekey plan from a live snapshot series of the old table alone (`rekeyFromSeries`; src/
/// advise/rekey/series.rs): `series` as `readSeries` gives it, the new table cut into `regions`
/// regions by bytes at the old design's workload re-encoded, weighted by the regions' observed
/// sizes; `sample`: records of that workload (100,000 when absent); `options` as `rekeyPlan`'s.
/// Estimates, said with their error (`estimate`).
#[cfg(feature = "library")]
#[wasm_bindgen(js_name = rekeyFromSeries)]
pub fn rekey_from_series(
    old_doc: JsValue,
    new_doc: JsValue,
    series: JsValue,
    regions: JsValue,
    sample: JsValue,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let old = doc_arg("oldDoc", &old_doc)?;
    let new = doc_arg("newDoc", &new_doc)?;
    let text = json_text("series", &series)?;
    let series: crate::region::series::RegionSeries = serde_json::from_str(&text).map_err(|e| {
        super::js_error(&crate::error::Error::arg(
            "series",
            format!("series: not a series readSeries gives ({e})"),
        ))
    })?;
    let regions = int_arg("regions", &regions, 1, i64::from(u32::MAX))? as u32;
    let sample = if sample.is_undefined() || sample.is_null() {
        None
    } else {
        Some(int_arg("sample", &sample, 1, 1 << 53)? as u64)
    };
    let o: crate::rekey::RekeyOptions = options_arg(&options)?;
    to_js(&core(crate::rekey::rekey_from_series(
        &old, &new, &series, regions, sample, &o,
    ))?)
}

/// `options` (absent or null: the defaults) read as `T`, an error at `options` otherwise.
fn options_arg<T: serde::de::DeserializeOwned + Default>(options: &JsValue) -> Result<T, JsValue> {
    if options.is_undefined() || options.is_null() {
        return Ok(T::default());
    }
    let text = super::plain_json("options", options)?;
    serde_json::from_str(&text).map_err(|e| {
        super::js_error(&crate::error::Error::arg(
            "options",
            format!("options: {e}"),
        ))
    })
}
