"""The turns where the midgame search overrode our plan (`decided: the midgame search's best move`
with a plan still to fire), outside kills, and the first chain of 6+ links we fired after.

Usage: python3 overrides.py REPLAYS   (a gauntlet's --replays folder of games played with
--explain). One line a turn: game, our seat, turn, the plan's chain (links, turn), the midgame's
best value and the plan move's, the chain fired next (turn, links), whether a rebuild aimed.
Our seat is the one whose stderr has `budget` lines.
"""
import json, re, sys, glob, os

rows=[]
for gd in sorted(glob.glob(sys.argv[1]+'/*/game-*')):
    if not os.path.exists(gd+"/replay.json"): continue
    rep=json.load(open(gd+"/replay.json"))
    for p in (0,1):
        f=f'{gd}/stderr-p{p}.txt'
        if not os.path.exists(f): continue
        txt=open(f).read()
        if 'budget' not in txt: continue
        links={t['turn']:t['outcomes'][p]['links'] if t.get('outcomes') else 0 for t in rep['turns']}
        for block in txt.split('\ngame ')[0:]:
            m=re.search(r'turn (\d+):',block)
            if not m: continue
            turn=int(m.group(1))
            if 'decided: the midgame' not in block: continue
            pm=re.search(r"on the plan's line ([^|]*?)(, on any line|\|)",block)
            mg=re.search(r'best (\S+ \S+) value (-?\d+); plan move value (-?\d+)',block)
            if not pm or not mg: continue
            bv,pv=int(mg.group(2)),int(mg.group(3))
            if abs(bv)>1e8 or abs(pv)>1e8: continue
            items=pm.group(1).split()
            last=items[-1].rstrip(',')
            L,T=map(int,last.split('@'))
            kind='opening' if 'within 30' in block else ''
            fired=[(t,links.get(t,0)) for t in range(turn,turn+12) if links.get(t,0)>=6]
            first=fired[0] if fired else None
            rows.append((gd.split('/')[-1],p,turn,L,T,bv,pv,first, 'rebuild aims' in block))
for r in rows: print(*r)
