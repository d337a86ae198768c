"""The eight logical buttons the app understands, whatever the board has.

Board profiles map their keys (or stick directions) onto these numbers; the
numbers index bytearrays in binocle.input, so they stay 0..COUNT-1.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

LEFT = const(0)
RIGHT = const(1)
UP = const(2)
DOWN = const(3)
A = const(4)
B = const(5)
START = const(6)
SELECT = const(7)
COUNT = const(8)

NAMES = ("left", "right", "up", "down", "A", "B", "start", "select")
