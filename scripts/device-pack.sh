#!/usr/bin/env bash
# Packs bots for a gauntlet on a machine lent for a few minutes (many cores, nothing installed,
# nothing reachable): our bot built from git revisions, the sparring partners, a Java runtime for
# kera, and a script that unpacks them, plays, and hands the games back. See --help.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: scripts/device-pack.sh [--out DIR] [--peers DIR] [--march ARCH] NAME=REV... [PEER...]

Builds a folder to carry to a lent machine (the `device` tool's `run`, whose `carry` takes a
folder of the repository that git ignores) for games played there, many at once:

  DIR/pack.tar.xz   bin/NAME: our bot built from each git revision REV (a commit, branch or
                    tag) for the CPU --march names, so it runs on a machine it was not built on;
                    peers/PEER/: each sparring partner named, copied from the peers folder;
                    jre/: a Java runtime (jlink, java.base only) when kera is among them
  DIR/play.sh       run there from the repository's root: `bash DIR/play.sh SECONDS ARGS...`
                    unpacks the pack into /tmp/codevs-device (or $DEVICE_ROOT; java on PATH),
                    plays `bin/<first NAME> ARGS...` in its work/ for at most SECONDS,
                    then writes the work folder (its --json files and --replays folders) to
                    $OUT/results.tar.xz and its *.jsonl files to $OUT beside it

Inside ARGS the bots are named by their paths there, e.g.
  bash .dev/play.sh 530 gauntlet --bot "exec /tmp/codevs-device/bin/main" \
    --opponent "kera=exec /tmp/codevs-device/peers/kera/run" --seed S --pairs 16 --one-side \
    --jobs 16 --cpus-per-game 1 --json main.jsonl --replays games-main
A game not finished when SECONDS run out is lost; the finished ones are in the files, and
`gauntlet --summary --pool` pools them with games played here (docs/ARENA.md).

Options:
  --out DIR       the folder written (default .dev; add /.dev/ to .git/info/exclude)
  --peers DIR     where scripts/peers.sh built the partners (default its default folder). Build
                  them there with --march x86-64-v3 too: a partner built for this CPU may use
                  instructions the lent machine lacks
  --march ARCH    the CPU our bot is built for: rustc -C target-cpu=ARCH (default x86-64-v3:
                  AVX2 and BMI2, the bitboard's fast path)
  -h, --help      this text

PEER: toga, kera, ysgeso or colun (none: our bot alone, for self-play). Each revision is built in
a temporary git worktree with its own target folder under ${TMPDIR:-/tmp}; the script prints
each build's `bench bot` signature, which must equal the native build's (the search's answers
do not depend on the CPU). Bad usage exits 2; a failed build or copy exits 1.
EOF
}

all_bots=(toga kera ysgeso colun)
out=.dev
peers=${XDG_CACHE_HOME:-$HOME/.cache}/codevs-reborn/peers
march=x86-64-v3
builds=() # NAME=REV
chosen=()

script=device-pack.sh
here=${BASH_SOURCE[0]%/*}
[ "$here" != "${BASH_SOURCE[0]}" ] || here=.
# shellcheck source=scripts/common.sh
source "$here/common.sh"

while [ $# -gt 0 ]; do
  case "$1" in
    --out | --peers | --march) [ $# -ge 2 ] || usage_error "$1 needs a value" ;;&
    --out) out=$2; shift ;;
    --peers) peers=$2; shift ;;
    --march)
      [[ $2 =~ ^[A-Za-z0-9._-]+$ ]] || usage_error "--march wants a CPU name such as x86-64-v3, found '$2'"
      march=$2; shift ;;
    *=*)
      [[ $1 =~ ^[A-Za-z0-9_-]+=.+$ ]] || usage_error "NAME=REV wants a name of letters, digits, _ and -, found '$1'"
      builds+=("$1") ;;
    *) other_argument "$1" ;;
  esac
  shift
done
[ ${#builds[@]} -gt 0 ] || usage_error "name at least one NAME=REV to build"

repo=$(git rev-parse --show-toplevel)
stage=$(mktemp -d "${TMPDIR:-/tmp}/device-pack.XXXXXX")
trap 'git -C "$repo" worktree remove --force "$stage/src" 2>/dev/null || true; rm -rf "$stage"' EXIT
mkdir -p "$stage/pack/bin" "$stage/pack/peers"
target=${TMPDIR:-/tmp}/device-pack-target-$march
with_kera=0
[[ " ${chosen[*]-} " != *" kera "* ]] || with_kera=1

# What is missing is said before anything is built.
for peer in "${chosen[@]}"; do
  [ -x "$peers/$peer/run" ] || { say "no $peers/$peer/run: build it with scripts/peers.sh --march $march $peer"; exit 1; }
done
if [ $with_kera = 1 ]; then
  jlink=$(dirname "$(readlink -f "$(command -v java || echo java)")")/jlink
  [ -x "$jlink" ] || { say "kera needs a Java runtime packed: no jlink beside java (install a JDK)"; exit 1; }
fi

for build in "${builds[@]}"; do
  name=${build%%=*} rev=${build#*=}
  commit=$(git -C "$repo" rev-parse --verify --quiet "$rev^{commit}") || { say "no commit '$rev' in $repo"; exit 1; }
  say "building $name from $rev ($commit) for $march"
  git -C "$repo" worktree add --quiet --detach "$stage/src" "$commit"
  (cd "$stage/src" && RUSTFLAGS="-C target-cpu=$march" cargo build --release --quiet \
    --target-dir "$target")
  cp "$target/release/codevs-reborn" "$stage/pack/bin/$name"
  git -C "$repo" worktree remove --force "$stage/src"
  say "$name: $("$stage/pack/bin/$name" bench bot --threads 1 | grep signature)"
done

for peer in "${chosen[@]}"; do
  cp -r "$peers/$peer" "$stage/pack/peers/"
  rm -rf "$stage/pack/peers/$peer/src"
done
if [ $with_kera = 1 ]; then
  "$jlink" --add-modules java.base --strip-debug --no-header-files --no-man-pages --compress=2 --output "$stage/pack/jre"
  # A fallback for a machine whose system lacks them: the runtime's own C++ and zlib libraries.
  mkdir -p "$stage/pack/jre/fallback-lib"
  for lib in libstdc++.so.6 libz.so.1; do
    # awk reads to the end: an early exit would kill ldconfig by SIGPIPE, which pipefail turns
    # into a silent stop of the whole script.
    path=$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64/ && !found { print $NF; found = 1 }')
    if [ -n "$path" ]; then cp -L "$path" "$stage/pack/jre/fallback-lib/"; fi
  done
fi

mkdir -p "$out"
# Fast compression: the pack is read once, and the runtime alone is 35 MB.
XZ_OPT=${XZ_OPT:--3 -T0} tar -C "$stage/pack" -cJf "$out/pack.tar.xz" .
{
  echo '#!/usr/bin/env bash'
  echo '# Written by scripts/device-pack.sh: bash play.sh SECONDS ARGS... (see its --help).'
  echo "driver=${builds[0]%%=*}"
  cat <<'EOF'
set -uo pipefail
seconds=$1; shift
pack=$(dirname "$0")/pack.tar.xz
root=${DEVICE_ROOT:-/tmp/codevs-device}
rm -rf "$root" && mkdir -p "$root/work" && tar -xJf "$pack" -C "$root" || exit 3
echo "$(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo)"
if [ -d "$root/jre" ]; then
  export PATH=$root/jre/bin:$PATH
  java -version 2>/dev/null || export LD_LIBRARY_PATH=$root/jre/fallback-lib
  java -version 2>&1 | head -1
fi
cd "$root/work"
timeout -s INT "$seconds" "$root/bin/$driver" "$@"
echo "exit status $? (124: stopped at $seconds s)"
wc -l ./*.jsonl 2>/dev/null
tar -cJf "${OUT:?}/results.tar.xz" . && cp ./*.jsonl "$OUT/" 2>/dev/null
ls -l "$OUT"
EOF
} >"$out/play.sh"
say "wrote $out/pack.tar.xz ($(du -h "$out/pack.tar.xz" | cut -f1)) and $out/play.sh"
