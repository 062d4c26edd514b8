//! Ports of upstream Java, function by function: what HBase, Phoenix, HBaseWD and OpenTSDB
//! compute, byte for byte, proven by the golden vectors (`tests/vectors.rs`). Nothing here
//! knows the design document; validation that upstream does elsewhere (a table's DDL,
//! `createTable`) stays out of the ported functions.

pub mod bigint;
pub mod bytes;
pub mod hash;
pub mod names;
pub mod opentsdb;
pub mod phoenix;
pub mod policy;
pub mod salt;
pub mod shell;
pub mod split;
pub mod store;
pub mod version;
