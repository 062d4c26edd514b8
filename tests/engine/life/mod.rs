//! Months of life (issue 58): the research file's worked numbers for the split policies, the
//! normalizer and the balancer, and scenarios whose expected figures are derived by hand.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod balancer;
mod normalizer;
mod policy;

mod chores;
mod design;
mod diagnosis;
mod errors;
mod indexes;
mod months;
#[cfg(feature = "rows")]
mod rows;
mod scenarios;
