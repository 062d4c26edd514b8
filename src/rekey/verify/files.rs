//! The verifier over files the engine reads itself: each export read through a rows session
//! that keeps every key with its row's digest, taken piece by piece (memory holds one piece's
//! keys and the verifier's buckets), counted, and read again only when buckets differ, once
//! a round.

use std::io::{Read, Seek};

use super::{ExportSample, Side, Verifier, VerifyOptions, VerifyReport};
use crate::analyze::{AnalyzeOptions, RowsSession};
use crate::design::DesignDocument;
use crate::error::Result;
use crate::rows::{OwnedSample, RowsOptions};

/// One table's export: how its rows meet the design (its name, format, map), the file, its
/// length.
pub struct Export<'a, F> {
    /// How the file's rows meet the design.
    pub rows: &'a RowsOptions,
    /// The file.
    pub file: &'a mut F,
    /// Its length in bytes.
    pub len: u64,
}

impl<F: Read + Seek> Export<'_, F> {
    /// What the file says of its columns (its first bytes, a Parquet file's schema).
    pub fn sample(&mut self) -> Result<OwnedSample> {
        crate::analyze::file_sample(self.rows, self.file, self.len)
    }
}

impl Verifier {
    /// Two files compared: `new` (the new design, or just its key) fitted to the old export,
    /// every column both files hold compared unless `opts` leaves it out
    /// ([`Verifier::for_exports`]), then [`verify_files`](Self::verify_files).
    pub fn verify_exports<F: Read + Seek, G: Read + Seek>(
        new: DesignDocument,
        old: &mut Export<'_, F>,
        new_export: &mut Export<'_, G>,
        opts: &VerifyOptions,
    ) -> Result<VerifyReport> {
        let (a, b) = (old.sample()?, new_export.sample()?);
        let v = Verifier::for_exports(
            new,
            ExportSample {
                rows: old.rows,
                sample: a.sample(),
            },
            ExportSample {
                rows: new_export.rows,
                sample: b.sample(),
            },
            opts,
        )?;
        v.verify_files(old, new_export)
    }

    /// One pass over one side's export: its rows counted, or, once the count has ended
    /// ([`end_count`](Self::end_count)), the rows of the differing buckets held.
    pub fn read_file<F: Read + Seek>(&mut self, side: Side, x: &mut Export<'_, F>) -> Result<()> {
        let mut session =
            RowsSession::new(self.doc.clone(), AnalyzeOptions::default(), x.rows.clone())?;
        session.keep_keys_with_digests()?;
        let take = |v: &mut Verifier, s: &mut RowsSession| {
            let (keys, offsets) = s.take_keys();
            v.feed(side, &keys, &offsets)
        };
        session.read_file_each(x.file, x.len, |s| take(self, s))?;
        session.end_scan()?;
        take(self, &mut session)
    }

    /// Both exports compared: read as [`next_read`](Self::next_read) says (counted, then, when
    /// buckets differ, read again and matched).
    pub fn verify_files<F: Read + Seek, G: Read + Seek>(
        mut self,
        old: &mut Export<'_, F>,
        new: &mut Export<'_, G>,
    ) -> Result<VerifyReport> {
        while let Some(read) = self.next_read()? {
            match read.side {
                Side::Old => self.read_file(Side::Old, old)?,
                Side::New => self.read_file(Side::New, new)?,
            }
        }
        Ok(self.finish())
    }
}
