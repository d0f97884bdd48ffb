"""Sets the skill builder's garbage against the rebuild's chains, position by position.

python3 skjoin.py REBUILD.txt SKILL.txt  (run from the repository root)
REBUILD.txt: `bench rebuild` output (links within +4..+12); SKILL.txt: `bench skill` output
(garbage a skill sends within +4..+12). Positions are split by whether we won the full game
they come from (measurements/2026-11-27/full-*-c8856d6.jsonl, by pack file)."""
import json, re, sys

def chain_garbage(links):
    return sum((13**i) // (10**i) for i in range(1, links + 1)) // 2

def rows(path):
    out = {}
    for line in open(path):
        p = line.split()
        if p and re.match(r'(toga|kera|ysgeso)-game', p[0]):
            out[p[0]] = p
    return out

rebuild, skill = rows(sys.argv[1]), rows(sys.argv[2])
won, source = {}, {}
for opp in ['toga', 'kera', 'ysgeso']:
    for line in open(f'measurements/2026-11-27/full-{opp}-c8856d6.jsonl'):
        g = json.loads(line)
        won[(opp, re.search(r'(\d{4})\.pack', g['packs']).group(1))] = g['winner'] == g['our_seat']
    for line in open(f'data/books/{opp}-0000-0023.jsonl'):
        p = json.loads(line)
        source[p['id']] = (opp, re.search(r'(\d{4})\.pack', p['source_packs']).group(1))
table = []
for pid, s in skill.items():
    r = rebuild[pid]
    chain = [chain_garbage(int(x)) for x in r[3:8]]
    their_chain = [chain_garbage(int(x)) for x in r[9:14]]
    ours, theirs = [int(x) for x in s[4:9]], [int(x) for x in s[11:16]]
    table.append((pid, won[source[pid]], chain, ours, their_chain, theirs))
print('garbage sent by the best chain / the best skill within +N turns (mean), ours and theirs')
print('| games | +N | our chain | our skill | skill > chain | their chain | their skill |')
print('|---|---|---|---|---|---|---|')
for outcome in [True, False]:
    sel = [t for t in table if t[1] == outcome]
    n = len(sel)
    for j, turns in enumerate([4, 6, 8, 10, 12]):
        mean = lambda k: sum(t[k][j] for t in sel) / n
        better = sum(t[3][j] > t[2][j] for t in sel)
        name = f"{'won' if outcome else 'lost'} ({n})"
        print(f'| {name} | +{turns} | {mean(2):.1f} | {mean(3):.1f} | {better} | {mean(4):.1f} | {mean(5):.1f} |')

print()
print('lost positions: where our best chain, or the better of chain and skill, sends at least their best chain')
for j, turns in enumerate([8, 10, 12], start=2):
    sel = [t for t in table if not t[1]]
    chain_only = sum(t[2][j] >= t[4][j] for t in sel)
    either = sum(max(t[2][j], t[3][j]) >= t[4][j] for t in sel)
    print(f'+{turns}: chain {chain_only} of {len(sel)}, chain or skill {either} of {len(sel)}')
