//! Helpers shared by the integration tests: building protocol input streams.
#![allow(dead_code)]

use std::path::PathBuf;

use codevs_reborn::protocol::{write_turn, PlayerInput, TurnInput};
use codevs_reborn::rules::{Field, Packs, Simulator};

/// The shared folder beside the repository (packs, bench workloads, rules).
pub fn shared() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared"))
}

/// A real pack file's text.
pub fn pack_text(index: usize) -> String {
    std::fs::read_to_string(shared().join(format!("packs/pack_{index:04}.pack"))).expect("shared pack file")
}

/// A player's input with the given field picture.
pub fn player(field: &str, garbage: u32, gauge: u32) -> PlayerInput {
    PlayerInput {
        time_left_ms: 180_000,
        garbage,
        gauge,
        score: 0,
        field: field.parse::<Field>().expect("field picture"),
    }
}

/// One turn's protocol text.
pub fn turn_text(turn: usize, me: PlayerInput, opponent: PlayerInput) -> String {
    let mut out = Vec::new();
    write_turn(&mut out, &TurnInput { turn, me, opponent }).unwrap();
    String::from_utf8(out).unwrap()
}

/// A game's stream: packs then `turns` turns on empty fields.
pub fn game_text(packs: &Packs, turns: usize) -> String {
    let mut s = packs.to_string();
    for t in 0..turns {
        s += &turn_text(t, player("", 0, 0), player("", 0, 0));
    }
    s
}

/// The rule book's worked example: the skill explodes exactly five blocks here (33 points) — the
/// 5, the 2s above and below it, and the 2 and 3 beside it (the garbage is two rows down, out of
/// reach) — and the column then falls three rows into five links (9 points): 1–9, 2–8, 3–7,
/// 4–6, 7–3. Sends 16 + 4 = 20 garbage.
pub const FIVE_AND_FIVE: &str = "
    3.........
    6.........
    7.........
    8.........
    9.........
    2.........
    53........
    22........
    1#........
    2#........
    3#........
    4#........
    7#........";

/// A reachable field: drops chosen by `choices` (position and rotation packed in one byte) from
/// `packs`, stopping before death.
pub fn grown_field(packs: &Packs, choices: &[u8]) -> Field {
    let mut field = Field::empty();
    for (t, &c) in choices.iter().enumerate() {
        let mut next = field;
        next.drop_pack(packs.get(t), c % 9, c / 9 % 4);
        if next.is_dead() {
            break;
        }
        field = next;
    }
    field
}
