//! Reading [`RekeyOptions`] from JSON with the readers every document type has: each member
//! once, with its doc string and default, which the generated declaration (`RekeyOptions` in
//! `src/types.d.ts`) and the reference (docs/design-document.md) are written from.

use super::RekeyOptions;
use crate::support::json::{f64_, object_reader, string, strings, u32_, u64_};

object_reader! {
    /// [`RekeyOptions`].
    pub fn rekey_options(n) -> RekeyOptions; "struct RekeyOptions";
    /// What a rekey job assumes, as [`rekey_options`] reads it.
    table REKEY_OPTIONS;
    RekeyOptions {
        /// The column family the cells are in (its name's bytes are in every cell): a name
        /// HBase accepts, at most 127 bytes.
        family: or("family", string, RekeyOptions::default().family) = r#""cf""#,
        /// Qualifier bytes per cell; absent, from the new design's `cells` (a fixed
        /// qualifier's name, OpenTSDB's 2-byte offsets), else 1.
        qualifier_bytes: opt("qualifierBytes", u32_),
        /// `hbase.hregion.max.filesize`: an HFile writer rolls to a new file past it; above 0
        /// bytes.
        max_file_size: or("maxFileSize", u64_, RekeyOptions::default().max_file_size) = "10737418240",
        /// `hbase.mapreduce.bulkload.max.hfiles.perRegion.perFamily`: at least 1.
        max_hfiles: or("maxHfiles", u32_, RekeyOptions::default().max_hfiles) = "32",
        /// HDFS replication of what is written, 1 to 10.
        replication: or("replication", u32_, RekeyOptions::default().replication) = "3",
        /// On-disk bytes per uncompressed byte, above 0, at most 10 (1: no compression or
        /// encoding; measure yours).
        compression: or("compression", f64_, RekeyOptions::default().compression) = "1",
        /// Tasks running at once (mappers, then reducers), 1 to 100,000: a guess unless given.
        parallelism: or("parallelism", u32_, RekeyOptions::default().parallelism) = "8",
        /// MiB/s a map task reads and re-encodes, above 0: a guess unless given.
        read_mib_per_sec: or("readMibPerSec", f64_, RekeyOptions::default().read_mib_per_sec) = "100",
        /// MiB/s a reducer sorts and writes HFiles, above 0: a guess unless given.
        write_mib_per_sec: or("writeMibPerSec", f64_, RekeyOptions::default().write_mib_per_sec) = "50",
        /// The old table's name in the statements: a name HBase accepts.
        old_table: or("oldTable", string, RekeyOptions::default().old_table) = r#""t""#,
        /// The new table's name; absent, the old one's with `_new`.
        new_table: opt("newTable", string),
        /// The columns the rows have (a file's header): a field the old key does not give back
        /// can come from one of these. Absent: only the old key's fields.
        columns: opt("columns", strings),
    }
}

crate::support::json::deserialize_through! {
    RekeyOptions => rekey_options,
}
