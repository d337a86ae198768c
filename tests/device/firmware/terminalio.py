"""Stand-in for CircuitPython's terminalio module (see _hw.py): FONT, the built-in 6x12
font, whose bitmap holds ASCII 32..126 and then a few other characters, one tile each.
(Not here: Terminal, which the game does not use.)"""

import displayio
import fontio

_EXTRA = "\u00b0\u00b1\u00b2\u00b3\u00b5\u00a9\u00ae\u00e4\u00f6\u00fc\u00c4\u00d6\u00dc\u00df"

FONT = object.__new__(fontio.BuiltinFont)
FONT._keep("_w", 6)
FONT._keep("_h", 12)
FONT._keep("_extra", _EXTRA)
FONT._keep("bitmap", displayio.Bitmap(6 * (95 + len(_EXTRA)), 12, 2))
