//! Embeds the golden vector files for the wasm tests, which cannot read files at run time.
//! Every `*.jsonl` under `VECTORS_DIR` (default `../shared/vectors`) and `VECTORS_PENDING_DIR`
//! (default `../shared/vectors-pending`, named `pending/…`) is listed in
//! `$OUT_DIR/embedded_vectors.rs` as `(file name, include_str!(path))`. Only the wasm test
//! binaries include that file, so the library itself stays small.
use std::{env, fs, path::PathBuf};

fn main() {
    // `lean`: the size-optimised wasm (the page's and browsers'), which leaves out the
    // native-speed paths (MD5 batches, digit table, MD5 plan step). The `fast` feature (the
    // npm package's Node wasm) keeps them, like a native build.
    println!("cargo::rustc-check-cfg=cfg(lean)");
    if env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32")
        && env::var_os("CARGO_FEATURE_FAST").is_none()
    {
        println!("cargo:rustc-cfg=lean");
    }
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let mut out = String::from("/// Golden vector files embedded at build time: (relative name, contents).\npub static EMBEDDED_VECTORS: &[(&str, &str)] = &[\n");
    for (var, default, label) in [
        ("VECTORS_DIR", "../shared/vectors", ""),
        (
            "VECTORS_PENDING_DIR",
            "../shared/vectors-pending",
            "pending/",
        ),
    ] {
        embed_vectors(&manifest, var, default, label, &mut out);
    }
    out.push_str("];\n");
    let out_dir = PathBuf::from(env::var("OUT_DIR").unwrap_or_else(|_| ".".into()));
    embed_presets(&manifest, &out_dir);
    if let Err(e) = fs::write(out_dir.join("embedded_vectors.rs"), out) {
        println!("cargo:warning=cannot write embedded_vectors.rs: {e}");
    }
}

/// Lists every `*.jsonl` under `$var` (default `default`) into `out` as `(label + name, include_str!)`.
fn embed_vectors(
    manifest: &std::path::Path,
    var: &str,
    default: &str,
    label: &str,
    out: &mut String,
) {
    println!("cargo:rerun-if-env-changed={var}");
    let dir = env::var(var)
        .map(PathBuf::from)
        .unwrap_or_else(|_| manifest.join(default));
    let dir = if dir.is_absolute() {
        dir
    } else {
        manifest.join(dir)
    };
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<PathBuf> = Vec::new();
    collect(&dir, &mut files);
    files.sort();
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        let name = f.strip_prefix(&dir).unwrap_or(f).display().to_string();
        out.push_str(&format!(
            "    ({:?}, include_str!({:?})),\n",
            format!("{label}{name}"),
            f.display().to_string()
        ));
    }
}

fn collect(dir: &PathBuf, out: &mut Vec<PathBuf>) {
    let Ok(rd) = fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "jsonl") {
            out.push(p);
        }
    }
}

/// JSON text without the whitespace between tokens (strings kept byte for byte).
fn minify(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let (mut in_str, mut escaped) = (false, false);
    for c in json.chars() {
        if in_str {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_str = false;
            }
        } else if !c.is_ascii_whitespace() {
            in_str = c == '"';
            out.push(c);
        }
    }
    out
}

/// Lists `presets/*.json` into `$OUT_DIR/embedded_presets.rs` for `crate::presets`, each
/// minified into `$OUT_DIR/presets/` first (the pretty files are for people; the wasm only
/// parses them).
fn embed_presets(manifest: &std::path::Path, out_dir: &std::path::Path) {
    let dir = manifest.join("presets");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let mut out = String::from(
        "/// (id, JSON text) of every preset.\nstatic PRESETS: &[(&str, &str)] = &[\n",
    );
    let min_dir = out_dir.join("presets");
    let _ = fs::create_dir_all(&min_dir);
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        let id = f
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let min = min_dir.join(format!("{id}.json"));
        let text = fs::read_to_string(f).unwrap_or_default();
        let path = match fs::write(&min, minify(&text)) {
            Ok(()) => min,
            Err(_) => f.clone(),
        };
        out.push_str(&format!(
            "    ({:?}, include_str!({:?})),\n",
            id,
            path.display().to_string()
        ));
    }
    out.push_str("];\n");
    if let Err(e) = fs::write(out_dir.join("embedded_presets.rs"), out) {
        println!("cargo:warning=cannot write embedded_presets.rs: {e}");
    }
}
