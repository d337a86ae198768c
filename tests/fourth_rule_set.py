"""Run by tests/test_fourth_rule_set.py in a copy of the game where a fourth rule set was
added as a rule set is added: its row in engine/rules.py and its own module. Plays it through
the engine, a record, the save journal, resume, the statistics and the app's screens, and
prints what it found as one JSON object (the screenshots go to the folder named by argv[1])."""

import io
import json
import os
import sys

sys.path.insert(0, os.getcwd())
from tools.users.sim import load_paths    # noqa: E402

load_paths()
from engine import record           # noqa: E402
from engine.ai import new_player     # noqa: E402
from engine.rules import RULE_SETS, new_game   # noqa: E402
from engine.variants import variants   # noqa: E402
from binocle import nvmstore, saveload, store    # noqa: E402
from binocle.scenes.statsview import stats_table     # noqa: E402
from binocle.stats import Stats, size     # noqa: E402
from tests.device import helpers as H    # noqa: E402
from tools.checks.simdriver import Driver   # noqa: E402

SHOTS = sys.argv[1]
FOURTH = RULE_SETS.index("fourth")
out = {"rule_sets": list(RULE_SETS), "variants": [v[0] for v in variants() if v[1] == "fourth"]}


class RamNvm(bytearray):
    """The board's nvm and, beside it, its drive's journal file: both in RAM."""

    def __init__(self):
        bytearray.__init__(self, b"\xff" * 8192)
        self.journal = io.BytesIO(b"\xff" * store.SIZE)


def fingerprint(state):
    return (bytes(state.history), state.scores(), state.observation(0).key(), state.current_player())


# -- the engine, the AI, a record ---------------------------------------------------------
state = H.random_game("fourth", 5, max_deals=2, pack64=True)
ai = new_player("fourth", state.current_player(), "easy", 1, state.options)
for _ in range(20):
    if state.is_game_over():
        break
    ai = new_player("fourth", state.current_player(), "easy", 1, state.options)
    state.apply(ai.choose(state.observation(state.current_player())))
data = record.encode(state)
again = record.replay(data)
out["record_head"] = list(data[:3])
out["replayed"] = fingerprint(again) == fingerprint(state)
out["record_check"] = nvmstore.check_record(data)
out["newer_check"] = nvmstore.check_record(bytes([data[0], FOURTH + 1]) + data[2:])
out["deals"] = state.deal_number

# -- the app: a game by buttons, saved in the journal, picked up after a restart ------------
d = Driver(RamNvm())
d.app.settings.rules_id = 0
table = d.start("fourth", 7, level="easy")
d.shot(os.path.join(SHOTS, "table.png"), 2)
while d.app.session.state.nactions < 25:
    if not d.person_move():
        d.tick()
before = fingerprint(d.app.session.state)
got = saveload.open_saves(d.nvm)
out["journal_rules"] = record.read_header(got.record)[0] if got.record else None
d.boot()                                           # switched off and on
d.app.settings.teach, d.app.settings.anim, d.app.settings.pace = 0, 0, 0       # no lessons, no slides
d.title()
title = d.scene()
out["title_first"] = title.menu.items[0]
d.shot(os.path.join(SHOTS, "title.png"), 2)
d.press(d.B.A)                                     # Continue saved game
d.wait_for(("Table", "Choice"), 200)
out["resumed"] = fingerprint(d.app.session.state) == before and d.app.session.rules == "fourth"
d.play_until(("Sheet",), frames=20000)
d.shot(os.path.join(SHOTS, "sheet.png"), 2)
out["counted"] = list(d.app.stats.get(FOURTH, d.app.settings.game_level))[:4]
out["sheet_rows"] = len(d.app.session.state.sheet)

# -- the statistics -----------------------------------------------------------------------
out["stats_size"] = [size(3), size(), len(d.app.stats.b)]
old = Stats(open(os.path.join("tests", "data", "stats-layout2.bin"), "rb").read())   # today's bytes
out["old_ok"] = old.ok
out["old_reader_kept"] = "binocle.statsold" in sys.modules      # read once, then forgotten
out["old_cells"] = [[list(old.get(r, lv)) for lv in range(3)] for r in range(len(RULE_SETS))]
out["old_key"] = old.counting(bytes([0, 2, 0x12, 0x34, 0x56, 0x78]))
three = Stats()
three.deal(2, 1, 250, True, 1)
three.game(2, 1, True)
short = three.to_bytes()[:size(3)]                 # statistics saved before the fourth came
out["three_kept"] = list(Stats(short).get(2, 1)) if Stats(short).ok else None
out["stats_table"] = stats_table(d.app.stats, FOURTH)
d.title()
title = d.scene()
d.to_line(title, "stats")
d.press(d.B.A)
screen = d.scene()
for _ in range(len(RULE_SETS)):
    if screen.rules_id == FOURTH:
        break
    d.press(d.B.RIGHT)
out["stats_screen"] = screen.menu.items[0]
d.shot(os.path.join(SHOTS, "stats.png"), 2)
d.title()
title = d.scene()
d.to_line(title, "rules")
out["rules_line"] = title.menu.items[title.menu.index]
print(json.dumps(out))
