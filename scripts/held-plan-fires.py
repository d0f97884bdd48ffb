#!/usr/bin/env python3
"""The sharp reading of a paired judgement: the pairs whose base game held a plan fire.

A pair is the two bots' games on one seed and seat (`gauntlet --candidate`'s two --json files).
The pair counts when the base bot's game held a plan fire of --min-links or more: before either
side's first chain of 10+ links, a turn whose `race-features` line has `our_line` of one entry of
--min-links or more (the plan fires now) on which it fired no 10+ chain. A candidate that changes
that decision acts there; elsewhere its pairs differ by timing and the opponent's variance. Prints
those pairs and the two-sided sign test on the ones the two bots ended differently.

    scripts/held-plan-fires.py BASE.jsonl BASE-REPLAYS CANDIDATE.jsonl
"""

import argparse
import json
import math
import os
import sys

FEATURES = "race-features "


def games(path):
    """The games of a gauntlet --json file, by (pack label, our seat)."""
    with open(path) as f:
        return {(g["packs"], g["our_seat"]): g for g in map(json.loads, f)}


def held_turn(game, replays, min_links):
    """The first turn the game's plan fire of min_links+ was ready and not fired, or None."""
    seat = game["our_seat"]
    folder = os.path.join(replays, game["opponent"], "game-%04d" % game["game"])
    with open(os.path.join(folder, "replay.json")) as f:
        turns = json.load(f)["turns"]
    first = next((t["turn"] for t in turns if any(o and o["links"] >= 10 for o in t["outcomes"] or [])), None)
    fired = {t["turn"]: t["outcomes"][seat]["links"] for t in turns if t["outcomes"] and t["outcomes"][seat]}
    with open(os.path.join(folder, "stderr-p%d.txt" % seat)) as f:
        for line in f:
            if not line.startswith(FEATURES):
                continue
            x = json.loads(line[len(FEATURES):])
            if first is not None and x["turn"] > first:
                break
            plan_fires = len(x["our_line"]) == 1 and x["our_line"][0] >= min_links
            if plan_fires and fired.get(x["turn"], 0) < 10:
                return x["turn"]
    return None


def sign_test(better, worse):
    n = better + worse
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(better, worse) + 1)) / 2**n
    return min(1.0, 2 * tail)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="the base bot's gauntlet --json file")
    parser.add_argument("replays", help="the base bot's --replays folder")
    parser.add_argument("candidate", help="the candidate's gauntlet --json file (same seeds and seats)")
    parser.add_argument("--min-links", type=int, default=12, help="the plan fire held (default 12)")
    args = parser.parse_args()
    base, candidate = games(args.base), games(args.candidate)
    counts = {"both won": 0, "better": 0, "worse": 0, "both lost": 0}
    for key, game in sorted(base.items()):
        other = candidate.get(key)
        turn = other and held_turn(game, args.replays, args.min_links)
        if turn is None:
            continue
        base_won = game["winner"] == game["our_seat"]
        won = other["winner"] == other["our_seat"]
        kind = {(True, True): "both won", (False, True): "better", (True, False): "worse"}.get(
            (base_won, won), "both lost")
        counts[kind] += 1
        print(f"{key[0]} seat {key[1]}: held at turn {turn}, {kind}")
    pairs = sum(counts.values())
    p = sign_test(counts["better"], counts["worse"])
    print(f"{pairs} pairs where the base held a plan fire of {args.min_links}+: "
          + ", ".join(f"{k} {v}" for k, v in counts.items()) + f"; two-sided sign test p = {p:.3f}")


if __name__ == "__main__":
    sys.exit(main())
