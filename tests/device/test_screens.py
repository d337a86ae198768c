"""Every screen of the game on each board's firmware, under MicroPython too (issue 18).

The app runs on the stand-ins of tests/device/firmware (displayio, terminalio, board, keypad,
... as CircuitPython documents them, refusing what the firmware lacks), with the board
profile the app itself picks from board.board_id. For each rule set, screens.Walk opens
every scene of the scene table and presses each of its buttons once, by the board's own
buttons: the PyBadge's eight keys, the PyGamer's four keys and stick, the Feather's three
buttons (START and SELECT are B and A held; it has no LEFT, UP or DOWN).
"""

import sys

if "lib" not in sys.path:
    sys.path.append("lib")

from tests.device import screens, standins

FEATHER = "adafruit_feather_esp32s3_reverse_tft"
# How a player makes each of the app's buttons: (board, button, the board's button, ms held).
PRESSES = (
    ("pybadge", "left", "LEFT", 40), ("pybadge", "right", "RIGHT", 40), ("pybadge", "up", "UP", 40),
    ("pybadge", "down", "DOWN", 40), ("pybadge", "A", "A", 40), ("pybadge", "B", "B", 40),
    ("pybadge", "start", "START", 40), ("pybadge", "select", "SELECT", 40),
    ("pygamer", "left", "stick left", 40), ("pygamer", "right", "stick right", 40),
    ("pygamer", "up", "stick up", 40), ("pygamer", "down", "stick down", 40),
    ("pygamer", "A", "A", 40), ("pygamer", "B", "B", 40), ("pygamer", "start", "START", 40),
    ("pygamer", "select", "SELECT", 40),
    (FEATHER, "right", "D2", 40), (FEATHER, "A", "D1", 40), (FEATHER, "B", "D0", 40),
    (FEATHER, "start", "D0", 720), (FEATHER, "select", "D1", 720),
)
PROFILES = (("pybadge", "PyBadge"), ("pygamer", "PyGamer"), (FEATHER, "Feather ESP32-S3 TFT"))


class Board:
    """The app on a board of stand-ins, and the board's hands: press() and tick()."""

    def __init__(self, hw):
        self.hw = hw                     # the stand-ins of the board, in place (standins.install)
        from binocle import boards
        from binocle.app import App
        from binocle.buttons import NAMES
        self.profile = boards.detect()
        self.app = App(self.profile, assets="assets/")
        self.ways = []
        for board, name, button, ms in PRESSES:
            if board == hw.board_id:
                self.ways.append((NAMES.index(name), button, ms))
        self.buttons = [b for b, _, _ in self.ways]

    def tick(self):
        self.hw.now += screens.STEP_MS
        self.app.tick()

    def press(self, button):
        for b, name, ms in self.ways:
            if b == button:
                self.hw.press(name, True)
                try:
                    held = 0
                    while held < ms:
                        self.tick()
                        held += screens.STEP_MS
                finally:
                    self.hw.press(name, False)        # let go, whatever happened
                self.tick()
                return
        raise AssertionError("this board has no way to press %d" % button)


def walk_board(board_id, name):
    """Every screen in every rule set on one board; failures listed together at the end."""
    failures = []
    try:
        hw = standins.install(board_id)
        if not standins.active():
            print("  (not here: this interpreter has the firmware's own modules built in)")
            return None
        board = Board(hw)
        assert board.profile.NAME == name
        walk = screens.Walk(board.app, board.press, board.tick, board.buttons, name)
        for rules in screens.RULES:
            failures += walk.run(rules)
            missing = [s for s in screens.SCENES if s not in walk.scenes_opened(rules)]
            if missing != ([] if rules == "binokel" else ["Melds"]):
                failures.append("%s, %s: never opened %s" % (name, rules, missing))
        hw = board.hw
        from microcontroller import RunMode
        assert RunMode.UF2 in hw.resets, "the firmware update never asked for the bootloader"
        if board_id == FEATHER:
            assert hw.played == []                       # no speaker
        else:
            assert hw.played, "no card ever clicked"
        assert standins.foreign() == [], standins.foreign()
        assert board.app.display._refreshes > 0
    finally:
        standins.remove()
    assert not failures, "\n".join(failures)
    return walk


def test_every_screen_on_the_pybadge():
    walk_board("pybadge", "PyBadge")


def test_every_screen_on_the_pygamer():
    walk_board("pygamer", "PyGamer")


def test_every_screen_on_the_feather_s3_tft():
    walk_board(FEATHER, "Feather ESP32-S3 TFT")
