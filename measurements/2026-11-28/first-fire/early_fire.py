"""Did their probe show an early fire? For each game played with --explain, at turns 8-12: the
first turn their probed menu reaches 12 links (`their12@T`), our plan's chain and fire turn, and
the largest chain our menu on any line held by T; with each side's first 10+ chain and the result.

python3 early_fire.py REPLAYS_DIR..."""
import os, re, sys

import replays

MENUS = re.compile(r"race menus: ours now \d+, on the plan's line ([^|]*?), on any line ([^|]*)\| theirs now \d+, ([^|\n]*)")


for game in replays.games(sys.argv[1:]):
    result = game.replay['result']
    out = []
    for turn in range(8, 13):
        m = MENUS.search(game.explained.get(turn, ''))
        if not m:
            continue
        plan, any_line, theirs = map(replays.menu_chains, m.groups())
        their_turn = next((t for links, t in theirs if links >= 12), None)
        links, fire_turn = max(plan) if plan else (None, None)
        by_then = max([l for l, t in any_line if their_turn is not None and t <= their_turn], default=0)
        out.append(f"t{turn}:their12@{their_turn} plan {links}@{fire_turn} any-by-f {by_then}")
    first = result['first_chain_10']
    print(os.path.basename(result['packs']), 'W' if game.won else 'L', 'ours', first[game.ours],
          'theirs', first[1 - game.ours], '|', ' ; '.join(out))
