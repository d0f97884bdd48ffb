//! The protocol reader: every part of the input, and clear errors naming the line.

mod common;

use codevs_reborn::protocol::{Next, ProtocolError, Reader, TurnInput};
use codevs_reborn::rules::{Field, Pack, Packs};
use common::{game_text, pack_text, player, turn_text};

fn reader(text: &str) -> Reader<&[u8]> {
    Reader::new(text.as_bytes())
}

fn error_of(text: &str) -> (usize, String, String) {
    let mut r = reader(text);
    let err = r.read_packs().and_then(|_| loop {
        if r.read_next()? == Next::End {
            break Ok(());
        }
    });
    match err {
        Err(ProtocolError::Unexpected { line, expected, found }) => (line, expected, found),
        other => panic!("expected a protocol error, got {other:?}"),
    }
}

#[test]
fn packs_parse_top_row_first() {
    let packs = reader(&pack_text(0)).read_packs().unwrap();
    assert_eq!(packs.len(), 500);
    // pack_0000 starts with "4 1 / 8 0 / END" and "0 9 / 6 3 / END".
    assert_eq!(*packs.get(0), Pack::new([4, 1], [8, 0]));
    assert_eq!(*packs.get(1), Pack::new([0, 9], [6, 3]));
}

#[test]
fn packs_round_trip_through_display() {
    let packs = Packs::generate(7);
    assert_eq!(reader(&packs.to_string()).read_packs().unwrap(), packs);
}

#[test]
fn turn_is_parsed_top_row_first_and_for_both_players() {
    let mine = "5.........\n19......##";
    let theirs = "........2.";
    let text = format!("{}{}", pack_text(0), turn_text(3, player(mine, 12, 80), player(theirs, 0, 4)));
    let mut r = reader(&text);
    r.read_packs().unwrap();
    let Next::Turn(t) = r.read_next().unwrap() else { panic!("a turn") };
    assert_eq!(t.turn, 3);
    assert_eq!((t.me.garbage, t.me.gauge, t.me.time_left_ms), (12, 80, 180_000));
    assert_eq!(t.me.field.get(0, 1), 5, "second row from the bottom");
    assert_eq!(t.me.field.get(1, 0), 9);
    assert_eq!(t.me.field.get(9, 0), 11, "garbage is 11");
    assert_eq!(t.opponent.field, theirs.parse::<Field>().unwrap());
    assert_eq!(r.read_next().unwrap(), Next::End);
}

#[test]
fn a_second_game_is_recognised_by_its_pack_list() {
    let packs = Packs::generate(1);
    let text = game_text(&packs, 2) + &game_text(&Packs::generate(2), 1);
    let mut r = reader(&text);
    assert_eq!(r.read_packs().unwrap(), packs);
    assert!(matches!(r.read_next().unwrap(), Next::Turn(t) if t.turn == 0));
    assert!(matches!(r.read_next().unwrap(), Next::Turn(t) if t.turn == 1));
    assert_eq!(r.read_next().unwrap(), Next::NewGame);
    assert_eq!(r.read_packs().unwrap(), Packs::generate(2));
}

#[test]
fn short_field_row_names_its_line() {
    let text = pack_text(0)
        + &turn_text(0, player("", 0, 0), player("", 0, 0)).replacen("0 0 0 0 0 0 0 0 0 0\n", "0 0 0\n", 1);
    let (line, expected, found) = error_of(&text);
    assert_eq!(line, 1500 + 1 + 4 + 1, "first field row of the first player");
    assert!(expected.contains("field row 1 of 16"), "{expected}");
    assert_eq!(found, "\"0 0 0\"");
}

#[test]
fn a_letter_in_a_field_is_rejected() {
    let text = pack_text(0)
        + &turn_text(0, player("", 0, 0), player("", 0, 0)).replacen("0 0 0 0 0 0 0 0 0 0", "0 0 x 0 0 0 0 0 0 0", 1);
    let (line, expected, _) = error_of(&text);
    assert_eq!(line, 1506);
    assert!(expected.contains("each 0-9 or 11"));
}

#[test]
fn a_cell_of_10_is_rejected() {
    let text = pack_text(0)
        + &turn_text(0, player("", 0, 0), player("", 0, 0)).replacen("0 0 0 0 0 0 0 0 0 0", "10 0 0 0 0 0 0 0 0 0", 1);
    assert_eq!(error_of(&text).0, 1506);
}

#[test]
fn missing_end_after_a_field() {
    let turn = turn_text(0, player("", 0, 0), player("", 0, 0)).replacen("END\n", "", 1);
    let (line, expected, found) = error_of(&(pack_text(0) + &turn));
    assert_eq!(line, 1500 + 1 + 4 + 16 + 1);
    assert_eq!(expected, "END");
    assert_eq!(found, "\"180000\"", "the opponent's first line came instead");
}

#[test]
fn missing_end_in_the_pack_list() {
    let text = pack_text(0).replacen("END\n", "", 1);
    let (line, expected, _) = error_of(&text);
    assert_eq!((line, expected.as_str()), (3, "END"));
}

#[test]
fn truncated_pack_list() {
    let text: String = pack_text(0).lines().take(100).map(|l| format!("{l}\n")).collect();
    let (line, _, found) = error_of(&text);
    assert_eq!(line, 101);
    assert_eq!(found, "end of input");
}

#[test]
fn truncated_turn_is_an_error_but_end_between_turns_is_not() {
    let full = game_text(&Packs::generate(3), 2);
    let mut r = reader(&full);
    r.read_packs().unwrap();
    assert!(matches!(r.read_next().unwrap(), Next::Turn(_)));
    assert!(matches!(r.read_next().unwrap(), Next::Turn(_)));
    assert_eq!(r.read_next().unwrap(), Next::End);
    let cut: String = full.lines().take(1500 + 10).map(|l| format!("{l}\n")).collect();
    assert_eq!(error_of(&cut).2, "end of input");
}

#[test]
fn out_of_range_numbers_are_rejected() {
    let base = pack_text(0) + &turn_text(0, player("", 0, 0), player("", 0, 0));
    // Turn 500 does not exist; a gauge over 100 does not either.
    let bad_turn = base.replacen("\n0\n180000", "\n500\n180000", 1);
    assert!(error_of(&bad_turn).1.contains("turn number"));
    let bad_gauge = base.replacen("180000\n0\n0\n0\n", "180000\n0\n101\n0\n", 1);
    assert!(error_of(&bad_gauge).1.contains("gauge"));
    let bad_pack = base.replacen("4 1\n", "4 10\n", 1);
    assert_eq!(error_of(&bad_pack).0, 1);
}

#[test]
fn a_floating_block_is_rejected() {
    let text = pack_text(0) + &turn_text(0, player("", 0, 0), player("", 0, 0));
    // Put a block in the top row of an otherwise empty field.
    let text = text.replacen("180000\n0\n0\n0\n0 0 0 0 0 0 0 0 0 0", "180000\n0\n0\n0\n3 0 0 0 0 0 0 0 0 0", 1);
    let (line, expected, _) = error_of(&text);
    assert_eq!((line, expected.as_str()), (1506, "a settled field"));
}

/// Turn step 1 is the bot's to apply: the input shows the field as the previous turn left it, so
/// the bot drops its own garbage row (one row of 10, one block on each column) when its stock
/// holds 10 or more, and keeps what is left of the stock; from 9 nothing falls.
#[test]
fn the_bot_drops_this_turns_garbage_row_itself() {
    use codevs_reborn::rules::Simulator;
    use codevs_reborn::state::TurnState;

    let before = "
        ..........
        1.........
        2#.....9..
        34.5.#.12.";
    let after = "
        #.........
        1#.....#..
        2#.#.#.9#.
        34#5###12#";
    let packs = reader(&pack_text(0)).read_packs().unwrap();
    let input = TurnInput { turn: 12, me: player(before, 25, 0), opponent: player(before, 9, 0) };
    let expected: Field = after.parse().unwrap();
    let untouched: Field = before.parse().unwrap();

    let reference: TurnState<'_, Field> = TurnState::new(&input, &packs);
    assert_eq!(reference.me.field, expected, "a row falls from a stock of 25");
    assert_eq!(reference.me.garbage, 15, "the row's 10 blocks leave the stock");
    assert_eq!(reference.opponent.field, untouched, "a stock of 9 drops nothing");
    assert_eq!(reference.opponent.garbage, 9);

    let bitboard: TurnState<'_, codevs_reborn::Engine> = TurnState::new(&input, &packs);
    assert_eq!(bitboard.me.field.to_field(), expected, "the bitboard drops the same row");
    assert_eq!(bitboard.opponent.field.to_field(), untouched);
}
