#!/usr/bin/env bash
# The soak: many games at a tenth of the contest's time control to show the bot never times out,
# crashes, answers illegally or grows in memory. Prints ONE summary line on stdout at the end
# (progress on stderr) and exits non-zero when any fault of ours happened. See --help.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  cat <<'EOF'
Usage: scripts/soak.sh [OPTIONS]

Plays our default bot (./run.sh) at a tenth of the contest's time control against
`--strategy greedy`, `--strategy beam`, `--strategy random` and itself on the shared pack files,
sides swapped (arena pairs), each game's bots pinned to one core with `taskset -c`. Some of the
games run with a CPU hog (`yes`) on every core. Then long games: two `quiet` bots play to the
500-turn limit, and our bot is fed each such game's input (input-p0.txt) over all 500 turns at
a 100 ms turn cap, checking every answer is legal and the peak RSS stays flat.

Prints one line on stdout, e.g.
  soak: 1000 games, 0 faults of ours (0 timeouts, 0 crashes, 0 illegal, 0 caught panics), ...
and exits 1 when any fault of ours happened (a timeout, crash, illegal answer or caught panic
in any game; in a long game a missing or illegal answer or RSS growth), 2 on bad usage.

Options:
  --games N          games against the four opponents, load games included (default 1000)
  --load-games N     of those, games played with a CPU hog on every core (default 50)
  --long-games N     quiet-vs-quiet games to turn 500 replayed through our bot (default 20)
  --jobs J           games at once; job k runs on core k of those available (default: all cores)
  --chunk N          games per arena run, the unit of progress reports (default 10)
  --packs DIR        pack files (default data/packs of the repository)
  --bot CMD          our bot's command (default ./run.sh); flags are added to it
  --time-ms MS       thinking time per bot and game (default 18000, a tenth of the contest's)
  --turn-ms MS       the arena's per-turn cap, also our bot's --turn-cap-ms (default 2000)
  --rss-growth-mib M long games: the most the peak RSS may grow from turn 50 to the end (default 16)
  --out DIR          working folder (default: $TMPDIR or /tmp, soak-DATE-TIME)
  --keep-replays     keep every game's replay (default: only those of games with a fault of ours;
                     the bots' stderr files, with the RSS lines, are always kept)
  -h, --help         this text

The working folder holds, per arena run, chunks/NNN-PHASE-OPPONENT/ (the pack files it used,
games.jsonl, replays/, the arena's output, summary.json), long/ for the long games, and
report.txt (per opponent results, RSS, slowest turns) beside the summary line.
EOF
}

games=1000 load_games=50 long_games=20 jobs="" chunk=10 packs=data/packs bot=./run.sh
time_ms=18000 turn_ms=2000 rss_growth=16 out="" keep_replays=0
while [ $# -gt 0 ]; do
  case "$1" in
    --games) games=$2; shift ;;
    --load-games) load_games=$2; shift ;;
    --long-games) long_games=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    --chunk) chunk=$2; shift ;;
    --packs) packs=$2; shift ;;
    --bot) bot=$2; shift ;;
    --time-ms) time_ms=$2; shift ;;
    --turn-ms) turn_ms=$2; shift ;;
    --rss-growth-mib) rss_growth=$2; shift ;;
    --out) out=$2; shift ;;
    --keep-replays) keep_replays=1 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "soak: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
for n in "$games" "$load_games" "$long_games" "$chunk" "$time_ms" "$turn_ms" "$rss_growth" ${jobs:+"$jobs"}; do
  [[ $n =~ ^[0-9]+$ ]] || { echo "soak: expected a number, found '$n'" >&2; exit 2; }
done
((load_games <= games)) || { echo "soak: --load-games is more than --games" >&2; exit 2; }
((chunk > 0)) || { echo "soak: --chunk must be positive" >&2; exit 2; }

# Cores this process may use: games pin their bots to them, the hog loads all of them.
read -r -a cores <<<"$(python3 -c 'import os; print(*sorted(os.sched_getaffinity(0)))')"
jobs=${jobs:-${#cores[@]}}
((jobs > 0)) || { echo "soak: --jobs must be positive" >&2; exit 2; }
((jobs <= ${#cores[@]})) || echo "soak: warning: $jobs jobs on ${#cores[@]} cores: games will share cores" >&2

binary=./target/release/codevs-reborn
[ -x "$binary" ] || ./compile.sh >&2
mapfile -t pack_files < <(find "$(realpath "$packs")" -maxdepth 1 -name '*.pack' | sort)
((${#pack_files[@]} > 0)) || { echo "soak: no *.pack files in $packs" >&2; exit 2; }

out=${out:-${TMPDIR:-/tmp}/soak-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out/chunks" "$out/long"
out=$(realpath "$out")
started=$SECONDS
log() { printf '[%s] soak: %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
log "working folder $out; $games games ($load_games under load), $long_games long games, $jobs jobs on cores ${cores[*]}"

# Processes this script starts in the background (jobs, CPU hogs): stopped if it is interrupted.
background=()
hogs=()
cleanup() {
  for pid in "${hogs[@]}" "${background[@]}"; do kill "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ours="$bot --report-memory --turn-cap-ms $turn_ms"
opponent_command() {
  case "$1" in
    greedy) echo "$bot --strategy greedy" ;;
    beam) echo "$bot --strategy beam --turn-cap-ms $turn_ms" ;;
    random) echo "$bot --strategy random --seed $2" ;;
    self) echo "$ours" ;;
  esac
}
opponents=(greedy beam random self)

# --- the chunk plan --------------------------------------------------------------------------
# Each phase's games are split evenly over the opponents, then into arena runs ("chunks") of at
# most --chunk games, interleaved by opponent and dealt to the jobs in turn. Each chunk gets the
# next pack files in order (one per pair of games), so the runs cover all the pack files.
next_pack=0
chunk_count=0
declare -A phase_chunks
plan_phase() {
  local phase=$1 total=$2 i
  local -a left=() list=()
  for i in "${!opponents[@]}"; do left[i]=$((total / 4 + (i < total % 4 ? 1 : 0))); done
  while :; do
    local made=0
    for i in "${!opponents[@]}"; do
      local n=$((left[i] < chunk ? left[i] : chunk))
      ((n > 0)) || continue
      left[i]=$((left[i] - n))
      made=1
      local dir
      dir=$out/chunks/$(printf '%03d' "$chunk_count")-$phase-${opponents[i]}
      local core=${cores[$(((${#list[@]} % jobs) % ${#cores[@]}))]}
      mkdir -p "$dir/packs"
      local p
      for ((p = 0; p < (n + 1) / 2; p++)); do
        local file=${pack_files[$(((next_pack + p) % ${#pack_files[@]}))]}
        ln -sf "$file" "$dir/packs/$(printf '%03d' "$p")-$(basename "$file")"
      done
      next_pack=$((next_pack + (n + 1) / 2))
      python3 -c 'import json, sys; json.dump(dict(zip(sys.argv[2::2], sys.argv[3::2])), open(sys.argv[1], "w"))' \
        "$dir/meta.json" phase "$phase" opponent "${opponents[i]}" games "$n" core "$core" \
        ours "taskset -c $core $ours" theirs "taskset -c $core $(opponent_command "${opponents[i]}" "$chunk_count")"
      list+=("$dir")
      chunk_count=$((chunk_count + 1))
    done
    ((made)) || break
  done
  phase_chunks[$phase]="${list[*]}"
}
plan_phase normal $((games - load_games))
plan_phase load "$load_games"

# --- playing ---------------------------------------------------------------------------------
games_done() { cat "$out"/chunks/*/games.jsonl 2>/dev/null | wc -l || true; }
meta_of() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1/meta.json" "$2"; }

# Plays one chunk, summarises it (summary.json) and prunes its replays.
play_chunk() {
  local dir=$1 status=0
  "$binary" arena --p0 "$(meta_of "$dir" ours)" --p1 "$(meta_of "$dir" theirs)" --packs "$dir/packs" \
    --games "$(meta_of "$dir" games)" \
    --time-ms "$time_ms" --turn-ms "$turn_ms" --json "$dir/games.jsonl" --replays "$dir/replays" \
    >"$dir/arena.txt" 2>"$dir/arena-stderr.txt" || status=$?
  summarise_chunk "$dir" "$status" "$turn_ms" "$keep_replays"
  local done_now elapsed
  done_now=$(games_done)
  elapsed=$((SECONDS - started))
  log "$(basename "$dir") done ($(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["line"])' "$dir/summary.json")); $done_now/$games games in $((elapsed / 60)) min, ~$((elapsed * (games - done_now) / (done_now > 0 ? done_now : 1) / 60)) min left"
}

# Runs a phase's chunks on the jobs: job k plays chunks k, k + jobs, ... one after the other.
run_phase() {
  local -a list
  read -r -a list <<<"${phase_chunks[$1]}"
  ((${#list[@]} > 0)) || return 0
  local k pids=()
  for ((k = 0; k < jobs && k < ${#list[@]}; k++)); do
    (
      trap - EXIT
      for ((i = k; i < ${#list[@]}; i += jobs)); do play_chunk "${list[i]}"; done
    ) &
    pids+=($!)
    background+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || log "a job failed (exit $?): its chunks lack a summary"; done
}

summarise_chunk() {
  python3 - "$@" <<'PY'
import json, os, re, shutil, sys
from pathlib import Path

dir, arena_status, cap, keep = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
meta = json.loads((dir / "meta.json").read_text())
rss_line = re.compile(r"^turn (\d+): peak RSS ([0-9.]+) MiB$")
s = dict(phase=meta["phase"], opponent=meta["opponent"], games=0, wins=0, draws=0, losses=0,
         timeout=0, crash=0, invalid=0, panics=0, their_faults=0, over_cap=0, slowest_ms=0,
         peak_rss=[], turns=0, arena_error=None)
if arena_status != 0:
    s["arena_error"] = ((dir / "arena-stderr.txt").read_text().strip().splitlines() or ["exit %d" % arena_status])[-1]
lines = (dir / "games.jsonl").read_text().splitlines() if (dir / "games.jsonl").exists() else []
for text in lines:
    game = json.loads(text)
    ours = [seat for seat in (0, 1) if game["commands"][seat] == meta["ours"]]
    s["games"] += 1
    s["turns"] += game["turns"]
    if meta["opponent"] != "self":
        winner = game["winner"]
        key = "draws" if winner == -1 else "wins" if winner in ours else "losses"
        s[key] += 1
    replay = dir / "replays" / ("game-%04d" % game["game"])
    fault = False
    for seat in (0, 1):
        kind = game["faults"][seat]
        if kind and seat in ours:
            s[kind] += 1
            fault = True
        elif kind:
            s["their_faults"] += 1
    peak = 0.0
    for seat in ours:
        stderr = replay / ("stderr-p%d.txt" % seat)
        for line in stderr.read_text(errors="replace").splitlines() if stderr.exists() else []:
            m = rss_line.match(line)
            if m:
                peak = max(peak, float(m.group(2)))
            elif "internal error" in line:
                # A searcher panicked; the bot answered a fallback move and played on.
                s["panics"] += 1
                fault = True
    s["peak_rss"].append(peak)
    if (replay / "replay.json").exists():
        for turn in json.loads((replay / "replay.json").read_text())["turns"]:
            for seat in ours:
                ms = turn["time_ms"][seat]
                s["slowest_ms"] = max(s["slowest_ms"], ms)
                if ms > cap:
                    s["over_cap"] += 1
                    fault = True
    if not fault and not keep and replay.exists():
        for name in ("replay.json", "input-p0.txt", "input-p1.txt"):
            (replay / name).unlink(missing_ok=True)
faults = s["timeout"] + s["crash"] + s["invalid"] + s["panics"]
s["line"] = "%d games, %d faults of ours%s" % (s["games"], faults, ", arena failed: " + s["arena_error"] if s["arena_error"] else "")
(dir / "summary.json").write_text(json.dumps(s))
PY
}

run_phase normal
if ((load_games > 0)); then
  for core in "${cores[@]}"; do
    taskset -c "$core" yes >/dev/null &
    hogs+=($!)
  done
  log "CPU hogs on cores ${cores[*]} (pids ${hogs[*]})"
  run_phase load
  kill "${hogs[@]}" 2>/dev/null || true
  wait "${hogs[@]}" 2>/dev/null || true
  hogs=()
  log "CPU hogs stopped"
fi

# --- long games ------------------------------------------------------------------------------
# Two quiet bots on 2N games (N pack files, sides swapped); the even games' input-p0.txt (one per
# pack file: the odd game of a pair is the same game seen from the other, identical bot) is then
# fed to our bot, one game per job at a time.
long=$out/long
if ((long_games > 0)); then
  mkdir -p "$long/packs"
  for ((p = 0; p < long_games; p++)); do
    file=${pack_files[$((p % ${#pack_files[@]}))]}
    ln -sf "$file" "$long/packs/$(printf '%03d' "$p")-$(basename "$file")"
  done
  log "long games: $long_games quiet-vs-quiet games to turn 500"
  "$binary" arena --p0 "$bot --strategy quiet" --p1 "$bot --strategy quiet --name quiet-b" --packs "$long/packs" \
    --games $((2 * long_games)) --time-ms "$time_ms" --turn-ms "$turn_ms" --jobs "$jobs" \
    --json "$long/games.jsonl" --replays "$long/replays" >"$long/arena.txt" 2>"$long/arena-stderr.txt" ||
    log "long games: the arena failed: $(tail -n 1 "$long/arena-stderr.txt")"
  replay_long() {
    local game=$1 core=$2 dir=$long/check/$(basename "$1")
    mkdir -p "$dir"
    local begun=$SECONDS status=0
    taskset -c "$core" sh -c "$bot --report-memory --turn-cap-ms 100" <"$game/input-p0.txt" \
      >"$dir/answers.txt" 2>"$dir/stderr.txt" || status=$?
    echo "$status $((SECONDS - begun))" >"$dir/exit"
  }
  mapfile -t long_dirs < <(find "$long/replays" -mindepth 1 -maxdepth 1 -name 'game-*[02468]' 2>/dev/null | sort)
  for ((i = 0; i < ${#long_dirs[@]}; i += jobs)); do
    pids=()
    for ((k = 0; k < jobs && i + k < ${#long_dirs[@]}; k++)); do
      replay_long "${long_dirs[i + k]}" "${cores[$((k % ${#cores[@]}))]}" &
      pids+=($!)
      background+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid"; done
    log "long games: $((i + ${#pids[@]}))/${#long_dirs[@]} replayed through our bot"
  done
fi

# --- the summary -----------------------------------------------------------------------------
python3 - "$out" "$long_games" "$rss_growth" "$((SECONDS - started))" "$keep_replays" <<'PY'
import json, re, sys
from pathlib import Path

out, long_games, rss_growth, seconds, keep = Path(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1"
report = []
chunks = [json.loads(p.read_text()) for p in sorted(out.glob("chunks/*/summary.json"))]
total = lambda key, phase=None: sum(c[key] for c in chunks if phase in (None, c["phase"]))
games = total("games")
faults = {k: total(k) for k in ("timeout", "crash", "invalid", "panics")}
arena_errors = [c["arena_error"] for c in chunks if c["arena_error"]]
peaks = sorted(r for c in chunks for r in c["peak_rss"] if r > 0)
report.append("games: %d (%d under load), %d turns" % (games, total("games", "load"), total("turns")))
for opponent in ("greedy", "beam", "random", "self"):
    mine = [c for c in chunks if c["opponent"] == opponent]
    n = sum(c["games"] for c in mine)
    w, d, l = (sum(c[k] for c in mine) for k in ("wins", "draws", "losses"))
    f = sum(c[k] for c in mine for k in faults)
    result = "" if opponent == "self" else ", our wins %d, draws %d, losses %d" % (w, d, l)
    report.append("  vs %-6s %4d games%s, faults of ours %d, theirs %d, slowest turn of ours %d ms"
                  % (opponent, n, result, f, sum(c["their_faults"] for c in mine), max([c["slowest_ms"] for c in mine] or [0])))
load = [c for c in chunks if c["phase"] == "load"]
if load:
    report.append("under load: slowest turn of ours %d ms" % max(c["slowest_ms"] for c in load))
if peaks:
    report.append("peak RSS per game: median %.0f MiB, 99th percentile %.0f MiB, max %.0f MiB"
                  % (peaks[len(peaks) // 2], peaks[min(len(peaks) - 1, int(0.99 * len(peaks)))], peaks[-1]))
for e in arena_errors:
    report.append("arena failed: " + e)

# Long games: the arena's result, then our bot's run over each game's input.
long = out / "long"
results = [json.loads(l) for l in (long / "games.jsonl").read_text().splitlines()] if (long / "games.jsonl").exists() else []
results = [r for r in results if r["game"] % 2 == 0]
to_500 = sum(r["turns"] == 500 for r in results)
draws = sum(r["turns"] == 500 and r["winner"] == -1 for r in results)
rss_line = re.compile(r"^turn (\d+): peak RSS ([0-9.]+) MiB$")
long_faults, at_50, at_end = [], [], []
for r in results:
    name = "game-%04d" % r["game"]
    given = (long / "replays" / name / "input-p0.txt").read_text().splitlines()
    # A turn is 43 lines after the 1500 of the packs: the number, then per player time,
    # garbage, gauge, score, 16 rows and END. The skill is legal at gauge 80.
    gauges = {int(given[i]): int(given[i + 3]) for i in range(1500, len(given) - 42, 43)}
    check = long / "check" / name
    status, wall = map(int, (check / "exit").read_text().split())
    answers = (check / "answers.txt").read_text().splitlines()[1:]
    legal = re.compile(r"^[0-8] [0-3]$")
    illegal = sum(not (legal.match(a) or (a == "S" and gauges.get(t, 0) >= 80)) for t, a in enumerate(answers))
    rss = {int(m.group(1)): float(m.group(2)) for m in map(rss_line.match, (check / "stderr.txt").read_text().splitlines()) if m}
    problems = []
    if status != 0:
        problems.append("exit %d" % status)
    if len(answers) != len(gauges):
        problems.append("%d answers to %d turns" % (len(answers), len(gauges)))
    if illegal:
        problems.append("%d illegal answers" % illegal)
    if rss:
        first = rss[min((t for t in rss if t >= 50), default=max(rss))]
        last = rss[max(rss)]
        at_50.append(first)
        at_end.append(last)
        if last - first > rss_growth:
            problems.append("peak RSS grew from %.1f to %.1f MiB" % (first, last))
    else:
        problems.append("no RSS lines")
    report.append("long %s: %d turns (%s), our bot %d s%s" % (name, r["turns"], r["reason"], wall,
                  ", " + ", ".join(problems) if problems else ", RSS %.1f -> %.1f MiB" % (at_50[-1], at_end[-1])))
    if problems:
        long_faults.append(name)
report.append("long-game faults: %s" % (", ".join(long_faults) or "none"))

bad = sum(faults.values()) + len(long_faults) + len(arena_errors)
line = ("soak: %d games, %d faults of ours (%d timeouts, %d crashes, %d illegal, %d caught panics), "
        "%d turns over the cap, %d under load, %d long games to turn 500 of %d (draws %d)%s"
        % (games, sum(faults.values()), faults["timeout"], faults["crash"], faults["invalid"], faults["panics"],
           total("over_cap"), total("games", "load"), to_500, len(results), draws,
           ", %d long-game faults" % len(long_faults) if long_faults else ""))
line += ", peak RSS max %s" % ("%.0f MiB" % peaks[-1] if peaks else "-")
if at_50:
    line += " (long games: %.0f MiB at turn 50, %.0f MiB at turn 500)" % (max(at_50), max(at_end))
if arena_errors:
    line += ", %d arena runs failed" % len(arena_errors)
if len(results) < long_games:
    line += ", %d long games missing" % (long_games - len(results))
    bad += 1
report.append("took %d min" % (seconds // 60))
(out / "report.txt").write_text("\n".join(report + [line]) + "\n")
print("\n".join(report), file=sys.stderr)
print(line)
sys.exit(1 if bad else 0)
PY
