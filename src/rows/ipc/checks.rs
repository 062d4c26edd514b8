//! The checks an Arrow IPC input passes before `arrow-ipc` reads it: a file's footer blocks
//! inside its bytes, each message's metadata verified and its buffers inside its body and
//! whole multiples of their values' width, a stream's frames followed across chunks. Each is a
//! panic (a trap in wasm) the crate would otherwise reach, found by tests/fuzz_readers.rs.

use std::sync::Arc;

use arrow_schema::{DataType, Schema};

use crate::error::{Error, ErrorKind, Result};

/// An IPC file's footer blocks (record batches and dictionaries) each inside the bytes before
/// the footer, their lengths not negative: `arrow-ipc`'s file reader unwraps a negative
/// `bodyLength` and slices past the bytes for one too long (a panic, a trap in wasm), or
/// allocates what the block claims (2^40 bytes).
pub(super) fn check_ipc_blocks(name: &str, bytes: &[u8]) -> Result<()> {
    let bad = |why: String| {
        Error::new(
            ErrorKind::Invalid,
            format!("{name}: not a readable Arrow IPC file: {why}"),
        )
    };
    let len = bytes.len();
    let tail: [u8; 10] = bytes
        .get(len.saturating_sub(10)..)
        .and_then(|t| t.try_into().ok())
        .ok_or_else(|| bad("shorter than its footer".into()))?;
    let footer_len = arrow_ipc::reader::read_footer_length(tail).map_err(|e| bad(e.to_string()))?;
    let footer_start = len
        .checked_sub(10)
        .and_then(|l| l.checked_sub(footer_len))
        .ok_or_else(|| bad(format!("a footer of {footer_len} bytes in a file of {len}")))?;
    let footer = bytes
        .get(footer_start..len - 10)
        .ok_or_else(|| bad("its footer is past its bytes".into()))?;
    let footer = arrow_ipc::root_as_footer(footer).map_err(|e| bad(format!("its footer: {e}")))?;
    // a schema the crate cannot convert is its error, when it reads the footer again
    let schema = footer
        .schema()
        .and_then(|s| arrow_ipc::convert::try_fb_to_schema(s).ok());
    let blocks = footer
        .recordBatches()
        .into_iter()
        .flatten()
        .map(|b| ("record batch", b))
        .chain(
            footer
                .dictionaries()
                .into_iter()
                .flatten()
                .map(|b| ("dictionary", b)),
        );
    for (i, (what, b)) in blocks.enumerate() {
        let (offset, meta, body) = (b.offset(), i64::from(b.metaDataLength()), b.bodyLength());
        let end = [offset, meta, body].iter().try_fold(0i64, |t, v| {
            if *v < 0 {
                None
            } else {
                t.checked_add(*v)
            }
        });
        if end.map_or(true, |e| e > footer_start as i64) {
            return Err(bad(format!(
                "block {i} (a {what}) declares {meta} bytes of metadata and a body of {body} at byte {offset}, past the {footer_start} bytes before the footer"
            )));
        }
        // its message: after the continuation marker (or not) and the length
        let at = offset as usize;
        let block = bytes.get(at..at + meta as usize).unwrap_or_default();
        let prefix = if block.get(..4) == Some(&[0xff; 4][..]) {
            8
        } else {
            4
        };
        check_message(
            block.get(prefix..).unwrap_or_default(),
            Some(body),
            schema.as_ref(),
        )
        .map_err(|why| bad(format!("block {i}: {why}")))?;
    }
    Ok(())
}

pub(super) fn ipc_invalid(name: &str, why: &str) -> Error {
    Error::new(
        ErrorKind::Invalid,
        format!("{name}: not a readable Arrow IPC file: {why}"),
    )
}

/// Most bytes of one IPC message's metadata (a schema of [`MAX_COLUMNS`] fields is far less).
///
/// [`MAX_COLUMNS`]: crate::limits::MAX_COLUMNS
const MAX_IPC_METADATA: usize = 64 << 20;

/// A record batch's (or a dictionary batch's) buffers each inside its message's body, their
/// offsets and lengths not negative: `arrow-ipc` slices the body by them unchecked (a panic
/// natively, a trap in wasm, found by tests/fuzz_readers.rs). `meta` is the message's
/// flatbuffer (after the continuation marker and length), read with the flatbuffers verifier.
///
/// With the stream's `schema`, each buffer's length is also held to its values' width (an
/// offsets buffer a whole number of offsets, …): `arrow-data`'s validation views a buffer as a
/// slice of its type and asserts that it divides evenly (a panic, found by
/// tests/fuzz_readers.rs); the crate checks a buffer's length against what the array needs, not
/// against its width.
fn check_message(
    meta: &[u8],
    body: Option<i64>,
    schema: Option<&Schema>,
) -> std::result::Result<(), String> {
    let m = arrow_ipc::root_as_message(meta).map_err(|e| format!("a message: {e}"))?;
    let body = body.unwrap_or(m.bodyLength());
    if body < 0 {
        return Err(format!("a message declares a body of {body} bytes"));
    }
    // the decoder holds a body whole, and in wasm reads its length as 32 bits: a body of 4 GiB
    // and 8 bytes was taken as 8, and the buffers past them sliced (a panic in arrow-buffer)
    let most_body = crate::limits::MAX_WHOLE_FILE_BYTES as i64;
    if body > most_body {
        return Err(format!(
            "a message declares a body of {body} bytes, more than a message is read with ({most_body}, limits::MAX_WHOLE_FILE_BYTES): write the stream in smaller record batches"
        ));
    }
    let dictionary = m.header_as_dictionary_batch();
    let batch = m
        .header_as_record_batch()
        .or_else(|| dictionary.and_then(|d| d.data()));
    if let Some(batch) = batch {
        check_counts(&batch, body)?;
    }
    if let (Some(batch), Some(schema)) = (batch, schema) {
        // the columns the batch holds: the schema's, or a dictionary's values
        let fields: Vec<arrow_schema::FieldRef> = match dictionary {
            None => schema.fields().iter().cloned().collect(),
            #[allow(deprecated)]
            Some(d) => schema
                .fields_with_dict_id(d.id())
                .first()
                .and_then(|f| match f.data_type() {
                    DataType::Dictionary(_, v) => Some(Arc::new(arrow_schema::Field::new(
                        f.name(),
                        v.as_ref().clone(),
                        true,
                    ))),
                    _ => None,
                })
                .into_iter()
                .collect(),
        };
        let v4 = m.version() < arrow_ipc::MetadataVersion::V5;
        check_widths(&batch, &fields, v4)?;
    }
    for (i, b) in batch
        .and_then(|b| b.buffers())
        .into_iter()
        .flatten()
        .enumerate()
    {
        let end = b.offset().checked_add(b.length());
        // the format aligns every buffer to 8 bytes; arrow-buffer asserts a typed buffer's
        // alignment
        if b.offset() < 0 || b.length() < 0 || b.offset() % 8 != 0 || end.map_or(true, |e| e > body)
        {
            return Err(format!(
                "buffer {i} of a record batch lies at {}..+{}, outside its body of {body} bytes",
                b.offset(),
                b.length()
            ));
        }
    }
    Ok(())
}

/// A batch uncompressed, and its rows and each field node's values and nulls counted within
/// what its body can hold: not negative, the nulls within the values, and no more than a bit of
/// the body each (every column type but `Null` holds one a value at least) past 64 Ki, and at
/// most `i32::MAX` (what Java's Arrow holds; wasm reads counts as 32 bits). A column of nulls
/// holds none: 2^40 rows in 700 bytes were read one by one.
///
/// A compressed body is refused: this build of `arrow-ipc` has no codec, and the buffers of one
/// written uncompressed within it (length prefix -1) would reach the crate without the widths
/// checked.
fn check_counts(batch: &arrow_ipc::RecordBatch, body: i64) -> std::result::Result<(), String> {
    if let Some(c) = batch.compression() {
        return Err(format!(
            "a record batch compressed with {:?}: this reader reads uncompressed Arrow IPC; write it without compression (pyarrow: ipc.IpcWriteOptions(compression=None))",
            c.codec()
        ));
    }
    let most = body.saturating_mul(8).max(1 << 16).min(i64::from(i32::MAX));
    let rows = batch.length();
    if !(0..=most).contains(&rows) {
        return Err(format!(
            "a record batch declares {rows} rows in a body of {body} bytes, where at most {most} were expected (a bit of its body a row)"
        ));
    }
    for (i, n) in batch.nodes().into_iter().flatten().enumerate() {
        let (len, nulls) = (n.length(), n.null_count());
        if !(0..=most).contains(&len) || !(0..=len).contains(&nulls) {
            return Err(format!(
                "field node {i} of a record batch declares {len} values, {nulls} of them null, in a body of {body} bytes, where 0 to {most} values and at most as many nulls were expected"
            ));
        }
    }
    Ok(())
}

/// Each buffer of `batch` (a record batch of the columns `fields`) a whole number of its values'
/// width, and a union's type ids and offsets as long as its rows; `v4`: a union has a validity
/// buffer (metadata before V5). A compressed batch was refused before ([`check_counts`]).
fn check_widths(
    batch: &arrow_ipc::RecordBatch,
    fields: &[arrow_schema::FieldRef],
    v4: bool,
) -> std::result::Result<(), String> {
    let mut w = Widths {
        v4,
        variadic: batch
            .variadicBufferCounts()
            .map(|v| v.iter().collect())
            .unwrap_or_default(),
        out: Vec::new(),
        nodes: 0,
    };
    for f in fields {
        w.field(f.name(), f.data_type())?;
    }
    let buffers: Vec<_> = batch.buffers().into_iter().flatten().collect();
    let nodes: Vec<_> = batch.nodes().into_iter().flatten().collect();
    for (i, (b, need)) in buffers.iter().zip(&w.out).enumerate() {
        let len = b.length();
        let bad = match need.what {
            Need::Width(width) => len % width as i64 != 0,
            Need::PerRow(node, width) => nodes
                .get(node)
                .is_some_and(|n| n.length().saturating_mul(width as i64) > len),
        };
        if bad {
            let expected = match need.what {
                Need::Width(width) => format!("a whole number of its {width}-byte values"),
                Need::PerRow(node, width) => format!(
                    "{width} byte(s) for each of its {} rows",
                    nodes.get(node).map_or(0, |n| n.length())
                ),
            };
            return Err(format!(
                "buffer {i} of a record batch (column `{}`, its {}) is {len} bytes, where {expected} was expected",
                need.column, need.role
            ));
        }
    }
    Ok(())
}

/// What a buffer's length must be: a multiple of a width, or at least a width for each row of a
/// field node (a union's type ids and offsets, which the crate slices by its rows unchecked).
#[derive(Clone, Copy)]
enum Need {
    Width(usize),
    PerRow(usize, usize),
}

struct BufferNeed {
    column: String,
    role: &'static str,
    what: Need,
}

/// The buffers of a record batch in the order `arrow-ipc`'s reader takes them (its
/// `create_array`), with what each must hold.
struct Widths {
    v4: bool,
    variadic: std::collections::VecDeque<i64>,
    out: Vec<BufferNeed>,
    nodes: usize,
}

impl Widths {
    fn push(&mut self, column: &str, role: &'static str, what: Need) {
        self.out.push(BufferNeed {
            column: column.to_string(),
            role,
            what,
        });
    }

    fn field(&mut self, name: &str, t: &DataType) -> std::result::Result<(), String> {
        use Need::Width;
        let node = self.nodes;
        self.nodes += 1;
        match t {
            DataType::Null => {}
            DataType::Utf8 | DataType::Binary => {
                self.push(name, "validity", Width(1));
                self.push(name, "offsets", Width(4));
                self.push(name, "data", Width(1));
            }
            DataType::LargeUtf8 | DataType::LargeBinary => {
                self.push(name, "validity", Width(1));
                self.push(name, "offsets", Width(8));
                self.push(name, "data", Width(1));
            }
            DataType::Utf8View | DataType::BinaryView => {
                let n = self.variadic.pop_front().unwrap_or(0);
                self.push(name, "validity", Width(1));
                self.push(name, "views", Width(16));
                for _ in 0..n.clamp(0, 1 << 20) {
                    self.push(name, "data", Width(1));
                }
            }
            DataType::List(f) | DataType::Map(f, _) => {
                self.push(name, "validity", Width(1));
                self.push(name, "offsets", Width(4));
                self.field(name, f.data_type())?;
            }
            DataType::LargeList(f) => {
                self.push(name, "validity", Width(1));
                self.push(name, "offsets", Width(8));
                self.field(name, f.data_type())?;
            }
            DataType::ListView(f) | DataType::LargeListView(f) => {
                let w = if matches!(t, DataType::ListView(_)) {
                    4
                } else {
                    8
                };
                self.push(name, "validity", Width(1));
                self.push(name, "offsets", Width(w));
                self.push(name, "sizes", Width(w));
                self.field(name, f.data_type())?;
            }
            DataType::FixedSizeList(f, _) => {
                self.push(name, "validity", Width(1));
                self.field(name, f.data_type())?;
            }
            DataType::Struct(fs) => {
                self.push(name, "validity", Width(1));
                for f in fs {
                    self.field(name, f.data_type())?;
                }
            }
            DataType::RunEndEncoded(a, b) => {
                self.field(name, a.data_type())?;
                self.field(name, b.data_type())?;
            }
            DataType::Dictionary(k, _) => {
                self.push(name, "validity", Width(1));
                self.push(name, "keys", Width(k.primitive_width().unwrap_or(1)));
            }
            DataType::Union(fs, mode) => {
                if self.v4 {
                    self.push(name, "validity", Width(1));
                }
                self.push(name, "type ids", Need::PerRow(node, 1));
                if *mode == arrow_schema::UnionMode::Dense {
                    self.push(name, "offsets", Need::PerRow(node, 4));
                }
                for (_, f) in fs.iter() {
                    self.field(name, f.data_type())?;
                }
            }
            t => {
                self.push(name, "validity", Width(1));
                self.push(name, "values", Width(t.primitive_width().unwrap_or(1)));
            }
        }
        Ok(())
    }
}

/// The framing of an IPC stream pushed in chunks, followed beside the decoder so that each
/// message is checked ([`check_message`]) before the decoder reads it: only message headers are
/// held, bodies are counted past.
#[derive(Default)]
pub(super) struct Frames {
    head: Vec<u8>,
    skip: u64,
    ended: bool,
    /// The stream's schema, from its first message.
    schema: Option<Schema>,
    /// Messages read (for errors: the next one's number, from 0).
    messages: usize,
}

impl Frames {
    pub(super) fn push(&mut self, mut bytes: &[u8]) -> std::result::Result<(), String> {
        while !bytes.is_empty() && !self.ended {
            if self.skip > 0 {
                let n = usize::try_from(self.skip)
                    .unwrap_or(usize::MAX)
                    .min(bytes.len());
                self.skip -= n as u64;
                bytes = &bytes[n..];
                continue;
            }
            // the prefix: 0xFFFFFFFF and a length, or (before Arrow 0.15) a length alone
            let need = |head: &[u8]| -> Option<usize> {
                let word = |at: usize| {
                    head.get(at..at + 4)
                        .and_then(|w| <[u8; 4]>::try_from(w).ok())
                        .map(i32::from_le_bytes)
                };
                match word(0)? {
                    -1 => word(4).map(|l| (8, l)),
                    l => Some((4, l)),
                }
                .map(|(prefix, len)| {
                    if len <= 0 {
                        prefix
                    } else {
                        prefix + len as usize
                    }
                })
            };
            let want = need(&self.head).unwrap_or(8).min(MAX_IPC_METADATA + 8);
            let take = want.saturating_sub(self.head.len()).min(bytes.len()).max(1);
            self.head.extend_from_slice(&bytes[..take.min(bytes.len())]);
            bytes = &bytes[take.min(bytes.len())..];
            let Some(full) = need(&self.head) else {
                continue;
            };
            let prefix = if self.head.get(..4) == Some(&[0xff; 4][..]) {
                8
            } else {
                4
            };
            let len = i32::from_le_bytes(
                self.head
                    .get(prefix - 4..prefix)
                    .and_then(|w| <[u8; 4]>::try_from(w).ok())
                    .unwrap_or_default(),
            );
            if len < 0 {
                return Err(format!("a message declares {len} bytes of metadata"));
            }
            if len as usize > MAX_IPC_METADATA {
                return Err(format!("a message declares {len} bytes of metadata"));
            }
            if len == 0 {
                self.ended = true; // the end-of-stream marker
                break;
            }
            if self.head.len() < full {
                continue;
            }
            let meta = self.head.get(prefix..full).unwrap_or_default();
            if let Some(schema) = arrow_ipc::root_as_message(meta)
                .ok()
                .and_then(|m| m.header_as_schema())
            {
                self.schema = arrow_ipc::convert::try_fb_to_schema(schema).ok();
            }
            check_message(meta, None, self.schema.as_ref())
                .map_err(|why| format!("message {}: {why}", self.messages))?;
            self.messages += 1;
            let body = arrow_ipc::root_as_message(meta)
                .map(|m| m.bodyLength())
                .unwrap_or(0);
            self.skip = u64::try_from(body).unwrap_or(0);
            self.head.clear();
        }
        Ok(())
    }
}
