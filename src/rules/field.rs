//! The reference field: a plain grid and the most direct implementation of the rules. It is the
//! oracle the bitboard is tested against, so it favours being obviously right over being fast.

// Loops by coordinates read like the rules ("the cell at (x, y) and its neighbours").
#![allow(clippy::needless_range_loop)]

use std::fmt;
use std::str::FromStr;

use super::{
    ChainTracker, Outcome, Pack, Simulator, DANGER_ROW, GARBAGE, MAX_HEIGHT, VANISH_SUM, VISIBLE_HEIGHT, WIDTH,
};

/// A field: `cells[x][y]`, x from the left, y from the bottom; 0 empty, 1–9 blocks, 11 garbage.
/// Always settled: no block sits above an empty cell.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Field {
    cells: [[u8; MAX_HEIGHT]; WIDTH],
}

impl Default for Field {
    fn default() -> Self {
        Field { cells: [[0; MAX_HEIGHT]; WIDTH] }
    }
}

/// Why a field picture or protocol field is not a valid field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FieldParseError {
    #[error("row {row}: expected 10 cells, found {found}")]
    Width { row: usize, found: usize },
    #[error("row {row}: expected a cell (0-9 or 11; in pictures `.`, 1-9 or `#`), found {found:?}")]
    Cell { row: usize, found: String },
    #[error("expected at most {max} rows, found {found}")]
    Height { max: usize, found: usize },
    #[error("column {x}: a block floats above an empty cell (fields are always settled)")]
    Floating { x: usize },
}

impl Field {
    pub fn empty() -> Self {
        Self::default()
    }

    /// The cell at column `x`, row `y` (from the bottom); 0 outside the field's rows.
    pub fn get(&self, x: usize, y: usize) -> u8 {
        if y < MAX_HEIGHT {
            self.cells[x][y]
        } else {
            0
        }
    }

    /// Number of blocks (including garbage) in column `x`.
    pub fn height(&self, x: usize) -> usize {
        self.cells[x].iter().take_while(|&&v| v != 0).count()
    }

    /// Builds a field from rows given top first (as the protocol gives 16 rows), checking
    /// every cell and that the field is settled.
    pub fn from_rows_top_first(rows: &[[u8; WIDTH]]) -> Result<Field, FieldParseError> {
        if rows.len() > MAX_HEIGHT {
            return Err(FieldParseError::Height { max: MAX_HEIGHT, found: rows.len() });
        }
        let mut field = Field::default();
        for (i, row) in rows.iter().enumerate() {
            let y = rows.len() - 1 - i;
            for (x, &v) in row.iter().enumerate() {
                if !(v <= 9 || v == GARBAGE) {
                    return Err(FieldParseError::Cell { row: i + 1, found: v.to_string() });
                }
                field.cells[x][y] = v;
            }
        }
        field.check_settled()?;
        Ok(field)
    }

    fn check_settled(&self) -> Result<(), FieldParseError> {
        for (x, col) in self.cells.iter().enumerate() {
            let h = self.height(x);
            if col[h..].iter().any(|&v| v != 0) {
                return Err(FieldParseError::Floating { x });
            }
        }
        Ok(())
    }

    /// The 16 visible rows, top first, as the protocol sends them.
    pub fn protocol_rows(&self) -> [[u8; WIDTH]; VISIBLE_HEIGHT] {
        let mut rows = [[0; WIDTH]; VISIBLE_HEIGHT];
        for (i, row) in rows.iter_mut().enumerate() {
            let y = VISIBLE_HEIGHT - 1 - i;
            for (x, cell) in row.iter_mut().enumerate() {
                *cell = self.cells[x][y];
            }
        }
        rows
    }

    /// Counts cells matching `pred` over the whole field.
    pub fn count(&self, pred: impl Fn(u8) -> bool) -> usize {
        self.cells.iter().flatten().filter(|&&v| pred(v)).count()
    }

    fn push(&mut self, x: usize, value: u8) {
        let h = self.height(x);
        assert!(h < MAX_HEIGHT, "column {x} is full: a legal turn never stacks more than {MAX_HEIGHT}");
        self.cells[x][h] = value;
    }

    /// True when blocks `a` and `b` vanish together: both numbered and summing to 10.
    fn pairs(a: u8, b: u8) -> bool {
        (1..=9).contains(&a) && (1..=9).contains(&b) && a + b == VANISH_SUM
    }

    /// One vanish step: removes every numbered block that sums to 10 with one of its 8
    /// neighbours, all at once. Returns how many vanished.
    fn vanish_step<T: ChainTracker>(&mut self, link: u32, trace: &mut T) -> u32 {
        let mut marked = [[false; MAX_HEIGHT]; WIDTH];
        for x in 0..WIDTH {
            for y in 0..MAX_HEIGHT {
                let v = self.cells[x][y];
                marked[x][y] = self.neighbours(x, y).any(|(nx, ny)| Self::pairs(v, self.cells[nx][ny]));
            }
        }
        self.remove(&marked, link, trace)
    }

    /// The in-field cells among the 8 neighbours of (x, y).
    fn neighbours(&self, x: usize, y: usize) -> impl Iterator<Item = (usize, usize)> {
        let (x, y) = (x as isize, y as isize);
        (-1..=1)
            .flat_map(move |dx| (-1..=1).map(move |dy| (x + dx, y + dy)))
            .filter(move |&(nx, ny)| (nx, ny) != (x, y))
            .filter(|&(nx, ny)| (0..WIDTH as isize).contains(&nx) && (0..MAX_HEIGHT as isize).contains(&ny))
            .map(|(nx, ny)| (nx as usize, ny as usize))
    }

    fn remove<T: ChainTracker>(&mut self, marked: &[[bool; MAX_HEIGHT]; WIDTH], link: u32, trace: &mut T) -> u32 {
        let mut count = 0;
        for x in 0..WIDTH {
            for y in 0..MAX_HEIGHT {
                if marked[x][y] {
                    trace.vanished(link, x, y, self.cells[x][y]);
                    self.cells[x][y] = 0;
                    count += 1;
                }
            }
        }
        count
    }

    /// Every block above a gap falls.
    fn settle(&mut self) {
        for col in &mut self.cells {
            let mut kept = col.iter().copied().filter(|&v| v != 0);
            *col = std::array::from_fn(|_| kept.next().unwrap_or(0));
        }
    }

    /// Vanish and fall until a step vanishes nothing. Returns (links, blocks vanished).
    fn resolve_chain<T: ChainTracker>(&mut self, trace: &mut T) -> (u32, u32) {
        let (mut links, mut vanished) = (0, 0);
        loop {
            let n = self.vanish_step(links + 1, trace);
            if n == 0 {
                return (links, vanished);
            }
            links += 1;
            vanished += n;
            self.settle();
        }
    }
}

impl Simulator for Field {
    fn from_field(field: &Field) -> Self {
        *field
    }

    fn to_field(&self) -> Field {
        *self
    }

    fn drop_garbage_row(&mut self) {
        for x in 0..WIDTH {
            self.push(x, GARBAGE);
        }
    }

    fn drop_pack_traced<T: ChainTracker>(&mut self, pack: &Pack, x: u8, rotation: u8, trace: &mut T) -> Outcome {
        for (dx, column) in pack.columns(rotation).iter().enumerate() {
            for &v in column.as_slice() {
                self.push(x as usize + dx, v);
            }
        }
        let (links, vanished) = self.resolve_chain(trace);
        Outcome { links, vanished, exploded: 0, skill: false }
    }

    fn use_skill_traced<T: ChainTracker>(&mut self, trace: &mut T) -> Outcome {
        let mut marked = [[false; MAX_HEIGHT]; WIDTH];
        for x in 0..WIDTH {
            for y in 0..MAX_HEIGHT {
                let v = self.cells[x][y];
                let near_five = self.neighbours(x, y).any(|(nx, ny)| self.cells[nx][ny] == 5);
                marked[x][y] = v == 5 || ((1..=9).contains(&v) && near_five);
            }
        }
        let exploded = self.remove(&marked, 0, trace);
        self.settle();
        let (links, vanished) = self.resolve_chain(trace);
        Outcome { links, vanished, exploded, skill: true }
    }

    fn erase(&mut self, x: usize, y: usize) -> Outcome {
        assert!((1..=9).contains(&self.cells[x][y]), "erase ({x}, {y}): not a numbered block");
        self.cells[x][y] = 0;
        self.settle();
        let (links, vanished) = self.resolve_chain(&mut crate::rules::NoTrace);
        Outcome { links: links + 1, vanished: vanished + 1, exploded: 0, skill: false }
    }

    fn is_dead(&self) -> bool {
        (0..WIDTH).any(|x| self.height(x) > DANGER_ROW)
    }

    fn height(&self, x: usize) -> usize {
        Field::height(self, x)
    }

    fn cell(&self, x: usize, y: usize) -> u8 {
        self.get(x, y)
    }
}

impl FromStr for Field {
    type Err = FieldParseError;

    /// A text picture, top row first: `.` empty, `1`–`9` blocks, `#` garbage; 10 cells a row,
    /// up to 19 rows; blank lines and surrounding spaces are ignored. The last row is the bottom.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut rows = Vec::new();
        for (i, line) in s.lines().map(str::trim).filter(|l| !l.is_empty()).enumerate() {
            let row: Vec<u8> = line
                .chars()
                .map(|c| match c {
                    '.' => Ok(0),
                    '#' => Ok(GARBAGE),
                    '1'..='9' => Ok(c as u8 - b'0'),
                    _ => Err(FieldParseError::Cell { row: i + 1, found: c.to_string() }),
                })
                .collect::<Result<_, _>>()?;
            let row: [u8; WIDTH] =
                row.try_into().map_err(|r: Vec<u8>| FieldParseError::Width { row: i + 1, found: r.len() })?;
            rows.push(row);
        }
        Field::from_rows_top_first(&rows)
    }
}

impl fmt::Display for Field {
    /// The picture form (as [`FromStr`] reads), from the highest non-empty row (at least 16 rows).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let top = (0..WIDTH).map(|x| self.height(x)).max().unwrap_or(0).max(VISIBLE_HEIGHT);
        for y in (0..top).rev() {
            let row: String = (0..WIDTH)
                .map(|x| match self.cells[x][y] {
                    0 => '.',
                    GARBAGE => '#',
                    v => (b'0' + v) as char,
                })
                .collect();
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{self}")
    }
}
