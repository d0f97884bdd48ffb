//! A bot as a child process: started with `sh -c CMD` (under `taskset -c CPUS` when pinned), fed
//! through a writer thread (so a bot that stops reading can never block the referee) and read
//! through a reader thread that stamps every line with the moment it arrived (so thinking time is
//! exact even when both bots think at once). When it ends, its peak resident memory is measured
//! (see [`BotProcess::finish`]).

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

/// Lines read ahead of the referee at most.
const LINE_QUEUE: usize = 64;
/// The longest line kept whole, in bytes.
const MAX_LINE: u64 = 1 << 16;
/// The shortest time between two memory samples: the referee asks every turn, but fast bots
/// (a few hundred microseconds a turn) would spend the referee's time on `/proc` reads.
const MEMORY_SAMPLE_EVERY: Duration = Duration::from_millis(50);

/// Where a bot's stderr goes.
#[derive(Debug)]
pub enum StderrTo {
    Discard,
    Inherit,
    File(std::fs::File),
}

/// What came back from a bot within a time limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A line (without its line break) and the time from sending to its arrival.
    Line(String, Duration),
    /// No line within the limit.
    Timeout,
    /// The bot closed its output (exited or crashed) without a line.
    Closed,
}

/// A running bot. Dropping it (or [`BotProcess::finish`]) kills the bot's whole process group
/// and reaps it.
pub struct BotProcess {
    child: Child,
    /// Set once the group is killed and the child reaped.
    ended: bool,
    /// The processes of the bot's group found so far (for memory samples).
    processes: Vec<u32>,
    /// The largest memory sample so far (KiB).
    peak_rss_kib: Option<u64>,
    last_sample: Option<Instant>,
    to_bot: Option<Sender<Vec<u8>>>,
    lines: Receiver<(Instant, String)>,
    /// Every byte sent to the bot, in order: its exact input stream.
    pub input: Vec<u8>,
}

impl BotProcess {
    /// Starts `sh -c command` with piped stdin and stdout, under `taskset -c cpus` when `cpus`
    /// (a cpu list such as `0-1` or `2,3`) is given.
    pub fn start(command: &str, cpus: Option<&str>, stderr: StderrTo) -> Result<BotProcess, String> {
        let mut cmd = launch_command(command, cpus);
        let shown = shown_command(&cmd);
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped());
        cmd.stderr(match stderr {
            StderrTo::Discard => Stdio::null(),
            StderrTo::Inherit => Stdio::inherit(),
            StderrTo::File(f) => Stdio::from(f),
        });
        #[cfg(unix)]
        {
            // Its own process group, so the whole tree `sh -c` starts can be killed at once.
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd.spawn().map_err(|e| format!("cannot start `{shown}`: {e}"))?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");

        let (to_bot, from_referee) = mpsc::channel::<Vec<u8>>();
        thread::spawn(move || write_loop(stdin, from_referee));

        // Bounded, so a bot that prints without end is held back by its pipe, not buffered here.
        let (line_tx, lines) = mpsc::sync_channel(LINE_QUEUE);
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                // A line longer than MAX_LINE is cut into pieces (each one an illegal command).
                match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        let at = Instant::now();
                        let line = String::from_utf8_lossy(&buf).trim_end_matches(['\n', '\r']).to_string();
                        if line_tx.send((at, line)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Ok(BotProcess {
            child,
            ended: false,
            processes: Vec::new(),
            peak_rss_kib: None,
            last_sample: None,
            to_bot: Some(to_bot),
            lines,
            input: Vec::new(),
        })
    }

    /// Sends `bytes` (logged in [`BotProcess::input`]) and returns the moment they were sent.
    pub fn send(&mut self, bytes: &[u8]) -> Instant {
        self.input.extend_from_slice(bytes);
        if let Some(tx) = &self.to_bot {
            // A closed pipe is not an error here: the bot is judged by what it answers.
            let _ = tx.send(bytes.to_vec());
        }
        Instant::now()
    }

    /// Waits for the next line, at most `limit` after `sent`. A line that arrives later than
    /// `limit` after `sent` is a timeout even if it is already waiting.
    pub fn reply(&mut self, sent: Instant, limit: Duration) -> Reply {
        let deadline = sent + limit;
        match self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok((at, line)) => {
                let took = at.saturating_duration_since(sent);
                if took > limit {
                    Reply::Timeout
                } else {
                    Reply::Line(line, took)
                }
            }
            Err(RecvTimeoutError::Timeout) => Reply::Timeout,
            Err(RecvTimeoutError::Disconnected) => Reply::Closed,
        }
    }

    /// Finds the processes of the bot's process group (`sh` and the bot it started, whether or
    /// not the shell `exec`ed it) and samples their memory. The referee calls it once the bot has
    /// answered turn 0, so it is running.
    pub fn find_processes(&mut self) {
        for pid in group_members(self.child.id()) {
            if !self.processes.contains(&pid) {
                self.processes.push(pid);
            }
        }
        self.last_sample = None;
        self.sample_memory();
    }

    /// Notes the peak resident memory (`VmHWM`) of the processes found so far: a few small
    /// `/proc` reads, at most every `MEMORY_SAMPLE_EVERY`. The referee calls it after every
    /// turn, so a bot that exits (or dies) before the game ends is still measured up to about its
    /// last answer.
    pub fn sample_memory(&mut self) {
        if self.last_sample.is_some_and(|t| t.elapsed() < MEMORY_SAMPLE_EVERY) {
            return;
        }
        self.last_sample = Some(Instant::now());
        let group = self.child.id();
        for &pid in &self.processes {
            self.peak_rss_kib = self.peak_rss_kib.max(vm_hwm_kib(pid, group));
        }
    }

    /// Kills the bot's whole process group, reaps it and returns the bot's peak resident memory
    /// in KiB: the largest kernel high-water mark (`VmHWM`) of any of its processes, sampled
    /// during the game and once more just before the kill. `None` where it cannot be measured (not
    /// Linux).
    ///
    /// Not `ru_maxrss` from `wait4`: a child forked from the referee keeps the referee's
    /// high-water mark across `exec`, and a bot that `sh` started is killed unreaped by it.
    pub fn finish(mut self) -> Option<u64> {
        self.end()
    }

    fn end(&mut self) -> Option<u64> {
        if std::mem::replace(&mut self.ended, true) {
            return None;
        }
        // The last memory sample comes before stdin closes: a bot may exit at once on end of input.
        self.find_processes();
        // Closing stdin first lets the writer thread end; then the whole group is killed and
        // the child reaped (no zombie). Reader threads end when the killed bot's stdout closes.
        self.to_bot = None;
        kill_tree(&mut self.child);
        let _ = self.child.wait();
        self.peak_rss_kib
    }
}

/// The command that runs `command` with `sh -c`, under `taskset -c cpus` when `cpus` is given
/// (taskset `exec`s sh, and every process sh starts inherits the cpus).
pub fn launch_command(command: &str, cpus: Option<&str>) -> Command {
    let mut cmd = match cpus {
        Some(cpus) => {
            let mut c = Command::new("taskset");
            c.args(["-c", cpus, "sh"]);
            c
        }
        None => Command::new("sh"),
    };
    cmd.arg("-c").arg(command);
    cmd
}

/// `program arg…` for messages.
fn shown_command(cmd: &Command) -> String {
    let mut words = vec![cmd.get_program().to_string_lossy().into_owned()];
    words.extend(cmd.get_args().map(|a| a.to_string_lossy().into_owned()));
    words.join(" ")
}

fn write_loop(mut stdin: ChildStdin, from_referee: Receiver<Vec<u8>>) {
    for bytes in from_referee {
        if stdin.write_all(&bytes).and_then(|()| stdin.flush()).is_err() {
            return;
        }
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.end();
    }
}

#[cfg(unix)]
fn kill_tree(child: &mut Child) {
    use nix::sys::signal::{killpg, Signal};
    use nix::unistd::Pid;
    if let Ok(pid) = i32::try_from(child.id()) {
        // The child leads its own process group (see `start`), so the group id is its pid.
        let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
    }
    let _ = child.kill();
}

#[cfg(not(unix))]
fn kill_tree(child: &mut Child) {
    let _ = child.kill();
}

/// The live processes of process group `group`, from `/proc`.
#[cfg(target_os = "linux")]
fn group_members(group: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| process_group(pid) == Some(group))
        .collect()
}

/// The process group of `pid` (`None` once it has exited).
#[cfg(target_os = "linux")]
fn process_group(pid: u32) -> Option<u32> {
    // `pid (comm) state ppid pgrp …`: comm may hold spaces and ')', so split after the last ')'.
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(')')?.1.split_whitespace().nth(2)?.parse().ok()
}

/// The `VmHWM` (peak resident memory, KiB) of process `pid` if it is still in group `group` (a
/// pid reused by another process is not counted). `None` once it has exited.
#[cfg(target_os = "linux")]
fn vm_hwm_kib(pid: u32, group: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    if process_group(pid) != Some(group) {
        return None;
    }
    let value = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?;
    value.split_whitespace().next()?.parse().ok()
}

#[cfg(not(target_os = "linux"))]
fn group_members(_group: u32) -> Vec<u32> {
    Vec::new()
}

#[cfg(not(target_os = "linux"))]
fn vm_hwm_kib(_pid: u32, _group: u32) -> Option<u64> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_timeouts_and_exits() {
        let mut bot =
            BotProcess::start("echo hello; read x; echo \"got $x\"; sleep 5", None, StderrTo::Discard).unwrap();
        let t = Instant::now();
        assert!(matches!(bot.reply(t, Duration::from_secs(5)), Reply::Line(l, _) if l == "hello"));
        let t = bot.send(b"42\n");
        assert!(matches!(bot.reply(t, Duration::from_secs(5)), Reply::Line(l, _) if l == "got 42"));
        let t = bot.send(b"more\n");
        assert_eq!(bot.reply(t, Duration::from_millis(100)), Reply::Timeout);
        assert_eq!(bot.input, b"42\nmore\n");
        drop(bot); // kills `sleep` too, or the test would take 5 s

        let mut bot = BotProcess::start("exit 3", None, StderrTo::Discard).unwrap();
        assert_eq!(bot.reply(Instant::now(), Duration::from_secs(5)), Reply::Closed);
    }

    #[test]
    fn a_bot_that_prints_without_end_is_read_line_by_line() {
        let mut bot = BotProcess::start("yes '0 0'", None, StderrTo::Discard).unwrap();
        for _ in 0..1000 {
            assert!(matches!(bot.reply(Instant::now(), Duration::from_secs(5)), Reply::Line(l, _) if l == "0 0"));
        }
    }

    #[test]
    fn a_bot_that_never_reads_cannot_block_the_referee() {
        let mut bot = BotProcess::start("sleep 5", None, StderrTo::Discard).unwrap();
        let t = Instant::now();
        for _ in 0..200 {
            bot.send(&[b'x'; 4096]);
        }
        assert_eq!(bot.reply(t, Duration::from_millis(50)), Reply::Timeout);
        assert!(t.elapsed() < Duration::from_secs(2));
    }
}
