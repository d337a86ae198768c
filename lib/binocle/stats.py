"""The player's record: per rule set and AI level, kept in the saves' statistics slot.

One cell per (rule set, level): 3 x 3 = 9 cells of 22 bytes, 198 bytes in all,
after a 1-byte layout version. Each cell, little-endian:

    offset  0 games      2 games won   4 deals   6 deals won
            8 best deal (+32768, so negative scores fit)
           10 sum of deal scores (+2**29, kept within 30 bits as two 16-bit halves,
              so it stays a small int on the board: 4 bytes)
           14 contracts made   16 contracts failed (binokel, as soloist)
           18 winning streak now   20 longest winning streak

A deal is won when the player scored more in it than each opponent.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from binocle.settings import RULES, LEVEL_NAMES

LAYOUT = const(1)
_CELL = const(22)
_FIELDS = ("games", "won", "deals", "deals_won", "best", "sum", "made", "failed", "streak", "longest")
_SIZE = 1 + len(RULES) * len(LEVEL_NAMES) * _CELL       # 199 bytes
_SUM_ZERO = const(0x20000000)                           # 2**29: the stored sum of nothing


class Stats:
    def __init__(self, data=None):
        self.b = bytearray(_SIZE)
        self.b[0] = LAYOUT
        self.reset()
        if data is not None and len(data) == _SIZE and data[0] == LAYOUT:
            self.b[:] = data

    def reset(self):
        for i in range(1, _SIZE):
            self.b[i] = 0
        for r in range(len(RULES)):
            for lv in range(len(LEVEL_NAMES)):
                self._put(self._at(r, lv) + 8, 32768)       # best deal: none yet
                self._set_sum(self._at(r, lv) + 10, 0)

    def to_bytes(self):
        return bytes(self.b)

    # -- cells ------------------------------------------------------------------------

    def _at(self, rules, level):
        return 1 + (rules * len(LEVEL_NAMES) + level) * _CELL

    def _get(self, o):
        return self.b[o] | self.b[o + 1] << 8

    def _put(self, o, v):
        self.b[o] = v & 0xFF
        self.b[o + 1] = (v >> 8) & 0xFF

    def _add(self, o, n=1):
        self._put(o, min(0xFFFF, self._get(o) + n))

    def _sum(self, o):
        """The deal-score sum, back as a signed int."""
        return self._get(o + 2) * 65536 + self._get(o) - _SUM_ZERO

    def _set_sum(self, o, v):
        v = max(0, min(2 * _SUM_ZERO - 1, v + _SUM_ZERO))
        self._put(o, v & 0xFFFF)
        self._put(o + 2, v >> 16)

    def get(self, rules, level):
        """A cell as a tuple in _FIELDS order (best deal None before any deal)."""
        o = self._at(rules, level)
        best = self._get(o + 8) - 32768 if self._get(o + 4) else None
        return (self._get(o), self._get(o + 2), self._get(o + 4), self._get(o + 6), best,
                self._sum(o + 10), self._get(o + 14), self._get(o + 16), self._get(o + 18),
                self._get(o + 20))

    # -- what happened ----------------------------------------------------------------

    def deal(self, rules, level, score, won, contract=0):
        """A finished deal: the player's score in it, whether it was the best of the table,
        and in binokel 1 (made) or -1 (failed) when the player was the soloist."""
        o = self._at(rules, level)
        first = self._get(o + 4) == 0
        self._add(o + 4)
        if won:
            self._add(o + 6)
        score = max(-32768, min(32767, score))
        if first or score > self._get(o + 8) - 32768:
            self._put(o + 8, score + 32768)
        self._set_sum(o + 10, self._sum(o + 10) + score)
        if contract > 0:
            self._add(o + 14)
        elif contract < 0:
            self._add(o + 16)

    def game(self, rules, level, won):
        o = self._at(rules, level)
        self._add(o)
        if won:
            self._add(o + 2)
            self._add(o + 18)
            if self._get(o + 18) > self._get(o + 20):
                self._put(o + 20, self._get(o + 18))
        else:
            self._put(o + 18, 0)
