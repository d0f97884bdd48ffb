"""After the first exchange: our later chains, and which came from an answer plan."""
import sys,re
sys.path.insert(0, __import__('os').path.dirname(__file__))
from replays import games
rows={}
for g in games(sys.argv[1:]):
    ours=g.chains(g.ours,3); theirs=g.chains(1-g.ours,10)
    first=[c for c in ours if c[0]>=10][:1]
    if not first: continue
    after=[c for c in ours if c[1]>first[0][1]]
    planned={}
    for t,b in sorted(g.explained.items()):
        for m in re.finditer(r"(answer|rebuild) (?:beam|plan)[^\n]*?fires (\d+) links at turn (\d+)",b):
            if t>first[0][1]: planned[(int(m.group(2)),int(m.group(3)))]=m.group(1)
    kinds=[f"{l}@{t}{'a' if planned.get((l,t))=='answer' else 'r' if planned.get((l,t))=='rebuild' else ''}" for l,t in after]
    biggest=max([l for l,t in after],default=0)
    rows[g.pack]=(g.won,biggest,after,planned)
    print(g.pack,'won ' if g.won else 'lost','first %d@%d'%first[0],'| ours after:',' '.join(kinds),'| theirs 10+:',' '.join('%d@%d'%c for c in theirs))
for w in (True,False):
    sel=[r for r in rows.values() if r[0]==w]
    ans_small=sum(1 for r in sel if any(r[3].get(c)=='answer' and c[0]<8 for c in r[2]))
    print('won' if w else 'lost', len(sel),'games; largest later chain (median)', sorted(r[1] for r in sel)[len(sel)//2], '; games with an answer plan firing under 8 links:', ans_small)
