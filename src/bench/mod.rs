//! Benchmarks with deterministic workloads (`codevs-reborn bench ...`).

pub mod opening;
pub mod rebuild;
pub mod sim;

pub use crate::memory::peak_rss_mib;
