//! Prints the opening beam's line for one pack file: what it could fire each turn, and the field.
use codevs_reborn::protocol::read_pack_file;
use codevs_reborn::rules::{Field, Simulator};
use codevs_reborn::search::beam::search;
use codevs_reborn::search::build::BeamParams;
use codevs_reborn::search::chain::Start;
use codevs_reborn::Engine;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let file = args.get(1).map_or(concat!(env!("CARGO_MANIFEST_DIR"), "/data/packs/pack_0000.pack"), |s| s.as_str());
    let budget: u64 = args.get(2).map_or(150_000_000, |s| s.parse().unwrap());
    let packs = read_pack_file(std::path::Path::new(file)).unwrap();
    let field = Engine::from_field(&Field::empty());
    let params = BeamParams { node_budget: budget, ..BeamParams::default() };
    let t = std::time::Instant::now();
    let r = search(Start { field: &field, packs: &packs, turn: 0, garbage: 0 }, &params.opening(None));
    println!("nodes {} depth {} in {:?}", r.nodes, r.depth, t.elapsed());
    for (i, f) in r.line.fires.iter().enumerate() {
        println!("turn {i:>2}: fire {:?}", f.map(|f| (f.chain.links, f.chain.vanished, f.remaining)));
    }
    let k = r.line.best_fire_step().unwrap_or(0);
    println!("field at turn {k}:{:?}", r.line.expected[k]);
}
