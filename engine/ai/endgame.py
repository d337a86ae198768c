"""Exact solver for the last tricks of the two-hand games (hoyle, french).

Once the stock is exhausted both hands are known to a player who remembers
what was played, and play follows RULES.md hoyle 7 (engine.tricks.legal_follow).
The solver finds the points player 0 still wins under best play by both:
card points of the tricks from here (the trick in progress included) plus
10 for the last trick. It is zero-sum over those points, so it is a plain
min/max search: player 0 maximises, player 1 minimises.

    s = Solver(tt_bits=11)             # once: all working memory is made here
    value, move, exact = s.solve(hand0, hand1, trump, leader, trick, trick_n, max_nodes)

    s.start(hand0, hand1, trump, leader, trick, trick_n)   # or in slices:
    while not s.step(500):             # 500 more nodes, then back to the UI
        ...
    s.value, s.move                    # s.nodes: nodes searched so far

Hands are 32-count vectors (engine/cards.py), equal in size (1..12) or,
when trick_n == 1 and trick[0] is already led by `leader`, the follower has
one card more. `move` is a face of the player to move. When the budget runs
out, solve() returns exact False, value -1 and the best root move found so
far (-1 if none): the caller falls back on its own play, or calls step() to
go on. The table keeps its entries from one search to the next (they stay
true: the hash covers hands, leader and trump); clear() empties it.

Search: alpha-beta over half-moves with an explicit stack (so a search can
stop after any node and resume), fail-soft. Moves: the table's move first,
then sure winners by points, then cheap cards; the follower tries winning
cards first. The two copies of a face are one move (counts). Two 0-point
faces f, f+1 (7 8 9 of a suit) in one hand are one move while the opponent
holds neither and neither lies on the trick: no card in play ranks between
or with them, so every trick comparison and legal set is the same for both.
(Other neighbours differ in points, so they are kept apart.) At each trick
start: the remaining points bound the value, the last trick is scored
directly, and the transposition table is probed.

Transposition table (trick starts only), 2**tt_bits entries:

    chk[i]  list of ints   check: (h2 ^ (h1 >> tt_bits)), -1 when empty
    ent     bytearray      ent[3i] lower bound, ent[3i+1] upper bound, ent[3i+2] best move (255 none)

    h1, h2 = sum of 29-bit keys over (player, face) of each card in the hands,
             plus a key of the leader and of the trump, mod 2**29
    i = h1 & (2**tt_bits - 1)

Bounds are points from this trick on (not counting tricks already taken),
0..250. A search with window (a, b) returning v stores an upper bound if
v <= a, a lower bound if v >= b, else both; a second search of the same
position narrows the stored interval. An entry of another position is
replaced. Two positions agree on all 29 check bits and the index with odds
of about 2**-29 per probe; the solver then trusts the wrong entry.

Working memory, measured under MicroPython (wasm32) with gc.mem_alloc():
Solver(tt_bits=11) 15,944 bytes (tt_bits=10: 9,784; 12: 28,264): about
6 bytes per entry plus 3.6 KB of stacks and keys. A search allocates nothing.
"""

from engine.cards import RANK_POINTS
from engine.rng import Rng

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_PLIES = const(27)   # stack slots: 0 holds a card already led, 1 is the root, 24 half-moves, the end
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
    def __init__(self, tt_bits=11):
        size = 1 << tt_bits
        self.bits = tt_bits
        self.mask = size - 1
        self.chk = [-1] * size            # 4 bytes an entry on a 32-bit board
        self.ent = bytearray(3 * size)    # lower, upper, move
        rng = Rng(0xB1C0)
        self.k1 = self._keys(rng)
        self.k2 = self._keys(rng)
        self.hand = bytearray(64)         # player * 32 + face: counts 0..2
        self.sc = bytearray(8)            # player * 4 + suit: cards of the suit
        self.mv = bytearray(_PLIES * _W)  # ply * _W + i: moves of each ply
        self.key = bytearray(_PLIES * _W) # their ordering keys, higher first
        self.cnt = bytearray(_PLIES)      # moves generated at the ply
        self.idx = bytearray(_PLIES)      # moves tried at the ply
        self.card = bytearray(_PLIES)     # card played at the ply
        self.who = bytearray(_PLIES)      # player to move at the ply
        self.tn = bytearray(_PLIES)       # cards on the trick at the ply (0 or 1)
        self.acc = bytearray(_PLIES)      # points player 0 took since the root, before the ply
        self.rem = bytearray(_PLIES)      # at trick starts: points left in the hands (+10)
        self.nl = bytearray(_PLIES)       # at trick starts: cards left in each hand
        self.bmove = bytearray(_PLIES)    # best move so far at the ply
        self.alpha = [0] * _PLIES         # window, best value so far, window at entry
        self.beta = [0] * _PLIES
        self.best = [0] * _PLIES
        self.a0 = [0] * _PLIES
        self.b0 = [0] * _PLIES
        self.trump = 0
        self.ttm = _NONE
        self.done = True
        self.d = 1
        self.mode = _ENTER
        self.v = -1
        self.h1 = 0
        self.h2 = 0
        self.nodes = 0
        self.value = -1
        self.move = -1

    def _keys(self, rng):
        out = [0] * _KEYS
        for i in range(_KEYS):
            out[i] = ((rng.next16() << 13) ^ rng.next16()) & _M29
        return out

    def clear(self):
        for i in range(len(self.chk)):
            self.chk[i] = -1

    # -- the interface --------------------------------------------------------

    def solve(self, hand0, hand1, trump, leader, trick, trick_n, max_nodes):
        """(value, move, exact) within max_nodes nodes; see the module docstring."""
        self.start(hand0, hand1, trump, leader, trick, trick_n)
        if self.step(max_nodes):
            return self.value, self.move, True
        return -1, self.best_so_far(), False

    def start(self, hand0, hand1, trump, leader, trick, trick_n):
        """Set up a search; step() runs it."""
        hand = self.hand
        k1 = self.k1
        k2 = self.k2
        h1 = k1[66 + trump]
        h2 = k2[66 + trump]
        pts = 0
        for i in range(8):
            self.sc[i] = 0
        for f in range(64):
            p = f >> 5
            c = hand1[f & 31] if p else hand0[f]
            hand[f] = c
            if c:
                self.sc[p * 4 + ((f >> 3) & 3)] += c
                h1 = (h1 + c * k1[f]) & _M29
                h2 = (h2 + c * k2[f]) & _M29
                pts += c * RANK_POINTS[f & 7]
        n = self._count(leader)
        m = self._count(1 - leader)
        if trick_n == 1:
            lead = trick[0]
            if m != n + 1 or m > 12:
                raise ValueError("after a lead the follower holds one card more (at most 12)")
            self._root(0, leader, 0, m, pts + RANK_POINTS[lead & 7] + _LAST)
            self.card[0] = lead
            self._root(1, 1 - leader, 1, m, 0)
        else:
            if n != m or n < 1 or n > 12:
                raise ValueError("both hands need the same number of cards, 1 to 12")
            self._root(1, leader, 0, n, pts + _LAST)
        self.bmove[1] = _NONE
        self.trump = trump
        self.h1 = h1
        self.h2 = h2
        self.d = 1
        self.mode = _ENTER
        self.done = False
        self.nodes = 0
        self.value = -1
        self.move = -1

    def _root(self, d, p, tn, n, rem):
        self.who[d] = p
        self.tn[d] = tn
        self.nl[d] = n
        self.rem[d] = rem
        self.acc[d] = 0
        self.alpha[d] = -1
        self.beta[d] = _INF

    def _count(self, p):
        return self.sc[p * 4] + self.sc[p * 4 + 1] + self.sc[p * 4 + 2] + self.sc[p * 4 + 3]

    def best_so_far(self):
        """Best root move among those searched to the end (-1 if none yet)."""
        if self.done:
            return self.move
        m = self.bmove[1]
        return -1 if m == _NONE else m

    # -- the search -----------------------------------------------------------

    def step(self, budget):
        """Search up to budget more nodes; True once the search is complete."""
        if self.done:
            return True
        hand = self.hand
        sc = self.sc
        mv = self.mv
        key = self.key
        who = self.who
        tn = self.tn
        card = self.card
        acc = self.acc
        alpha = self.alpha
        beta = self.beta
        best = self.best
        bmove = self.bmove
        idx = self.idx
        k1 = self.k1
        k2 = self.k2
        trump = self.trump
        d = self.d
        v = self.v
        mode = self.mode
        h1 = self.h1
        h2 = self.h2
        nodes = 0
        while True:
            if mode == _ENTER:
                if nodes >= budget:
                    break
                nodes += 1
                p = who[d]
                if tn[d] == 0:
                    v = self._probe(d, p, h1, h2)
                    if v >= 0:
                        mode = _RETURN
                        continue
                    self._gen_lead(d, p)
                else:
                    self._gen_follow(d, p, card[d - 1])
                best[d] = -1 if p == 0 else _INF
                bmove[d] = _NONE
                idx[d] = 0
                mode = _NEXT
            elif mode == _NEXT:
                i = idx[d]
                if i >= self.cnt[d] or alpha[d] >= beta[d]:
                    v = best[d]
                    if tn[d] == 0:
                        self._store(d, v, h1, h2)
                    mode = _RETURN
                    continue
                f = self._pick(d, i)
                idx[d] = i + 1
                p = who[d]
                o = p * 32 + f
                hand[o] -= 1
                sc[p * 4 + (f >> 3)] -= 1
                h1 = (h1 - k1[o]) & _M29
                h2 = (h2 - k2[o]) & _M29
                card[d] = f
                e = d + 1
                if tn[d] == 0:
                    who[e] = 1 - p
                    tn[e] = 1
                    acc[e] = acc[d]
                else:
                    self._end_trick(d, p, f, trump)
                alpha[e] = alpha[d]
                beta[e] = beta[d]
                d = e
                mode = _ENTER
            else:   # _RETURN: v is the value of ply d
                if d == 1:
                    self.done = True
                    self.value = v
                    self.move = bmove[1]
                    break
                d -= 1
                p = who[d]
                f = card[d]
                o = p * 32 + f
                hand[o] += 1
                sc[p * 4 + (f >> 3)] += 1
                h1 = (h1 + k1[o]) & _M29
                h2 = (h2 + k2[o]) & _M29
                if p == 0:
                    if v > best[d]:
                        best[d] = v
                        bmove[d] = f
                        if v > alpha[d]:
                            alpha[d] = v
                elif v < best[d]:
                    best[d] = v
                    bmove[d] = f
                    if v < beta[d]:
                        beta[d] = v
                mode = _NEXT
        self.d = d
        self.v = v
        self.mode = mode
        self.h1 = h1
        self.h2 = h2
        self.nodes += nodes
        return self.done

    def _end_trick(self, d, p, f, trump):
        """Set up ply d + 1 after follower p played f to the card of ply d - 1."""
        lead = self.card[d - 1]
        if (f >> 3 == lead >> 3 and (f & 7) > (lead & 7)) or (f >> 3 == trump and lead >> 3 != trump):
            w = p
        else:
            w = 1 - p
        tp = RANK_POINTS[lead & 7] + RANK_POINTS[f & 7]
        e = d + 1
        n = self.nl[d - 1] - 1
        if n == 0:
            tp += _LAST
        self.nl[e] = n
        self.rem[e] = self.rem[d - 1] - tp
        self.acc[e] = self.acc[d] + tp if w == 0 else self.acc[d]
        self.who[e] = w
        self.tn[e] = 0

    def _pick(self, d, i):
        """Move i of ply d: the best-keyed of those not yet tried, swapped into slot i."""
        mv = self.mv
        key = self.key
        base = d * _W
        j = base + i
        top = base + self.cnt[d]
        b = j
        bk = key[j]
        j += 1
        while j < top:
            if key[j] > bk:
                bk = key[j]
                b = j
            j += 1
        f = mv[b]
        j = base + i
        if b != j:
            mv[b] = mv[j]
            key[b] = key[j]
            mv[j] = f
            key[j] = bk
        return f

    # -- trick starts: bounds and the table -----------------------------------

    def _probe(self, d, p, h1, h2):
        """Value of trick-start ply d if known without search, else -1 (window narrowed)."""
        acc = self.acc[d]
        rem = self.rem[d]
        self.ttm = _NONE
        if self.nl[d] == 0:
            return acc
        if d > 1:
            if acc >= self.beta[d]:
                return acc
            if acc + rem <= self.alpha[d]:
                return acc + rem
            if self.nl[d] == 1:
                return acc + self._last_trick(p)
        x = (h1 + self.k1[64 + p]) & _M29
        i = x & self.mask
        if self.chk[i] == ((h2 + self.k2[64 + p]) & _M29) ^ (x >> self.bits):
            j = 3 * i
            self.ttm = self.ent[j + 2]
            lo = acc + self.ent[j]
            hi = acc + self.ent[j + 1]
            if d > 1:
                if lo >= self.beta[d] or lo == hi:
                    return lo
                if hi <= self.alpha[d]:
                    return hi
                if lo > self.alpha[d]:
                    self.alpha[d] = lo
                if hi < self.beta[d]:
                    self.beta[d] = hi
        self.a0[d] = self.alpha[d]
        self.b0[d] = self.beta[d]
        return -1

    def _store(self, d, v, h1, h2):
        p = self.who[d]
        x = (h1 + self.k1[64 + p]) & _M29
        i = x & self.mask
        c = ((h2 + self.k2[64 + p]) & _M29) ^ (x >> self.bits)
        ent = self.ent
        j = 3 * i
        fv = v - self.acc[d]
        if self.chk[i] != c:
            self.chk[i] = c
            ent[j] = 0
            ent[j + 1] = self.rem[d]
            ent[j + 2] = _NONE
        if v <= self.a0[d]:
            if fv < ent[j + 1]:
                ent[j + 1] = fv
            if ent[j + 2] == _NONE:
                ent[j + 2] = self.bmove[d]
            return
        if v >= self.b0[d]:
            if fv > ent[j]:
                ent[j] = fv
        else:
            ent[j] = fv
            ent[j + 1] = fv
        ent[j + 2] = self.bmove[d]

    def _last_trick(self, p):
        """Points player 0 takes in the last trick, p leading, one card each."""
        a = self._only_card(p)
        b = self._only_card(1 - p)
        t = self.trump
        if (b >> 3 == a >> 3 and (b & 7) > (a & 7)) or (b >> 3 == t and a >> 3 != t):
            p = 1 - p
        if p:
            return 0
        return RANK_POINTS[a & 7] + RANK_POINTS[b & 7] + _LAST

    def _only_card(self, p):
        s = 0
        while self.sc[p * 4 + s] == 0:
            s += 1
        f = s * 8 + 7
        while self.hand[p * 32 + f] == 0:
            f -= 1
        return f

    # -- move generation ------------------------------------------------------

    def _gen_lead(self, d, p):
        """Every face p holds, keyed: table move, sure winners by points, then cheap cards."""
        hand = self.hand
        sc = self.sc
        q = 1 - p
        base = d * _W
        c = 0
        for s in range(4):
            if sc[p * 4 + s] == 0:
                continue
            for f in range(s * 8 + 7, s * 8 - 1, -1):
                if hand[p * 32 + f] == 0 or (f & 7 < 2 and self._same_as_next(p, f, -1)):
                    continue
                k = 255 if f == self.ttm else self._lead_key(q, f)
                self.mv[base + c] = f
                self.key[base + c] = k
                c += 1
        self.cnt[d] = c

    def _lead_key(self, q, f):
        pts = RANK_POINTS[f & 7]
        if self._can_beat(q, f):
            return 64 - pts
        return 128 + pts

    def _can_beat(self, q, f):
        s = f >> 3
        if self.sc[q * 4 + s]:
            for g in range(f + 1, s * 8 + 8):
                if self.hand[q * 32 + g]:
                    return True
            return False
        return s != self.trump and self.sc[q * 4 + self.trump] > 0

    def _gen_follow(self, d, p, lead):
        """Faces p may play to lead (engine.tricks.legal_follow), winners first."""
        s = lead >> 3
        if self.sc[p * 4 + s]:
            c = self._add_suit(d, p, s, (lead & 7) + 1, lead, 128, 0)
            if c == 0:
                c = self._add_suit(d, p, s, 0, lead, 64, 0)
        elif self.sc[p * 4 + self.trump]:
            c = self._add_suit(d, p, self.trump, 0, lead, 128, 0)
        else:
            c = 0
            for t in range(4):
                if self.sc[p * 4 + t]:
                    c = self._add_suit(d, p, t, 0, lead, 64, c)
        self.cnt[d] = c

    def _add_suit(self, d, p, s, low, lead, k, c):
        """Append p's faces of suit s from rank low up; key k + points if k wins, else k - points."""
        base = d * _W
        for f in range(s * 8 + 7, s * 8 + low - 1, -1):
            if self.hand[p * 32 + f] == 0 or (f & 7 < 2 and self._same_as_next(p, f, lead)):
                continue
            pts = RANK_POINTS[f & 7]
            self.mv[base + c] = f
            self.key[base + c] = k + pts if k == 128 else k - pts
            c += 1
        return c

    def _same_as_next(self, p, f, lead):
        """True if p's f plays exactly like p's f + 1 (see the docstring): skip f."""
        if self.hand[p * 32 + f + 1] == 0:   # callers pass a 7 or an 8: 0 points, as is f + 1
            return False
        q = (1 - p) * 32
        return self.hand[q + f] == 0 and self.hand[q + f + 1] == 0 and lead != f and lead != f + 1
