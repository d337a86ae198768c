"""Stand-in for the board module of the board _hw.start() switched on (see _hw.py):
board_id, DISPLAY and the pin names of that board's pins.c; nothing else."""

import _hw
import busdisplay
from microcontroller import Pin

board_id, _w, _h, _names = _hw.board_info()
DISPLAY = busdisplay._builtin(_w, _h)
for _name in _names.split():
    _p = object.__new__(Pin)
    _p._keep("_name", _name)
    _hw.pins.append(_p)
    globals()[_name] = _p
del _w, _h, _names, _name, _p
