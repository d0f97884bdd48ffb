//! Aligned text tables, as the gauntlet's summaries print them.

/// Rows of cells as aligned text: the columns marked `left` to the left, the others (numbers)
/// to the right.
pub fn format_table(rows: &[Vec<String>], left: &[bool]) -> String {
    let widths: Vec<usize> =
        (0..left.len()).map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0)).collect();
    let mut text = String::new();
    for r in rows {
        let cells: Vec<String> = r
            .iter()
            .zip(&widths)
            .zip(left)
            .map(|((cell, &w), &left)| if left { format!("{cell:<w$}") } else { format!("{cell:>w$}") })
            .collect();
        text.push_str(cells.join("  ").trim_end());
        text.push('\n');
    }
    text
}

/// The alignment of a table whose first column names the row and whose others are numbers: the
/// `left` of [`format_table`] for `columns` columns.
pub fn label_left(columns: usize) -> Vec<bool> {
    (0..columns).map(|c| c == 0).collect()
}
