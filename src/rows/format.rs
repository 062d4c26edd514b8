//! Which format a file is: given, from its first bytes (Parquet's and Arrow's magic numbers),
//! from its name's extension, or, for text, from its first character.

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorKind, Result};

/// A file format of rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Comma- (or tab-, semicolon-, bar-) separated values with a header line.
    Csv,
    /// One JSON object per line.
    #[serde(rename = "jsonl")]
    JsonLines,
    /// Apache Parquet (flat schemas).
    Parquet,
    /// Arrow IPC file format (Feather v2).
    #[serde(rename = "arrow")]
    ArrowFile,
    /// Arrow IPC stream format.
    ArrowStream,
}

impl Format {
    /// The name users write (`--format`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::JsonLines => "jsonl",
            Format::Parquet => "parquet",
            Format::ArrowFile => "arrow",
            Format::ArrowStream => "arrow-stream",
        }
    }

    /// The format of a file: `given` when set (checked against the magic number of a binary
    /// format), else the magic number, else the extension of `name`, else `{` for JSON Lines
    /// and CSV for any other text. Text in UTF-16 or UTF-32 is refused by name.
    pub fn detect(given: Option<Format>, name: Option<&str>, head: &[u8]) -> Result<Format> {
        let file = name.unwrap_or("rows");
        if let Some(enc) = wide_text(head) {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!("{file}: the text is {enc}; save it as UTF-8"),
            ));
        }
        let magic = if head.starts_with(b"PAR1") {
            Some(Format::Parquet)
        } else if head.starts_with(b"ARROW1") {
            Some(Format::ArrowFile)
        } else if head.starts_with(&[0xff, 0xff, 0xff, 0xff]) {
            Some(Format::ArrowStream)
        } else {
            None
        };
        let by_name = name.and_then(by_extension);
        let format = match (given.or(by_name), magic) {
            (Some(f), Some(m)) if f != m => {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!(
                        "{file}: said to be {}, but its first bytes are {}'s",
                        f.name(),
                        m.name()
                    ),
                ))
            }
            (_, Some(m)) => m,
            (Some(f @ (Format::Parquet | Format::ArrowFile)), None) => {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!(
                        "{file}: not a {} file: it does not start with {}",
                        f.name(),
                        if f == Format::Parquet {
                            "PAR1"
                        } else {
                            "ARROW1"
                        }
                    ),
                ))
            }
            (Some(f), None) => f,
            (None, None) => {
                let text = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
                match text.iter().find(|b| !b.is_ascii_whitespace()) {
                    // One JSON array of objects is read by the same reader.
                    Some(b'{' | b'[') => Format::JsonLines,
                    _ => Format::Csv,
                }
            }
        };
        // No text has a NUL byte: a picture or an archive given as rows is said to be binary, with
        // what files of rows are, before the text reader's UTF-8 check speaks of encodings.
        if matches!(format, Format::Csv | Format::JsonLines) {
            if let Some(i) = memchr::memchr(0, head) {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!(
                        "{file}: binary data, not text: a NUL byte at byte {i}. Files of rows are \
                         CSV or JSON Lines (UTF-8 text), Parquet or Arrow IPC; a design is JSON"
                    ),
                ));
            }
        }
        Ok(format)
    }
}

fn by_extension(name: &str) -> Option<Format> {
    let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
    Some(match ext.as_str() {
        "csv" | "tsv" | "psv" => Format::Csv,
        "jsonl" | "ndjson" => Format::JsonLines,
        "parquet" | "pq" => Format::Parquet,
        "arrow" | "feather" | "ipc" => Format::ArrowFile,
        "arrows" => Format::ArrowStream,
        _ => return None,
    })
}

/// The encoding of text that starts with a UTF-16 or UTF-32 byte-order mark, or has a zero
/// byte in every second place (UTF-16 without a mark).
fn wide_text(head: &[u8]) -> Option<&'static str> {
    if head.starts_with(&[0xff, 0xfe, 0, 0]) || head.starts_with(&[0, 0, 0xfe, 0xff]) {
        return Some("UTF-32");
    }
    if head.starts_with(&[0xff, 0xfe]) || head.starts_with(&[0xfe, 0xff]) {
        return Some("UTF-16");
    }
    let pairs = head.len().min(64) / 2;
    let zeros = head
        .chunks_exact(2)
        .take(pairs)
        .filter(|p| matches!(p, [0, b] | [b, 0] if *b != 0 && b.is_ascii()))
        .count();
    (pairs >= 4 && zeros == pairs && !head.starts_with(&[0xff, 0xff, 0xff, 0xff]))
        .then_some("UTF-16")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_binary_file_is_said_to_be_binary_with_what_rows_are() {
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
        let e = Format::detect(None, Some("chart.png"), png).err();
        let m = e.map(|e| e.message).unwrap_or_default();
        assert_eq!(
            m,
            "chart.png: binary data, not text: a NUL byte at byte 8. Files of rows are CSV or \
             JSON Lines (UTF-8 text), Parquet or Arrow IPC; a design is JSON"
        );
        // a NUL in UTF-16 text is said as UTF-16, as before
        let utf16: Vec<u8> = "a,b\n1,2\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let e = Format::detect(None, Some("u.csv"), &utf16).err();
        assert!(e.is_some_and(|e| e.message.contains("UTF-16")));
    }

    #[test]
    fn magic_wins_and_a_wrong_name_is_said() {
        assert_eq!(
            Format::detect(None, Some("a.csv.gz"), b"PAR1\x15"),
            Ok(Format::Parquet)
        );
        let e = Format::detect(None, Some("a.parquet"), b"a,b\n1,2\n");
        assert!(e.is_err_and(|e| e.message.contains("PAR1")));
        let e = Format::detect(Some(Format::Csv), None, b"PAR1\x15");
        assert!(e.is_err_and(|e| e.message.contains("parquet")));
        assert_eq!(
            Format::detect(None, None, b"  {\"a\":1}\n"),
            Ok(Format::JsonLines)
        );
        assert_eq!(Format::detect(None, None, b"a,b\n"), Ok(Format::Csv));
        assert_eq!(
            Format::detect(None, Some("x.tsv"), b"a\tb\n"),
            Ok(Format::Csv)
        );
    }

    #[test]
    fn wide_text_is_refused_by_name() {
        let utf16: Vec<u8> = "carrier,flight\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let e = Format::detect(None, Some("f.csv"), &utf16);
        assert!(e.is_err_and(|e| e.message.contains("UTF-16")));
        let e = Format::detect(None, None, b"\xff\xfec\x00");
        assert!(e.is_err_and(|e| e.message.contains("UTF-16")));
    }
}
