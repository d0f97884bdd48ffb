"""Each book position's result in every run given (gauntlet --json files of book games), one
column a run: which positions any bot's change could still turn.

usage: python3 book_outcomes.py RUN.jsonl [RUN.jsonl ...]"""
import collections
import json
import sys

runs = [path.split("/")[-1].removesuffix(".jsonl") for path in sys.argv[1:]]
results = collections.defaultdict(dict)
for run, path in zip(runs, sys.argv[1:]):
    for line in open(path):
        game = json.loads(line)
        seat, winner = game["our_seat"], game["winner"]
        results[game["packs"]][run] = "W" if winner == seat else "L" if winner == 1 - seat else "D"
for i, run in enumerate(runs):
    print(f"column {i + 1}: {run}")
same = 0
for position in sorted(results):
    row = [results[position].get(run, ".") for run in runs]
    played = {r for r in row if r != "."}
    same += len(played) == 1
    print(position.ljust(32), " ".join(row), "" if len(played) == 1 else "  <- differs")
print(f"{same} of {len(results)} positions had one result in every run that played them")
