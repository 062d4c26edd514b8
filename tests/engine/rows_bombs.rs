//! Files of rows that declare or hold far more than they weigh (issue 56, items 2 and 3): a
//! Parquet page of zstd zeros past `limits::MAX_PARQUET_PAGE_BYTES`, a row group whose pages
//! pass `limits::MAX_PARQUET_GROUP_BYTES`, and an Arrow IPC stream or file whose record batch
//! declares a body longer than the bytes present. Each is refused with a located error of its
//! kind before the work, never decompressed or panicked on. The files are made here, by small
//! generators.
#![cfg(feature = "rows")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use arrow_array::{Int64Array, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::file::properties::WriterProperties;
use rowkey_lab::analyze::{analyze_rows, AnalyzeOptions};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::error::ErrorKind;
use rowkey_lab::limits::{MAX_PARQUET_GROUP_BYTES, MAX_PARQUET_PAGE_BYTES};
use rowkey_lab::rows::{ParquetFile, RowsOptions};
use serde_json::json;

fn design() -> DesignDocument {
    DesignDocument::from_json(
        &json!({
            "v": 1,
            "fields": [{"name": "n", "type": "long"}],
            "key": "str(n)"
        })
        .to_string(),
    )
    .unwrap()
}

fn opts(name: &str) -> RowsOptions {
    RowsOptions {
        name: Some(name.into()),
        ..RowsOptions::default()
    }
}

fn read(name: &str, bytes: &[u8]) -> Result<u64, rowkey_lab::error::Error> {
    analyze_rows(&design(), &AnalyzeOptions::default(), &opts(name), bytes)
        .map(|(report, _)| report.writes)
}

fn zeros(rows: usize) -> RecordBatch {
    let schema = Arc::new(Schema::new(vec![Field::new("n", DataType::Int64, false)]));
    RecordBatch::try_new(schema, vec![Arc::new(Int64Array::from(vec![0i64; rows]))]).unwrap()
}

/// A Parquet file of one INT64 column of zeros, zstd, PLAIN, no dictionary: `batches` writes
/// of `rows` rows each into one row group, pages cut at `page_bytes`.
fn parquet_zeros(rows: usize, batches: usize, page_bytes: usize) -> Vec<u8> {
    let b = zeros(rows);
    let props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(3).unwrap()))
        .set_dictionary_enabled(false)
        .set_encoding(Encoding::PLAIN)
        .set_statistics_enabled(parquet::file::properties::EnabledStatistics::None)
        .set_data_page_size_limit(page_bytes)
        .set_data_page_row_count_limit(usize::MAX)
        .set_write_batch_size(64 * 1024)
        .set_max_row_group_row_count(None)
        .build();
    let mut out = Vec::new();
    let mut w = ArrowWriter::try_new(&mut out, b.schema(), Some(props)).unwrap();
    for _ in 0..batches {
        w.write(&b).unwrap();
    }
    w.close().unwrap();
    out
}

#[test]
fn a_parquet_page_past_the_limit_is_refused_by_its_header() {
    // 80 MB of zeros in one page (the 2 GiB page of the issue, smaller): a few KB of zstd
    let rows = MAX_PARQUET_PAGE_BYTES / 8 + 2_000_000;
    let file = parquet_zeros(rows, 1, usize::MAX);
    assert!(file.len() < 64 << 10, "{} bytes", file.len());
    let e = read("bomb.parquet", &file).expect_err("a page past the limit");
    assert_eq!(e.kind, ErrorKind::Limit, "{e}");
    assert!(e.to_string().contains("column `n`"), "{e}");
    assert!(e.to_string().contains("a page of 83108864 bytes"), "{e}");
}

#[test]
fn a_parquet_row_group_past_the_limit_is_refused_before_its_pages() {
    // 18 pages of 60 MiB of zeros in one row group: each under the page limit, 1.06 GiB together
    const _: () = assert!(MAX_PARQUET_GROUP_BYTES < 18 * (60 << 20));
    let rows = (60 << 20) / 8;
    let file = parquet_zeros(rows, 18, 60 << 20);
    let e = read("group.parquet", &file).expect_err("a row group past the limit");
    assert_eq!(e.kind, ErrorKind::Limit, "{e}");
    assert!(e.to_string().contains("row group 0"), "{e}");
    // by its footer too: the byte ranges of the row group are refused before they are read
    let tail = &file[file.len() - 8..];
    let footer_len = ParquetFile::footer_len(tail).unwrap();
    let footer = &file[file.len() - footer_len..];
    let pq = ParquetFile::from_footer(footer, file.len() as u64, &opts("group.parquet")).unwrap();
    let d = design();
    let fields = d.key_fields();
    let fields: Vec<(String, rowkey_lab::keyspec::FieldType)> = fields
        .iter()
        .map(|f| (f.name.clone(), f.field_type))
        .collect();
    let e = pq
        .row_group_ranges(0, &fields, &[0], &opts("group.parquet"))
        .expect_err("by the footer");
    assert_eq!(e.kind, ErrorKind::Limit, "{e}");
}

#[test]
fn parquet_under_the_limits_is_read() {
    let file = parquet_zeros(100_000, 3, 1 << 20);
    assert_eq!(read("ok.parquet", &file).unwrap(), 300_000);
}

/// A 16-row Arrow IPC stream (or file) whose record batch's `bodyLength` says `body`.
fn ipc_with_body_length(file: bool, body: i64) -> Vec<u8> {
    let b = zeros(16);
    let mut out = Vec::new();
    if file {
        let mut w = arrow_ipc::writer::FileWriter::try_new(&mut out, &b.schema()).unwrap();
        w.write(&b).unwrap();
        w.finish().unwrap();
    } else {
        let mut w = arrow_ipc::writer::StreamWriter::try_new(&mut out, &b.schema()).unwrap();
        w.write(&b).unwrap();
        w.finish().unwrap();
    }
    // The record batch's body is its 16 longs (128 bytes): its little-endian i64 is written in
    // the message (and, in a file, in the footer's block), never elsewhere in so small a file.
    let real = 128i64.to_le_bytes();
    let mut patched = 0;
    let mut i = 0;
    while i + 8 <= out.len() {
        if out[i..i + 8] == real {
            out[i..i + 8].copy_from_slice(&body.to_le_bytes());
            patched += 1;
            i += 8;
        } else {
            i += 1;
        }
    }
    assert!(patched >= 1, "bodyLength found");
    out
}

#[test]
fn an_arrow_body_longer_than_the_bytes_present_is_refused() {
    for file in [false, true] {
        for body in [1i64 << 40, 1 << 20, 64, 8, -1] {
            let bytes = ipc_with_body_length(file, body);
            let name = if file {
                "patched.arrow"
            } else {
                "patched.arrows"
            };
            let e = match read(name, &bytes) {
                Ok(n) => panic!("{name} with bodyLength {body}: read {n} rows"),
                Err(e) => e,
            };
            assert_eq!(e.kind, ErrorKind::Invalid, "{name} body {body}: {e}");
            assert!(e.to_string().contains(name), "{e}");
        }
        // the same file unpatched is read
        let name = if file { "ok.arrow" } else { "ok.arrows" };
        assert_eq!(read(name, &ipc_with_body_length(file, 128)).unwrap(), 16);
    }
}

/// A 3-row Arrow IPC stream of a long `n` and an int `m` whose record batch's `bodyLength` is
/// 2^32 + 8 (its buffers' lengths left as they are: 24 and 12 bytes). wasm's StreamDecoder read
/// that length as 8 and sliced the buffers past them (issue 73: a panic in arrow-buffer).
fn ipc_body_past_4_gib() -> Vec<u8> {
    let schema = Arc::new(Schema::new(vec![
        Field::new("n", DataType::Int64, false),
        Field::new("m", DataType::Int32, false),
    ]));
    let batch = RecordBatch::try_new(
        schema.clone(),
        vec![
            Arc::new(Int64Array::from(vec![1i64, 2, 3])),
            Arc::new(arrow_array::Int32Array::from(vec![1, 2, 3])),
        ],
    )
    .unwrap();
    let mut out = Vec::new();
    let mut w = arrow_ipc::writer::StreamWriter::try_new(&mut out, &schema).unwrap();
    w.write(&batch).unwrap();
    w.finish().unwrap();
    // the second message (the batch): its metadata's bodyLength, the only i64 of that value
    let message = |at: usize| {
        let len = i32::from_le_bytes(out[at + 4..at + 8].try_into().unwrap()) as usize;
        let m = arrow_ipc::root_as_message(&out[at + 8..at + 8 + len]).unwrap();
        (at + 8, at + 8 + len, m.bodyLength())
    };
    let (_, schema_end, schema_body) = message(0);
    let (start, end, body) = message(schema_end + schema_body as usize);
    let at: Vec<usize> = (start..end - 7)
        .filter(|&i| out[i..i + 8] == body.to_le_bytes())
        .collect();
    assert_eq!(at.len(), 1, "bodyLength at {at:?}");
    out[at[0]..at[0] + 8].copy_from_slice(&((1i64 << 32) + 8).to_le_bytes());
    out
}

#[test]
fn an_arrow_stream_body_past_4_gib_is_refused() {
    let e = read("body-4g.arrows", &ipc_body_past_4_gib()).expect_err("a body of 4 GiB");
    assert_eq!(e.kind, ErrorKind::Invalid, "{e}");
    assert!(
        e.to_string()
            .contains("a message declares a body of 4294967304 bytes"),
        "{e}"
    );
}

#[test]
fn random_bytes_after_the_arrow_magic_are_refused() {
    let mut bytes = b"ARROW1\0\0".to_vec();
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..4096 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        bytes.push(x as u8);
    }
    assert!(read("noise.arrow", &bytes).is_err());
}

/// The hostile files the JS tests read through the npm package (tests/js/cli/rows-bombs.test.mjs)
/// are these generators' output: `ROWKEY_WRITE_FIXTURES=1` writes them.
#[test]
fn the_fixtures_are_these_generators() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rows");
    let files = [
        (
            "bomb-page.parquet",
            parquet_zeros(MAX_PARQUET_PAGE_BYTES / 8 + 2_000_000, 1, usize::MAX),
        ),
        ("body-2e40.arrows", ipc_with_body_length(false, 1 << 40)),
        ("body-negative.arrow", ipc_with_body_length(true, -1)),
        ("body-2e40.arrow", ipc_with_body_length(true, 1 << 40)),
        ("body-4g.arrows", ipc_body_past_4_gib()),
    ];
    for (name, bytes) in files {
        let path = dir.join(name);
        if std::env::var_os("ROWKEY_WRITE_FIXTURES").is_some() {
            std::fs::write(&path, &bytes).unwrap();
        }
        assert_eq!(
            std::fs::read(&path).unwrap(),
            bytes,
            "{name}: run with ROWKEY_WRITE_FIXTURES=1"
        );
    }
}
