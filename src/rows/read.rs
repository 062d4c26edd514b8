//! Reading [`RowsOptions`] from a JSON tree: the members written once, so the generated
//! declarations (`src/types.d.ts`), the reference (`docs/rows.md`) and every shell (npm, the
//! CLI, the page, Python) take one list with its defaults, names and limits.

use std::collections::BTreeMap;

use super::{EpochUnit, Format, NullPolicy, RowsOptions};
use crate::limits::MAX_REPLAY_BYTES;
use crate::support::json::{bool_, object_reader, string, unit, Json, Node, R};

/// The formats by the names users write (`--format`).
const FORMATS: [(&str, Format); 5] = [
    ("csv", Format::Csv),
    ("jsonl", Format::JsonLines),
    ("parquet", Format::Parquet),
    ("arrow", Format::ArrowFile),
    ("arrow-stream", Format::ArrowStream),
];
const NULLS: [(&str, NullPolicy); 2] = [("error", NullPolicy::Error), ("skip", NullPolicy::Skip)];
const EPOCHS: [(&str, EpochUnit); 5] = [
    ("auto", EpochUnit::Auto),
    ("s", EpochUnit::S),
    ("ms", EpochUnit::Ms),
    ("us", EpochUnit::Us),
    ("ns", EpochUnit::Ns),
];

fn rows_format(n: &Node) -> R<Format> {
    unit(n, &FORMATS)
}
fn null_policy(n: &Node) -> R<NullPolicy> {
    unit(n, &NULLS)
}
fn epoch_unit(n: &Node) -> R<EpochUnit> {
    unit(n, &EPOCHS)
}

/// Field name to column name: an object of strings.
fn column_map(n: &Node) -> R<BTreeMap<String, String>> {
    let Json::Obj(entries) = &n.v else {
        return Err(n.invalid_type("an object of field name to column name"));
    };
    let mut out = BTreeMap::new();
    for (k, _, v) in entries {
        out.insert(k.clone(), string(v).map_err(|e| e.key(k))?);
    }
    Ok(out)
}

/// One character.
fn delimiter(n: &Node) -> R<char> {
    let s = string(n)?;
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok(c),
        _ => Err(n.error(format!(
            "a delimiter is one character, not {} (`{s}`)",
            s.chars().count()
        ))),
    }
}

object_reader! {
    /// [`RowsOptions`]: every member optional.
    pub fn rows_options(n) -> RowsOptions; "struct RowsOptions";
    /// How a file's rows meet the design, as [`rows_options`] reads them.
    table ROWS_OPTIONS;
    RowsOptions {
        /// The format; by default from the file's first bytes (a binary format's magic
        /// number), else the name's extension, else JSON Lines when it starts with `{`, else CSV.
        format: opt("format", rows_format) of FORMATS,
        /// The file's name: its extension tells the format, and messages name it.
        name: opt("name", string),
        /// Field name to column name, where they differ.
        map: or("map", column_map, BTreeMap::new()) = "{}",
        /// The column holding each row's write time: windows are cut by it, whatever the rows'
        /// order. Without it rows are written in arrival order at the workload's rate.
        time: opt("time", string),
        /// A row whose key reads a null: `error` stops naming the row and the column, `skip`
        /// skips it and counts it per column.
        nulls: or("nulls", null_policy, NullPolicy::Error) = "\"error\"" of NULLS,
        /// The unit of integer times (a `timestamp` field, the time column); `auto` by
        /// magnitude.
        epoch: or("epoch", epoch_unit, EpochUnit::Auto) = "\"auto\"" of EPOCHS,
        /// The CSV delimiter; by default a tab for `.tsv`, else the header's first of `,` tab
        /// `;` `|`.
        delimiter: opt("delimiter", delimiter),
        /// Count a profile of the rows in the first pass (`RowsSession.profile()`).
        profile: or("profile", bool_, false) = "false",
        /// Most bytes of rows the first pass keeps so the analysis counts them from memory
        /// (each row's key, qualifier and time); past it the file is read again. 0 reads the
        /// file twice; by default, and at most, 256 MiB (`limits::MAX_REPLAY_BYTES`).
        keep_bytes: opt("keepBytes", crate::support::json::u64_) in 0 ..= MAX_REPLAY_BYTES,
    }
}

crate::support::json::deserialize_through! {
    RowsOptions => rows_options,
}
