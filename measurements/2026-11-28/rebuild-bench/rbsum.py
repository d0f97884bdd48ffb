import sys,statistics
def load(f):
    rows={}
    for l in open(f):
        p=l.split()
        if len(p)==14 and '-game-' in p[0]: rows[p[0]]=[int(x) for x in p[1:]]
    return rows
base=load(sys.argv[1])
for opp in ['toga','kera','ysgeso']:
    rs=[r for k,r in base.items() if k.startswith(opp+'-')]
    o=[r[4] for r in rs]; t=[r[10] for r in rs]
    print(opp,len(rs),'ours +8 %.2f theirs +8 %.2f'%(statistics.mean(o),statistics.mean(t)),'ours>theirs',sum(a>b for a,b in zip(o,t)),'<',sum(a<b for a,b in zip(o,t)))
for f in sys.argv[2:]:
    d=load(f); ks=[k for k in d if k in base]
    out=[]
    for i,w in zip(range(2,7),[4,6,8,10,12]):
        diffs=[d[k][i]-base[k][i] for k in ks]
        out.append(f"+{w}:{statistics.mean(diffs):+.2f}(+{sum(x>0 for x in diffs)}/-{sum(x<0 for x in diffs)})")
    print(f, len(ks), ' '.join(out))
