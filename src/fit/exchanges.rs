//! `codevs-reborn fit --exchanges GAMES...`: our probability of winning after the first exchange
//! of chains, fitted to the outcomes of recorded games (the gauntlet's `--json` lines). The
//! first exchange is each side's first chain of 10+ links; who fired it first and by how many
//! links the two chains differ decide most games, and the exchange game's lines are exactly
//! such exchanges, so `--explain` gives each line its fitted odds.
//!
//! A logistic curve in the link difference for each side firing first, fitted on the training
//! games; held out, like positions, by pack sequence (the games played on the same packs go
//! together).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use serde::Deserialize;

use super::{fit_logistic, held_out_packs, log_loss};
use crate::bot::race::value::{ExchangeModel, Logistic, EXCHANGE_MAX_LINKS};
use crate::replay::GameLine;

/// What the fit reads of a gauntlet line: our seat and the game.
#[derive(Deserialize)]
struct GauntletGame {
    our_seat: usize,
    #[serde(flatten)]
    line: GameLine,
}

/// One game's first exchange, from our side, and its outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct FirstExchange {
    /// The game's packs (`seed:N` or a pack file), for holding games out together.
    pub packs: String,
    pub we_first: bool,
    /// Our first chain of 10+ links, and theirs (0: none fired).
    pub ours: u32,
    pub theirs: u32,
    pub won: bool,
}

/// The first exchanges of a gauntlet `--json` file's games (`path` names it in errors): games
/// won or lost from turn 0 (not from a book position), without a fault, where either side fired
/// a chain of 10+ links. Both fired on the same turn counts as ours first.
pub fn read_exchanges(path: &Path) -> Result<Vec<FirstExchange>, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut exchanges = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let game: GauntletGame = serde_json::from_str(line).map_err(|e| {
            format!("{}:{}: expected a gauntlet --json line (with our_seat): {e}", path.display(), i + 1)
        })?;
        let (seat, g) = (game.our_seat.min(1), &game.line);
        let decided = g.winner == 0 || g.winner == 1;
        if !decided || g.faults.iter().any(Option::is_some) || g.start_turn.is_some() {
            continue;
        }
        let (ours, theirs) = (g.first_chain_10[seat], g.first_chain_10[1 - seat]);
        let we_first = match (ours, theirs) {
            (None, None) => continue,
            (Some(o), Some(t)) => o.turn <= t.turn,
            (ours, _) => ours.is_some(),
        };
        exchanges.push(FirstExchange {
            packs: g.packs.clone(),
            we_first,
            ours: ours.map_or(0, |c| c.links),
            theirs: theirs.map_or(0, |c| c.links),
            won: g.winner as usize == seat,
        });
    }
    Ok(exchanges)
}

/// The fit's results: the counts by who fired first and link difference, the fitted model, and
/// the held-out log-loss of the base rate and of the model.
#[derive(Clone, Debug)]
pub struct ExchangeReport {
    /// (we fired first, clamped difference) → (games, won).
    pub counts: BTreeMap<(bool, i64), (usize, usize)>,
    pub train_games: usize,
    pub held_out_games: usize,
    pub base_log_loss: f64,
    pub model_log_loss: f64,
    pub model: ExchangeModel,
}

/// Fits the exchange model, holding out the games of every `holdout_every`-th pack sequence.
pub fn fit_exchanges(exchanges: &[FirstExchange], holdout_every: usize, ridge: f64) -> Result<ExchangeReport, String> {
    let (held, packs, every) = held_out_packs(exchanges.iter().map(|e| e.packs.as_str()), holdout_every);
    let (test, train): (Vec<&FirstExchange>, Vec<&FirstExchange>) =
        exchanges.iter().partition(|e| held.contains(e.packs.as_str()));
    let sides = |set: &[&FirstExchange], we_first: bool| set.iter().filter(|e| e.we_first == we_first).count();
    if [true, false].iter().any(|&first| sides(&train, first) == 0) || test.is_empty() {
        return Err(format!(
            "{} games on {} pack sequences: too few to fit each side's first fire and hold one sequence in {every} out",
            exchanges.len(),
            packs
        ));
    }
    let y = |e: &FirstExchange| f64::from(u8::from(e.won));
    let fit_side = |we_first: bool| -> Logistic {
        let games: Vec<&&FirstExchange> = train.iter().filter(|e| e.we_first == we_first).collect();
        let xs: Vec<Vec<f64>> = games.iter().map(|e| vec![ExchangeModel::feature(e.ours, e.theirs)]).collect();
        let ys: Vec<f64> = games.iter().map(|e| y(e)).collect();
        fit_logistic(&xs, &ys, ridge)
    };
    let model = ExchangeModel {
        we_first: fit_side(true),
        they_first: fit_side(false),
        games: exchanges.len(),
        held_out_log_loss: 0.0,
    };
    let base = train.iter().map(|e| y(e)).sum::<f64>() / train.len() as f64;
    let mean =
        |p: &dyn Fn(&FirstExchange) -> f64| test.iter().map(|e| log_loss(p(e), y(e))).sum::<f64>() / test.len() as f64;
    let base_log_loss = mean(&|_| base);
    let model_log_loss = mean(&|e| model.win_probability(e.we_first, e.ours, e.theirs));
    let mut counts: BTreeMap<(bool, i64), (usize, usize)> = BTreeMap::new();
    for e in exchanges {
        let d = ExchangeModel::feature(e.ours, e.theirs) as i64;
        let c = counts.entry((e.we_first, d)).or_default();
        *c = (c.0 + 1, c.1 + usize::from(e.won));
    }
    Ok(ExchangeReport {
        counts,
        train_games: train.len(),
        held_out_games: test.len(),
        base_log_loss,
        model_log_loss,
        model: ExchangeModel { held_out_log_loss: model_log_loss, ..model },
    })
}

/// The report as text: the games and win rate by who fired first and link difference, with the
/// fitted curve beside them; then the held-out log-loss of the base rate and the model.
pub fn exchange_report_text(r: &ExchangeReport) -> String {
    let mut text = format!(
        "first exchanges of {} games (fitted on {}, held out {}): our first chain of 10+ links less theirs\n",
        r.train_games + r.held_out_games,
        r.train_games,
        r.held_out_games
    );
    let _ = writeln!(text, "{:<12} {:>6} {:>6} {:>7} {:>8}", "fired first", "links", "games", "won", "fitted");
    for (&(we_first, d), &(games, won)) in &r.counts {
        let side = if we_first { "we" } else { "they" };
        let edge = match d {
            d if d == EXCHANGE_MAX_LINKS => "≥",
            d if d == -EXCHANGE_MAX_LINKS => "≤",
            _ => "",
        };
        let fitted = if we_first { &r.model.we_first } else { &r.model.they_first }.predict(&[d as f64]);
        let _ = writeln!(
            text,
            "{side:<12} {:>6} {games:>6} {:>6.0}% {:>7.0}%",
            format!("{edge}{d:+}"),
            100.0 * won as f64 / games as f64,
            100.0 * fitted
        );
    }
    let _ = writeln!(text, "held-out log-loss: base rate {:.4}, fitted model {:.4}", r.base_log_loss, r.model_log_loss);
    for (side, m) in [("we fire first", &r.model.we_first), ("they fire first", &r.model.they_first)] {
        let _ = writeln!(text, "{side}: P(win) = sigmoid({:+.3} {:+.3} x links ahead)", m.bias, m.weights[0]);
    }
    text
}
