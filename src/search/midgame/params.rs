//! The midgame search's parameters: the depth, the opponent model and every evaluation weight.
//!
//! Values are in hundredths of a garbage block ([`super::VALUE_PER_BLOCK`] = one block), so the
//! seed's fractions (1/5, 0.9, /81) stay exact enough in integers. A weight "per block" is the
//! value one block is worth: 100 counts a block fully, 20 counts it a fifth.

/// How the opponent is assumed to answer at every ply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum OpponentModel {
    /// Both: the opponent sends its worst garbage, or sends nothing, whichever is worse for us
    /// (seed: 自分の探玢の芋盎し).
    #[default]
    Worst,
    /// The opponent always sends the most it can (when it can send anything).
    Attack,
    /// The opponent never sends anything (when it has a move that sends nothing).
    Quiet,
}

/// The midgame exhaustive search's parameters, one flag each (seed 000: 最善手の探玢 and
/// 評䟡倀の芋盎し).
#[derive(Clone, Debug, clap::Args)]
pub struct MidgameParams {
    /// Midgame: plies searched on both fields at most (iterative deepening stops earlier when
    /// the next depth would not fit the turn; the caller lowers it when short of time; at most 6).
    #[arg(long = "mid-depth", default_value_t = 5)]
    pub depth: usize,
    /// Midgame: how the opponent is assumed to answer.
    #[arg(long = "mid-opponent", value_enum, default_value_t = OpponentModel::Worst)]
    pub opponent: OpponentModel,
    /// Midgame: an opponent move is an attack (a class of its own in the opponent's summary)
    /// when it sends at least this much garbage; smaller sends and gauge drains are then its
    /// quiet moves, answered with their own worst. This keeps a line's big fire apart from its
    /// small chains, so the summary cannot let the opponent fire its big chain twice (once from
    /// the line that fired it, once from a line that only sent a small chain). 0: any send or
    /// drain is an attack and a quiet move sends nothing (seed 000). Off by default: with 10,
    /// 10-0-14 against togatoga on files 27–38, against 13-0-11 without (both with
    /// `--expected-turns 40`).
    #[arg(long = "mid-attack-min-send", default_value_t = 0)]
    pub attack_min_send: u32,
    /// Midgame: search every root move with a full window, so every value is exact (for
    /// explanations; slower). Otherwise moves that cannot beat the best get an upper bound.
    #[arg(long = "mid-exact-root")]
    pub exact_root: bool,

    /// Midgame eval: value per block of pending garbage in whole rows, the opponent's minus ours.
    #[arg(long = "mid-stock-rows", default_value_t = 100)]
    pub stock_rows: i64,
    /// Midgame eval: value per block of pending garbage short of a row (the seed counts them 1/5).
    #[arg(long = "mid-stock-units", default_value_t = 20)]
    pub stock_units: i64,
    /// Midgame eval: value per garbage block on the opponent's field more than on ours.
    #[arg(long = "mid-field-garbage", default_value_t = 100)]
    pub field_garbage: i64,

    /// Midgame eval: value per block our skill would send now (scaled by (1 + gauge)/81 below
    /// 80; the seed lowers it when building chains).
    #[arg(long = "mid-own-skill", default_value_t = 50)]
    pub own_skill: i64,

    /// Midgame eval: value per block the opponent's skill would send once charged (subtracted).
    #[arg(long = "mid-opp-skill", default_value_t = 100)]
    pub opp_skill: i64,
    /// Midgame eval: below this gauge the opponent's skill is no threat (4+ turns from firing).
    #[arg(long = "mid-opp-skill-min-gauge", default_value_t = 56)]
    pub opp_skill_min_gauge: u32,
    /// Midgame eval: the opponent's charging skill (gauge below 80) counts its garbage × gauge/80
    /// divided by this.
    #[arg(long = "mid-opp-skill-divisor", default_value_t = 5)]
    pub opp_skill_divisor: i64,

    /// Midgame eval: penalty per own block in row 15 from the bottom (the row about to fall
    /// counted).
    #[arg(long = "mid-row15-penalty", default_value_t = 0)]
    pub row15_penalty: i64,
    /// Midgame eval: penalty per own block in row 16 (the row about to fall counted).
    #[arg(long = "mid-row16-penalty", default_value_t = 0)]
    pub row16_penalty: i64,
    /// Midgame eval: penalty per own block in row 17 (reached only through the row about to fall).
    #[arg(long = "mid-row17-penalty", default_value_t = 10_000)]
    pub row17_penalty: i64,

    /// Midgame eval: our chains from this many links (up to the max below) are wasted while the
    /// opponent's field holds little garbage (3-link chains drain its gauge: not wasted).
    #[arg(long = "mid-small-chain-min-links", default_value_t = 4)]
    pub small_chain_min_links: u32,
    /// Midgame eval: the longest wasted chain (see the min).
    #[arg(long = "mid-small-chain-max-links", default_value_t = 9)]
    pub small_chain_max_links: u32,
    /// Midgame eval: "little garbage" for wasted chains: at most this many on the opponent's field.
    #[arg(long = "mid-small-chain-opp-garbage", default_value_t = 20)]
    pub small_chain_opp_garbage: u32,
    /// Midgame eval: penalty for each wasted chain.
    #[arg(long = "mid-small-chain-penalty", default_value_t = 1500)]
    pub small_chain_penalty: i64,

    /// Midgame eval: sending at most this many blocks in all over the searched plies barely hurts
    /// the opponent (see the discount).
    #[arg(long = "mid-small-send-max", default_value_t = 15)]
    pub small_send_max: u32,
    /// Midgame eval: value taken back per block of such a small send.
    #[arg(long = "mid-small-send-discount", default_value_t = 90)]
    pub small_send_discount: i64,

    /// Midgame eval: before this turn the opponent is assumed not to fire small chains (lines where
    /// it does get the early-attack bonus).
    #[arg(long = "mid-early-turns", default_value_t = 20)]
    pub early_turns: usize,
    /// Midgame eval: "small" for early attacks: sending at most what this many links send.
    #[arg(long = "mid-early-attack-links", default_value_t = 9)]
    pub early_attack_links: u32,
    /// Midgame eval: bonus for a line where the opponent fires a small chain early.
    #[arg(long = "mid-early-attack-bonus", default_value_t = 5000)]
    pub early_attack_bonus: i64,
    /// Midgame eval: while our field holds at most this much garbage, the opponent is assumed not
    /// to fire small chains (lines where it does get the refund).
    #[arg(long = "mid-small-attack-field-garbage", default_value_t = 70)]
    pub small_attack_field_garbage: u32,
    /// Midgame eval: "small" for the refund: sending at most what this many links send.
    #[arg(long = "mid-small-attack-links", default_value_t = 8)]
    pub small_attack_links: u32,
    /// Midgame eval: value given back per block of such a small attack.
    #[arg(long = "mid-small-attack-refund", default_value_t = 90)]
    pub small_attack_refund: i64,

    /// Midgame eval: bonus for sending lethal garbage the opponent cannot answer by its skill in
    /// time (or for its death within the search).
    #[arg(long = "mid-kill-bonus", default_value_t = 10_000_000_000)]
    pub kill_bonus: i64,
    /// Midgame eval: the kill bonus shrinks by this per ply until the lethal garbage was sent
    /// (faster kills first).
    #[arg(long = "mid-kill-ply-step", default_value_t = 10_000_000)]
    pub kill_ply_step: i64,
    /// Midgame eval: a near kill sends garbage within this many blocks of lethal.
    #[arg(long = "mid-near-kill-margin", default_value_t = 30)]
    pub near_kill_margin: u32,
    /// Midgame eval: bonus for a near kill its skill cannot offset in time.
    #[arg(long = "mid-near-kill-bonus", default_value_t = 1_000_000_000)]
    pub near_kill_bonus: i64,
    /// Midgame eval: the near-kill bonus shrinks by this per ply until the garbage was sent.
    #[arg(long = "mid-near-kill-ply-step", default_value_t = 1_000_000)]
    pub near_kill_ply_step: i64,
    /// Midgame eval: our death is worth this much below zero (plus the step per ply put off).
    #[arg(long = "mid-death-penalty", default_value_t = 10_000_000_000_000)]
    pub death_penalty: i64,
    /// Midgame eval: our death is less bad by this for every ply it is put off.
    #[arg(long = "mid-death-ply-step", default_value_t = 10_000_000_000)]
    pub death_ply_step: i64,
}

impl Default for MidgameParams {
    fn default() -> Self {
        crate::flag_defaults()
    }
}
