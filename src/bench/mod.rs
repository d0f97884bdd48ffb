//! Benchmarks with deterministic workloads (`codevs-reborn bench ...`).

pub mod sim;
