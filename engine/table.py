"""The cards a player has melded face up in the two-hand games (hoyle, french).

rules.md hoyle 6: a new meld needs a fresh card from the concealed hand, and
for every earlier meld of the same class that it shares a card with, it must
hold all of that meld's cards and be worth more. Earlier melds of one class
therefore grow in chains; only the latest, largest meld of each chain
matters. The engine calls it a *group*: every table card carries, per class,
the id of the group it belongs to (0 = not used in that class yet). Playing a
table card kills its groups: no later meld may touch what is left of them,
because it could not contain the played card.

One table card is one record, a small int:

    bit   20     19..15  14..10  9..5    4..0
         +----+-------+-------+-------+------+
         |nine| grp C | grp B | grp A | face |
         +----+-------+-------+-------+------+

    nine: the trump nine announced alone (french), which joins no group.

Records are kept sorted, so "the first and the second table copy of a face"
(actions.py) mean the same thing to both players. Group ids run 1..31 per
deal; at most one meld per trick won in the stock phase (<= 20) is made.
"""

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from engine.melddata import KIND_STRIDE, CLASS_NINE

_FACE_MASK = const(31)
_NINE_FLAG = const(0x100000)
_MAX_PICKS = const(16)


def group_shift(cls):
    return 5 + 5 * cls


class TableCards:
    """One player's melded cards and the groups they form."""

    def __init__(self):
        self.recs = []                  # sorted records, see module docstring
        self.gval = bytearray(32)       # points / 10 of each group id
        self.gdead = bytearray(32)      # 1 when a card of the group was played
        self.ngroups = 0
        self._picks = bytearray(_MAX_PICKS)  # scratch: record indices of one meld

    def copy(self):
        t = TableCards()
        t.recs = list(self.recs)
        t.gval[:] = self.gval
        t.gdead[:] = self.gdead
        t.ngroups = self.ngroups
        return t

    def clear(self):
        self.recs = []
        for i in range(32):
            self.gval[i] = 0
            self.gdead[i] = 0
        self.ngroups = 0

    def count(self):
        return len(self.recs)

    def face_count(self, face):
        n = 0
        for r in self.recs:
            if r & _FACE_MASK == face:
                n += 1
        return n

    def copy_index(self, face, which):
        """Index of the first (which=1) or second (which=2) record of a face, or -1.

        A second copy whose record equals the first is the same choice and
        counts as absent."""
        first = -1
        for i in range(len(self.recs)):
            r = self.recs[i]
            if r & _FACE_MASK == face:
                if first < 0:
                    if which == 1:
                        return i
                    first = i
                elif r != self.recs[first]:
                    return i
                else:
                    return -1
        return -1

    def has_both(self, face):
        return self.face_count(face) == 2

    # -- playing a table card -------------------------------------------------

    def remove(self, index):
        """Take a record off the table to play it; its groups die."""
        r = self.recs.pop(index)
        for cls in (0, 1, 2):
            g = (r >> group_shift(cls)) & 31
            if g:
                self.gdead[g] = 1
        return r & _FACE_MASK

    # -- melds ----------------------------------------------------------------

    def _pick(self, n, index):
        if index < 0 or n >= _MAX_PICKS:
            return -1
        self._picks[n] = index
        return n + 1

    def resolve(self, kinds, kind, sources, hand):
        """Gather the cards a meld action names.

        Returns (picks, from_hand): picks table records in self._picks[:picks],
        from_hand cards taken from the concealed hand; picks = -1 if the
        action names cards the player does not have."""
        o = kind * KIND_STRIDE
        n = kinds[o + 2]
        if sources >> (2 * n):
            return -1, 0
        picks = 0
        from_hand = 0
        for i in range(n):
            slot = kinds[o + 3 + i]
            face = slot & 31
            src = (sources >> (2 * i)) & 3
            if slot & 32:  # both copies of the face
                need_hand = 2 if src == 0 else (0 if src == 3 else 1)
                if hand[face] < need_hand:
                    return -1, 0
                from_hand += need_hand
                if src == 1 or src == 3:
                    picks = self._pick(picks, self.copy_index(face, 1))
                if src == 2:
                    picks = self._pick(picks, self.copy_index(face, 2))
                if src == 3:
                    if not self.has_both(face):
                        return -1, 0
                    picks = self._pick(picks, self._other_copy(face))
            else:
                if src == 0:
                    if hand[face] < 1:
                        return -1, 0
                    from_hand += 1
                elif src == 3:
                    return -1, 0
                else:
                    picks = self._pick(picks, self.copy_index(face, src))
            if picks < 0:
                return -1, 0
        return picks, from_hand

    def _other_copy(self, face):
        last = -1
        for i in range(len(self.recs)):
            if self.recs[i] & _FACE_MASK == face:
                last = i
        return last

    def check(self, kinds, kind, sources, hand):
        """Points the meld scores, or a negative number if it is not legal now."""
        picks, from_hand = self.resolve(kinds, kind, sources, hand)
        if picks < 0:
            return -1          # names cards the player does not hold
        if from_hand == 0:
            return -2          # no fresh card from the concealed hand
        o = kind * KIND_STRIDE
        cls = kinds[o]
        value = kinds[o + 1]
        if cls == CLASS_NINE:
            return value * 10
        shift = group_shift(cls)
        for i in range(picks):
            g = (self.recs[self._picks[i]] >> shift) & 31
            if not g:
                continue
            if self.gdead[g]:
                return -3      # that earlier meld was broken by play
            if value <= self.gval[g]:
                return -4      # does not extend the earlier meld to a higher one
            members = 0
            for r in self.recs:
                if (r >> shift) & 31 == g:
                    members += 1
            taken = 0
            for j in range(picks):
                if (self.recs[self._picks[j]] >> shift) & 31 == g:
                    taken += 1
            if taken != members:
                return -5      # leaves out a card of the earlier meld
        return value * 10

    def apply(self, kinds, kind, sources, hand):
        """Lay the meld down (after check): hand cards move to the table."""
        picks, _ = self.resolve(kinds, kind, sources, hand)
        o = kind * KIND_STRIDE
        cls = kinds[o]
        if cls == CLASS_NINE:
            face = kinds[o + 3] & 31
            hand[face] -= 1
            self.recs.append(face | _NINE_FLAG)
            self.recs.sort()
            return
        self.ngroups += 1
        g = self.ngroups
        self.gval[g] = kinds[o + 1]
        shift = group_shift(cls)
        keep = ~(31 << shift)
        for i in range(picks):
            j = self._picks[i]
            old = (self.recs[j] >> shift) & 31
            if old:
                self.gval[old] = 0  # absorbed into the new group
            self.recs[j] = (self.recs[j] & keep) | (g << shift)
        n = kinds[o + 2]
        for i in range(n):
            slot = kinds[o + 3 + i]
            face = slot & 31
            src = (sources >> (2 * i)) & 3
            if slot & 32:
                from_hand = 2 if src == 0 else (0 if src == 3 else 1)
            else:
                from_hand = 1 if src == 0 else 0
            for _ in range(from_hand):
                hand[face] -= 1
                self.recs.append(face | (g << shift))
        self.recs.sort()

    def slot_options(self, kinds, kind, slot_index, hand, out):
        """Source codes worth trying for one slot of a kind (fills out, returns count)."""
        o = kind * KIND_STRIDE
        slot = kinds[o + 3 + slot_index]
        face = slot & 31
        h = hand[face]
        t1 = self.copy_index(face, 1) >= 0
        t2 = self.copy_index(face, 2) >= 0
        n = 0
        if slot & 32:
            both = self.has_both(face)
            for src, ok in ((0, h >= 2), (1, h >= 1 and t1), (2, h >= 1 and t2), (3, both)):
                if ok:
                    out[n] = src
                    n += 1
        else:
            for src, ok in ((0, h >= 1), (1, t1), (2, t2)):
                if ok:
                    out[n] = src
                    n += 1
        return n

    def available(self, kinds, kind, hand):
        """Quick test: enough copies of every face in hand and on the table, one of them in hand."""
        o = kind * KIND_STRIDE
        fresh = False
        for i in range(kinds[o + 2]):
            slot = kinds[o + 3 + i]
            face = slot & 31
            have = hand[face]
            if have:
                fresh = True
            if self.recs:
                have += self.face_count(face)
            if have < (2 if slot & 32 else 1):
                return False
        return fresh

    def legal_melds(self, kinds, kind_count, hand, skip_kind, nine_ok, out, limit=0):
        """Append every legal meld (as (kind, sources) pairs) to out; stop at limit if given."""
        opts = bytearray(32)   # 8 slots x up to 4 source codes
        nopt = bytearray(8)
        idx = bytearray(8)
        scratch = bytearray(4)
        for kind in range(kind_count):
            if kind == skip_kind or not self.available(kinds, kind, hand):
                continue
            o = kind * KIND_STRIDE
            if kinds[o] == CLASS_NINE and not nine_ok:
                continue
            n = kinds[o + 2]
            for i in range(n):
                c = self.slot_options(kinds, kind, i, hand, scratch)
                nopt[i] = c
                idx[i] = 0
                for j in range(c):
                    opts[4 * i + j] = scratch[j]
            while True:
                sources = 0
                for i in range(n):
                    sources |= opts[4 * i + idx[i]] << (2 * i)
                if self.check(kinds, kind, sources, hand) > 0:
                    out.append((kind, sources))
                    if limit and len(out) >= limit:
                        return
                i = 0
                while i < n:
                    idx[i] += 1
                    if idx[i] < nopt[i]:
                        break
                    idx[i] = 0
                    i += 1
                if i == n:
                    break
