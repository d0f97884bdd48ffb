//! `bench sim`. Work in progress.
