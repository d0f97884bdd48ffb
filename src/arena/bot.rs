//! A bot as a child process: started with `sh -c CMD`, fed through a writer thread (so a bot that
//! stops reading can never block the referee) and read through a reader thread that stamps every
//! line with the moment it arrived (so thinking time is exact even when both bots think at once).

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

/// Lines read ahead of the referee at most.
const LINE_QUEUE: usize = 64;
/// The longest line kept whole, in bytes.
const MAX_LINE: u64 = 1 << 16;

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

/// A running bot. Dropping it kills the bot's whole process group and reaps it.
pub struct BotProcess {
    child: Child,
    to_bot: Option<Sender<Vec<u8>>>,
    lines: Receiver<(Instant, String)>,
    /// Every byte sent to the bot, in order: its exact input stream.
    pub input: Vec<u8>,
}

impl BotProcess {
    /// Starts `sh -c command` with piped stdin and stdout.
    pub fn start(command: &str, stderr: StderrTo) -> Result<BotProcess, String> {
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(command).stdin(Stdio::piped()).stdout(Stdio::piped());
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
        let mut child = cmd.spawn().map_err(|e| format!("cannot start `sh -c {command}`: {e}"))?;
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
        Ok(BotProcess { child, to_bot: Some(to_bot), lines, input: Vec::new() })
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
        // Closing stdin first lets the writer thread end; then the whole group is killed and
        // the child reaped (no zombie). Reader threads end when the killed bot's stdout closes.
        self.to_bot = None;
        kill_tree(&mut self.child);
        let _ = self.child.wait();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_timeouts_and_exits() {
        let mut bot = BotProcess::start("echo hello; read x; echo \"got $x\"; sleep 5", StderrTo::Discard).unwrap();
        let t = Instant::now();
        assert!(matches!(bot.reply(t, Duration::from_secs(5)), Reply::Line(l, _) if l == "hello"));
        let t = bot.send(b"42\n");
        assert!(matches!(bot.reply(t, Duration::from_secs(5)), Reply::Line(l, _) if l == "got 42"));
        let t = bot.send(b"more\n");
        assert_eq!(bot.reply(t, Duration::from_millis(100)), Reply::Timeout);
        assert_eq!(bot.input, b"42\nmore\n");
        drop(bot); // kills `sleep` too, or the test would take 5 s

        let mut bot = BotProcess::start("exit 3", StderrTo::Discard).unwrap();
        assert_eq!(bot.reply(Instant::now(), Duration::from_secs(5)), Reply::Closed);
    }

    #[test]
    fn a_bot_that_prints_without_end_is_read_line_by_line() {
        let mut bot = BotProcess::start("yes '0 0'", StderrTo::Discard).unwrap();
        for _ in 0..1000 {
            assert!(matches!(bot.reply(Instant::now(), Duration::from_secs(5)), Reply::Line(l, _) if l == "0 0"));
        }
    }

    #[test]
    fn a_bot_that_never_reads_cannot_block_the_referee() {
        let mut bot = BotProcess::start("sleep 5", StderrTo::Discard).unwrap();
        let t = Instant::now();
        for _ in 0..200 {
            bot.send(&[b'x'; 4096]);
        }
        assert_eq!(bot.reply(t, Duration::from_millis(50)), Reply::Timeout);
        assert!(t.elapsed() < Duration::from_secs(2));
    }
}
