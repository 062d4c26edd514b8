//! The sizes a Parquet column chunk's pages declare, read from their headers before any page is
//! decompressed. The `parquet` crate allocates a page's declared uncompressed size and
//! decompresses into it; a page of zeros a few KB long may declare (and really hold) 2 GiB, so a
//! 200 KB file took a wasm module past its 4 GiB. Each page is checked against
//! [`MAX_PARQUET_PAGE_BYTES`] and a row group's pages together (the columns the key reads)
//! against [`MAX_PARQUET_GROUP_BYTES`] before the crate reads them: the decompressed bytes can
//! be no more than declared (the crate refuses a page whose size differs).
//!
//! A page header is a Thrift compact-protocol struct (`PageHeader` in parquet-format):
//! `2: i32 uncompressed_page_size`, `3: i32 compressed_page_size`; the other members are
//! skipped by their wire types.

use crate::error::{Error, ErrorKind, Result};
use crate::limits::{limit_error, MAX_PARQUET_GROUP_BYTES, MAX_PARQUET_PAGE_BYTES};

mod compact;
use compact::Compact;

/// The declared uncompressed bytes of the pages in `chunk` (one column chunk's bytes, from its
/// first page to its end), each page checked against [`MAX_PARQUET_PAGE_BYTES`]; `column` and
/// `group` name it in errors, with the `file`'s name.
pub(crate) fn chunk_bytes(chunk: &[u8], file: &str, column: &str, group: usize) -> Result<u64> {
    let mut at = 0usize;
    let mut total = 0u64;
    while at < chunk.len() {
        let mut r = Compact {
            b: chunk,
            at,
            depth: 0,
        };
        let bad = |why: &str| {
            Error::new(
                ErrorKind::Invalid,
                format!(
                    "{file}: not a readable Parquet file: row group {group}, column `{column}`: a page header at byte {at} of its chunk {why}"
                ),
            )
        };
        let (uncompressed, compressed) = r.page_header().ok_or_else(|| bad("cannot be read"))?;
        let (Ok(u), Ok(c)) = (u64::try_from(uncompressed), usize::try_from(compressed)) else {
            return Err(bad("declares a negative size"));
        };
        if u > MAX_PARQUET_PAGE_BYTES as u64 {
            return Err(limit_error(
                file,
                format!("row group {group}, column `{column}`: a page of {u} bytes uncompressed"),
                format!("{MAX_PARQUET_PAGE_BYTES} bytes"),
                "a page is decompressed whole (writers make pages of about 1 MiB)",
            ));
        }
        total = total.saturating_add(u);
        at = r.at.saturating_add(c);
    }
    Ok(total)
}

/// Refuse a row group whose pages (of the columns read) declare more than
/// [`MAX_PARQUET_GROUP_BYTES`] uncompressed.
pub(crate) fn check_group(total: u64, file: &str, group: usize) -> Result<()> {
    if total > MAX_PARQUET_GROUP_BYTES as u64 {
        return Err(limit_error(
            file,
            format!("row group {group}: pages of {total} bytes uncompressed in the columns the key reads"),
            format!("{MAX_PARQUET_GROUP_BYTES} bytes"),
            "a row group's pages are decompressed one after another, for one read of the file",
        ));
    }
    Ok(())
}

/// What the `parquet` crate's decoders take on trust in a page, checked on each decompressed
/// page before they see it (the crate panics on these, a trap in wasm; found by
/// tests/fuzz_readers.rs). Its own checks cover the rest: a short page, a level or value
/// stream that ends early and a dictionary index past the dictionary are its errors.
///
/// - a data page dictionary-encoded with no dictionary page before it in its column chunk
///   (the crate's `expect("Decoder for dict should have been set")`);
/// - a page's levels: their lengths inside the page, and each bit-packed run's bytes present for
///   the levels read from it (the crate's null-mask decoder slices past them);
/// - the values the levels say are there, against what the page declares (a v2 page's
///   `num_values - num_nulls`: fewer makes the crate's byte-array decoder divide by zero) and,
///   for `BYTE_STREAM_SPLIT`, against the bytes (its decoder indexes past them);
/// - a `FIXED_LEN_BYTE_ARRAY` column's width above zero.
pub(crate) struct PageCheck {
    /// `{file}: not a readable Parquet file: row group {group}, column `{column}`` (errors'
    /// place).
    place: String,
    max_def: i16,
    max_rep: i16,
    /// A value's bytes in a `BYTE_STREAM_SPLIT` stream (0: the type cannot be split so).
    width: usize,
    /// A `BYTE_ARRAY` column (its PLAIN decoder divides by the values a page declares).
    byte_array: bool,
    /// Pages seen so far (for errors: the page's number, from 0).
    pages: usize,
    dictionary: bool,
}

/// A page's place and what is wrong with it, for [`PageCheck`]'s caller.
pub(crate) type PageError = String;

impl PageCheck {
    /// The checks of the column `descr` in row group `group` of `file`.
    pub(crate) fn new(
        descr: &parquet::schema::types::ColumnDescriptor,
        file: &str,
        group: usize,
    ) -> std::result::Result<PageCheck, PageError> {
        use parquet::basic::Type;
        let column = descr.path().string();
        let place =
            format!("{file}: not a readable Parquet file: row group {group}, column `{column}`");
        let width = match descr.physical_type() {
            Type::INT32 | Type::FLOAT => 4,
            Type::INT64 | Type::DOUBLE => 8,
            Type::FIXED_LEN_BYTE_ARRAY => match usize::try_from(descr.type_length()) {
                Ok(w) if w > 0 => w,
                _ => {
                    return Err(format!(
                        "{place}: a FIXED_LEN_BYTE_ARRAY column of width {}, where a width of at least 1 byte was expected",
                        descr.type_length()
                    ))
                }
            },
            _ => 0,
        };
        Ok(PageCheck {
            place,
            max_def: descr.max_def_level(),
            max_rep: descr.max_rep_level(),
            width,
            byte_array: descr.physical_type() == Type::BYTE_ARRAY,
            pages: 0,
            dictionary: false,
        })
    }

    /// A page was skipped by its header, undecoded (a row range's pages before it).
    pub(crate) fn skipped(&mut self) {
        self.pages += 1;
    }

    /// Check the next page of the column chunk, decompressed.
    pub(crate) fn page(
        &mut self,
        page: &parquet::column::page::Page,
    ) -> std::result::Result<(), PageError> {
        use parquet::column::page::Page;
        let k = self.pages;
        self.pages += 1;
        let at = |why: String| format!("{}, page {k}: {why}", self.place);
        match page {
            Page::DictionaryPage {
                buf, num_values, ..
            } => {
                self.dictionary = true;
                if self.byte_array && *num_values == 0 && !buf.is_empty() {
                    return Err(at(format!(
                        "a dictionary page that declares no values holds {} bytes of them, where none were expected",
                        buf.len()
                    )));
                }
                Ok(())
            }
            Page::DataPage {
                buf,
                num_values,
                encoding,
                def_level_encoding,
                rep_level_encoding,
                ..
            } => {
                self.dictionary_before(*encoding).map_err(at)?;
                let n = u64::from(*num_values);
                let mut used = 0usize;
                if self.max_rep > 0 {
                    let rest = buf.get(used..).unwrap_or_default();
                    let (len, _) = v1_levels(rest, n, *rep_level_encoding, self.max_rep)
                        .map_err(|w| at(format!("its repetition levels {w}")))?;
                    used += len;
                }
                let values = if self.max_def > 0 {
                    let rest = buf.get(used..).unwrap_or_default();
                    let (len, values) = v1_levels(rest, n, *def_level_encoding, self.max_def)
                        .map_err(|w| at(format!("its definition levels {w}")))?;
                    used += len;
                    values.unwrap_or(n)
                } else {
                    n
                };
                let bytes = buf.len().saturating_sub(used);
                dictionary_indices(*encoding, buf.get(used..).unwrap_or_default()).map_err(at)?;
                self.split_values(*encoding, bytes, values).map_err(at)
            }
            Page::DataPageV2 {
                buf,
                num_values,
                num_nulls,
                encoding,
                def_levels_byte_len,
                rep_levels_byte_len,
                ..
            } => {
                self.dictionary_before(*encoding).map_err(at)?;
                let (rep, def) = (*rep_levels_byte_len as usize, *def_levels_byte_len as usize);
                let levels = rep.saturating_add(def);
                if levels > buf.len() {
                    return Err(at(format!(
                        "its levels declare {rep} + {def} bytes, more than the page's {} (a v2 data page holds its levels, then its values)",
                        buf.len()
                    )));
                }
                let n = u64::from(*num_values);
                let declared = n.saturating_sub(u64::from(*num_nulls));
                let values = if self.max_def > 0 {
                    let stream = buf.get(rep..levels).unwrap_or_default();
                    rle_levels(stream, n, self.max_def)
                        .map_err(|w| at(format!("its definition levels {w}")))?
                } else {
                    n
                };
                if values > declared {
                    return Err(at(format!(
                        "its levels hold {values} values that are not null, where the page declares {declared} ({num_values} values, {num_nulls} nulls)"
                    )));
                }
                self.plain_tail(*encoding, buf.get(levels..).unwrap_or_default(), declared)
                    .map_err(at)?;
                dictionary_indices(*encoding, buf.get(levels..).unwrap_or_default()).map_err(at)?;
                self.split_values(*encoding, buf.len() - levels, values)
                    .map_err(at)
            }
        }
    }

    fn dictionary_before(
        &self,
        encoding: parquet::basic::Encoding,
    ) -> std::result::Result<(), String> {
        use parquet::basic::Encoding;
        if matches!(
            encoding,
            Encoding::PLAIN_DICTIONARY | Encoding::RLE_DICTIONARY
        ) && !self.dictionary
        {
            return Err(format!(
                "a data page encoded {encoding} with no dictionary page before it, where the column chunk's dictionary page was expected first"
            ));
        }
        Ok(())
    }

    /// A v2 page of PLAIN byte arrays ends with its `declared` values (`num_values - num_nulls`):
    /// the crate's decoder, once it has read that many, divides the bytes left by the values left
    /// (none) when asked for the next rows' values.
    fn plain_tail(
        &self,
        encoding: parquet::basic::Encoding,
        values: &[u8],
        declared: u64,
    ) -> std::result::Result<(), String> {
        if !self.byte_array || encoding != parquet::basic::Encoding::PLAIN {
            return Ok(());
        }
        let mut at = 0usize;
        for _ in 0..declared {
            let Some(len) = values
                .get(at..at.saturating_add(4))
                .and_then(|b| <[u8; 4]>::try_from(b).ok())
                .map(u32::from_le_bytes)
            else {
                return Ok(()); // short: the crate's own error
            };
            at = at.saturating_add(4).saturating_add(len as usize);
        }
        if at < values.len() {
            return Err(format!(
                "{} bytes after the {declared} PLAIN values the page declares, where the page was expected to end",
                values.len() - at
            ));
        }
        Ok(())
    }

    /// `values` values in `bytes` bytes of `BYTE_STREAM_SPLIT`: each of the `width` streams
    /// holds one byte of every value.
    fn split_values(
        &self,
        encoding: parquet::basic::Encoding,
        bytes: usize,
        values: u64,
    ) -> std::result::Result<(), String> {
        if encoding != parquet::basic::Encoding::BYTE_STREAM_SPLIT || self.width == 0 {
            return Ok(());
        }
        let have = (bytes / self.width) as u64;
        if have < values {
            return Err(format!(
                "{values} values of {} bytes encoded BYTE_STREAM_SPLIT in {bytes} bytes, where {} were expected",
                self.width,
                values.saturating_mul(self.width as u64)
            ));
        }
        Ok(())
    }
}

/// A dictionary-encoded page's indices (`values`: its bit width, then an RLE / bit-packed
/// hybrid stream): each run's header a varint of at most 10 bytes, which the crate's
/// `get_vlq_int` asserts (a panic, found by tests/fuzz_readers.rs). Every run to the page's end
/// (or a zero header, padding), not only those of the values its levels count: the crate reads
/// the first header when it opens the page, before it knows how many values it needs. A run
/// past the bytes is the crate's own error.
fn dictionary_indices(
    encoding: parquet::basic::Encoding,
    values: &[u8],
) -> std::result::Result<(), String> {
    use parquet::basic::Encoding;
    if !matches!(
        encoding,
        Encoding::PLAIN_DICTIONARY | Encoding::RLE_DICTIONARY
    ) {
        return Ok(());
    }
    let Some((&bits, stream)) = values.split_first() else {
        return Ok(());
    };
    let bits = u64::from(bits);
    let mut at = 0usize;
    while at < stream.len() {
        let run_at = at;
        let mut header = 0u64;
        for i in 0.. {
            let Some(&b) = stream.get(at) else {
                return Ok(()); // cut: the crate's error
            };
            at += 1;
            header |= u64::from(b & 0x7f).checked_shl(7 * i).unwrap_or(0);
            if b & 0x80 == 0 {
                break;
            }
            if i == 9 {
                return Err(format!(
                    "its dictionary indices have a run header of more than 10 bytes at byte {} of its values, where a varint of at most 10 was expected",
                    run_at + 1
                ));
            }
        }
        if header == 0 {
            return Ok(()); // padding: the crate stops here
        }
        let run = header >> 1;
        let skip = if header & 1 == 1 {
            run.saturating_mul(8).saturating_mul(bits).div_ceil(8)
        } else {
            bits.div_ceil(8)
        };
        at = at.saturating_add(usize::try_from(skip).unwrap_or(usize::MAX));
    }
    Ok(())
}

/// A v1 data page's levels at the start of `buf`, `n` of them of at most `max`: the bytes they
/// take and, when they could be counted, how many are `max` (the values that are not null).
fn v1_levels(
    buf: &[u8],
    n: u64,
    encoding: parquet::basic::Encoding,
    max: i16,
) -> std::result::Result<(usize, Option<u64>), String> {
    use parquet::basic::Encoding;
    let bits = u64::from(64 - (max as u64).leading_zeros());
    match encoding {
        Encoding::RLE => {
            let len = buf
                .get(..4)
                .and_then(|b| <[u8; 4]>::try_from(b).ok())
                .map(u32::from_le_bytes)
                .ok_or_else(|| format!("need 4 bytes of length, the page has {}", buf.len()))?;
            let end = (len as usize).saturating_add(4);
            let stream = buf.get(4..end).ok_or_else(|| {
                format!(
                    "declare {len} bytes, past the page's {}",
                    buf.len().saturating_sub(4)
                )
            })?;
            Ok((end, Some(rle_levels(stream, n, max)?)))
        }
        #[allow(deprecated)]
        Encoding::BIT_PACKED => {
            let need = n.saturating_mul(bits).div_ceil(8);
            if need > buf.len() as u64 {
                return Err(format!(
                    "({n} levels of {bits} bits, BIT_PACKED) need {need} bytes, the page has {}",
                    buf.len()
                ));
            }
            Ok((need as usize, None))
        }
        e => Err(format!(
            "are encoded {e}, where RLE or BIT_PACKED was expected"
        )),
    }
}

/// The levels of at least `max` among the first `n` of an RLE / bit-packed hybrid `stream` of
/// levels of at most `max` (the values that are not null: a level past `max` is counted as one,
/// as the crate's decoder of a nullable flat column counts any level but 0); an error when a
/// run's bytes are not all there for the levels read from it.
fn rle_levels(stream: &[u8], n: u64, max: i16) -> std::result::Result<u64, String> {
    let bits = 64 - (max as u64).leading_zeros() as usize;
    let max = max as u64;
    let (mut levels, mut hits, mut at) = (0u64, 0u64, 0usize);
    while levels < n && at < stream.len() {
        let run_at = at;
        let mut header = 0u64;
        let mut shift = 0;
        loop {
            let Some(b) = stream.get(at) else {
                return Err(format!("end inside a run's header at byte {run_at}"));
            };
            at += 1;
            header |= u64::from(b & 0x7f).checked_shl(shift).unwrap_or(0);
            shift += 7;
            if b & 0x80 == 0 {
                break;
            }
            if shift >= 70 {
                return Err(format!(
                    "have a run header of more than 10 bytes at byte {run_at}"
                ));
            }
        }
        if header & 1 == 1 {
            let count = (header >> 1).saturating_mul(8);
            let take = count.min(n - levels);
            let need = take.saturating_mul(bits as u64).div_ceil(8);
            let left = (stream.len() - at) as u64;
            if need > left {
                return Err(format!(
                    "have a bit-packed run at byte {run_at} of {count} levels of {bits} bits, whose {take} levels read need {need} bytes where {left} are left"
                ));
            }
            let packed = stream.get(at..at + need as usize).unwrap_or_default();
            for i in 0..take as usize {
                let mut v = 0u64;
                for j in 0..bits {
                    let bit = i * bits + j;
                    if packed.get(bit / 8).is_some_and(|b| b >> (bit % 8) & 1 == 1) {
                        v |= 1 << j;
                    }
                }
                hits += u64::from(v >= max);
            }
            levels += take;
            at = at.saturating_add(((header >> 1).saturating_mul(bits as u64)).min(left) as usize);
        } else {
            let run = header >> 1;
            let width = bits.div_ceil(8);
            let Some(value) = stream.get(at..at + width) else {
                return Err(format!(
                    "have a run at byte {run_at} whose value needs {width} bytes past the stream's end"
                ));
            };
            at += width;
            let v = value
                .iter()
                .rev()
                .fold(0u64, |v, b| (v << 8) | u64::from(*b));
            let take = run.min(n - levels);
            if v >= max {
                hits += take;
            }
            levels += take;
        }
    }
    Ok(hits)
}
