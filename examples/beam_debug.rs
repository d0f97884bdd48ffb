use codevs_reborn::protocol::read_pack_file;
use codevs_reborn::rules::{Field, Simulator};
use codevs_reborn::search::beam::{search, BeamConfig, Start};
use codevs_reborn::Engine;
fn main() {
    let packs = read_pack_file(std::path::Path::new("../shared/packs/pack_0000.pack")).unwrap();
    let field = Engine::from_field(&Field::empty());
    let config = BeamConfig { width: 300, chain_width: 80, depth: 14, target: Some(8), final_target: Some(12), positions: 2..=6, node_budget: Some(3_000_000), ..BeamConfig::default() };
    let r = search(Start { field: &field, packs: &packs, turn: 0, garbage: 0 }, &config);
    println!("nodes {} depth {}", r.nodes, r.depth);
    for (i, f) in r.line.fires.iter().enumerate() { println!("{i}: {:?} build {:?}", f.map(|f| (f.chain, f.remaining)), r.line.builds.get(i)); }
    println!("{:?}", r.line.expected.last().unwrap());
}
