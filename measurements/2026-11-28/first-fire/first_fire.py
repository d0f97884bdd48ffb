"""Each game's first exchange as our bot read it: our first 10+ chain, the race's probe of their
answer on that turn (the `race exchange` line's answer plus the 2-link shortfall it subtracts),
their real answer, and their field's tallest column from our fire to theirs.

python3 first_fire.py REPLAYS_DIR...   (gauntlet --replays folders of games our bot played with --explain)"""
import re, sys

import replays

SHORTFALL = 2
AHEAD_MIN_LINKS = 12


def tallest(rows):
    n = len(rows)
    return max((n - next((i for i, r in enumerate(rows) if r[c] != '.'), n)) for c in range(10))


games = []
for game in replays.games(sys.argv[1:]):
    ours = game.chains(game.ours)
    if not ours:
        continue
    links, turn = ours[0]
    answer = next(((l, t) for l, t in game.chains(1 - game.ours) if t > turn), None)
    exchanges = {t: (int(m.group(1)), int(m.group(2)) + SHORTFALL) for t in range(turn + 1)
                 if (m := re.search(r'race exchange: fire (\d+) now, they answer (\d+)', game.explained.get(t, '')))}
    probe = exchanges[turn][1] if turn in exchanges else None
    ahead = [(t, o, a) for t, (o, a) in sorted(exchanges.items()) if t < turn and o >= AHEAD_MIN_LINKS and o > a]
    last = answer[1] if answer else min(turn + 10, len(game.turns) - 1)
    heights = [tallest(game.turns[k]['states'][1 - game.ours]['field']) for k in range(turn, last + 1)]
    games.append((game.won, links, probe, answer, ahead))
    print(f"{game.pack} {'won ' if game.won else 'lost'} ours {links}@{turn} | probe {probe} | "
          f"theirs {'%d@%d' % answer if answer else 'none'} | their tallest column {' '.join(map(str, heights))}"
          + (' | ahead ' + ' '.join(f'{o}/{a}@{t}' for t, o, a in ahead) if ahead else ''))
known = [(w, l, p, a) for w, l, p, a, _ in games if p is not None]
for label, keep in [('probe above ours', lambda l, p: p > l), ('probe equal', lambda l, p: p == l), ('probe below ours', lambda l, p: p < l)]:
    sel = [(w, a) for w, l, p, a in known if keep(l, p)]
    print(f"{label}: {len(sel)} games, won {sum(w for w, _ in sel)}")
diffs = [a[0] - p for w, l, p, a in known if a]
print('their answer minus the probe:', ' '.join(f'{d:+d}' for d in diffs), f'(mean {sum(diffs) / max(len(diffs), 1):+.2f})')
held = [w for w, l, p, a, ahead in games if ahead]
print(f"ahead on an earlier turn and held back: {len(held)} games, won {sum(held)}")
