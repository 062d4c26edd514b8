//! Arrow IPC into rows: a stream pushed in chunks ([`IpcRows`]), a file (Feather v2) read
//! whole, and a schema from a file's first bytes. `arrow-ipc` trusts the lengths and offsets
//! its input declares, so each message and each file's footer is checked first
//! ([`checks`]), and what the crate still does wrong is caught ([`guarded`]).

mod checks;

use std::sync::Arc;

use arrow_schema::Schema;

use self::checks::{check_ipc_blocks, ipc_invalid, Frames};
use super::arrow::{feed_batch, names};
use super::{Binding, Format, RowSink, RowStats, Rows, RowsOptions};
use crate::error::{Error, ErrorKind, Result};
use crate::keyspec::FieldType;

fn ipc_error(name: &str, e: &arrow_schema::ArrowError) -> Error {
    Error::new(
        ErrorKind::Invalid,
        format!("{name}: not a readable Arrow IPC file: {e}"),
    )
}

/// `f`, with a panic inside `arrow-ipc` or what it calls turned into `name`'s error at `at`
/// instead of unwinding through the caller (the Python binding; natively). Each such panic is a
/// check missing before the crate: tests/fuzz_readers.rs fails on one even when caught here. In
/// wasm a panic aborts, uncaught: the checks before the crate are what keep it out.
fn guarded<T>(name: &str, at: &str, f: impl FnOnce() -> Result<T>) -> Result<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|p| {
        let what = p
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| p.downcast_ref::<&str>().copied())
            .unwrap_or("a panic");
        Err(Error::new(
            ErrorKind::Invalid,
            format!(
                "{name}: not a readable Arrow IPC file: {at}: the Arrow reader failed on it ({what}); a check rowkey-lab lacks, please report it"
            ),
        ))
    })
}

/// An Arrow IPC stream pushed in chunks.
pub(crate) struct IpcRows {
    decoder: arrow_ipc::reader::StreamDecoder,
    rows: Option<Rows>,
    frames: Frames,
    /// Bytes pushed before this chunk, for errors.
    offset: u64,
}

impl IpcRows {
    pub(crate) fn new() -> IpcRows {
        IpcRows {
            decoder: arrow_ipc::reader::StreamDecoder::new(),
            rows: None,
            frames: Frames::default(),
            offset: 0,
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
        let name = opts.name.as_deref().unwrap_or("rows");
        self.frames
            .push(bytes)
            .map_err(|why| ipc_invalid(name, &why))?;
        let at = format!(
            "in bytes {}..{}",
            self.offset,
            self.offset + bytes.len() as u64
        );
        self.offset += bytes.len() as u64;
        let mut buf = arrow_buffer::Buffer::from(bytes.to_vec());
        while !buf.is_empty() {
            let batch = guarded(name, &at, || {
                self.decoder
                    .decode(&mut buf)
                    .map_err(|e| ipc_error(name, &e))
            })?;
            let Some(batch) = batch else {
                continue;
            };
            if self.rows.is_none() {
                let bind = Binding::new(fields, used, names(&batch.schema()), opts)?;
                self.rows = Some(Rows::new(bind, opts, Format::ArrowStream));
            }
            if let Some(rows) = self.rows.as_mut() {
                feed_batch(rows, &batch, sink)?;
            }
        }
        Ok(())
    }

    pub(crate) fn finish(mut self, opts: &RowsOptions) -> Result<RowStats> {
        let name = opts.name.as_deref().unwrap_or("rows");
        self.decoder.finish().map_err(|e| ipc_error(name, &e))?;
        Ok(self.rows.map(|r| r.stats).unwrap_or_default())
    }
}

/// The column names of an Arrow IPC stream whose first bytes are `head` (an IPC file's bytes
/// after its magic and padding are such a stream): its schema message, the stream's first.
pub(crate) fn schema_names(name: &str, head: &[u8]) -> Result<Vec<String>> {
    let reader = arrow_ipc::reader::StreamReader::try_new(std::io::Cursor::new(head), None)
        .map_err(|e| ipc_error(name, &e))?;
    Ok(names(&reader.schema()))
}

/// The schema of an Arrow IPC file or stream from its first bytes.
pub(crate) fn head_schema(name: &str, format: Format, head: &[u8]) -> Result<Arc<Schema>> {
    let stream = match format {
        Format::ArrowFile => after_file_magic(head),
        _ => head,
    };
    let reader = arrow_ipc::reader::StreamReader::try_new(std::io::Cursor::new(stream), None)
        .map_err(|e| ipc_error(name, &e))?;
    Ok(reader.schema())
}

/// An IPC file's bytes after its magic and the zeros to the writer's alignment (8 or 64
/// bytes): a stream (whose messages start with 0xFFFFFFFF).
pub(crate) fn after_file_magic(head: &[u8]) -> &[u8] {
    let rest = head.get(6..).unwrap_or(&[]);
    let pad = rest.iter().take(58).take_while(|b| **b == 0).count();
    rest.get(pad..).unwrap_or(&[])
}

/// An Arrow IPC file (Feather v2) read whole.
pub(crate) fn read_ipc_file(
    bytes: Vec<u8>,
    fields: &[(String, FieldType)],
    used: &[usize],
    opts: &RowsOptions,
    sink: &mut dyn RowSink,
) -> Result<RowStats> {
    let name = opts.name.as_deref().unwrap_or("rows");
    check_ipc_blocks(name, &bytes)?;
    let mut reader = guarded(name, "its footer", || {
        arrow_ipc::reader::FileReader::try_new(std::io::Cursor::new(bytes), None)
            .map_err(|e| ipc_error(name, &e))
    })?;
    let schema: Arc<Schema> = reader.schema();
    let bind = Binding::new(fields, used, names(&schema), opts)?;
    let mut rows = Rows::new(bind, opts, Format::ArrowFile);
    for i in 0.. {
        let batch = guarded(name, &format!("record batch {i}"), || {
            reader.next().transpose().map_err(|e| ipc_error(name, &e))
        })?;
        let Some(batch) = batch else {
            break;
        };
        feed_batch(&mut rows, &batch, sink)?;
    }
    Ok(rows.stats)
}
