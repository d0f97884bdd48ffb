"""The recorded games both scripts here read: gauntlet --replays folders of games our bot played
with --explain."""
import glob, json, re


class Game:
    def __init__(self, path, replay):
        self.replay = replay
        # The game's folder (`game-NNNN`), as a book names the positions taken from it.
        self.folder = path.split('/')[-2]
        result = replay['result']
        self.pack = result['packs'][-9:-5]
        self.ours = result['names'].index('codevs-reborn')
        self.won = result['winner'] == self.ours
        self.turns = replay['turns']
        stderr = open(path.replace('replay.json', f'stderr-p{self.ours}.txt')).read()
        # One `--explain` block a turn, by its number.
        self.explained = {int(m.group(1)): block for block in re.split(r'\n(?=game \d+, turn )', stderr)
                          if (m := re.match(r'game \d+, turn (\d+):', block))}

    def chains(self, seat, min_links=10):
        """The seat's chains of `min_links`+ links, as (links, turn)."""
        return [(t['outcomes'][seat]['links'], t['turn']) for t in self.turns if t['outcomes'][seat]['links'] >= min_links]


def menu_chains(text):
    """The `links@turn` entries of an explain menu, as (links, turn)."""
    return [tuple(map(int, x.split('@'))) for x in re.findall(r'\d+@\d+', text)]


def games(folders):
    """Every finished game under the folders, in order."""
    for folder in folders:
        for path in sorted(glob.glob(folder + '/*/game-*/replay.json')):
            replay = json.load(open(path))
            if not replay.get('result') or any('outcomes' not in t for t in replay['turns']):
                continue  # a game stopped before its end
            yield Game(path, replay)
