//! The bitboard simulator (20 planes of 256 bits). Work in progress.
