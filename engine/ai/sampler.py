"""Deals the cards a seat cannot see, consistently with what it has seen (for Monte Carlo).

The unseen cards are the pack less the seat's hand, every table card, the
turn-up and every card remembered as played (the trick in progress too). Cards a
player surely holds (engine/ai/memory.py `known`) go to him first; the rest
are spread over the other hands, the stock (two-hand: what is left once the
hands are full) and the buried cards (binokel, unless the seat is the soloist),
never to a player whose caps rule the card out, and the Dabb's cards only to
the soloist or the buried pile. The most constrained cards are placed first; a
dead end starts over, and after a few tries the caps are dropped rather than fail.

A binokel defender who reads the contract (a level that infers) deals the
cards he cannot see with odds by what the auction, the burial and the shown
melds make likely (_SOLOIST_ODDS): no evenly dealt soloist holds what a real
one does.

    hands[p]     32 counts: player p's concealed hand in this sample
    buried       32 counts (binokel)

Working memory is allocated once per sampler (under 1 KB), never per sample.
"""

from engine import cards

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_TRIES = const(8)
_STOCK = const(3)      # location index after the (up to three) players
_BURIED = const(4)
_LOCATIONS = const(5)
_EVEN = b"\x01\x01\x01\x01\x01"    # pick(): every location's odds alike (by location)
# A binokel defender's odds, in eighths of the other defender's, that the soloist holds a card
# he cannot see or buried it: by rank code (7 8 9 J Q K T A; a 48-card pack has no 7 or 8),
# plain suits then trumps. 2 x 16 bytes. The soloist bid, named the suit he holds, showed
# his pairs and buried lone kings and queens: at a defender's first card, per card, the
# soloists of hard and normal held 1.4-1.5 times the other defender's share of plain aces
# and tens, 0.1 of plain kings and queens and 1.5-1.9 of trumps, and buried 2.4-2.6 times
# his share of plain kings and queens and no trump (`python -m tools tune-odds`: 400 games of
# 4 deals, hard or normal in every seat, give these tables). A person may bury a trump, so the
# buried cards keep an eighth.
_SOLOIST_ODDS = b"\x08\x08\x08\x04\x01\x01\x0b\x0c\x0e\x0e\x0e\x0e\x0e\x0e\x0e\x0e"
_BURIED_ODDS = b"\x08\x08\x05\x0d\x13\x14\x06\x02\x01\x01\x01\x01\x01\x01\x01\x01"
_OTHER = const(8)                # the other defender's odds (the stock's), the unit of the eighths


class Sampler:
    def __init__(self, players, three_hand, pack64=False):
        """players: 2 or 3 (engine/rules.py PLAYERS); three_hand: the rule set's KIND is
        THREE_HAND (binokel: no stock or table cards, a Dabb)."""
        self.players = players
        self.three_hand = three_hand
        self.low = cards.lowest_rank(pack64)    # the pack: two of each face from this rank up
        self.hands = [bytearray(32) for _ in range(players)]
        self.buried = bytearray(32)
        self.pool = bytearray(32)
        self.need = bytearray(_LOCATIONS)
        unseen = 64 if pack64 else 48   # the pack's size: more than can be unseen
        self.order = bytearray(unseen)      # unseen faces, one entry per copy
        self.allowed = bytearray(unseen)    # bit per location for each entry
        self.odds = bytearray(_LOCATIONS)   # a card's odds by location while leaning
        self.lean = -1      # the soloist's seat, for a defender who reads the contract (-1: no)
        self.lean_suit = -1

    # -- what is unseen -----------------------------------------------------------

    def unseen(self, obs, memory):
        pool = self.pool
        low = self.low
        for f in range(32):         # played: the trick in progress too
            pool[f] = 2 * (f & 7 >= low) - obs.hand[f] - memory.played[f]
        if self.three_hand:
            if obs.buried is not None:
                for f in range(32):
                    pool[f] -= obs.buried[f]
        else:
            for table in obs.tables:
                for r in table:
                    pool[r & 31] -= 1
            if obs.turnup >= 0:
                pool[obs.turnup] -= 1
        return pool

    # -- one sample ---------------------------------------------------------------

    def sample(self, obs, memory, rng, use_caps=True):
        """Fill hands (and buried) with one consistent deal; False if the memory contradicts itself."""
        for _ in range(_TRIES if use_caps else 0):
            if self.try_sample(obs, memory, rng, True):
                return True
        return self.try_sample(obs, memory, rng, False)

    def try_sample(self, obs, memory, rng, use_caps):
        pool = self.unseen(obs, memory)
        me = obs.player
        need = self.need
        for i in range(_LOCATIONS):
            need[i] = 0
        for p in range(self.players):
            hand = self.hands[p]
            if p == me:
                for f in range(32):
                    hand[f] = obs.hand[f]
                continue
            for f in range(32):
                hand[f] = 0
            size = obs.hand_sizes[p]
            if not self.three_hand:
                size -= len(obs.tables[p])
            need[p] = size
            self.place_known(obs, memory, p, pool)
        for f in range(32):
            self.buried[f] = 0
        if self.three_hand:
            if obs.dabb is None or obs.buried is None:
                need[_BURIED] = 3      # the Dabb still face down, or cards buried out of our sight
        else:
            need[_STOCK] = obs.stock_left
        self.lean = -1
        if self.three_hand and use_caps and obs.trump >= 0 and obs.soloist != me:
            self.lean = obs.soloist
            self.lean_suit = obs.trump
            for loc in range(_LOCATIONS):
                self.odds[loc] = _OTHER
        return self.place_all(self.list_cards(obs, memory, pool, use_caps), rng)

    def place_known(self, obs, memory, p, pool):
        hand = self.hands[p]
        for f in range(32):
            k = memory.known[p][f]
            if not self.three_hand:
                k -= copies(obs.tables[p], f)
            while k > 0 and pool[f] > 0 and self.need[p] > 0:
                hand[f] += 1
                pool[f] -= 1
                self.need[p] -= 1
                k -= 1

    def list_cards(self, obs, memory, pool, use_caps):
        """order[] gets every unseen copy, allowed[] the locations it may go to; returns how many."""
        n = 0
        need = self.need
        # The Dabb's cards lie with its owner or among the buried ones (unless we own it).
        dabb_owner = memory.dabb_owner if obs.dabb is not None and memory.dabb_owner != obs.player else -1
        for f in range(32):
            if not pool[f]:
                continue
            # the stock and the buried cards take any card; a player what the caps leave him,
            # and a face of the Dabb only if more copies are unseen than the Dabb holds
            mask = (need[_STOCK] and 1 << _STOCK) | (need[_BURIED] and 1 << _BURIED)
            in_dabb = copies(obs.dabb, f) if dabb_owner >= 0 else 0
            for p in range(self.players):
                if need[p] and (not use_caps or memory.may_hold(p, f)) and (
                        p == dabb_owner or pool[f] > in_dabb):
                    mask |= 1 << p
            for _ in range(pool[f]):
                self.order[n] = f
                self.allowed[n] = mask
                n += 1
        return n

    def place_all(self, n, rng):
        """Place the n cards listed; False at a dead end."""
        # most constrained first: count the allowed locations of each entry
        for i in range(n - 1, 0, -1):             # shuffle, so ties break at random
            j = rng.below(i + 1)
            self.swap(i, j)
        for i in range(1, n):                     # insertion sort by freedom
            j = i
            while j > 0 and _bits(self.allowed[j]) < _bits(self.allowed[j - 1]):
                self.swap(j, j - 1)
                j -= 1
        lean, suit = self.lean, self.lean_suit
        odds = self.odds if lean >= 0 else _EVEN
        for i in range(n):
            f = self.order[i]
            if lean >= 0:
                c = f & 7 | (f >> 3 == suit) << 3     # rank code, +8 for a trump
                odds[lean] = _SOLOIST_ODDS[c]
                odds[_BURIED] = _BURIED_ODDS[c]
            loc = self.pick(self.allowed[i], rng, odds)
            if loc < 0:
                return False
            self.put(loc, f)
        return True

    def swap(self, i, j):
        self.order[i], self.order[j] = self.order[j], self.order[i]
        self.allowed[i], self.allowed[j] = self.allowed[j], self.allowed[i]

    def pick(self, mask, rng, odds):
        """A location from mask, chosen by the number of cards it still needs times its odds."""
        total = 0
        for loc in range(_LOCATIONS):
            if mask >> loc & 1:
                total += self.need[loc] * odds[loc]
        if total == 0:
            return -1
        r = rng.below(total)
        for loc in range(_LOCATIONS):
            if mask >> loc & 1:
                r -= self.need[loc] * odds[loc]
                if r < 0:
                    return loc
        return -1

    def put(self, loc, f):
        self.need[loc] -= 1
        if loc < self.players:
            self.hands[loc][f] += 1
        elif loc == _BURIED:
            self.buried[f] += 1         # (no one reads which cards the stock got)


def copies(faces, f):
    """How many of faces (or table records: a face in bits 0-4) are face f."""
    n = 0
    for r in faces:
        if r & 31 == f:
            n += 1
    return n


def _bits(mask):
    n = 0
    while mask:
        n += mask & 1
        mask >>= 1
    return n
