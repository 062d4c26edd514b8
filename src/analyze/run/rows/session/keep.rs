//! What a session keeps besides the rows for its analysis, chosen before the first rows:
//! every row's key (`encode --records`, a rekey's verifier reading a table's export), the
//! advisor's sample of the rows' values, or the keys in write order for months of the table's
//! life. Apart from the two passes because each is a different answer read off the same first
//! pass; each but the advisor's sample leaves the design's indexes out.

use super::{state, Pass, RowsSession};
use crate::error::Result;
use crate::rows::RowScan;
use crate::workload::WriteSample;

impl RowsSession {
    /// Keep every row's key as the first pass reads it, for [`take_keys`](Self::take_keys)
    /// (what `encode --records` prints); before the first rows.
    pub fn keep_keys(&mut self) -> Result<()> {
        self.keep_keys_by(RowScan::with_keys)
    }

    /// [`keep_keys`](Self::keep_keys), each key followed by its row's 16-byte digest
    /// ([`crate::keyspec::row_digest`]): how a rekey's verifier reads a table's export.
    pub fn keep_keys_with_digests(&mut self) -> Result<()> {
        self.keep_keys_by(RowScan::with_digests)
    }

    fn keep_keys_by(&mut self, keep: fn(RowScan) -> RowScan) -> Result<()> {
        self.fresh_scan("keepKeys() comes before the first rows")?;
        self.without_indexes()?;
        let first = self.fresh_scan("keepKeys() comes before the first rows")?;
        first.scan = keep(std::mem::take(&mut first.scan));
        first.keep_none();
        Ok(())
    }

    /// Keep a sample of `rows` rows' values for the advisor (its default:
    /// `advise::DEFAULT_RECORDS`), instead of the rows for the analysis; before the first rows.
    ///
    /// The advisor counts the design's Phoenix indexes over the sample as `analyze --records`
    /// counts them over the file: the columns the global indexes key are required of the rows
    /// as the key's are, and each row's index keys are built as it is read, so a row an index
    /// cannot key is refused (or skipped) here as the analysis refuses it.
    pub fn keep_row_sample(&mut self, rows: u64) -> Result<()> {
        self.fresh_scan("keepRowSample() comes before the first rows")?;
        let fields = self.fields().clone();
        let keyer = super::super::indexes::IndexFirstPass::new(&self.doc, false)?;
        let first = self.fresh_scan("keepRowSample() comes before the first rows")?;
        first.scan = std::mem::take(&mut first.scan).with_row_sample(&fields, rows)?;
        first.keep_none();
        first.indexes = keyer;
        Ok(())
    }

    /// Keep an even sample of the rows' keys in write order ([`WriteSample`]), for months of
    /// the table's life ([`crate::life`]), instead of the rows for the analysis; before the
    /// first rows.
    pub fn keep_write_sample(&mut self) -> Result<()> {
        self.fresh_scan("keepWriteSample() comes before the first rows")?;
        self.without_indexes()?;
        let first = self.fresh_scan("keepWriteSample() comes before the first rows")?;
        first.scan = std::mem::take(&mut first.scan).with_write_sample();
        first.keep_none();
        Ok(())
    }

    /// The write-order sample ([`keep_write_sample`](Self::keep_write_sample)), after
    /// [`end_scan`](Self::end_scan).
    pub fn write_sample(&self) -> Result<&WriteSample> {
        self.write_sample.as_ref().ok_or_else(|| {
            state("no write sample: keepWriteSample() before the first rows, then endScan()")
        })
    }

    /// The row sample ([`keep_row_sample`](Self::keep_row_sample)) as bytes: after
    /// [`end_scan`](Self::end_scan), once.
    pub fn row_sample(&mut self) -> Result<Vec<u8>> {
        let s = self.row_sample.take().ok_or_else(|| {
            state("no row sample: keepRowSample() before the first rows, rowSample() after endScan(), once")
        })?;
        s.to_bytes()
    }

    /// The keys of the rows the first pass read since the last call ([`keep_keys`](Self::keep_keys)),
    /// end to end, and the offsets where each starts and ends; after `end_scan`, the last rows'.
    pub fn take_keys(&mut self) -> (Vec<u8>, Vec<u32>) {
        match &mut self.pass {
            Pass::Scan(first) => first.scan.take_keys(),
            Pass::Analyze(_) => self
                .last_keys
                .take()
                .unwrap_or_else(|| (Vec::new(), vec![0])),
        }
    }
}
