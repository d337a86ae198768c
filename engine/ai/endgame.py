"""Exact solver for the last tricks of the two-hand games (hoyle, french).

With the stock exhausted a player who remembers the play knows both hands;
play follows RULES.md hoyle 7 (engine.tricks.legal_follow). The value is what
player 0 still wins when each side maximises its share: the card points of
the tricks from here (the one in progress too) and 10 for the last.

    s = Solver(tt_bits=9)           # once: all working memory is made here
    value, move, exact = s.solve(hand0, hand1, trump, leader, trick, trick_n, max_nodes)
    s.start(hand0, hand1, trump, leader, trick, trick_n)     # or in slices:
    while not s.step(300): ...      # 300 nodes a slice; then s.value, s.move, s.nodes

Hands: 32-count vectors (engine/cards.py), 1..12 cards; with trick_n == 1
`leader` has led trick[0] and the follower holds one card more. `move` is a
face for the player to move. Out of nodes, solve() gives (-1, best root move
searched so far or -1, False). Table entries stay true (they hash hands,
leader and trump): keep them through a deal.

Fail-soft alpha-beta with principal variation search on an explicit stack of
half-moves (it stops after any node and resumes; no recursion). Both copies
of a face are one move; so are a 7 and 8 or 8 and 9 (0 points) of a hand
while the other holds neither and neither is on the trick: nothing in play
ranks between or with them. Leads: table move, sure winners (plain suits
first) by points, cheap cards, trumps last; the follower wins high, trumps in
low, loses cheap. Trick starts below the root: cut by the points left or the
table. Layout (ply d: 0 a card already led, 1 the root; more in __init__):

    hand[p*32 + face] count 0..2    sc[p*4 + suit] cards    mv, key[d*16 + i] moves of ply d

Transposition table at trick starts, 2**tt_bits entries, i and i^1 a bucket:

    chk[i]     h2 ^ (h1 >> tt_bits) < 2**29, -1 empty
    ent[4i]    lower, ent[4i+1] upper bound: points from this trick on, 0..250
    ent[4i+2]  best move;  ent[4i+3] cards in each hand (the shallower is replaced)
    h1, h2 = sum of 29-bit keys (each card as player*32 + face, leader, trump)
             mod 2**29;  i = h1 & (2**tt_bits - 1)

Result v in window (a, b): upper bound if v <= a, lower if v >= b, else both.
Another position passes the check with odds of 2**-29 a probe.
Heap (MicroPython wasm32, gc.mem_alloc() delta with collection off): Solver(9)
7,872 bytes (8: 5,840; 10: 11,968; 11: 20,160): 8 bytes an entry + 3.8 KB. start() and
step() allocate nothing; solve() its result tuple.
"""

from engine.cards import RANK_POINTS
from engine.rng import Rng

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_PLIES = const(27)   # stack slots: 0 a card already led, 1 the root, 24 half-moves, the end
_W = const(16)       # move slots per ply: a hand holds at most 12 distinct faces
_KEYS = const(70)    # hash keys: 64 (player * 32 + face), 2 leaders, 4 trumps
_M29 = const(0x1FFFFFFF)
_INF = const(999)
_NONE = const(255)
_LAST = const(10)    # the last trick's bonus
_ENTER = const(0)
_NEXT = const(1)
_RETURN = const(2)


class Solver:
    def __init__(self, tt_bits=9):
        size = 1 << tt_bits
        self.bits = tt_bits
        self.mask = size - 1
        self.chk = [-1] * size            # 4 bytes an entry on a 32-bit board
        self.ent = bytearray(4 * size)    # lower, upper, move, cards left
        rng = Rng(0xB1C0)
        self.k1 = [0] * _KEYS
        self.k2 = [0] * _KEYS
        for i in range(2 * _KEYS):
            (self.k2 if i & 1 else self.k1)[i >> 1] = ((rng.next16() << 13) ^ rng.next16()) & _M29
        self.hand = bytearray(64)
        self.sc = bytearray(8)
        self.mv = bytearray(_PLIES * _W)
        self.key = bytearray(_PLIES * _W)
        # Per ply, bytearrays: mover, cards on the trick, card played, points player 0 took
        # since the root, at trick starts points left (+10) and cards in each hand, best
        # move, moves tried, moves made, null window (1 on, 2 search again in full). Lists:
        # window, best value, window on entry after the table, hashes of the hands.
        for name in ("who", "tn", "card", "acc", "rem", "nl", "bmove", "idx", "cnt", "nw"):
            setattr(self, name, bytearray(_PLIES))
        for name in ("alpha", "beta", "best", "a0", "b0", "hk1", "hk2"):
            setattr(self, name, [0] * _PLIES)
        self.trump = self.ttm = self.c = self.nodes = self.d = self.low = 0
        self.mode = _ENTER
        self.v = self.value = self.move = -1
        self.done = True

    def clear(self):
        """Empty the table (at a new deal: its entries would stay true, but take room)."""
        for i in range(len(self.chk)):
            self.chk[i] = -1
            self.ent[4 * i + 3] = 0

    def solve(self, hand0, hand1, trump, leader, trick, trick_n, max_nodes):
        """(value, move, exact) within max_nodes nodes; see the module docstring."""
        self.start(hand0, hand1, trump, leader, trick, trick_n)
        if self.step(max_nodes):
            return self.value, self.move, True
        m = self.bmove[1]
        return -1, (-1 if m == _NONE else m), False

    def start(self, hand0, hand1, trump, leader, trick, trick_n):
        """Set up a search of this position; step() runs it."""
        h1 = self.k1[66 + trump]
        h2 = self.k2[66 + trump]
        pts = 0
        self.low = 2                      # lowest rank in play: 9, or 7 with the 64-card pack
        sc = self.sc
        for i in range(8):
            sc[i] = 0
        for f in range(64):
            c = hand1[f & 31] if f & 32 else hand0[f]
            self.hand[f] = c
            if c and f & 7 < 2:
                self.low = 0
            for _ in range(c):             # one key at a time: sums stay below 2**30
                sc[f >> 3] += 1
                h1 = (h1 + self.k1[f]) & _M29
                h2 = (h2 + self.k2[f]) & _M29
                pts += RANK_POINTS[f & 7]
        n = sc[leader * 4] + sc[leader * 4 + 1] + sc[leader * 4 + 2] + sc[leader * 4 + 3]
        m = sc[0] + sc[1] + sc[2] + sc[3] + sc[4] + sc[5] + sc[6] + sc[7] - n
        if n + trick_n != m or m < 1 or m > 12 or trick_n > 1:
            raise ValueError("hands of 1 to 12 cards, the same, or the follower one more after a lead")
        d = 1 - trick_n                 # the trick start: ply 1 is the root, the follower after a lead
        self.who[d] = leader
        self.tn[d] = 0
        self.nl[d] = m
        self.rem[d] = pts + _LAST + (RANK_POINTS[trick[0] & 7] if trick_n else 0)
        self.card[0] = trick[0] if trick_n else 0
        self.who[1] = 1 - leader if trick_n else leader
        self.tn[1] = trick_n
        self.acc[1] = self.acc[0] = 0
        self.alpha[1] = -1
        self.beta[1] = _INF
        self.bmove[1] = _NONE
        self.trump = trump
        self.hk1[1] = self.hk1[0] = h1
        self.hk2[1] = self.hk2[0] = h2
        self.d = 1
        self.mode = _ENTER
        self.done = False
        self.nodes = 0
        self.value = self.move = -1

    def step(self, budget):
        """Search up to budget more nodes; True once the search is complete."""
        if self.done:
            return True
        d = self.d
        v = self.v
        mode = self.mode
        nodes = 0
        while True:
            if mode == _NEXT:               # play the next move of ply d, or return its value
                if self.idx[d] < self.cnt[d] and self.alpha[d] < self.beta[d]:
                    self._down(d)
                    d += 1
                    mode = _ENTER
                    continue
                v = self.best[d]
                if self.tn[d] == 0:
                    self._store(d, v)
                mode = _RETURN
            elif mode == _ENTER:            # first visit of ply d
                if nodes >= budget:
                    break
                nodes += 1
                v = self._enter(d)
                mode = _RETURN if v >= 0 else _NEXT
            elif d == 1:                    # _RETURN from the root: done
                self.done = True
                self.value = v
                self.move = self.bmove[1]
                break
            else:                           # _RETURN: v is the value of ply d
                d -= 1
                self._up(d, v)
                mode = _NEXT
        self.d = d
        self.v = v
        self.mode = mode
        self.nodes += nodes
        return self.done

    def _enter(self, d):
        """Value of ply d if known at once, else -1 with its moves generated."""
        p = self.who[d]
        if self.tn[d] == 0:
            v = self._probe(d, p)
            if v >= 0:
                return v
            self._gen_lead(d, p)
        else:
            self._gen_follow(d, p, self.card[d - 1])
        self.best[d] = -1 if p == 0 else _INF
        self.bmove[d] = _NONE
        self.idx[d] = 0
        self.nw[d] = 0
        return -1

    def _down(self, d):
        """Play the next move of ply d and set up ply d + 1."""
        i = self.idx[d]
        f = self._pick(d, i) if self.tn[d] == 0 else self.mv[d * _W + i]
        self.idx[d] = i + 1
        p = self.who[d]
        o = p * 32 + f
        self.hand[o] -= 1
        self.sc[p * 4 + (f >> 3)] -= 1
        self.hk1[d + 1] = (self.hk1[d] - self.k1[o]) & _M29
        self.hk2[d + 1] = (self.hk2[d] - self.k2[o]) & _M29
        self.card[d] = f
        e = d + 1
        if self.tn[d] == 0:
            self.who[e] = 1 - p
            self.tn[e] = 1
            self.acc[e] = self.acc[d]
        else:
            self._end_trick(e, p, f)
        nw = 1 if i and self.nw[d] != 2 else 0            # later moves: a null window first
        self.nw[d] = nw
        self.alpha[e] = self.beta[d] - 1 if nw and p else self.alpha[d]
        self.beta[e] = self.alpha[d] + 1 if nw and not p else self.beta[d]

    def _up(self, d, v):
        """Take back the move of ply d, whose line is worth v."""
        p = self.who[d]
        f = self.card[d]
        self.hand[p * 32 + f] += 1
        self.sc[p * 4 + (f >> 3)] += 1
        if self.nw[d] == 1 and self.alpha[d] < v < self.beta[d]:   # beat the null window:
            self.nw[d] = 2                                          # search it again in full
            self.idx[d] -= 1
        elif (v <= self.best[d]) if p == 0 else (v >= self.best[d]):
            return
        self.best[d] = v
        self.bmove[d] = f
        if p == 0:
            if v > self.alpha[d]:
                self.alpha[d] = v
        elif v < self.beta[d]:
            self.beta[d] = v

    def _pick(self, d, i):
        """The best-keyed untried move of ply d, swapped into slot i."""
        mv = self.mv
        key = self.key
        first = j = b = d * _W + i
        while j < d * _W + self.cnt[d]:
            if key[j] > key[b]:
                b = j
            j += 1
        f = mv[b]
        mv[b] = mv[first]
        key[b] = key[first]
        mv[first] = f
        return f

    def _end_trick(self, e, p, f):
        """Set up trick-start ply e after follower p played f to the card of ply e - 2."""
        a = self.card[e - 2]
        t = self.trump
        w = p if (f >> 3 == a >> 3 and f > a) or (f >> 3 == t and a >> 3 != t) else 1 - p
        n = self.nl[e - 2] - 1
        tp = RANK_POINTS[a & 7] + RANK_POINTS[f & 7] + (_LAST if n == 0 else 0)
        self.nl[e] = n
        self.rem[e] = self.rem[e - 2] - tp
        self.acc[e] = self.acc[e - 1] + (tp if w == 0 else 0)
        self.who[e] = w
        self.tn[e] = 0

    def _probe(self, d, p):
        """Value of trick-start ply d if known without search, else -1 (window narrowed)."""
        lo = self.acc[d]                    # no more than the points left can be won
        hi = lo + self.rem[d]
        i = self._slot(d, p)
        self.ttm = self.ent[4 * i + 2] if i >= 0 else _NONE
        if i >= 0:
            lo += self.ent[4 * i]
            hi = self.acc[d] + self.ent[4 * i + 1]
        if d > 1:                           # (the root searches on, for its move)
            if lo >= self.beta[d] or lo == hi:
                return lo
            if hi <= self.alpha[d]:
                return hi
            self.alpha[d] = max(lo, self.alpha[d])
            self.beta[d] = min(hi, self.beta[d])
        self.a0[d] = self.alpha[d]
        self.b0[d] = self.beta[d]
        return -1

    def _slot(self, d, p):
        """Entry of ply d (p leading) in the table, or -1 - the entry to give it."""
        x = (self.hk1[d] + self.k1[64 + p]) & _M29
        c = self.c = ((self.hk2[d] + self.k2[64 + p]) & _M29) ^ (x >> self.bits)
        i = x & self.mask
        j = i ^ 1                           # the bucket's other entry
        if self.chk[i] != c and (self.chk[j] == c or self.ent[4 * j + 3] < self.ent[4 * i + 3]):
            i = j                           # it holds this position, or the shallower one
        return i if self.chk[i] == c else -1 - i

    def _store(self, d, v):
        """Narrow the entry of trick-start ply d by its result v (see the docstring)."""
        ent = self.ent
        i = self._slot(d, self.who[d])
        if i < 0:                           # a new entry: 0..all the points left
            i = -1 - i
            self.chk[i] = self.c
            ent[4 * i] = 0
            ent[4 * i + 1] = self.rem[d]
            ent[4 * i + 3] = self.nl[d]
        j = 4 * i
        fv = v - self.acc[d]
        if v < self.b0[d] and fv < ent[j + 1]:
            ent[j + 1] = fv
        if v > self.a0[d] and fv > ent[j]:
            ent[j] = fv
        ent[j + 2] = self.bmove[d]

    def _gen_lead(self, d, p):
        """Every face p holds, keyed (see the docstring for the order)."""
        hand = self.hand
        sc = self.sc
        mv = self.mv
        key = self.key
        ttm = self.ttm
        low = self.low
        trump = self.trump
        o = p * 32
        qs = 4 - p * 4
        j = d * _W
        for s in range(4):
            if sc[p * 4 + s] == 0:
                continue
            void = sc[qs + s] == 0          # then he trumps, unless these are trumps or he has none
            t = s * 8 + 8 if s != trump and sc[qs + trump] else 0
            if not void:                    # he beats what is below his best card
                t = s * 8 + 39 - o
                while hand[t] == 0:
                    t -= 1
                t -= 32 - o
            win = 148 - 20 * (s == trump)
            lose = win - 84 + 10 * void
            for f in range(s * 8 + 7, s * 8 + low - 1, -1):
                if hand[o + f] == 0 or (f & 7 < 2 and self._same_as_next(p, f, -1)):
                    continue
                mv[j] = f
                if f == ttm:
                    key[j] = 255
                elif f >= t:                # a sure winner
                    key[j] = win + RANK_POINTS[f & 7]
                else:
                    key[j] = lose - RANK_POINTS[f & 7]
                j += 1
        self.cnt[d] = j - d * _W

    def _gen_follow(self, d, p, lead):
        """The faces p may play to lead (engine.tricks.legal_follow), in the order to try them."""
        s = lead >> 3
        sc = self.sc
        if sc[p * 4 + s]:
            c = self._add(d, p, s, (lead & 7) + 1, lead, 0, -1)    # win, highest first
            if c == 0:
                c = self._add(d, p, s, self.low, lead, 0, 1)      # lose, cheapest first
        elif sc[p * 4 + self.trump]:
            c = self._add(d, p, self.trump, self.low, lead, 0, 1)  # trump in, lowest first
        else:
            c = 0
            for t in range(4):              # void, no trump: anything, cheapest first by suit
                c = self._add(d, p, t, self.low, lead, c, 1)
        self.cnt[d] = c

    def _add(self, d, p, s, low, lead, c, step):
        """Append p's faces of suit s from rank low up (step 1) or down to it (-1); new count."""
        hand = self.hand
        mv = self.mv
        o = p * 32
        j = d * _W + c
        f = s * 8 + (low if step > 0 else 7)
        for _ in range(8 - low):
            if hand[o + f] and not (f & 7 < 2 and self._same_as_next(p, f, lead)):
                mv[j] = f
                j += 1
            f += step
        return j - d * _W

    def _same_as_next(self, p, f, lead):
        """True if p's f (a 7 or 8) plays exactly like p's f + 1 (see the docstring): skip f."""
        q = 32 - p * 32
        return (self.hand[p * 32 + f + 1] and self.hand[q + f] == 0 and self.hand[q + f + 1] == 0
                and lead != f and lead != f + 1)
