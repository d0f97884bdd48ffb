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
    /// Midgame: plies searched on both fields (the caller lowers it when short of time; at most 6).
    #[arg(long = "mid-depth", default_value_t = 4)]
    pub depth: usize,
    /// Midgame: how the opponent is assumed to answer.
    #[arg(long = "mid-opponent", value_enum, default_value_t = OpponentModel::Worst)]
    pub opponent: OpponentModel,

    /// Value per block of pending garbage in whole rows (the stock difference, tens digit).
    #[arg(long = "mid-stock-rows", default_value_t = 100)]
    pub stock_rows: i64,
    /// Value per block of pending garbage short of a row (units digit: the seed counts them 1/5).
    #[arg(long = "mid-stock-units", default_value_t = 20)]
    pub stock_units: i64,
    /// Value per garbage block on the opponent's field more than on ours.
    #[arg(long = "mid-field-garbage", default_value_t = 100)]
    pub field_garbage: i64,

    /// Value per block our skill would send now, while chasing chains (scaled by (1 + gauge)/81
    /// below 80; the seed lowers it when building chains).
    #[arg(long = "mid-own-skill", default_value_t = 50)]
    pub own_skill: i64,
    /// Value per block our skill would send now, in skill mode.
    #[arg(long = "mid-own-skill-mode", default_value_t = 100)]
    pub own_skill_mode: i64,
    /// Skill mode: value per block the skill's explosion would remove (5s and their numbered
    /// neighbours), favouring fields that gather them.
    #[arg(long = "mid-skill-mode-exploded", default_value_t = 20)]
    pub skill_mode_exploded: i64,

    /// Value per block the opponent's skill would send once charged (subtracted).
    #[arg(long = "mid-opp-skill", default_value_t = 100)]
    pub opp_skill: i64,
    /// Below this gauge the opponent's skill is no threat (four turns or more from firing).
    #[arg(long = "mid-opp-skill-min-gauge", default_value_t = 56)]
    pub opp_skill_min_gauge: u32,
    /// A charging skill (gauge below 80) counts its garbage × gauge/80 divided by this.
    #[arg(long = "mid-opp-skill-divisor", default_value_t = 5)]
    pub opp_skill_divisor: i64,

    /// Penalty per own block in row 15 from the bottom (the row about to fall included).
    #[arg(long = "mid-row15-penalty", default_value_t = 0)]
    pub row15_penalty: i64,
    /// Penalty per own block in row 16.
    #[arg(long = "mid-row16-penalty", default_value_t = 0)]
    pub row16_penalty: i64,
    /// Penalty per own block in row 17 (reached only through the row about to fall).
    #[arg(long = "mid-row17-penalty", default_value_t = 10_000)]
    pub row17_penalty: i64,

    /// Our chains of at least this many links ...
    #[arg(long = "mid-small-chain-min-links", default_value_t = 4)]
    pub small_chain_min_links: u32,
    /// ... and at most this many are wasted while the opponent's field holds little garbage.
    #[arg(long = "mid-small-chain-max-links", default_value_t = 9)]
    pub small_chain_max_links: u32,
    /// "Little garbage": at most this many garbage blocks on the opponent's field.
    #[arg(long = "mid-small-chain-opp-garbage", default_value_t = 20)]
    pub small_chain_opp_garbage: u32,
    /// Penalty for each such wasted chain.
    #[arg(long = "mid-small-chain-penalty", default_value_t = 1500)]
    pub small_chain_penalty: i64,

    /// When we send at most this many blocks in all over the searched plies ...
    #[arg(long = "mid-small-send-max", default_value_t = 15)]
    pub small_send_max: u32,
    /// ... this much value per block sent is taken back (it barely hurts the opponent).
    #[arg(long = "mid-small-send-discount", default_value_t = 90)]
    pub small_send_discount: i64,

    /// Before this turn the opponent is assumed not to fire small chains ...
    #[arg(long = "mid-early-turns", default_value_t = 20)]
    pub early_turns: usize,
    /// ... of at most this many links (sending at most their garbage) ...
    #[arg(long = "mid-early-attack-links", default_value_t = 9)]
    pub early_attack_links: u32,
    /// ... so a line where it does gets this bonus.
    #[arg(long = "mid-early-attack-bonus", default_value_t = 5000)]
    pub early_attack_bonus: i64,
    /// While our field holds at most this much garbage ...
    #[arg(long = "mid-small-attack-field-garbage", default_value_t = 70)]
    pub small_attack_field_garbage: u32,
    /// ... the opponent is assumed not to fire chains of at most this many links ...
    #[arg(long = "mid-small-attack-links", default_value_t = 8)]
    pub small_attack_links: u32,
    /// ... so a line where it does gets back this much value per block it sends.
    #[arg(long = "mid-small-attack-refund", default_value_t = 90)]
    pub small_attack_refund: i64,

    /// Bonus for sending lethal garbage the opponent cannot answer by its skill in time.
    #[arg(long = "mid-kill-bonus", default_value_t = 10_000_000_000)]
    pub kill_bonus: i64,
    /// The kill bonus shrinks by this for each ply before the lethal garbage was sent (faster
    /// kills first).
    #[arg(long = "mid-kill-ply-step", default_value_t = 10_000_000)]
    pub kill_ply_step: i64,
    /// Near kill: garbage sent within this many blocks of lethal.
    #[arg(long = "mid-near-kill-margin", default_value_t = 30)]
    pub near_kill_margin: u32,
    /// Bonus for a near kill.
    #[arg(long = "mid-near-kill-bonus", default_value_t = 1_000_000_000)]
    pub near_kill_bonus: i64,
    /// The near-kill bonus shrinks by this for each ply before the garbage was sent.
    #[arg(long = "mid-near-kill-ply-step", default_value_t = 1_000_000)]
    pub near_kill_ply_step: i64,
    /// Our death: this much below zero ...
    #[arg(long = "mid-death-penalty", default_value_t = 10_000_000_000_000)]
    pub death_penalty: i64,
    /// ... less this much for every ply it is put off.
    #[arg(long = "mid-death-ply-step", default_value_t = 10_000_000_000)]
    pub death_ply_step: i64,
}

impl Default for MidgameParams {
    fn default() -> Self {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct Defaults {
            #[command(flatten)]
            params: MidgameParams,
        }
        Defaults::parse_from(["defaults"]).params
    }
}
