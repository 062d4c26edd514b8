//! The engine's layers stay layers: every top-level module under `src/` imports only the
//! modules of the layers below it, so the import graph is a DAG whose order is the one
//! `src/lib.rs` documents. A new top-level module fails this test until it is given a layer.

// A failed assertion is how a test reports; the no-panic rule is for the library.
#![allow(clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Bottom to top: a module may import the modules before it, never one after it.
const LAYERS: &[&str] = &[
    "error", "limits", "support", "hbase", "keyspec", "workload", "region", "scan", "design",
    "rows", "analyze", "inspect", "life", "rekey", "advise", "vectors", "calls", "wasm",
];

/// Every `.rs` file of the top-level module `name` (its file and its folder).
fn module_files(src: &Path, name: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let file = src.join(format!("{name}.rs"));
    if file.is_file() {
        files.push(file);
    }
    let mut dirs = vec![src.join(name)];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    files
}

/// The top-level modules under `src/`: `x.rs` files and folders, without `lib.rs`.
fn top_level_modules(src: &Path) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for e in fs::read_dir(src).unwrap_or_else(|e| panic!("{}: {e}", src.display())) {
        let p = e.unwrap_or_else(|e| panic!("{e}")).path();
        let stem = p.file_stem().map(|s| s.to_string_lossy().into_owned());
        match stem {
            Some(s) if p.is_dir() => {
                names.insert(s);
            }
            Some(s) if s != "lib" && p.extension().is_some_and(|x| x == "rs") => {
                names.insert(s);
            }
            _ => {}
        }
    }
    names
}

/// Code without comments: doc links to a higher layer are not imports.
fn code_of(text: &str) -> String {
    text.lines()
        .map(|l| l.find("//").map_or(l, |i| &l[..i]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level modules named by `crate::x` paths (and `crate::{x, ...}` groups) in `code`.
fn imports_in(code: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        let names: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            group[..end]
                .split(',')
                .map(|s| s.trim().split("::").next().unwrap_or(""))
                .collect()
        } else {
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            vec![&rest[..end]]
        };
        for n in names {
            if modules.contains(n) {
                found.insert(n.to_string());
            }
        }
    }
    found
}

/// Which top-level module imports which.
fn import_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let modules = top_level_modules(src);
    modules
        .iter()
        .map(|m| {
            let mut deps = BTreeSet::new();
            for f in module_files(src, m) {
                let text =
                    fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
                deps.extend(imports_in(&code_of(&text), &modules));
            }
            deps.remove(m);
            (m.clone(), deps)
        })
        .collect()
}

/// A cycle through `start`, if there is one (depth-first, module names in order).
fn cycle_from(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    fn walk(
        g: &BTreeMap<String, BTreeSet<String>>,
        at: &str,
        start: &str,
        path: &mut Vec<String>,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        for next in g.get(at).into_iter().flatten() {
            if next == start {
                return true;
            }
            if seen.insert(next.clone()) {
                path.push(next.clone());
                if walk(g, next, start, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let mut path = vec![start.to_string()];
    let mut seen = BTreeSet::new();
    walk(graph, start, start, &mut path, &mut seen).then(|| {
        path.push(start.to_string());
        path
    })
}

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn no_top_level_module_imports_one_that_imports_it_back() {
    let graph = import_graph(&src_dir());
    let cycles: Vec<String> = graph
        .keys()
        .filter_map(|m| cycle_from(&graph, m))
        .map(|c| c.join(" -> "))
        .collect();
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn every_module_imports_only_layers_below_it() {
    let graph = import_graph(&src_dir());
    let rank = |m: &str| LAYERS.iter().position(|l| *l == m);
    let mut wrong = Vec::new();
    for (m, deps) in &graph {
        let Some(r) = rank(m) else {
            wrong.push(format!(
                "`{m}` has no layer: add it to LAYERS here and to src/lib.rs"
            ));
            continue;
        };
        for d in deps {
            if rank(d).is_some_and(|rd| rd >= r) {
                wrong.push(format!("`{m}` imports `{d}`, a layer above it"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_graph_reader_sees_imports_and_cycles() {
    // The reader itself: a grouped import counts, a doc comment does not, and a two-module
    // cycle is found from either end.
    let modules: BTreeSet<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    let code = code_of("use crate::{a::X, b};\n/// see [`crate::c`]\nfn f() {}");
    assert_eq!(
        imports_in(&code, &modules),
        ["a", "b"].iter().map(|s| s.to_string()).collect()
    );
    let mut g = BTreeMap::new();
    g.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    g.insert("b".to_string(), BTreeSet::from(["a".to_string()]));
    g.insert("c".to_string(), BTreeSet::from(["a".to_string()]));
    assert_eq!(
        cycle_from(&g, "a"),
        Some(vec!["a".into(), "b".into(), "a".into()])
    );
    assert_eq!(cycle_from(&g, "c"), None);
}

// ---- inside modules: the files of one folder -------------------------------------------------
// A module's files import each other as siblings (`super::rates::…`, `crate::a::b::c::…`): those
// imports must not circle either (issue 57: six such circles were opened by moving the shared
// part down). A child's use of its parent (`super::Item`) is not a sibling import.

/// Every `.rs` file under `src/` by its module path (`region/table/series/rates`; `x/mod.rs` is
/// `x`; `lib.rs` the empty path).
fn file_modules(src: &Path) -> BTreeMap<Vec<String>, PathBuf> {
    let mut out = BTreeMap::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for e in fs::read_dir(&dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
                continue;
            }
            if !p.extension().is_some_and(|x| x == "rs") {
                continue;
            }
            let rel = p.strip_prefix(src).unwrap_or(&p).with_extension("");
            let mut parts: Vec<String> = rel
                .iter()
                .map(|s| s.to_string_lossy().into_owned())
                .collect();
            if parts.last().is_some_and(|l| l == "mod") || parts == ["lib"] {
                parts.pop();
            }
            out.insert(parts, p);
        }
    }
    out
}

/// The sibling files `file` (module path `at`) imports: each `crate::`, `super::` or `self::`
/// path resolved to the longest module path that is a file, kept when it shares `at`'s parent.
fn sibling_imports(
    at: &[String],
    code: &str,
    files: &BTreeMap<Vec<String>, PathBuf>,
) -> BTreeSet<Vec<String>> {
    let mut out = BTreeSet::new();
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(i) = code[from..].find(start).map(|i| i + from) {
            from = i + start.len();
            // a path's start, not the end of a longer name (`mysuper::`)
            if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
                continue;
            }
            let path: Vec<&str> = code[i..]
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .next()
                .unwrap_or("")
                .split("::")
                .filter(|s| !s.is_empty())
                .collect();
            let mut base: Vec<String> = match path.first() {
                Some(&"crate") => Vec::new(),
                _ => at.to_vec(),
            };
            let mut rest = &path[1..];
            if path.first() == Some(&"super") {
                base.pop();
                while rest.first() == Some(&"super") {
                    base.pop();
                    rest = &rest[1..];
                }
            }
            let full: Vec<String> = base
                .into_iter()
                .chain(rest.iter().map(|s| s.to_string()))
                .collect();
            let Some(target) = (1..=full.len())
                .rev()
                .map(|n| full[..n].to_vec())
                .find(|p| files.contains_key(p))
            else {
                continue;
            };
            if target.len() == at.len()
                && target[..target.len() - 1] == at[..at.len() - 1]
                && target != at
            {
                out.insert(target);
            }
        }
    }
    out
}

#[test]
fn no_file_imports_a_sibling_that_imports_it_back() {
    let src = src_dir();
    let files = file_modules(&src);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (at, p) in &files {
        if at.is_empty() {
            continue;
        }
        let code =
            code_of(&fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())));
        let name = at.join("/");
        graph.entry(name.clone()).or_default();
        for t in sibling_imports(at, &code, &files) {
            graph.entry(name.clone()).or_default().insert(t.join("/"));
        }
    }
    let circles: Vec<String> = graph
        .keys()
        .filter_map(|m| cycle_from(&graph, m))
        .map(|c| c.join(" -> "))
        .collect();
    assert!(
        circles.is_empty(),
        "files that import each other:\n{}",
        circles.join("\n")
    );
    // the reader sees a sibling import where there is one
    let rates = vec![
        "region".to_string(),
        "table".into(),
        "series".into(),
        "rates".into(),
    ];
    let seen = sibling_imports(&rates, "use super::snapshots::{group};", &files);
    assert!(seen.contains(&vec![
        "region".to_string(),
        "table".into(),
        "series".into(),
        "snapshots".into()
    ]));
}
