"""Feather ESP32-S3 Reverse TFT: 240x135 screen, three buttons.

D0 = B (hold: START), D1 = A (hold: SELECT), D2 = RIGHT (repeats when held).
The app's menus and hand cursor wrap around, so RIGHT alone reaches every item.
The 160x128 game screen sits centred.
"""

import board
import keypad
import supervisor

from binocle.buttons import RIGHT, A, B, START, SELECT

NAME = "Feather ESP32-S3 TFT"
WIDTH = 240
HEIGHT = 135
OFFSET_X = (240 - 160) // 2
OFFSET_Y = (135 - 128) // 2
display = board.DISPLAY

LONG_MAP = ((B, START), (A, SELECT))
LABELS = (None, "D2", None, None, "D1", "D0", None, None)
LONG_LABELS = ((START, "hold D0"), (SELECT, "hold D1"))

_LOW_KEYS = (B,)  # D0, the boot button: pulled up, low when pressed
_HIGH_KEYS = (A, RIGHT)  # D1, D2: pulled down, high when pressed


class _Buttons:
    def __init__(self):
        self._low = keypad.Keys((board.D0,), value_when_pressed=False, pull=True)
        self._high = keypad.Keys((board.D1, board.D2), value_when_pressed=True, pull=True)
        self._event = keypad.Event()

    def poll(self, inp, now_ms):
        event = self._event
        events = self._low.events
        while events.get_into(event):
            inp.feed(_LOW_KEYS[event.key_number], event.pressed, now_ms)
        events = self._high.events
        while events.get_into(event):
            inp.feed(_HIGH_KEYS[event.key_number], event.pressed, now_ms)


buttons = _Buttons()
ticks_ms = supervisor.ticks_ms
