//! The layout's rules: data flows one way, so no two modules use each other, directly or
//! through others. The graph is read from the sources: every `crate::…` or `super::…` path
//! outside comments and test modules is an edge to the deepest module it names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Module = Vec<String>;

fn module_of(file: &Path, src: &Path) -> Module {
    let relative = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Module = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    if parts == ["lib"] || parts == ["main"] {
        parts.clear();
    }
    parts
}

fn sources(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The code of a file without its comments and its `#[cfg(test)]` module.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap();
    text.lines().map(|l| l.split("//").next().unwrap()).collect::<Vec<_>>().join("\n")
}

/// The paths starting with `crate::` or `super::` in `code`, as their segments.
fn paths(code: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let bytes = code.as_bytes();
    for start in ["crate::", "super::"] {
        for (i, _) in code.match_indices(start) {
            if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
                continue;
            }
            let end = code[i..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .map_or(code.len(), |n| i + n);
            found.push(code[i..end].split("::").filter(|s| !s.is_empty()).map(str::to_string).collect());
        }
    }
    found
}

fn graph() -> BTreeMap<Module, BTreeSet<Module>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let modules: BTreeMap<Module, String> =
        files.iter().map(|f| (module_of(f, &src), code(&std::fs::read_to_string(f).unwrap()))).collect();
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (module, code) in &modules {
        for path in paths(code) {
            let mut full: Module = match path[0].as_str() {
                "crate" => Vec::new(),
                _ => module[..module.len().saturating_sub(1)].to_vec(),
            };
            let mut rest = &path[1..];
            while rest.first().is_some_and(|s| s == "super") {
                full.pop();
                rest = &rest[1..];
            }
            full.extend(rest.iter().cloned());
            let target = (1..=full.len()).rev().map(|n| full[..n].to_vec()).find(|m| modules.contains_key(m));
            // A module's own parent or child is its own family, not a dependency.
            if let Some(t) = target.filter(|t| !module.starts_with(t) && !t.starts_with(module)) {
                edges.entry(module.clone()).or_default().insert(t);
            }
        }
    }
    edges
}

/// The modules reachable from `from`.
fn reachable(edges: &BTreeMap<Module, BTreeSet<Module>>, from: &Module) -> BTreeSet<Module> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![from.clone()];
    while let Some(m) = stack.pop() {
        for next in edges.get(&m).into_iter().flatten() {
            if seen.insert(next.clone()) {
                stack.push(next.clone());
            }
        }
    }
    seen
}

#[test]
fn no_two_modules_use_each_other() {
    let edges = graph();
    assert!(edges.len() > 10, "the graph was read: {} modules with uses", edges.len());
    let mut circles = Vec::new();
    for (module, uses) in &edges {
        for used in uses {
            if reachable(&edges, used).contains(module) {
                circles.push(format!("{} → {} → … → {}", module.join("::"), used.join("::"), module.join("::")));
            }
        }
    }
    assert!(circles.is_empty(), "modules in a circle:\n{}", circles.join("\n"));
}

#[test]
fn the_graph_reader_sees_a_circle() {
    // Two modules that use each other, written as the sources would be.
    let a = paths("use crate::search::beam::{x};\nlet y = super::builder::f();");
    assert_eq!(a, [vec!["crate", "search", "beam"], vec!["super", "builder", "f"]]);
    assert!(paths("// use crate::x::y;").len() == 1 && code("// use crate::x::y;").trim().is_empty());
    let m = |s: &str| s.split("::").map(str::to_string).collect::<Module>();
    let edges = BTreeMap::from([(m("a::b"), BTreeSet::from([m("c")])), (m("c"), BTreeSet::from([m("a::b")]))]);
    assert!(reachable(&edges, &m("c")).contains(&m("a::b")));
}

/// The layers of the crate's top-level modules, bottom first: a module uses only modules on
/// floors below its own, so the order data flows in (input → state → search → command) can be
/// read off this list. A new module takes a floor here.
const FLOORS: &[&[&str]] = &[
    &["rules"],
    &["board", "protocol", "replay", "memory"],
    &["state"],
    &["search"],
    &["bot"],
    &["book"],
    &["data", "view", "calibrate", "positions"],
    &["arena", "bench", "fit"],
    &["tune"],
    &["cli"],
];

fn floor_of(module: &str) -> Option<usize> {
    FLOORS.iter().position(|floor| floor.contains(&module))
}

/// The uses that do not go down a floor, as `a → b` (a top-level module, or one without a
/// floor, named alone).
fn uses_not_going_down(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<String> {
    let mut wrong = BTreeSet::new();
    for (module, uses) in edges {
        let Some(from) = module.first() else { continue };
        for used in uses {
            let to = &used[0];
            if to == from {
                continue;
            }
            match (floor_of(from), floor_of(to)) {
                (Some(a), Some(b)) if b < a => {}
                (None, _) => _ = wrong.insert(format!("{from} has no floor in FLOORS")),
                (_, None) => _ = wrong.insert(format!("{to} has no floor in FLOORS")),
                _ => _ = wrong.insert(format!("{from} → {to}")),
            }
        }
    }
    wrong.into_iter().collect()
}

#[test]
fn every_module_uses_only_floors_below_its_own() {
    let edges = graph();
    let wrong = uses_not_going_down(&edges);
    assert!(wrong.is_empty(), "uses that do not go down a floor:\n{}", wrong.join("\n"));
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let unplaced: BTreeSet<String> =
        files.iter().filter_map(|f| module_of(f, &src).first().cloned()).filter(|m| floor_of(m).is_none()).collect();
    assert!(unplaced.is_empty(), "modules without a floor: {unplaced:?}");
}

#[test]
fn a_use_going_up_or_sideways_is_found() {
    let m = |s: &str| s.split("::").map(str::to_string).collect::<Module>();
    let up = BTreeMap::from([(m("data"), BTreeSet::from([m("arena::book")]))]);
    assert_eq!(uses_not_going_down(&up), ["data → arena"]);
    let sideways = BTreeMap::from([(m("data::x"), BTreeSet::from([m("view")]))]);
    assert_eq!(uses_not_going_down(&sideways), ["data → view"]);
    let down = BTreeMap::from([(m("arena::book"), BTreeSet::from([m("book"), m("rules::pack")]))]);
    assert!(uses_not_going_down(&down).is_empty());
}

/// The folder the project was developed beside, spelled so that this file does not name it.
const OUTSIDE: [&str; 2] = [concat!("..", "/shared"), concat!("/work", "/shared")];
/// The one part of it the project may name: the held-out judging files, used by people judging
/// the bot and never by a test.
const JUDGING_FILES: &str = "/packs-judge";

/// The lines (1-based) of `text` that name the folder beside the repository, the judging files
/// aside.
fn lines_naming_outside(text: &str) -> Vec<usize> {
    let names_it = |line: &str| {
        OUTSIDE
            .iter()
            .any(|dir| line.match_indices(dir).any(|(i, _)| !line[i + dir.len()..].starts_with(JUDGING_FILES)))
    };
    text.lines().enumerate().filter(|(_, l)| names_it(l)).map(|(i, _)| i + 1).collect()
}

/// Every text file of the repository but build outputs and git's own.
fn repository_files(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy();
        if path.is_dir() {
            if !matches!(name.as_ref(), "target" | ".git" | "vendor") {
                repository_files(&path, files);
            }
        } else {
            files.push(path);
        }
    }
}

#[test]
fn the_repository_stands_alone() {
    // A clone must build, play, test and benchmark with nothing beside it: the data ship in
    // data/, the rules in docs/, the sparring partners come from scripts/peers.sh.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    repository_files(root, &mut files);
    assert!(files.len() > 50, "the repository was read: {} files", files.len());
    let mut found = Vec::new();
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else { continue };
        for line in lines_naming_outside(&text) {
            found.push(format!("{}:{line}", file.strip_prefix(root).unwrap().display()));
        }
    }
    assert!(found.is_empty(), "these lines name a folder outside the repository:\n{}", found.join("\n"));
}

#[test]
fn the_outside_names_are_found() {
    let text = format!("a\nsee {}/packs\n{}/bench\n{}{JUDGING_FILES}/x\n", OUTSIDE[0], OUTSIDE[1], OUTSIDE[0]);
    assert_eq!(lines_naming_outside(&text), [2, 3]);
    let both = format!("{0}{JUDGING_FILES} and {0}/packs", OUTSIDE[0]);
    assert_eq!(lines_naming_outside(&both), [1], "a judging path beside another still counts");
}
