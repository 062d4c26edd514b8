//! `analyzeRowsFile`: a file of rows the engine reads itself with the OS's I/O (no bytes
//! through the host), its reading spread over threads as the npm package's
//! `analyzeRowsParallel` spreads it over worker threads (`www/engine/rows.js`,
//! `analyzeRowsChunked`: the same cuts, the same fallback to one pass), and the same answer,
//! byte for byte: the design fitted to the file, the scan's summary, what reading found and
//! the session to take the report from.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use crate::analyze::{
    AnalysisReport, AnalyzeOptions, ParquetPlan, ReadPass, ReadWatch, RowSplitKeys, RowsSession,
    ScanEnd,
};
use crate::design::DesignDocument;
use crate::error::{Error, ErrorKind, Result};
use crate::rows::profile::RowsProfile;
use crate::rows::{Format, OwnedSample, ParquetFile, RowStats, RowsOptions};

/// Bytes read to tell the format and type the fields a design leaves out (the JS driver's
/// `HEAD`: the same bytes, so the same fields are inferred).
pub const HEAD: u64 = 64 * 1024;
/// Bytes handed to a session at a time (the JS driver's `SLICE`).
const SLICE: u64 = 1 << 20;
/// Files smaller than this are read in one pass (the JS driver's `CHUNKED_FROM`).
pub const CHUNKED_FROM: u64 = 8 << 20;
/// The fewest rows of a Parquet file a thread reads as one task (the JS driver's `PIECE_ROWS`).
const PIECE_ROWS: u64 = 65536;

/// A file of rows analyzed: what the session gave after both passes (plain data, so it may
/// move to another thread: the session itself holds the key's encoder), the design it read the
/// rows with, the scan's summary and what reading found.
pub struct RowsFileRun {
    /// The design read, as the session held it (for `check`).
    pub doc: DesignDocument,
    /// The report over the rows (`RowsSession::report`).
    pub report: Result<AnalysisReport>,
    /// The design's pre-split keys cut at the rows (`RowsSession::split_keys`).
    pub split_keys: Result<RowSplitKeys>,
    /// The rows' profile, when asked for (`rows.profile`).
    pub profile: Option<RowsProfile>,
    /// The design fitted to the file (`rowsDesign`'s `design`), as JSON text.
    pub design: String,
    /// The first pass's end.
    pub summary: ScanEnd,
    /// What reading found.
    pub stats: RowStats,
    /// The fields declared from the file (`[{field, column, type, basis}]`, members sorted as
    /// `rowsDesign` gives them).
    pub inferred: serde_json::Value,
}

impl RowsFileRun {
    fn of(s: RowsSession, fit: &Fit, summary: ScanEnd, stats: RowStats) -> RowsFileRun {
        RowsFileRun {
            doc: s.design().clone(),
            report: s.report(),
            split_keys: s.split_keys().cloned(),
            profile: s.profile().cloned(),
            design: fit.design.clone(),
            summary,
            stats,
            inferred: fit.inferred.clone(),
        }
    }

    /// The rows analyzed checked against `budgets` (`RowsSession::check`).
    pub fn check(
        &self,
        budgets: &crate::analyze::check::Budgets,
    ) -> Result<crate::analyze::check::CheckVerdict> {
        let report = self.report.as_ref().map_err(Clone::clone)?;
        crate::analyze::check::check_report(&self.doc, report, budgets)
    }

    /// What reading found as JSON text, with the fields declared from the file (`inferred`)
    /// when there are any, as the JS driver gives it.
    pub fn stats_json(&self) -> Result<String> {
        let stats = super::to_json(&self.stats)?;
        // `{...stats, inferred}`: the member last, the others in their order (a
        // `serde_json::Value` would sort them)
        let inferred = super::to_json(&self.inferred)?;
        if self.inferred.as_array().is_some_and(Vec::is_empty) {
            return Ok(stats);
        }
        match stats.strip_suffix('}') {
            Some(head) if head.len() > 1 => Ok(format!("{head},\"inferred\":{inferred}}}")),
            _ => Ok(format!("{{\"inferred\":{inferred}}}")),
        }
    }
}

/// One task of a spread reading: Parquet row groups (or a run `[skip, take]` of one's rows),
/// or a CSV's header line and a run of whole lines.
#[derive(Debug, Clone)]
enum Task {
    Groups {
        groups: Vec<usize>,
        part: Option<(u64, u64)>,
        bytes: u64,
    },
    Lines {
        header: u64,
        start: u64,
        end: u64,
    },
}

impl Task {
    fn bytes(&self) -> u64 {
        match self {
            Task::Groups { bytes, .. } => *bytes,
            Task::Lines { start, end, .. } => end - start,
        }
    }
}

/// The file, its name for messages and its length.
struct Rows<'a> {
    path: &'a Path,
    name: String,
    len: u64,
}

impl Rows<'_> {
    fn io(&self, e: std::io::Error) -> Error {
        Error::new(ErrorKind::Invalid, format!("{}: {e}", self.name))
    }
    fn open(&self) -> Result<File> {
        File::open(self.path).map_err(|e| self.io(e))
    }
    /// `length` bytes from `start`; a short read is the file changing under us.
    fn read(&self, f: &mut File, start: u64, length: u64) -> Result<Vec<u8>> {
        let n = usize::try_from(length)
            .ok()
            .filter(|_| start.checked_add(length).is_some_and(|e| e <= self.len))
            .ok_or_else(|| {
                Error::arg(
                    "source",
                    format!(
                        "{}: bytes {start}..+{length} are past the file's {} (the file changed while it was read?)",
                        self.name, self.len
                    ),
                )
            })?;
        let mut b = vec![0u8; n];
        f.seek(SeekFrom::Start(start)).map_err(|e| self.io(e))?;
        f.read_exact(&mut b).map_err(|e| self.io(e))?;
        Ok(b)
    }
    /// A Parquet file's footer.
    fn footer(&self, f: &mut File) -> Result<Vec<u8>> {
        if self.len < 12 {
            return Err(Error::arg(
                "source",
                "is shorter than any Parquet file (12 bytes)",
            ));
        }
        let n = ParquetFile::footer_len(&self.read(f, self.len - 8, 8)?)? as u64;
        if n > self.len - 4 {
            return Err(Error::arg(
                "source",
                format!(
                    "has a Parquet footer of {n} bytes in a file of {}",
                    self.len
                ),
            ));
        }
        self.read(f, self.len - n, n)
    }
}

/// `analyzeRowsFile(doc, options, rows, path, threads)`: the rows of the file at `path`
/// analyzed with the design `doc` (JSON text; a design that is just a key has its fields
/// declared from the file), `options` and `rows` (JSON text, `None` for the defaults), read
/// by `threads` threads (0: every core) when the file has `chunk_from` bytes (by default
/// [`CHUNKED_FROM`]) and can be cut.
pub fn analyze_rows_file(
    doc: &str,
    options: Option<&str>,
    rows: Option<&str>,
    path: &str,
    threads: u32,
    chunk_from: Option<u64>,
) -> Result<RowsFileRun> {
    let watch = ReadWatch::default();
    analyze_rows_file_watched(doc, options, rows, path, threads, chunk_from, &watch)
}

/// [`analyze_rows_file`] watched from another thread: `watch` says how far each pass has gone
/// (bytes, or a Parquet file's row groups read in one pass) and stops the reading at its cancel
/// (the error then is the cancel's, whatever the threads were doing: the JS driver's
/// `onProgress` and `signal`).
pub fn analyze_rows_file_watched(
    doc: &str,
    options: Option<&str>,
    rows: Option<&str>,
    path: &str,
    threads: u32,
    chunk_from: Option<u64>,
    watch: &ReadWatch,
) -> Result<RowsFileRun> {
    let rows = super::rows_options(rows)?;
    let path = Path::new(path);
    let name = rows
        .name
        .clone()
        .unwrap_or_else(|| path.display().to_string());
    let mut file =
        File::open(path).map_err(|e| Error::new(ErrorKind::Invalid, format!("{name}: {e}")))?;
    let len = file
        .metadata()
        .map_err(|e| Error::new(ErrorKind::Invalid, format!("{name}: {e}")))?
        .len();
    let src = Rows { path, name, len };
    let threads = crate::support::threads::count(threads);
    let fit = fit_design(doc, &rows, &src, &mut file)?;
    let options = super::analyze_options(options)?;
    let from = chunk_from.unwrap_or(CHUNKED_FROM);
    if threads >= 2 && len >= from {
        if let Some(run) = spread(&fit, &options, &rows, &src, threads, from, watch)? {
            return Ok(run);
        }
    }
    one_pass(fit, options, rows, &src, &mut file, watch)
}

/// The design fitted to the file (`rowsDesign` over its first [`HEAD`] bytes or a Parquet
/// file's footer), with what was read of the file.
struct Fit {
    design: String,
    inferred: serde_json::Value,
    format: Format,
    head: Vec<u8>,
    footer: Option<Vec<u8>>,
}

impl Fit {
    /// The fitted design as a session reads it (from its text, as the JS driver hands it over).
    fn doc(&self) -> Result<DesignDocument> {
        super::design("doc", &self.design)
    }
}

fn fit_design(doc: &str, rows: &RowsOptions, src: &Rows<'_>, file: &mut File) -> Result<Fit> {
    let head = src.read(file, 0, src.len.min(HEAD))?;
    let format = Format::detect(rows.format, rows.name.as_deref(), &head)?;
    let (sample, footer) = match format {
        Format::Parquet => {
            let footer = src.footer(file)?;
            let pq = ParquetFile::from_footer(&footer, src.len, rows)?;
            (OwnedSample::Schema(pq.schema().clone()), Some(footer))
        }
        _ => (
            OwnedSample::Head(head.clone(), head.len() as u64 == src.len),
            None,
        ),
    };
    let unchecked = DesignDocument::from_json_unchecked(doc)?;
    let (fitted, inferred) = crate::rows::declare_from_file(unchecked, rows, sample.sample())?;
    fitted.validate_in(doc)?;
    // as `rowsDesign` answers (src/wasm/rows.rs): through a `serde_json::Value`, members sorted
    let value = |v: serde_json::Result<serde_json::Value>| {
        v.map_err(|e| {
            Error::new(
                ErrorKind::IllegalState,
                format!("{e} (a bug, please report)"),
            )
        })
    };
    Ok(Fit {
        design: super::to_json(&value(serde_json::to_value(&fitted))?)?,
        inferred: value(serde_json::to_value(&inferred))?,
        format,
        head,
        footer,
    })
}

/// Both passes over the file by one session (the JS driver's `analyzeRows`).
fn one_pass(
    fit: Fit,
    options: AnalyzeOptions,
    rows: RowsOptions,
    src: &Rows<'_>,
    file: &mut File,
    watch: &ReadWatch,
) -> Result<RowsFileRun> {
    let mut s = RowsSession::new(fit.doc()?, options, rows)?;
    // a Parquet file is counted by row groups, as the JS driver counts it; any other by bytes
    let groups = match &fit.footer {
        Some(footer) => Some(s.parquet(footer, src.len)?.row_groups.len() as u64),
        None => None,
    };
    let total = groups.unwrap_or(src.len);
    watch.begin(ReadPass::Reading, total, groups.is_some());
    s.read_file_watched(file, src.len, watch)?;
    let summary = s.end_scan()?;
    if !summary.analyzed {
        watch.begin(ReadPass::Analyzing, total, groups.is_some());
        s.read_file_watched(file, src.len, watch)?;
    }
    let stats = s.end()?;
    Ok(RowsFileRun::of(s, &fit, summary, stats))
}

/// The file's chunks read by `threads` threads, their first passes added up in file order by
/// one session (the JS driver's `analyzeRowsChunked`); `None` when the file cannot be cut so or
/// a chunk fails (then one pass reads it, and its error says exactly where).
fn spread(
    fit: &Fit,
    options: &AnalyzeOptions,
    rows: &RowsOptions,
    src: &Rows<'_>,
    threads: usize,
    from: u64,
    watch: &ReadWatch,
) -> Result<Option<RowsFileRun>> {
    let mut s = RowsSession::new(fit.doc()?, options.clone(), rows.clone())?;
    if !s.chunkable() {
        return Ok(None);
    }
    let plan = match &fit.footer {
        Some(footer) => match s.parquet(footer, src.len) {
            Ok(p) => Some(p),
            Err(_) => return Ok(None),
        },
        None => None,
    };
    let tasks = match chunk_tasks(fit, plan.as_ref(), src, threads, from) {
        Ok(Some(t)) => t,
        _ => return Ok(None),
    };
    let total: u64 = tasks.iter().map(Task::bytes).sum();
    watch.begin(ReadPass::Reading, total, false);
    let read = |t: &Task| -> Result<Vec<u8>> {
        let mut r = rows.clone();
        r.keep_bytes = Some(rows.chunk_kept_bytes(t.bytes(), total)?);
        read_chunk(fit, options, r, plan.as_ref(), src, t, watch)
    };
    let n = threads.min(tasks.len());
    let parts = crate::support::threads::map(&tasks, n, &read);
    for p in parts {
        // a chunk's failure sends the file to one pass, whose error says where; a cancel stops
        watch.check()?;
        match p {
            Ok(p) => {
                if s.add_chunk(p).is_err() {
                    return Ok(None);
                }
            }
            Err(_) => return Ok(None),
        }
    }
    let summary = s.end_scan()?;
    if !summary.analyzed {
        return Err(Error::new(
            ErrorKind::IllegalState,
            "the chunks were added but their rows not counted",
        ));
    }
    let stats = s.end()?;
    Ok(Some(RowsFileRun::of(s, fit, summary, stats)))
}

/// One task read by a session of its own: its first pass as bytes (`chunk()`).
fn read_chunk(
    fit: &Fit,
    options: &AnalyzeOptions,
    rows: RowsOptions,
    plan: Option<&ParquetPlan>,
    src: &Rows<'_>,
    task: &Task,
    watch: &ReadWatch,
) -> Result<Vec<u8>> {
    let mut s = RowsSession::new(fit.doc()?, options.clone(), rows)?;
    let mut f = src.open()?;
    match (task, plan, &fit.footer) {
        (
            Task::Groups {
                groups,
                part,
                bytes,
            },
            Some(plan),
            Some(footer),
        ) => {
            s.parquet(footer, src.len)?;
            // the task's bytes (its share of a row group when cut by rows) in one share a group
            let share = bytes / groups.len().max(1) as u64;
            for (k, &i) in groups.iter().enumerate() {
                watch.check()?;
                let ranges = plan.row_groups.get(i).map_or(&[][..], |r| &r[..]);
                let mut parts = Vec::with_capacity(ranges.len());
                for r in ranges {
                    let b = src.read(&mut f, r.start, r.length)?;
                    parts.push((r.start, bytes::Bytes::from(b)));
                }
                s.push_row_group(i, parts, *part)?;
                let last = k + 1 == groups.len();
                watch.add(if last {
                    bytes - share * k as u64
                } else {
                    share
                });
            }
        }
        (Task::Lines { header, start, end }, _, _) => {
            if *header > 0 {
                s.push(&src.read(&mut f, 0, *header)?)?;
            }
            let mut at = *start;
            let mut buf = Vec::new();
            f.seek(SeekFrom::Start(at)).map_err(|e| src.io(e))?;
            while at < *end {
                let n = SLICE.min(end - at);
                watch.check()?;
                buf.resize(n as usize, 0);
                f.read_exact(&mut buf).map_err(|e| src.io(e))?;
                s.push(&buf)?;
                watch.add(n);
                at += n;
            }
        }
        _ => {
            return Err(Error::new(
                ErrorKind::IllegalState,
                "a Parquet task without the file's plan",
            ))
        }
    }
    s.chunk()
}

/// The chunks the file is read in, about four times as many as `workers` (the JS driver's
/// `chunkTasks`, cut alike), or `None` for one pass.
fn chunk_tasks(
    fit: &Fit,
    plan: Option<&ParquetPlan>,
    src: &Rows<'_>,
    workers: usize,
    from: u64,
) -> Result<Option<Vec<Task>>> {
    let workers = workers as u64;
    if let Some(plan) = plan {
        let bytes_of = |i: usize| -> u64 {
            plan.row_groups
                .get(i)
                .map_or(0, |g| g.iter().map(|r| r.length).sum())
        };
        let total: u64 = plan.group_rows.iter().sum();
        let piece = PIECE_ROWS.max(total.div_ceil(4 * workers));
        let mut tasks = Vec::new();
        // the run of small row groups being gathered: its index in `tasks`, and its rows
        let mut run: Option<(usize, u64)> = None;
        for (i, &rows) in plan.group_rows.iter().enumerate() {
            if rows > piece {
                run = None;
                let n = rows.div_ceil(piece);
                for k in 0..n {
                    let skip = (rows as u128 * k as u128 / n as u128) as u64;
                    let take = (rows as u128 * (k + 1) as u128 / n as u128) as u64 - skip;
                    // Math.round(bytes * take / rows)
                    let bytes = ((bytes_of(i) as f64 * take as f64) / rows as f64).round() as u64;
                    tasks.push(Task::Groups {
                        groups: vec![i],
                        part: Some((skip, take)),
                        bytes,
                    });
                }
            } else {
                let open = run.filter(|&(_, r)| r + rows <= piece);
                let at = match open {
                    Some((at, _)) => at,
                    None => {
                        tasks.push(Task::Groups {
                            groups: Vec::new(),
                            part: None,
                            bytes: 0,
                        });
                        run = Some((tasks.len() - 1, 0));
                        tasks.len() - 1
                    }
                };
                if let Some(Task::Groups { groups, bytes, .. }) = tasks.get_mut(at) {
                    groups.push(i);
                    *bytes += bytes_of(i);
                }
                run = run.map(|(a, r)| (a, r + rows));
            }
        }
        return Ok((tasks.len() > 1).then_some(tasks));
    }
    let text = String::from_utf8_lossy(&fit.head[..fit.head.len().min(4096)]);
    let first = text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    match fit.format {
        Format::Csv => {}
        Format::JsonLines if first.starts_with('{') => {}
        _ => return Ok(None),
    }
    let mut header = 0u64;
    if fit.format == Format::Csv {
        let Some(nl) = fit.head.iter().position(|&b| b == b'\n') else {
            return Ok(None);
        };
        // a quoted header might hold a line end: one pass
        if fit.head[..nl].contains(&b'"') {
            return Ok(None);
        }
        header = nl as u64 + 1;
    }
    let size = src.len;
    // chunks of at least half the size read in one pass
    let n = (4 * workers).min(size / (from / 2).max(1));
    let mut cuts = vec![header];
    let mut f = src.open()?;
    for k in 1..n {
        let at = header + ((size - header) as u128 * k as u128 / n as u128) as u64;
        let Some(end) = line_end(src, &mut f, at)? else {
            return Ok(None);
        };
        if cuts.last().is_some_and(|&l| end > l) && end < size {
            cuts.push(end);
        }
    }
    cuts.push(size);
    let tasks: Vec<Task> = cuts
        .windows(2)
        .map(|w| Task::Lines {
            header,
            start: w[0],
            end: w[1],
        })
        .collect();
    Ok((tasks.len() > 1).then_some(tasks))
}

/// The offset just after the first line end at or after `at` (within a row's longest text).
fn line_end(src: &Rows<'_>, f: &mut File, at: u64) -> Result<Option<u64>> {
    let stop = src.len.min(at + (1 << 20));
    let mut from = at;
    while from < stop {
        let b = src.read(f, from, (64 * 1024).min(src.len - from))?;
        if let Some(i) = b.iter().position(|&c| c == b'\n') {
            return Ok(Some(from + i as u64 + 1));
        }
        from += 64 * 1024;
    }
    Ok(None)
}
