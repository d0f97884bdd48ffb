//! The documentation cannot fall behind the command line: `docs/CLI.md` is generated from the
//! clap definitions (the same text `--help` prints, every subcommand), and every flag the binary
//! accepts is named in a topic page (`docs/BOT.md`, `ARENA.md`, `TUNING.md`, `BENCH.md`, ...),
//! where it is explained with its neighbours.
//!
//! After changing a flag: `UPDATE_DOCS=1 cargo test --test docs` writes `docs/CLI.md` anew;
//! then name any new flag in its topic page.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use clap::CommandFactory;
use codevs_reborn::cli::Cli;

fn docs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs")
}

/// The generated reference's file.
const REFERENCE: &str = "CLI.md";

fn reference_text() -> String {
    let body = clap_markdown::help_markdown_command(&Cli::command());
    format!(
        "<!-- Generated from the clap definitions by tests/docs.rs: `UPDATE_DOCS=1 cargo test --test docs` \
         writes it anew. Do not edit by hand. -->\n\n{body}"
    )
}

#[test]
fn the_cli_reference_is_the_one_the_clap_definitions_give() {
    let path = docs_dir().join(REFERENCE);
    let want = reference_text();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/{REFERENCE} is not what the clap definitions give: run `UPDATE_DOCS=1 cargo test --test docs`"
    );
}

/// Every long flag of `command` and its subcommands, as `--name` with the subcommand path that
/// takes it (`help` and `version` aside: clap adds them to every command).
fn flags(command: &clap::Command, path: &str, out: &mut BTreeSet<(String, String)>) {
    for arg in command.get_arguments() {
        if let Some(long) = arg.get_long().filter(|l| !matches!(*l, "help" | "version")) {
            out.insert((format!("--{long}"), path.to_string()));
        }
    }
    for sub in command.get_subcommands() {
        flags(sub, format!("{path} {}", sub.get_name()).trim(), out);
    }
}

/// The topic pages' text: every page of docs/ but the generated reference.
fn topic_pages() -> String {
    let mut text = String::new();
    for entry in std::fs::read_dir(docs_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") && !path.ends_with(REFERENCE) {
            text.push_str(&std::fs::read_to_string(&path).unwrap());
            text.push('\n');
        }
    }
    text
}

/// Whether `text` names `flag` as a whole word (`--turn` is not named by `--turn-cap-ms`).
fn names(text: &str, flag: &str) -> bool {
    text.match_indices(flag).any(|(i, _)| {
        let next = text[i + flag.len()..].chars().next();
        !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    })
}

/// The flags of `command` that no topic page in `pages` names, as `subcommand --flag`.
fn unnamed(command: &clap::Command, pages: &str) -> Vec<String> {
    let mut all = BTreeSet::new();
    flags(command, "", &mut all);
    all.into_iter()
        .filter(|(flag, _)| !names(pages, flag))
        .map(|(flag, path)| format!("{path} {flag}").trim().to_string())
        .collect()
}

#[test]
fn every_flag_is_named_in_a_topic_page() {
    let command = Cli::command();
    let mut all = BTreeSet::new();
    flags(&command, "", &mut all);
    assert!(all.len() > 100, "the flags were read: {}", all.len());
    let missing = unnamed(&command, &topic_pages());
    assert!(missing.is_empty(), "flags no page of docs/ names (name each in its topic page):\n{}", missing.join("\n"));
}

#[test]
fn a_flag_no_page_names_is_found() {
    let command = Cli::command().mut_subcommand("gauntlet", |g| {
        g.arg(clap::Arg::new("made_up").long("made-up-flag").action(clap::ArgAction::SetTrue))
    });
    assert_eq!(unnamed(&command, &topic_pages()), ["gauntlet --made-up-flag"]);
    assert!(names("use --turn 3", "--turn") && !names("use --turn-cap-ms", "--turn"));
}
