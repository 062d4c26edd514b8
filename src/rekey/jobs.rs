//! The job itself, for the path the user picks: text to paste, with the plan's split keys in.
//! The MapReduce one is a template (the key function is the user's to write in Java: the
//! design's key text says what it computes); it cannot be compiled here, without HBase's jars.

use serde::Serialize;

use crate::design::phoenix::{full_name, quote_ident};
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
         # rekeyed: one partition per region of '{new}', sorted by `rowkey`, every cell's timestamp kept.\n\
         # Write HFiles per partition keeping each cell's timestamp; hbase-connectors' bulkLoad would stamp one time on every cell.\n",
        hex.join(", "),
        new = one_line(new_table),
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
    // the names are valid HBase names (checked with the options); each is written through the
    // quoting of where it lands all the same: a Java comment, a Java string, a shell word
    let (old_c, new_c) = (java_comment(old_table), java_comment(new_table));
    let mapreduce = format!(
        "// A template (compile it against your HBase's jars): snapshot '{old_c}' -> new keys -> HFiles -> completebulkload.\n\
         // The new key, as the design computes it: {key}\n\
         public class Rekey {{\n\
         \x20 static final byte[][] SPLITS = {{\n{splits}\n  }}; // create '{new_c}' with these first\n\
         \x20 public static class RekeyMapper extends TableMapper<ImmutableBytesWritable, Cell> {{\n\
         \x20   @Override protected void map(ImmutableBytesWritable row, Result r, Context ctx) throws IOException, InterruptedException {{\n\
         \x20     byte[] key = newKey(r); // yours: the fields from the old key or its cells, encoded as above\n\
         \x20     for (Cell c : r.rawCells()) {{\n\
         \x20       // the cell's own timestamp and type kept: TTL and versions survive the move\n\
         \x20       ctx.write(new ImmutableBytesWritable(key), CellUtil.createCell(key, CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c), c.getTimestamp(), c.getTypeByte(), CellUtil.cloneValue(c)));\n\
         \x20     }}\n\
         \x20   }}\n\
         \x20 }}\n\
         \x20 // job: TableMapReduceUtil.initTableSnapshotMapperJob(\"{snapshot}\", new Scan(), RekeyMapper.class, ImmutableBytesWritable.class, Cell.class, job, true, restoreDir);\n\
         \x20 //      HFileOutputFormat2.configureIncrementalLoad(job, table, regionLocator); // one reducer per region of '{new_c}'\n\
         }}\n\
         // then: hbase completebulkload <output dir> {new_word}   (family {family})\n",
        key = java_comment(&new.key.to_text()),
        splits = splits.join(",\n"),
        snapshot = java_comment(&java_escape(&super::snapshot_name(old_table, "_rekey"))),
        new_word = java_comment(&shell_word(new_table)),
        family = java_comment(&shell_word(family)),
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
            // `S.T` is table T of schema S, as CREATE TABLE prints it
            Some(format!(
                "UPSERT INTO {} ({}) SELECT {} FROM {};",
                full_name(&n.table).ok()?,
                cols.join(", "),
                cols.join(", "),
                full_name(&o.table).ok()?
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

/// A Java string literal's body: `\` and `"` escaped, a control character as an octal
/// escape (a `\u` escape of a line break would end the literal: Java reads those first).
fn java_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push_str(&format!("\\{:03o}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

/// `text` kept on one line: each control character as `\xNN` (a line break would end a
/// comment and start code).
fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.push_str(&format!("\\x{:02X}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` for a Java `//` comment: on one line, and no `\u` escape left that Java would read
/// (it turns `\u000a` into a line break before it sees the comment): a backslash is added
/// before the `u` of each, so its backslashes come in pairs.
fn java_comment(text: &str) -> String {
    let text = one_line(text);
    let mut out = String::with_capacity(text.len());
    let mut run = 0usize;
    for c in text.chars() {
        if c == 'u' && run % 2 == 1 {
            out.push('\\');
        }
        run = if c == '\\' { run + 1 } else { 0 };
        out.push(c);
    }
    out
}

/// `text` as one word of a POSIX shell command: as it is when it holds only characters no
/// shell acts on, else in single quotes (a `'` as `'\''`).
fn shell_word(text: &str) -> String {
    if !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':' | '/'))
    {
        return text.to_string();
    }
    format!("'{}'", text.replace('\'', "'\\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_java_comment_holds_no_escape_java_reads() {
        // `\u000a` is a line break to javac, even in a comment; an escaped backslash is not
        assert_eq!(java_comment(r"a\u000ab"), r"a\\u000ab");
        assert_eq!(java_comment(r"a\\u000ab"), r"a\\u000ab");
        assert_eq!(java_comment(r"a\\\uu000ab"), r"a\\\\uu000ab");
        assert_eq!(java_comment("a\nb\u{1b}"), r"a\x0Ab\x1B");
    }

    #[test]
    fn java_strings_and_shell_words() {
        assert_eq!(java_escape("a\"b\\c\n"), r#"a\"b\\c\012"#);
        assert_eq!(shell_word("ns:t_new"), "ns:t_new");
        assert_eq!(shell_word("f'x"), r"'f'\''x'");
        assert_eq!(shell_word("a b"), "'a b'");
    }
}
