#!/usr/bin/env bash
# Builds the bot, optimised for this machine (AVX2/BMI2 where the CPU has them; see
# .cargo/config.toml). Works offline when the dependencies are vendored (see package.sh).
set -euo pipefail
cd "$(dirname "$0")"
offline=()
[ -d vendor ] && offline=(--offline)
cargo build --release --locked "${offline[@]}"
