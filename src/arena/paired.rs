//! `gauntlet --summary A... --compare B...`: two bots' gauntlets on the same packs, game by
//! game. A game of A and one of B are a pair when they were played against the same opponent, on
//! the same pack file (or seed) and from the same seat, so the difference in each pair is the
//! bots' and not the packs'. Pairs both bots won or both lost say nothing about which is
//! stronger; the test is on the others (the exact two-sided sign test, as for paired outcomes
//! anywhere), and the files where only one won are listed for reading in `view`. A judgement
//! stops by the ledger's sequential rule on the same pairs ([`stats::SignSprt::LEDGER`], A the
//! candidate), read per opponent and pooled over them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::stats;
use super::table::{format_table, label_left};

/// One game as the comparison sees it: from the compared bot's point of view.
#[derive(Clone, Copy, Debug)]
pub struct Outcome<'a> {
    pub opponent: &'a str,
    /// The pack file's path, or `seed:N`.
    pub packs: &'a str,
    /// The compared bot's seat.
    pub seat: usize,
    /// Its score: 1, ½ or 0.
    pub score: f64,
    /// The fingerprints of its commands and of its opponent's ([`super::gauntlet`]'s `moves`):
    /// a pair with equal fingerprints played the same game.
    pub moves: [&'a str; 2],
}

/// The key pairing two bots' games: opponent, pack file name (packs played from two folders,
/// on two machines, still pair) and seat.
fn pair_key(g: &Outcome) -> (String, String, usize) {
    let packs = Path::new(g.packs).file_name().map_or(g.packs.to_string(), |n| n.to_string_lossy().into_owned());
    (g.opponent.to_string(), packs, g.seat)
}

/// One opponent's pairs: how many each bot did better on, the equal ones, and the pack files
/// where A or B did better.
#[derive(Debug, Default, PartialEq)]
pub struct Paired {
    pub a_better: Vec<String>,
    pub b_better: Vec<String>,
    pub both_won: usize,
    pub both_lost: usize,
    /// Equal draws (half a point each).
    pub both_drew: usize,
    /// Pairs played move for move alike by both sides (book games repeat themselves: a change
    /// that leaves a position's game alike did not touch it).
    pub played_alike: usize,
}

impl Paired {
    pub fn pairs(&self) -> usize {
        self.a_better.len() + self.b_better.len() + self.both_won + self.both_lost + self.both_drew
    }

    /// The two-sided sign test's p-value on the pairs where one bot did better.
    pub fn p_value(&self) -> f64 {
        stats::sign_test_p(self.a_better.len() as u64, self.b_better.len() as u64)
    }

    /// The ledger's sequential sign rule's verdict on these pairs, A the candidate.
    pub fn verdict(&self) -> stats::SprtVerdict {
        stats::SignSprt::LEDGER.verdict(self.a_better.len() as u64, self.b_better.len() as u64)
    }

    /// The ledger's sequential sign rule on these pairs, A the candidate: its log-likelihood
    /// ratio and verdict as words.
    pub fn stop_rule(&self) -> String {
        let (better, worse) = (self.a_better.len() as u64, self.b_better.len() as u64);
        let rule = stats::SignSprt::LEDGER;
        let verdict = match self.verdict() {
            stats::SprtVerdict::H1 => "stop: A better",
            stats::SprtVerdict::H0 => "stop: A not better",
            stats::SprtVerdict::Continue => "go on",
        };
        format!("{:+.2} {verdict}", rule.llr(better, worse))
    }

    /// Adds another opponent's pairs (for the pooled row).
    fn pool(&mut self, other: &Paired) {
        self.a_better.extend(other.a_better.iter().cloned());
        self.b_better.extend(other.b_better.iter().cloned());
        self.both_won += other.both_won;
        self.both_lost += other.both_lost;
        self.both_drew += other.both_drew;
        self.played_alike += other.played_alike;
    }
}

/// Pairs A's games with B's, per opponent (in name order); games without a partner are left
/// out and counted in the second value.
pub fn pair_games(a: &[Outcome], b: &[Outcome]) -> (BTreeMap<String, Paired>, usize) {
    let b_by_key: BTreeMap<_, &Outcome> = b.iter().map(|g| (pair_key(g), g)).collect();
    let mut unpaired = 0;
    let mut matched = BTreeSet::new();
    let mut by_opponent: BTreeMap<String, Paired> = BTreeMap::new();
    for ga in a {
        let key = pair_key(ga);
        let Some(gb) = b_by_key.get(&key) else {
            unpaired += 1;
            continue;
        };
        matched.insert(key.clone());
        let (opponent, packs, _) = key;
        let paired = by_opponent.entry(opponent).or_default();
        paired.played_alike += usize::from(ga.moves == gb.moves);
        let (sa, sb) = (ga.score, gb.score);
        if sa > sb {
            paired.a_better.push(packs);
        } else if sb > sa {
            paired.b_better.push(packs);
        } else if sa == 1.0 {
            paired.both_won += 1;
        } else if sa == 0.0 {
            paired.both_lost += 1;
        } else {
            paired.both_drew += 1;
        }
    }
    for paired in by_opponent.values_mut() {
        paired.a_better.sort();
        paired.b_better.sort();
    }
    unpaired += b.iter().filter(|g| !matched.contains(&pair_key(g))).count();
    (by_opponent, unpaired)
}

/// The comparison as text: a row per opponent, then the pack files where one bot did better.
pub fn paired_text(a_name: &str, b_name: &str, a: &[Outcome], b: &[Outcome]) -> String {
    let (by_opponent, unpaired) = pair_games(a, b);
    let mut text = format!(
        "paired: A = {a_name}, B = {b_name}; a pair is one game of each on the same pack file, seat and opponent\n"
    );
    let mut rows = vec![[
        "opponent",
        "pairs",
        "played alike",
        "both won",
        "A better",
        "B better",
        "both lost",
        "both drew",
        "sign test p",
        "stop rule (LLR)",
    ]
    .map(str::to_string)
    .to_vec()];
    let mut pooled = Paired::default();
    for p in by_opponent.values() {
        pooled.pool(p);
    }
    let all = (by_opponent.len() > 1).then_some(("all".to_string(), &pooled));
    for (opponent, p) in by_opponent.iter().map(|(o, p)| (o.clone(), p)).chain(all) {
        rows.push(vec![
            opponent,
            p.pairs().to_string(),
            p.played_alike.to_string(),
            p.both_won.to_string(),
            p.a_better.len().to_string(),
            p.b_better.len().to_string(),
            p.both_lost.to_string(),
            p.both_drew.to_string(),
            format!("{:.2}", p.p_value()),
            p.stop_rule(),
        ]);
    }
    text.push_str(&format_table(&rows, &label_left(rows[0].len())));
    for (opponent, p) in &by_opponent {
        for (who, files) in [("A", &p.a_better), ("B", &p.b_better)] {
            if !files.is_empty() {
                text.push_str(&format!("{opponent}: {who} better on {}\n", files.join(" ")));
            }
        }
    }
    if unpaired > 0 {
        text.push_str(&format!("{unpaired} game(s) without a partner in the other bot's files were left out\n"));
    }
    text.push_str(
        "sign test p: the chance of a split at least this uneven between the pairs where one bot did better \
         if neither were stronger (above 0.05: no measurable difference); played alike: pairs whose two games had \
         the same moves on both sides; stop rule: the ledger's sequential sign test (data/README.md: H0 p = 0.5 against \
         H1 p = 0.8 that a pair where one bot did better goes to A, alpha = beta = 0.05, bounds +-2.94)\n",
    );
    text
}

/// `gauntlet --rule-power`: what the ledger's rule decides when a discordant pair goes to the
/// candidate with each chance from 0.50 to 0.85, stopped after `cap` discordant pairs: what a
/// judgement can see, read before its block is declared.
pub fn rule_power_text(cap: usize) -> String {
    let rule = stats::SignSprt::LEDGER;
    let mut rows =
        vec![["p", "better", "not better", "no verdict", "discordant pairs (mean)"].map(str::to_string).to_vec()];
    for step in 0..=7 {
        let p = 0.5 + 0.05 * f64::from(step);
        let power = rule.power(p, cap);
        let percent = |chance: f64| format!("{:.0}%", 100.0 * chance);
        rows.push(vec![
            format!("{p:.2}"),
            percent(power.better),
            percent(power.not_better),
            percent(power.undecided),
            format!("{:.1}", power.mean_pairs),
        ]);
    }
    format!(
        "the ledger's sequential sign rule (H0 p = 0.5 against H1 p = {}, alpha = {}, beta = {}), stopped after \
         {cap} discordant pairs at most\n{}p: the chance that a pair where one bot did better goes to the candidate \
         (a change that wins 2 such pairs in 3 is p = 0.67); each verdict's chance, exact over the rule's walk\n",
        rule.p1,
        rule.alpha,
        rule.beta,
        format_table(&rows, &label_left(rows[0].len()))
    )
}

#[cfg(test)]
mod tests {
    use super::{pair_games, paired_text, rule_power_text, Outcome};

    fn game(opponent: &'static str, packs: &'static str, seat: usize, score: f64) -> Outcome<'static> {
        Outcome { opponent, packs, seat, score, moves: ["ours", "theirs"] }
    }

    #[test]
    fn the_stop_rule_reads_the_discordant_pairs_per_opponent_and_pooled() {
        let files = [
            "seed:1000000",
            "seed:1000001",
            "seed:1000002",
            "seed:1000003",
            "seed:1000004",
            "seed:1000005",
            "seed:1000006",
        ];
        // Against toga A won 4 pairs B lost, against kera 3: 7 to 0 pooled, ln 1.6 × 7 = 3.29.
        let a: Vec<_> = (0..7).map(|i| game(if i < 4 { "toga" } else { "kera" }, files[i], i % 2, 1.0)).collect();
        let b: Vec<_> = (0..7).map(|i| game(if i < 4 { "toga" } else { "kera" }, files[i], i % 2, 0.0)).collect();
        let (paired, _) = pair_games(&a, &b);
        assert_eq!(paired["toga"].stop_rule(), "+1.88 go on");
        let text = paired_text("A", "B", &a, &b);
        let pooled = text.lines().find(|l| l.starts_with("all")).expect("a pooled row");
        assert!(pooled.ends_with("+3.29 stop: A better"), "{text}");
        // The other way round: B's 7 wins are A's losses, −0.916 × 7.
        let text = paired_text("A", "B", &b, &a);
        assert!(text.lines().any(|l| l.starts_with("all") && l.ends_with("-6.41 stop: A not better")), "{text}");
    }

    #[test]
    fn the_rule_power_table_reads_from_a_fair_change_to_a_strong_one() {
        let text = rule_power_text(1000);
        let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("0.")).collect();
        assert_eq!(rows.len(), 8, "{text}");
        assert!(rows[0].starts_with("0.50") && rows[7].starts_with("0.85"), "{text}");
        // A fair change is called better about one time in twenty, one at H1 (0.80) nearly always.
        assert!(rows[0].split_whitespace().nth(1) == Some("4%"), "{text}");
        assert!(rows[6].split_whitespace().nth(1) == Some("96%"), "{text}");
    }

    #[test]
    fn games_pair_by_opponent_pack_file_and_seat() {
        let a = [
            game("toga", "/x/pack_0001.pack", 0, 1.0),
            game("toga", "/x/pack_0002.pack", 1, 0.0),
            game("toga", "/x/pack_0003.pack", 0, 1.0),
            game("kera", "/x/pack_0001.pack", 0, 0.0),
            game("toga", "/x/pack_0004.pack", 0, 0.5), // no partner
        ];
        let mut b = [
            // Another folder, the same file names: still pairs.
            game("toga", "/y/pack_0001.pack", 0, 1.0), // both won
            game("toga", "/y/pack_0002.pack", 1, 1.0), // B better
            game("toga", "/y/pack_0003.pack", 0, 0.0), // A better
            game("kera", "/y/pack_0001.pack", 0, 0.0), // both lost
            game("toga", "/y/pack_0003.pack", 1, 0.0), // the other seat: no partner
        ];
        b[1].moves[0] = "other moves"; // B played pack_0002 its own way
        let (paired, unpaired) = pair_games(&a, &b);
        assert_eq!(unpaired, 2);
        let toga = &paired["toga"];
        assert_eq!((toga.both_won, toga.both_lost, toga.both_drew), (1, 0, 0));
        assert_eq!(toga.a_better, ["pack_0003.pack"]);
        assert_eq!(toga.b_better, ["pack_0002.pack"]);
        assert_eq!(toga.pairs(), 3);
        assert_eq!(paired["kera"].both_lost, 1);
        assert_eq!(toga.played_alike, 2, "pack_0002 was played differently");
        let text = paired_text("A", "B", &a, &b);
        assert!(text.contains("toga: A better on pack_0003.pack"), "{text}");
        assert!(text.contains("2 game(s) without a partner"), "{text}");
    }
}
