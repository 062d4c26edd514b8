//! The reading of a user's rows, whoever counts them: bytes of a file, a Parquet file by row
//! group or Arrow batches, each row handed to a sink. One design's [`RowsSession`] and a
//! reading shared by several designs ([`SharedRows`]) read through the same [`Reading`] and
//! differ only in their sink (the session's pass, or the fan to every design's), so a rule of
//! the reading (a chunk ends between rows, the second pass reads the row groups again, an
//! index's missing column named as the index's) is written once.
//!
//! [`RowsSession`]: super::RowsSession
//! [`SharedRows`]: super::SharedRows

use super::file::{parquet_plan, ParquetPlan};
use super::indexes::readers_error;
use crate::error::{Error, ErrorKind, Result};
use crate::rows::{
    BatchRows, FieldList, ParquetFile, ParquetRows, RowReader, RowSink, RowStats, RowsOptions,
};

/// How the rows arrive in the pass under way: bytes of a file, a Parquet file's row groups, or
/// Arrow batches. Chosen by the first call of a pass.
enum Source {
    /// Bytes of a file (CSV, JSON Lines, Arrow IPC, or a Parquet file held whole).
    Bytes(RowReader),
    /// A Parquet file by row group ([`Reading::parquet`]).
    Parquet(ParquetFile, ParquetRows),
    /// Arrow record batches ([`Reading::push_batch`]).
    Batches(Option<BatchRows>),
}

pub(super) fn state(what: &str) -> Error {
    Error::new(ErrorKind::IllegalState, what)
}

/// The reading of one pass over a file's rows for the fields `fields` (those read: `used`).
pub(super) struct Reading {
    rows: RowsOptions,
    fields: FieldList,
    used: Vec<usize>,
    source: Source,
    /// The fields the key does not read and an index does, with the index (its error names it).
    readers: Vec<(String, String)>,
}

impl Reading {
    /// A reading of `fields` (`used` read) with `rows`; `readers`: the fields an index alone
    /// reads, with the index.
    pub(super) fn new(
        fields: FieldList,
        used: Vec<usize>,
        rows: RowsOptions,
        readers: Vec<(String, String)>,
    ) -> Reading {
        Reading {
            source: Source::Bytes(RowReader::new(fields.clone(), used.clone(), rows.clone())),
            rows,
            fields,
            used,
            readers,
        }
    }

    /// How the rows meet the designs (their file's name and format, the columns' map).
    pub(super) fn rows(&self) -> &RowsOptions {
        &self.rows
    }

    /// The fields read, by name and type.
    pub(super) fn fields(&self) -> &FieldList {
        &self.fields
    }

    /// Read `fields` (`used`) instead, before the first rows: a reader not yet bound is made
    /// anew, and no index reads a field any more.
    pub(super) fn refit(&mut self, fields: FieldList, used: Vec<usize>) -> Result<()> {
        let source = match &self.source {
            Source::Parquet(file, _) => Some(Source::Parquet(
                file.clone(),
                file.reader(&fields, &used, &self.rows)?,
            )),
            Source::Bytes(r) if !r.started() => {
                Some(Source::Bytes(self.fresh_bytes(&fields, &used)))
            }
            _ => None,
        };
        if let Some(source) = source {
            self.source = source;
        }
        (self.fields, self.used) = (fields, used);
        self.readers.clear();
        Ok(())
    }

    fn fresh_bytes(&self, fields: &FieldList, used: &[usize]) -> RowReader {
        RowReader::new(fields.clone(), used.to_vec(), self.rows.clone())
    }

    /// An error of the reading, said as an index's when the column it misses is an index's.
    fn said(&self, e: Error) -> Error {
        readers_error(&self.readers, e)
    }

    /// The next bytes of the file, their rows to `sink`.
    pub(super) fn push(&mut self, bytes: &[u8], sink: &mut dyn RowSink) -> Result<()> {
        let Source::Bytes(reader) = &mut self.source else {
            return Err(state("this pass reads row groups or batches, not bytes"));
        };
        let pushed = reader.push(bytes, sink);
        pushed.map_err(|e| self.said(e))
    }

    /// The next Arrow record batch (every batch of the pass of one schema), its rows to `sink`.
    pub(super) fn push_batch(
        &mut self,
        batch: &arrow_array::RecordBatch,
        sink: &mut dyn RowSink,
    ) -> Result<()> {
        if matches!(&self.source, Source::Bytes(r) if !r.started()) {
            self.source = Source::Batches(None);
        }
        let rows = match &mut self.source {
            Source::Batches(rows @ None) => rows.insert(
                BatchRows::new(&batch.schema(), &self.fields, &self.used, &self.rows)
                    .map_err(|e| readers_error(&self.readers, e))?,
            ),
            Source::Batches(Some(rows)) => rows,
            _ => return Err(state("this pass reads bytes or row groups, not batches")),
        };
        rows.push(batch, sink)
    }

    /// A Parquet file by its footer and length: the byte ranges each row group needs for the
    /// columns read. Then [`push_row_group`](Self::push_row_group) each, in order, in each pass.
    pub(super) fn parquet(&mut self, footer: &[u8], file_len: u64) -> Result<ParquetPlan> {
        let file = ParquetFile::from_footer(footer, file_len, &self.rows)?;
        let plan = parquet_plan(&file, &self.fields, &self.used, &self.rows);
        let plan = plan.map_err(|e| self.said(e))?;
        let reader = file.reader(&self.fields, &self.used, &self.rows);
        let reader = reader.map_err(|e| self.said(e))?;
        self.source = Source::Parquet(file, reader);
        Ok(plan)
    }

    /// The plan of the Parquet file already opened (`None`: none yet).
    pub(super) fn parquet_plan(&self) -> Option<Result<ParquetPlan>> {
        match &self.source {
            Source::Parquet(f, _) => Some(
                parquet_plan(f, &self.fields, &self.used, &self.rows).map_err(|e| self.said(e)),
            ),
            _ => None,
        }
    }

    /// Row group `index` of the Parquet file from `parts`, `(offset in the file, bytes)` each
    /// covering its ranges; `part`: only its rows `[skip, skip + take)`. Its rows to `sink`.
    pub(super) fn push_row_group(
        &mut self,
        index: usize,
        parts: Vec<(u64, bytes::Bytes)>,
        part: Option<(u64, u64)>,
        sink: &mut dyn RowSink,
    ) -> Result<()> {
        let Source::Parquet(_, reader) = &mut self.source else {
            return Err(state("call parquet(footer, fileLength) first"));
        };
        reader.group(index, parts, part, sink)
    }

    /// The end of a pass that is a chunk of the file: what it found, the last rows to `sink`.
    /// A chunk of bytes ends between rows (a chunk cut inside a quoted field would count a
    /// broken row). The reading is spent.
    pub(super) fn end_chunk(&mut self, sink: &mut dyn RowSink) -> Result<RowStats> {
        if matches!(&self.source, Source::Bytes(r) if !r.at_row_end()) {
            return Err(Error::new(
                ErrorKind::Invalid,
                "the chunk does not end between rows (a line end inside a quoted field?): read the file in one pass",
            )
            .at_path("chunk"));
        }
        self.end(Some(sink))
    }

    /// The end of the first pass: what it found (the last rows to `sink`; `None`: the pass
    /// came as chunks others read, and nothing of it was read here). The next pass reads the
    /// file anew: the same row groups again, or new bytes or batches.
    pub(super) fn end_first(&mut self, sink: Option<&mut dyn RowSink>) -> Result<RowStats> {
        let fresh = Source::Bytes(self.fresh_bytes(&self.fields, &self.used));
        let source = std::mem::replace(&mut self.source, fresh);
        let Some(sink) = sink else {
            return Ok(RowStats::default());
        };
        // the same row groups again, or a new stream of batches (bytes: the fresh reader)
        match &source {
            Source::Parquet(file, _) => {
                let again = file.reader(&self.fields, &self.used, &self.rows)?;
                self.source = Source::Parquet(file.clone(), again);
            }
            Source::Batches(_) => self.source = Source::Batches(None),
            Source::Bytes(_) => {}
        }
        self.finish(source, sink)
    }

    /// The end of the reading: what it found (`sink`: where its last rows go; `None`: the
    /// pass was not read here, and found nothing). The reading is spent.
    pub(super) fn end(&mut self, sink: Option<&mut dyn RowSink>) -> Result<RowStats> {
        let source = std::mem::replace(&mut self.source, Source::Batches(None));
        match sink {
            Some(sink) => self.finish(source, sink),
            None => Ok(RowStats::default()),
        }
    }

    /// What `source`'s reading found, its last rows to `sink`.
    fn finish(&self, source: Source, sink: &mut dyn RowSink) -> Result<RowStats> {
        match source {
            Source::Parquet(_, reader) => Ok(reader.finish()),
            Source::Batches(rows) => Ok(rows.map(BatchRows::finish).unwrap_or_default()),
            Source::Bytes(mut reader) => reader.finish(sink).map_err(|e| self.said(e)),
        }
    }
}
