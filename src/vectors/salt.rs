//! Vector glue for the `salt` family (placeholder until the family lands).

use super::{Args, Dispatched};

/// `None`: not one of this family's functions.
pub(super) fn dispatch(_func: &str, _args: &Args) -> Dispatched {
    None
}
