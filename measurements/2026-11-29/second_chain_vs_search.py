"""The second race: what each side really fired next against what our rebuild search finds on its
field. For every `after-exchange` position of a `bench rebuild` run (three turns after both
sides' first 10+ chains), the first chain of 8+ links each side fired from that turn on (links,
turns after the position), beside the search's best chain within the first of its horizons
(+4 +6 +8 +10 +12) that covers that many turns.

python3 second_chain_vs_search.py BENCH_REBUILD.txt REPLAYS_DIR...
(the book given to `bench rebuild` taken from these gauntlet --replays folders by `codevs-reborn book`)"""
import os, re, statistics, sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '2026-11-28', 'first-fire'))
import replays  # noqa: E402

HORIZONS = [4, 6, 8, 10, 12]
MIN_LINKS = 8

bench, folders = sys.argv[1], sys.argv[2:]
games = {game.folder: game for game in replays.games(folders)}


def next_chain(game, seat, turn):
    """The seat's first chain of MIN_LINKS+ links from `turn` on, as (links, turns after it)."""
    return next(((links, t - turn) for links, t in game.chains(seat, MIN_LINKS) if t >= turn), None)


def searched(figures, chain):
    if chain is None:
        return None
    return next((f for h, f in zip(HORIZONS, figures) if chain[1] <= h), figures[-1])


gaps = {'ours': [], 'theirs': []}
fired = {'ours': [], 'theirs': []}
by8 = {'ours': [], 'theirs': []}
print('position        result  ours: fired (links, +turns)  search | theirs: fired  search')
for line in open(bench):
    m = re.match(r'(\w+-game-(\d+)-t(\d+))\s+\d+\s+\d+\s+(.*)', line)
    if not m:
        continue
    turn, figures = int(m.group(3)), list(map(int, m.group(4).split()))
    game = games['game-' + m.group(2)]
    me = game.ours
    row = []
    for side, seat, fig in (('ours', me, figures[0:5]), ('theirs', 1 - me, figures[6:11])):
        chain = next_chain(game, seat, turn)
        s = searched(fig, chain)
        by8[side].append(fig[HORIZONS.index(8)])
        if chain:
            gaps[side].append(chain[0] - s)
            fired[side].append(chain)
        row.append(f'{str(chain):>10} {str(s):>4}')
    print(f'{m.group(1):16} {"won " if game.won else "lost"}  {row[0]} | {row[1]}')
for side, g in gaps.items():
    links = [c[0] for c in fired[side]]
    turns = [c[1] for c in fired[side]]
    print(f'{side}: fired {statistics.mean(links):.2f} links (median {statistics.median(links)}) '
          f'{statistics.median(turns)} turns after the position (median) in {len(g)} positions; '
          f'the search finds {statistics.mean(by8[side]):.2f} within 8 turns; '
          f'fired minus searched at its turn {statistics.mean(g):+.2f}')
