//! Arrow across the boundary: the PyCapsule stream interface (`__arrow_c_stream__`) read
//! batch by batch with arrow-rs's own C stream importer, each batch checked before the engine
//! reads it, and a column of row keys walked key by key.

use std::ffi::CStr;

use arrow_array::ffi_stream::{FFI_ArrowArrayStream, RecordBatchStreamReader};
use arrow_array::{RecordBatch, RecordBatchReader};
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

use rowkey_lab::error::{Error, ErrorKind};

use crate::errors::py_error;

const STREAM: &CStr = c"arrow_array_stream";

/// The PyCapsule `obj.<method>()` returns (kept: it owns what it holds) and its pointer,
/// checked to be named `name`; `arg` and `expected` say what `obj` should have been.
pub(crate) fn capsule<'py>(
    py: Python<'py>,
    obj: &Bound<'py, PyAny>,
    arg: &str,
    method: &str,
    name: &CStr,
    expected: &str,
) -> PyResult<(Bound<'py, PyCapsule>, std::ptr::NonNull<std::ffi::c_void>)> {
    let bad = |what: String| py_error(py, &Error::arg(arg, what));
    if !obj.hasattr(method)? {
        return Err(bad(format!(
            "expected {expected}, got {}",
            obj.get_type().name()?
        )));
    }
    let capsule = obj
        .call_method0(method)?
        .cast_into::<PyCapsule>()
        .map_err(|_| bad(format!("{method} did not return a PyCapsule")))?;
    let ptr = capsule.pointer_checked(Some(name))?;
    Ok((capsule, ptr))
}

/// Every record batch of `source`, an object with `__arrow_c_stream__` (a pyarrow Table or
/// RecordBatchReader, a polars or DuckDB result): the batches are shared, not copied, each
/// checked as [`Checked`] reads it. Read with the GIL held (a stream may be produced by Python
/// code); an empty stream gives one empty batch of its schema, so column errors still name the
/// columns.
pub(crate) fn batches(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<Vec<RecordBatch>> {
    let reader = stream(py, source)?;
    let schema = reader.schema();
    let out = reader
        .collect::<Result<Vec<_>, Error>>()
        .map_err(|e| py_error(py, &e))?;
    if out.is_empty() {
        return Ok(vec![RecordBatch::new_empty(schema)]);
    }
    Ok(out)
}

/// `source`'s `__arrow_c_stream__` as a reader of its batches, read as they are asked for and
/// checked ([`Checked`]). A producer written in Python
/// (pyarrow's reader of a generator) takes the GIL itself when asked.
pub(crate) fn stream(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<Checked> {
    let bad = |what: String| py_error(py, &Error::arg("source", what));
    let (_capsule, ptr) = capsule(
        py,
        source,
        "source",
        "__arrow_c_stream__",
        STREAM,
        "Arrow data (an object with __arrow_c_stream__: a pyarrow Table or RecordBatchReader, a polars or DuckDB result)",
    )?;
    // SAFETY: the capsule is named "arrow_array_stream", so by the Arrow PyCapsule interface
    // it holds an `ArrowArrayStream`; `from_raw` moves the stream out and marks the capsule's
    // copy released, so the capsule's destructor does not release it a second time.
    let stream = unsafe { FFI_ArrowArrayStream::from_raw(ptr.as_ptr().cast()) };
    let reader = RecordBatchStreamReader::try_new(stream)
        .map_err(|e| bad(format!("not a readable Arrow stream: {e}")))?;
    Ok(Checked {
        schema: reader.schema(),
        reader,
        index: 0,
        done: false,
    })
}

/// A stream's batches, each checked before the engine reads it: imported without a panic
/// reaching Python, its schema the stream's, every column valid Arrow data (offsets
/// monotonic and inside their values, dictionary indexes inside their dictionary, UTF-8 text:
/// arrow-rs's full validation; data imported through the C interface is not validated, and
/// the engine's reads of it are unchecked). The first failure ends the stream.
pub(crate) struct Checked {
    reader: RecordBatchStreamReader,
    schema: arrow_schema::SchemaRef,
    index: usize,
    done: bool,
}

impl Checked {
    /// The stream's schema.
    pub(crate) fn schema(&self) -> arrow_schema::SchemaRef {
        self.schema.clone()
    }

    fn check(&mut self, i: usize, b: RecordBatch) -> Result<RecordBatch, Error> {
        let bad = |why: String| Error::new(ErrorKind::Invalid, why).at_path("source");
        if b.schema().fields() != self.schema.fields() {
            return Err(bad(format!(
                "batch {i} of the Arrow stream has another schema than the stream's first: {} where the stream said {}",
                b.schema(),
                self.schema
            )));
        }
        for (col, field) in b.columns().iter().zip(self.schema.fields()) {
            col.to_data().validate_full().map_err(|e| {
                bad(format!(
                    "batch {i}, column `{}`: not valid Arrow data: {e}",
                    field.name()
                ))
            })?;
        }
        Ok(b)
    }
}

impl Iterator for Checked {
    type Item = Result<RecordBatch, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let i = self.index;
        self.index += 1;
        let next = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.reader.next()));
        let r = match next {
            Ok(None) => None,
            Ok(Some(Ok(b))) => Some(self.check(i, b)),
            Ok(Some(Err(e))) => Some(Err(Error::arg(
                "source",
                format!("the Arrow stream failed: {e}"),
            ))),
            Err(_) => Some(Err(Error::arg(
                "source",
                format!("batch {i} of the Arrow stream could not be imported"),
            ))),
        };
        self.done = !matches!(r, Some(Ok(_)));
        r
    }
}

pub(crate) const SCHEMA: &CStr = c"arrow_schema";

/// Every key of the batches' first column (binary, large binary or binary view) with its row
/// (from 1), in order; a null key or a column of another type is an error naming the row.
pub(crate) fn each_key(
    batches: &[RecordBatch],
    mut f: impl FnMut(&[u8], usize) -> Result<(), Error>,
) -> Result<(), Error> {
    use arrow_array::cast::AsArray;
    use arrow_array::Array;
    use arrow_schema::DataType;
    let mut put = |k: Option<&[u8]>, row: usize| match k {
        Some(k) => f(k, row),
        None => Err(
            Error::new(ErrorKind::Invalid, format!("row {row}: a null row key")).at_path("keys"),
        ),
    };
    let mut row = 0usize;
    for b in batches {
        let Some(col) = b.columns().first() else {
            return Err(Error::arg("keys", "no column of row keys"));
        };
        let n = col.len();
        match col.data_type() {
            DataType::Binary => {
                let a = col.as_binary::<i32>();
                for i in 0..n {
                    put(a.is_valid(i).then(|| a.value(i)), row + i + 1)?;
                }
            }
            DataType::LargeBinary => {
                let a = col.as_binary::<i64>();
                for i in 0..n {
                    put(a.is_valid(i).then(|| a.value(i)), row + i + 1)?;
                }
            }
            DataType::BinaryView => {
                let a = col.as_binary_view();
                for i in 0..n {
                    put(a.is_valid(i).then(|| a.value(i)), row + i + 1)?;
                }
            }
            t => return Err(Error::arg("keys", format!("row keys are binary, not {t}"))),
        }
        row += n;
    }
    Ok(())
}
