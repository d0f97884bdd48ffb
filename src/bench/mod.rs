//! Benchmarks with deterministic workloads (`codevs-reborn bench ...`).

pub mod opening;
pub mod rebuild;
pub mod sim;
pub mod skill;

pub use crate::memory::peak_rss_mib;

use crate::arena::book::Position;
use crate::rules::{Field, Simulator, GARBAGE_ROW};
use crate::Engine;

/// One side of a book position as the bot sees it on the position's turn: the field after
/// this turn's garbage row (when the stock holds one) and the stock still to fall.
pub fn side_at_turn(position: &Position, seat: usize) -> Result<(Engine, u32), String> {
    let player = &position.state[seat];
    let field: Field =
        player.field.join("\n").parse().map_err(|e| format!("position {}: seat {seat}: {e}", position.id))?;
    let mut field = Engine::from_field(&field);
    let mut garbage = player.garbage;
    if garbage >= GARBAGE_ROW {
        field.drop_garbage_row();
        garbage -= GARBAGE_ROW;
    }
    Ok((field, garbage))
}
