//! The layout's one rule: data flows one way, so no two modules use each other, directly or
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
