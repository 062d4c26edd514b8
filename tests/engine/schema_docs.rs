//! One schema source: the input half of `src/types.d.ts` and the member tables of
//! `docs/design-document.md` are written from the engine's reader tables (each member's key,
//! kind, default, range, names and doc string; `advise::schema()`), between
//! `generated` markers. This test fails when the committed text differs from what the tables
//! give; `ROWKEY_WRITE_SCHEMA=1 cargo test --test engine schema_docs` (or
//! `scripts/schema-docs.sh`) writes it.

// The doc strings and reader names are in native builds only: the wasm carries none of them.
#![cfg(not(target_arch = "wasm32"))]
// A failed assertion is how a test reports; the no-panic rule is for the library.
#![allow(clippy::panic)]

use rowkey_lab::design::schema::{Member, Schema, Variant};

/// A doc string as one line (the reader tables keep `///` lines as written).
fn prose(doc: &str) -> String {
    doc.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The name a member's reader is known by: `f` of `a::b::f`, `X[]` of `|n| list(n, X)`.
fn reader_name(reader: &str) -> (String, bool) {
    let r = reader.replace(' ', "");
    if let Some(inner) = r
        .strip_prefix("|n|list(n,")
        .and_then(|s| s.strip_suffix(')'))
    {
        return (inner.rsplit("::").next().unwrap_or(inner).to_string(), true);
    }
    (r.rsplit("::").next().unwrap_or(&r).to_string(), false)
}

/// A `json` member's TypeScript type and its words in the reference, by its reader.
fn by_reader(name: &str) -> (&'static str, &'static str) {
    match name {
        "generator" => ("Generator", "[object](#generators)"),
        "key_spec" => ("KeySpecJson | string", "string or object"),
        "field_decl" => ("FieldDecl", "[fields](#fields)"),
        "workload" => ("WorkloadSpec", "[object](#workload)"),
        "region_layout" => ("RegionLayout", "[object](#regions)"),
        "cell_spec" => ("CellSpec", "[object](#cells)"),
        "table_spec" => ("TableSpec", "[object](#hbase)"),
        "read_pattern" => ("ReadPattern", "[reads](#reads)"),
        "example" => ("Example", "[examples](#examples)"),
        "section" => ("PhoenixSection", "[object](#phoenix)"),
        "column" => ("PhoenixColumnDecl", "objects"),
        "index" => ("PhoenixIndex", "objects"),
        "indexed_column" => ("IndexedColumn", "objects"),
        "string" => ("string", "strings"),
        "presplit" => ("PreSplit", "[object](#presplit)"),
        "auto_split" => ("AutoSplit", "[object](#autosplit)"),
        "assignment" => ("{ servers: string[] }", "string or object"),
        "split_policy" => ("SplitPolicy", "object"),
        "split_config" => ("SplitConfig", "object"),
        "qualifier" => ("Qualifier", "object"),
        "capacity_options" => ("CapacityOptions", "object"),
        "split_over" => (
            "Partial<SplitConfig>",
            "object: [`config`](#autosplit)'s members",
        ),
        "compaction_over" => ("LifeCompactionOptions", "[object](#lifecompactionoptions)"),
        "normalizer_over" => ("LifeNormalizerOptions", "[object](#lifenormalizeroptions)"),
        "balancer_over" => ("LifeBalancerOptions", "[object](#lifebalanceroptions)"),
        "index_name" => ("string", "string"),
        "segments" => ("Segment[]", "array of segments"),
        "dict_entries" => ("{ [value: string]: number }", "object"),
        "values" => ("JsonValue[]", "array"),
        "f64s" => ("number[]", "array of numbers"),
        "value" => ("JsonValue", "any"),
        "render" => ("Render", "string or object"),
        "hex_key" => ("string", "string"),
        "column_map" => ("Record<string, string>", "object of strings"),
        "delimiter" => ("string", "one character"),
        other => {
            panic!("map the reader `{other}` to a TypeScript type in tests/engine/schema_docs.rs")
        }
    }
}

/// The member's TypeScript type.
fn ts_type(m: &Member) -> String {
    let names = m
        .options
        .iter()
        .map(|o| format!("'{o}'"))
        .collect::<Vec<_>>()
        .join(" | ");
    let base = match m.value {
        "integer" | "number" => "number".to_string(),
        "boolean" => "boolean".to_string(),
        "time" | "bytes" => "number | string".to_string(),
        "strings" => "string[]".to_string(),
        "record" => "KeyRecord".to_string(),
        "phoenixType" => "PhoenixType".to_string(),
        "string" if !names.is_empty() => return names,
        "string" => "string".to_string(),
        _ => {
            let (name, list) = reader_name(m.reader);
            if !m.options.is_empty() && m.value == "json" && name != "assignment" {
                return names;
            }
            let (ts, _) = by_reader(&name);
            let ts = if list {
                format!("{ts}[]")
            } else {
                ts.to_string()
            };
            if names.is_empty() {
                ts
            } else {
                format!("{names} | {ts}")
            }
        }
    };
    base
}

/// The member's type in words, for the reference.
fn doc_type(m: &Member) -> String {
    match m.value {
        "integer" | "number" => "number".into(),
        "boolean" => "boolean".into(),
        "time" => "number or text".into(),
        "bytes" => "bytes: number or text".into(),
        "strings" => "array of strings".into(),
        "record" => "object".into(),
        "phoenixType" => "string".into(),
        "string" => "string".into(),
        _ => {
            let (name, list) = reader_name(m.reader);
            if !m.options.is_empty() && name != "assignment" {
                return "string".into();
            }
            let (_, words) = by_reader(&name);
            if list {
                format!("array of {words}")
            } else {
                words.to_string()
            }
        }
    }
}

/// A number as the reference writes it: 10,000,000,000.
fn grouped(x: f64) -> String {
    let digits = format!("{}", x.abs() as u64);
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if x < 0.0 {
        format!("-{out}")
    } else {
        out
    }
}

/// The member's default as JSON text with its spaces normalized.
fn default_text(m: &Member) -> Option<String> {
    m.default.map(|d| {
        serde_json::from_str::<serde_json::Value>(d)
            .map(|v| v.to_string())
            .unwrap_or_else(|e| panic!("{}: {d}: {e}", m.key))
    })
}

/// One TypeScript member line (with its doc comment) of `m`; of an option (`nulls`), a
/// member the reader takes `null` for says `| null`.
fn ts_member(m: &Member, indent: &str, nulls: bool) -> String {
    let mut doc = prose(m.doc);
    if let Some(d) = default_text(m) {
        doc.push_str(&format!(" Default: `{d}`."));
    }
    match m.range {
        Some(&[lo, hi]) if lo < hi => {
            doc.push_str(&format!(" From {} to {}.", grouped(lo), grouped(hi)));
        }
        _ => {}
    }
    // (the document's reader also takes null for a member without a default; results never
    // hold it; an option passed as null is said so)
    let q = if m.required { "" } else { "?" };
    let null = if nulls && m.takes_null { " | null" } else { "" };
    format!(
        "{indent}/** {} */\n{indent}{}{q}: {}{null};\n",
        doc.trim(),
        m.key,
        ts_type(m)
    )
}

/// An interface of an object table (`nulls`: of options, see [`ts_member`]).
fn ts_interface(name: &str, members: &[Member], nulls: bool) -> String {
    let mut s = format!("export interface {name} {{\n");
    for m in members {
        s.push_str(&ts_member(m, "  ", nulls));
    }
    s.push_str("}\n");
    s
}

/// A union of a tagged table's variants.
fn ts_union(name: &str, tag: &str, doc: &str, table: &[Variant]) -> String {
    let mut s = format!("/** {doc} */\nexport type {name} =\n");
    for v in table {
        s.push_str(&format!("  /** {} */\n  | {{\n", prose(v.doc)));
        s.push_str(&format!("      {tag}: '{}';\n", v.name));
        for m in v.members {
            s.push_str(&ts_member(m, "      ", false));
        }
        s.push_str("    }\n");
    }
    s.pop();
    s.push_str(";\n");
    s
}

/// The input half of `types.d.ts`.
fn typescript(schema: &Schema) -> String {
    let mut s = String::from(
        "// Written from the engine's reader tables by tests/engine/schema_docs.rs: edit the doc strings\n\
         // there (src/**/read.rs), then run scripts/schema-docs.sh.\n",
    );
    for (name, members) in schema.objects {
        s.push_str(&ts_interface(name, members, false));
    }
    for (name, members) in schema.options {
        s.push_str(&ts_interface(name, members, true));
    }
    let unions: [(&str, &str, &str, &[Variant]); 6] = [
        (
            "SegmentSpec",
            "kind",
            "One key segment in the JSON form, as the engine reads it.",
            schema.segments,
        ),
        (
            "Generator",
            "kind",
            "How a field's values are generated (`fields[].generator`).",
            schema.generators,
        ),
        (
            "PreSplit",
            "kind",
            "The split keys a table is created with (`regions.presplit`).",
            schema.presplits,
        ),
        (
            "SplitPolicy",
            "type",
            "An auto-split policy (`regions.autoSplit.policy`).",
            schema.split_policies,
        ),
        (
            "ReadPattern",
            "type",
            "A read the table must serve (`reads[]`).",
            schema.reads,
        ),
        (
            "Qualifier",
            "kind",
            "A write's column qualifier, computed from its record (`cells.qualifier`).",
            schema.qualifiers,
        ),
    ];
    for (name, tag, doc, table) in unions {
        s.push_str(&ts_union(name, tag, doc, table));
    }
    s
}

/// A member table of the reference: member, type, default, meaning.
fn md_object(members: &[Member]) -> String {
    let mut s = String::from("| member | type | default | meaning |\n|---|---|---|---|\n");
    for m in members {
        let default = match (m.required, default_text(m)) {
            (true, _) => "required".to_string(),
            (false, Some(d)) => format!("`{d}`"),
            (false, None) => "optional".to_string(),
        };
        let mut meaning = prose(m.doc);
        if !m.options.is_empty() {
            let names: Vec<String> = m.options.iter().map(|o| format!("`\"{o}\"`")).collect();
            meaning.push_str(&format!(" One of {}.", names.join(", ")));
        }
        match m.range {
            Some(&[lo, hi]) if lo < hi => {
                meaning.push_str(&format!(" From {} to {}.", grouped(lo), grouped(hi)));
            }
            _ => {}
        }
        s.push_str(&format!(
            "| `{}` | {} | {default} | {} |\n",
            m.key,
            doc_type(m),
            meaning.replace('|', "\\|")
        ));
    }
    s
}

/// A tagged table of the reference: the tag's value, its members with their defaults, what
/// it is.
fn md_variants(tag: &str, table: &[Variant]) -> String {
    let mut s = format!("| `{tag}` | members (default) | what it is |\n|---|---|---|\n");
    for v in table {
        let members: Vec<String> = v
            .members
            .iter()
            .map(|m| match (m.required, default_text(m)) {
                (true, _) => format!("`{}` (required)", m.key),
                (false, Some(d)) => format!("`{}` (`{d}`)", m.key),
                (false, None) => format!("`{}`", m.key),
            })
            .collect();
        let members = if members.is_empty() {
            "—".to_string()
        } else {
            members.join(", ")
        };
        s.push_str(&format!(
            "| `{}` | {members} | {} |\n",
            v.name,
            prose(v.doc).replace('|', "\\|")
        ));
    }
    s
}

/// The options whose tables the reference has beside the document's: a table's months and
/// their gate, and a rekey (the analysis's and the advisor's are the library's).
const DOCUMENTED_OPTIONS: [&str; 6] = [
    "LifeOptions",
    "LifeCompactionOptions",
    "LifeNormalizerOptions",
    "LifeBalancerOptions",
    "LifeBudgets",
    "RekeyOptions",
];

/// Every generated block of the reference, by its marker's name.
fn reference(schema: &Schema) -> Vec<(String, String)> {
    let documented = schema
        .options
        .iter()
        .filter(|(name, _)| DOCUMENTED_OPTIONS.contains(name));
    let mut out: Vec<(String, String)> = schema
        .objects
        .iter()
        .chain(documented)
        .map(|(name, members)| (name.to_string(), md_object(members)))
        .collect();
    out.push(("generators".into(), md_variants("kind", schema.generators)));
    out.push(("presplits".into(), md_variants("kind", schema.presplits)));
    out.push((
        "splitPolicies".into(),
        md_variants("type", schema.split_policies),
    ));
    out.push(("reads".into(), md_variants("type", schema.reads)));
    out.push(("qualifiers".into(), md_variants("kind", schema.qualifiers)));
    out
}

/// `text` with the block between `open` and `close` replaced by `body`; `None` when the
/// markers are missing.
fn splice(text: &str, open: &str, close: &str, body: &str) -> Option<String> {
    let a = text.find(open)? + open.len();
    let b = a + text[a..].find(close)?;
    Some(format!("{}\n{body}{}", &text[..a], &text[b..]))
}

/// What `path` holds, and what it should hold.
fn check_or_write(path: &str, expected: &str, actual: &str) -> Option<String> {
    if expected == actual {
        return None;
    }
    if std::env::var_os("ROWKEY_WRITE_SCHEMA").is_some() {
        std::fs::write(path, expected).unwrap_or_else(|e| panic!("{path}: {e}"));
        return None;
    }
    let line = expected
        .lines()
        .zip(actual.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(0);
    Some(format!(
        "{path} is not what the reader tables give (first difference at line {}): run scripts/schema-docs.sh",
        line + 1
    ))
}

fn root(rel: &str) -> String {
    format!("{}/{rel}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_declarations_are_the_reader_tables() {
    let path = root("src/types.d.ts");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let body = typescript(&rowkey_lab::advise::schema());
    let want = splice(
        &text,
        "// <generated: schema>",
        "// </generated: schema>",
        &body,
    )
    .unwrap_or_else(|| panic!("{path}: no `// <generated: schema>` block"));
    if let Some(problem) = check_or_write(&path, &want, &text) {
        panic!("{problem}");
    }
}

#[test]
fn the_reference_tables_are_the_reader_tables() {
    let path = root("docs/design-document.md");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut want = text.clone();
    for (name, body) in reference(&rowkey_lab::advise::schema()) {
        let open = format!("<!-- generated: {name} -->");
        let close = format!("<!-- end generated: {name} -->");
        want = splice(&want, &open, &close, &body)
            .unwrap_or_else(|| panic!("{path}: no `{open}` block"));
    }
    if let Some(problem) = check_or_write(&path, &want, &text) {
        panic!("{problem}");
    }
}

#[test]
fn the_rows_options_table_is_the_reader_table() {
    // How a file of rows meets the design: the library's reference lists its members as the
    // engine reads them (npm, the CLI, the page and Python take the same list).
    let path = root("docs/library.md");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let schema = rowkey_lab::advise::schema();
    let (_, members) = schema
        .options
        .iter()
        .find(|(name, _)| *name == "RowsOptions")
        .expect("RowsOptions among the schema's options");
    let want = splice(
        &text,
        "<!-- generated: RowsOptions -->",
        "<!-- end generated: RowsOptions -->",
        &md_object(members),
    )
    .unwrap_or_else(|| panic!("{path}: no `<!-- generated: RowsOptions -->` block"));
    if let Some(problem) = check_or_write(&path, &want, &text) {
        panic!("{problem}");
    }
}

#[test]
fn every_member_has_its_doc_string() {
    // The prose is what the generated text says: a member without it would be a bare key.
    let s = rowkey_lab::advise::schema();
    let mut bare = Vec::new();
    for (name, members) in s.objects.iter().chain(s.options.iter()) {
        for m in members.iter().filter(|m| prose(m.doc).is_empty()) {
            bare.push(format!("{name}.{}", m.key));
        }
    }
    for table in [
        s.segments,
        s.generators,
        s.presplits,
        s.split_policies,
        s.reads,
        s.qualifiers,
    ] {
        for v in table {
            if prose(v.doc).is_empty() {
                bare.push(v.name.to_string());
            }
            for m in v.members.iter().filter(|m| prose(m.doc).is_empty()) {
                bare.push(format!("{}.{}", v.name, m.key));
            }
        }
    }
    assert!(bare.is_empty(), "without a doc string: {bare:?}");
}

#[test]
fn splice_replaces_only_between_the_markers() {
    assert_eq!(
        splice("a\n<x>\nold\n</x>\nb", "<x>", "</x>", "new\n").as_deref(),
        Some("a\n<x>\nnew\n</x>\nb")
    );
    assert_eq!(splice("no markers", "<x>", "</x>", ""), None);
    assert_eq!(grouped(10_000_000_000.0), "10,000,000,000");
    assert_eq!(grouped(64.0), "64");
}
