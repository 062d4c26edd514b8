//! The preset design documents (`presets/*.json`, one per seed case), embedded at build time
//! for native code and the tests. The wasm does not carry them: the npm package and the page
//! serve the same files from a JS module (`presets.js`, scripts/presets-js.mjs), which hands
//! each text to the engine to normalize, as [`get`] does.

use crate::design::DesignDocument;
use crate::error::{Error, ErrorKind, Result};

include!(concat!(env!("OUT_DIR"), "/embedded_presets.rs"));

/// One preset: its id (the file name without `.json`) and its document text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preset {
    /// Stable id, e.g. `seed000-telecom`.
    pub id: &'static str,
    /// The design document as JSON text.
    pub json: &'static str,
}

/// Every preset, sorted by id.
pub fn all() -> impl Iterator<Item = Preset> {
    PRESETS.iter().map(|&(id, json)| Preset { id, json })
}

/// The preset `id`, parsed.
pub fn get(id: &str) -> Result<DesignDocument> {
    let p = all().find(|p| p.id == id).ok_or_else(|| {
        let ids: Vec<&str> = all().map(|p| p.id).collect();
        Error::new(
            ErrorKind::Invalid,
            format!("no preset `{id}`; presets: {}", ids.join(", ")),
        )
        .at_path("preset")
    })?;
    DesignDocument::from_json(p.json)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_preset_parses() {
        assert!(all().count() >= 5, "the seeds give at least five presets");
        for p in all() {
            if let Err(e) = DesignDocument::from_json(p.json) {
                panic!("preset {} does not parse: {e}", p.id);
            }
        }
        assert!(get("no-such-preset").is_err());
    }
}
