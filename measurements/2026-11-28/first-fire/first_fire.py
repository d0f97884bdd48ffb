"""Each game's first exchange as our bot read it: our first 10+ chain, the race's probe of their
answer on that turn (the `race exchange` line's answer plus the 2-link shortfall it subtracts),
their real answer, and their field's tallest column from our fire to theirs.

python3 first_fire.py REPLAYS_DIR...   (gauntlet --replays folders of games our bot played with --explain)"""
import glob, json, re, sys

SHORTFALL = 2


def tallest(rows):
    n = len(rows)
    return max((n - next((i for i, r in enumerate(rows) if r[c] != '.'), n)) for c in range(10))


games = []
for folder in sys.argv[1:]:
    for path in sorted(glob.glob(folder + '/*/game-*/replay.json')):
        rep = json.load(open(path))
        res = rep.get('result')
        if not res or any('outcomes' not in t for t in rep['turns']):
            continue  # a game stopped before its end
        ours = res['names'].index('codevs-reborn')
        chains = {0: [], 1: []}
        for t in rep['turns']:
            for s in (0, 1):
                if t['outcomes'][s]['links'] >= 10:
                    chains[s].append((t['outcomes'][s]['links'], t['turn']))
        if not chains[ours]:
            continue
        links, turn = chains[ours][0]
        answer = next(((l, t) for l, t in chains[1 - ours] if t > turn), None)
        err = open(path.replace('replay.json', f'stderr-p{ours}.txt')).read()
        block = next((b for b in re.split(r'\n(?=game \d+, turn )', err) if re.match(rf'game \d+, turn {turn}:', b)), '')
        m = re.search(r'race exchange: fire (\d+) now, they answer (\d+)', block)
        probe = int(m.group(2)) + SHORTFALL if m else None
        last = answer[1] if answer else min(turn + 10, len(rep['turns']) - 1)
        heights = [tallest(rep['turns'][k]['states'][1 - ours]['field']) for k in range(turn, last + 1)]
        won = res['winner'] == ours
        games.append((won, links, probe, answer))
        print(f"{res['packs'][-9:-5]} {'won ' if won else 'lost'} ours {links}@{turn} | probe {probe} | "
              f"theirs {'%d@%d' % answer if answer else 'none'} | their tallest column {' '.join(map(str, heights))}")
known = [(w, l, p, a) for w, l, p, a in games if p is not None]
for label, keep in [('probe above ours', lambda l, p: p > l), ('probe equal', lambda l, p: p == l), ('probe below ours', lambda l, p: p < l)]:
    sel = [(w, a) for w, l, p, a in known if keep(l, p)]
    print(f"{label}: {len(sel)} games, won {sum(w for w, _ in sel)}")
diffs = [a[0] - p for w, l, p, a in known if a]
print('their answer minus the probe:', ' '.join(f'{d:+d}' for d in diffs), f'(mean {sum(diffs) / max(len(diffs), 1):+.2f})')
