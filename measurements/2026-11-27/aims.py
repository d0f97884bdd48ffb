"""The rebuilds that start a new chain (`plan finished: building the next chain`): the aim the
race chose, the largest chain the rebuild's menu held within 8, 10 and 12 turns, the chain of 6+
links we fired next, their next 10+ chain, and the game's result.

Usage: python3 aims.py REPLAYS   (a gauntlet's --replays folder of games played with --explain)
"""
import json,re,sys,glob,os
for gd in sorted(glob.glob(sys.argv[1]+'/*/game-*')):
    if not os.path.exists(gd+'/replay.json'): continue
    rep=json.load(open(gd+'/replay.json'))
    for p in (0,1):
        f=f'{gd}/stderr-p{p}.txt'
        if not os.path.exists(f) or 'budget' not in open(f).read(): continue
        links={t['turn']:(t['outcomes'][p]['links'],t['outcomes'][1-p]['links']) for t in rep['turns'] if t.get('outcomes')}
        won = rep['result'].get('winner')==p
        for block in open(f).read().split('\ngame ')[1:]:
            turn=int(re.search(r'turn (\d+):',block).group(1))
            if 'plan finished' not in block: continue
            a=re.search(r'rebuild aims at (\d+)@(\d+)',block)
            m=re.search(r'rebuild beam: .*best by turn (.*)',block)
            if not a or not m: continue
            menu=[tuple(map(int,x.split('@'))) for x in m.group(1).split()]
            lg=lambda k: max([l for l,t in menu if t<=turn+k],default=0)
            ours=[(l,t) for t,(l,o) in sorted(links.items()) if t>=turn and l>=6][:1]
            theirs=[(o,t) for t,(l,o) in sorted(links.items()) if t>=turn and o>=10][:1]
            print(gd.split('/')[-1], turn, 'aim',a.group(1)+'@'+a.group(2), 'L8',lg(8),'L10',lg(10),'L12',lg(12), 'fired',ours,'their next',theirs,'W' if won else 'L')
