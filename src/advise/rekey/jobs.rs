//! The job itself, for the path the user picks: text to paste, with the plan's split keys in.
//! The MapReduce one is a template (the key function is the user's to write in Java: the
//! design's key text says what it computes); it cannot be compiled here, without HBase's jars.

use serde::Serialize;

use crate::design::phoenix::quote_ident;
use crate::design::DesignDocument;
use crate::hbase::bytes::{to_hex, to_string_binary};

/// The job's text for each path.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Jobs {
    /// PySpark: `rekey_df` at the new split keys, one partition a region.
    pub spark: String,
    /// A MapReduce template: snapshot in, HFiles out, `completebulkload`.
    pub mapreduce: String,
    /// Phoenix `UPSERT SELECT` into the new table, when both designs are Phoenix tables.
    pub phoenix: Option<String>,
}

/// The jobs moving `old_table` (design `old`) to `new_table` (design `new`) pre-split at `keys`.
pub fn jobs(
    old: &DesignDocument,
    new: &DesignDocument,
    keys: &[Vec<u8>],
    old_table: &str,
    new_table: &str,
    family: &str,
) -> Jobs {
    let hex: Vec<String> = keys.iter().map(|k| format!("\"{}\"", to_hex(k))).collect();
    let spark = format!(
        "# old_df: the old table's rows (its fields and cells, timestamps as columns), e.g. read from a snapshot export\n\
         from rowkey_lab.spark import rekey_df\n\
         split_keys = [bytes.fromhex(h) for h in [{}]]\n\
         rekeyed, _ = rekey_df(old_df, new_design, split_keys=split_keys)\n\
         # rekeyed: one partition per region of '{new_table}', sorted by `rowkey`, every cell's timestamp kept.\n\
         # Write HFiles per partition keeping each cell's timestamp; hbase-connectors' bulkLoad would stamp one time on every cell.\n",
        hex.join(", ")
    );
    let splits: Vec<String> = keys
        .iter()
        .map(|k| {
            format!(
                "      Bytes.toBytesBinary(\"{}\")",
                java_escape(&to_string_binary(k))
            )
        })
        .collect();
    let mapreduce = format!(
        "// A template (compile it against your HBase's jars): snapshot '{old_table}' -> new keys -> HFiles -> completebulkload.\n\
         // The new key, as the design computes it: {key}\n\
         public class Rekey {{\n\
         \x20 static final byte[][] SPLITS = {{\n{splits}\n  }}; // create '{new_table}' with these first\n\
         \x20 public static class RekeyMapper extends TableMapper<ImmutableBytesWritable, Cell> {{\n\
         \x20   @Override protected void map(ImmutableBytesWritable row, Result r, Context ctx) throws IOException, InterruptedException {{\n\
         \x20     byte[] key = newKey(r); // yours: the fields from the old key or its cells, encoded as above\n\
         \x20     for (Cell c : r.rawCells()) {{\n\
         \x20       // the cell's own timestamp and type kept: TTL and versions survive the move\n\
         \x20       ctx.write(new ImmutableBytesWritable(key), CellUtil.createCell(key, CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c), c.getTimestamp(), c.getTypeByte(), CellUtil.cloneValue(c)));\n\
         \x20     }}\n\
         \x20   }}\n\
         \x20 }}\n\
         \x20 // job: TableMapReduceUtil.initTableSnapshotMapperJob(\"{old_table}_rekey\", new Scan(), RekeyMapper.class, ImmutableBytesWritable.class, Cell.class, job, true, restoreDir);\n\
         \x20 //      HFileOutputFormat2.configureIncrementalLoad(job, table, regionLocator); // one reducer per region of '{new_table}'\n\
         }}\n\
         // then: hbase completebulkload <output dir> {new_table}   (family '{family}')\n",
        key = new.key.to_text(),
        splits = splits.join(",\n"),
    );
    let phoenix = match (&old.phoenix, &new.phoenix) {
        (Some(o), Some(n)) => (|| {
            let mut cols: Vec<String> = new
                .fields
                .iter()
                .map(|f| quote_ident(&f.name))
                .chain(n.columns.iter().map(|c| quote_ident(&c.name)))
                .collect::<crate::error::Result<_>>()
                .ok()?;
            let mut seen = std::collections::HashSet::new();
            cols.retain(|c| seen.insert(c.clone()));
            Some(format!(
                "UPSERT INTO {} ({}) SELECT {} FROM {};",
                quote_ident(&n.table).ok()?,
                cols.join(", "),
                cols.join(", "),
                quote_ident(&o.table).ok()?
            ))
        })(),
        _ => None,
    };
    Jobs {
        spark,
        mapreduce,
        phoenix,
    }
}

/// A Java string literal's body.
fn java_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}
