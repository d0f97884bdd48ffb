//! The searchers: each takes a [`crate::state::TurnState`] and proposes an action.
//!
//! - [`chain`]: what the chain searches share: starts, fires, lines, menus.
//! - [`beam`]: the chain-building beam search; [`builder`]: the anytime chain builder (chokudai
//!   search) that answers with a menu of the best chain at every turn; [`build`]: their flags,
//!   and which of them builds our chains.
//! - [`greedy`]: one ply with a cheap look at chain potential (the foundation's placeholder and
//!   the baseline every later searcher is measured against).
//! - [`midgame`]: exhaustive search of both fields a few plies ahead, against the worst answer.
//! - [`simple`]: test opponents: random drops, and a quiet bot that never sends garbage.

pub mod beam;
pub mod build;
pub mod builder;
pub mod chain;
pub mod eval;
pub mod greedy;
pub mod midgame;
pub mod simple;
pub mod skill;
pub mod tt;
