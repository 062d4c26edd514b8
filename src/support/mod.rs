//! Crate-private helpers under every layer: the JSON reader with located errors and number
//! text, work spread over threads, a fast hash for maps of the user's bytes. Never API: a library user reads documents through the types that own them.

pub(crate) mod fast_hash;
pub(crate) mod json;
// The rows readers (feature `rows`) use all but `VERIFY`; the page's first wasm has none of them.
#[cfg_attr(not(feature = "rows"), allow(dead_code))]
pub(crate) mod magic;
pub(crate) mod num_text;
pub(crate) mod threads;
