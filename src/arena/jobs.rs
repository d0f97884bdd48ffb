//! Games played at once, each pinned to its own cores (`gauntlet` and `tune`).

use std::fs;
use std::io::ErrorKind;
use std::process::{Command, Stdio};

/// How many games run at once and on which cores.
#[derive(Clone, Debug, clap::Args)]
pub struct PinnedJobs {
    /// Games played at once.
    #[arg(long, value_name = "J", default_value_t = 1)]
    pub jobs: usize,
    /// Cores per game: job slot k runs both bots under `taskset -c` on the cores k·C … k·C+C−1
    /// (counted among those this process may use). J·C must not exceed the machine's cores.
    #[arg(long, value_name = "C", default_value_t = 2)]
    pub cpus_per_game: usize,
    /// Do not pin games to cores (no taskset; --cpus-per-game is ignored).
    #[arg(long)]
    pub no_pin: bool,
}

impl PinnedJobs {
    /// Each job slot's cpu list (`None` everywhere with --no-pin), after checking that taskset
    /// works.
    pub fn slots(&self) -> Result<Vec<Option<String>>, String> {
        if self.jobs == 0 {
            return Err("--jobs must be at least 1".into());
        }
        if self.no_pin {
            return Ok(vec![None; self.jobs]);
        }
        if self.cpus_per_game == 0 {
            return Err("--cpus-per-game must be at least 1".into());
        }
        let usable = usable_cpus();
        let slots: Option<Vec<String>> = (0..self.jobs).map(|k| slot_cpus(&usable, self.cpus_per_game, k)).collect();
        let Some(slots) = slots else {
            return Err(format!(
                "--jobs {} × --cpus-per-game {} needs {} cores, this machine has {} (lower them, or pass --no-pin)",
                self.jobs,
                self.cpus_per_game,
                self.jobs * self.cpus_per_game,
                usable.len()
            ));
        };
        let probe = Command::new("taskset")
            .args(["-c", &slots[0], "true"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        match probe {
            Ok(s) if s.success() => Ok(slots.into_iter().map(Some).collect()),
            Ok(s) => Err(format!("`taskset -c {} true` failed ({s}): pass --no-pin to run unpinned", slots[0])),
            Err(e) if e.kind() == ErrorKind::NotFound => {
                Err("taskset not found: install util-linux (it provides taskset) or pass --no-pin".into())
            }
            Err(e) => Err(format!("cannot run taskset: {e} (pass --no-pin to run unpinned)")),
        }
    }
}

/// Reads a cpu list such as `0-3,8,10-11` (as `taskset -c` and `/proc/*/status` write them).
pub fn parse_cpu_list(text: &str) -> Option<Vec<usize>> {
    let mut cpus = Vec::new();
    for part in text.trim().split(',') {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (usize, usize) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
                cpus.extend(a..=b);
            }
            None => cpus.push(part.trim().parse().ok()?),
        }
    }
    Some(cpus)
}

/// The cpus job slot `slot` runs on, as `taskset -c` takes them: the slot-th run of `per_game`
/// cpus in `usable` (`None` when there are not that many).
pub fn slot_cpus(usable: &[usize], per_game: usize, slot: usize) -> Option<String> {
    let cpus = usable.get(slot * per_game..(slot + 1) * per_game)?;
    Some(cpus.iter().map(usize::to_string).collect::<Vec<_>>().join(","))
}

/// The cpus this process may run on (its affinity list where Linux says it, else all of them),
/// at most as many as `available_parallelism` counts (which also respects cgroup quotas).
fn usable_cpus() -> Vec<usize> {
    let count = std::thread::available_parallelism().map_or(1, |n| n.get());
    let allowed = fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find_map(|l| l.strip_prefix("Cpus_allowed_list:")).and_then(parse_cpu_list));
    let mut cpus = allowed.unwrap_or_else(|| (0..count).collect());
    cpus.truncate(count);
    cpus
}
