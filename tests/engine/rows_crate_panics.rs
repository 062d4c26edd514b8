//! Files on which the `parquet` and `arrow` crates (version 60) panicked, a trap that kills the
//! module in wasm, found by tests/fuzz_readers.rs (issue 56) and the hostile-input pass of
//! issue 73: each is now refused before the crate reads it, with an error that names the file,
//! the row group, block or message, the column, the page or buffer, and what was expected. The
//! fuzzed files are kept in the harness's corpus (tests/fixtures/fuzz/found-*); the v2 page and
//! the Arrow IPC streams are made here.
#![cfg(feature = "rows")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::sync::Arc;

use arrow_array::{RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, Encoding};
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterVersion};
use rowkey_lab::analyze::{analyze_rows, AnalyzeOptions};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::error::ErrorKind;
use rowkey_lab::rows::{NullPolicy, RowsOptions};

fn flights() -> DesignDocument {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text =
        std::fs::read_to_string(dir.join("tests/fixtures/rows/flights-design.json")).unwrap();
    DesignDocument::from_json(&text).unwrap()
}

/// The error reading `bytes` as the file `name` with `doc` (the fuzz harness's options).
fn refused(doc: &DesignDocument, name: &str, bytes: &[u8]) -> String {
    let opts = RowsOptions {
        name: Some(name.into()),
        nulls: NullPolicy::Skip,
        ..RowsOptions::default()
    };
    let e = analyze_rows(doc, &AnalyzeOptions::default(), &opts, bytes)
        .map(|(r, _)| r.writes)
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Invalid, "{e}");
    e.to_string()
}

fn found(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/fuzz")
        .join(name);
    refused(&flights(), name, &std::fs::read(path).unwrap())
}

fn has(e: &str, parts: &[&str]) {
    for p in parts {
        assert!(e.contains(p), "`{p}` not in: {e}");
    }
}

#[test]
fn a_dictionary_encoded_page_without_a_dictionary_page_is_refused() {
    // was: panicked at parquet column/reader/decoder.rs "Decoder for dict should have been set"
    let e = found("found-no-dictionary.parquet");
    has(
        &e,
        &[
            "found-no-dictionary.parquet: not a readable Parquet file",
            "row group 0, column `time_hour`, page 0",
            "a data page encoded RLE_DICTIONARY with no dictionary page before it",
        ],
    );
}

#[test]
fn a_bit_packed_run_of_levels_past_its_page_is_refused() {
    // was: panicked at arrow-buffer bit_chunk_iterator.rs "offset + len out of bounds"
    let e = found("found-levels-short.parquet");
    has(
        &e,
        &[
            "row group 1, column `time_hour`, page 1",
            "definition levels have a bit-packed run at byte 0 of 320 levels of 1 bits",
            "need 3 bytes where 1 are left",
        ],
    );
}

#[test]
fn a_byte_stream_split_page_shorter_than_its_values_is_refused() {
    // was: panicked at parquet byte_stream_split_decoder.rs "index out of bounds"
    let e = found("found-split-short.parquet");
    has(
        &e,
        &[
            "row group 2, column `flight`, page 1",
            "20 values of 8 bytes encoded BYTE_STREAM_SPLIT in 17 bytes, where 160 were expected",
        ],
    );
}

#[test]
fn an_ipc_file_offsets_buffer_of_a_partial_offset_is_refused() {
    // was: panicked at arrow-buffer immutable.rs "prefix.is_empty() && suffix.is_empty()"
    let e = found("found-offsets-odd.arrow");
    has(
        &e,
        &[
            "found-offsets-odd.arrow: not a readable Arrow IPC file: block 1",
            "buffer 6 of a record batch (column `tailnum`, its offsets) is 255 bytes",
            "a whole number of its 4-byte values was expected",
        ],
    );
}

#[test]
fn an_ipc_stream_offsets_buffer_of_a_partial_offset_is_refused() {
    let e = found("found-offsets-odd.arrows");
    has(
        &e,
        &[
            "found-offsets-odd.arrows: not a readable Arrow IPC file: message 3",
            "buffer 12 of a record batch (column `dest`, its offsets) is 194 bytes",
            "a whole number of its 4-byte values was expected",
        ],
    );
}

/// A Parquet file of one required string column `s` with one row, PLAIN and uncompressed, in
/// one v2 data page whose header says its one value is null (`num_nulls` 1 where the writer
/// wrote 0).
fn v2_all_nulls() -> Vec<u8> {
    let schema = Arc::new(Schema::new(vec![Field::new("s", DataType::Utf8, false)]));
    let batch = RecordBatch::try_new(
        schema.clone(),
        vec![Arc::new(StringArray::from(vec!["UA"]))],
    )
    .unwrap();
    let props = WriterProperties::builder()
        .set_writer_version(WriterVersion::PARQUET_2_0)
        .set_compression(Compression::UNCOMPRESSED)
        .set_dictionary_enabled(false)
        .set_encoding(Encoding::PLAIN)
        .set_statistics_enabled(EnabledStatistics::None)
        .build();
    let mut out = Vec::new();
    let mut w = ArrowWriter::try_new(&mut out, schema, Some(props)).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    // the v2 header (field 8, a struct) from its first members: num_values 1, num_nulls 0
    // (zigzag varints 2 and 0)
    let at = out
        .windows(5)
        .position(|w| matches!(w, [0x5c | 0x4c, 0x15, 0x02, 0x15, 0x00]))
        .expect("the v2 data page header");
    out[at + 4] = 0x02;
    out
}

#[test]
fn a_v2_page_declaring_fewer_values_than_it_holds_is_refused() {
    // was: panicked at parquet array_reader/byte_array.rs "attempt to divide by zero"
    let doc = DesignDocument::from_json(
        r#"{"v": 1, "fields": [{"name": "s", "type": "string"}], "key": "s"}"#,
    )
    .unwrap();
    let e = refused(&doc, "v2.parquet", &v2_all_nulls());
    has(
        &e,
        &[
            "v2.parquet: not a readable Parquet file: row group 0, column `s`, page 0",
            "its levels hold 1 values that are not null, where the page declares 0 (1 values, 1 nulls)",
        ],
    );
}

#[test]
fn a_dictionary_page_of_strings_declaring_no_values_is_refused() {
    // was: panicked at parquet array_reader/byte_array.rs:391 "attempt to divide by zero" (the
    // full tier's 60 s run at seed 56)
    let e = found("found-dictionary-empty.parquet");
    has(
        &e,
        &[
            "row group 2, column `carrier`, page 0",
            "a dictionary page that declares no values holds 42 bytes of them, where none were expected",
        ],
    );
}

#[test]
fn levels_past_the_columns_max_count_as_values_for_byte_stream_split() {
    // was: panicked at parquet byte_stream_split_decoder.rs "index out of bounds": its levels
    // are past the column's most (1), which the crate's decoder reads as not null
    let e = found("found-split-levels.parquet");
    has(
        &e,
        &[
            "row group 2, column `flight`, page 1",
            "20 values of 8 bytes encoded BYTE_STREAM_SPLIT in 17 bytes, where 160 were expected",
        ],
    );
}

#[test]
fn a_dictionary_index_run_header_past_10_bytes_is_refused() {
    // was: panicked at parquet util/bit_util.rs:1189 "Num of bytes exceed MAX_VLQ_BYTE_LEN
    // (10)" (the full tier's harness at seed 56, case 136588)
    let e = found("found-index-vlq.parquet");
    has(
        &e,
        &[
            "row group 0, column `tailnum`, page 1",
            "its dictionary indices have a run header of more than 10 bytes at byte 1 of its values",
        ],
    );
}

#[test]
fn a_dictionary_index_run_header_past_10_bytes_is_refused_past_the_values_counted() {
    // was: the same panic at seed 73, case 63789 of the harness, once only the runs of the
    // values the levels count were checked: the crate reads the first header when it opens the
    // page, whatever the levels say
    let e = found("found-index-vlq-first.parquet");
    has(
        &e,
        &[
            "row group 0, column `tailnum`, page 1",
            "its dictionary indices have a run header of more than 10 bytes at byte 1 of its values",
        ],
    );
}

/// `batch` written as an Arrow IPC stream (with `options`), each little-endian i64 `from` in
/// its record batch's message set to `to`; `count` such i64s are expected there (its body
/// length, its rows, a field node's length or nulls). `from` `None`: the body's length.
fn stream_patched(
    batch: &RecordBatch,
    options: arrow_ipc::writer::IpcWriteOptions,
    from: Option<i64>,
    to: i64,
    count: usize,
) -> Vec<u8> {
    let mut out = Vec::new();
    let mut w =
        arrow_ipc::writer::StreamWriter::try_new_with_options(&mut out, &batch.schema(), options)
            .unwrap();
    w.write(batch).unwrap();
    w.finish().unwrap();
    // the messages: 0xFFFFFFFF, the metadata's length, the metadata, the body
    let message = |at: usize| {
        let len = i32::from_le_bytes(out[at + 4..at + 8].try_into().unwrap()) as usize;
        let m = arrow_ipc::root_as_message(&out[at + 8..at + 8 + len]).unwrap();
        (at + 8 + len, m.bodyLength() as usize)
    };
    let (schema_end, schema_body) = message(0);
    let batch_at = schema_end + schema_body;
    let (meta_end, body) = message(batch_at);
    let from = from.unwrap_or(body as i64).to_le_bytes();
    let at: Vec<usize> = (batch_at..meta_end - 7)
        .filter(|&i| out[i..i + 8] == from)
        .collect();
    assert_eq!(at.len(), count, "the i64s to patch: at {at:?}");
    for i in at {
        out[i..i + 8].copy_from_slice(&to.to_le_bytes());
    }
    out
}

fn design(key_fields: &str, key: &str) -> DesignDocument {
    DesignDocument::from_json(&format!(
        r#"{{"v": 1, "fields": [{key_fields}], "key": {key:?}}}"#
    ))
    .unwrap()
}

#[test]
fn an_ipc_stream_body_past_4_gib_is_refused_before_the_decoder() {
    // was, in wasm (the CLI, npm, the page): panicked at arrow-buffer immutable.rs:299 "the
    // offset of the new Buffer cannot exceed the existing length". The decoder reads the
    // body's length as a usize, 32 bits there: 2^32 + 8 was 8 bytes of body, and the buffers
    // past them (within the length declared, so past the check) were sliced. Natively the
    // decoder waited for 4 GiB and ended "Unexpected End of Stream".
    let schema = Arc::new(Schema::new(vec![
        Field::new("n", DataType::Int64, false),
        Field::new("m", DataType::Int32, false),
    ]));
    let batch = RecordBatch::try_new(
        schema,
        vec![
            Arc::new(arrow_array::Int64Array::from(vec![1i64, 2, 3])),
            Arc::new(arrow_array::Int32Array::from(vec![1, 2, 3])),
        ],
    )
    .unwrap();
    let bytes = stream_patched(&batch, Default::default(), None, (1 << 32) + 8, 1);
    assert!(bytes.len() < 1024, "{} bytes", bytes.len());
    let doc = design(r#"{"name": "n", "type": "long"}"#, "str(n)");
    let e = refused(&doc, "body-4g.arrows", &bytes);
    has(
        &e,
        &[
            "body-4g.arrows: not a readable Arrow IPC file: message 1",
            "a message declares a body of 4294967304 bytes, more than a message is read with (1073741824",
        ],
    );
}

#[test]
fn an_ipc_batch_of_more_rows_than_its_body_holds_is_refused() {
    // was: a column of nulls holds no bytes, so 2^40 rows of it were read one by one (with
    // `nulls: skip`, for hours); the first one's null stopped the default policy
    let batch = RecordBatch::try_new(
        Arc::new(Schema::new(vec![Field::new("n", DataType::Null, true)])),
        vec![Arc::new(arrow_array::NullArray::new(40_001))],
    )
    .unwrap();
    let bytes = stream_patched(&batch, Default::default(), Some(40_001), 1 << 40, 3);
    let doc = design(r#"{"name": "n", "type": "long"}"#, "str(n)");
    let e = refused(&doc, "nulls.arrows", &bytes);
    has(
        &e,
        &[
            "nulls.arrows: not a readable Arrow IPC file: message 1",
            "a record batch declares 1099511627776 rows in a body of 0 bytes, where at most 65536 were expected",
        ],
    );
    // the same batch of 40,001 rows is read (each row's key null: skipped)
    let unpatched = stream_patched(&batch, Default::default(), Some(40_001), 40_001, 3);
    let opts = RowsOptions {
        name: Some("nulls.arrows".into()),
        nulls: NullPolicy::Skip,
        ..RowsOptions::default()
    };
    let e = analyze_rows(&doc, &AnalyzeOptions::default(), &opts, &unpatched).unwrap_err();
    assert!(e.to_string().contains("no rows"), "{e}");
}

#[test]
fn a_compressed_ipc_batch_is_refused() {
    // this build of arrow-ipc has no codec: a buffer written uncompressed inside a compressed
    // body (length prefix -1) reached the crate with its widths unchecked
    let batch = RecordBatch::try_new(
        Arc::new(Schema::new(vec![Field::new("n", DataType::Null, true)])),
        vec![Arc::new(arrow_array::NullArray::new(40_001))],
    )
    .unwrap();
    let options = arrow_ipc::writer::IpcWriteOptions::default()
        .try_with_compression(Some(arrow_ipc::CompressionType::LZ4_FRAME))
        .unwrap();
    let bytes = stream_patched(&batch, options, Some(40_001), 40_001, 3);
    let doc = design(r#"{"name": "n", "type": "long"}"#, "str(n)");
    let e = refused(&doc, "lz4.arrows", &bytes);
    has(
        &e,
        &[
            "lz4.arrows: not a readable Arrow IPC file: message 1",
            "a record batch compressed with LZ4_FRAME",
        ],
    );
}
