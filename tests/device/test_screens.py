"""Every screen of the game on each board's firmware, under MicroPython too (issue 18).

The app runs on the stand-ins of tests/device/firmware (displayio, terminalio, board, keypad,
... as CircuitPython documents them, refusing what the firmware lacks), with the board
profile the app itself picks from board.board_id. For each rule set of the registry, the walk
of tools/checks/walk.py opens every scene of the scene table and presses each of its buttons
once, by the board's own buttons (walk.PRESSES).

Each test calls walk.walk_board itself: so under the app's frames on the Python stack lie only
the runner's, the test's, walk_board()'s and drive()'s (on CircuitPython with a SAMD51's 2 KB
stack the walk's own functions under them left the app too little: tools/checks/pystack.py).
"""

import sys

if "lib" not in sys.path:
    sys.path.append("lib")

from engine.rules import RULE_SETS
from tools.checks import walk


def test_every_rule_set_has_its_seeds():
    """walk.SEEDS names seeds for each rule set of the registry: where the first deal brings
    the person each kind of decision."""
    named = [name for name, _ in walk.SEEDS]
    for rules in RULE_SETS:
        assert rules in named, "tools/checks/walk.py SEEDS has no seeds for the rule set %r" % rules
    assert named == list(RULE_SETS) and walk.RULES == RULE_SETS


def test_every_screen_on_the_pybadge():
    walk.walk_board("pybadge", "PyBadge")


def test_every_screen_on_the_pygamer():
    walk.walk_board("pygamer", "PyGamer")


def test_every_screen_on_the_feather_s3_tft():
    walk.walk_board(walk.FEATHER, "Feather ESP32-S3 TFT")
