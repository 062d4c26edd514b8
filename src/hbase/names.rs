//! The names HBase accepts: a table's (`TableName.isLegalFullyQualifiedTableName`), a
//! snapshot's (`isLegalTableQualifierName(…, true)`) and a column family's
//! (`ColumnFamilyDescriptorBuilder.isLegalColumnFamilyName`). A name HBase would refuse is
//! refused before it is written into a statement, so a printed statement never holds a name
//! that could end its string or comment.

/// Why `name` is not a table name HBase accepts, and the byte where it goes wrong: a namespace
/// of `[a-zA-Z_0-9]` and `:` (optional), then a qualifier of `[a-zA-Z_0-9-.]` that starts with
/// neither `.` nor `-`. HBase splits at the last `:`, so a second one is an illegal namespace
/// character.
pub fn table_name_error(name: &str) -> Option<(usize, String)> {
    if name.is_empty() {
        return Some((0, "a table name cannot be empty".into()));
    }
    let (start, qualifier) = match name.rfind(':') {
        Some(at) => {
            let namespace = &name[..at];
            if namespace.is_empty() {
                return Some((0, "the namespace before `:` is empty".into()));
            }
            if let Some((i, c)) = namespace
                .char_indices()
                .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
            {
                return Some((
                    i,
                    format!(
                        "{} at byte {i}: a namespace holds only [a-zA-Z_0-9]",
                        char_text(c)
                    ),
                ));
            }
            (at + 1, &name[at + 1..])
        }
        None => (0, name),
    };
    qualifier_error(qualifier, "table").map(|(i, why)| (start + i, why))
}

/// Why `name` is not a snapshot name HBase accepts (a table qualifier: no namespace, no `:`).
pub fn snapshot_name_error(name: &str) -> Option<(usize, String)> {
    qualifier_error(name, "snapshot")
}

fn qualifier_error(q: &str, what: &str) -> Option<(usize, String)> {
    let Some(first) = q.chars().next() else {
        return Some((0, format!("an empty {what} qualifier")));
    };
    if first == '.' || first == '-' {
        return Some((
            0,
            format!(
                "a {what} name cannot start with `{first}`: it starts with one of [a-zA-Z_0-9]"
            ),
        ));
    }
    q.char_indices()
        .find(|(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
        .map(|(i, c)| {
            (
                i,
                format!(
                    "{} at byte {i}: a {what} name holds only [a-zA-Z_0-9-.] (and `:` after a namespace)",
                    char_text(c)
                ),
            )
        })
}

/// Why `name` is not a column family name HBase accepts: not empty, not starting with `.`, no
/// `:` `\` `/`, not `recovered.edits`; and no control character (HBase refuses those of ASCII;
/// a C1 one is refused too, as a terminal may act on it).
pub fn family_name_error(name: &str) -> Option<(usize, String)> {
    if name.is_empty() {
        return Some((0, "a column family name cannot be empty".into()));
    }
    if name.starts_with('.') {
        return Some((0, "a column family name cannot start with `.`".into()));
    }
    if let Some((i, c)) = name
        .char_indices()
        .find(|(_, c)| c.is_control() || matches!(c, ':' | '\\' | '/'))
    {
        return Some((
            i,
            format!(
                "{} at byte {i}: a column family name holds no control character, `:`, `\\` or `/`",
                char_text(c)
            ),
        ));
    }
    (name == "recovered.edits").then(|| {
        (
            0,
            "a column family cannot be named `recovered.edits` (HBase's directory of edits)".into(),
        )
    })
}

/// A character as a message shows it: printable ones in backquotes, others by code point (an
/// ESC or a line break in an error message would act on the terminal that prints it).
fn char_text(c: char) -> String {
    if c.is_control() || c.is_whitespace() {
        format!("U+{:04X}", u32::from(c))
    } else {
        format!("`{c}`")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names_as_hbase_reads_them() {
        for ok in ["t", "T_1", "ns:t", "a.b-c", "default:x.y", "0"] {
            assert_eq!(table_name_error(ok), None, "{ok}");
        }
        for (bad, at) in [
            ("", 0),
            (":t", 0),
            ("ns:", 3),
            ("-t", 0),
            ("ns:.t", 3),
            ("t'", 1),
            ("a b", 1),
            ("n-s:t", 1),
            ("a:b:c", 1),
            ("t\u{1b}[2J", 1),
            ("t\nx", 1),
            ("é", 0),
        ] {
            let e = table_name_error(bad);
            assert_eq!(e.as_ref().map(|e| e.0), Some(at), "{bad:?}: {e:?}");
        }
        assert!(table_name_error("t\u{1b}")
            .unwrap()
            .1
            .contains("U+001B at byte 1"));
    }

    #[test]
    fn snapshot_and_family_names() {
        assert_eq!(snapshot_name_error("t_rekey"), None);
        assert_eq!(snapshot_name_error("ns:t").map(|e| e.0), Some(2));
        for ok in ["cf", "d", "f'x", "a b", "é"] {
            assert_eq!(family_name_error(ok), None, "{ok}");
        }
        for (bad, at) in [
            ("", 0),
            (".f", 0),
            ("a:b", 1),
            ("a/b", 1),
            ("a\\b", 1),
            ("a\nb", 1),
            ("a\u{9b}b", 1),
            ("recovered.edits", 0),
        ] {
            assert_eq!(family_name_error(bad).map(|e| e.0), Some(at), "{bad:?}");
        }
    }
}
