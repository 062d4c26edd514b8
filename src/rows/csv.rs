//! CSV with a header line, tokenized by csv-core (quotes, doubled quotes, CRLF) in chunks as
//! they arrive; only the columns the key reads are looked at, as text.

use csv_core::{ReadRecordResult, Reader, ReaderBuilder};

use super::{Binding, Cell, Format, RowSink, RowStats, Rows, RowsOptions};
use crate::error::{Error, ErrorKind, Result};
use crate::keyspec::FieldType;

/// A CSV file being read.
pub(crate) struct CsvRows {
    reader: Option<Reader>,
    /// The current record's fields, end to end, and where each ends.
    out: Vec<u8>,
    ends: Vec<usize>,
    out_len: usize,
    ends_len: usize,
    /// Bytes seen before the reader exists (the delimiter is chosen from the first line).
    head: Vec<u8>,
    rows: Option<Rows>,
    /// Fields in the header.
    width: usize,
    /// Line (1-based) where the current record starts, and lines read so far.
    record_line: u64,
    lines: u64,
    /// The first bytes were checked for a byte-order mark.
    bom_checked: bool,
    name: String,
}

impl CsvRows {
    pub(crate) fn new(opts: &RowsOptions) -> CsvRows {
        CsvRows {
            reader: None,
            out: vec![0; 4096],
            ends: vec![0; 64],
            out_len: 0,
            ends_len: 0,
            head: Vec::new(),
            rows: None,
            width: 0,
            record_line: 1,
            lines: 1,
            bom_checked: false,
            name: opts.name.clone().unwrap_or_else(|| "rows".into()),
        }
    }

    pub(crate) fn push(
        &mut self,
        bytes: &[u8],
        fields: &[(String, FieldType)],
        used: &[usize],
        opts: &RowsOptions,
        sink: &mut dyn RowSink,
    ) -> Result<()> {
        if !self.bom_checked {
            // A whole mark or none arrives in the first push of three bytes or more.
            if bytes.len() < 3 && self.head.len() + bytes.len() < 3 {
                self.head.extend_from_slice(bytes);
                return Ok(());
            }
            self.bom_checked = true;
            let mut first = std::mem::take(&mut self.head);
            first.extend_from_slice(bytes);
            let start = if first.starts_with(b"\xef\xbb\xbf") {
                3
            } else {
                0
            };
            let rest = first.get(start..).unwrap_or(&[]).to_vec();
            return self.push(&rest, fields, used, opts, sink);
        }
        if self.reader.is_none() {
            // The delimiter comes from the header line: wait for its end (or the file's).
            self.head.extend_from_slice(bytes);
            if !self.head.contains(&b'\n') && self.head.len() < crate::limits::MAX_ROW_TEXT {
                return Ok(());
            }
            let delimiter = delimiter(opts, &self.head)?;
            self.reader = Some(ReaderBuilder::new().delimiter(delimiter).build());
            let head = std::mem::take(&mut self.head);
            return self.records(&head, false, fields, used, opts, sink);
        }
        self.records(bytes, false, fields, used, opts, sink)
    }

    /// Nothing of a row held back: the bytes so far end at a record's end, outside quotes (a
    /// line end inside a quoted field is kept in the field).
    pub(crate) fn at_row_end(&self) -> bool {
        self.reader.is_some() && self.head.is_empty() && self.out_len == 0 && self.ends_len == 0
    }

    pub(crate) fn finish(
        &mut self,
        fields: &[(String, FieldType)],
        used: &[usize],
        opts: &RowsOptions,
        sink: &mut dyn RowSink,
    ) -> Result<RowStats> {
        if !self.bom_checked {
            self.bom_checked = true;
            let head = std::mem::take(&mut self.head);
            let start = if head.starts_with(b"\xef\xbb\xbf") {
                3
            } else {
                0
            };
            self.head = head.get(start..).unwrap_or(&[]).to_vec();
        }
        if self.reader.is_none() {
            let delimiter = delimiter(opts, &self.head)?;
            self.reader = Some(ReaderBuilder::new().delimiter(delimiter).build());
            let head = std::mem::take(&mut self.head);
            self.records(&head, false, fields, used, opts, sink)?;
        }
        self.records(&[], true, fields, used, opts, sink)?;
        match &self.rows {
            Some(r) => Ok(r.stats.clone()),
            None => Err(Error::new(
                ErrorKind::Invalid,
                format!("{}: no header line", self.name),
            )),
        }
    }

    /// Tokenize `input`; `end`: it is the file's last.
    fn records(
        &mut self,
        mut input: &[u8],
        end: bool,
        fields: &[(String, FieldType)],
        used: &[usize],
        opts: &RowsOptions,
        sink: &mut dyn RowSink,
    ) -> Result<()> {
        loop {
            let Some(reader) = self.reader.as_mut() else {
                return Ok(());
            };
            let (res, nin, nout, nend) = reader.read_record(
                input,
                self.out.get_mut(self.out_len..).unwrap_or(&mut []),
                self.ends.get_mut(self.ends_len..).unwrap_or(&mut []),
            );
            let consumed = input.get(..nin).unwrap_or(&[]);
            self.lines += consumed.iter().filter(|&&b| b == b'\n').count() as u64;
            input = input.get(nin..).unwrap_or(&[]);
            self.out_len += nout;
            self.ends_len += nend;
            match res {
                ReadRecordResult::InputEmpty => {
                    if input.is_empty() && !end {
                        return Ok(());
                    }
                }
                ReadRecordResult::OutputFull => {
                    if self.out.len() >= crate::limits::MAX_ROW_TEXT {
                        return Err(Error::limit(
                            "records",
                            format!(
                                "{}: line {}: a row of more than {} MiB (a quote left open?)",
                                self.name,
                                self.record_line,
                                crate::limits::MAX_ROW_TEXT >> 20
                            ),
                        ));
                    }
                    self.out.resize(self.out.len() * 2, 0);
                }
                ReadRecordResult::OutputEndsFull => {
                    if self.ends.len() >= crate::limits::MAX_COLUMNS {
                        return Err(Error::limit(
                            "records",
                            format!(
                                "{}: line {}: more than {} columns",
                                self.name,
                                self.record_line,
                                crate::limits::MAX_COLUMNS
                            ),
                        ));
                    }
                    // Never past the limit: a record that fills `MAX_COLUMNS` ends and has more
                    // comes back here, full at the limit, and is refused above.
                    let grown = (self.ends.len() * 2).min(crate::limits::MAX_COLUMNS);
                    self.ends.resize(grown, 0);
                }
                ReadRecordResult::Record => {
                    self.record(fields, used, opts, sink)?;
                    self.out_len = 0;
                    self.ends_len = 0;
                    self.record_line = self.lines;
                }
                ReadRecordResult::End => return Ok(()),
            }
        }
    }

    /// One complete record: the header, or a row.
    fn record(
        &mut self,
        fields: &[(String, FieldType)],
        used: &[usize],
        opts: &RowsOptions,
        sink: &mut dyn RowSink,
    ) -> Result<()> {
        let out = self.out.get(..self.out_len).unwrap_or(&[]);
        let ends = self.ends.get(..self.ends_len).unwrap_or(&[]);
        let line = self.record_line;
        let name = &self.name;
        let Some(rows) = self.rows.as_mut() else {
            // The header.
            let mut names = Vec::with_capacity(ends.len());
            let mut start = 0;
            for (i, &e) in ends.iter().enumerate() {
                let raw = out.get(start..e).unwrap_or(&[]);
                let text = std::str::from_utf8(raw).map_err(|u| not_utf8(name, line, i + 1, u))?;
                names.push(text.trim().to_string());
                start = e;
            }
            self.width = names.len();
            let bind = Binding::new(fields, used, names, opts)?;
            self.rows = Some(Rows::new(bind, opts, Format::Csv));
            return Ok(());
        };
        // A blank line is no row.
        if ends.len() == 1 && out.is_empty() {
            return Ok(());
        }
        let row = rows.stats.rows + 1;
        if ends.len() != self.width {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!(
                    "{name}: line {line} (row {row}): {} fields, where the header has {}",
                    ends.len(),
                    self.width
                ),
            ));
        }
        // Text of the needed columns is checked as UTF-8 before the row is built, so the
        // closure below only ever sees text.
        let mut bad = None;
        let field = |col: usize| -> &[u8] {
            let start = if col == 0 {
                0
            } else {
                ends.get(col - 1).copied().unwrap_or(0)
            };
            out.get(start..ends.get(col).copied().unwrap_or(start))
                .unwrap_or(&[])
        };
        for &col in rows.bind.needed() {
            if let Err(u) = std::str::from_utf8(field(col)) {
                bad = Some((col, u));
                break;
            }
        }
        if let Some((col, u)) = bad {
            return Err(not_utf8(name, line, col + 1, u));
        }
        let place = || format!("line {line} (row {row})");
        rows.row(
            |col| match std::str::from_utf8(field(col)) {
                Ok("") | Err(_) => Cell::Null,
                Ok(s) => Cell::Text(s),
            },
            &place,
            sink,
        )
    }
}

/// The names in the header line of a CSV file whose first bytes are `head`; rows after it that
/// `head` holds are tokenized and dropped (an error among them is left to the reading).
pub(crate) fn header(opts: &RowsOptions, head: &[u8]) -> Result<Vec<String>> {
    let mut r = CsvRows::new(opts);
    let pushed = r.push(head, &[], &[], opts, &mut super::reader::Discard);
    if r.rows.is_none() && pushed.is_ok() {
        // A file shorter than `head`: its header may end without a line end.
        r.finish(&[], &[], opts, &mut super::reader::Discard).ok();
    }
    match r.rows {
        Some(rows) => Ok(rows.bind.names),
        None => pushed.and(Err(Error::new(
            ErrorKind::Invalid,
            format!("{}: no header line", r.name),
        ))),
    }
}

fn not_utf8(name: &str, line: u64, field: usize, u: std::str::Utf8Error) -> Error {
    Error::new(
        ErrorKind::Invalid,
        format!(
            "{name}: line {line}, field {field}: not UTF-8 text (byte {} of the field); save the file as UTF-8 (Latin-1 and Windows-1252 are not read)",
            u.valid_up_to() + 1
        ),
    )
}

/// The delimiter: given, a tab for `.tsv`, else whichever of `,` `\t` `;` `|` the header
/// line (outside quotes) has most of, `,` on a tie.
fn delimiter(opts: &RowsOptions, head: &[u8]) -> Result<u8> {
    if let Some(d) = opts.delimiter {
        return u8::try_from(u32::from(d))
            .ok()
            .filter(u8::is_ascii)
            .ok_or_else(|| Error::arg("delimiter", format!("`{d}` is not one ASCII character")));
    }
    if opts
        .name
        .as_deref()
        .is_some_and(|n| n.to_ascii_lowercase().ends_with(".tsv"))
    {
        return Ok(b'\t');
    }
    let line = head.split(|&b| b == b'\n').next().unwrap_or(&[]);
    let mut counts = [0usize; 4];
    let mut quoted = false;
    for &b in line {
        match b {
            b'"' => quoted = !quoted,
            b',' if !quoted => counts[0] += 1,
            b'\t' if !quoted => counts[1] += 1,
            b';' if !quoted => counts[2] += 1,
            b'|' if !quoted => counts[3] += 1,
            _ => {}
        }
    }
    let best = (0..4).max_by_key(|&i| (counts[i], 3 - i)).unwrap_or(0);
    Ok(if counts[best] == 0 {
        b','
    } else {
        [b',', b'\t', b';', b'|'][best]
    })
}
