//! How much garbage kills a field (seed 000: 臎死量のお邪魔の数の蚈算).

use crate::rules::{Simulator, GARBAGE, GARBAGE_ROW, VISIBLE_HEIGHT, WIDTH};

/// Garbage that still has to fall on `field` to fill a column with garbage to the top.
///
/// Blocks shut in by garbage and the walls (8-neighbourhood; the open top does not shut
/// anything in) can never leave unless the skill explodes them, which needs a 5 among them; so
/// a shut-in region without a 5 counts as garbage. With `b` the most garbage in one column,
/// the answer is 10 · (16 − b) (160 − 10b), 0 when a column is full of it.
pub fn lethal_garbage<S: Simulator>(field: &S) -> u32 {
    const H: usize = VISIBLE_HEIGHT;
    let grid: [[u8; H]; WIDTH] = std::array::from_fn(|x| std::array::from_fn(|y| field.cell(x, y)));
    let passable = |x: usize, y: usize| grid[x][y] != GARBAGE;
    let neighbours = |x: usize, y: usize| {
        let (x, y) = (x as isize, y as isize);
        (-1..=1isize)
            .flat_map(move |dx| (-1..=1isize).map(move |dy| (x + dx, y + dy)))
            .filter(move |&(nx, ny)| (nx, ny) != (x, y))
            .filter(|&(nx, ny)| (0..WIDTH as isize).contains(&nx) && (0..H as isize).contains(&ny))
            .map(|(nx, ny)| (nx as usize, ny as usize))
    };

    // Everything reachable from the open top row through non-garbage cells can still change.
    let mut seen = [[false; H]; WIDTH];
    let mut stack: Vec<(usize, usize)> = (0..WIDTH).filter(|&x| passable(x, H - 1)).map(|x| (x, H - 1)).collect();
    for &(x, y) in &stack {
        seen[x][y] = true;
    }
    while let Some((x, y)) = stack.pop() {
        for (nx, ny) in neighbours(x, y) {
            if passable(nx, ny) && !seen[nx][ny] {
                seen[nx][ny] = true;
                stack.push((nx, ny));
            }
        }
    }

    // The rest is shut in: each region without a 5 is as good as garbage.
    let mut per_column: [u32; WIDTH] =
        std::array::from_fn(|x| (0..H).filter(|&y| grid[x][y] == GARBAGE).count() as u32);
    for x0 in 0..WIDTH {
        for y0 in 0..H {
            if seen[x0][y0] || !passable(x0, y0) {
                continue;
            }
            seen[x0][y0] = true;
            let mut region = vec![(x0, y0)];
            let mut i = 0;
            while i < region.len() {
                let (x, y) = region[i];
                i += 1;
                for (nx, ny) in neighbours(x, y) {
                    if passable(nx, ny) && !seen[nx][ny] {
                        seen[nx][ny] = true;
                        region.push((nx, ny));
                    }
                }
            }
            if region.iter().all(|&(x, y)| grid[x][y] != 5) {
                for &(x, _) in &region {
                    per_column[x] += 1;
                }
            }
        }
    }
    let tallest = per_column.into_iter().max().unwrap_or(0).min(H as u32);
    GARBAGE_ROW * (H as u32 - tallest)
}
