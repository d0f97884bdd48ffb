//! The contest protocol: reading the game start and each turn from any reader, writing commands.
//!
//! Every error says which line it is on, what was expected and what was found, so a bad
//! `input.txt` can be fixed by reading one message.

use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};

use crate::rules::{Action, Field, Pack, Packs, GARBAGE, GAUGE_MAX, MAX_TURNS, PACK_COUNT, VISIBLE_HEIGHT, WIDTH};

/// A protocol error: where, what was expected, what was found.
#[derive(Debug, thiserror::Error)]
pub enum ProtocolError {
    #[error("line {line}: expected {expected}, found {found}")]
    Unexpected { line: usize, expected: String, found: String },
    #[error("reading input: {0}")]
    Io(#[from] io::Error),
}

/// One player's part of a turn's input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerInput {
    /// Thinking time left for the game, in ms.
    pub time_left_ms: u64,
    /// Garbage stock before this turn's drop.
    pub garbage: u32,
    /// Skill gauge as of the end of the previous turn.
    pub gauge: u32,
    pub score: u64,
    /// The field at the end of the previous turn (this turn's garbage row not yet fallen).
    pub field: Field,
}

/// A turn's input: the turn number, the bot itself, then the opponent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnInput {
    pub turn: usize,
    pub me: PlayerInput,
    pub opponent: PlayerInput,
}

/// What comes next in a stream after a turn (or at its start).
#[derive(Debug, PartialEq, Eq)]
pub enum Next {
    Turn(Box<TurnInput>),
    /// Another game's pack list begins (an input file may hold several games).
    NewGame,
    /// End of input.
    End,
}

/// A line-counting reader of protocol input.
pub struct Reader<R> {
    input: R,
    line: usize,
    peeked: Option<String>,
}

impl<R: BufRead> Reader<R> {
    pub fn new(input: R) -> Self {
        Reader { input, line: 0, peeked: None }
    }

    /// The number of the last line read (1-based).
    pub fn line(&self) -> usize {
        self.line
    }

    fn raw_line(&mut self) -> Result<Option<String>, ProtocolError> {
        if let Some(l) = self.peeked.take() {
            self.line += 1;
            return Ok(Some(l));
        }
        let mut buf = String::new();
        if self.input.read_line(&mut buf)? == 0 {
            return Ok(None);
        }
        self.line += 1;
        Ok(Some(buf.trim().to_string()))
    }

    fn peek(&mut self) -> Result<Option<&str>, ProtocolError> {
        if self.peeked.is_none() {
            let mut buf = String::new();
            if self.input.read_line(&mut buf)? == 0 {
                return Ok(None);
            }
            self.peeked = Some(buf.trim().to_string());
        }
        Ok(self.peeked.as_deref())
    }

    /// Skips blank lines at the current position; true if a non-blank line follows.
    fn skip_blank(&mut self) -> Result<bool, ProtocolError> {
        loop {
            match self.peek()? {
                None => return Ok(false),
                Some("") => {
                    self.raw_line()?;
                }
                Some(_) => return Ok(true),
            }
        }
    }

    /// An error at `line`, where `found` is the offending line's text.
    fn error(&self, line: usize, expected: &str, found: &str) -> ProtocolError {
        ProtocolError::Unexpected { line, expected: expected.to_string(), found: format!("{found:?}") }
    }

    /// The next line, which must exist.
    fn expect_line(&mut self, expected: &str) -> Result<String, ProtocolError> {
        match self.raw_line()? {
            Some(l) => Ok(l),
            None => Err(ProtocolError::Unexpected {
                line: self.line + 1,
                expected: expected.to_string(),
                found: "end of input".to_string(),
            }),
        }
    }

    /// A line of exactly `N` whitespace-separated numbers, each accepted by `valid`.
    fn numbers<const N: usize>(
        &mut self,
        expected: &str,
        valid: impl Fn(u64) -> bool,
    ) -> Result<[u64; N], ProtocolError> {
        let line = self.expect_line(expected)?;
        let words: Vec<&str> = line.split_whitespace().collect();
        let parsed: Option<Vec<u64>> = words.iter().map(|w| w.parse::<u64>().ok().filter(|&v| valid(v))).collect();
        match parsed {
            Some(v) if v.len() == N => Ok(v.try_into().expect("length checked")),
            _ => Err(self.error(self.line, expected, &line)),
        }
    }

    fn number(&mut self, expected: &str, valid: impl Fn(u64) -> bool) -> Result<u64, ProtocolError> {
        Ok(self.numbers::<1>(expected, valid)?[0])
    }

    fn end_marker(&mut self) -> Result<(), ProtocolError> {
        let line = self.expect_line("END")?;
        if line == "END" {
            Ok(())
        } else {
            Err(self.error(self.line, "END", &line))
        }
    }

    /// The game start: 500 packs, each two rows of two numbers 0..=9 and `END`.
    pub fn read_packs(&mut self) -> Result<Packs, ProtocolError> {
        self.skip_blank()?;
        let mut packs = Vec::with_capacity(PACK_COUNT);
        for i in 0..PACK_COUNT {
            let what = format!("pack {i} of {PACK_COUNT}: a row of two numbers 0-9");
            let top = self.numbers::<2>(&what, |v| v <= 9)?;
            let bottom = self.numbers::<2>(&what, |v| v <= 9)?;
            self.end_marker()?;
            packs.push(Pack::new([top[0] as u8, top[1] as u8], [bottom[0] as u8, bottom[1] as u8]));
        }
        Ok(Packs(packs))
    }

    /// What follows: a turn, the next game's packs, or the end of input. End of input between
    /// turns ends a game cleanly; anywhere else it is an error.
    pub fn read_next(&mut self) -> Result<Next, ProtocolError> {
        if !self.skip_blank()? {
            return Ok(Next::End);
        }
        let words = self.peek()?.map_or(0, |l| l.split_whitespace().count());
        if words == 2 {
            return Ok(Next::NewGame);
        }
        let turn = self.number(&format!("a turn number 0-{}", MAX_TURNS - 1), |v| v < MAX_TURNS as u64)? as usize;
        let me = self.read_player()?;
        let opponent = self.read_player()?;
        Ok(Next::Turn(Box::new(TurnInput { turn, me, opponent })))
    }

    fn read_player(&mut self) -> Result<PlayerInput, ProtocolError> {
        let time_left_ms = self.number("the remaining time in ms", |_| true)?;
        let garbage = self.number("the garbage stock", |v| v <= u32::MAX as u64)? as u32;
        let gauge = self.number("the skill gauge 0-100", |v| v <= GAUGE_MAX as u64)? as u32;
        let score = self.number("the score", |_| true)?;
        let first_row = self.line + 1;
        let mut rows = [[0u8; WIDTH]; VISIBLE_HEIGHT];
        for (i, row) in rows.iter_mut().enumerate() {
            let what = format!("field row {} of {VISIBLE_HEIGHT}: 10 numbers, each 0-9 or 11", i + 1);
            let cells = self.numbers::<WIDTH>(&what, |v| v <= 9 || v == GARBAGE as u64)?;
            *row = cells.map(|v| v as u8);
        }
        let field =
            Field::from_rows_top_first(&rows).map_err(|e| self.error(first_row, "a settled field", &e.to_string()))?;
        self.end_marker()?;
        Ok(PlayerInput { time_left_ms, garbage, gauge, score, field })
    }
}

/// Reads a pack file (the game-start part of the protocol).
pub fn read_pack_file(path: &Path) -> Result<Packs, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Reader::new(io::BufReader::new(file)).read_packs().map_err(|e| format!("{}: {e}", path.display()))
}

/// A file, or a folder's pack files sorted by name: its `*.pack` files, or when it has none,
/// every file but hidden ones and `*.md` (so a README does not count as a pack file).
pub fn pack_files(path: &Path) -> Result<Vec<PathBuf>, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if !meta.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_file() && !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')))
        .collect();
    files.sort();
    let has_ext = |p: &PathBuf, ext: &str| p.extension().is_some_and(|e| e.eq_ignore_ascii_case(ext));
    if files.iter().any(|p| has_ext(p, "pack")) {
        files.retain(|p| has_ext(p, "pack"));
    } else {
        files.retain(|p| !has_ext(p, "md"));
    }
    if files.is_empty() {
        return Err(format!("{}: no pack files in this folder", path.display()));
    }
    Ok(files)
}

/// Writes one player's part of a turn, as the server sends it.
pub fn write_player(out: &mut impl Write, p: &PlayerInput) -> io::Result<()> {
    writeln!(out, "{}\n{}\n{}\n{}", p.time_left_ms, p.garbage, p.gauge, p.score)?;
    for row in p.field.protocol_rows() {
        let words: Vec<String> = row.iter().map(u8::to_string).collect();
        writeln!(out, "{}", words.join(" "))?;
    }
    writeln!(out, "END")
}

/// Writes a whole turn's input.
pub fn write_turn(out: &mut impl Write, t: &TurnInput) -> io::Result<()> {
    writeln!(out, "{}", t.turn)?;
    write_player(out, &t.me)?;
    write_player(out, &t.opponent)
}

/// Writes a command and flushes (the server waits for the line).
pub fn write_action(out: &mut impl Write, action: Action) -> io::Result<()> {
    writeln!(out, "{action}")?;
    out.flush()
}
