"""Our second chain when it is small: for each game, our first chain of 5+ links fired after both
sides' first 10+ chains, when it has 10 links or fewer, with the explain lines of its turn that
decided it (`race exchange`, `rebuild aims at`, `answer plan`, `race safety`, `decided`).

python3 second_fire_reasons.py REPLAYS_DIR...   (gauntlet --replays folders of games played with --explain)"""
import os, sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '2026-11-28', 'first-fire'))
import replays  # noqa: E402

KEYS = ('decided', 'race exchange', 'rebuild aims', 'answer plan', 'race safety')

for game in replays.games(sys.argv[1:]):
    ours, theirs = game.chains(game.ours), game.chains(1 - game.ours)
    if not ours:
        continue
    exchanged = max(ours[0][1], theirs[0][1] if theirs else 999)
    after = [(links, turn) for links, turn in game.chains(game.ours, 5) if turn > exchanged]
    if not after or after[0][0] > 10:
        continue
    links, turn = after[0]
    print(f"{game.pack} {'won ' if game.won else 'lost'} ours {links}@{turn}, their 10+ chains "
          + ' '.join(f'{l}@{t}' for l, t in theirs[:3]))
    for line in game.explained.get(turn, '').split('\n'):
        if any(k in line for k in KEYS):
            print('    ' + line.strip()[:240])
