"""Each game's chains of 3+ links, ours and theirs, and the first exchange: our first 10+ chain
against their first, the difference in links and in turns.

python3 answers.py REPLAYS_DIR...  (gauntlet --replays folders)"""
import glob, json, os, sys

rows = []
for folder in sys.argv[1:]:
    for path in sorted(glob.glob(folder + '/*/game-*/replay.json')):
        replay = json.load(open(path))
        result = replay['result']
        ours = result['names'].index('codevs-reborn')
        chains = {0: [], 1: []}
        for turn in replay['turns']:
            for seat in (0, 1):
                links = turn['outcomes'][seat]['links']
                if links >= 3:
                    chains[seat].append((links, turn['turn']))
        first = lambda seat: next(((l, t) for l, t in chains[seat] if l >= 10), None)
        mine, theirs = first(ours), first(1 - ours)
        won = result['winner'] == ours
        text = lambda seat: ' '.join(f'{l}@{t}' for l, t in chains[seat])
        diff = f'{theirs[0] - mine[0]:+d} links, {theirs[1] - mine[1]:+d} turns' if mine and theirs else '-'
        rows.append((won, mine, theirs))
        print(f"{result['packs'][-9:-5]} {'won ' if won else 'lost'} ours {text(ours)} | theirs {text(1 - ours)} | first exchange {diff}")
both = [(w, m, t) for w, m, t in rows if m and t and t[1] > m[1]]
for label, keep in [('their answer bigger', lambda m, t: t[0] > m[0]), ('not bigger', lambda m, t: t[0] <= m[0])]:
    sel = [w for w, m, t in both if keep(m, t)]
    print(f'we fired first and they answered, {label}: {sum(sel)} won of {len(sel)}')
answered = [(w, m, t) for w, m, t in rows if m and t and m[1] > t[1]]
for label, keep in [('our answer bigger', lambda m, t: m[0] > t[0]), ('not bigger', lambda m, t: m[0] <= t[0])]:
    sel = [w for w, m, t in answered if keep(m, t)]
    print(f'they fired first and we answered, {label}: {sum(sel)} won of {len(sel)}')
