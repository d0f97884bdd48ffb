"""When their field says they can fire first: the earliest turn their menu (the `theirs` part of
our `race menus` line) reaches 10 links, read at turns 8-11, beside the turn they fired their first
10+ chain.

python3 their_menu.py REPLAYS_DIR...   (gauntlet --replays folders of games our bot played with --explain)"""
import re, sys

import replays

MIN_LINKS = 10
READ_AT = (8, 9, 10, 11)


def first_ready(block):
    """The first turn of their menu with MIN_LINKS+ links, or None."""
    m = re.search(r'race menus: .*\| theirs now \d+, (.*)', block)
    if not m:
        return None
    return next((t for links, t in replays.menu_chains(m.group(1)) if links >= MIN_LINKS), None)


print(f'pack result  their first {MIN_LINKS}+ | their menu reaches {MIN_LINKS} at, read at turn ' + ' '.join(map(str, READ_AT)))
for game in replays.games(sys.argv[1:]):
    theirs = game.chains(1 - game.ours)
    fired = f'{theirs[0][0]}@{theirs[0][1]}' if theirs else 'none'
    read = ' '.join(str(first_ready(game.explained.get(t, ''))) for t in READ_AT)
    print(f'{game.pack} {"won " if game.won else "lost"}  {fired:>6} | {read}')
