import sys
def load(f):
    cols=None; d={}
    for line in open(f):
        p=line.split()
        if p and p[0]=='file': cols=p
        elif p and p[0].startswith('pack_'): d[p[0]]={c:p[i] for i,c in enumerate(cols)}
    return d
base=load(sys.argv[1])
for f in sys.argv[2:]:
    d=load(f); common=[k for k in d if k in base]
    out=[]
    for c in ['by10','by12','L13','by16','by20','row1']:
        diffs=[int(d[k][c])-int(base[k][c]) for k in common if d[k][c].isdigit() and base[k][c].isdigit()]
        out.append(f"{c}={sum(diffs)/max(1,len(diffs)):+.2f}(+{sum(x>0 for x in diffs)}/-{sum(x<0 for x in diffs)})")
    print(f"{f:26s} n={len(common):2d} "+" ".join(out))
