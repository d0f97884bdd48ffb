//! The data the project ships in `data/` (its README says where each file comes from): 100 real
//! pack files and the simulator workloads with their expected results. They are built into the
//! binary, so every default that reads them works wherever the binary runs (`cargo install`, a
//! copied binary, another working directory); a path given on the command line reads files
//! instead.

use std::borrow::Cow;
use std::path::Path;

use include_dir::{include_dir, Dir};

use crate::protocol::{pack_files, read_pack_file, Reader};
use crate::rules::Packs;

static PACKS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/data/packs");
static BENCH: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/data/bench");

/// The shipped pack files' folder in the repository; their labels start with it.
pub const PACKS_DIR: &str = "data/packs";
/// The shipped workloads' folder in the repository.
pub const BENCH_DIR: &str = "data/bench";

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
