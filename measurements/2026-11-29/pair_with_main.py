"""Pairs a candidate's full games with one or more runs of main by (opponent, pack file number,
seat), whatever folder or name the pack file had (the `pk-*-trig` folders name them by order):
each file's results, and the files the candidate won where every main run lost (better) or lost
where every main run won (worse), with a two-sided sign test.

usage: python3 pair_with_main.py CAND.jsonl[,MORE.jsonl] MAIN.jsonl[,MORE.jsonl] [MAIN2.jsonl ...] [--files 1,2,3]"""
import json,sys,os,re,math
args=sys.argv[1:]; files=None
if '--files' in args:
    i=args.index('--files'); files={int(x) for x in args[i+1].split(',')}; args=args[:i]+args[i+2:]
def load(spec):
    d={}
    for f in spec.split(','):
        for l in open(f):
            g=json.loads(l)
            # a void game (the opponent lost on time on its first turn, before a move) never played
            if g['turns']==g.get('start_turn',0)+1 and g['faults'][1-g['our_seat']]=='timeout' and g['faults'][g['our_seat']] is None: continue
            m=re.search(r'(\d{4})\.pack',g['packs'])
            if not m: m=re.search(r'game-(\d{4})',g['packs'])
            k=(g['opponent'],int(m.group(1)),g['our_seat'])
            d[k]=1.0 if g['winner']==g['our_seat'] else (0.0 if g['winner']==1-g['our_seat'] else 0.5)
    return d
cand=load(args[0]); mains=[load(a) for a in args[1:]]
keys=sorted(k for k in cand if (files is None or k[1] in files) and all(k in m for m in mains))
better=worse=0; cs=ms=0
for k in keys:
    c=cand[k]; mv=[m[k] for m in mains]; mean=sum(mv)/len(mv)
    cs+=c; ms+=mean
    tag = 'better' if c>max(mv) else ('worse' if c<min(mv) else '')
    better+= tag=='better'; worse+= tag=='worse'
    print(f'{k[0]} {k[1]:04d} seat{k[2]}: cand {"WLD"[[1.0,0.0,0.5].index(c)]} main {" ".join("WLD"[[1.0,0.0,0.5].index(x)] for x in mv)} {tag}')
n=better+worse
p=min(1.0,2*sum(math.comb(n,i) for i in range(0,min(better,worse)+1))/2**n) if n else 1.0
print(f'{len(keys)} files: candidate {cs:g}, main (mean of {len(mains)} runs) {ms:g}; better than every main run {better}, worse than every main run {worse}, sign test p = {p:.2f}')
