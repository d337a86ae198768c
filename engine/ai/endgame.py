"""Search of the last tricks of the two-hand games (hoyle, french): exact, or to a horizon.

With the stock exhausted a player who remembers the play knows both hands; play follows rules.md
hoyle 7 (engine.tricks.legal_follow). The value is what player 0 still wins when each side
maximises its share: the card points of the tricks from here (the one in progress too) and 10 for
the last.

    s = Solver(tt_bits=9, tricks=12)    # once: all working memory is made here
    value, move, exact = s.solve(hand0, hand1, trump, leader, trick, trick_n, max_nodes)
    s.start(hand0, hand1, trump, leader, trick, trick_n[, leaf, first])   # or in slices:
    while not s.step(300): ...      # 300 nodes a slice; then s.value, s.move, s.nodes

Hands: 32-count vectors (engine/cards.py), 1..12 cards, searched `tricks` deep at most (leaf >=
cards - tricks); with trick_n == 1 `leader` has led trick[0] and the follower holds one card more.
`move` is a face for the player to move. Out of nodes, solve() gives (-1, best root move searched
so far or -1, False); so does step() in bmove[1]. Transposition-table entries stay true (they hash
hands, leader and trump): keep them through a deal. A search to a horizon (leaf > 0) scores trick
starts with leaf cards in each hand by two playouts (engine/ai/leaf.py); an
entry of another horizon gives its move, not its bounds (it is replaced when stored again).

Fail-soft alpha-beta with principal variation search on an explicit stack of half-moves (it stops
after any node and resumes; no recursion). Both copies of a face are one move; so are a 7 and 8 or
8 and 9 (0 points) of a hand while the other holds neither and neither is on the trick: nothing in
play ranks between or with them. Leads: table move, sure winners (plain suits first) by points,
cheap cards, trumps last; the follower wins high, trumps in low, loses cheap. Trick starts below
the root: cut by the points left or the table. Layout (ply d: 0 a card already led, 1 the root;
more in __init__):

    hand[p*32 + face] count 0..2    sc[p*4 + suit] cards    mv, key[d*16 + i] moves of ply d
    rm[p*4 + suit], rm[8 + p*4 + suit] the ranks held, held twice (bit r), for the leaf

Transposition table at trick starts, 2**tt_bits entries, i and i^1 a bucket:

    chk[i]     h2 ^ (h1 >> tt_bits) < 2**29, -1 empty
    ent[4i]    lower, ent[4i+1] upper bound: points from this trick on, 0..250
    ent[4i+2]  best move;  ent[4i+3] cards in each hand (the shallower is replaced) + 16 leaf
    h1, h2 = sum of 29-bit keys (each card as player*32 + face, leader, trump)
             mod 2**29;  i = h1 & (2**tt_bits - 1)

Result v in window (a, b): upper bound if v <= a, lower if v >= b, else both. Another position
passes the check with odds of 2**-29 a probe. Heap (MicroPython wasm32, gc.mem_alloc() delta,
collection off): Solver(9, 12) 7,872 bytes (8: 5,840; 10: 11,968): 8 bytes an entry + 3.8 KB, the
stacks 80 bytes a trick. start() and step() allocate nothing; solve() its result tuple."""

from engine.ai.leaf import playouts, score
from engine.cards import RANK_POINTS
from engine.rng import Rng

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

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
    def __init__(self, tt_bits=9, tricks=12):
        size = 1 << tt_bits
        plies = 2 * tricks + 3        # stack slots: 0 a card already led, 1 the root, the half-moves, the end
        self.tricks = tricks
        self.bits, self.mask = tt_bits, size - 1
        self.chk = [-1] * size            # 4 bytes an entry on a 32-bit board
        self.ent = bytearray(4 * size)    # lower, upper, move, cards left
        rng = Rng(0xB1C0)
        self.k1, self.k2 = [0] * _KEYS, [0] * _KEYS
        for i in range(2 * _KEYS):
            (self.k2 if i & 1 else self.k1)[i >> 1] = ((rng.next16() << 13) ^ rng.next16()) & _M29
        self.hand = bytearray(64)
        self.sc = bytearray(8)
        self.rm = bytearray(16)           # the hands' rank masks (leaf.py playouts()' layout)
        self.mv = bytearray(plies * _W)
        self.key = bytearray(plies * _W)
        # Per ply, bytearrays: mover, cards on the trick, card played, points player 0 took
        # since the root, at trick starts points left (+10) and cards in each hand, best
        # move, moves tried, moves made, null window (1 on, 2 search again in full). Lists:
        # window, best value, window on entry after the table, hashes of the hands.
        for name in ("who", "tn", "card", "acc", "rem", "nl", "bmove", "idx", "cnt", "nw"):
            setattr(self, name, bytearray(plies))
        for name in ("alpha", "beta", "best", "a0", "b0", "hk1", "hk2"):
            setattr(self, name, [0] * plies)
        self.trump = self.nodes = self.d = self.low = self.leaf = 0
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

    def start(self, hand0, hand1, trump, leader, trick, trick_n, leaf=0, first=-1):
        """Set up a search of this position; step() runs it. leaf > 0: a search to a horizon,
        trick starts with leaf cards or fewer in each hand are scored by leaf.py's playouts.
        first: a lead to search first at the root (-1: by the table and keys)."""
        self.first = _NONE if first < 0 else first
        self.leaf = leaf
        h1, h2 = self.k1[66 + trump], self.k2[66 + trump]
        pts = 0
        self.low = 2                      # lowest rank in play: 9, or 7 with the 64-card pack
        sc, rm = self.sc, self.rm
        for i in range(16):
            rm[i] = sc[i & 7] = 0
        for f in range(64):
            c = hand1[f & 31] if f & 32 else hand0[f]
            self.hand[f] = c
            if c and f & 7 < 2:
                self.low = 0
            for k in range(c):             # one key at a time: sums stay below 2**30
                sc[f >> 3] += 1
                rm[(f >> 3) + 8 * k] |= 1 << (f & 7)     # held, then held twice
                h1 = (h1 + self.k1[f]) & _M29
                h2 = (h2 + self.k2[f]) & _M29
                pts += RANK_POINTS[f & 7]
        n = sc[leader * 4] + sc[leader * 4 + 1] + sc[leader * 4 + 2] + sc[leader * 4 + 3]
        m = sc[0] + sc[1] + sc[2] + sc[3] + sc[4] + sc[5] + sc[6] + sc[7] - n
        if n + trick_n != m or m < 1 or m > 12 or m - leaf > self.tricks or trick_n > 1:
            raise ValueError("1-12 cards a hand, the follower's one more after a lead, %d tricks at most"
                             % self.tricks)
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
        self.d, self.mode = 1, _ENTER
        self.done, self.nodes = False, 0
        self.value = self.move = -1

    def step(self, budget):
        """Search up to budget more nodes; True once the search is complete.

        One loop with the plies' arrays in locals: entering a ply (the table probe at a
        trick start, then its moves), playing a move and taking it back are written out
        here, not called, because this loop is the solver's whole cost."""
        if self.done:
            return True
        # (in pairs: CircuitPython's compiler makes no tuple for a pair; it would for three)
        d, v = self.d, self.v
        mode, nodes = self.mode, 0
        who, tn = self.who, self.tn
        card, acc = self.card, self.acc
        rem, nl = self.rem, self.nl
        bmove, idx = self.bmove, self.idx
        cnt, nw = self.cnt, self.nw
        alpha, beta = self.alpha, self.beta
        best, hk1 = self.best, self.hk1
        hk2, hand = self.hk2, self.hand
        sc, mv = self.sc, self.mv
        rm = self.rm
        key, k1 = self.key, self.k1
        k2, ent = self.k2, self.ent
        chk, bits = self.chk, self.bits
        mask, trump = self.mask, self.trump
        low, a0 = self.low, self.a0
        b0, leaf = self.b0, self.leaf
        while True:
            if mode == _NEXT:               # play the next move of ply d, or return its value
                i = idx[d]
                if i < cnt[d] and alpha[d] < beta[d]:
                    p = who[d]
                    if tn[d] == 0:          # the best-keyed untried lead, swapped into slot i
                        first = b = j = d * _W + i
                        end = d * _W + cnt[d]
                        while j < end:
                            if key[j] > key[b]:
                                b = j
                            j += 1
                        f = mv[b]
                        mv[b] = mv[first]
                        key[b] = key[first]
                        mv[first] = f
                    else:
                        f = mv[d * _W + i]
                    idx[d] = i + 1
                    o = p * 32 + f
                    hand[o] -= 1
                    sc[p * 4 + (f >> 3)] -= 1
                    rm[(o >> 3) + (8 if hand[o] else 0)] ^= 1 << (f & 7)   # 2 copies to 1, 1 to 0
                    e = d + 1
                    hk1[e] = (hk1[d] - k1[o]) & _M29
                    hk2[e] = (hk2[d] - k2[o]) & _M29
                    card[d] = f
                    if tn[d] == 0:
                        who[e] = 1 - p
                        tn[e] = 1
                        acc[e] = acc[d]
                    else:                   # the trick is complete: ply e starts the next
                        a = card[d - 1]
                        w = p if (f >> 3 == a >> 3 and f > a) or (f >> 3 == trump and a >> 3 != trump) else 1 - p
                        n = nl[d - 1] - 1
                        tp = RANK_POINTS[a & 7] + RANK_POINTS[f & 7] + (_LAST if n == 0 else 0)
                        nl[e] = n
                        rem[e] = rem[d - 1] - tp
                        acc[e] = acc[d] + (tp if w == 0 else 0)
                        who[e] = w
                        tn[e] = 0
                    z = 1 if i and nw[d] != 2 else 0            # later moves: a null window first
                    nw[d] = z
                    alpha[e] = beta[d] - 1 if z and p else alpha[d]
                    beta[e] = alpha[d] + 1 if z and not p else beta[d]
                    d = e
                    mode = _ENTER
                    continue
                v = best[d]
                if tn[d] == 0:              # narrow the table's entry by v (see the docstring)
                    p = who[d]
                    x = (hk1[d] + k1[64 + p]) & _M29
                    c = ((hk2[d] + k2[64 + p]) & _M29) ^ (x >> bits)
                    i = x & mask
                    j = i ^ 1
                    if chk[i] != c and (chk[j] == c or ent[4 * j + 3] & 15 < ent[4 * i + 3] & 15):
                        i = j               # it holds this position, or the shallower one
                    j = 4 * i
                    if chk[i] != c or ent[j + 3] >> 4 != leaf:  # new, or of another horizon:
                        chk[i] = c                              # 0..all the points left
                        ent[j] = 0
                        ent[j + 1] = rem[d]
                        ent[j + 3] = nl[d] + (leaf << 4)
                    x = v - acc[d]
                    if v < b0[d] and x < ent[j + 1]:
                        ent[j + 1] = x
                    if v > a0[d] and x > ent[j]:
                        ent[j] = x
                    ent[j + 2] = bmove[d]
                mode = _RETURN
            elif mode == _ENTER:            # first visit of ply d
                if nodes >= budget:
                    break
                nodes += 1
                p = who[d]
                if tn[d] == 0:              # a trick start: bounds from the points left and the table
                    if 0 < nl[d] <= leaf:           # beyond the horizon: played out
                        v = acc[d] + min(score(playouts(rm, sc, p, trump, nl[d]), rm, sc, p, trump, nl[d]), rem[d])
                        nodes += (nl[d] >> 1) + 1   # about the leaf's time (hard: 7-12 cards alike)
                        mode = _RETURN
                        continue
                    lo = acc[d]
                    hi = lo + rem[d]
                    x = (hk1[d] + k1[64 + p]) & _M29
                    c = ((hk2[d] + k2[64 + p]) & _M29) ^ (x >> bits)
                    i = x & mask
                    j = i ^ 1               # the bucket's other entry
                    if chk[i] != c and (chk[j] == c or ent[4 * j + 3] & 15 < ent[4 * i + 3] & 15):
                        i = j
                    if chk[i] == c:
                        ttm = ent[4 * i + 2]
                        if ent[4 * i + 3] >> 4 == leaf:     # bounds of this horizon
                            lo += ent[4 * i]
                            hi = acc[d] + ent[4 * i + 1]
                    else:
                        ttm = _NONE
                    if d == 1 and self.first != _NONE:
                        ttm = self.first
                    if d > 1:               # (the root searches on, for its move)
                        if lo >= beta[d] or lo == hi:
                            v = lo
                            mode = _RETURN
                            continue
                        if hi <= alpha[d]:
                            v = hi
                            mode = _RETURN
                            continue
                        if lo > alpha[d]:
                            alpha[d] = lo
                        if hi < beta[d]:
                            beta[d] = hi
                    a0[d] = alpha[d]
                    b0[d] = beta[d]
                    # every face p holds, keyed (see the docstring)
                    o = p * 32
                    q = 4 - p * 4
                    j = d * _W
                    for t in range(4):
                        if sc[p * 4 + t] == 0:
                            continue
                        void = sc[q + t] == 0   # then he trumps, unless these are trumps or he has none
                        x = t * 8 + 8 if t != trump and sc[q + trump] else 0
                        if not void:        # he beats what is below his best card
                            x = t * 8 + 39 - o
                            while hand[x] == 0:
                                x -= 1
                            x -= 32 - o
                        win = 148 - 20 * (t == trump)
                        lose = win - 84 + 10 * void
                        f = t * 8 + 7
                        while f >= t * 8 + low:
                            if hand[o + f] and not (f & 7 < 2 and self._same_as_next(p, f, -1)):
                                mv[j] = f
                                if f == ttm:
                                    key[j] = 255
                                elif f >= x:    # a sure winner
                                    key[j] = win + RANK_POINTS[f & 7]
                                else:
                                    key[j] = lose - RANK_POINTS[f & 7]
                                j += 1
                            f -= 1
                    cnt[d] = j - d * _W
                else:                       # the follower's moves (engine.tricks.legal_follow)
                    lead = card[d - 1]
                    t = lead >> 3
                    o = p * 32
                    j = d * _W
                    if sc[p * 4 + t]:       # win if he can, highest first
                        f = t * 8 + 7
                        while f > lead:
                            if hand[o + f] and not (f & 7 < 2 and self._same_as_next(p, f, lead)):
                                mv[j] = f
                                j += 1
                            f -= 1
                        if j == d * _W:     # else lose, cheapest first
                            j = self._add(j, o, t, low, lead)
                    elif sc[p * 4 + trump]:  # trump in, lowest first
                        j = self._add(j, o, trump, low, lead)
                    else:                   # anything, cheapest first by suit
                        for t in range(4):
                            j = self._add(j, o, t, low, lead)
                    cnt[d] = j - d * _W
                best[d] = -1 if p == 0 else _INF
                bmove[d] = _NONE
                idx[d] = 0
                nw[d] = 0
                mode = _NEXT
            elif d == 1:                    # _RETURN from the root: done
                self.done = True
                self.value = v
                self.move = bmove[1]
                break
            else:                           # _RETURN: v is the value of ply d; take back ply d - 1
                d -= 1
                mode = _NEXT
                p = who[d]
                f = card[d]
                o = p * 32 + f
                hand[o] += 1
                sc[p * 4 + (f >> 3)] += 1
                rm[(o >> 3) + (8 if hand[o] > 1 else 0)] ^= 1 << (f & 7)
                if nw[d] == 1 and alpha[d] < v < beta[d]:   # beat the null window:
                    nw[d] = 2                               # search it again in full
                    idx[d] -= 1
                elif (v <= best[d]) if p == 0 else (v >= best[d]):
                    continue
                best[d] = v
                bmove[d] = f
                if p == 0:
                    if v > alpha[d]:
                        alpha[d] = v
                elif v < beta[d]:
                    beta[d] = v
        self.d = d
        self.v = v
        self.mode = mode
        self.nodes += nodes
        return self.done

    def _add(self, j, o, s, low, lead):
        """Append the faces of suit s in hand[o:o + 32] from rank low up at mv[j]; the new j."""
        hand = self.hand
        mv = self.mv
        f = s * 8 + low
        while f < s * 8 + 8:
            if hand[o + f] and not (f & 7 < 2 and self._same_as_next(o >> 5, f, lead)):
                mv[j] = f
                j += 1
            f += 1
        return j

    def _same_as_next(self, p, f, lead):
        """True if p's f (a 7 or 8) plays exactly like p's f + 1 (see the docstring): skip f."""
        q = 32 - p * 32
        return (self.hand[p * 32 + f + 1] and self.hand[q + f] == 0 and self.hand[q + f + 1] == 0
                and lead != f and lead != f + 1)
