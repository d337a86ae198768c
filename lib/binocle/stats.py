"""The player's record: per rule set and AI level, saved with every action (store.py).

One cell per (rule set, level): 3 x 3 = 9 cells of 22 bytes, 198 bytes in all, after a
1-byte layout version, then the game being counted (9 bytes). Each cell, little-endian:

    offset  0 games      2 games won   4 deals   6 deals won
            8 best deal (+32768, so negative scores fit)
           10 sum of deal scores (+2**29, kept within 30 bits as two 16-bit halves,
              so it stays a small int on the board: 4 bytes)
           14 contracts made   16 contracts failed (binokel, as soloist)
           18 winning streak now   20 longest winning streak

A deal is won when the player scored more in it than each opponent.

The game being counted, at 199: its key (the record's rules, options and seed, 6 bytes),
the deals of it counted (2 bytes), flags (1 the game itself is counted, 2 a key is set).
At 208, 4 bytes: the journal's sequence number when this copy went into the nvm as a
backup (0: never), so a journal found blank later is known to be lost. count() adds the
deals the game has finished since, from its score sheet, so a deal is counted once
however often the game is saved, and a game picked up again after a cut counts what the
saved statistics had not. Layout 1 (the first 199 bytes alone) is read as well.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from engine.rules import kind, state_class, RULE_SETS, THREE_HAND
from binocle.settings import LEVEL_NAMES

LAYOUT = const(2)
_CELL = const(22)
_FIELDS = ("games", "won", "deals", "deals_won", "best", "sum", "made", "failed", "streak", "longest")
_KEY = 1 + len(RULE_SETS) * len(LEVEL_NAMES) * _CELL        # 199: the game being counted
_COUNTED = _KEY + 6
_DONE = _KEY + 8
_MARK = _KEY + 9
_SIZE = _MARK + 4                                       # 212 bytes
_SUM_ZERO = const(0x20000000)                           # 2**29: the stored sum of nothing


class Stats:
    def __init__(self, data=None):
        self.b = bytearray(_SIZE)
        self.b[0] = LAYOUT
        self.reset()
        self.ok = data is None          # False: the bytes given were not statistics we read
        if data is not None and len(data) == _SIZE and data[0] == LAYOUT:
            self.b[:] = data
            self.ok = True
        elif data is not None and len(data) == _KEY and data[0] == 1:
            self.b[1:_KEY] = data[1:_KEY]
            self.ok = True

    def reset(self):
        """Zero every cell; the game being counted stays (its deals so far are not counted
        again)."""
        for i in range(1, _KEY):
            self.b[i] = 0
        for r in range(len(RULE_SETS)):
            for lv in range(len(LEVEL_NAMES)):
                self._put(self._at(r, lv) + 8, 32768)       # best deal: none yet
                self._set_sum(self._at(r, lv) + 10, 0)

    def to_bytes(self):
        return bytes(self.b)

    # -- cells ------------------------------------------------------------------------

    def _at(self, rules_id, level):
        return 1 + (rules_id * len(LEVEL_NAMES) + level) * _CELL

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

    def get(self, rules_id, level):
        """A cell as a tuple in _FIELDS order (best deal None before any deal)."""
        o = self._at(rules_id, level)
        best = self._get(o + 8) - 32768 if self._get(o + 4) else None
        return (self._get(o), self._get(o + 2), self._get(o + 4), self._get(o + 6), best,
                self._sum(o + 10), self._get(o + 14), self._get(o + 16), self._get(o + 18),
                self._get(o + 20))

    # -- what happened ----------------------------------------------------------------

    def deal(self, rules_id, level, score, won, contract=0):
        """A finished deal: the player's score in it, whether it was the best of the table,
        and in binokel 1 (made) or -1 (failed) when the player was the soloist."""
        o = self._at(rules_id, level)
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

    def games(self):
        """Games counted in all, every rule set and level."""
        n = 0
        for i in range(len(RULE_SETS) * len(LEVEL_NAMES)):
            n += self._get(1 + i * _CELL)
        return n

    def mark(self, seq):
        """Note the journal's sequence number as this copy goes into the nvm."""
        for i in range(4):
            self.b[_MARK + i] = (seq >> (8 * i)) & 0xFF

    # -- the game being counted -----------------------------------------------------

    def begin(self, key, counted=0, done=0):
        """A game to count (key: 6 bytes), whose first `counted` deals are counted already."""
        b = self.b
        b[_KEY:_COUNTED] = key
        b[_COUNTED] = counted & 0xFF
        b[_COUNTED + 1] = counted >> 8
        b[_DONE] = 2 | done

    def counting(self, key):
        """True if key is the game being counted."""
        if not self.b[_DONE] & 2:
            return False
        for i in range(6):
            if self.b[_KEY + i] != key[i]:
                return False
        return True

    def count(self, rules_id, level, sheet, over, won):
        """Count what the game being counted has finished and is not counted yet: the deals
        of its score sheet, and the game itself once over (won: by the player)."""
        b = self.b
        n = b[_COUNTED] | b[_COUNTED + 1] << 8
        while n < len(sheet):
            self._deal_of(rules_id, level, sheet[n])
            n += 1
            b[_COUNTED] = n & 0xFF
            b[_COUNTED + 1] = n >> 8
        if over and not b[_DONE] & 1:
            self.game(rules_id, level, won)
            b[_DONE] |= 1

    def _deal_of(self, rules_id, level, row):
        """A row of the score sheet (engine/state.py: its fields), seen from the player's seat:
        the deal is won if the player gained more than each other player."""
        name = RULE_SETS[rules_id]
        game = state_class(name)
        gains = game.gains_of(row)
        mine = gains[0]
        won = True
        for p in range(1, len(gains)):
            won = won and mine > gains[p]
        contract = 0                    # not the player's contract (two-hand: no contracts)
        if kind(name) == THREE_HAND and row[game.ROW_SOLOIST] == 0:
            contract = 1 if mine > 0 and not row[game.ROW_SURRENDERED] else -1
        self.deal(rules_id, level, mine, won, contract)

    def game(self, rules_id, level, won):
        o = self._at(rules_id, level)
        self._add(o)
        if won:
            self._add(o + 2)
            self._add(o + 18)
            if self._get(o + 18) > self._get(o + 20):
                self._put(o + 20, self._get(o + 18))
        else:
            self._put(o + 18, 0)


def marked(data):
    """The journal sequence number a backup copy of the statistics was made at (0: none)."""
    if data is None or len(data) != _SIZE or data[0] != LAYOUT:
        return 0
    return data[_MARK] | data[_MARK + 1] << 8 | data[_MARK + 2] << 16 | data[_MARK + 3] << 24
