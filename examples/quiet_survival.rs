//! Plays the quiet test bot alone on pack files (no opponent, no garbage) and reports how many
//! games it survives to the 500-turn limit: `cargo run --release --example quiet_survival [N]`.
use codevs_reborn::protocol::{pack_files, read_pack_file};
use codevs_reborn::rules::{Field, Simulator, MAX_TURNS};
use codevs_reborn::search::simple::{quiet, QUIET_MAX_LINKS};
use codevs_reborn::state::{Position, TurnState};
use codevs_reborn::Engine;

fn main() {
    let count: usize = std::env::args().nth(1).map_or(100, |s| s.parse().expect("a number of pack files"));
    let files = pack_files(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/data/packs")))
        .expect("the shipped packs");
    let started = std::time::Instant::now();
    let mut survived = 0;
    for file in files.iter().take(count) {
        let packs = read_pack_file(file).expect("a pack file");
        let position = |field| Position { field, garbage: 0, gauge: 0, score: 0, time_left_ms: 180_000 };
        let mut field = Engine::from_field(&Field::empty());
        let mut chains = 0;
        let mut turns = MAX_TURNS;
        for turn in 0..MAX_TURNS {
            let state = TurnState { turn, packs: &packs, me: position(field), opponent: position(field) };
            let (action, _) = quiet(&state);
            let outcome = field.apply(packs.get(turn), action);
            chains += usize::from(outcome.links > QUIET_MAX_LINKS);
            if field.is_dead() {
                turns = turn + 1;
                break;
            }
        }
        let tallest = (0..10).map(|x| field.height(x)).max().unwrap_or(0);
        survived += usize::from(turns == MAX_TURNS);
        println!("{}: {turns} turns, {chains} chains, tallest {tallest}", file.display());
    }
    println!("survived {survived} of {count} in {:.1} s", started.elapsed().as_secs_f64());
}
