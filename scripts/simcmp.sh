#!/usr/bin/env bash
# Times the simulators of public 2019 bots against ours on the shipped bench workloads, from the
# sources scripts/peers.sh kept outside the repository. Progress on stderr, the table on stdout.
# See --help.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: scripts/simcmp.sh [--peers DIR] [--bin PATH] [--workloads DIR] [--min-ms MS] [NAME...]

Times the simulators of public bots of the 2019 contest against ours on the standard workloads of
data/bench: every position's 36 placements (x 0..8, r 0..3), each from a fresh copy of the
position, chain resolved and the death check done, one thread, median pass (what `codevs-reborn
bench sim` times as `bitboard sim-positions-*/all`):

  toga    togatoga's Simulator::simulate on its Board (Rust, its crate togatog_ai)
  ysgeso  ysgeso's action() on its PlayerInfo (C++, its qualifier-final codevsreborn.cpp)

NAME... picks the bots (default: both). Their sources come from scripts/peers.sh --keep-source
(DIR/NAME/src); a small harness of ours (scripts/simcmp/NAME.*) is built against them in
DIR/NAME/simcmp, outside the repository: their code is theirs and never enters the project.
Ours is timed before and after the peers (the mean of the two is the reference), and every
simulator must give the same signature (links, deaths) as ours on every workload, or the script
exits 1. Run it on an idle machine (pin it with taskset -c N for steadier figures).

Options:
  --peers DIR      where peers.sh built the bots (default: $XDG_CACHE_HOME/codevs-reborn/peers,
                   that is ~/.cache/codevs-reborn/peers when XDG_CACHE_HOME is unset)
  --bin PATH       our binary (default: target/release/codevs-reborn, as ./compile.sh builds it)
  --workloads DIR  the workloads (default: data/bench of this repository)
  --min-ms MS      each measurement runs whole passes for at least this long (default 2000)
  -h, --help       this text

Stdout: one row a workload: its placements, links and deaths, our ns a placement, and each
bot's ns a placement with how many times slower than ours it is.
EOF
}

script=simcmp.sh
here=${BASH_SOURCE[0]%/*}
[ "$here" != "${BASH_SOURCE[0]}" ] || here=.
# shellcheck source=scripts/common.sh
source "$here/common.sh"
root=$(cd "$here/.." && pwd)

all_bots=(toga ysgeso)
peers=${XDG_CACHE_HOME:-$HOME/.cache}/codevs-reborn/peers
bin=$root/target/release/codevs-reborn
workloads=$root/data/bench
min_ms=2000
chosen=()

while [ $# -gt 0 ]; do
  case "$1" in
    --peers | --bin | --workloads | --min-ms) [ $# -ge 2 ] || usage_error "$1 needs a value" ;;&
    --peers) peers=$2; shift ;;
    --bin) bin=$2; shift ;;
    --workloads) workloads=$2; shift ;;
    --min-ms)
      [[ $2 =~ ^[1-9][0-9]*$ ]] || usage_error "--min-ms wants a number of milliseconds, found '$2'"
      min_ms=$2; shift ;;
    *) other_argument "$1" ;;
  esac
  shift
done
[ ${#chosen[@]} -gt 0 ] || chosen=("${all_bots[@]}")

[ -x "$bin" ] || usage_error "no binary at $bin: build it with ./compile.sh, or name it with --bin"
names=(sim-positions-random sim-positions-chains)
for name in "${names[@]}"; do
  [ -f "$workloads/$name.txt" ] || usage_error "no workload $workloads/$name.txt"
done
for bot in "${chosen[@]}"; do
  [ -d "$peers/$bot/src" ] || usage_error "no sources of $bot in $peers/$bot/src: run scripts/peers.sh --keep-source --out $peers $bot first"
done

# NAME: builds the harness of one bot into $peers/NAME/simcmp/harness.
build_harness() {
  local bot=$1 dir=$peers/$1/simcmp
  # The harness is replaced; cargo's target folder stays, so a second run rebuilds only it.
  rm -f "$dir/harness"
  mkdir -p "$dir"
  case "$bot" in
    toga)
      mkdir -p "$dir/src"
      cp "$root/scripts/simcmp/toga.rs" "$dir/src/main.rs"
      # Built with the flags peers.sh gives the bot (release, this machine's CPU).
      printf '[package]\nname = "simcmp-toga"\nversion = "0.1.0"\nedition = "2021"\npublish = false\n\n[dependencies]\ntogatog_ai = { path = "../src" }\n\n[workspace]\n' >"$dir/Cargo.toml"
      (cd "$dir" && env -u CARGO_ENCODED_RUSTFLAGS CARGO_TARGET_DIR="$dir/target" \
        RUSTFLAGS="-C target-cpu=native --cap-lints allow" cargo build --release -q >&2)
      cp "$dir/target/release/simcmp-toga" "$dir/harness"
      ;;
    ysgeso)
      # The flags peers.sh builds the bot with (its author's).
      g++ -std=c++11 -O2 -DNDEBUG -march=native -pthread -w -I "$peers/ysgeso/src/$ysgeso_folder" \
        -o "$dir/harness" "$root/scripts/simcmp/ysgeso.cpp" >&2
      ;;
  esac
}

for bot in "${chosen[@]}"; do
  say "$bot: building the harness against $peers/$bot/src"
  build_harness "$bot"
done

# Our figures: `bench sim`'s signature and bitboard line of each workload's `/all` measurement.
# Prints "placements links dead ns" a workload, in the order of $names.
ours() {
  local report
  report=$("$bin" bench sim --workloads "$workloads" --positions 1 --min-ms "$min_ms")
  for name in "${names[@]}"; do
    local signature ns
    signature=$(grep -m1 "^  $name/all: " <<<"$report")
    ns=$(grep -m1 "^  bitboard *$name/all " <<<"$report" | sed -E 's/.* ([0-9.]+) ns\/placement.*/\1/')
    sed -E 's/.*: ([0-9]+) placements, signature links=([0-9]+) .* dead=([0-9]+).*/\1 \2 \3/' <<<"$signature" | tr '\n' ' '
    echo "$ns"
  done
}

say "ours: timing (bench sim)"
mapfile -t before < <(ours)
declare -A theirs
for bot in "${chosen[@]}"; do
  for i in "${!names[@]}"; do
    say "$bot: timing ${names[$i]}"
    theirs[$bot,$i]=$("$peers/$bot/simcmp/harness" "$workloads/${names[$i]}.txt" "$min_ms")
  done
done
say "ours: timing again"
mapfile -t after < <(ours)

# The rows are made here, not in the pipe to column (a subshell): a mismatch must reach $status.
status=0
header="workload placements links dead codevs-reborn_ns"
for bot in "${chosen[@]}"; do header+=" ${bot}_ns slower"; done
table=("$header")
for i in "${!names[@]}"; do
  read -r placements links dead ns0 <<<"${before[$i]}"
  read -r _ _ _ ns1 <<<"${after[$i]}"
  ns=$(awk -v a="$ns0" -v b="$ns1" 'BEGIN { printf "%.1f", (a + b) / 2 }')
  row="${names[$i]} $placements $links $dead $ns"
  for bot in "${chosen[@]}"; do
    read -r p l d bot_ns _ <<<"${theirs[$bot,$i]}"
    if [ "$p $l $d" != "$placements $links $dead" ]; then
      say "$bot: ${names[$i]}: signature $p placements, $l links, $d dead; ours $placements, $links, $dead"
      status=1
    fi
    row+=" $bot_ns $(awk -v a="$bot_ns" -v b="$ns" 'BEGIN { printf "%.2fx", a / b }')"
  done
  table+=("$row")
done
printf '%s\n' "${table[@]}" | column -t
[ $status -eq 0 ] || say "a simulator disagrees with ours: its figures are not comparable"
exit $status
