//! Analysis, read planning and split-key export across the boundary. The big matrices and the
//! key sample cross as typed arrays (one copy each, no per-cell or per-key JS objects);
//! everything else through `to_js`.

use js_sys::{Reflect, Uint32Array};
use wasm_bindgen::prelude::*;

use super::analyze_opts;
use super::{
    bad_arg, bytes_arg, bytes_list_arg, core, doc_arg, js_error, key_list, opts, str_arg, to_js,
};
use crate::analyze::{AnalysisReport, AnalysisRun};
use crate::design::DesignDocument;
use crate::error::Error;

/// Replace `obj[key].cells` with a `Uint32Array` of the matrix's cells.
fn typed_cells(obj: &JsValue, key: &str, cells: &[u32]) -> Result<(), JsValue> {
    let target = Reflect::get(obj, &JsValue::from_str(key))?;
    Reflect::set(
        &target,
        &JsValue::from_str("cells"),
        &Uint32Array::from(cells),
    )?;
    Ok(())
}

/// A report as JS: the engine's [`ReportParts`](crate::calls::ReportParts) put together, with
/// `matrix.cells` and `grid.cells` as `Uint32Array`s and the key sample as `{keys: Uint8Array,
/// offsets: Uint32Array, regions: Uint32Array}`.
pub(crate) fn report_js(r: AnalysisReport) -> Result<JsValue, JsValue> {
    parts_js(core(crate::calls::report_parts(r))?)
}

fn parts_js(p: crate::calls::ReportParts) -> Result<JsValue, JsValue> {
    let out = js_sys::JSON::parse(&p.json)?;
    let set = |obj: &JsValue, k: &str, v: &JsValue| Reflect::set(obj, &JsValue::from_str(k), v);
    set(
        &Reflect::get(&out, &"matrix".into())?,
        "cells",
        &Uint32Array::from(&p.matrix[..]),
    )?;
    set(
        &Reflect::get(&out, &"grid".into())?,
        "cells",
        &Uint32Array::from(&p.grid[..]),
    )?;
    let t = js_sys::Object::new();
    set(&t, "keys", &js_sys::Uint8Array::from(&p.keys[..]))?;
    set(&t, "offsets", &Uint32Array::from(&p.offsets[..]))?;
    set(&t, "regions", &Uint32Array::from(&p.regions[..]))?;
    set(&out, "sample", &t)?;
    let indexes = Reflect::get(&out, &JsValue::from_str("indexes"))?;
    for (i, report) in p.indexes.into_iter().enumerate() {
        if let Some(report) = report {
            let x = Reflect::get(&indexes, &JsValue::from_f64(i as f64))?;
            set(&x, "report", &parts_js(report)?)?;
        }
    }
    Ok(out)
}

/// Analyze a whole design document: `{writes, regions, matrix: {rows, cols, cells:
/// Uint32Array}, grid, sample, metrics, splits, diagnosis, …}`.
#[cfg(feature = "library")]
#[wasm_bindgen(js_name = analyzeDesign)]
pub fn analyze_design(doc: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let doc = super::doc_text("doc", &doc)?;
    let o = match options.is_undefined() || options.is_null() {
        true => None,
        false => Some(super::plain_json("options", &options)?),
    };
    parts_js(core(crate::calls::analyze_design(&doc, o.as_deref()))?)
}

/// An incremental analysis for a Web Worker: `step(maxRecords)` between messages (so a cancel
/// can arrive), `finish()` for the report over what was analyzed.
#[wasm_bindgen]
pub struct AnalysisSession {
    run: AnalysisRun,
    doc: DesignDocument,
    /// The options, for the design's indexes analyzed at [`AnalysisSession::finish`].
    opts: crate::analyze::AnalyzeOptions,
}

#[wasm_bindgen]
impl AnalysisSession {
    /// `new AnalysisSession(doc, options)`.
    #[wasm_bindgen(constructor)]
    pub fn new(doc: JsValue, options: JsValue) -> Result<AnalysisSession, JsValue> {
        let doc = doc_arg("doc", &doc)?;
        let o = analyze_opts(options)?;
        Ok(AnalysisSession {
            run: core(AnalysisRun::new(&doc, &o))?,
            doc,
            opts: o,
        })
    }

    /// Analyze up to `maxRecords` more: `{done, total, regions, finished}`.
    pub fn step(&mut self, max_records: JsValue) -> Result<JsValue, JsValue> {
        let n = super::int_arg("maxRecords", &max_records, 1, 1 << 40)?;
        to_js(&core(self.run.step(n as u64))?)
    }

    /// Count `records` (an array of `{field: value}` objects, as `encodeKey` takes) as the
    /// next writes, instead of the generated workload; record `n` of the run is written at
    /// the workload's clock. `{done, total, regions, finished}`, `total` being the number fed.
    pub fn feed(&mut self, records: JsValue) -> Result<JsValue, JsValue> {
        let records = opts("records", records, |n| {
            crate::support::json::list(n, crate::support::json::map)
        })?;
        to_js(&core(self.run.feed(&records))?)
    }

    /// Where the run is, without analyzing more.
    pub fn progress(&self) -> Result<JsValue, JsValue> {
        to_js(&self.run.progress())
    }

    /// The report over the records analyzed so far; once every generated record is
    /// analyzed, with each Phoenix index of the design analyzed over the same workload
    /// (`indexes`). Fed records and an unfinished run leave `indexes` empty.
    pub fn finish(&self) -> Result<JsValue, JsValue> {
        let report = self.run.finish();
        if self.run.is_fed() || !self.run.progress().finished {
            return report_js(report);
        }
        report_js(core(crate::analyze::with_indexes(
            &self.doc, &self.opts, report,
        ))?)
    }

    /// The records analyzed so far checked against `budgets` (as `checkDesign` does).
    pub fn check(&self, budgets: JsValue) -> Result<JsValue, JsValue> {
        let b = super::policy::budgets_arg(budgets)?;
        let report = self.run.finish();
        to_js(&core(crate::analyze::check::check_report(
            &self.doc, &report, &b,
        ))?)
    }
}

/// The analysis spread over workers, block by block (the npm package's and the page's speed
/// build's: the page's size build goes without it). A worker counts a run of consecutive
/// blocks (`AnalysisSession.forBlocks`) and hands its `partial()` counts on; one of them adds
/// every run's up (`combineAnalyses`) into the session one worker counting every block would
/// have: the same report, byte for byte.
#[cfg(any(feature = "library", feature = "fast"))]
#[wasm_bindgen]
impl AnalysisSession {
    /// `AnalysisSession.forBlocks(doc, options, first, end)`: a session over blocks
    /// `first..end` of the workload only (`blocks()` says how many it has).
    #[wasm_bindgen(js_name = forBlocks)]
    pub fn for_blocks(
        doc: JsValue,
        options: JsValue,
        first: JsValue,
        end: JsValue,
    ) -> Result<AnalysisSession, JsValue> {
        let doc = doc_arg("doc", &doc)?;
        let o = analyze_opts(options)?;
        let first = super::int_arg("first", &first, 0, 1 << 40)? as u64;
        let end = super::int_arg("end", &end, 1, 1 << 40)? as u64;
        Ok(AnalysisSession {
            run: core(AnalysisRun::for_blocks(&doc, &o, first, end))?,
            doc,
            opts: o,
        })
    }

    /// Blocks of the workload that workers can count apart (1 with auto-split, counted in one
    /// pass).
    pub fn blocks(&self) -> f64 {
        self.run.blocks() as f64
    }

    /// What this session counted, as bytes for `combineAnalyses`.
    pub fn partial(&self) -> Result<Vec<u8>, JsValue> {
        core(self.run.partial())
    }

    /// `cedeHalf()`: the second half of the blocks this session has not begun, `[first, end]`,
    /// handed over to another worker (this session now ends at `first`); `null` when fewer
    /// than two are left.
    #[wasm_bindgen(js_name = cedeHalf)]
    pub fn cede_half(&mut self) -> Result<JsValue, JsValue> {
        Ok(match core(self.run.cede_half())? {
            Some((a, b)) => to_js(&[a, b])?,
            None => JsValue::NULL,
        })
    }
}

/// `blockRanges(blocks, workers)`: `blocks` cut into at most `workers` runs of consecutive
/// blocks as even as can be, `[[first, end], …]`: what each worker counts.
#[cfg(any(feature = "library", feature = "fast"))]
#[wasm_bindgen(js_name = blockRanges)]
pub fn block_ranges(blocks: JsValue, workers: JsValue) -> Result<JsValue, JsValue> {
    let blocks = super::int_arg("blocks", &blocks, 1, 1 << 40)? as u64;
    let workers = super::int_arg("workers", &workers, 1, 1024)? as usize;
    to_js(&crate::analyze::block_ranges(blocks, workers))
}

/// `combineAnalyses(doc, options, partials)`: the session of the whole workload from the
/// `partial()` counts of sessions that together counted each block once, in any order.
#[cfg(any(feature = "library", feature = "fast"))]
#[wasm_bindgen(js_name = combineAnalyses)]
pub fn combine_analyses(
    doc: JsValue,
    options: JsValue,
    partials: JsValue,
) -> Result<AnalysisSession, JsValue> {
    let doc = doc_arg("doc", &doc)?;
    let o = analyze_opts(options)?;
    let parts = super::bytes_list_arg("partials", &partials)?;
    let parts: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    Ok(AnalysisSession {
        run: core(AnalysisRun::combine(&doc, &o, &parts))?,
        doc,
        opts: o,
    })
}

/// Compare 2–4 designs over the first one's workload on one grid (`designs[i].grid.cells` and
/// `designs[i].matrix.cells` as `Uint32Array`s).
#[wasm_bindgen(js_name = compareDesigns)]
pub fn compare_designs(docs: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let Some(docs) = super::js::items("docs", &docs, 16)? else {
        return Err(bad_arg("docs", "an array of design documents", &docs));
    };
    let list = docs
        .iter()
        .enumerate()
        .map(|(i, d)| doc_arg(&format!("docs[{i}]"), d))
        .collect::<Result<Vec<_>, _>>()?;
    let o = analyze_opts(options)?;
    let c = core(crate::analyze::compare(&list, &o))?;
    let out = to_js(&c)?;
    let designs = Reflect::get(&out, &JsValue::from_str("designs"))?;
    for (i, d) in c.designs.iter().enumerate() {
        let design = Reflect::get(&designs, &JsValue::from_f64(i as f64))?;
        typed_cells(&design, "grid", &d.grid.cells)?;
        typed_cells(&design, "matrix", &d.matrix.cells)?;
    }
    Ok(out)
}

/// The table's initial split keys (the pre-split, computed from a workload sample when the
/// layout needs one), as `Uint8Array[]`.
fn initial_split_keys(doc: &DesignDocument) -> Result<Vec<Vec<u8>>, JsValue> {
    core(crate::analyze::initial_split_keys(doc))
}

/// `layoutSplitKeys(doc)`: the design's pre-split keys as `Uint8Array[]`.
#[wasm_bindgen(js_name = layoutSplitKeys)]
pub fn layout_split_keys(doc: JsValue) -> Result<JsValue, JsValue> {
    let doc = doc_arg("doc", &doc)?;
    Ok(key_list(&initial_split_keys(&doc)?))
}

/// `phoenixRegionsNote(doc)`: who creates a salted Phoenix table's regions, in a sentence
/// (Phoenix, at its buckets), or `null` for any other design.
#[wasm_bindgen(js_name = phoenixRegionsNote)]
pub fn phoenix_regions_note(doc: JsValue) -> Result<Option<String>, JsValue> {
    let doc = doc_arg("doc", &doc)?;
    Ok(crate::design::phoenix::salted_regions_note(&doc))
}

/// Plan every read of the design over `splitKeys` (default: the design's pre-split):
/// `[{name, scans, regionsTouched, rowsReadPerRowReturned, notes}]`. The npm package's: the
/// page plans its reads beside a report (`readsBeside`).
#[cfg(feature = "library")]
#[wasm_bindgen(js_name = planReads)]
pub fn plan_reads(doc: JsValue, split_keys: JsValue) -> Result<JsValue, JsValue> {
    let doc = doc_arg("doc", &doc)?;
    let keys = if split_keys.is_undefined() || split_keys.is_null() {
        initial_split_keys(&doc)?
    } else {
        let keys = bytes_list_arg("splitKeys", &split_keys)?;
        // The same checks as a table's split keys (sorted, no empty or duplicate key).
        core(crate::region::RegionMap::new(keys.clone()))?;
        keys
    };
    to_js(&core(doc.plan_reads(&keys))?)
}

/// Each read of a Phoenix design through the table Phoenix would pick among the data table
/// (split at `splitKeys`, default its pre-split) and its indexes (each at its own pre-split):
/// `[{read, chosen, withoutIndex, candidates}]`; `[]` without indexes.
#[cfg(any(feature = "library", feature = "fast"))]
#[wasm_bindgen(js_name = planIndexReads)]
pub fn plan_index_reads(doc: JsValue, split_keys: JsValue) -> Result<JsValue, JsValue> {
    let doc = doc_arg("doc", &doc)?;
    let keys = if split_keys.is_undefined() || split_keys.is_null() {
        initial_split_keys(&doc)?
    } else {
        let keys = bytes_list_arg("splitKeys", &split_keys)?;
        core(crate::region::RegionMap::new(keys.clone()))?;
        keys
    };
    to_js(&core(crate::analyze::plan_reads_through_indexes(
        &doc, &keys,
    ))?)
}

/// A table name for a shell statement: a string, not empty.
fn table_arg(v: &JsValue) -> Result<String, JsValue> {
    let table = str_arg("table", v)?;
    if table.is_empty() {
        return Err(js_error(&Error::arg("table", "the table name is empty")));
    }
    Ok(table)
}

/// The HBase shell line `create 'table', 'family', SPLITS => [...]`; with `versions` (the
/// design's `cells.versions`) other than 1, the family as `{NAME => 'family', VERSIONS => n}`.
#[wasm_bindgen(js_name = shellCreate)]
pub fn shell_create(
    table: JsValue,
    family: JsValue,
    keys: JsValue,
    versions: JsValue,
) -> Result<String, JsValue> {
    let table = table_arg(&table)?;
    let family = str_arg("family", &family)?;
    let keys = bytes_list_arg("keys", &keys)?;
    let versions = match versions.is_undefined() || versions.is_null() {
        true => None,
        false => Some(super::int_arg("versions", &versions, 1, i64::from(u32::MAX))? as u32),
    };
    core(crate::hbase::shell::shell_create_with(
        &table, &family, versions, &keys,
    ))
}

/// The HBase shell line `scan 'table', {STARTROW => "…", STOPROW => "…"}` of one scan of a
/// read plan (`startRow` / `stopRow` as bytes; an empty one is left out), with `LIMIT => n`
/// when `limit` (a plan's `limit`) is given.
#[wasm_bindgen(js_name = shellScan)]
pub fn shell_scan(
    table: JsValue,
    start_row: JsValue,
    stop_row: JsValue,
    limit: JsValue,
) -> Result<String, JsValue> {
    let table = table_arg(&table)?;
    let start = bytes_arg("startRow", &start_row)?;
    let stop = bytes_arg("stopRow", &stop_row)?;
    let limit = match limit.is_undefined() || limit.is_null() {
        true => None,
        false => Some(super::int_arg("limit", &limit, 1, 1 << 53)? as u64),
    };
    Ok(crate::hbase::shell::shell_scan_limited(
        &table, &start, &stop, limit,
    ))
}

/// The keys as a `SPLITS_FILE`: one toStringBinary key per line.
#[wasm_bindgen(js_name = splitsFile)]
pub fn splits_file(keys: JsValue) -> Result<String, JsValue> {
    core(crate::hbase::shell::splits_file(&bytes_list_arg(
        "keys", &keys,
    )?))
}

/// A table's current regions read from what HBase prints (`get_splits`, `list_regions`,
/// `scan 'hbase:meta'`, a `SPLITS_FILE` or a `create` statement), as a design's
/// `regions.presplit`: `{source, table, regions, presplit, verified, notes}`. `table` picks
/// one table when the text has region names of several.
// The speed build's and the npm package's, not the page's size build: the readers of what
// HBase prints and of Phoenix DDL are a fourteenth of the first load (27 KB gzip), and the
// page reads those texts in a worker that loads the speed build (engine/readers.js).
#[cfg(any(feature = "library", feature = "fast"))]
#[wasm_bindgen(js_name = readRegions)]
pub fn read_regions(text: JsValue, table: JsValue) -> Result<JsValue, JsValue> {
    let text = str_arg("text", &text)?;
    let table = if table.is_undefined() || table.is_null() {
        None
    } else {
        Some(str_arg("table", &table)?)
    };
    to_js(&core(crate::region::read_regions(&text, table.as_deref()))?)
}

/// A whole number a report holds at `name` (a count of writes or rows).
fn count_arg(name: &str, v: &JsValue) -> Result<u64, JsValue> {
    match v.as_f64() {
        Some(f) if f.fract() == 0.0 && (0.0..=9_007_199_254_740_992.0).contains(&f) => Ok(f as u64),
        _ => Err(bad_arg(name, "a whole number", v)),
    }
}

/// The array at `v[key]`, named `name.key`.
fn list_at(name: &str, v: &JsValue, key: &str) -> Result<Vec<JsValue>, JsValue> {
    let at = format!("{name}.{key}");
    let x = super::js::get(name, v, key)?;
    super::js::items(&at, &x, crate::limits::MAX_LIST_ITEMS)?
        .ok_or_else(|| bad_arg(&at, "an array", &x))
}

/// The members of a report the answers beside it read (`regions[].startKeyHex`,
/// `regions[].writes`, `writes`, `servers[].name`, `servers[].rows`), read one by one: the
/// rest of the report (its matrices, its sample) is never copied in.
fn report_table(v: &JsValue) -> Result<crate::analyze::ReportTable, JsValue> {
    let mut t = crate::analyze::ReportTable::default();
    for (i, r) in list_at("report", v, "regions")?.iter().enumerate() {
        let name = format!("report.regions[{i}]");
        let k = super::js::get(&name, r, "startKeyHex")?;
        let k = k
            .as_string()
            .ok_or_else(|| bad_arg(&format!("{name}.startKeyHex"), "a string", &k))?;
        t.start_keys_hex.push(k);
        let w = super::js::get(&name, r, "writes")?;
        t.region_writes
            .push(count_arg(&format!("{name}.writes"), &w)?);
    }
    t.writes = count_arg("report.writes", &super::js::get("report", v, "writes")?)?;
    for (i, s) in list_at("report", v, "servers")?.iter().enumerate() {
        let name = format!("report.servers[{i}]");
        let n = super::js::get(&name, s, "name")?;
        let server = match n.is_null() || n.is_undefined() {
            true => None,
            false => Some(
                n.as_string()
                    .ok_or_else(|| bad_arg(&format!("{name}.name"), "a string or null", &n))?,
            ),
        };
        let rows = count_arg(&format!("{name}.rows"), &super::js::get(&name, s, "rows")?)?;
        t.servers.push((server, rows));
    }
    Ok(t)
}

/// `readsBeside(doc, report)`: the design's reads over the regions `report` ends with
/// (auto-split's daughters included), and through Phoenix's indexes when it has indexes and
/// reads: `{reads, readsError, indexReads?, indexReadsError?}`, a planning error kept beside
/// the report. What the page's workers and the CLI's `analyze` show (src/analyze/beside.rs).
#[wasm_bindgen(js_name = readsBeside)]
pub fn reads_beside(doc: JsValue, report: JsValue) -> Result<JsValue, JsValue> {
    let doc = doc_arg("doc", &doc)?;
    let table = report_table(&report)?;
    #[cfg(any(feature = "library", feature = "fast"))]
    let beside = crate::analyze::reads_beside(&doc, &table);
    // the page's size build: Phoenix's index planner is 27 KB gzip of the first load, and the
    // page draws no reads through the indexes (its speed build and the npm package answer them)
    #[cfg(not(any(feature = "library", feature = "fast")))]
    let beside = crate::analyze::data_reads_beside(&doc, &table);
    to_js(&beside)
}

/// `tableNow(list, report)`: a table's load now (`list.load`, as `readRegions` gave it) against
/// the design's writes on the table `report` ends with: `{what, total, busiestNow, regions,
/// busiestDesign, servers}` (`regions` null when the design's regions are not the table's), or
/// null when the load counted nothing.
#[wasm_bindgen(js_name = tableNow)]
pub fn table_now(list: JsValue, report: JsValue) -> Result<JsValue, JsValue> {
    let mut load = Vec::new();
    for (i, l) in list_at("list", &list, "load")?.iter().enumerate() {
        let name = format!("list.load[{i}]");
        let text = |key: &str| -> Result<Option<String>, JsValue> {
            let v = super::js::get(&name, l, key)?;
            match v.is_null() || v.is_undefined() {
                true => Ok(None),
                false => v
                    .as_string()
                    .map(Some)
                    .ok_or_else(|| bad_arg(&format!("{name}.{key}"), "a string or null", &v)),
            }
        };
        let number = |key: &str| -> Result<Option<u64>, JsValue> {
            let v = super::js::get(&name, l, key)?;
            match v.is_null() || v.is_undefined() {
                true => Ok(None),
                false => count_arg(&format!("{name}.{key}"), &v).map(Some),
            }
        };
        load.push(crate::region::RegionLoad {
            server: text("server")?,
            requests: number("requests")?,
            writes: number("writes")?,
            ..Default::default()
        });
    }
    let table = report_table(&report)?;
    to_js(&crate::analyze::table_now(&load, &table))
}
