#!/usr/bin/env python3
"""What our rebuild reaches after a 10+ fire of ours: for each game of a gauntlet's --json file
whose replays folder kept our --explain stderr, the `rebuild beam: ... best by turn` menu of the
turn after each of our 10+ chains, as the largest chain by each turn after the fire; prints the
median per turn offset (1..16), per opponent and in all.

usage: rebuild_curve.py GAMES.jsonl REPLAYS_DIR [GAMES.jsonl REPLAYS_DIR ...]
(REPLAYS_DIR is the gauntlet's --replays folder: REPLAYS_DIR/OPPONENT/game-NNNN/stderr-pS.txt)
"""
import json, os, re, statistics, sys

rows_by_opponent = {}
args = sys.argv[1:]
for games, replays in zip(args[::2], args[1::2]):
    for line in open(games):
        game = json.loads(line)
        seat = game['our_seat']
        path = f"{replays}/{game['opponent']}/game-{game['game']:04d}/stderr-p{seat}.txt"
        if not os.path.exists(path):
            continue
        parts = re.split(r'game \d+, turn (\d+):', open(path).read())
        by_turn = {int(parts[i]): parts[i + 1] for i in range(1, len(parts), 2)}
        for chain in game['chains_10'][seat]:
            found = re.search(r'rebuild beam:.*best by turn (.*)', by_turn.get(chain['turn'] + 1, ''))
            if not found:
                continue
            menu = {int(t) - chain['turn']: int(l) for l, t in re.findall(r'(\d+)@(\d+)', found.group(1))}
            best, row = 0, []
            for k in range(1, 17):
                best = max(best, menu.get(k, 0))
                row.append(best)
            rows_by_opponent.setdefault(game['opponent'], []).append(row)
everything = sum(rows_by_opponent.values(), [])
for name, rows in list(rows_by_opponent.items()) + [('all', everything)]:
    print(name, len(rows), [statistics.median(r[k] for r in rows) for k in range(16)])
