//! The data the project ships in `data/` (its README says where each file comes from): 100 real
//! pack files, the simulator workloads with their expected results, and the books of race
//! positions. They are built into the
//! binary, so every default that reads them works wherever the binary runs (`cargo install`, a
//! copied binary, another working directory); a path given on the command line reads files
//! instead.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use include_dir::{include_dir, Dir};

use crate::book::{parse_book, read_book, Position};
use crate::protocol::{pack_files, read_pack_file, Reader};
use crate::rules::Packs;

static PACKS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/data/packs");
static BENCH: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/data/bench");
static BOOKS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/data/books");

/// The shipped pack files' folder in the repository; their labels start with it.
pub const PACKS_DIR: &str = "data/packs";
/// The shipped workloads' folder in the repository.
pub const BENCH_DIR: &str = "data/bench";
/// The shipped books' folder in the repository.
pub const BOOKS_DIR: &str = "data/books";

/// Pack files as (label, packs), in order: the files at `path` (one file, or a folder's pack
/// files as [`pack_files`] lists them, labelled by their paths), or without a path the shipped
/// ones, labelled `data/packs/pack_NNNN.pack`.
pub fn pack_set(path: Option<&Path>) -> Result<Vec<(String, Packs)>, String> {
    let Some(path) = path else { return shipped_packs() };
    pack_files(path)?.into_iter().map(|file| Ok((file.display().to_string(), read_pack_file(&file)?))).collect()
}

fn shipped_packs() -> Result<Vec<(String, Packs)>, String> {
    let mut files: Vec<_> = PACKS.files().filter(|f| f.path().extension().is_some_and(|e| e == "pack")).collect();
    files.sort_by_key(|f| f.path());
    files
        .into_iter()
        .map(|file| {
            let label = format!("{PACKS_DIR}/{}", file.path().display());
            let packs = Reader::new(file.contents()).read_packs().map_err(|e| format!("{label}: {e}"))?;
            Ok((label, packs))
        })
        .collect()
}

/// The text of the workload file `name` (e.g. `sim-positions-random.txt`): read from the folder
/// `dir` when given, else the shipped copy.
pub fn bench_text(dir: Option<&Path>, name: &str) -> Result<Cow<'static, str>, String> {
    if let Some(dir) = dir {
        let path = dir.join(name);
        return std::fs::read_to_string(&path).map(Cow::Owned).map_err(|e| format!("{}: {e}", path.display()));
    }
    BENCH
        .get_file(name)
        .and_then(|f| f.contents_utf8())
        .map(Cow::Borrowed)
        .ok_or_else(|| format!("{BENCH_DIR}/{name}: not among the shipped workloads"))
}

/// The positions of the books at `paths`, in order, or without a path those of the shipped
/// books (`data/books/*.jsonl`, by name), each checked by the rules as it is read.
pub fn book_set(paths: &[PathBuf]) -> Result<Vec<Position>, String> {
    let mut positions = Vec::new();
    if paths.is_empty() {
        let mut files: Vec<_> = BOOKS.files().filter(|f| f.path().extension().is_some_and(|e| e == "jsonl")).collect();
        files.sort_by_key(|f| f.path());
        for file in files {
            let label = format!("{BOOKS_DIR}/{}", file.path().display());
            let text = file.contents_utf8().ok_or_else(|| format!("{label}: not UTF-8"))?;
            positions.extend(parse_book(text, &label)?);
        }
    }
    for path in paths {
        positions.extend(read_book(path)?);
    }
    Ok(positions)
}
