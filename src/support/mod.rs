//! Crate-private helpers under every layer: the JSON reader with located errors and number
//! text, work spread over threads. Never API: a library user reads documents through the types that own them.

pub(crate) mod json;
pub(crate) mod num_text;
pub(crate) mod threads;
