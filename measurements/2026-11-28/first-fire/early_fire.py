"""Did their probe show an early fire? For each game played with --explain (a gauntlet's
--replays folder, opponent subfolders), at turns 8-12: the first turn their probed menu reaches
12 links (`their12@T`), our plan's chain and fire turn, and the largest chain our menu on any line
held by T; with each side's first 10+ chain and the result.

python3 early_fire.py REPLAYS_DIR"""
import re, sys, glob, json, os
for d in sorted(glob.glob(sys.argv[1]+'/*/game-*')):
    r=json.load(open(d+'/replay.json'))['result']
    seat=0 if r['names'][0]=='codevs-reborn' else 1
    txt=open(d+f'/stderr-p{seat}.txt').read()
    blocks=re.split(r'\ngame \d+, turn (\d+): [^\n]*\n', '\n'+txt)
    turns={int(blocks[i]):blocks[i+1] for i in range(1,len(blocks)-1,2)}
    out=[]
    for t in range(8,13):
        b=turns.get(t,'')
        m=re.search(r'race menus: ours now (\d+), on the plan\'s line ([^|]*?), on any line ([^|]*)\| theirs now (\d+), ([^|\n]*)',b)
        if not m: continue
        plan=[tuple(map(int,x.split('@'))) for x in re.findall(r'\d+@\d+',m.group(2))]
        anyl=[tuple(map(int,x.split('@'))) for x in re.findall(r'\d+@\d+',m.group(3))]
        th=[tuple(map(int,x.split('@'))) for x in re.findall(r'\d+@\d+',m.group(5))]
        f=next((tt for l,tt in th if l>=12),None)
        pf=max(plan)[1] if plan else None
        pl=max(plan)[0] if plan else None
        byf=max([l for l,tt in anyl if f is not None and tt<=f],default=0)
        out.append(f"t{t}:their12@{f} plan {pl}@{pf} any-by-f {byf}")
    res='W' if r['winner']==seat else 'L'
    print(os.path.basename(r['packs']),res,'ours',r['first_chain_10'][seat],'theirs',r['first_chain_10'][1-seat],'|',' ; '.join(out))
