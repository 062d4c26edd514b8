//! Keeps `docs/design-document.md` honest: every ```` ```json ```` block in it is read and run
//! the way `rowkey-lab check` reads and runs a design.
//!
//! Marker convention. HTML comment lines (invisible when the Markdown is rendered) directly
//! above a ```` ```json ```` fence, with no blank line between them and the fence, say what
//! the block is:
//!
//! * no marker: a **whole design document**. It must have a top-level `"v"`; a block without
//!   one and without a `fragment` marker is a failure (shapes that are not meant to be
//!   checked go in ```` ```text ```` blocks).
//! * `<!-- base: NAME -->`: a whole document that later fragments build on, under `NAME`
//!   (one word).
//! * `<!-- fragment: NAME /json/pointer -->`: a **fragment** (a `regions` object, a field
//!   declaration, a read, ...). It is put at that JSON pointer into a copy of the base `NAME`
//!   declared above it, replacing what is there (the parents must exist in the base; an array
//!   index equal to the array's length appends).
//! * `<!-- error: /json/pointer -->`: the block (whole, or a fragment once placed) is **wrong
//!   on purpose**: reading or running it must fail, and the error's `location.path` must equal
//!   the pointer. A wrong document cannot be a base.
//!
//! Every document (a whole one, or a base with a fragment placed) must pass [`run`]: it
//! parses with `DesignDocument::from_json`, `analyze` succeeds with the default options,
//! every read plans over the table's pre-split, the linter finds no error (what `check` fails
//! on by default), and each example's `key` (hex) and `keyBinary` are what the key design
//! encodes its record to. The doc must hold at least one whole document, and any failing block
//! fails the test with its line number.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use rowkey_lab::analyze::{analyze, AnalysisRun, AnalyzeOptions};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::design::Severity;
use rowkey_lab::keyspec::CompiledKey;
use rowkey_lab::{Error, ErrorKind};
use serde_json::Value;

/// What a block is, from the markers above it.
#[derive(Debug, Default)]
struct Markers {
    base: Option<String>,
    /// The base's name and the pointer.
    fragment: Option<(String, String)>,
    error: Option<String>,
}

/// One ```` ```json ```` block: its first line (1-based, the fence), markers and text.
#[derive(Debug)]
struct Block {
    line: usize,
    markers: Markers,
    text: String,
}

/// What the check of a Markdown text found.
#[derive(Debug, Default, PartialEq)]
struct Summary {
    whole: usize,
    fragments: usize,
    errors: usize,
}

impl Summary {
    fn blocks(&self) -> usize {
        self.whole + self.fragments
    }
}

/// Every ```` ```json ```` block of `md`, with the markers directly above it. Other fenced
/// blocks are skipped whole (a ```` ```json ```` line inside one is not a block).
fn json_blocks(md: &str) -> Result<Vec<Block>, String> {
    let lines: Vec<&str> = md.lines().collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let fence = lines[i].trim();
        if !fence.starts_with("```") {
            i += 1;
            continue;
        }
        let start = i;
        let mut end = i + 1;
        while end < lines.len() && lines[end].trim() != "```" {
            end += 1;
        }
        if end == lines.len() {
            return Err(format!("line {}: the fence is never closed", start + 1));
        }
        if fence == "```json" {
            let mut markers = Markers::default();
            let mut k = start;
            while k > 0 {
                let above = lines[k - 1].trim();
                let Some(inner) = above
                    .strip_prefix("<!--")
                    .and_then(|s| s.strip_suffix("-->"))
                else {
                    break;
                };
                let inner = inner.trim();
                if let Some(p) = inner.strip_prefix("fragment:") {
                    let (name, pointer) = p.trim().split_once(' ').ok_or_else(|| {
                        format!(
                            "line {k}: `{above}`: a fragment marker is `fragment: NAME /pointer`"
                        )
                    })?;
                    markers.fragment = Some((name.to_string(), pointer.trim().to_string()));
                } else if let Some(name) = inner.strip_prefix("base:") {
                    markers.base = Some(name.trim().to_string());
                } else if let Some(p) = inner.strip_prefix("error:") {
                    markers.error = Some(p.trim().to_string());
                } else {
                    return Err(format!(
                        "line {k}: unknown marker `{above}` (expected `<!-- base: NAME -->`, `<!-- fragment: NAME /pointer -->` or `<!-- error: /pointer -->`)"
                    ));
                }
                k -= 1;
            }
            blocks.push(Block {
                line: start + 1,
                markers,
                text: lines[start + 1..end].join("\n"),
            });
        }
        i = end + 1;
    }
    Ok(blocks)
}

/// `doc` with `value` at JSON pointer `pointer` (the parents must exist; an index equal to the
/// array's length appends).
fn place(mut doc: Value, pointer: &str, value: Value) -> Result<Value, String> {
    let tokens: Vec<String> = pointer
        .strip_prefix('/')
        .ok_or_else(|| format!("`{pointer}` is not a JSON pointer (it starts with `/`)"))?
        .split('/')
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect();
    let Some((last, parents)) = tokens.split_last() else {
        return Err("empty pointer".into());
    };
    let mut at = &mut doc;
    for t in parents {
        at = match at {
            Value::Object(m) => m
                .get_mut(t)
                .ok_or_else(|| format!("no member `{t}` on the way to `{pointer}` in the base"))?,
            Value::Array(a) => {
                let i: usize = t
                    .parse()
                    .map_err(|_| format!("`{t}` in `{pointer}` is not an array index"))?;
                a.get_mut(i)
                    .ok_or_else(|| format!("no index {i} in `{pointer}` of the base document"))?
            }
            _ => {
                return Err(format!(
                    "`{pointer}` goes through a value that is not a container"
                ))
            }
        };
    }
    match at {
        Value::Object(m) => {
            m.insert(last.clone(), value);
        }
        Value::Array(a) => {
            let i: usize = last
                .parse()
                .map_err(|_| format!("`{last}` in `{pointer}` is not an array index"))?;
            if i < a.len() {
                a[i] = value;
            } else if i == a.len() {
                a.push(value);
            } else {
                return Err(format!("index {i} of `{pointer}` is past the array's end"));
            }
        }
        _ => {
            return Err(format!(
                "`{pointer}` ends in a value that is not a container"
            ))
        }
    }
    Ok(doc)
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Read and run one design document as `rowkey-lab check` does; the first error.
fn run(text: &str) -> Result<(), Error> {
    let doc = DesignDocument::from_json(text)?;
    let opts = AnalyzeOptions::default();
    analyze(&doc, &opts)?;
    let pre = AnalysisRun::new(&doc, &opts)?;
    doc.plan_reads(pre.analyzer().split_keys())?;
    if let Some(f) = rowkey_lab::design::lint(&doc)
        .into_iter()
        .find(|f| f.severity == Severity::Error)
    {
        return Err(Error::new(
            ErrorKind::Invalid,
            format!("lint error {}: {}", f.rule, f.message),
        )
        .at_path("/key"));
    }
    let mut key = CompiledKey::new(&doc.key, &doc.key_fields())?;
    for (i, ex) in doc.examples.iter().enumerate() {
        let bytes = key.encode_json(&ex.record)?;
        let mismatch = |member: &str, got: String| {
            Error::new(
                ErrorKind::Invalid,
                format!("the record encodes to {got}, the example says otherwise"),
            )
            .at_path(format!("/examples/{i}/{member}"))
        };
        if ex.key.as_ref().is_some_and(|k| *k != hex(&bytes)) {
            return Err(mismatch("key", hex(&bytes)));
        }
        let binary = rowkey_lab::hbase::bytes::to_string_binary(&bytes);
        if ex.key_binary.as_ref().is_some_and(|k| *k != binary) {
            return Err(mismatch("keyBinary", binary));
        }
    }
    Ok(())
}

/// Check every json block of `md`; the failures, one line each, or what was checked.
fn check_markdown(md: &str) -> Result<Summary, Vec<String>> {
    let blocks = json_blocks(md).map_err(|e| vec![e])?;
    let mut failures = Vec::new();
    let mut summary = Summary::default();
    let mut bases: std::collections::BTreeMap<String, Value> = Default::default();
    for b in &blocks {
        let at = format!("line {}", b.line);
        let text = match &b.markers.fragment {
            None => {
                let parsed = serde_json::from_str::<Value>(&b.text).ok();
                if let Some(v) = &parsed {
                    if v.get("v").is_none() {
                        failures.push(format!(
                            "{at}: a json block with no top-level \"v\" and no `<!-- fragment: NAME /pointer -->` marker"
                        ));
                        continue;
                    }
                }
                summary.whole += 1;
                if let Some(name) = &b.markers.base {
                    match (&b.markers.error, parsed) {
                        (None, Some(v)) => {
                            bases.insert(name.clone(), v);
                        }
                        (Some(_), _) => {
                            failures.push(format!(
                                "{at}: a document wrong on purpose cannot be a base"
                            ));
                        }
                        (None, None) => {} // Not JSON: `run` reports it below.
                    }
                }
                b.text.clone()
            }
            Some((name, pointer)) => {
                summary.fragments += 1;
                let Some(doc) = bases.get(name).cloned() else {
                    failures.push(format!(
                        "{at}: no `<!-- base: {name} -->` document above this fragment"
                    ));
                    continue;
                };
                let value = match serde_json::from_str::<Value>(&b.text) {
                    Ok(v) => v,
                    Err(e) => {
                        failures.push(format!("{at}: the fragment is not JSON: {e}"));
                        continue;
                    }
                };
                match place(doc, pointer, value) {
                    Ok(d) => d.to_string(),
                    Err(e) => {
                        failures.push(format!("{at}: {e}"));
                        continue;
                    }
                }
            }
        };
        let result = run(&text);
        match (&b.markers.error, result) {
            (None, Ok(())) => {}
            (None, Err(e)) => failures.push(format!(
                "{at}: {} at {:?} (line {:?}, column {:?}): {}",
                e.kind.name(),
                e.location.path,
                e.location.line,
                e.location.column,
                e.message
            )),
            (Some(want), Ok(())) => failures.push(format!(
                "{at}: marked as an error at {want}, but the document reads and runs"
            )),
            (Some(want), Err(e)) => {
                summary.errors += 1;
                if e.location.path.as_deref() != Some(want.as_str()) {
                    failures.push(format!(
                        "{at}: marked as an error at {want}, but the error is at {:?}: {}",
                        e.location.path, e.message
                    ));
                }
            }
        }
    }
    if summary.whole == 0 {
        failures.push(format!(
            "no whole design document among {} json blocks",
            blocks.len()
        ));
    }
    if failures.is_empty() {
        Ok(summary)
    } else {
        Err(failures)
    }
}

#[test]
fn every_json_block_of_the_design_document_reference_reads_and_runs() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/design-document.md");
    let md = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match check_markdown(&md) {
        Ok(s) => {
            println!(
                "{}: {} json blocks ({} whole documents, {} fragments), {} of them wrong on purpose",
                path.display(),
                s.blocks(),
                s.whole,
                s.fragments,
                s.errors
            );
            assert!(s.blocks() > 0);
        }
        Err(failures) => panic!(
            "{}: {} failing json block(s):\n{}",
            path.display(),
            failures.len(),
            failures.join("\n")
        ),
    }
}

/// The checker itself: it must fail on broken blocks, wrong markers and an empty doc.
#[test]
fn the_checker_fails_on_broken_blocks() {
    let doc = r#"{"v": 1, "fields": [{"name": "id", "type": "long", "generator": {"kind": "sequence"}}],
 "key": "salt(id, 4) + long(id)", "workload": {"records": 200},
 "regions": {"presplit": {"kind": "saltBuckets", "buckets": 4}}}"#;
    let md = |blocks: &[&str]| blocks.join("\n\n");
    let whole = format!("<!-- base: t -->\n```json\n{doc}\n```");
    // A good document and a good fragment pass.
    let good = md(&[
        &whole,
        "<!-- fragment: t /regions/regionServers -->\n```json\n2\n```",
    ]);
    assert_eq!(
        check_markdown(&good),
        Ok(Summary {
            whole: 1,
            fragments: 1,
            errors: 0
        })
    );
    // An error marker with the right path passes and is counted.
    let wrong = md(&[
        &whole,
        "<!-- fragment: t /regions/presplit -->\n<!-- error: /regions/presplit/buckets -->\n```json\n{\"kind\": \"saltBuckets\", \"buckets\": 300}\n```",
    ]);
    assert_eq!(check_markdown(&wrong).map(|s| s.errors), Ok(1));
    let bad = [
        // No json block at all.
        "# Nothing here\n\n```text\n{\"v\": 1}\n```".to_string(),
        // A typo in a whole document.
        whole.replace("\"records\"", "\"recods\""),
        // A fragment that reads but cannot run.
        md(&[
            &whole,
            "<!-- fragment: t /regions/presplit/buckets -->\n```json\n300\n```",
        ]),
        // An unmarked fragment, a fragment of an unknown base, a pointer into nothing.
        md(&[&whole, "```json\n{\"kind\": \"none\"}\n```"]),
        md(&[&whole, "<!-- fragment: u /regions -->\n```json\n{}\n```"]),
        md(&[&whole, "<!-- fragment: t /reads/0/name -->\n```json\n\"x\"\n```"]),
        // An error marker at the wrong path, and one on a block that is fine.
        md(&[
            &whole,
            "<!-- fragment: t /regions/presplit/buckets -->\n<!-- error: /regions -->\n```json\n300\n```",
        ]),
        whole.replace("<!-- base: t -->", "<!-- error: /v -->"),
        // An example whose key is not what the design encodes, and an unknown marker.
        whole.replace(
            "\"workload\"",
            "\"examples\": [{\"record\": {\"id\": 1}, \"key\": \"00\"}], \"workload\"",
        ),
        whole.replace("base: t", "bsae: t"),
    ];
    for (i, text) in bad.iter().enumerate() {
        assert!(
            check_markdown(text).is_err(),
            "bad case {i} passed:\n{text}"
        );
    }
}
