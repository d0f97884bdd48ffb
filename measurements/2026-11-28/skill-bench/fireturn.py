"""At the turn our bot fired its first 10+ chain: what the race's exchange weighed.

python3 fireturn.py REPLAYS_DIR...  (gauntlet --replays folders, the bot run with --explain)
Prints each game's fire, the exchange line of that turn, and counts the turns where the only
wait weighed was the same chain held one turn (the plan's line ends at its fire)."""
import glob, json, os, re, sys

held = total = 0
for folder in sys.argv[1:]:
    for path in sorted(glob.glob(folder + '/*/game-*/replay.json')):
        result = json.load(open(path))['result']
        ours = [i for i in (0, 1) if result['names'][i] == 'codevs-reborn'][0]
        fire = result['first_chain_10'][ours]
        if fire is None:
            continue
        log = open(os.path.join(os.path.dirname(path), f'stderr-p{ours}.txt')).read()
        block = re.search(rf'game \d+, turn {fire["turn"]}:.*?(?=\ngame \d+, turn|\Z)', log, re.S)
        line = re.search(r'race exchange: (.*)', block.group(0)) if block else None
        text = line.group(1) if line else '(no exchange)'
        m = re.match(r'fire (\d+) now.*\| wait for (\d+) in (\d+)', text)
        total += 1
        if m and m.group(1) == m.group(2) and m.group(3) == '1':
            held += 1
        their = result['first_chain_10'][1 - ours]
        won = result['winner'] == ours
        print(f"{os.path.basename(os.path.dirname(path))} {'won ' if won else 'lost'} ours {fire['links']}@{fire['turn']} theirs {their and str(their['links'])+'@'+str(their['turn'])}: {text[:150]}")
print(f'{held} of {total} fires: the only wait weighed was the same chain a turn later')
