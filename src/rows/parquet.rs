//! Parquet, one row group at a time, only the columns the key reads: the footer says where
//! each column chunk lies, so a caller holding a file of any size (the CLI, a browser `File`)
//! reads those byte ranges and hands them over; memory is one row group's key columns.

use std::sync::{Arc, Mutex};

use bytes::{Buf, Bytes};
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReader, RowGroups, RowSelection,
    RowSelector,
};
use parquet::arrow::{parquet_to_arrow_field_levels, FieldLevels, ProjectionMask};
use parquet::column::page::{Page, PageIterator, PageMetadata, PageReader};
use parquet::file::metadata::{
    FooterTail, ParquetMetaData, ParquetMetaDataReader, RowGroupMetaData,
};
use parquet::file::reader::{ChunkReader, Length};
use parquet::file::serialized_reader::SerializedPageReader;

use super::parquet_pages::PageCheck;

use super::arrow::{feed_batch, names};
use super::{Binding, Format, RowSink, RowStats, Rows, RowsOptions};
use crate::error::{Error, ErrorKind, Result};
use crate::keyspec::FieldType;

/// Rows per Arrow batch read from a row group.
const BATCH: usize = 8192;

/// A byte range of the file: `[start, start + length)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct RowGroupRange {
    /// Offset in the file.
    pub start: u64,
    /// Bytes.
    pub length: u64,
}

/// A Parquet file's index (its footer), read before its rows.
#[derive(Debug, Clone)]
pub struct ParquetFile {
    meta: ArrowReaderMetadata,
    len: u64,
    name: String,
    /// The whole file, when it was given whole.
    whole: Option<Bytes>,
}

impl ParquetFile {
    /// Bytes of footer (metadata and its 8-byte tail) the file ends with, from its last 8.
    pub fn footer_len(tail: &[u8]) -> Result<usize> {
        let tail: &[u8; 8] = tail
            .get(tail.len().saturating_sub(8)..)
            .and_then(|t| t.try_into().ok())
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::Invalid,
                    "a Parquet file ends with 8 bytes of footer",
                )
            })?;
        let t = FooterTail::try_new(tail).map_err(|e| perr("rows", &e))?;
        if t.is_encrypted_footer() {
            return Err(Error::new(
                ErrorKind::Invalid,
                "an encrypted Parquet file cannot be read",
            ));
        }
        Ok(t.metadata_length().saturating_add(8))
    }

    /// The file from its footer (`footer` the last [`footer_len`](Self::footer_len) bytes)
    /// and its length.
    pub fn from_footer(footer: &[u8], file_len: u64, opts: &RowsOptions) -> Result<ParquetFile> {
        let name = opts.name.clone().unwrap_or_else(|| "rows".into());
        let meta_len = footer.len().saturating_sub(8);
        let meta = footer.get(..meta_len).unwrap_or(&[]);
        let md = ParquetMetaDataReader::decode_metadata(meta).map_err(|e| perr(&name, &e))?;
        let meta = ArrowReaderMetadata::try_new(Arc::new(md), ArrowReaderOptions::new())
            .map_err(|e| perr(&name, &e))?;
        Ok(ParquetFile {
            meta,
            len: file_len,
            name,
            whole: None,
        })
    }

    /// A file given whole.
    pub fn new(bytes: Bytes, opts: &RowsOptions) -> Result<ParquetFile> {
        let name = opts.name.clone().unwrap_or_else(|| "rows".into());
        let meta = ArrowReaderMetadata::load(&bytes, ArrowReaderOptions::new())
            .map_err(|e| perr(&name, &e))?;
        Ok(ParquetFile {
            meta,
            len: bytes.len() as u64,
            name,
            whole: Some(bytes),
        })
    }

    /// Row groups in the file.
    pub fn row_groups(&self) -> usize {
        self.meta.metadata().num_row_groups()
    }

    /// Rows in row group `i` (0 past the last).
    pub fn group_rows(&self, i: usize) -> u64 {
        let md = self.meta.metadata();
        if i >= md.num_row_groups() {
            return 0;
        }
        u64::try_from(md.row_group(i).num_rows()).unwrap_or(0)
    }

    /// Rows in the file.
    pub fn rows(&self) -> u64 {
        u64::try_from(self.meta.metadata().file_metadata().num_rows()).unwrap_or(0)
    }

    /// The file's schema as Arrow reads it.
    pub fn schema(&self) -> &arrow_schema::Schema {
        self.meta.schema()
    }

    /// The column names.
    pub fn columns(&self) -> Vec<String> {
        names(self.meta.schema())
    }

    fn binding(
        &self,
        fields: &[(String, FieldType)],
        used: &[usize],
        opts: &RowsOptions,
    ) -> Result<Binding> {
        Binding::new(fields, used, self.columns(), opts)
    }

    /// The leaf columns of the root columns `roots`, refusing nested ones.
    fn mask(&self, roots: &[usize]) -> ProjectionMask {
        ProjectionMask::roots(
            self.meta.metadata().file_metadata().schema_descr(),
            roots.iter().copied(),
        )
    }

    /// The byte ranges row group `i` needs for the columns the design reads.
    pub fn row_group_ranges(
        &self,
        i: usize,
        fields: &[(String, FieldType)],
        used: &[usize],
        opts: &RowsOptions,
    ) -> Result<Vec<RowGroupRange>> {
        let roots = self.binding(fields, used, opts)?.needed().to_vec();
        let md = self.meta.metadata();
        let rg = md.row_groups().get(i).ok_or_else(|| {
            Error::arg(
                "rowGroup",
                format!("row group {i} of {}", md.num_row_groups()),
            )
        })?;
        let schema = md.file_metadata().schema_descr();
        let columns: Vec<_> = rg
            .columns()
            .iter()
            .enumerate()
            .filter(|(leaf, _)| roots.contains(&schema.get_column_root_idx(*leaf)))
            .map(|(_, c)| c)
            .collect();
        // The footer's own figure first: a bomb that declares itself is refused before its
        // bytes are read; the pages' headers are checked again as they are read.
        let declared = columns.iter().fold(0u64, |t, c| {
            t.saturating_add(u64::try_from(c.uncompressed_size()).unwrap_or(u64::MAX))
        });
        super::parquet_pages::check_group(
            declared,
            &opts.name.clone().unwrap_or_else(|| self.name.clone()),
            i,
        )?;
        columns
            .iter()
            .map(|c| {
                let (start, length) = chunk_range(c, &self.name, i, self.len)?;
                Ok(RowGroupRange { start, length })
            })
            .collect()
    }

    /// Read row group `i` from `chunks` (each the bytes at a range
    /// [`row_group_ranges`](Self::row_group_ranges) gave) as `levels` (the Arrow fields of the
    /// columns read), continuing `rows`; `part`: only its rows `[skip, skip + take)`.
    fn read_group(
        &self,
        i: usize,
        levels: &FieldLevels,
        chunks: Chunks,
        part: Option<(u64, u64)>,
        rows: &mut Rows,
        sink: &mut dyn RowSink,
    ) -> Result<()> {
        let roots = rows.bind.needed().to_vec();
        self.check_pages(i, &chunks, &roots)?;
        let n = self.group_rows(i);
        let mut selection = None;
        if let Some((skip, take)) = part {
            if skip.checked_add(take).map_or(true, |end| end > n) {
                return Err(Error::arg(
                    "rows",
                    format!("rows {skip}..+{take} of row group {i}, which has {n}"),
                ));
            }
            let (skip, take) = (usize::try_from(skip), usize::try_from(take));
            let (Ok(skip), Ok(take)) = (skip, take) else {
                return Err(Error::arg("rows", "a row range past this machine's memory"));
            };
            selection = Some(RowSelection::from(vec![
                RowSelector::skip(skip),
                RowSelector::select(take),
            ]));
        }
        // The crate's reader over this row group, each page checked as it comes
        // (`parquet_pages::PageCheck`): the builder's reader would hand pages to the decoders
        // unchecked. The first located error a check raised is the one returned.
        let md = self.meta.metadata();
        let group = CheckedGroup {
            chunks: Arc::new(chunks),
            meta: Arc::clone(md),
            group: i,
            file: self.name.clone(),
            found: Arc::new(Mutex::new(None)),
        };
        let batch = usize::try_from(n).unwrap_or(BATCH).clamp(1, BATCH);
        let reader =
            ParquetRecordBatchReader::try_new_with_row_groups(levels, &group, batch, selection)
                .map_err(|e| perr(&self.name, &e))?;
        for batch in reader {
            let batch = batch.map_err(|e| {
                group.found().unwrap_or_else(|| {
                    Error::new(
                        ErrorKind::Invalid,
                        format!("{}: row group {i}: {e}", self.name),
                    )
                })
            })?;
            // The projected batch has only the needed columns, in file order: bind by name.
            let full = widen(&batch, &rows.bind)?;
            feed_batch(rows, &full, sink)?;
        }
        Ok(())
    }

    /// Row group `i`'s pages of the root columns `roots`, by their headers in `chunks`: each
    /// page and their total within the limits (`parquet_pages`), before any is decompressed.
    fn check_pages(&self, i: usize, chunks: &Chunks, roots: &[usize]) -> Result<()> {
        let md = self.meta.metadata();
        let Some(rg) = md.row_groups().get(i) else {
            return Ok(()); // the reader refuses the index itself
        };
        let schema = md.file_metadata().schema_descr();
        let mut total = 0u64;
        for (leaf, c) in rg.columns().iter().enumerate() {
            if !roots.contains(&schema.get_column_root_idx(leaf)) {
                continue;
            }
            let (start, length) = chunk_range(c, &self.name, i, self.len)?;
            let name = c.column_path().string();
            let bytes = usize::try_from(length)
                .ok()
                .and_then(|l| chunks.slice(start, Some(l)).ok())
                .ok_or_else(|| {
                    Error::new(
                        ErrorKind::Invalid,
                        format!(
                            "{}: row group {i}, column `{name}`: bytes {start}..+{length} were not read",
                            self.name
                        ),
                    )
                })?;
            let declared = super::parquet_pages::chunk_bytes(&bytes, &self.name, &name, i)?;
            total = total.saturating_add(declared);
        }
        super::parquet_pages::check_group(total, &self.name, i)
    }

    /// Every row of a file given whole.
    pub fn read_all(
        &self,
        fields: &[(String, FieldType)],
        used: &[usize],
        opts: &RowsOptions,
        sink: &mut dyn RowSink,
    ) -> Result<RowStats> {
        let mut reader = self.reader(fields, used, opts)?;
        let Some(whole) = self.whole.clone() else {
            return Err(Error::new(
                ErrorKind::IllegalState,
                "the file was given by its footer: read it by row group",
            ));
        };
        for i in 0..self.row_groups() {
            reader.group(i, vec![(0, whole.clone())], None, sink)?;
        }
        Ok(reader.finish())
    }

    /// A reader of this file's row groups one at a time.
    pub fn reader(
        &self,
        fields: &[(String, FieldType)],
        used: &[usize],
        opts: &RowsOptions,
    ) -> Result<ParquetRows> {
        let bind = self.binding(fields, used, opts)?;
        // the Arrow fields of the columns read, for every row group's reader
        let levels = parquet_to_arrow_field_levels(
            self.meta.metadata().file_metadata().schema_descr(),
            self.mask(bind.needed()),
            Some(self.meta.schema().fields()),
        )
        .map_err(|e| perr(&self.name, &e))?;
        Ok(ParquetRows {
            file: self.clone(),
            rows: Rows::new(bind, opts, Format::Parquet),
            levels: Box::new(levels),
        })
    }
}

/// Row groups of a [`ParquetFile`] read one at a time into a sink.
pub struct ParquetRows {
    file: ParquetFile,
    rows: Rows,
    /// Boxed: a session holds one of these or another reader.
    levels: Box<FieldLevels>,
}

impl ParquetRows {
    /// Read row group `i` from `chunks`: `(offset, bytes)` each, covering its ranges; `part`:
    /// only its rows `[skip, skip + take)` (a large row group shared by readers: pages before
    /// the range are skipped by their headers, not decoded, where the column allows it).
    pub fn group(
        &mut self,
        i: usize,
        chunks: Vec<(u64, Bytes)>,
        part: Option<(u64, u64)>,
        sink: &mut dyn RowSink,
    ) -> Result<()> {
        let chunks = Chunks {
            len: self.file.len,
            parts: chunks,
        };
        self.file
            .read_group(i, &self.levels, chunks, part, &mut self.rows, sink)
    }

    /// What reading found.
    pub fn finish(self) -> RowStats {
        self.rows.stats
    }
}

/// A projected batch with its columns at the file's column positions (the binding's
/// indexes), the others null.
fn widen(batch: &arrow_array::RecordBatch, bind: &Binding) -> Result<arrow_array::RecordBatch> {
    let n = bind.names.len();
    let schema = batch.schema();
    let mut fields = Vec::with_capacity(n);
    let mut cols: Vec<arrow_array::ArrayRef> = Vec::with_capacity(n);
    for (i, name) in bind.names.iter().enumerate() {
        match schema
            .index_of(name)
            .ok()
            .filter(|_| bind.needed().contains(&i))
        {
            Some(j) => {
                fields.push(schema.field(j).clone());
                cols.push(batch.column(j).clone());
            }
            None => {
                fields.push(arrow_schema::Field::new(
                    name,
                    arrow_schema::DataType::Null,
                    true,
                ));
                cols.push(arrow_array::new_null_array(
                    &arrow_schema::DataType::Null,
                    batch.num_rows(),
                ));
            }
        }
    }
    arrow_array::RecordBatch::try_new(Arc::new(arrow_schema::Schema::new(fields)), cols)
        .map_err(|e| Error::new(ErrorKind::IllegalState, format!("widening a batch: {e}")))
}

/// A column chunk's byte range `(start, length)` as its metadata declares it, refused when
/// negative or past the file's `len` bytes (`ColumnChunkMetaData::byte_range` asserts it, and
/// the crate's reader calls that: a panic natively, a trap in wasm, found by
/// tests/fuzz_readers.rs).
fn chunk_range(
    c: &parquet::file::metadata::ColumnChunkMetaData,
    name: &str,
    group: usize,
    len: u64,
) -> Result<(u64, u64)> {
    let start = c
        .dictionary_page_offset()
        .unwrap_or_else(|| c.data_page_offset());
    let length = c.compressed_size();
    let ok = u64::try_from(start)
        .ok()
        .zip(u64::try_from(length).ok())
        .filter(|(s, l)| s.checked_add(*l).is_some_and(|e| e <= len));
    ok.ok_or_else(|| {
        Error::new(
            ErrorKind::Invalid,
            format!(
                "{name}: not a readable Parquet file: row group {group}, column `{}`: its chunk at byte {start} of {length} bytes is outside the file's {len}",
                c.column_path().string()
            ),
        )
    })
}

fn perr(name: &str, e: &parquet::errors::ParquetError) -> Error {
    Error::new(
        ErrorKind::Invalid,
        format!("{name}: not a readable Parquet file: {e}"),
    )
}

/// One row group of a file as the crate's reader takes it (`RowGroups`), its column chunks' pages
/// each checked before the crate decodes it ([`CheckedPages`]).
struct CheckedGroup {
    chunks: Arc<Chunks>,
    meta: Arc<ParquetMetaData>,
    group: usize,
    file: String,
    /// The first page a check refused, as the engine's error (the crate's reader wraps what a
    /// page reader returns in its own error).
    found: Arc<Mutex<Option<Error>>>,
}

impl CheckedGroup {
    fn found(&self) -> Option<Error> {
        self.found.lock().ok().and_then(|mut f| f.take())
    }
}

impl RowGroups for CheckedGroup {
    fn num_rows(&self) -> usize {
        self.meta
            .row_groups()
            .get(self.group)
            .map_or(0, |rg| usize::try_from(rg.num_rows()).unwrap_or(0))
    }

    fn column_chunks(&self, i: usize) -> parquet::errors::Result<Box<dyn PageIterator>> {
        let rg = self.meta.row_groups().get(self.group);
        let c = rg.and_then(|rg| rg.columns().get(i)).ok_or_else(|| {
            parquet::errors::ParquetError::General(format!(
                "no column {i} in row group {}",
                self.group
            ))
        })?;
        let check = PageCheck::new(c.column_descr(), &self.file, self.group)
            .map_err(|why| self.refuse(why))?;
        let pages = SerializedPageReader::new(Arc::clone(&self.chunks), c, self.num_rows(), None)?;
        let reader: Box<dyn PageReader> = Box::new(CheckedPages {
            pages,
            check,
            found: Arc::clone(&self.found),
        });
        Ok(Box::new(OnePageReader(Some(reader))))
    }

    fn row_groups(&self) -> Box<dyn Iterator<Item = &RowGroupMetaData> + '_> {
        Box::new(self.meta.row_groups().get(self.group).into_iter())
    }

    fn metadata(&self) -> &ParquetMetaData {
        &self.meta
    }
}

impl CheckedGroup {
    fn refuse(&self, why: String) -> parquet::errors::ParquetError {
        refuse(&self.found, why)
    }
}

/// `why` kept as the first located error and handed to the crate as its own.
fn refuse(found: &Mutex<Option<Error>>, why: String) -> parquet::errors::ParquetError {
    if let Ok(mut f) = found.lock() {
        f.get_or_insert_with(|| Error::new(ErrorKind::Invalid, why.clone()));
    }
    parquet::errors::ParquetError::General(why)
}

/// The page readers of one row group's column (a `PageIterator` of one).
struct OnePageReader(Option<Box<dyn PageReader>>);

impl Iterator for OnePageReader {
    type Item = parquet::errors::Result<Box<dyn PageReader>>;
    fn next(&mut self) -> Option<Self::Item> {
        self.0.take().map(Ok)
    }
}

impl PageIterator for OnePageReader {}

/// A column chunk's pages, each checked ([`PageCheck`]) before it is handed on.
struct CheckedPages {
    pages: SerializedPageReader<Chunks>,
    check: PageCheck,
    found: Arc<Mutex<Option<Error>>>,
}

impl Iterator for CheckedPages {
    type Item = parquet::errors::Result<Page>;
    fn next(&mut self) -> Option<Self::Item> {
        self.get_next_page().transpose()
    }
}

impl PageReader for CheckedPages {
    fn get_next_page(&mut self) -> parquet::errors::Result<Option<Page>> {
        let page = self.pages.get_next_page()?;
        if let Some(p) = &page {
            self.check.page(p).map_err(|why| refuse(&self.found, why))?;
        }
        Ok(page)
    }

    fn peek_next_page(&mut self) -> parquet::errors::Result<Option<PageMetadata>> {
        self.pages.peek_next_page()
    }

    fn skip_next_page(&mut self) -> parquet::errors::Result<()> {
        self.check.skipped();
        self.pages.skip_next_page()
    }

    fn at_record_boundary(&mut self) -> parquet::errors::Result<bool> {
        self.pages.at_record_boundary()
    }
}

/// Parts of a file, each at its offset: what a row group's column chunks need.
struct Chunks {
    len: u64,
    parts: Vec<(u64, Bytes)>,
}

impl Chunks {
    fn slice(&self, start: u64, length: Option<usize>) -> parquet::errors::Result<Bytes> {
        for (at, b) in &self.parts {
            let end = at + b.len() as u64;
            // A part that ends where another starts must not answer for the next one's bytes.
            let inside = start < end || (start == end && length == Some(0));
            if start >= *at && inside {
                let from = usize::try_from(start - at).unwrap_or(usize::MAX);
                let to = match length {
                    Some(l) => from.saturating_add(l),
                    None => b.len(),
                };
                if to <= b.len() {
                    return Ok(b.slice(from..to));
                }
            }
        }
        Err(parquet::errors::ParquetError::General(format!(
            "bytes at {start} (+{}) were not read",
            length.unwrap_or(0)
        )))
    }
}

impl Length for Chunks {
    fn len(&self) -> u64 {
        self.len
    }
}

impl ChunkReader for Chunks {
    type T = bytes::buf::Reader<Bytes>;
    fn get_read(&self, start: u64) -> parquet::errors::Result<Self::T> {
        Ok(self.slice(start, None)?.reader())
    }
    fn get_bytes(&self, start: u64, length: usize) -> parquet::errors::Result<Bytes> {
        self.slice(start, Some(length))
    }
}
