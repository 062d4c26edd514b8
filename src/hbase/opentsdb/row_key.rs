//! `net.opentsdb.core.RowKey`: the salt prefix and the row of a TSUID.
//!
//! The code lives in [`crate::hbase::salt::opentsdb`] (the key language's
//! `salt(..., hash=opentsdb)` shares it); this module names it as OpenTSDB does.

pub use crate::hbase::salt::opentsdb::{
    all_salt_prefixes, prefix_key_with_salt, row_key_from_tsuid, salt_bucket,
    salt_bytes as get_salt_bytes, SaltConfig, TIMESTAMP_BYTES,
};
