//! A user's rows analyzed in two passes by one [`RowsSession`], whatever hands them over: the
//! page's and npm's file read in chunks (or, for Parquet, by row group), a Python caller's Arrow
//! batches, a file the engine reads itself ([`RowsSession::read_file`]). The first pass counts
//! the rows and finds their time span (and keeps them, while they fit, so the analysis counts
//! them from memory); [`RowsSession::end_scan`] cuts the pre-split and says whether the rows
//! must be read again; the second pass analyzes. The bindings only move bytes and results.

use std::io::{Read, Seek};

use serde::Serialize;

use super::super::AnalysisRun;
use super::file::{read_file_each_into, read_file_into, FileInput, ParquetPlan};
use super::indexes::analysis_fields;
use super::reading::{state, Reading};
use super::{fit_to_first, needs_row_sample, FirstPass};
use crate::analyze::{AnalysisReport, AnalyzeOptions};
use crate::design::DesignDocument;
use crate::error::{Error, ErrorKind, Result};
use crate::rows::profile::RowsProfile;
use crate::rows::{RowSample, RowScan, RowSink, RowStats, RowsOptions, ScanSummary};
use crate::workload::WriteSample;

mod keep;

/// Which pass a session is in.
enum Pass {
    /// Counting the rows and their time span (and keeping them, while they fit).
    Scan(Box<FirstPass>),
    /// Analyzing them.
    Analyze(Box<AnalysisRun>),
}

/// The end of the first pass: its summary, and whether the rows were analyzed from memory
/// (then [`RowsSession::end`] follows at once: no second pass over the file).
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScanEnd {
    /// The rows' count and time span.
    #[serde(flatten)]
    pub summary: ScanSummary,
    /// Whether the analysis counted the rows the first pass kept: no second pass.
    pub analyzed: bool,
}

/// The design's pre-split keys cut at the rows ([`RowsSession::split_keys`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowSplitKeys {
    /// The split keys, ascending.
    pub keys: Vec<Vec<u8>>,
    /// Whether every row's key was counted: split points, not a sample's estimate.
    pub exact: bool,
    /// The rows cut.
    pub rows: u64,
}

/// A user's rows analyzed in two passes: the rows of the whole file pushed (`push`,
/// `push_row_group` or `push_batch`), [`end_scan`](Self::end_scan), the same again unless it
/// said `analyzed`, [`end`](Self::end), then [`report`](Self::report).
pub struct RowsSession {
    doc: DesignDocument,
    options: AnalyzeOptions,
    pass: Pass,
    /// The rows as this session reads them itself (not when a shared reading hands them over).
    reading: Reading,
    /// The profile the first pass counted (`rows.profile`).
    profile: Option<RowsProfile>,
    split_keys: Option<RowSplitKeys>,
    /// The keys the scan had not handed over when it ended (`keep_keys`).
    last_keys: Option<(Vec<u8>, Vec<u32>)>,
    /// What the first pass's reading found, when the analysis counted the rows it kept.
    replayed: Option<RowStats>,
    /// What reading the chunks added so far found (`add_chunk`).
    chunk_stats: Option<RowStats>,
    /// The advisor's sample of the rows (`keep_row_sample`), from `end_scan` on.
    row_sample: Option<RowSample>,
    /// The keys in write order (`keep_write_sample`), from `end_scan` on.
    write_sample: Option<WriteSample>,
    /// What reading found, from `end` on.
    stats: Option<RowStats>,
}

impl RowsSession {
    /// A session of `doc` (validated here) over rows read with `rows`, analyzed with `options`.
    pub fn new(
        doc: DesignDocument,
        options: AnalyzeOptions,
        rows: RowsOptions,
    ) -> Result<RowsSession> {
        doc.validate()?;
        let (fields, used, readers) = analysis_fields(&doc)?;
        let key = crate::keyspec::CompiledKey::new(&doc.key, &doc.key_fields())?;
        let mut scan = RowScan::new(Some(key));
        if needs_row_sample(&doc) {
            scan = scan.with_sample();
        }
        if rows.profile {
            scan = scan.with_profile(&fields);
        }
        let first = FirstPass::new(&doc, scan, rows.kept_bytes()?)?;
        let profiled = rows.profile;
        let mut session = RowsSession {
            reading: Reading::new(fields, used, rows, readers),
            pass: Pass::Scan(Box::new(first)),
            doc,
            options,
            profile: None,
            split_keys: None,
            last_keys: None,
            replayed: None,
            chunk_stats: None,
            row_sample: None,
            write_sample: None,
            stats: None,
        };
        // a profile is of the rows and the data key: no index table is counted
        if profiled {
            session.without_indexes()?;
        }
        Ok(session)
    }

    /// Analyze the data table alone, not the design's Phoenix indexes (the rows then need
    /// only the key's columns); before the first rows. What reads rows for the data key alone
    /// (kept keys, samples, a profile) leaves them out so.
    pub fn without_indexes(&mut self) -> Result<()> {
        self.fresh_scan("withoutIndexes() comes before the first rows")?
            .indexes = None;
        // a reader not yet bound reads for the key's columns alone
        let (fields, used) = super::super::row_fields(&self.doc)?;
        self.reading.refit(fields, used)
    }

    /// The fields the session reads from the rows, by name and type.
    pub(super) fn fields(&self) -> &crate::rows::FieldList {
        self.reading.fields()
    }

    /// The design the session reads rows for.
    pub fn design(&self) -> &DesignDocument {
        &self.doc
    }

    /// The first pass before its first row, to change what it keeps.
    fn fresh_scan(&mut self, what: &str) -> Result<&mut FirstPass> {
        match &mut self.pass {
            Pass::Scan(first) if first.scan.summary.rows == 0 => Ok(first),
            _ => Err(state(what)),
        }
    }

    /// The rows this pass has read so far.
    pub fn done(&self) -> u64 {
        match &self.pass {
            Pass::Scan(s) => s.scan.summary.rows,
            Pass::Analyze(r) => r.progress().done,
        }
    }

    /// The sink of the pass rows go to: an error after an analysis from memory.
    fn sink<'a>(pass: &'a mut Pass, replayed: &Option<RowStats>) -> Result<&'a mut dyn RowSink> {
        if replayed.is_some() {
            return Err(state(
                "the rows were analyzed from memory at endScan() (it said `analyzed: true`): call end(), not push",
            ));
        }
        Ok(match pass {
            Pass::Scan(s) => s.as_mut(),
            Pass::Analyze(r) => r.as_mut(),
        })
    }

    /// The next bytes of the file; the rows this pass has read so far.
    pub fn push(&mut self, bytes: &[u8]) -> Result<u64> {
        let sink = Self::sink(&mut self.pass, &self.replayed)?;
        self.reading.push(bytes, sink)?;
        Ok(self.done())
    }

    /// The next Arrow record batch (every batch of the pass of one schema); the rows this
    /// pass has read so far.
    pub fn push_batch(&mut self, batch: &arrow_array::RecordBatch) -> Result<u64> {
        let sink = Self::sink(&mut self.pass, &self.replayed)?;
        self.reading.push_batch(batch, sink)?;
        Ok(self.done())
    }

    /// A Parquet file by its footer (its last
    /// [`ParquetFile::footer_len`](crate::rows::ParquetFile::footer_len) bytes) and length: the
    /// byte ranges each row group needs for the columns the key reads. Then
    /// [`push_row_group`](Self::push_row_group) each, in order, in each pass.
    pub fn parquet(&mut self, footer: &[u8], file_len: u64) -> Result<ParquetPlan> {
        self.reading.parquet(footer, file_len)
    }

    /// Row group `index` of the Parquet file from `parts`, `(offset in the file, bytes)` each
    /// covering its ranges; `part`: only its rows `[skip, skip + take)`.
    pub fn push_row_group(
        &mut self,
        index: usize,
        parts: Vec<(u64, bytes::Bytes)>,
        part: Option<(u64, u64)>,
    ) -> Result<u64> {
        let sink = Self::sink(&mut self.pass, &self.replayed)?;
        self.reading.push_row_group(index, parts, part, sink)?;
        Ok(self.done())
    }

    /// Whether the file may be read in chunks by other sessions ([`chunk`](Self::chunk),
    /// [`add_chunk`](Self::add_chunk)): the first passes add up (no profile, no kept keys; a
    /// pre-split cut at the rows takes its keys from the rows kept) and keep the rows.
    pub fn chunkable(&self) -> bool {
        // a key that numbers names in the order rows arrive (`uid(f, W)` without a table)
        // reads the file in one pass: a chunk read apart would number from 1
        !crate::keyspec::opentsdb::numbers_in_order(&self.doc.key.segments)
            && matches!(&self.pass, Pass::Scan(f) if f.scan.adds_up() && f.kept() && self.chunk_stats.is_none() && f.scan.summary.rows == 0 && f.no_index_chunks().is_ok())
    }

    /// The first pass over this session's chunk of the file as bytes, for the session that
    /// reads the whole file ([`add_chunk`](Self::add_chunk)). The session is spent either way.
    pub fn chunk(&mut self) -> Result<Vec<u8>> {
        let Pass::Scan(first) = &mut self.pass else {
            return Err(state("chunk() ends a first pass"));
        };
        let stats = self.reading.end_chunk(first.as_mut())?;
        first.chunk_bytes(&self.doc, &stats)
    }

    /// Add the first pass of the next chunk of the file (another session's `chunk()`, in file
    /// order), before [`end_scan`](Self::end_scan).
    pub fn add_chunk(&mut self, bytes: Vec<u8>) -> Result<()> {
        let Pass::Scan(first) = &mut self.pass else {
            return Err(state("addChunk() comes before endScan()"));
        };
        let stats = first.append_chunk(&self.doc, bytes)?;
        match &mut self.chunk_stats {
            Some(all) => all.merge(&stats),
            none => *none = Some(stats),
        }
        Ok(())
    }

    /// The end of the first pass: its summary, and whether the rows were analyzed from memory;
    /// the next pass analyzes.
    pub fn end_scan(&mut self) -> Result<ScanEnd> {
        let Pass::Scan(first) = &mut self.pass else {
            return Err(state("the scan has ended"));
        };
        // chunks others read: what they found, and nothing read here
        let stats = match self.chunk_stats.take() {
            Some(stats) => {
                self.reading.end_first(None)?;
                stats
            }
            None => self.reading.end_first(Some(first.as_mut()))?,
        };
        self.end_scan_with(stats)
    }

    /// The end of a first pass whose rows another reading handed over ([`SharedRows`]:
    /// `read`, what it found for this design), unless chunks were added (their stats, then).
    ///
    /// [`SharedRows`]: super::SharedRows
    pub(super) fn end_scan_read(&mut self, read: RowStats) -> Result<ScanEnd> {
        let stats = self.chunk_stats.take().unwrap_or(read);
        self.end_scan_with(stats)
    }

    /// The end of the first pass once reading is done (`stats`, what it found).
    fn end_scan_with(&mut self, stats: RowStats) -> Result<ScanEnd> {
        let Pass::Scan(first) = &mut self.pass else {
            return Err(state("the scan has ended"));
        };
        self.profile = first.scan.profile(&stats);
        self.last_keys = Some(first.scan.take_keys());
        self.row_sample = first.scan.take_row_sample();
        self.write_sample = first.scan.take_write_sample();
        let summary = first.scan.summary;
        self.split_keys = Some(RowSplitKeys {
            keys: fit_to_first(&self.doc, first).presplit_keys(&[])?,
            exact: exact_split_keys(&self.doc, first),
            rows: summary.rows,
        });
        if summary.rows == 0 {
            // a reading for its keys (`encode --records`, a verifier's export) has nothing to
            // analyze: an empty export is an answer (every row of the other side unmatched)
            if first.scan.keeps_keys() {
                return Ok(ScanEnd {
                    summary,
                    analyzed: false,
                });
            }
            return Err(Error::new(ErrorKind::Invalid, "no rows to analyze"));
        }
        let mut run = AnalysisRun::for_first_pass(&self.doc, &self.options, first)?;
        let analyzed = run.replay(first)?;
        if analyzed {
            self.replayed = Some(stats);
        }
        self.pass = Pass::Analyze(Box::new(run));
        Ok(ScanEnd { summary, analyzed })
    }

    /// The end of the analysis pass: what reading found (the same again when called again).
    pub fn end(&mut self) -> Result<RowStats> {
        let Pass::Analyze(run) = &mut self.pass else {
            return Err(state("call endScan() after the first pass"));
        };
        if let Some(stats) = &self.stats {
            return Ok(stats.clone());
        }
        // counted from memory at the first pass's end: nothing read in this one
        let stats = match self.replayed.take() {
            Some(stats) => {
                self.reading.end(None)?;
                stats
            }
            None => self.reading.end(Some(run.as_mut()))?,
        };
        self.stats = Some(stats.clone());
        Ok(stats)
    }

    /// The end of an analysis pass whose rows another reading handed over ([`SharedRows`]:
    /// `read`, what it found for this design), unless the rows were counted from memory.
    ///
    /// [`SharedRows`]: super::SharedRows
    pub(super) fn end_read(&mut self, read: RowStats) -> Result<RowStats> {
        if !matches!(self.pass, Pass::Analyze(_)) {
            return Err(state("call endScan() after the first pass"));
        }
        if let Some(stats) = &self.stats {
            return Ok(stats.clone());
        }
        let stats = self.replayed.take().unwrap_or(read);
        self.stats = Some(stats.clone());
        Ok(stats)
    }

    /// Whether the rows were counted from memory at the first pass's end: a second pass
    /// hands this session none.
    pub(super) fn analyzed_from_memory(&self) -> bool {
        self.replayed.is_some()
    }

    /// The sink of the pass under way, for rows another reading hands over ([`SharedRows`]).
    ///
    /// [`SharedRows`]: super::SharedRows
    pub(super) fn pass_sink(&mut self) -> Result<&mut dyn RowSink> {
        Self::sink(&mut self.pass, &self.replayed)
    }

    /// This session's first pass as a chunk ([`chunk`](Self::chunk)) when another reading
    /// handed its rows over (`read`, what it found for this design).
    pub(super) fn chunk_read(&mut self, read: &RowStats) -> Result<Vec<u8>> {
        let Pass::Scan(first) = &mut self.pass else {
            return Err(state("chunk() ends a first pass"));
        };
        first.chunk_bytes(&self.doc, read)
    }

    /// What reading found, after [`end`](Self::end).
    pub fn stats(&self) -> Option<&RowStats> {
        self.stats.as_ref()
    }

    /// After [`end_scan`](Self::end_scan): the design's pre-split keys cut at these rows.
    pub fn split_keys(&self) -> Result<&RowSplitKeys> {
        self.split_keys
            .as_ref()
            .ok_or_else(|| state("call endScan() first"))
    }

    /// The profile of the rows (`rows.profile`), after [`end_scan`](Self::end_scan).
    pub fn profile(&self) -> Option<&RowsProfile> {
        self.profile.as_ref()
    }

    /// The report over the rows analyzed.
    pub fn report(&self) -> Result<AnalysisReport> {
        match &self.pass {
            Pass::Analyze(run) => Ok(run.finish()),
            Pass::Scan(_) => Err(state("the rows have not been analyzed yet")),
        }
    }

    /// The rows analyzed checked against `budgets`.
    pub fn check(
        &self,
        budgets: &crate::analyze::check::Budgets,
    ) -> Result<crate::analyze::check::CheckVerdict> {
        crate::analyze::check::check_report(&self.doc, &self.report()?, budgets)
    }

    /// One pass over a file the engine reads itself (`len` bytes; its format by
    /// `rows.format`, its magic number or `rows.name`): a Parquet file by its footer and row
    /// groups (the key's columns alone read), any other in pieces of [`READ_PIECE`](crate::analyze::READ_PIECE) bytes.
    /// Memory holds one piece or one row group's columns. The rows this pass read.
    pub fn read_file<F: Read + Seek>(&mut self, file: &mut F, len: u64) -> Result<u64> {
        read_file_into(self, file, len)
    }

    /// [`read_file`](Self::read_file) counted and stoppable by `watch`: each piece's bytes (a
    /// Parquet file: one per row group) added before it is read, the cancel checked then.
    pub fn read_file_watched<F: Read + Seek>(
        &mut self,
        file: &mut F,
        len: u64,
        watch: &super::file::ReadWatch,
    ) -> Result<u64> {
        super::file::read_file_watched_into(self, file, len, watch)
    }

    /// Both passes over a file the engine reads itself ([`read_file`](Self::read_file)), the
    /// second only when the first could not keep the rows: what reading found. Then
    /// [`report`](Self::report).
    pub fn analyze_file<F: Read + Seek>(&mut self, file: &mut F, len: u64) -> Result<RowStats> {
        self.read_file(file, len)?;
        if !self.end_scan()?.analyzed {
            self.read_file(file, len)?;
        }
        self.end()
    }

    /// [`read_file`](Self::read_file), calling `each(self)` after every piece: take the keys
    /// the piece gave ([`take_keys`](Self::take_keys)) so memory holds one piece's. The rows
    /// this pass read.
    pub fn read_file_each<F: Read + Seek>(
        &mut self,
        file: &mut F,
        len: u64,
        each: impl FnMut(&mut RowsSession) -> Result<()>,
    ) -> Result<u64> {
        read_file_each_into(self, file, len, each)
    }
}

impl FileInput for RowsSession {
    fn rows_options(&self) -> &RowsOptions {
        self.reading.rows()
    }
    fn push(&mut self, bytes: &[u8]) -> Result<u64> {
        RowsSession::push(self, bytes)
    }
    fn parquet_plan(&self) -> Option<Result<ParquetPlan>> {
        self.reading.parquet_plan()
    }
    fn parquet(&mut self, footer: &[u8], file_len: u64) -> Result<ParquetPlan> {
        RowsSession::parquet(self, footer, file_len)
    }
    fn push_row_group(
        &mut self,
        index: usize,
        parts: Vec<(u64, bytes::Bytes)>,
        part: Option<(u64, u64)>,
    ) -> Result<u64> {
        RowsSession::push_row_group(self, index, parts, part)
    }
    fn done(&self) -> u64 {
        RowsSession::done(self)
    }
}

/// Whether the split keys `first` cuts are exact: every row's key counted (the scan's sample
/// holds every row's up to [`SAMPLE_KEYS`](crate::rows::SAMPLE_KEYS) rows; the kept rows every
/// row's beyond, but they cut by rows only, [`fit_to_first`]: a cut by bytes beyond the
/// sample is the sample's).
fn exact_split_keys(doc: &DesignDocument, first: &FirstPass) -> bool {
    let by_rows = !matches!(
        doc.regions.as_ref().map(|l| &l.presplit),
        Some(crate::region::PreSplit::SampleQuantiles {
            by: crate::region::SplitBy::Bytes,
            ..
        })
    );
    !needs_row_sample(doc)
        || first.scan.summary.rows <= crate::rows::SAMPLE_KEYS as u64
        || (first.kept() && by_rows)
}
