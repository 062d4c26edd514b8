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

/// Nesting a page header's structs may have (the real one has three levels).
const MAX_DEPTH: usize = 16;

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

/// A Thrift compact-protocol reader over `b` from `at`; `None` at any malformed or truncated
/// input.
struct Compact<'a> {
    b: &'a [u8],
    at: usize,
    depth: usize,
}

impl Compact<'_> {
    fn byte(&mut self) -> Option<u8> {
        let v = *self.b.get(self.at)?;
        self.at += 1;
        Some(v)
    }

    fn varint(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..70).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f).checked_shl(shift)?;
            if b & 0x80 == 0 {
                return Some(v);
            }
        }
        None
    }

    fn zigzag(&mut self) -> Option<i64> {
        let v = self.varint()?;
        Some((v >> 1) as i64 ^ -((v & 1) as i64))
    }

    fn skip(&mut self, n: usize) -> Option<()> {
        let end = self.at.checked_add(n)?;
        (end <= self.b.len()).then(|| self.at = end)
    }

    /// `(uncompressed_page_size, compressed_page_size)` of the `PageHeader` at `at`, the
    /// reader left after it.
    fn page_header(&mut self) -> Option<(i64, i64)> {
        let (mut u, mut c) = (None, None);
        let mut id = 0i64;
        loop {
            let h = self.byte()?;
            let ty = h & 0x0f;
            if ty == 0 {
                break;
            }
            id = match h >> 4 {
                0 => self.zigzag()?,
                d => id + i64::from(d),
            };
            match (id, ty) {
                (2, 5) => u = Some(self.zigzag()?),
                (3, 5) => c = Some(self.zigzag()?),
                _ => self.value(ty)?,
            }
        }
        Some((u?, c?))
    }

    /// Skip one value of wire type `ty`.
    fn value(&mut self, ty: u8) -> Option<()> {
        match ty {
            1 | 2 => Some(()),
            3 => self.skip(1),
            4..=6 => self.varint().map(drop),
            7 => self.skip(8),
            8 => {
                let n = usize::try_from(self.varint()?).ok()?;
                self.skip(n)
            }
            9 | 10 => {
                let h = self.byte()?;
                let n = match h >> 4 {
                    15 => usize::try_from(self.varint()?).ok()?,
                    n => usize::from(n),
                };
                self.items(n, &[h & 0x0f])
            }
            11 => {
                let n = usize::try_from(self.varint()?).ok()?;
                if n == 0 {
                    return Some(());
                }
                let kv = self.byte()?;
                self.items(n, &[kv >> 4, kv & 0x0f])
            }
            12 => self.nested(),
            13 => self.skip(16),
            _ => None,
        }
    }

    /// `n` items, each of the wire types `tys` in turn (a bool in a list is one byte).
    fn items(&mut self, n: usize, tys: &[u8]) -> Option<()> {
        // every item takes at least one byte: a count past the bytes left is malformed
        if n > self.b.len().saturating_sub(self.at) {
            return None;
        }
        for _ in 0..n {
            for &t in tys {
                match t {
                    1 | 2 => self.skip(1)?,
                    t => self.value(t)?,
                }
            }
        }
        Some(())
    }

    /// Skip a struct.
    fn nested(&mut self) -> Option<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        loop {
            let h = self.byte()?;
            let ty = h & 0x0f;
            if ty == 0 {
                break;
            }
            if h >> 4 == 0 {
                self.zigzag()?;
            }
            self.value(ty)?;
        }
        self.depth -= 1;
        Some(())
    }
}
