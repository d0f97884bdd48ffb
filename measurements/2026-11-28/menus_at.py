#!/usr/bin/env python3
"""Both sides' chain potential early in full games: at turns 8 and 10, the largest chain our
search could fire by turns 13, 15, 17 and 19 (the `race menus` line's "on any line" menu) and the
largest their probed field could (its "theirs" menu), median over the games, won and lost apart,
per opponent.

usage: menus_at.py GAMES.jsonl REPLAYS_DIR [GAMES.jsonl REPLAYS_DIR ...]
(REPLAYS_DIR is the gauntlet's --replays folder of a bot run with --explain)
"""
import json, re, statistics, sys

BY = (13, 15, 17, 19)
rows = []
args = sys.argv[1:]
for games, replays in zip(args[::2], args[1::2]):
    for line in open(games):
        game = json.loads(line)
        seat = game['our_seat']
        try:
            text = open(f"{replays}/{game['opponent']}/game-{game['game']:04d}/stderr-p{seat}.txt").read()
        except OSError:
            continue
        parts = re.split(r'game \d+, turn (\d+):', text)
        by_turn = {int(parts[i]): parts[i + 1] for i in range(1, len(parts), 2)}
        for turn in (8, 10):
            found = re.search(r'race menus: ours now \d+, .*?on any line (.*?) \| theirs now \d+, (.*?)(\||\n)',
                              by_turn.get(turn, ''))
            if not found:
                continue
            menus = [{int(t): int(l) for l, t in re.findall(r'(\d+)@(\d+)', found.group(g))} for g in (1, 2)]
            best = [[max([l for t, l in m.items() if t <= u] or [0]) for u in BY] for m in menus]
            rows.append((game['opponent'], turn, game['winner'] == seat, best[0], best[1]))


def medians(rows, side):
    return [statistics.median(r[side][i] for r in rows) for i in range(len(BY))]


print(f"largest chain by turn {'/'.join(map(str, BY))} (median)")
for opponent in sorted({r[0] for r in rows}):
    for turn in (8, 10):
        at = [r for r in rows if r[0] == opponent and r[1] == turn]
        for label, games in (('all', at), ('won', [r for r in at if r[2]]), ('lost', [r for r in at if not r[2]])):
            if games:
                print(f"{opponent:8} turn {turn:2} {label:4} {len(games):3} games: ours {medians(games, 3)} theirs {medians(games, 4)}")
