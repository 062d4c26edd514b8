//! HBase shell statements for what the analyzer computed: the `create` that pre-splits a
//! table, its `SPLITS_FILE`, and the `scan`s a read plan runs; and the way back, a table's
//! current regions read from what the shell prints (`region::read_regions`).
//!
//! The shell is JRuby, and it turns a string argument into bytes in one of two ways, so a
//! key is quoted for the path it takes:
//!
//! * `SPLITS` and `SPLITS_FILE` entries go through `Bytes.toBytesBinary` (admin.rb), so they
//!   are `toStringBinary` text in single quotes, where Ruby leaves `\x01` alone;
//! * `STARTROW` and `STOPROW` of `scan` go through `String#to_java_bytes` (table.rb), which
//!   hands Java the Ruby string's own bytes, so they are double-quoted Ruby literals whose
//!   `\xNN` escapes Ruby itself turns into bytes.

use crate::error::Result;
use crate::hbase::bytes::to_string_binary;

/// Quote `text` as a single-quoted Ruby string: only `\` and `'` need a backslash.
pub(crate) fn ruby_single_quoted(text: &str) -> String {
    let mut s = String::with_capacity(text.len() + 2);
    s.push('\'');
    for c in text.chars() {
        if c == '\'' || c == '\\' {
            s.push('\\');
        }
        s.push(c);
    }
    s.push('\'');
    s
}

/// A split key as the text the shell passes to `Bytes.toBytesBinary`: toStringBinary, with a
/// literal backslash-x kept as is (Ruby single quotes leave `\x` alone).
fn shell_key(key: &[u8]) -> String {
    let text = to_string_binary(key);
    let mut s = String::with_capacity(text.len() + 2);
    s.push('\'');
    for c in text.chars() {
        // toStringBinary never emits a bare backslash, only `\xNN`, which must reach
        // toBytesBinary unchanged; a quote must be escaped.
        if c == '\'' {
            s.push('\\');
        }
        s.push(c);
    }
    s.push('\'');
    s
}

/// The HBase shell command that creates the table with these split keys:
/// `create 'ns:t', 'f', SPLITS => ['\x01', '\x02']`.
///
/// The shell (admin.rb) runs every `SPLITS` entry through `Bytes.toBytesBinary`, so the keys
/// are written as toStringBinary text in *single* quotes: Ruby leaves `\x01` in a single-quoted
/// string as the four characters `\`, `x`, `0`, `1`, and toBytesBinary turns them into the
/// byte 0x01. Double quotes would be wrong for bytes >= 0x80: Ruby would decode `"\xFF"`
/// itself into an invalid UTF-8 string, which reaches Java as U+FFFD and becomes byte 0xFD.
/// The text stops at [`MAX_RESULT_BYTES`](crate::limits::MAX_RESULT_BYTES), checked as each
/// key is written (10^4 keys of 32 KiB would need a gigabyte of text).
pub fn shell_create(table: &str, family: &str, keys: &[Vec<u8>]) -> Result<String> {
    shell_create_with(table, family, None, keys)
}

/// [`shell_create`] with the column family's `VERSIONS` when the design keeps more or fewer
/// than HBase's default of one: `create 't', {NAME => 'f', VERSIONS => 3}, SPLITS => […]`,
/// so the table created is the one analyzed.
pub fn shell_create_with(
    table: &str,
    family: &str,
    versions: Option<u32>,
    keys: &[Vec<u8>],
) -> Result<String> {
    let mut s = match versions {
        Some(v) if v != 1 => format!(
            "create {}, {{NAME => {}, VERSIONS => {v}}}",
            ruby_single_quoted(table),
            ruby_single_quoted(family)
        ),
        _ => format!(
            "create {}, {}",
            ruby_single_quoted(table),
            ruby_single_quoted(family)
        ),
    };
    if !keys.is_empty() {
        s.push_str(", SPLITS => [");
        for (i, k) in keys.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            s.push_str(&shell_key(k));
            within_result(&s, "keys")?;
        }
        s.push(']');
    }
    within_result(&s, "keys")?;
    Ok(s)
}

/// `text` within [`MAX_RESULT_BYTES`](crate::limits::MAX_RESULT_BYTES), or the limit error.
fn within_result(text: &str, path: &str) -> Result<()> {
    if text.len() > crate::limits::MAX_RESULT_BYTES {
        return Err(crate::limits::result_too_large(path));
    }
    Ok(())
}

/// The keys as a `SPLITS_FILE` for the shell (`create 't', 'f', SPLITS_FILE => 'splits.txt'`):
/// one toStringBinary key per line. The shell reads each line with `chomp` (older versions
/// with `strip`, which would eat a leading or trailing space), so edge spaces are written as
/// `\x20`, which toBytesBinary reads back as the same byte.
///
/// The text stops at [`MAX_RESULT_BYTES`](crate::limits::MAX_RESULT_BYTES), as
/// [`shell_create`]'s does.
pub fn splits_file(keys: &[Vec<u8>]) -> Result<String> {
    let mut out = String::new();
    for k in keys {
        let text = to_string_binary(k);
        let body = text.trim_matches(' ');
        let lead = text.len() - text.trim_start_matches(' ').len();
        if body.is_empty() {
            out.push_str(&"\\x20".repeat(lead));
        } else {
            let trail = text.len() - text.trim_end_matches(' ').len();
            out.push_str(&"\\x20".repeat(lead));
            out.push_str(body);
            out.push_str(&"\\x20".repeat(trail));
        }
        out.push('\n');
        within_result(&out, "keys")?;
    }
    Ok(out)
}

/// `bytes` as a double-quoted Ruby literal that evaluates to exactly these bytes: printable
/// ASCII as is, `"` `\` `#` escaped (`#` would start `#{…}` interpolation), every other byte
/// as `\xNN` (upper-case hex, as toStringBinary writes it).
fn ruby_double_quoted(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut s = String::with_capacity(bytes.len() + 2);
    s.push('"');
    for &b in bytes {
        match b {
            b'"' | b'\\' | b'#' => {
                s.push('\\');
                s.push(char::from(b));
            }
            0x20..=0x7E => s.push(char::from(b)),
            _ => {
                s.push_str("\\x");
                s.push(char::from(HEX[usize::from(b >> 4)]));
                s.push(char::from(HEX[usize::from(b & 0xF)]));
            }
        }
    }
    s.push('"');
    s
}

/// `split 't', "\x01N1"`: split the region of `table` that holds `key` at it. The shell
/// (admin.rb) hands the split point over with `to_java_bytes`, so the key is a double-quoted
/// Ruby literal, as `STARTROW` is.
pub fn shell_split(table: &str, key: &[u8]) -> String {
    format!(
        "split {}, {}",
        ruby_single_quoted(table),
        ruby_double_quoted(key)
    )
}

/// The HBase shell command that reads `[start, stop)` of `table`:
/// `scan 't', {STARTROW => "\x01abc", STOPROW => "\x01abd"}`. An empty `start` is the
/// table's first row and an empty `stop` its end, as for a `Scan`, so they are left out. A
/// range of one row, `stop` = `start` + `\x00` (what the planner gives a get of a whole key),
/// is the shell's `get 't', "\x01abc"`.
pub fn shell_scan(table: &str, start: &[u8], stop: &[u8]) -> String {
    shell_scan_limited(table, start, stop, None)
}

/// [`shell_scan`] that stops after `limit` rows (`Scan#setLimit`, the shell's `LIMIT`), one
/// more option of the scan. A get reads one row anyway, so it takes no limit.
pub fn shell_scan_limited(table: &str, start: &[u8], stop: &[u8], limit: Option<u64>) -> String {
    if !start.is_empty() && stop.strip_prefix(start) == Some(&[0u8][..]) {
        return format!(
            "get {}, {}",
            ruby_single_quoted(table),
            ruby_double_quoted(start)
        );
    }
    let mut s = format!("scan {}", ruby_single_quoted(table));
    let mut options = Vec::with_capacity(3);
    if !start.is_empty() {
        options.push(format!("STARTROW => {}", ruby_double_quoted(start)));
    }
    if !stop.is_empty() {
        options.push(format!("STOPROW => {}", ruby_double_quoted(stop)));
    }
    if let Some(n) = limit {
        options.push(format!("LIMIT => {n}"));
    }
    if !options.is_empty() {
        s.push_str(", {");
        s.push_str(&options.join(", "));
        s.push('}');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ruby's reading of a double-quoted literal, for the escapes Ruby knows that can appear
    /// here: `\xN` / `\xNN` (one or two hex digits), and a backslash before any other
    /// non-alphanumeric character meaning that character.
    fn ruby_eval(lit: &str) -> Vec<u8> {
        let b = lit.as_bytes();
        assert!(
            b.len() >= 2 && b[0] == b'"' && b[b.len() - 1] == b'"',
            "{lit}"
        );
        let body = &b[1..b.len() - 1];
        let (mut out, mut i) = (Vec::new(), 0);
        while i < body.len() {
            match body[i] {
                b'\\' if body[i + 1] == b'x' => {
                    let digits: Vec<u8> = body[i + 2..]
                        .iter()
                        .take(2)
                        .take_while(|c| c.is_ascii_hexdigit())
                        .copied()
                        .collect();
                    assert!(!digits.is_empty(), "`\\x` without a digit in {lit}");
                    let text = std::str::from_utf8(&digits).unwrap();
                    out.push(u8::from_str_radix(text, 16).unwrap());
                    i += 2 + digits.len();
                }
                b'\\' => {
                    assert!(!body[i + 1].is_ascii_alphanumeric(), "{lit}");
                    out.push(body[i + 1]);
                    i += 2;
                }
                b'"' => panic!("unescaped quote ends the literal early: {lit}"),
                b'#' => {
                    assert!(
                        !matches!(body.get(i + 1), Some(b'{' | b'@' | b'$')),
                        "{lit}"
                    );
                    out.push(b'#');
                    i += 1;
                }
                c => {
                    out.push(c);
                    i += 1;
                }
            }
        }
        out
    }

    #[test]
    fn splits_file_writes_a_keys_edge_spaces_as_x20() {
        // The shell strips each SPLITS_FILE line (older versions): a leading or trailing space
        // written raw would be lost; `\x20` is read back as the same byte by toBytesBinary.
        let text = splits_file(&[b" b".to_vec(), b"a ".to_vec()]).unwrap();
        assert_eq!(text, "\\x20b\na\\x20\n");
        for (line, key) in text.lines().zip([&b" b"[..], b"a "]) {
            assert_eq!(
                line.trim(),
                line,
                "a line the shell's strip would change: {line:?}"
            );
            assert_eq!(crate::hbase::bytes::to_bytes_binary_str(line), key);
        }
    }

    #[test]
    fn scan_of_a_salted_range() {
        assert_eq!(
            shell_scan("calls", b"\x01abc", b"\x01abd"),
            r#"scan 'calls', {STARTROW => "\x01abc", STOPROW => "\x01abd"}"#
        );
        assert_eq!(
            shell_scan("ns:t", b"08_134", b"08_135"),
            r#"scan 'ns:t', {STARTROW => "08_134", STOPROW => "08_135"}"#
        );
    }

    #[test]
    fn one_row_is_a_get() {
        assert_eq!(
            shell_scan("orders", b"\x02100042", b"\x02100042\x00"),
            r#"get 'orders', "\x02100042""#
        );
        // The next prefix is a scan (it also reads longer keys), and so is an empty start.
        assert_eq!(
            shell_scan("orders", b"\x02100042", b"\x02100043"),
            r#"scan 'orders', {STARTROW => "\x02100042", STOPROW => "\x02100043"}"#
        );
        assert_eq!(
            shell_scan("t", b"", b"\x00"),
            r#"scan 't', {STOPROW => "\x00"}"#
        );
        assert_eq!(
            shell_scan("t", b"a", b"a\x00\x00"),
            r#"scan 't', {STARTROW => "a", STOPROW => "a\x00\x00"}"#
        );
    }

    #[test]
    fn open_bounds_are_left_out() {
        assert_eq!(shell_scan("t", b"", b""), "scan 't'");
        assert_eq!(shell_scan("t", b"", b"m"), r#"scan 't', {STOPROW => "m"}"#);
        assert_eq!(shell_scan("t", b"m", b""), r#"scan 't', {STARTROW => "m"}"#);
    }

    #[test]
    fn quotes_backslashes_interpolation_and_high_bytes() {
        assert_eq!(
            ruby_double_quoted(b"a\"b\\c#{d} \x00\x7F\x80\xFF~"),
            r#""a\"b\\c\#{d} \x00\x7F\x80\xFF~""#
        );
        // A hex digit after an escaped byte stays a character: Ruby reads two digits at most.
        assert_eq!(ruby_double_quoted(b"\x012"), r#""\x012""#);
        assert_eq!(ruby_eval(r#""\x012""#), b"\x012");
        assert_eq!(
            shell_scan("it's", b"a", b"b").split(',').next(),
            Some(r"scan 'it\'s'")
        );
    }

    #[test]
    fn every_byte_string_reads_back_in_ruby() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for len in 0..200usize {
            let key: Vec<u8> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x >> 24) as u8
                })
                .collect();
            assert_eq!(ruby_eval(&ruby_double_quoted(&key)), key);
        }
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(ruby_eval(&ruby_double_quoted(&all)), all);
    }

    #[test]
    fn a_limit_joins_the_scan_options() {
        assert_eq!(
            shell_scan_limited("t", b"a", b"b", Some(5)),
            "scan 't', {STARTROW => \"a\", STOPROW => \"b\", LIMIT => 5}"
        );
        assert_eq!(
            shell_scan_limited("t", b"", b"", Some(1)),
            "scan 't', {LIMIT => 1}"
        );
        assert_eq!(
            shell_scan_limited("t", b"a", b"a\0", Some(3)),
            "get 't', \"a\""
        );
        assert_eq!(shell_scan_limited("t", b"", b"", None), "scan 't'");
    }
}
