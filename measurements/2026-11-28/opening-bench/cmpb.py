"""Pairs `bench opening` tables file by file against a baseline: for each column, the mean
difference in links and how many files got better and worse (columns a table lacks are skipped).

python3 cmpb.py BASE.txt OTHER.txt...
"""
import sys

COLUMNS = ['by10', 'by12', 'L13', 'by16', 'by20', 'row1', 'left', 'nx8']


def load(path):
    cols = None
    table = {}
    for line in open(path):
        p = line.split()
        if p and p[0] == 'file':
            cols = p
        elif p and p[0].startswith('pack_') and cols:
            table[p[0]] = dict(zip(cols, p))
    return table


base = load(sys.argv[1])
for path in sys.argv[2:]:
    other = load(path)
    common = [k for k in other if k in base]
    out = []
    for c in COLUMNS:
        diffs = [int(other[k][c]) - int(base[k][c]) for k in common
                 if other[k].get(c, '').isdigit() and base[k].get(c, '').isdigit()]
        if diffs:
            out.append(f"{c}={sum(diffs) / len(diffs):+.2f}(+{sum(x > 0 for x in diffs)}/-{sum(x < 0 for x in diffs)})")
    print(f"{path:26s} n={len(common):2d} " + " ".join(out))
