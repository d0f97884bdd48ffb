"""What our side fired after the first exchange: for each game (played with --explain), our
chains of 3+ links after our first 10+ chain, each marked `a` when an answer plan had planned it
and `r` when a rebuild had, and their chains of 10+; then, for games won and lost, our largest
later chain (median) and how many games had an answer plan fire under 8 links (under a row).

python3 second_race.py REPLAYS_DIR..."""
import re, sys

import replays

PLANNED = re.compile(r'(answer|rebuild) (?:beam|plan)[^\n]*?fires (\d+) links at turn (\d+)')

games = []
for game in replays.games(sys.argv[1:]):
    first = next(iter(game.chains(game.ours)), None)
    if not first:
        continue
    after = [c for c in game.chains(game.ours, 3) if c[1] > first[1]]
    # The plan kind that last planned each (links, turn) after our first chain.
    planned = {}
    for turn, block in sorted(game.explained.items()):
        if turn > first[1]:
            for m in PLANNED.finditer(block):
                planned[(int(m.group(2)), int(m.group(3)))] = m.group(1)
    marked = [f"{l}@{t}{ {'answer': 'a', 'rebuild': 'r'}.get(planned.get((l, t)), '')}" for l, t in after]
    games.append((game.won, max([l for l, _ in after], default=0),
                  any(planned.get(c) == 'answer' and c[0] < 8 for c in after)))
    print(game.pack, 'won ' if game.won else 'lost', 'first %d@%d' % first, '| ours after:', ' '.join(marked),
          '| theirs 10+:', ' '.join('%d@%d' % c for c in game.chains(1 - game.ours)))
for won in (True, False):
    sel = [g for g in games if g[0] == won]
    print('won' if won else 'lost', len(sel), 'games; largest later chain (median)', sorted(g[1] for g in sel)[len(sel) // 2],
          '; games with an answer plan firing under 8 links:', sum(g[2] for g in sel))
