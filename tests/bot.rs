//! The full bot's decisions on single turns, explained on stderr: the searches it runs and what
//! decided. Node budgets keep every run reproducible.

mod common;

use std::time::Instant;

use codevs_reborn::bot::{plan_safety, play, Bot, BotOptions, DecideParams, RaceFeatures, Strategy};
use codevs_reborn::protocol::{read_pack_file, PlayerInput, TurnInput};
use codevs_reborn::rules::{Action, Field, Packs, Simulator};
use codevs_reborn::search::beam::{search, BeamConfig, Potential};
use codevs_reborn::search::build::ChainBuilder;
use codevs_reborn::search::chain::{best_fire, Start};
use codevs_reborn::search::eval::BeamWeights;
use codevs_reborn::search::midgame::VALUE_PER_BLOCK;
use codevs_reborn::state::TurnState;
use codevs_reborn::Engine;
use common::{game_text, links_of, player, turn_text};

fn packs(i: usize) -> Packs {
    read_pack_file(&common::data().join(format!("packs/pack_{i:04}.pack"))).unwrap()
}

fn options(turn: usize) -> BotOptions {
    let mut options = BotOptions { strategy: Strategy::Full, turn: Some(turn), ..BotOptions::default() };
    options.beam.node_budget = 2_000_000;
    options
}

/// Plays one turn of a game on `packs` and returns the action and the explanation.
fn think(packs: &Packs, turn: usize, me: PlayerInput, opponent: PlayerInput, options: BotOptions) -> (Action, String) {
    let input = packs.to_string() + &turn_text(turn, me, opponent);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    play(input.as_bytes(), &mut out, &mut err, options).unwrap();
    let out = String::from_utf8(out).unwrap();
    let action = out.lines().nth(1).expect("an answer").parse().unwrap();
    (action, String::from_utf8(err).unwrap())
}

/// A field the opening beam grew on `packs` up to the turn its plan fires at least `links`.
fn grown(packs: &Packs, links: u32) -> (usize, Field) {
    grown_before(packs, links, 0)
}

/// The field `before` turns earlier on the same line (at the same turn number as `grown`'s).
fn grown_before(packs: &Packs, links: u32, before: usize) -> (usize, Field) {
    // Seed 000's ranking: its deepest line fires on the way (the default ranks by potential
    // and leaves the line to the plan's menu choice).
    let config = BeamConfig {
        width: 400,
        chain_width: 100,
        node_budget: Some(6_000_000),
        weights: BeamWeights::seed(),
        potential: Potential::AnyBlock,
        ..BeamConfig::default()
    };
    let empty = Engine::from_field(&Field::empty());
    let result = search(Start { field: &empty, packs, turn: 0, garbage: 0 }, &config);
    let turn = result.line.first_turn_with(links).expect("the beam builds the chain");
    (turn, result.line.expected[turn - before])
}

fn picture(field: &Field) -> String {
    format!("{field:?}")
}

#[test]
fn the_opening_plan_is_followed_blindly_in_the_first_turns() {
    let packs = packs(0);
    let (_, why) = think(&packs, 0, player("", 0, 0), player("", 0, 0), options(0));
    assert!(why.contains("opening beam:"), "{why}");
    assert!(why.contains("decided: opening plan step 1"), "{why}");
}

#[test]
fn a_midgame_turn_runs_the_rebuild_beam_and_the_midgame_search() {
    let packs = packs(1);
    let (_, why) = think(&packs, 20, player("", 0, 0), player("", 0, 0), options(20));
    assert!(why.contains("rebuild beam:"), "{why}");
    assert!(why.contains("midgame: depth"), "{why}");
    assert!(why.contains("decided:"), "{why}");
}

#[test]
fn with_the_anytime_builder_the_opening_plan_is_its_menu_entry_and_the_game_goes_on() {
    let packs = packs(4);
    let mut opening = options(0);
    opening.beam.builder = ChainBuilder::Chokudai;
    let (action, why) = think(&packs, 0, player("", 0, 0), player("", 0, 0), opening.clone());
    assert!(why.contains("opening chokudai builder:"), "{why}");
    assert!(why.contains("decided: opening plan step 1"), "{why}");
    // The plan's first move is the first build of the menu's chosen line, searched alike.
    let empty = Engine::from_field(&Field::empty());
    let start = Start { field: &empty, packs: &packs, turn: 0, garbage: 0 };
    let result = opening.beam.build(start, true, None);
    assert_eq!(Some(&action), result.line.plan().first());
    let fires = result.line.fires.last().unwrap().unwrap().chain.links;
    assert!(fires >= 10, "the plan fires {fires} links within 16 turns");
    // A midgame turn: the rebuild and the opponent probes use the builder too.
    let mut midgame = options(20);
    midgame.beam.builder = ChainBuilder::Chokudai;
    let (_, why) = think(&packs, 20, player("", 0, 0), player("", 0, 0), midgame);
    assert!(why.contains("rebuild chokudai builder:"), "{why}");
    assert!(why.contains("decided:"), "{why}");
}

#[test]
fn a_ready_chain_against_an_empty_field_is_weighed_against_waiting() {
    let packs = packs(2);
    let (turn, field) = grown(&packs, 9);
    let (_, why) = think(&packs, turn, player(&picture(&field), 0, 0), player("", 0, 0), options(turn));
    let line = line_with(&why, "race exchange: fire ");
    assert!(number_after(line, "race exchange: fire ") >= 9, "{line}");
    // An empty field cannot fire a row's worth first within our plan's few turns: it can only
    // wait and answer.
    assert!(line.contains("they wait and answer"), "{line}");
}

#[test]
fn a_turn_the_race_is_read_writes_its_features_line() {
    let packs = packs(2);
    let (turn, field) = grown(&packs, 9);
    // Their stock of 12: a row falls on their field this turn, 2 blocks stay pending.
    let (_, why) = think(&packs, turn, player(&picture(&field), 0, 30), player("", 12, 0), options(turn));
    let features: Vec<RaceFeatures> = why.lines().filter_map(RaceFeatures::parse).map(Result::unwrap).collect();
    assert_eq!(features.len(), 1, "{why}");
    let f = &features[0];
    assert_eq!(f.turn, turn);
    assert_eq!((f.garbage_pending, f.garbage_on_field), ([0, 2], [0, 10]));
    assert_eq!((f.gauge, f.time_left_ms), ([30, 0], [180_000, 180_000]));
    assert_eq!(f.max_height[1], 1, "their garbage row");
    assert_eq!(f.max_height[0], (0..10).map(|x| field.height(x)).max().unwrap());
    // The race line of the same turn reads the same chains ready now.
    let race = line_with(&why, "race menus: ours now ");
    assert_eq!(f.fires_now[0], number_after(race, "ours now "));
    assert_eq!(f.fires_now[1], number_after(race, "theirs now "));
    assert!(f.fires_now[0] >= 9, "{race}");
    assert!(!f.their_menu.is_empty() && !f.our_line.is_empty(), "{f:?}");
    // Our 9 is ready: the exchange game was weighed, and its line says the value of firing now.
    let fire_now = f.exchange.expect("the exchange was weighed")[0];
    let exchange = line_with(&why, "race exchange: fire ");
    assert!(exchange.contains(&format!(": {fire_now:+} | wait")), "{exchange} against {fire_now}");
    // The line is one JSON object that reads back as written.
    assert_eq!(RaceFeatures::parse(&f.line()), Some(Ok(f.clone())));
    assert!(RaceFeatures::parse("race menus: ours now 9").is_none());
    // The other strategies read no race and write no line.
    let greedy = BotOptions { strategy: Strategy::Greedy, ..options(turn) };
    let (_, why) = think(&packs, turn, player(&picture(&field), 0, 30), player("", 12, 0), greedy);
    assert!(!why.lines().any(|l| RaceFeatures::parse(l).is_some()), "{why}");
}

#[test]
fn a_ready_chain_makes_the_turn_critical_and_a_big_one_decisive() {
    let packs = packs(2);
    let (turn, field) = grown(&packs, 9);
    let budget_line = |decisive_links: u32, me: &str| -> String {
        let mut options = options(turn);
        options.decide.decisive_links = decisive_links;
        let (_, why) = think(&packs, turn, player(me, 0, 0), player("", 0, 0), options);
        line_with(&why, "budget").to_string()
    };
    // Nothing ready on either side: a quiet turn.
    let quiet = budget_line(12, "");
    assert!(!quiet.contains("critical") && !quiet.contains("decisive"), "{quiet}");
    // A 9+ chain ready: critical below the decisive size, decisive at it.
    assert!(budget_line(100, &picture(&field)).contains("(critical turn)"));
    assert!(budget_line(9, &picture(&field)).contains("(decisive turn)"));
}

/// The first line of the explanation `why` that contains `key`.
fn line_with<'a>(why: &'a str, key: &str) -> &'a str {
    why.lines().find(|l| l.contains(key)).unwrap_or_else(|| panic!("no line with {key:?} in:\n{why}"))
}

/// The number right after `key` in `line`.
fn number_after(line: &str, key: &str) -> u32 {
    let rest = &line[line.find(key).unwrap_or_else(|| panic!("no {key:?} in {line}")) + key.len()..];
    rest.split(|c: char| !c.is_ascii_digit()).next().unwrap().parse().unwrap()
}

/// Pack file 2 with a 9-link chain ready for us against a 6-link field.
fn nine_against_six() -> (Packs, usize, Field, Field) {
    let packs = packs(2);
    let (turn, field) = grown(&packs, 9);
    let (_, opponent) = grown(&packs, 6);
    (packs, turn, field, opponent)
}

/// The bot's turn on a real position from `tests/positions`: the action, the links it fires and
/// the explanation.
fn think_position(name: &str, options: BotOptions) -> (Action, u32, String) {
    let (packs, input) = common::position(name);
    let options = BotOptions { turn: Some(input.turn), ..options };
    let (action, why) = think(&packs, input.turn, input.me.clone(), input.opponent.clone(), options);
    (action, links_of(&TurnState::<Engine>::new(&input, &packs), action), why)
}

/// Colun, pack file 28, our seat 0, turn 10: our 12 links are ready, colun can fire 12 next turn
/// (it did, and its garbage buried us), our longer chains are turns away. Comparing sizes only,
/// the bot held our 12 back for the 16 we would reach by waiting. Started on this turn, the bot
/// has no plan: the rebuild aims at the race against colun's menu (its 12 fired first would be
/// answered from our line's field under its rows) and fires the 12 now.
#[test]
fn the_opening_race_fires_before_a_fast_opener_can() {
    let (_, links, why) = think_position("colun-0028-turn10.txt", options(10));
    let line = line_with(&why, "rebuild aims at");
    assert!(line.starts_with("  rebuild aims at 12@10: +"), "{line}");
    assert!(line.contains("against their 4@10 12@11"), "{line}");
    assert_eq!(links, 12, "{why}");
}

/// Togatoga, pack file 30, our seat 0, turn 11: both sides can fire 14 links now (replayed from
/// here with the fire forced, the bot won; it had kept quiet and lost). Waiting lets it fire
/// first.
#[test]
fn the_opening_race_fires_an_equal_chain_they_can_fire_now() {
    let (_, links, why) = think_position("togatoga-0030-turn11.txt", options(11));
    let line = line_with(&why, "race exchange:");
    assert!(line.starts_with("  race exchange: fire 14 now"), "{line}");
    assert!(line.contains("first") && line.contains("bonus"), "{line}");
    assert_eq!(links, 14, "{why}");
}

/// Togatoga, pack file 51, our seat 0, turn 10: togatoga fires 12 links now (45 blocks). Our
/// plan's move would answer 18 blocks within the safety check's turns, another first move 105.
/// The midgame search, which sees four plies, took a move that answered nothing, and its rows
/// buried us (we never fired again). The answering line becomes the plan, trusted by the answer
/// margin.
#[test]
fn the_line_that_answers_their_fire_becomes_the_plan() {
    let mut options = options(10);
    options.beam.node_budget = 8_000_000;
    let (_, _, why) = think_position("togatoga-0051-turn10.txt", options.clone());
    assert!(why.contains("safety: they fire 12 now (45 blocks, 45 past ours pending)"), "{why}");
    let answer = line_with(&why, "answer plan: fires");
    let links = number_after(answer, "fires ");
    assert!(links >= 13, "an answer sending more than their 45 blocks: {why}");
    assert!(why.contains("decided: plan step 1 of "), "{why}");
}

/// Togatoga, pack file 46, our seat 1, turn 11: its 11 links (33 blocks) fired last turn, the
/// first row fell, 23 blocks still to fall. The rebuild's plan went for 19 links at turn 24
/// while the rows landed, and we sat at the top of the field for eight turns. Under attack a
/// rebuilt plan answers: the largest chain within the safety check's turns.
#[test]
fn under_attack_a_rebuilt_plan_answers_before_the_rows_bury_it() {
    let mut options = options(11);
    options.beam.node_budget = 8_000_000;
    let (_, _, why) = think_position("togatoga-0046-turn11.txt", options.clone());
    assert!(why.contains("answer beam:"), "{why}");
    let horizon = options.decide.plan_safety_turns as u32 + 1;
    let decided = line_with(&why, "decided: plan step 1 of ");
    assert!(number_after(decided, "of ") <= horizon, "the answer fires within {horizon} turns: {why}");
    let off = BotOptions { decide: DecideParams { answer_min_stock: 0, ..options.decide.clone() }, ..options };
    let (_, _, why) = think_position("togatoga-0046-turn11.txt", off);
    assert!(why.contains("rebuild beam:") && !why.contains("answer beam:"), "{why}");
}

/// Kera, seed 1000188 of the ledger, our seat 0, turn 13: the plan fires its 15 now. Its rows
/// (105 blocks, 10 whole rows) bury kera's field (tallest column 10: 6 rows free), so kera's
/// answer is forced and fired as the probe finds it (15), not two links short: firing is even,
/// and the exchange leaves the move to the plan. The midgame search, which sees our ready chain
/// answer any attack within its plies, valued holding it; main held, fired 17 at turn 17, kera
/// answered 17 at turn 23, and main lost. The plan's fire of a decisive chain that the race does
/// not penalise is the race's call.
#[test]
fn the_plans_decisive_fire_is_taken_when_the_race_gives_no_penalty() {
    let mut options = options(13);
    options.beam.node_budget = 4_000_000;
    let (_, links, why) = think_position("kera-seed1000188-turn13.txt", options);
    let line = line_with(&why, "race exchange:");
    assert!(line.starts_with("  race exchange: fire 15 now, they answer 15 (forced): +0"), "{line}");
    assert!(line.ends_with("no adjustment"), "{line}");
    assert!(why.contains("decided: plan step 1 of 1, its fire"), "{why}");
    assert_eq!(links, 15, "{why}");
}

#[test]
fn the_same_node_budget_gives_the_same_answer() {
    let packs = packs(4);
    let (turn, field) = grown(&packs, 8);
    let run = || think(&packs, turn, player(&picture(&field), 0, 0), player("", 0, 0), options(turn)).0;
    assert_eq!(run(), run());
}

#[test]
fn report_memory_prints_the_peak_after_every_turn() {
    let packs = packs(5);
    let mut options = options(0);
    options.turn = None;
    options.report_memory = true;
    options.strategy = Strategy::Greedy;
    let input = common::game_text(&packs, 3);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    play(input.as_bytes(), &mut out, &mut err, options).unwrap();
    let err = String::from_utf8(err).unwrap();
    assert_eq!(err.lines().filter(|l| l.contains("peak RSS") && l.ends_with("MiB")).count(), 3, "{err}");
}

/// The safety check's penalty for playing `action` at `turn` with `me` against `opponent`, and
/// its explanation.
fn safety(packs: &Packs, turn: usize, me: &Field, opponent: &Field, action: Action) -> (i64, String) {
    safety_with(&options(turn), packs, turn, me, opponent, action)
}

fn safety_with(
    options: &BotOptions,
    packs: &Packs,
    turn: usize,
    me: &Field,
    opponent: &Field,
    action: Action,
) -> (i64, String) {
    let input = TurnInput { turn, me: player(&picture(me), 0, 0), opponent: player(&picture(opponent), 0, 0) };
    let state = TurnState::<Engine>::new(&input, packs);
    let mut why = String::new();
    let safety = plan_safety(options, &state, action, Instant::now(), Some(2_000_000), &mut why);
    // A penalty comes with the search that found the better answer, and only then.
    assert_eq!(safety.penalty > 0, safety.answer.is_some(), "{why}");
    (safety.penalty, why)
}

#[test]
fn a_plan_move_that_spoils_our_answer_to_their_fire_is_penalised() {
    let packs = packs(6);
    // Both fields can fire 12 links now: firing answers their 12; some other moves spoil ours.
    let (turn, field) = grown(&packs, 12);
    let fire = best_fire(&Engine::from_field(&field), packs.get(turn), &mut 0).unwrap().action;
    let (penalty, why) = safety(&packs, turn, &field, &field, fire);
    assert_eq!(penalty, 0, "{why}");
    assert!(
        why.contains("safety: they fire 12 now (45 blocks, 45 past ours pending)") && why.contains("→ safe"),
        "{why}"
    );
    let penalised: Vec<(Action, i64)> =
        Action::drops().map(|a| (a, safety(&packs, turn, &field, &field, a).0)).filter(|&(_, p)| p > 0).collect();
    assert!(!penalised.is_empty(), "no move spoils the answer");
    // A penalty is the answer lost, at most the 45 blocks they send.
    assert!(penalised.iter().all(|&(_, p)| p <= 45 * VALUE_PER_BLOCK), "{penalised:?}");
}

/// Togatoga, pack file 12, our seat 0, turn 14: our 14 links went off first at turn 12 and 59
/// of their 79 blocks are still pending on togatoga once this turn's row fell; it fires its own
/// 14 (79 blocks) now. Only 20 pass ours; the check counted all 79, and the answer plan it brought threw our 17-link
/// rebuild away for 8 links at turn 21 (togatoga rebuilt 12 by turn 28 and won).
#[test]
fn their_answer_is_weighed_net_of_the_garbage_ours_has_pending_on_them() {
    let mut options = options(14);
    options.beam.node_budget = 8_000_000;
    let (_, _, why) = think_position("togatoga-0012-turn14.txt", options);
    assert!(why.contains("race safety: they fire 14 now (79 blocks, 20 past ours pending)"), "{why}");
    assert!(!why.contains("answer plan:"), "{why}");
}

#[test]
fn an_empty_field_answers_nothing_whatever_it_plays_and_is_not_penalised() {
    let packs = packs(7);
    let (turn, opponent) = grown(&packs, 12);
    // Within a turn or two nothing worth a garbage block can be built from an empty field (in
    // seven turns a good builder makes a 5-link answer).
    let mut options = options(turn);
    options.decide.plan_safety_turns = 1;
    let plan = Action::Drop { x: 4, rotation: 0 };
    let (penalty, why) = safety_with(&options, &packs, turn, &Field::empty(), &opponent, plan);
    assert_eq!(penalty, 0, "{why}");
    assert!(why.contains("no other move answers more"), "{why}");
}

#[test]
fn the_safety_check_runs_on_a_midgame_turn_when_they_can_fire() {
    let packs = packs(8);
    let (turn, opponent) = grown(&packs, 10);
    let (_, why) = think(&packs, turn, player("", 0, 0), player(&picture(&opponent), 0, 0), options(turn));
    assert!(why.contains("safety: they fire"), "{why}");
}

/// The reasons for each of the first `turns` turns of the full bot playing `packs` alone (the
/// opponent's field stays empty), each turn's field the one its moves made.
fn play_alone(packs: &Packs, turns: usize, options: BotOptions) -> Vec<String> {
    let mut bot = Bot::new(options);
    bot.new_game(packs.clone());
    let mut field = Engine::from_field(&Field::empty());
    (0..turns)
        .map(|turn| {
            let input = TurnInput { turn, me: player(&picture(&field.to_field()), 0, 0), opponent: player("", 0, 0) };
            bot.observe(&input);
            let (action, why) = bot.think(&input);
            field.apply(packs.get(turn), action);
            why
        })
        .collect()
}

#[test]
fn the_opening_plan_is_refined_while_it_is_followed_blindly() {
    let packs = packs(0);
    let mut options = BotOptions { strategy: Strategy::Full, ..BotOptions::default() };
    options.beam.node_budget = 2_000_000;
    options.beam.refine_ms = options.beam.opening_ms / 2;
    let blind = options.plan_unconditional_turns;
    let reasons = play_alone(&packs, blind, options.clone());
    assert!(!reasons[0].contains("refine:"), "turn 0 searches the opening itself");
    let mut replaced = 0;
    for (turn, why) in reasons.iter().enumerate().skip(1) {
        let line = why.lines().find(|l| l.contains("refine:")).unwrap_or_else(|| panic!("turn {turn}: {why}"));
        assert!(why.contains("decided: opening plan step"), "turn {turn}: {why}");
        if let Some((_, new)) = line.split_once("replaced: fires ") {
            // Longer, or as long and sooner.
            let old = &line[line.find("the plan fires ").unwrap() + "the plan fires ".len()..];
            let fire = |text: &str| (number_after(text, ""), number_after(text, "at turn "));
            let ((links, at), (old_links, old_at)) = (fire(new), fire(old));
            assert!(links > old_links || (links == old_links && at < old_at), "turn {turn}: {line}");
            // The new plan's first step is this turn's move.
            assert!(why.contains("decided: opening plan step 1 "), "turn {turn}: {why}");
            replaced += 1;
        }
    }
    // On this pack file two of the refinements find a better plan (at this node budget).
    assert!(replaced > 0, "no refinement replaced the plan");
    options.beam.refine_ms = 0;
    let reasons = play_alone(&packs, 3, options);
    assert!(reasons.iter().all(|why| !why.contains("refine:")), "--refine-ms 0 turns it off");
}

#[test]
fn once_the_plan_has_fired_its_chain_the_next_turn_builds_the_next_one() {
    // The opening plan is followed to its end (blindly here: every field is empty); the turn
    // after its fire must start the next chain. A finished plan used to stay in place: it
    // blocked every rebuild, and its exhausted menu read as no chain in reach.
    let packs = packs(2);
    let mut options =
        BotOptions { strategy: Strategy::Full, explain: true, plan_unconditional_turns: 100, ..BotOptions::default() };
    options.beam.node_budget = 2_000_000;
    let (mut out, mut err) = (Vec::new(), Vec::new());
    play(game_text(&packs, 24).as_bytes(), &mut out, &mut err, options).unwrap();
    let err = String::from_utf8(err).unwrap();
    let turns: Vec<&str> = err.split("game 1, turn ").skip(1).collect();
    let after = turns.iter().position(|t| !t.contains("opening plan step")).expect("the opening plan ends by turn 23");
    assert!(after > 0, "{err}");
    assert!(turns[after].contains("rebuild beam:"), "turn {after}: {}", turns[after]);
    assert!(turns[after].contains("plan finished"), "turn {after}: {}", turns[after]);
}

/// `--explain` shows the race on every turn: during the plan's blind turns it says so; from then
/// on both menus, ours from our plan's search (which sees the 9 links ready now) and theirs
/// from the probe of their field.
#[test]
fn every_turn_explains_the_race() {
    let (packs, turn, field, opponent) = nine_against_six();
    let blind = BotOptions { turn: None, explain: true, ..options(0) };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    play(game_text(&packs, 3).as_bytes(), &mut out, &mut err, blind).unwrap();
    let err = String::from_utf8(err).unwrap();
    let turns: Vec<&str> = err.split("game 1, turn ").skip(1).collect();
    assert_eq!(turns.len(), 3, "{err}");
    assert!(line_with(turns[0], "race:").contains("(nobody fires that early); ours "), "{err}");
    assert!(turns.iter().all(|t| t.contains("race: not read before turn 8")), "{err}");
    let (_, why) =
        think(&packs, turn, player(&picture(&field), 0, 0), player(&picture(&opponent), 0, 0), options(turn));
    let menus = line_with(&why, "race menus:");
    let (ours, theirs) = menus.split_once(" | theirs ").unwrap_or_else(|| panic!("{menus}"));
    assert!(number_after(ours, "ours now ") >= 9, "our 9 links are ready: {menus}");
    for menu in ["on the plan's line ", "on any line "] {
        let first = ours.split(menu).nth(1).and_then(|m| m.split_whitespace().next()).unwrap();
        let (links, at) = first.trim_end_matches(',').split_once('@').unwrap();
        assert_eq!(at.parse::<usize>().unwrap(), turn, "our menus start now: {menus}");
        assert!(links.parse::<u32>().unwrap() >= 9, "{menus}");
    }
    assert!(!theirs.ends_with("none"), "their field holds chains: {menus}");
    // With our 9 ready, the exchange game weighs firing it.
    assert!(why.contains("race exchange: fire "), "{why}");
}
