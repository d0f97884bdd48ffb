//! Benchmarks with deterministic workloads (`codevs-reborn bench ...`).

pub mod bot;
pub mod opening;
pub mod positions;
pub mod rebuild;
pub mod sim;
pub mod skill;

pub use crate::memory::peak_rss_mib;
