"""PyGamer: 160x128 screen, four keys on a shift register and an analog stick.

The stick becomes LEFT/RIGHT/UP/DOWN edges with hysteresis, so the input layer
sees clean presses and its auto-repeat works as with a d-pad.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

import analogio
import board
import keypad
import supervisor

from binocle.buttons import LEFT, RIGHT, UP, DOWN, A, B, START, SELECT

NAME = "PyGamer"
WIDTH = 160
HEIGHT = 128
OFFSET_X = 0
OFFSET_Y = 0
display = board.DISPLAY

LONG_MAP = ()
LABELS = ("left", "right", "up", "down", "A", "B", "START", "SELECT")
LONG_LABELS = ()

_KEYS = (B, A, START, SELECT)  # shift-register key number -> logical button

# AnalogIn reads 0..65535 with the stick at rest near the centre. A direction
# is pressed beyond _PRESS from the centre and released only within _RELEASE,
# so a reading hovering at one threshold does not chatter.
_CENTRE = const(32768)
_PRESS = const(20000)
_RELEASE = const(12000)


def stick_state(value, state):
    """New state of one axis from a reading: -1 low side, 0 centre, 1 high side."""
    off = value - _CENTRE
    if off >= _PRESS or (state > 0 and off >= _RELEASE):
        return 1
    if off <= -_PRESS or (state < 0 and off <= -_RELEASE):
        return -1
    return 0


class Stick:
    """Both axes: turns readings into raw edges fed to an Input."""

    def __init__(self):
        self.x = 0
        self.y = 0

    def update(self, x_value, y_value, inp, now_ms):
        x = stick_state(x_value, self.x)
        if x != self.x:
            _edges(inp, self.x, x, LEFT, RIGHT, now_ms)
            self.x = x
        y = stick_state(y_value, self.y)  # y grows downwards
        if y != self.y:
            _edges(inp, self.y, y, UP, DOWN, now_ms)
            self.y = y


def _edges(inp, old, new, low, high, now_ms):
    if old < 0:
        inp.feed(low, False, now_ms)
    elif old > 0:
        inp.feed(high, False, now_ms)
    if new < 0:
        inp.feed(low, True, now_ms)
    elif new > 0:
        inp.feed(high, True, now_ms)


class _Buttons:
    def __init__(self):
        self._keys = keypad.ShiftRegisterKeys(
            clock=board.BUTTON_CLOCK, data=board.BUTTON_OUT, latch=board.BUTTON_LATCH,
            key_count=4, value_when_pressed=True)
        self._event = keypad.Event()
        self._jx = analogio.AnalogIn(board.JOYSTICK_X)
        self._jy = analogio.AnalogIn(board.JOYSTICK_Y)
        self._stick = Stick()

    def poll(self, inp, now_ms):
        event = self._event
        events = self._keys.events
        while events.get_into(event):
            inp.feed(_KEYS[event.key_number], event.pressed, now_ms)
        self._stick.update(self._jx.value, self._jy.value, inp, now_ms)


buttons = _Buttons()
ticks_ms = supervisor.ticks_ms

from binocle.boards.speaker import tone   # noqa: E402  (the board has a speaker)
