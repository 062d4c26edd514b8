//! The key language's functions as a user meets them in an editor: name, signature and a
//! one-line help, for completion and for the help shown under the caret. The parser's
//! "unknown segment" error lists the same names, and a test holds this table to the parser
//! (each example parses; each name the parser takes is here), so the two cannot drift.

use serde::Serialize;

/// One function of the key language's text form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct KeyFunction {
    /// The name as written before `(`.
    pub name: &'static str,
    /// Its arguments, as docs/keyspec.md writes them.
    pub signature: &'static str,
    /// What it writes, in a line.
    pub help: &'static str,
    /// A call that parses, to insert or to learn from.
    pub example: &'static str,
}

const fn f(
    name: &'static str,
    signature: &'static str,
    help: &'static str,
    example: &'static str,
) -> KeyFunction {
    KeyFunction {
        name,
        signature,
        help,
        example,
    }
}

/// Every function, in the order docs/keyspec.md presents them.
pub const FUNCTIONS: &[KeyFunction] = &[
    f(
        "field",
        "field(f)",
        "the field's value as Bytes.toBytes of its declared type (a bare field name does the same)",
        "field(f)",
    ),
    f(
        "str",
        "str(f)",
        "the value's Java text (String.valueOf) as UTF-8",
        "str(f)",
    ),
    f(
        "fixed",
        "fixed(f, W, pad=\" \", side=right|left, overflow=reject|truncate)",
        "the text padded to W bytes (pad byte 00 by default)",
        "fixed(f, 8)",
    ),
    f(
        "dec",
        "dec(f, W)",
        "a non-negative integer as W zero-padded digits (%0Wd)",
        "dec(f, 10)",
    ),
    f(
        "long",
        "long(f[, sortable])",
        "8-byte big-endian two's complement; sortable flips the sign bit",
        "long(f)",
    ),
    f(
        "int",
        "int(f[, sortable])",
        "4-byte big-endian two's complement",
        "int(f)",
    ),
    f(
        "short",
        "short(f[, sortable])",
        "2-byte big-endian two's complement",
        "short(f)",
    ),
    f(
        "double",
        "double(f[, sortable])",
        "raw IEEE-754 bits; sortable makes the bytes sort like numbers",
        "double(f)",
    ),
    f(
        "float",
        "float(f[, sortable])",
        "raw IEEE-754 bits (4 bytes)",
        "float(f)",
    ),
    f("bool", "bool(f)", "ff for true, 00 for false", "bool(f)"),
    f(
        "bigDecimal",
        "bigDecimal(f)",
        "4-byte scale, then the unscaled value in two's complement",
        "bigDecimal(f)",
    ),
    f(
        "salt",
        "salt(src?, N, hash=javaString|arrays|md5|phoenix|hbasewd|opentsdb, mod=M, as=R)",
        "the source's bucket in 0..N (without a source: the rest of the key), written as R",
        "salt(f, 16)",
    ),
    f(
        "random",
        "random(N, seed=S, as=R)",
        "a seeded random bucket in 0..N, for write-only tables",
        "random(8)",
    ),
    f(
        "hash15",
        "hash15(src?)",
        "(short)(hashCode & 0x7FFF) of the source text (2 bytes)",
        "hash15(f)",
    ),
    f(
        "md5",
        "md5(src?)",
        "the raw 16-byte MD5 digest of the source",
        "md5(f)",
    ),
    f(
        "md5Hex",
        "md5Hex(src?, L, upper)",
        "MD5Hash.getMD5AsHex of the source, its first L characters",
        "md5Hex(f, 8)",
    ),
    f(
        "reverse",
        "reverse(f)",
        "the text reversed (StringBuilder.reverse) as UTF-8",
        "reverse(f)",
    ),
    f(
        "revts",
        "revts(f, div=D, as=R)",
        "Long.MAX_VALUE - ts (/ D): the newest row sorts first",
        "revts(f)",
    ),
    f(
        "time",
        "time(f, \"pattern\", unit=ms|s)",
        "the timestamp formatted in UTC (yyyyMMddHHmmss …)",
        "time(f, \"yyyyMMdd\")",
    ),
    f(
        "bucket",
        "bucket(f, mod=N | div=P, as=R)",
        "ts % N or floor(ts / P): a time bucket",
        "bucket(f, div=3600000)",
    ),
    f(
        "dict",
        "dict(f, [\"a\"=1, ...], as=R)",
        "the value's id from a table (default an 8-byte long)",
        "dict(f, [\"a\"=1, \"b\"=2])",
    ),
    f(
        "tag",
        "tag(f, [\"customer\"=1, ...], as=R)",
        "a record-type tag: like dict, one byte by default",
        "tag(f, [\"a\"=1])",
    ),
    f(
        "when",
        "when(f, \"v\" | [\"v\", ...], segments)",
        "the segments, only for records whose field is one of the values",
        "when(f, \"a\", long(f))",
    ),
    f(
        "uid",
        "uid(f, W[, [\"a\"=1, ...]])",
        "OpenTSDB: the value's UID, big-endian on W bytes",
        "uid(f, 3)",
    ),
    f(
        "baseTime",
        "baseTime(f)",
        "OpenTSDB: Internal.baseTime, ts - ts % 3600 s as a 4-byte int",
        "baseTime(f)",
    ),
    f(
        "tags",
        "tags(values, tagk=[\"host\"=1, ...], width=W)",
        "OpenTSDB: each value after its tag key's UID, sorted by UID",
        "tags(f, tagk=[\"f\"=1])",
    ),
    f(
        "pk",
        "pk(f, TYPE(len, scale), desc, nullable)",
        "Phoenix: a primary-key column as PTableImpl.newKey writes it (consecutive pk(...) are one key)",
        "pk(f, VARCHAR)",
    ),
];

/// The names, comma-separated, for the parser's "unknown segment" message.
pub(crate) fn names() -> String {
    FUNCTIONS
        .iter()
        .map(|f| f.name)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keyspec::KeySpec;

    #[test]
    fn every_example_parses_as_its_function() {
        for f in FUNCTIONS {
            let spec = KeySpec::parse_text(f.example)
                .unwrap_or_else(|e| panic!("{}: {} does not parse: {e}", f.name, f.example));
            assert!(f.example.starts_with(&format!("{}(", f.name)), "{}", f.name);
            assert!(!spec.segments.is_empty(), "{}", f.name);
            assert!(
                f.signature.starts_with(&format!("{}(", f.name)),
                "{}",
                f.signature
            );
        }
    }

    /// Every name the parser's `lower_call` matches (read from its source, so a function
    /// added there without a line here fails) is in the table, under its canonical name
    /// or as a lower-case alias.
    #[test]
    fn every_name_the_parser_takes_is_listed() {
        let src = include_str!("parse/lower.rs");
        let body = src
            .split("fn lower_call(")
            .nth(1)
            .and_then(|s| s.split("other =>").next())
            .expect("lower_call's match");
        let mut seen = 0;
        // the arms' patterns: `"a" | "b" =>` at the start of a line
        let patterns = body.lines().filter_map(|l| {
            let (pat, _) = l.trim_start().split_once("=>")?;
            pat.starts_with('"').then_some(pat)
        });
        for pat in patterns {
            for name in pat.split('"').skip(1).step_by(2) {
                seen += 1;
                assert!(
                    FUNCTIONS
                        .iter()
                        .any(|f| f.name == name || f.name.to_lowercase() == name),
                    "`{name}` is parsed but not in FUNCTIONS"
                );
            }
        }
        assert!(seen >= FUNCTIONS.len(), "read {seen} names");
    }

    #[test]
    fn an_unknown_function_lists_them_all() {
        let e = KeySpec::parse_text("nosuch(f)").unwrap_err().to_string();
        for f in FUNCTIONS.iter().filter(|f| f.name != "field") {
            assert!(e.contains(f.name), "{} missing from: {e}", f.name);
        }
    }
}
