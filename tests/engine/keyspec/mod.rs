//! Integration tests of the key-design language, one module per subject: golden vectors from
//! the real Java compositions (`../shared/vectors/recipes.jsonl`), the seed articles' keys,
//! decoding, encodings and layout, errors, lint rules, the presets, and property tests (text
//! <-> JSON round trips, encode -> decode). Case tables live in `cases/*.json`; a table
//! reports every failing case at once (`../cases/mod.rs`).

// A failed assertion is how a test reports; the no-panic rule is for the library.
#![allow(clippy::panic)]

mod common;

mod boundaries;
mod decode;
mod encodings;
mod errors;
mod lint;
mod presets;
mod properties;
mod recipes;
mod seeds;
