//! OpenTSDB's row layout, ported from its Java code (`net.opentsdb.core`), proven by the
//! `opentsdb.*` golden vectors:
//!
//! * [`internal`]: `Internal`: the hour-aligned base time, the column qualifier (offset and
//!   flags, 2 bytes for seconds, 4 for milliseconds) and its readers, the variable-length
//!   integer value, the largest UID a width holds.
//! * [`row_key`]: `RowKey`: the salt prefix and the row of a TSUID (the salt itself lives in
//!   [`crate::hbase::salt::opentsdb`], shared with the key language).
//! * [`add_point`](mod@add_point): `TSDB.addPoint`: the row, qualifier and value one data point is written
//!   to, its validation and the tag order (by tag-key UID), with UIDs given as inputs.
//!
//! Row keys are `[salt][metric UID][base time: 4 bytes]([tagk UID][tagv UID])*`.

pub mod add_point;
pub mod internal;
mod letters;
pub mod row_key;

pub use add_point::{add_point, validate_string, DataPoint, PointValue, Put, TsdbConfig, Uids};
