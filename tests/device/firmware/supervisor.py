"""Stand-in for CircuitPython's supervisor module (see _hw.py): ticks_ms() only, reading the
test's clock _hw.now and wrapping at 2**29 like the board's."""

import _hw


def ticks_ms():
    return _hw.now & 0x1FFFFFFF
