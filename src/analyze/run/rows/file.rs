//! A file the engine reads itself, by any reading of rows ([`FileInput`]: a `RowsSession`, or
//! one reading shared by designs, `SharedRows`): its format found from its first bytes, a
//! Parquet file read by its footer and row groups, any other in pieces of [`READ_PIECE`] bytes,
//! with a call after each piece where the caller takes what it gave (a rekey's verifier takes
//! each piece's keys, so memory holds one piece's, as the CLI's `onSlice` does in JavaScript);
//! and a design that is just a key declared from the file's columns.

use std::io::{Read, Seek, SeekFrom};

use serde::Serialize;

use crate::design::DesignDocument;
use crate::error::{Error, ErrorKind, Result};
use crate::rows::{FieldList, ParquetFile, RowGroupRange, RowsOptions};

/// The pieces [`RowsSession::read_file`](crate::analyze::RowsSession::read_file) reads a file in (not Parquet).
pub const READ_PIECE: usize = 1 << 20;

/// A Parquet file's plan of reads (`RowsSession::parquet`): its rows, and per row group its
/// rows and the byte ranges the design's columns need.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ParquetPlan {
    /// Rows in the file.
    pub rows: u64,
    /// Per row group, the byte ranges to read.
    pub row_groups: Vec<Vec<RowGroupRange>>,
    /// Per row group, its rows.
    pub group_rows: Vec<u64>,
}

/// A Parquet file's plan of reads for the fields `fields` (the key's: `used`).
pub(super) fn parquet_plan(
    file: &ParquetFile,
    fields: &FieldList,
    used: &[usize],
    rows: &RowsOptions,
) -> Result<ParquetPlan> {
    let mut row_groups = Vec::with_capacity(file.row_groups());
    for i in 0..file.row_groups() {
        row_groups.push(file.row_group_ranges(i, fields, used, rows)?);
    }
    Ok(ParquetPlan {
        rows: file.rows(),
        row_groups,
        group_rows: (0..file.row_groups()).map(|i| file.group_rows(i)).collect(),
    })
}

/// What [`read_file_into`] drives: a reading of rows by bytes or by Parquet row group.
pub(super) trait FileInput {
    /// How the file's rows meet the designs (its name and format).
    fn rows_options(&self) -> &RowsOptions;
    /// The next bytes of the file; the rows this pass has read so far.
    fn push(&mut self, bytes: &[u8]) -> Result<u64>;
    /// The plan of the Parquet file already opened (`None`: none yet).
    fn parquet_plan(&self) -> Option<Result<ParquetPlan>>;
    /// A Parquet file by its footer and length: its plan of reads.
    fn parquet(&mut self, footer: &[u8], file_len: u64) -> Result<ParquetPlan>;
    /// One row group of the Parquet file.
    fn push_row_group(
        &mut self,
        index: usize,
        parts: Vec<(u64, bytes::Bytes)>,
        part: Option<(u64, u64)>,
    ) -> Result<u64>;
    /// The rows this pass has read so far.
    fn done(&self) -> u64;
}

/// [`RowsSession::read_file`](crate::analyze::RowsSession::read_file) for any reading of rows that takes a file's bytes or its Parquet
/// row groups ([`FileInput`]): a session, or one reading shared by designs.
pub(super) fn read_file_into<S: FileInput, F: Read + Seek>(
    this: &mut S,
    file: &mut F,
    len: u64,
) -> Result<u64> {
    let name = this
        .rows_options()
        .name
        .as_deref()
        .unwrap_or("rows")
        .to_string();
    let io = |e: std::io::Error| Error::new(ErrorKind::Invalid, format!("{name}: {e}"));
    let mut piece = vec![0u8; usize::try_from(len).map_or(READ_PIECE, |l| l.min(READ_PIECE))];
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    file.read_exact(&mut piece).map_err(io)?;
    let format = crate::rows::Format::detect(
        this.rows_options().format,
        this.rows_options().name.as_deref(),
        &piece,
    )?;
    if format != crate::rows::Format::Parquet {
        this.push(&piece)?;
        piece.resize(READ_PIECE, 0);
        loop {
            let n = file.read(&mut piece).map_err(io)?;
            if n == 0 {
                return Ok(this.done());
            }
            this.push(piece.get(..n).unwrap_or(&[]))?;
        }
    }
    let plan = match this.parquet_plan() {
        Some(plan) => plan?,
        None => {
            let mut tail = [0u8; 8];
            if len < 8 {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!("{name}: {len} bytes, too short for a Parquet file"),
                ));
            }
            file.seek(SeekFrom::Start(len - 8)).map_err(io)?;
            file.read_exact(&mut tail).map_err(io)?;
            let n = ParquetFile::footer_len(&tail)? as u64;
            let footer = read_range(file, &name, len, len.saturating_sub(n), n)?;
            this.parquet(&footer, len)?
        }
    };
    for (i, ranges) in plan.row_groups.iter().enumerate() {
        let mut parts = Vec::with_capacity(ranges.len());
        for r in ranges {
            let b = read_range(file, &name, len, r.start, r.length)?;
            parts.push((r.start, bytes::Bytes::from(b)));
        }
        this.push_row_group(i, parts, None)?;
    }
    Ok(this.done())
}

/// `doc` ready to read a file the engine reads itself (`RowsSession::read_file`): a design
/// that is just a key has the fields its key reads declared from the file's columns (a
/// Parquet file's schema, else its first [`READ_PIECE`] bytes), as `analyze --records` and
/// `rowsDesign` declare them; any other design comes back as it is. Not validated.
pub fn design_for_file<F: Read + Seek>(
    doc: DesignDocument,
    rows: &RowsOptions,
    file: &mut F,
    len: u64,
) -> Result<DesignDocument> {
    if !doc.fields.is_empty() || doc.undeclared_key_fields().is_empty() {
        return Ok(doc);
    }
    let sample = file_sample(rows, file, len)?;
    Ok(crate::rows::declare_from_file(doc, rows, sample.sample())?.0)
}

/// What `file` says of its columns: a Parquet file's schema (from its footer), else its
/// first [`READ_PIECE`] bytes.
pub fn file_sample<F: Read + Seek>(
    rows: &RowsOptions,
    file: &mut F,
    len: u64,
) -> Result<crate::rows::OwnedSample> {
    let name = rows.name.as_deref().unwrap_or("rows");
    let head = read_range(file, name, len, 0, len.min(READ_PIECE as u64))?;
    let format = crate::rows::Format::detect(rows.format, rows.name.as_deref(), &head)?;
    Ok(if format == crate::rows::Format::Parquet && len >= 8 {
        let n = ParquetFile::footer_len(&read_range(file, name, len, len - 8, 8)?)? as u64;
        let footer = read_range(file, name, len, len.saturating_sub(n), n)?;
        let pq = ParquetFile::from_footer(&footer, len, rows)?;
        crate::rows::OwnedSample::Schema(pq.schema().clone())
    } else {
        let whole = len <= READ_PIECE as u64;
        crate::rows::OwnedSample::Head(head, whole)
    })
}

/// `length` bytes of `file` (`len` bytes long) from `start`, refused when they pass its end
/// (a footer that claims more than the file holds).
fn read_range<F: Read + Seek>(
    file: &mut F,
    name: &str,
    len: u64,
    start: u64,
    length: u64,
) -> Result<Vec<u8>> {
    let io = |e: std::io::Error| Error::new(ErrorKind::Invalid, format!("{name}: {e}"));
    let inside = start.checked_add(length).is_some_and(|end| end <= len);
    let n = usize::try_from(length)
        .ok()
        .filter(|_| inside)
        .ok_or_else(|| {
            Error::new(
                ErrorKind::Invalid,
                format!("{name}: the footer names bytes {start}..+{length}, past the file's {len}"),
            )
        })?;
    let mut b = vec![0u8; n];
    file.seek(SeekFrom::Start(start)).map_err(io)?;
    file.read_exact(&mut b).map_err(io)?;
    Ok(b)
}

/// A reading whose every piece (a [`READ_PIECE`] of text, or a Parquet row group) is followed
/// by `each(reading)`, and, with a `watch`, counted by it (bytes, or one per row group) and
/// stopped at its cancel before it is read.
struct Each<'a, S, G> {
    inner: &'a mut S,
    each: G,
    watch: Option<&'a ReadWatch>,
}

impl<S: FileInput, G: FnMut(&mut S) -> Result<()>> FileInput for Each<'_, S, G> {
    fn rows_options(&self) -> &RowsOptions {
        self.inner.rows_options()
    }
    fn push(&mut self, bytes: &[u8]) -> Result<u64> {
        self.watch.map_or(Ok(()), ReadWatch::check)?;
        let n = self.inner.push(bytes)?;
        if let Some(w) = self.watch {
            w.add(bytes.len() as u64);
        }
        (self.each)(self.inner)?;
        Ok(n)
    }
    fn parquet_plan(&self) -> Option<Result<ParquetPlan>> {
        self.inner.parquet_plan()
    }
    fn parquet(&mut self, footer: &[u8], file_len: u64) -> Result<ParquetPlan> {
        self.inner.parquet(footer, file_len)
    }
    fn push_row_group(
        &mut self,
        index: usize,
        parts: Vec<(u64, bytes::Bytes)>,
        part: Option<(u64, u64)>,
    ) -> Result<u64> {
        self.watch.map_or(Ok(()), ReadWatch::check)?;
        let n = self.inner.push_row_group(index, parts, part)?;
        if let Some(w) = self.watch {
            w.add(1);
        }
        (self.each)(self.inner)?;
        Ok(n)
    }
    fn done(&self) -> u64 {
        self.inner.done()
    }
}

/// The pass a reading of a file is in ([`ReadWatch`]), as the JS driver names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadPass {
    /// The first pass: every row read, its key made, the rows kept while they fit.
    Reading,
    /// The second pass, when the first could not keep the rows: they are counted.
    Analyzing,
}

/// A reading of a file watched from another thread: how far it has gone (what the JS driver's
/// `onProgress` says after each slice) and a cancel, checked before each piece (what its
/// `signal` stops between slices). The native file driver's; shared by its threads.
#[derive(Debug, Default)]
pub struct ReadWatch {
    pass: std::sync::atomic::AtomicU8,
    done: std::sync::atomic::AtomicU64,
    total: std::sync::atomic::AtomicU64,
    by_groups: std::sync::atomic::AtomicBool,
    cancelled: std::sync::atomic::AtomicBool,
}

impl ReadWatch {
    /// A pass begins: `total` units to read, Parquet row groups (`by_groups`) or bytes.
    pub fn begin(&self, pass: ReadPass, total: u64, by_groups: bool) {
        use std::sync::atomic::Ordering::Relaxed;
        self.pass
            .store(u8::from(pass == ReadPass::Analyzing), Relaxed);
        self.total.store(total, Relaxed);
        self.by_groups.store(by_groups, Relaxed);
        self.done.store(0, Relaxed);
    }

    /// `n` more units read.
    pub fn add(&self, n: u64) {
        self.done.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
    }

    /// The cancel's error once [`cancel`](Self::cancel) was called: checked before each piece,
    /// so nothing more is read.
    pub fn check(&self) -> Result<()> {
        if self.is_cancelled() {
            return Err(Error::new(
                ErrorKind::IllegalState,
                "the reading was cancelled",
            ));
        }
        Ok(())
    }

    /// Stops the reading before its next piece.
    pub fn cancel(&self) {
        self.cancelled
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether [`cancel`](Self::cancel) was called.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The pass, the units read and to read, and whether they are row groups (else bytes).
    pub fn progress(&self) -> (ReadPass, u64, u64, bool) {
        use std::sync::atomic::Ordering::Relaxed;
        let pass = if self.pass.load(Relaxed) == 1 {
            ReadPass::Analyzing
        } else {
            ReadPass::Reading
        };
        let total = self.total.load(Relaxed);
        let done = self.done.load(Relaxed).min(total);
        (pass, done, total, self.by_groups.load(Relaxed))
    }
}

/// [`read_file_into`] counted and stoppable by `watch` (the native file driver's progress and
/// cancel).
pub(super) fn read_file_watched_into<S: FileInput, F: Read + Seek>(
    this: &mut S,
    file: &mut F,
    len: u64,
    watch: &ReadWatch,
) -> Result<u64> {
    read_file_into(
        &mut Each {
            inner: this,
            each: |_: &mut S| Ok(()),
            watch: Some(watch),
        },
        file,
        len,
    )
}

/// [`read_file_into`], calling `each(this)` after every piece (to take the keys it gave).
pub(super) fn read_file_each_into<S: FileInput, F: Read + Seek>(
    this: &mut S,
    file: &mut F,
    len: u64,
    each: impl FnMut(&mut S) -> Result<()>,
) -> Result<u64> {
    read_file_into(
        &mut Each {
            inner: this,
            each,
            watch: None,
        },
        file,
        len,
    )
}
