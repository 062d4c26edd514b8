//! Files on which the `parquet` and `arrow` crates (version 60) panicked, a trap that kills the
//! module in wasm, found by tests/fuzz_readers.rs (issue 56): each is now refused before the
//! crate reads it, with an error that names the file, the row group or block, the column, the
//! page or buffer, and what was expected. The fuzzed files are kept in the harness's corpus
//! (tests/fixtures/fuzz/found-*); the v2 page is made here.
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
