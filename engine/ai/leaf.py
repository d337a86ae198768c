"""The value of a position beyond the two-hand endgame search's horizon (engine/ai/endgame.py).

playouts() plays the position out twice by rollout.py's simple model; score() takes the mean
and corrects it by a few terms of the two hands whose weights were fitted against exact play.
Only the two-hand games load this module (binokel plays out whole deals, never scores).

    v = score(playouts(rm, sc, leader, trump, n), rm, sc, leader, trump, n)

rm, sc: the solver's rank masks and suit counts (endgame.py; playouts() draws the layout).
"""

from engine.cards import LAST_TRICK_POINTS


# What the playouts get wrong, fitted against exact play by `python -m tools tune-leaf`: 16
# times the points of player 0's side a unit of each term is worth beyond the playouts' mean.
# Terms (player 0's less player 1's): trumps, plain aces, trump aces, card points, plain suits
# void beside trumps, tens; then +1 if player 0 leads (-1 if not): alone, and per card in hand.
# From 3 cards in hand (those fitted); with fewer the playouts are (nearly) forced.
LEAF_WEIGHTS = (8, -6, -58, 5, -9, -15, 41, -3)    # 8 terms


# The points of the ranks Q K 10 A (bits 4-7 of a mask), by those four bits: 16 entries,
# 0 3 4 7 10 13 14 17 11 14 15 18 21 24 25 28 (a bytes literal: no table built at import).
_HIGH_POINTS = b"\x00\x03\x04\x07\x0a\x0d\x0e\x11\x0b\x0e\x0f\x12\x15\x18\x19\x1c"


def leaf_tables(w):
    """(plain suits, trumps): w's worth of the card points, tens and aces (terms 3, 5 and 1 or 2)
    of the ranks Q K 10 A held, by those bits of a mask (4-7): 16 entries each."""
    return tuple(tuple(w[3] * _HIGH_POINTS[i] + w[5] * (i >> 2 & 1) + ace * (i >> 3) for i in range(16))
                 for ace in (w[1], w[2]))


def leaf_terms(rm, sc, leader, trump, cards_left, w=LEAF_WEIGHTS):
    """The sum of w[i] times term i (LEAF_WEIGHTS' list) of the hands in rm/sc; w a unit
    vector gives term i itself."""
    plain, trumps = _TABLES if w is LEAF_WEIGHTS else leaf_tables(w)
    x = w[0] * (sc[trump] - sc[4 + trump])
    for t in range(4):
        a = rm[t]
        b = rm[8 + t]                   # player 0's ranks, held twice; then player 1's
        c = rm[4 + t]
        d = rm[12 + t]
        h = trumps if t == trump else plain
        x += (h[a >> 4] + h[b >> 4] - h[c >> 4] - h[d >> 4]
              + w[3] * (((a & 8) + (b & 8) - (c & 8) - (d & 8)) >> 2))    # a jack: 2 points
        if t != trump:                  # a void beside trumps
            if not sc[t] and sc[trump]:
                x += w[4]
            if not sc[4 + t] and sc[4 + trump]:
                x -= w[4]
    lead = w[6] + w[7] * cards_left
    return x + lead if leader == 0 else x - lead


_TABLES = leaf_tables(LEAF_WEIGHTS)


def score(both, rm, sc, leader, trump, cards_left):
    """Points player 0 takes from this trick start: both (the two playouts' points together)
    halved, from 3 cards in hand corrected by leaf_terms in 16ths, 0 or more."""
    if cards_left < 3:                  # (nearly) forced: the playouts are right
        return both >> 1
    v = (8 * both + leaf_terms(rm, sc, leader, trump, cards_left)) >> 4
    return v if v > 0 else 0


_WORK = bytearray(24)       # playouts(): a playout's copy of rm (16 bytes) and sc (8)


def playouts(rm, sc, leader, trump, cards_left):
    """Points player 0 takes from a trick start, two hands, in two playouts together: by the
    model of engine/ai/rollout.py, and with leaders who first cash a plain card the other can
    neither beat nor trump (cards_left: cards in each hand). The leaf of the endgame's
    search (score() takes their mean) and most of its time, so written apart from
    Rollout.run() on the solver's rank masks, a card as its rank's bit (lowest of a mask:
    m & -m); tests/test_endgame.py checks it against run()'s model.

        rm[p*4 + t]       ranks of suit t that p holds (bit r: rank r, one copy or two)
        rm[8 + p*4 + t]   ranks he holds twice
        sc[p*4 + t]       his cards of suit t
        m[0:16], m[16:24] a playout's working copy of rm and sc
    """
    m = _WORK
    total = 0
    for cash in (0, 1):
        for i in range(8):
            m[i] = rm[i]
            m[8 + i] = rm[8 + i]
            m[16 + i] = sc[i]
        ld = leader
        for left in range(cards_left, 0, -1):
            o = ld * 4                  # the leader's suits
            q = 4 - o                   # the follower's
            t = -1
            b = 0                       # the lead's bit
            if cash:                    # a plain card the other can neither beat nor trump
                for u in range(4):
                    if u == trump or not m[16 + o + u] or (not m[16 + q + u] and m[16 + q + trump]):
                        continue
                    x = m[o + u]        # every rank up to his highest:
                    x |= x >> 1
                    x |= x >> 2
                    x |= x >> 4
                    if m[q + u] <= x:   # the other holds nothing above it
                        t = u
                        b = (x + 1) >> 1
                        break
            if t < 0:                   # a plain ace, else the longest plain suit's lowest
                n = 0
                for u in range(4):
                    if u == trump or not m[16 + o + u]:
                        continue
                    if m[o + u] & 128:
                        t = u
                        b = 128
                        break
                    if m[16 + o + u] > n:
                        n = m[16 + o + u]
                        t = u
                if t < 0:
                    t = trump
                if not b:
                    b = m[o + t] & -m[o + t]
            i = o + t                   # the lead leaves the leader's hand
            if m[8 + i] & b:
                m[8 + i] ^= b
            else:
                m[i] ^= b
            m[16 + i] -= 1
            w = ld                      # who wins the trick
            j = q + t
            if m[16 + j]:               # follow, the cheapest card that wins, else the lowest
                a = m[j] & -(b << 1)
                if a:
                    w = 1 - ld
                else:
                    a = m[j]
            elif m[16 + q + trump]:     # trump in, lowest (t is not trumps here)
                j = q + trump
                a = m[j]
                w = 1 - ld
            else:                       # anything: the lowest rank, first suit
                x = 256
                for u in range(4):
                    y = m[q + u]
                    if y and y & -y < x:
                        x = y & -y
                        j = q + u
                a = m[j]
            c = a & -a                  # the follower's card
            if m[8 + j] & c:
                m[8 + j] ^= c
            else:
                m[j] ^= c
            m[16 + j] -= 1
            if w == 0:
                total += _BIT_POINTS[b % 11] + _BIT_POINTS[c % 11] + (LAST_TRICK_POINTS if left == 1 else 0)
            ld = w
    return total


# A rank's bit modulo 11 tells the ranks apart (1 2 4 8 5 10 9 7): their card points by it.
_BIT_POINTS = b"\x00\x00\x00\x00\x00\x03\x00\x0b\x02\x0a\x04"
