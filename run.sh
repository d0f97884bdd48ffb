#!/usr/bin/env bash
# Starts the bot with its default flags; extra flags are passed on (see `--help`).
# Plays one game over stdin/stdout as the contest protocol says.
exec "$(dirname "$0")/target/release/codevs-reborn" "$@"
