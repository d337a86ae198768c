"""The player's record: per rule set and AI level, saved with every action (store.py).

Layout 3: a 1-byte layout version, the game being counted (13 bytes), then one cell per
(rule set, level) in the order of their ids: 20 bytes each, 3 x 3 x 20 = 180 bytes for the
three rule sets, 194 in all. The cells come last, so the number of rule sets is read from
the length: a copy saved before a rule set was added keeps every cell it has, and the new
rule set's cells start empty. Four rule sets (254 bytes) fill the journal's one-byte length
(store.py); test_fourth_rule_set.py holds it.

    offset  0 layout (3)
            1 the game being counted: its key (the record's rules, options and seed, 6 bytes),
            7 the deals of it counted (2 bytes), 9 flags (1 the game itself is counted,
              2 a key is set)
           10 the journal's sequence number when this copy went into the nvm as a backup
              (4 bytes, 0: never), so a journal found blank later is known to be lost
           14 the cells

Each cell, little-endian:

    offset  0 games      2 games won   4 deals   6 deals won
            8 best deal (+32768, so negative scores fit)
           10 sum of deal scores (+2**29, kept within 30 bits as two 16-bit halves,
              so it stays a small int on the board: 4 bytes)
           14 contracts made   16 contracts failed (binokel, as soloist)
           18 winning streak now   19 longest winning streak (1 byte each, up to 255)

A deal is won when the player scored more in it than each opponent. count() adds the deals
the game being counted has finished since, from its score sheet, so a deal is counted once
however often the game is saved, and a game picked up again after a cut counts what the
saved statistics had not. The layouts before (2 and 1) are read as well, by statsold.py.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from engine.rules import kind, state_class, RULE_SETS, THREE_HAND
from binocle import forget
from binocle.settings import LEVEL_NAMES

LAYOUT = const(3)
_CELL = const(20)
_FIELDS = ("games", "won", "deals", "deals_won", "best", "sum", "made", "failed", "streak", "longest")
_KEY = const(1)                 # the game being counted
_COUNTED = const(7)
_DONE = const(9)
_MARK = const(10)
_CELLS = const(14)
_SUM_ZERO = const(0x20000000)                           # 2**29: the stored sum of nothing


def size(rule_sets=len(RULE_SETS)):
    """The bytes of the statistics of so many rule sets."""
    return _CELLS + rule_sets * len(LEVEL_NAMES) * _CELL


class Stats:
    def __init__(self, data=None):
        b = self.b = bytearray(size())
        b[0] = LAYOUT
        self.reset()
        self.ok = data is None          # False: the bytes given were not statistics we read
        if data is None:
            return
        n = len(data)
        if _layout3(data):
            n = min(n, len(b))          # the cells of the rule sets it had; a newer one's more dropped
            b[1:n] = data[1:n]
            self.ok = True
        elif (n == 212 and data[0] == 2) or (n == 199 and data[0] == 1):
            from binocle import statsold    # once, after an update: not kept for the game
            statsold.read(b, data, _CELLS, _CELL, _KEY)
            forget("binocle.statsold")
            self.ok = True

    def reset(self):
        """Zero every cell; the game being counted stays (its deals so far are not counted
        again)."""
        for i in range(_CELLS, len(self.b)):
            self.b[i] = 0
        for r in range(len(RULE_SETS)):
            for lv in range(len(LEVEL_NAMES)):
                self._put(self._at(r, lv) + 8, 32768)       # best deal: none yet
                self._set_sum(self._at(r, lv) + 10, 0)

    def to_bytes(self):
        return bytes(self.b)

    # -- cells ------------------------------------------------------------------------

    def _at(self, rules_id, level):
        return _CELLS + (rules_id * len(LEVEL_NAMES) + level) * _CELL

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
                self._sum(o + 10), self._get(o + 14), self._get(o + 16), self.b[o + 18],
                self.b[o + 19])

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
            n += self._get(_CELLS + i * _CELL)
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
        b = self.b
        if won:
            self._add(o + 2)
            b[o + 18] = min(255, b[o + 18] + 1)
            if b[o + 18] > b[o + 19]:
                b[o + 19] = b[o + 18]
        else:
            b[o + 18] = 0


def _layout3(data):
    """True if data has layout 3's length and mark (the cells of any number of rule sets)."""
    n = len(data) if data else 0
    return n >= _CELLS and data[0] == LAYOUT and not (n - _CELLS) % (len(LEVEL_NAMES) * _CELL)


def marked(data):
    """The journal sequence number a backup copy of the statistics was made at (0: none)."""
    if _layout3(data):
        o = _MARK
    elif data and data[0] == 2 and len(data) == 212:
        o = 208                         # layout 2: after its cells
    else:
        return 0
    return data[o] | data[o + 1] << 8 | data[o + 2] << 16 | data[o + 3] << 24
