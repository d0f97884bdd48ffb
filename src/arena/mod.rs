//! The referee and match runner. Work in progress.
