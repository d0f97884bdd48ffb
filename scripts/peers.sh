#!/usr/bin/env bash
# Fetches and builds the four public 2019 bots we spar against, outside the repository (their code
# is theirs: it is never copied into the project), and writes the opponents file that
# `codevs-reborn gauntlet --opponents` reads. Progress on stderr, the opponents file on stdout.
# See --help.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: scripts/peers.sh [--out DIR] [--source NAME=URL|GITDIR]... [--march ARCH] [--keep-source] [NAME...]

Fetches and builds public bots of the 2019 CODE VS Reborn contest as sparring partners, outside
the repository (their code is theirs and is never copied into the project):

  toga    https://github.com/togatoga/codevs_reborn   Rust (cargo)
  kera    https://github.com/kera6rhy/codevs_reborn   Java (javac; java to run it)
  ysgeso  https://github.com/ysgeso/codevs-reborn     C++ (g++), its qualifier-final folder
  colun   https://github.com/colun/codevs_reborn      C++ (g++)

NAME... picks the bots (default: all four). Each lands in DIR/NAME/ with an executable
DIR/NAME/run that plays one game over stdin/stdout (ysgeso with its author's submission flags,
kera's JVM with the serial GC and two JIT threads), and source.txt naming the repository and
commit it was built from. The sources are fetched into a temporary folder and deleted after the
build (--keep-source keeps them). A bot built again replaces its folder, only once the new build
has succeeded.

DIR/opponents.txt then gets one line `NAME=exec DIR/NAME/run` for every bot built in DIR (by
this run or an earlier one), for `codevs-reborn gauntlet --opponents DIR/opponents.txt`.

Options:
  --out DIR               where to build (default: $XDG_CACHE_HOME/codevs-reborn/peers, that
                          is ~/.cache/codevs-reborn/peers when XDG_CACHE_HOME is unset)
  --source NAME=FROM      where NAME's repository comes from instead of its GitHub URL: a URL
                          to `git clone --depth 1`, or a local git directory (a bare mirror, a
                          .git folder or a work tree: its HEAD commit is built, not uncommitted
                          changes). Repeatable
  --march ARCH            the CPU to build for: g++ -march=ARCH, rustc -C target-cpu=ARCH
                          (default native; e.g. x86-64-v3 for bots run on another machine)
  --keep-source           keep each bot's sources, as built, in DIR/NAME/src (what
                          scripts/simcmp.sh times their simulators from) instead of deleting them
  -h, --help              this text

Before building, the tools the chosen bots need are checked (git; cargo for toga; javac and
java for kera; g++ for ysgeso and colun): each missing one is named on one line and the script
exits 2 without building anything. A bot whose fetch or build fails is named on stderr, the
other bots are still built, and the script exits 1. Bad usage exits 2.

Stdout, at the end: the opponents file's path as a `#` comment, then its lines.
EOF
}

all_bots=(toga kera ysgeso colun)
march=native
keep_source=0
out=${XDG_CACHE_HOME:-$HOME/.cache}/codevs-reborn/peers
sources=() # NAME=FROM overrides, the last one for a name wins
chosen=()

script=peers.sh
here=${BASH_SOURCE[0]%/*}
[ "$here" != "${BASH_SOURCE[0]}" ] || here=.
# shellcheck source=scripts/common.sh
source "$here/common.sh"

while [ $# -gt 0 ]; do
  case "$1" in
    --out | --source | --march) [ $# -ge 2 ] || usage_error "$1 needs a value" ;;&
    --out) out=$2; shift ;;
    --source)
      if [[ $2 != *=?* ]] || ! is_bot "${2%%=*}"; then
        usage_error "--source wants NAME=URL or NAME=GITDIR with NAME one of ${all_bots[*]}, found '$2'"
      fi
      sources+=("$2"); shift ;;
    --march)
      [[ $2 =~ ^[A-Za-z0-9._-]+$ ]] || usage_error "--march wants a CPU name such as native or x86-64-v3, found '$2'"
      march=$2; shift ;;
    --keep-source) keep_source=1 ;;
    *) other_argument "$1" ;;
  esac
  shift
done
[ ${#chosen[@]} -gt 0 ] || chosen=("${all_bots[@]}")

default_source() {
  case "$1" in
    toga) echo https://github.com/togatoga/codevs_reborn ;;
    kera) echo https://github.com/kera6rhy/codevs_reborn ;;
    ysgeso) echo https://github.com/ysgeso/codevs-reborn ;;
    colun) echo https://github.com/colun/codevs_reborn ;;
  esac
}

source_of() {
  local from entry
  from=$(default_source "$1")
  for entry in ${sources[@]+"${sources[@]}"}; do
    if [ "${entry%%=*}" = "$1" ]; then from=${entry#*=}; fi
  done
  echo "$from"
}

# "a", "a and b", "a, b and c"
join_names() {
  local text=$1
  shift
  while [ $# -gt 1 ]; do text+=", $1"; shift; done
  if [ $# -eq 1 ]; then text+=" and $1"; fi
  echo "$text"
}

# Every missing tool is named before anything is built, so one run tells the user all to install.
missing=0
require() { # TOOL WHAT BOT...: the chosen ones among BOT... need TOOL
  local tool=$1 what=$2 needing=() bot
  shift 2
  for bot in "$@"; do
    if [[ " ${chosen[*]} " == *" $bot "* ]]; then needing+=("$bot"); fi
  done
  if [ ${#needing[@]} -eq 0 ] || command -v "$tool" >/dev/null; then return 0; fi
  local verb=needs
  if [ ${#needing[@]} -gt 1 ]; then verb=need; fi
  say "$(join_names "${needing[@]}") $verb $tool${what:+ ($what)}, not found"
  missing=1
}
require git "" "${all_bots[@]}"
require cargo "Rust" toga
require javac "a JDK" kera
require java "a Java runtime" kera
require g++ "a C++ compiler" ysgeso colun
[ $missing -eq 0 ] || exit 2

mkdir -p "$out"
out=$(cd "$out" && pwd)

# FROM DEST: fetches FROM's HEAD into DEST (which must not exist) and prints that commit.
fetch() {
  local from=$1 dest=$2 git_dir
  if [ -d "$from" ]; then
    git_dir=$from
    [ -e "$from/.git" ] && git_dir=$from/.git
    git --git-dir="$git_dir" rev-parse -q --verify 'HEAD^{commit}' 2>/dev/null || {
      say "$name: $from is not a git directory with a commit"
      return 1
    }
    mkdir -p "$dest"
    git --git-dir="$git_dir" archive --format=tar HEAD | tar -x -C "$dest"
  else
    # A URL that needs a password fails instead of waiting for one.
    GIT_TERMINAL_PROMPT=0 git clone -q --depth 1 "$from" "$dest" >&2
    git -C "$dest" rev-parse HEAD
  fi
}

# A line for a `run` script: the bot's files are found beside it, so DIR can be moved.
run_script() {
  printf '#!/bin/sh\n# Plays one game of CODE VS Reborn over stdin/stdout.\nexec %s\n' "$1"
}

# NAME STAGE SRC: builds the fetched sources SRC into the empty folder STAGE (bot or classes, and
# run).
build() {
  local name=$1 stage=$2 src=$3
  # The run lines are written as they are: run expands $0 and $(dirname ...) when it runs.
  # shellcheck disable=SC2016
  case "$name" in
    toga)
      # Its .cargo names a musl linker for its contest build; ours is for this machine's target.
      rm -rf "$src/.cargo"
      # Our CARGO_TARGET_DIR (if any) and RUSTFLAGS must not reach its build; --cap-lints: its
      # 2019 warnings are not ours to read.
      (cd "$src" && env -u CARGO_ENCODED_RUSTFLAGS CARGO_TARGET_DIR="$stage/target" \
        RUSTFLAGS="-C target-cpu=$march --cap-lints allow" cargo build --release -q --bin togatog_ai >&2)
      cp "$stage/target/release/togatog_ai" "$stage/bot"
      rm -rf "$stage/target"
      run_script '"$(dirname "$0")/bot"' >"$stage/run"
      ;;
    kera)
      mkdir "$stage/classes"
      javac -encoding UTF-8 -nowarn -d "$stage/classes" "$src"/*.java >&2
      # Its default GC and JIT threads made turn 0 time out on one core.
      run_script 'java -XX:+UseSerialGC -XX:CICompilerCount=2 -cp "$(dirname "$0")/classes" Main' >"$stage/run"
      ;;
    ysgeso)
      # The version its author submitted to the qualifier.
      local dir=$src/$ysgeso_folder
      [ -f "$dir/codevsreborn.cpp" ] || {
        say "ysgeso: no qualifier-final folder ($ysgeso_folder/codevsreborn.cpp) in its repository"
        return 1
      }
      # Modern libstdc++ compares allocators with ==, which its 2019 MyAllocator lacks: add both
      # operators after the struct (a patch of the fetched copy only).
      if ! grep -q 'operator==(const MyAllocator' "$dir/simd.hpp"; then
        sed -i '/^struct MyAllocator {/,/^};/{/^};/a\
template <class T, class U> bool operator==(const MyAllocator<T>&, const MyAllocator<U>&) { return true; }\
template <class T, class U> bool operator!=(const MyAllocator<T>&, const MyAllocator<U>&) { return false; }
}' "$dir/simd.hpp"
        grep -q 'operator==(const MyAllocator' "$dir/simd.hpp" || {
          say "ysgeso: simd.hpp has no 'struct MyAllocator {' to patch"
          return 1
        }
      fi
      g++ -std=c++11 -O2 -DNDEBUG -march="$march" -pthread -w -o "$stage/bot" "$dir/codevsreborn.cpp" >&2
      # Its author's submission flags (its defaults are not what it played with).
      run_script '"$(dirname "$0")/bot" -bw 5000 -bcw 1500 -bd 16 -bcm 12 -bcm- 1 -bcm2 -1 -bminx 2 -bmaxx 6 -bhm 0 -nbhm 0 -nc -nbw 700 -nbcw 350 -nbihd 10 -nftl 1350 -bihmax 70 -bihmin 70 -bihd 35 -hl1 -20 -hl2 -10 -emdh -5 -ai2 -ai3 -fmcn 10 -fmcm -10 -smcm -5 -nbminc 9 -nfb -ut' >"$stage/run"
      ;;
    colun)
      # Written for a compiler whose headers pulled in <array> on their own.
      g++ -O2 -march="$march" -include array -w -o "$stage/bot" "$src/run.cpp" >&2
      run_script '"$(dirname "$0")/bot"' >"$stage/run"
      ;;
  esac
  chmod +x "$stage/run"
}

# NAME: fetches, builds and installs one bot as $out/NAME. Run it in a subshell: its EXIT trap
# removes the sources and a failed build (work and stage are not local: the trap runs last).
fetch_and_build() {
  local name=$1 from commit started=$SECONDS
  from=$(source_of "$name")
  work=$(mktemp -d "${TMPDIR:-/tmp}/peers-$name.XXXXXX")
  # Built beside its final place, so the finished folder replaces the old one by a rename.
  stage=$(mktemp -d "$out/.$name.building.XXXXXX")
  trap 'rm -rf "$work" "$stage"' EXIT
  chmod 755 "$stage"
  say "$name: fetching $from"
  commit=$(fetch "$from" "$work/src")
  say "$name: building commit ${commit:0:12} (-march=$march)"
  build "$name" "$stage" "$work/src"
  printf 'repository: %s\ncommit: %s\nmarch: %s\nbuilt: %s\n' "$from" "$commit" "$march" \
    "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$stage/source.txt"
  if [ $keep_source -eq 1 ]; then mv "$work/src" "$stage/src"; fi
  rm -rf "${out:?}/$name"
  mv "$stage" "$out/$name"
  say "$name: built $out/$name/run in $((SECONDS - started)) s"
}

failed=()
for name in "${chosen[@]}"; do
  # errexit is ignored inside a command tested by || or if, so the status is read afterwards.
  set +e
  (
    set -e
    fetch_and_build "$name"
  )
  status=$?
  set -e
  [ $status -eq 0 ] || {
    say "$name: FAILED (exit $status); its folder, if any, is left as it was"
    failed+=("$name")
  }
done

# A path as one sh word: the gauntlet runs each opponent's command with `sh -c`.
sh_word() {
  if [[ $1 =~ ^[A-Za-z0-9/._+-]+$ ]]; then
    echo "$1"
  else
    printf "'%s'\n" "${1//\'/\'\\\'\'}"
  fi
}

opponents=$out/opponents.txt
{
  echo "# Built by scripts/peers.sh: codevs-reborn gauntlet --opponents $opponents"
  for name in "${all_bots[@]}"; do
    if [ -x "$out/$name/run" ]; then echo "$name=exec $(sh_word "$out/$name/run")"; fi
  done
} >"$opponents.tmp"
mv "$opponents.tmp" "$opponents"
echo "# $opponents"
cat "$opponents"

if [ ${#failed[@]} -gt 0 ]; then
  say "failed to build: $(join_names "${failed[@]}")"
  exit 1
fi
