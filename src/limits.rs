//! The sizes the engine refuses up front, before it does the work or allocates for it. Each is
//! HBase's own limit where HBase has one, else a cap that keeps one call well inside what a
//! browser tab or a Node process can hold. An input past a limit is an error of kind
//! [`Limit`](crate::error::ErrorKind::Limit) that names the input, what it asked for and the
//! limit; `docs/limits.md` lists every limit with its reason (a test holds the list to the
//! code). Limits that belong to one module's arithmetic (split keys, regions, scans, analyzer
//! cells) live beside it and are listed there too.

use crate::error::{Error, ErrorKind};

/// Longest row key HBase accepts: `HConstants.MAX_ROW_LENGTH = Short.MAX_VALUE`. A `Put` or a
/// `Get` with a longer row fails in the client (`Mutation.checkRow`), so a design whose key can
/// pass it cannot be written.
pub const MAX_ROW_LENGTH: usize = 32_767;

/// Largest text of one result as JSON (a report, a sample, a split file, a statement): 128 MiB,
/// a quarter of the longest string V8 can build (2^29 − 24 UTF-16 units), so the engine's own
/// error comes first, never a JavaScript `Invalid string length`.
pub const MAX_RESULT_BYTES: usize = 128 << 20;

/// Most digits in a decimal number's text (a `bigDecimal` field value, an inspected value):
/// the digits of the largest unscaled value a row key can hold (32,763 bytes after
/// `Bytes.toBytes(BigDecimal)`'s 4-byte scale: 2^(8·32,763) has 78,902 digits). Parsing big
/// numbers is quadratic; at this length it stays under a few milliseconds.
pub const MAX_DECIMAL_DIGITS: usize = 78_902;

/// Longest design document text: 16 MiB. The largest real design (a few hundred fields,
/// thousands of explicit split keys and examples) is well under 1 MiB; a document past this is
/// not a design but a mistake (a data file picked by accident), refused before it is parsed.
pub const MAX_DOCUMENT_BYTES: usize = 16 << 20;

/// Longest region text (`get_splits`, `list_regions`, `scan 'hbase:meta'`, a split file, a
/// `create` statement): 64 MiB, the shell output of a table at the 100,000-region limit with
/// long keys.
pub const MAX_REGION_TEXT_BYTES: usize = 64 << 20;

/// Most region readings (a region read in one snapshot file) a series of snapshots holds,
/// every table of its dumps together (`region::series`): 250 snapshots of 1,000 regions, or 2
/// of 100,000. Each reading becomes a rate of the report, whose JSON must stay under
/// [`MAX_RESULT_BYTES`]: 1,000 regions × 250 snapshots is 65 MB of JSON (measured, about
/// 260 bytes a rate), and the series takes about 300 MB while it is read natively; a longer
/// watch is read a window at a time.
pub const MAX_SERIES_READINGS: usize = 250_000;

/// Most files in one series of snapshots: a poll of 100 servers a minute for 16 hours.
pub const MAX_SERIES_FILES: usize = 100_000;

/// Most bytes of text in one series of snapshots, its files together: 1 GiB, a quarter of a wasm
/// module's memory (the texts are copied in whole before they are read). 70 /jmx dumps of
/// 60 MB each took the module past its 4 GiB; a longer watch is read a window at a time.
/// Checked before the texts are read: the CLI by the files' sizes, the engine as each crosses.
pub const MAX_SERIES_BYTES: usize = 1 << 30;

/// Refuse a series whose texts pass [`MAX_SERIES_BYTES`] (`bytes` so far, `files` of them).
pub fn check_series_bytes(bytes: usize, files: usize) -> crate::error::Result<()> {
    if bytes > MAX_SERIES_BYTES {
        return Err(limit_error(
            "files",
            format!("{} MiB of text in {files} files", bytes >> 20),
            format!("{} MiB", MAX_SERIES_BYTES >> 20),
            "a series' texts are held together while it is read: read a longer series a window at a time",
        ));
    }
    Ok(())
}

/// A series' files checked by their sizes (bytes, in order, as the file system or a browser's
/// `File.size` gives them) before any is read: each within [`MAX_REGION_TEXT_BYTES`], together
/// within [`MAX_SERIES_BYTES`]. The one rule for the CLI's `observe` and the page's live table,
/// so a series refused by one is refused by the other, and no text is held first.
pub fn check_series_sizes(sizes: &[u64]) -> crate::error::Result<()> {
    if sizes.len() > MAX_SERIES_FILES {
        return Err(limit_error(
            "files",
            format!("{} files", sizes.len()),
            format!("{MAX_SERIES_FILES} files"),
            "read a longer series a window at a time",
        ));
    }
    let mut total = 0u64;
    for (i, &size) in sizes.iter().enumerate() {
        if size > MAX_REGION_TEXT_BYTES as u64 {
            return Err(limit_error(
                &format!("files[{i}]"),
                format!("a snapshot file of {size} bytes"),
                format!("{} MiB", MAX_REGION_TEXT_BYTES >> 20),
                "a /jmx dump or region text larger than this is not one snapshot",
            ));
        }
        total = total.saturating_add(size);
    }
    check_series_bytes(usize::try_from(total).unwrap_or(usize::MAX), sizes.len())
}

/// Most bytes of row keys the analyzer keeps as samples (the report's key sample and each
/// region's, which auto-split takes its midpoints from): long keys times many regions times
/// `regionSampleSize` must not exhaust a tab's memory.
pub const MAX_SAMPLE_BYTES: usize = 256 << 20;

/// Most byte arrays in one list argument from JavaScript (split keys, partial analyses):
/// the most split keys any splitter makes ([`MAX_SPLIT_KEYS`](crate::hbase::split::MAX_SPLIT_KEYS)).
/// Checked before any item is copied into the module.
pub const MAX_LIST_ITEMS: usize = 1_000_000;

/// Most bytes of one list argument from JavaScript, its items together: 256 MiB. The list is
/// copied into the module's memory (at most 4 GiB, shared with everything the call then
/// builds), so 10^5 partial analyses or 10^4 keys of 32 KiB are refused before the copy.
pub const MAX_LIST_BYTES: usize = 256 << 20;

/// Most bytes of a user's rows kept by the first pass (each row's key, qualifier and time) so
/// the analysis counts them from memory instead of reading the file again: 256 MiB, about
/// eight million rows of 16-byte keys with a time. Past it the kept rows are dropped and the
/// file is read twice, so memory stays bounded for any file.
pub const MAX_REPLAY_BYTES: usize = 256 << 20;

/// Most bytes of Arrow batches the Python binding holds for a second pass over a stream that
/// can be read once (a `RecordBatchReader`): 2 GiB. Past it the batches are let go; the analysis
/// still ends when the first pass kept the rows ([`MAX_REPLAY_BYTES`]), and otherwise asks for a
/// source it can read again (a table, a file path) instead of holding a stream of any size.
pub const MAX_HELD_STREAM_BYTES: u64 = 2 << 30;

/// Longest row of a text file of rows (a CSV record, a JSON line, an element of a JSON array):
/// 1 MiB. A row is kept whole until it ends; a quote left open, or one endless line
/// (`yes | tr -d '\n'`), would otherwise read the rest of the input into one row.
pub const MAX_ROW_TEXT: usize = 1 << 20;

/// Most columns in a file of rows: 100,000 (Parquet files of a few thousand columns exist;
/// more is a file read with the wrong delimiter or format).
pub const MAX_COLUMNS: usize = 100_000;

/// Largest Parquet or Arrow IPC file read whole into memory: 1 GiB, a quarter of a wasm
/// module's memory. A larger Parquet file is read one row group at a time
/// ([`ParquetFile::row_group_ranges`](crate::rows::ParquetFile)), its size then unlimited.
pub const MAX_WHOLE_FILE_BYTES: usize = 1 << 30;

/// Largest Parquet page, uncompressed as its header declares: 64 MiB. Writers cut pages at about
/// 1 MiB (parquet-mr, arrow-rs, pyarrow, Spark); a page is decompressed whole into memory, so a
/// few KB of zstd declaring 2 GiB of zeros is refused by its header, before it is decompressed.
pub const MAX_PARQUET_PAGE_BYTES: usize = 64 << 20;

/// Most uncompressed bytes in one Parquet row group's pages of the columns the key reads, as
/// their headers (and the footer) declare: 1 GiB. Writers cut row groups at 128 MiB to 1 GiB
/// of data for all columns together; past this a row group is a compression bomb, refused
/// before its pages are decompressed.
pub const MAX_PARQUET_GROUP_BYTES: usize = 1 << 30;

/// Refuse a file read whole past [`MAX_WHOLE_FILE_BYTES`].
pub fn check_rows_file(bytes: usize) -> crate::error::Result<()> {
    if bytes > MAX_WHOLE_FILE_BYTES {
        return Err(limit_error(
            "records",
            format!("{} MiB", bytes >> 20),
            format!("{} MiB", MAX_WHOLE_FILE_BYTES >> 20),
            "a Parquet or Arrow file is read whole here; read a larger Parquet file by row group",
        ));
    }
    Ok(())
}

/// The error for an input past a limit: `path` names the input, `asked` what it asked for (a
/// count with its unit), `limit` the limit in the same unit, `why` the reason.
pub fn limit_error(
    path: &str,
    asked: impl std::fmt::Display,
    limit: impl std::fmt::Display,
    why: &str,
) -> Error {
    Error::new(
        ErrorKind::Limit,
        format!("{asked} is over the limit of {limit}: {why}"),
    )
    .at_path(path)
}

/// `len` checked against [`MAX_ROW_LENGTH`]: a row key (or the most a design's key can be).
pub fn check_row_length(path: &str, len: usize) -> crate::error::Result<()> {
    if len > MAX_ROW_LENGTH {
        return Err(limit_error(
            path,
            format!("a row key of {len} bytes"),
            format!("{MAX_ROW_LENGTH} bytes"),
            "HBase refuses longer row keys (HConstants.MAX_ROW_LENGTH)",
        ));
    }
    Ok(())
}

/// A decimal number's `text` checked against [`MAX_DECIMAL_DIGITS`] before it is parsed.
pub fn check_decimal_digits(path: &str, text: &str) -> crate::error::Result<()> {
    let digits = text.bytes().filter(u8::is_ascii_digit).count();
    if digits > MAX_DECIMAL_DIGITS {
        return Err(limit_error(
            path,
            format!("a decimal number of {digits} digits"),
            format!("{MAX_DECIMAL_DIGITS} digits"),
            "no row key can hold a longer unscaled value",
        ));
    }
    Ok(())
}

/// An input text of `len` bytes checked against `limit` before it is read: `what` names it.
pub fn check_text_bytes(
    path: &str,
    what: &str,
    len: usize,
    limit: usize,
) -> crate::error::Result<()> {
    if len > limit {
        return Err(limit_error(
            path,
            format!("{what} of {len} bytes"),
            format!("{limit} bytes"),
            "refused before it is read (see docs/limits.md)",
        ));
    }
    Ok(())
}

/// The error for a result whose JSON text would pass [`MAX_RESULT_BYTES`].
pub fn result_too_large(path: &str) -> Error {
    limit_error(
        path,
        "the result's JSON text",
        format!("{MAX_RESULT_BYTES} bytes"),
        "ask for fewer keys, regions or windows",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A series' sizes: each file at its cap passes and one byte over is named by its index;
    /// the total at 1 GiB passes and one byte over is refused; the file count past its cap too.
    #[test]
    fn a_series_is_refused_by_its_sizes() {
        let file = MAX_REGION_TEXT_BYTES as u64;
        assert!(check_series_sizes(&[file, 0, file]).is_ok());
        let e = check_series_sizes(&[1, file + 1]).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Limit);
        assert_eq!(e.location.path.as_deref(), Some("files[1]"));
        assert!(e.message.contains(&format!("{} bytes", file + 1)), "{e}");
        let total = MAX_SERIES_BYTES as u64;
        let full: Vec<u64> = vec![total / 16; 16];
        assert!(check_series_sizes(&full).is_ok());
        let mut over = full.clone();
        over.push(1);
        let e = check_series_sizes(&over).unwrap_err();
        assert_eq!(e.location.path.as_deref(), Some("files"));
        assert!(e.message.contains("17 files"), "{e}");
        assert!(check_series_sizes(&vec![0; MAX_SERIES_FILES]).is_ok());
        assert!(check_series_sizes(&vec![0; MAX_SERIES_FILES + 1]).is_err());
    }

    #[test]
    fn the_row_limit_is_hbase_short_max() {
        assert_eq!(MAX_ROW_LENGTH, i16::MAX as usize);
        assert!(check_row_length("key", MAX_ROW_LENGTH).is_ok());
        let e = check_row_length("key", MAX_ROW_LENGTH + 1).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Limit);
        assert_eq!(e.location.path.as_deref(), Some("key"));
        assert!(
            e.message.contains("32768 bytes") && e.message.contains("32767"),
            "{e}"
        );
    }

    #[test]
    fn the_decimal_digit_limit_is_what_a_row_key_can_hold() {
        // 2^(8 * 32763) has floor(8 * 32763 * log10 2) + 1 digits.
        let bits = 8.0 * (MAX_ROW_LENGTH - 4) as f64;
        assert_eq!(
            MAX_DECIMAL_DIGITS,
            (bits * 2f64.log10()).floor() as usize + 1
        );
    }
}
