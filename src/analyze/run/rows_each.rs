//! A file the engine reads itself, its keys taken piece by piece: a session that keeps every
//! row's key ([`RowsSession::keep_keys`]) over a file of any length holds one piece's keys at a
//! time, as the CLI's `onSlice` does in JavaScript (a rekey's verifier, reading two exports).

use std::io::{Read, Seek};

use super::rows_session::{read_file_into, FileInput, ParquetPlan};
use super::RowsSession;
use crate::error::Result;
use crate::rows::RowsOptions;

/// A session whose every piece (a [`READ_PIECE`](super::READ_PIECE) of text, or a Parquet row
/// group) is followed by `each(session)`.
struct Each<'a, G> {
    session: &'a mut RowsSession,
    each: G,
}

impl<G: FnMut(&mut RowsSession) -> Result<()>> FileInput for Each<'_, G> {
    fn rows_options(&self) -> &RowsOptions {
        self.session.rows_options()
    }
    fn push(&mut self, bytes: &[u8]) -> Result<u64> {
        let n = self.session.push(bytes)?;
        (self.each)(self.session)?;
        Ok(n)
    }
    fn parquet_plan(&self) -> Option<Result<ParquetPlan>> {
        self.session.parquet_plan()
    }
    fn parquet(&mut self, footer: &[u8], file_len: u64) -> Result<ParquetPlan> {
        self.session.parquet(footer, file_len)
    }
    fn push_row_group(
        &mut self,
        index: usize,
        parts: Vec<(u64, bytes::Bytes)>,
        part: Option<(u64, u64)>,
    ) -> Result<u64> {
        let n = self.session.push_row_group(index, parts, part)?;
        (self.each)(self.session)?;
        Ok(n)
    }
    fn done(&self) -> u64 {
        self.session.done()
    }
}

impl RowsSession {
    /// [`read_file`](Self::read_file), calling `each(self)` after every piece: take the keys
    /// the piece gave ([`take_keys`](Self::take_keys)) so memory holds one piece's. The rows
    /// this pass read.
    pub fn read_file_each<F: Read + Seek>(
        &mut self,
        file: &mut F,
        len: u64,
        each: impl FnMut(&mut RowsSession) -> Result<()>,
    ) -> Result<u64> {
        read_file_into(
            &mut Each {
                session: self,
                each,
            },
            file,
            len,
        )
    }
}
