"""Was the opening plan's first chain fired when it was ready? For each game (played with
--explain): the first turn on which our plan's own line has 10+ links ready (its `race menus` line
ends at this turn; the plan itself may fire the same chain a turn or two later), whether the bot
took the plan's move there or the midgame search's best move instead, and the game's first chain
of ours and its result.

python3 plan_fire.py REPLAYS_DIR..."""
import glob, json, re, sys

tally = {}
for folder in sys.argv[1:]:
    for path in sorted(glob.glob(folder + '/*/game-*/replay.json')):
        rep = json.load(open(path))
        res = rep.get('result')
        if not res or any('outcomes' not in t for t in rep['turns']):
            continue
        ours = res['names'].index('codevs-reborn')
        first = next(((t['outcomes'][ours]['links'], t['turn']) for t in rep['turns'] if t['outcomes'][ours]['links'] >= 10), None)
        err = open(path.replace('replay.json', f'stderr-p{ours}.txt')).read()
        verdict = 'no plan fire'
        for block in re.split(r'\n(?=game \d+, turn )', err):
            m = re.match(r'game \d+, turn (\d+):', block)
            menu = re.search(r"race menus: ours now (\d+), on the plan's line (\S+(?: \S+)*?), on any line", block)
            if not m or not menu:
                continue
            turn = int(m.group(1))
            last = menu.group(2).split()[-1]
            links, at = (int(x) for x in last.split('@')) if '@' in last else (0, -1)
            if at == turn and links >= 10:
                decided = re.search(r'decided: (.*)', block).group(1)
                verdict = ('midgame instead' if 'midgame' in decided else 'plan fired') + f' {links}@{turn}'
                break
        won = res['winner'] == ours
        key = verdict.split(' ')[0]
        tally.setdefault(key, [0, 0])
        tally[key][0] += won
        tally[key][1] += 1
        print(f"{res['packs'][-9:-5]} {'won ' if won else 'lost'} {verdict:28} first chain {'%d@%d' % first if first else 'none'}")
for key, (won, n) in tally.items():
    print(f'{key}: won {won} of {n}')
