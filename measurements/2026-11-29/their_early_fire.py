"""Which games candidate 21 braces in: from main's `--explain` replays (gauntlet `--replays`
folders), the first `race menus` line (turn 8 on) where their menu holds a chain of 10+ links
(two rows) two turns or more before our plan's fire; its turn, our fire turn and their menu.

usage: python3 their_early_fire.py REPLAYS_DIR [REPLAYS_DIR ...]"""
import re,sys,glob,os
for d in sys.argv[1:]:
    hits=0; n=0
    for g in sorted(glob.glob(d+'/*/game-*')):
        ours=[t for t in (open(f).read() for f in sorted(glob.glob(g+'/stderr-p*.txt'))) if 'race menus' in t]
        if not ours: continue
        n+=1
        trig=None
        for l in ours[-1].split('\n'):
            if 'race menus' in l:
                mt=re.search(r"on the plan's line ([\d@ ]+),",l)
                th=re.search(r'theirs now \d+, ([\d@ ]+)',l)
                if not mt or not th: continue
                plan=[tuple(map(int,x.split('@'))) for x in mt.group(1).split()]
                fire_turn=plan[-1][1]; cur=plan[0][1]
                if cur>12: break
                theirs=[tuple(map(int,x.split('@'))) for x in th.group(1).split()]
                if any(L>=10 and T<=fire_turn-2 for L,T in theirs):
                    trig=(cur,fire_turn,th.group(1)); break
        hits+= trig is not None
        print(os.path.basename(g), trig)
    print(d, hits, 'of', n)
