"""The value of a position beyond the two-hand endgame search's horizon (engine/ai/endgame.py).

Rollout.points0 (rollout.py) plays the position out twice by a simple model; score() takes
the mean and corrects it by a few terms of the two hands whose weights were fitted against
exact play. Only the two-hand games load this module (binokel plays out, never scores).

    v = score(rollout.points0(rm, sc, leader, trump, n), rm, sc, leader, trump, n)

rm, sc: the solver's rank masks and suit counts (endgame.py, rollout.py points0's layout).
"""

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
