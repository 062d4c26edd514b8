//! Reading a file's rows, whatever its format: [`RowReader`] takes the bytes as they come (or a
//! Parquet file whole), checks text is UTF-8, binds the file's columns to the design's fields
//! and hands each row to a [`RowSink`]; [`columns`] names a file's columns from its first bytes.

use super::*;

/// The column names of a file from its first bytes (`head`), for a mapping of fields to
/// columns before any row is read: a CSV's header line, the members of a JSON Lines file's
/// first object, an Arrow file's or stream's schema. A Parquet file's are in its footer
/// ([`ParquetFile::columns`]).
pub fn columns(opts: &RowsOptions, head: &[u8]) -> Result<Vec<String>> {
    let name = opts.name.as_deref().unwrap_or("rows");
    // The header alone: no field is bound, so no map or time column can be missing.
    let bare = RowsOptions {
        map: BTreeMap::new(),
        time: None,
        ..opts.clone()
    };
    match Format::detect(opts.format, opts.name.as_deref(), head)? {
        Format::Csv => csv::header(&bare, head),
        Format::JsonLines => jsonl::first_members(name, head),
        Format::ArrowFile => ipc::schema_names(name, ipc::after_file_magic(head)),
        Format::ArrowStream => ipc::schema_names(name, head),
        Format::Parquet => Err(Error::new(
            ErrorKind::IllegalArgument,
            format!("{name}: a Parquet file's columns are in its footer, not its first bytes"),
        )),
    }
}

/// A sink that takes every row and keeps none (reading a header).
pub(super) struct Discard;

impl RowSink for Discard {
    fn row(&mut self, _: &[FieldValue], _: Option<i64>) -> Result<()> {
        Ok(())
    }
}

/// Reads a file pushed in chunks (CSV, JSON Lines, Arrow IPC) or given whole (Parquet, whose
/// index is at its end: see [`ParquetFile`] to read one row group at a time).
pub struct RowReader {
    fields: Vec<(String, FieldType)>,
    used: Vec<usize>,
    opts: RowsOptions,
    state: State,
    /// Text formats: every byte checked as UTF-8 (and free of NUL) as it arrives.
    text: TextCheck,
}

/// "invalid UTF-8 at byte N (0x..)": `at` the file's offset, `bytes[i]` the bad byte.
fn bad_utf8(name: &str, at: u64, bytes: &[u8], i: usize) -> Error {
    Error::new(
        ErrorKind::Invalid,
        format!(
            "{name}: invalid UTF-8 at byte {at} (0x{:02x}); save the file as UTF-8 (Latin-1 and Windows-1252 are not read)",
            bytes.get(i).copied().unwrap_or(0)
        ),
    )
}

/// The check of a text file as it arrives in chunks: UTF-8 throughout, no NUL byte (no text
/// has one: it is a binary file read as text, or UTF-16), each refusal at its byte offset.
#[derive(Debug, Default)]
struct TextCheck {
    /// Bytes checked so far.
    offset: u64,
    /// The start of a character cut by the last chunk's end.
    carry: Vec<u8>,
}

impl TextCheck {
    /// Check `bytes` in place (no copy of the chunk): first the character the last chunk cut,
    /// completed from this one's first bytes, then the rest.
    fn push(&mut self, name: &str, bytes: &[u8]) -> Result<()> {
        let mut rest = bytes;
        if !self.carry.is_empty() {
            // A cut character is at most 4 bytes: complete it, check it alone.
            let need = 4usize.saturating_sub(self.carry.len()).min(bytes.len());
            let mut head = self.carry.clone();
            head.extend_from_slice(bytes.get(..need).unwrap_or(&[]));
            let at = self.offset - self.carry.len() as u64;
            let used = match std::str::from_utf8(&head) {
                Ok(_) => head.len(),
                Err(e) if e.valid_up_to() >= self.carry.len() => e.valid_up_to(),
                Err(e) if e.error_len().is_none() && need == bytes.len() => {
                    // Still cut (a chunk of one or two bytes): keep waiting.
                    self.carry = head;
                    self.offset += bytes.len() as u64;
                    return Ok(());
                }
                Err(e) => {
                    return Err(bad_utf8(
                        name,
                        at + e.valid_up_to() as u64,
                        &head,
                        e.valid_up_to(),
                    ))
                }
            };
            let taken = used.saturating_sub(self.carry.len());
            self.offset += taken as u64;
            self.carry.clear();
            rest = bytes.get(taken..).unwrap_or(&[]);
        }
        let base = self.offset;
        if let Some(i) = memchr::memchr(0, rest) {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!(
                    "{name}: binary data, not text: a NUL byte at byte {}. Files of rows are \
                     CSV or JSON Lines (UTF-8 text), Parquet or Arrow IPC; a design is JSON",
                    base + i as u64
                ),
            ));
        }
        match std::str::from_utf8(rest) {
            Ok(_) => {}
            Err(e) if e.error_len().is_none() => {
                // A character cut by the chunk's end: checked with the next chunk.
                self.carry = rest.get(e.valid_up_to()..).unwrap_or(&[]).to_vec();
            }
            Err(e) => {
                return Err(bad_utf8(
                    name,
                    base + e.valid_up_to() as u64,
                    rest,
                    e.valid_up_to(),
                ))
            }
        }
        self.offset += rest.len() as u64;
        Ok(())
    }

    fn finish(&self, name: &str) -> Result<()> {
        if self.carry.is_empty() {
            return Ok(());
        }
        Err(Error::new(
            ErrorKind::Invalid,
            format!(
                "{name}: invalid UTF-8 at byte {}: the input ends inside a character",
                self.offset - self.carry.len() as u64
            ),
        ))
    }
}

enum State {
    /// Waiting for the first bytes to tell the format.
    Start,
    Csv(Box<csv::CsvRows>),
    Jsonl(Box<jsonl::JsonRows>),
    Ipc(Box<ipc::IpcRows>),
    /// Parquet (or an Arrow IPC file) read whole at `finish`.
    Whole(Format, Vec<u8>),
    Done,
}

impl RowReader {
    /// A reader for a design's rows: `fields` its declarations (name, type), `used` the
    /// fields its key reads ([`crate::keyspec::CompiledKey::used_fields`]).
    pub fn new(fields: Vec<(String, FieldType)>, used: Vec<usize>, opts: RowsOptions) -> RowReader {
        RowReader {
            fields,
            used,
            opts,
            state: State::Start,
            text: TextCheck::default(),
        }
    }

    /// Read the next bytes of the file, handing on every row they complete.
    pub fn push(&mut self, bytes: &[u8], sink: &mut dyn RowSink) -> Result<()> {
        if let State::Start = self.state {
            if bytes.is_empty() {
                return Ok(());
            }
            let format = Format::detect(self.opts.format, self.opts.name.as_deref(), bytes)?;
            self.state = match format {
                Format::Csv => State::Csv(Box::new(csv::CsvRows::new(&self.opts))),
                Format::JsonLines => State::Jsonl(Box::new(jsonl::JsonRows::new(
                    &self.fields,
                    &self.used,
                    &self.opts,
                )?)),
                Format::ArrowStream => State::Ipc(Box::new(ipc::IpcRows::new())),
                Format::Parquet | Format::ArrowFile => State::Whole(format, Vec::new()),
            };
        }
        if matches!(self.state, State::Csv(_) | State::Jsonl(_)) {
            let name = self.opts.name.as_deref().unwrap_or("rows");
            self.text.push(name, bytes)?;
        }
        match &mut self.state {
            State::Csv(r) => r.push(bytes, &self.fields, &self.used, &self.opts, sink),
            State::Jsonl(r) => r.push(bytes, sink),
            State::Ipc(r) => r.push(bytes, &self.fields, &self.used, &self.opts, sink),
            State::Whole(_, buf) => {
                crate::limits::check_rows_file(buf.len().saturating_add(bytes.len()))?;
                buf.extend_from_slice(bytes);
                Ok(())
            }
            State::Start | State::Done => Ok(()),
        }
    }

    /// Whether bytes have been read (the format is known).
    pub fn started(&self) -> bool {
        !matches!(self.state, State::Start)
    }

    /// Whether the bytes pushed so far end between rows (a text file's chunk cut at a line end
    /// that is no row's middle: not inside a quoted field, not in one JSON array); a reader of
    /// Parquet or Arrow always is. A chunk read apart is refused unless it ends so.
    pub fn at_row_end(&self) -> bool {
        match &self.state {
            State::Csv(r) => r.at_row_end(),
            State::Jsonl(r) => r.at_row_end(),
            _ => true,
        }
    }

    /// The end of the file: the rows still held, and what reading found.
    pub fn finish(&mut self, sink: &mut dyn RowSink) -> Result<RowStats> {
        self.text.finish(self.name())?;
        let stats = match std::mem::replace(&mut self.state, State::Done) {
            State::Start => {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!("{}: the file is empty", self.name()),
                ))
            }
            State::Csv(mut r) => r.finish(&self.fields, &self.used, &self.opts, sink)?,
            State::Jsonl(mut r) => r.finish(sink)?,
            State::Ipc(r) => r.finish(&self.opts)?,
            State::Whole(Format::Parquet, buf) => {
                let file = ParquetFile::new(bytes::Bytes::from(buf), &self.opts)?;
                file.read_all(&self.fields, &self.used, &self.opts, sink)?
            }
            State::Whole(_, buf) => {
                ipc::read_ipc_file(buf, &self.fields, &self.used, &self.opts, sink)?
            }
            State::Done => {
                return Err(Error::new(
                    ErrorKind::IllegalState,
                    "the rows were already read to the end",
                ))
            }
        };
        if stats.rows == 0 && !sink.takes_no_rows() {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!("{}: no rows", self.name()),
            ));
        }
        Ok(stats)
    }

    fn name(&self) -> &str {
        self.opts.name.as_deref().unwrap_or("rows")
    }
}
