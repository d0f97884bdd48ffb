"""Was the opening plan's first chain fired when it was ready? For each game (played with
--explain): the first turn on which our plan's own line has 10+ links ready (its `race menus` line
ends at this turn; the plan itself may fire the same chain a turn or two later), whether the bot
took the plan's move there or the midgame search's best move instead, and the game's first chain
of ours and its result.

python3 plan_fire.py REPLAYS_DIR..."""
import re, sys

import replays

tally = {}
for game in replays.games(sys.argv[1:]):
    first = next(iter(game.chains(game.ours)), None)
    verdict = 'no plan fire'
    for turn, block in game.explained.items():
        menu = re.search(r"race menus: ours now (\d+), on the plan's line (\S+(?: \S+)*?), on any line", block)
        if not menu:
            continue
        last = menu.group(2).split()[-1]
        links, at = (int(x) for x in last.split('@')) if '@' in last else (0, -1)
        if at == turn and links >= 10:
            decided = re.search(r'decided: (.*)', block).group(1)
            verdict = ('midgame instead' if 'midgame' in decided else 'plan fired') + f' {links}@{turn}'
            break
    key = verdict.split(' ')[0]
    tally.setdefault(key, [0, 0])
    tally[key][0] += game.won
    tally[key][1] += 1
    print(f"{game.pack} {'won ' if game.won else 'lost'} {verdict:28} first chain {'%d@%d' % first if first else 'none'}")
for key, (won, n) in tally.items():
    print(f'{key}: won {won} of {n}')
