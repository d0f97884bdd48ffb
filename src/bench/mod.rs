//! Benchmarks with deterministic workloads (`codevs-reborn bench ...`).

pub mod opening;
pub mod sim;
