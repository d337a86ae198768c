"""PyBadge, PyBadge LC and EdgeBadge: 160x128 screen, eight keys on a shift register."""

import board
import keypad
import supervisor

from binocle.buttons import LEFT, RIGHT, UP, DOWN, A, B, START, SELECT

NAME = "PyBadge"
WIDTH = 160
HEIGHT = 128
OFFSET_X = 0
OFFSET_Y = 0
display = board.DISPLAY

LONG_MAP = ()
LABELS = ("left", "right", "up", "down", "A", "B", "START", "SELECT")
LONG_LABELS = ()

# Shift-register key number -> logical button.
_KEYS = (B, A, START, SELECT, RIGHT, DOWN, UP, LEFT)


class _Buttons:
    def __init__(self):
        self._keys = keypad.ShiftRegisterKeys(
            clock=board.BUTTON_CLOCK, data=board.BUTTON_OUT, latch=board.BUTTON_LATCH,
            key_count=8, value_when_pressed=True)
        self._event = keypad.Event()  # reused: polling allocates nothing

    def poll(self, inp, now_ms):
        """Feed every key edge since the last poll to inp."""
        event = self._event
        events = self._keys.events
        while events.get_into(event):
            inp.feed(_KEYS[event.key_number], event.pressed, now_ms)


buttons = _Buttons()
ticks_ms = supervisor.ticks_ms

from binocle.boards.speaker import tone   # noqa: E402  (the board has a speaker)
