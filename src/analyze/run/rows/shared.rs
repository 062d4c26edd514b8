//! One reading of a user's rows for several designs ([`SharedRows`]): the file is parsed and
//! its cells converted once, and every row handed to each design's own [`RowsSession`] (the
//! rekey plan's old and new designs over the old table's rows). Reading and converting are
//! about half of one analysis; each design still encodes, keeps and counts its own keys (its
//! Phoenix indexes' too, as `analyze --records` counts them), so each report is the one that
//! design's session alone gives, byte for byte.
//!
//! The designs' fields are read as one list (each design's, by name); a field two designs type
//! differently, or a key that numbers names in the order rows arrive, cannot share a reading
//! ([`rows_shareable`] says why) and each design then reads the file alone.

use std::collections::BTreeMap;
use std::io::{Read, Seek};

use super::file::{read_file_into, FileInput, ParquetPlan};
use super::reading::{state, Reading};
use super::session::{RowSplitKeys, RowsSession, ScanEnd};
use crate::analyze::{AnalysisReport, AnalyzeOptions};
use crate::design::DesignDocument;
use crate::error::{Error, ErrorKind, Result};
use crate::keyspec::CompiledKey;
use crate::rows::{FieldList, RowStats, RowsOptions};

/// Most designs one reading feeds (as many as Compare puts side by side).
pub const MAX_SHARED_DESIGNS: usize = 4;

mod fan;
use fan::{Fan, FanSink, Map};

/// Why `docs` cannot share one reading of a file's rows, or `None` when they can: a field two
/// of them type differently (the cell would be converted twice, two ways), or a key that
/// numbers names in the order rows arrive (`uid(f, W)` without a table: it reads alone, in
/// one pass).
pub fn rows_shareable(docs: &[DesignDocument]) -> Option<String> {
    if docs.is_empty() || docs.len() > MAX_SHARED_DESIGNS {
        return Some(format!(
            "{} designs: one reading feeds 1 to {MAX_SHARED_DESIGNS}",
            docs.len()
        ));
    }
    let mut seen: BTreeMap<&str, (crate::keyspec::FieldType, usize)> = BTreeMap::new();
    for (i, doc) in docs.iter().enumerate() {
        if crate::keyspec::opentsdb::numbers_in_order(&doc.key.segments) {
            return Some(format!(
                "design {}'s key numbers names in the order rows arrive (uid without a table): it reads the file alone",
                i + 1
            ));
        }
        for f in &doc.fields {
            match seen.get(f.name.as_str()) {
                Some((t, j)) if *t != f.field_type => {
                    return Some(format!(
                    "field `{}` is {} in design {} and {} in design {}: its cells convert two ways",
                    f.name,
                    type_name(*t),
                    j + 1,
                    type_name(f.field_type),
                    i + 1
                ))
                }
                Some(_) => {}
                None => {
                    seen.insert(&f.name, (f.field_type, i));
                }
            }
        }
    }
    None
}

fn type_name(t: crate::keyspec::FieldType) -> String {
    serde_json::to_value(t)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| format!("{t:?}"))
}

/// Magic number of a shared reading's chunk (`chunk()`): each design's chunk after it.
const SHARED_CHUNK_MAGIC: &[u8; 4] = &crate::support::magic::SHARED_CHUNK;

/// One reading of a user's rows for several designs, each analyzed as its own
/// [`RowsSession`] would (same calls: the rows pushed, `end_scan`, the same again unless it
/// said `analyzed`, `end`), then each design's [`report`](Self::report) and
/// [`split_keys`](Self::split_keys) by its index.
pub struct SharedRows {
    sessions: Vec<RowsSession>,
    fan: Fan,
    reading: Reading,
    /// Whether the first pass has ended.
    scanned: bool,
    /// Whether the first pass came as chunks other readings read ([`add_chunk`](Self::add_chunk)).
    chunked: bool,
    /// What reading found, per design, from [`end`](Self::end) on.
    stats: Option<Vec<RowStats>>,
}

impl SharedRows {
    /// One reading of rows (read with `rows`) for each of `docs` (validated here, analyzed with
    /// `options`); an error saying why when they cannot share it ([`rows_shareable`]), or the
    /// rows are to be profiled (a profile is one design's: read it alone).
    pub fn new(
        docs: Vec<DesignDocument>,
        options: AnalyzeOptions,
        rows: RowsOptions,
    ) -> Result<SharedRows> {
        if let Some(why) = rows_shareable(&docs) {
            return Err(Error::arg("designs", why));
        }
        if rows.profile {
            return Err(Error::arg(
                "rows",
                "a profile is one design's: read the rows with that design's session",
            ));
        }
        let mut fields: FieldList = Vec::new();
        let mut used = Vec::new();
        let mut fan = Fan {
            maps: Vec::new(),
            used: Vec::new(),
            own_used: Vec::new(),
            keys: Vec::new(),
            scratch: Vec::new(),
            key: Vec::new(),
            nulls: rows.nulls,
            skipped: Vec::new(),
            names: Vec::new(),
            indexes: Vec::new(),
        };
        let mut readers = Vec::new();
        let mut sessions = Vec::with_capacity(docs.len());
        for doc in docs {
            // each design's Phoenix indexes counted as its own reading counts them
            let session = RowsSession::new(doc, options.clone(), rows.clone())?;
            let doc = session.design();
            let (own, own_used, own_readers) = super::indexes::analysis_fields(doc)?;
            readers.extend(own_readers);
            let mut at = Vec::with_capacity(own.len());
            for (name, ty) in &own {
                match fields.iter().position(|(n, _)| n == name) {
                    Some(i) => at.push(i),
                    None => {
                        fields.push((name.clone(), *ty));
                        at.push(fields.len() - 1);
                    }
                }
            }
            let cols = own_used
                .iter()
                .filter_map(|&u| {
                    let (name, _) = own.get(u)?;
                    let col = rows.map.get(name).unwrap_or(name).clone();
                    Some((*at.get(u)?, col))
                })
                .collect();
            used.extend(own_used.iter().filter_map(|&u| at.get(u).copied()));
            let prefix = at.iter().enumerate().all(|(i, &u)| i == u);
            fan.maps.push(if prefix {
                Map::Prefix(at.len())
            } else {
                Map::Gather(at)
            });
            fan.own_used.push(cols);
            fan.keys
                .push(CompiledKey::new(&doc.key, &doc.key_fields())?);
            fan.indexes.push(super::indexes::IndexKeyer::new(doc)?);
            fan.scratch.push(Vec::new());
            fan.skipped.push(BTreeMap::new());
            fan.names.push(own.into_iter().map(|(n, _)| n).collect());
            sessions.push(session);
        }
        used.sort_unstable();
        used.dedup();
        fan.used = used.clone();
        Ok(SharedRows {
            // a column an index alone reads is named as the index's when it is missing
            reading: Reading::new(fields, used, rows, readers),
            sessions,
            fan,
            scanned: false,
            chunked: false,
            stats: None,
        })
    }

    /// How many designs the reading feeds.
    pub fn designs(&self) -> usize {
        self.sessions.len()
    }

    /// Design `i`'s session.
    fn session(&self, i: usize) -> Result<&RowsSession> {
        self.sessions.get(i).ok_or_else(|| {
            Error::arg(
                "design",
                format!("design {i} of {} (counted from 0)", self.sessions.len()),
            )
        })
    }

    /// Design `i` as its session reads rows for it.
    pub fn design(&self, i: usize) -> Result<&DesignDocument> {
        Ok(self.session(i)?.design())
    }

    /// The rows this pass has read so far (a design that takes the pass's rows).
    pub fn done(&self) -> u64 {
        self.sessions
            .iter()
            .find(|s| !s.analyzed_from_memory())
            .or(self.sessions.first())
            .map_or(0, RowsSession::done)
    }

    /// The reading and the sink its rows go to (every design's session); an error when every
    /// design was analyzed from memory.
    fn reading(&mut self) -> Result<(&mut Reading, FanSink<'_>)> {
        if self.scanned && self.sessions.iter().all(RowsSession::analyzed_from_memory) {
            return Err(state(
                "the rows were analyzed from memory at endScan() (it said `analyzed: true`): call end(), not push",
            ));
        }
        if self.stats.is_some() {
            return Err(state("the reading has ended"));
        }
        let sink = FanSink {
            fan: &mut self.fan,
            sessions: &mut self.sessions,
        };
        Ok((&mut self.reading, sink))
    }

    /// The next bytes of the file; the rows this pass has read so far.
    pub fn push(&mut self, bytes: &[u8]) -> Result<u64> {
        let (reading, mut sink) = self.reading()?;
        reading.push(bytes, &mut sink)?;
        Ok(self.done())
    }

    /// The next Arrow record batch (every batch of the pass of one schema); the rows this
    /// pass has read so far.
    pub fn push_batch(&mut self, batch: &arrow_array::RecordBatch) -> Result<u64> {
        let (reading, mut sink) = self.reading()?;
        reading.push_batch(batch, &mut sink)?;
        Ok(self.done())
    }

    /// A Parquet file by its footer and length: the byte ranges each row group needs for the
    /// columns any of the keys reads. Then [`push_row_group`](Self::push_row_group) each, in
    /// order, in each pass.
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
        let (reading, mut sink) = self.reading()?;
        reading.push_row_group(index, parts, part, &mut sink)?;
        Ok(self.done())
    }

    /// Whether the file may be read in chunks by other readings ([`chunk`](Self::chunk),
    /// [`add_chunk`](Self::add_chunk)): every design's session may be.
    pub fn chunkable(&self) -> bool {
        !self.scanned && !self.chunked && self.sessions.iter().all(RowsSession::chunkable)
    }

    /// The first pass over this reading's chunk of the file as bytes (each design's, as its
    /// session's `chunk()` gives it), for the reading of the whole file
    /// ([`add_chunk`](Self::add_chunk)). Spent either way.
    pub fn chunk(&mut self) -> Result<Vec<u8>> {
        if self.scanned {
            return Err(state("chunk() ends a first pass"));
        }
        let (reading, mut sink) = self.reading()?;
        let read = reading.end_chunk(&mut sink)?;
        self.scanned = true;
        let mut out = SHARED_CHUNK_MAGIC.to_vec();
        out.extend_from_slice(&(self.sessions.len() as u32).to_le_bytes());
        for i in 0..self.sessions.len() {
            let stats = self.fan.stats_of(i, &read);
            let Some(s) = self.sessions.get_mut(i) else {
                continue;
            };
            let b = s.chunk_read(&stats)?;
            out.extend_from_slice(&(b.len() as u64).to_le_bytes());
            out.extend_from_slice(&b);
        }
        Ok(out)
    }

    /// Add the first pass of the next chunk of the file (another reading's `chunk()` of the
    /// same designs, in file order), before [`end_scan`](Self::end_scan).
    pub fn add_chunk(&mut self, bytes: Vec<u8>) -> Result<()> {
        let bad = |why: &str| {
            Error::new(
                ErrorKind::Invalid,
                format!("not a chunk of this shared reading: {why}"),
            )
            .at_path("chunk")
        };
        if self.scanned {
            return Err(state("addChunk() comes before endScan()"));
        }
        if bytes.get(..4) != Some(&SHARED_CHUNK_MAGIC[..]) {
            return Err(bad("it does not start with RKLH"));
        }
        let word = |at: usize, n: usize| bytes.get(at..at + n);
        let count = word(4, 4)
            .and_then(|b| b.try_into().ok())
            .map(u32::from_le_bytes)
            .ok_or_else(|| bad("cut short"))?;
        if count as usize != self.sessions.len() {
            return Err(bad(&format!(
                "{count} designs, where this reading feeds {}",
                self.sessions.len()
            )));
        }
        let mut at = 8usize;
        let mut parts = Vec::with_capacity(self.sessions.len());
        for _ in 0..count {
            let len = word(at, 8)
                .and_then(|b| b.try_into().ok())
                .map(u64::from_le_bytes)
                .and_then(|l| usize::try_from(l).ok())
                .ok_or_else(|| bad("cut short"))?;
            let start = at + 8;
            let end = start.checked_add(len).ok_or_else(|| bad("cut short"))?;
            parts.push(
                bytes
                    .get(start..end)
                    .ok_or_else(|| bad("cut short"))?
                    .to_vec(),
            );
            at = end;
        }
        if at != bytes.len() {
            return Err(bad("bytes past its last design's"));
        }
        for (s, part) in self.sessions.iter_mut().zip(parts) {
            s.add_chunk(part)?;
        }
        self.chunked = true;
        Ok(())
    }

    /// The end of the first pass: design 0's summary, and whether every design's rows were
    /// analyzed from memory (else the next pass reads the file again for those that were not).
    pub fn end_scan(&mut self) -> Result<ScanEnd> {
        if self.scanned {
            return Err(state("the scan has ended"));
        }
        // chunks others read: nothing of the pass read here
        let read = if self.chunked {
            self.reading.end_first(None)?
        } else {
            let (reading, mut sink) = self.reading()?;
            reading.end_first(Some(&mut sink))?
        };
        self.scanned = true;
        let mut first = None;
        let mut analyzed = true;
        for i in 0..self.sessions.len() {
            let stats = self.fan.stats_of(i, &read);
            let Some(s) = self.sessions.get_mut(i) else {
                continue;
            };
            let end = s.end_scan_read(stats)?;
            analyzed &= end.analyzed;
            first.get_or_insert(end);
        }
        for m in &mut self.fan.skipped {
            m.clear();
        }
        let first = first.ok_or_else(|| state("no designs"))?;
        Ok(ScanEnd { analyzed, ..first })
    }

    /// The end of the analysis pass: what reading found for design 0 (each design's:
    /// [`stats`](Self::stats)); the same again when called again.
    pub fn end(&mut self) -> Result<RowStats> {
        if let Some(all) = &self.stats {
            return all.first().cloned().ok_or_else(|| state("no designs"));
        }
        if !self.scanned {
            return Err(state("call endScan() after the first pass"));
        }
        // every design counted from memory: nothing read in this pass
        let read = if self.sessions.iter().all(RowsSession::analyzed_from_memory) {
            self.reading.end(None)?
        } else {
            let (reading, mut sink) = self.reading()?;
            reading.end(Some(&mut sink))?
        };
        let mut all = Vec::with_capacity(self.sessions.len());
        for i in 0..self.sessions.len() {
            let stats = self.fan.stats_of(i, &read);
            let Some(s) = self.sessions.get_mut(i) else {
                continue;
            };
            all.push(s.end_read(stats)?);
        }
        let first = all.first().cloned().ok_or_else(|| state("no designs"))?;
        self.stats = Some(all);
        Ok(first)
    }

    /// What reading found for design `i`, after [`end`](Self::end).
    pub fn stats(&self, i: usize) -> Option<&RowStats> {
        self.stats.as_ref().and_then(|s| s.get(i))
    }

    /// After [`end_scan`](Self::end_scan): design `i`'s pre-split keys cut at these rows.
    pub fn split_keys(&self, i: usize) -> Result<&RowSplitKeys> {
        self.session(i)?.split_keys()
    }

    /// Design `i`'s report over the rows analyzed.
    pub fn report(&self, i: usize) -> Result<AnalysisReport> {
        self.session(i)?.report()
    }

    /// One pass over a file the engine reads itself, as [`RowsSession::read_file`] reads it.
    pub fn read_file<F: Read + Seek>(&mut self, file: &mut F, len: u64) -> Result<u64> {
        read_file_into(self, file, len)
    }

    /// Both passes over a file the engine reads itself, the second only when some design
    /// could not keep the rows: what reading found for design 0.
    pub fn analyze_file<F: Read + Seek>(&mut self, file: &mut F, len: u64) -> Result<RowStats> {
        self.read_file(file, len)?;
        if !self.end_scan()?.analyzed {
            self.read_file(file, len)?;
        }
        self.end()
    }
}

impl FileInput for SharedRows {
    fn rows_options(&self) -> &RowsOptions {
        self.reading.rows()
    }
    fn push(&mut self, bytes: &[u8]) -> Result<u64> {
        SharedRows::push(self, bytes)
    }
    fn parquet_plan(&self) -> Option<Result<ParquetPlan>> {
        self.reading.parquet_plan()
    }
    fn parquet(&mut self, footer: &[u8], file_len: u64) -> Result<ParquetPlan> {
        SharedRows::parquet(self, footer, file_len)
    }
    fn push_row_group(
        &mut self,
        index: usize,
        parts: Vec<(u64, bytes::Bytes)>,
        part: Option<(u64, u64)>,
    ) -> Result<u64> {
        SharedRows::push_row_group(self, index, parts, part)
    }
    fn done(&self) -> u64 {
        SharedRows::done(self)
    }
}
