"""Whole games played through the app's own save methods on modelled boards
(tests/flashmodel.py): the cut tests and the wear soak use it.

    board = Board("samd51")                 # nvm and drive of a PyBadge, blank
    app = Shell(board)                      # the app's saves, as after switching on
    game = recorded("binokel", 3)           # an AI game's actions
    play(app, board, game)                  # every action saved, as the table saves it

python -m tests.savesim [games]: the wear soak's table (erase cycles per game per unit).
"""

import contextlib
import io
import os
import sys

os.environ.setdefault("BLINKA_FORCEBOARD", "GENERIC_LINUX_PC")
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _p in (os.path.join(ROOT, "lib"), ROOT):
    if _p not in sys.path:
        sys.path.insert(0, _p)

with contextlib.redirect_stdout(io.StringIO()):      # Blinka's note that a PC is no board
    from binocle import app as _app                 # noqa: E402
App = _app.App
from binocle import store                           # noqa: E402
from binocle.settings import Settings               # noqa: E402
from engine.rules import RULE_SETS                  # noqa: E402
from engine import actions, record                  # noqa: E402
from engine.ai import new_player                    # noqa: E402
from engine.rules import new_game                   # noqa: E402
from tests import flashmodel as fm                  # noqa: E402

# Rated endurance, erase cycles per unit (the sources in docs/saves.md): the SAMD51's own flash
# taken at the 10k its NVM controller's family is specified for, the drives' NOR flash
# (GD25Q16C, GD25Q64C/W25Q64JV, the Pico's W25Q16JV, the ESP32-S3's) at 100k.
ENDURANCE = {"nvm block": 10000, "nvm sector": 100000, "nvs page": 100000, "drive sector": 100000}
BOARD_NAMES = {"samd51": "PyBadge, PyGamer (SAMD51)", "rp2040": "RP2040 boards",
               "esp32s3": "Feather ESP32-S3 Reverse TFT"}


class Board:
    """One board's saves: its nvm, and the drive holding the journal (or none)."""

    def __init__(self, name, offset=3, journal=True):
        self.name = name
        self.power = fm.Power()
        self.nvm = fm.NVMS[name](self.power)
        self.drive = None
        if journal:
            self.drive = fm.Drive(fm.DRIVERS[name], store.SIZE // store.BLOCK, offset, self.power)
            self.nvm.journal = self.drive

    def idle(self):
        if self.drive is not None:
            self.drive.idle()

    def switch_off(self):
        """A power cut: the drive's write-back cache (RAM) is lost."""
        if self.drive is not None:
            self.drive.lose_cache()
        self.power.cut = None
        self.power.log = None

    def images(self):
        out = dict(self.nvm.images())
        if self.drive is not None:
            out.update(self.drive.images())
        return out

    def load(self, images):
        """Put images (replay()'s) back into the flash models."""
        for dev, img in images.items():
            dev.data[:] = img
        if self.drive is not None:
            self.drive.lose_cache()

    def units(self):
        out = dict(self.nvm.units())
        if self.drive is not None:
            out.update(self.drive.units())
        return out


class Shell(App):
    """The app without its screen: what it saves and loads, through App's own methods."""

    def __init__(self, board, nvm=None):
        self.profile = None
        self.settings = Settings()
        self.notes = []
        self.session = None
        self.toasts = []
        self._open_saves(board.nvm if nvm is None else nvm)

    def toast(self, text, ms=1800):
        self.toasts.append(text)

    # The board forgets saveload.py and nvmstore.py to free RAM; here they would only be
    # compiled again at every start. Only the shell keeps them: other apps of the same
    # process (the simulator's) still forget.
    def _open_saves(self, nvm):
        with _keeping():
            App._open_saves(self, nvm)

    def _backup(self, due):
        with _keeping():
            return App._backup(self, due)


class _keeping:
    """Within it, binocle.app forgets no module."""

    def __enter__(self):
        self.forget = _app.forget
        _app.forget = lambda *names: None

    def __exit__(self, *exc):
        _app.forget = self.forget


class Game:
    """A recorded game: rules, seed, and its actions in order."""

    def __init__(self, rules, seed, moves):
        self.rules = rules
        self.seed = seed
        self.moves = moves


def recorded(rules, seed, level="normal"):
    """An AI game played to its end on the engine alone (the same game every time)."""
    state = new_game(rules, seed)
    bots = [new_player(rules, p, level, seed * 7 + p) for p in range(state.PLAYERS)]
    while not state.is_game_over():
        p = state.current_player()
        state.apply(bots[p].choose(state.observation(p)))
    return Game(rules, seed, record.decode_actions(record.encode(state)))


def begin(app, game):
    """Start the game on the app, as the title screen's Play does."""
    app.settings.rules_id = RULE_SETS.index(game.rules)
    app.new_session(game.seed)


def step(app, board, a):
    """One action, saved as the table saves it (then the drive's write-back)."""
    s = app.session
    if a == actions.DEAL:
        s.next_deal()
        app.autosave()
    else:
        deals = len(s.state.sheet)
        s.apply(a)
        app.autosave()
        if len(s.state.sheet) > deals:
            app.deal_done(None)
    board.idle()


def play(app, board, game, start=0, each=None):
    """The game's moves from `start` on; each(i) before move i if given."""
    for i in range(start, len(game.moves)):
        if each is not None:
            each(i)
        step(app, board, game.moves[i])


def soak(games=4, level="normal", boards=fm.BOARDS):
    """Play `games` AI games of each rule set, one after another, on each board: erase
    cycles a game of every unit, per board and rule set, and the mean saves a game (journal
    blocks written: entries and the parts of bases) per rule set."""
    played = dict((rules, [recorded(rules, seed, level) for seed in range(games)]) for rules in RULE_SETS)
    wear = {}
    saves = {}
    for board_name in boards:
        board = Board(board_name)
        app = Shell(board)
        per = {}
        for rules in RULE_SETS:
            before = board.units()
            blocks = board.drive.blocks_written
            for game in played[rules]:
                begin(app, game)
                play(app, board, game)
            after = board.units()
            per[rules] = {u: (after[u] - before.get(u, 0)) / float(games) for u in after}
            saves[rules] = (board.drive.blocks_written - blocks) / float(games)
        wear[board_name] = per
    return wear, saves


def table(wear, saves):
    """Lines: per board and rule set, the most-worn unit of each kind, cycles a game, games
    until its rated endurance."""
    out = []
    for board_name, per in wear.items():
        out.append(BOARD_NAMES[board_name])
        for rules, units in per.items():
            kinds = {}
            for u, n in units.items():
                kind = u.rsplit(" ", 1)[0]
                kinds[kind] = max(kinds.get(kind, 0), n)
            cells = []
            for kind in sorted(kinds):
                n = kinds[kind]
                games = ENDURANCE[kind] / n if n else float("inf")
                cells.append("%s %.3f/game (%s games)" % (kind, n, "%d" % games if n else "no limit"))
            out.append("  %-8s %4.0f saves/game  %s" % (rules, saves[rules], "; ".join(cells)))
    return out


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    w, s = soak(n)
    print("\n".join(table(w, s)))
