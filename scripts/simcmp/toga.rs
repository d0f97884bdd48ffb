//! Times togatoga's simulator (its crate `togatog_ai`, fetched and built outside the repository by
//! scripts/simcmp.sh) on one standard workload of data/bench: every position's 36 placements
//! (x 0..=8, r 0..=3), each from a fresh copy of the position, chain resolved and the death
//! check done, as `codevs-reborn bench sim` times ours. One thread, median pass.
//! Usage: toga WORKLOAD.txt MIN_MS. Prints `placements links dead ns_per_placement passes`.
use std::hint::black_box;
use std::time::Instant;

use togatog_ai::board::Board;
use togatog_ai::pack::Pack;
use togatog_ai::simulator::Simulator;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, path, min_ms] = &args[..] else {
        eprintln!("usage: toga WORKLOAD.txt MIN_MS");
        std::process::exit(2);
    };
    let min_ms: f64 = min_ms.parse().expect("MIN_MS is a number");
    let text = std::fs::read_to_string(path).expect("the workload can be read");
    let numbers: Vec<Vec<u8>> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(|w| w.parse().expect("a number")).collect())
        .collect();
    // 19 lines a position: 16 field rows top first, the pack's two rows, the check's `x r`.
    let mut boards = Vec::new();
    let mut packs = Vec::new();
    for p in numbers.chunks(19) {
        let mut rows = [[0u8; 10]; 16];
        for (row, line) in rows.iter_mut().zip(p) {
            row.copy_from_slice(line);
        }
        boards.push(Board::new(rows));
        // Rotated and settled as its own reader prepares every turn's pack.
        let base = Pack::new(&[p[16][0], p[16][1], p[17][0], p[17][1]]);
        let mut rotations = [base; 4];
        for (r, pack) in rotations.iter_mut().enumerate() {
            pack.rotates(r);
            pack.drop();
        }
        packs.push(rotations);
    }
    let mut simulator = Simulator::new();
    let mut pass = || {
        let (mut placements, mut links, mut dead) = (0u64, 0u64, 0u64);
        for (board, rotations) in boards.iter().zip(&packs) {
            for x in 0..9 {
                for pack in rotations {
                    let mut field = *board;
                    links += u64::from(simulator.simulate(&mut field, x, pack));
                    dead += u64::from(field.is_game_over());
                    placements += 1;
                    black_box(&field);
                }
            }
        }
        (placements, links, dead)
    };
    let signature = pass();
    let mut times = Vec::new();
    let start = Instant::now();
    while times.len() < 5 || start.elapsed().as_secs_f64() * 1e3 < min_ms {
        let t = Instant::now();
        black_box(pass());
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    let (placements, links, dead) = signature;
    let ns = times[times.len() / 2] * 1e9 / placements as f64;
    println!("{placements} {links} {dead} {ns:.1} {}", times.len());
}
