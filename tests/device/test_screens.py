"""Every screen of the game on each board's firmware, under MicroPython too (issue 18).

The app runs on the stand-ins of tests/device/firmware (displayio, terminalio, board, keypad,
... as CircuitPython documents them, refusing what the firmware lacks), with the board
profile the app itself picks from board.board_id. For each rule set, screens.Walk opens
every scene of the scene table and presses each of its buttons once, by the board's own
buttons: the PyBadge's eight keys, the PyGamer's four keys and stick, the Feather's three
buttons (START and SELECT are B and A held; it has no LEFT, UP or DOWN).

The walk runs each frame of the app from screens.drive(), called here: so under the app's
frames on the Python stack lie only the runner's, this test's and drive()'s (on CircuitPython
with a SAMD51's 2 KB stack the walk's own functions under them left the app too little:
tools/pystack.py).
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
    """The app on a board of stand-ins, the board's hands (press(), a generator that yields
    once for each frame a press takes, and tick()) and the walk of its screens."""

    def __init__(self, hw, name):
        self.hw = hw                     # the stand-ins of the board, in place (standins.install)
        from binocle import boards
        from binocle.app import App
        from binocle.buttons import NAMES
        self.profile = boards.detect()
        self.app = App(self.profile, assets="assets/")
        self.ways = []
        for board, button, way, ms in PRESSES:
            if board == hw.board_id:
                self.ways.append((NAMES.index(button), way, ms))
        self.buttons = [b for b, _, _ in self.ways]
        self.walk = screens.Walk(self.app, self.press, self.tick, self.buttons, name)

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
                        yield
                        held += screens.STEP_MS
                finally:
                    self.hw.press(name, False)        # let go, whatever happened
                yield
                return
        raise AssertionError("this board has no way to press %d" % button)

    def opened_all(self, rules):
        """After the walk in one rule set: every scene of the scene table was opened."""
        missing = [s for s in screens.SCENES if s not in self.walk.scenes_opened(rules)]
        if missing != ([] if rules == "binokel" else ["Melds"]):
            self.walk.failures.append("%s, %s: never opened %s" % (self.walk.label, rules, missing))

    def check(self):
        """After the whole walk: what the board's firmware saw."""
        hw = self.hw
        from microcontroller import RunMode
        assert RunMode.UF2 in hw.resets, "the firmware update never asked for the bootloader"
        if hw.board_id == FEATHER:
            assert hw.played == []                       # no speaker
        else:
            assert hw.played, "no card ever clicked"
        assert standins.foreign() == [], standins.foreign()
        assert self.app.display._refreshes > 0


def start(board_id, name):
    """The board switched on with the app on it; None where the firmware is built in."""
    hw = standins.install(board_id)
    if not standins.active():
        print("  (not here: this interpreter has the firmware's own modules built in)")
        return None
    board = Board(hw, name)
    assert board.profile.NAME == name
    return board


def walk_board(board_id, name):
    """Every screen in every rule set on one board; failures listed together at the end.
    The app's frames lie on this one's while the walk runs: few names here."""
    try:
        board = start(board_id, name)
        if board is None:
            return None
        for rules in screens.RULES:
            screens.drive(board.walk.steps(rules), board.app, board.hw)
            board.opened_all(rules)
        board.check()
    finally:
        standins.remove()
    assert not board.walk.failures, "\n".join(board.walk.failures)
    return board.walk


def test_every_screen_on_the_pybadge():
    walk_board("pybadge", "PyBadge")


def test_every_screen_on_the_pygamer():
    walk_board("pygamer", "PyGamer")


def test_every_screen_on_the_feather_s3_tft():
    walk_board(FEATHER, "Feather ESP32-S3 TFT")
