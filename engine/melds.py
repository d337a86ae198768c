"""Binokel meld count: the best total rules.md binokel 5 allows for a hand.

The four meld types count separately and a card may serve once in each, so
the best total is the sum of each type's best, and each type's best is a
table look-up or a minimum (engine/melddata_binokel.py holds them).

A meld is (name, points, faces, kind): the name is for the screen only; what
reads a meld's type (engine/ai/memory.py) reads its kind, 0 to KINDS - 1:

    _FAMILY   0   families and pairs of one suit (double or not, trump or not)
    _FOUR     1   four or eight of a rank
    _BINOKEL  2   binokel, double binokel
    _NINE     3   the trump nine

(const(): the names cost the board no RAM; only KINDS is read from outside.)
"""

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from engine import cards
from engine.cards import RA, RT, RK, RQ, RJ, R9
from engine import melddata_binokel as T

_QS = 0 * 8 + RQ   # queen of spades
_JD = 2 * 8 + RJ   # jack of diamonds
_FOUR_RANKS = (RA, RK, RQ, RJ)
_RANK_WORDS = ("7s", "8s", "nines", "jacks", "queens", "kings", "tens", "aces")

_FAMILY = const(0)
_FOUR = const(1)
_BINOKEL = const(2)
_NINE = const(3)
KINDS = 4


def family_code(hand, suit):
    b = suit * 8
    index = (hand[b + RA] * 81 + hand[b + RT] * 27 + hand[b + RK] * 9
             + hand[b + RQ] * 3 + hand[b + RJ])
    return T.FAMILY_PAIRS[index]


def family_points(code, trump):
    i = 1 if trump else 0
    fam = code & 3
    total = (code >> 2) * T.PAIR_POINTS[i]
    if fam == 1:
        total += T.FAMILY_POINTS[i]
    elif fam == 2:
        total += T.DOUBLE_FAMILY_POINTS[i]
    return total


def four_points(hand, rank):
    low = 2
    for s in range(4):
        c = hand[s * 8 + rank]
        if c < low:
            low = c
    if low == 2:
        return T.EIGHT_POINTS
    return T.FOUR_POINTS[rank] if low == 1 else 0


def binokel_points(hand):
    q = hand[_QS]
    j = hand[_JD]
    if q == 2 and j == 2:
        return T.BINOKEL_POINTS[1]
    return T.BINOKEL_POINTS[0] if q and j else 0


def best_total(hand, trump):
    """Best meld total of a hand (32 counts) with the given trump suit."""
    total = 0
    for s in range(4):
        total += family_points(family_code(hand, s), s == trump)
    for r in _FOUR_RANKS:
        total += four_points(hand, r)
    total += binokel_points(hand)
    total += hand[trump * 8 + R9] * T.TRUMP_NINE_POINTS
    return total


def best_melds(hand, trump):
    """The melds behind best_total: a list of (name, points, faces, kind)."""
    out = []
    for s in range(4):
        code = family_code(hand, s)
        is_trump = s == trump
        word = "trump " if is_trump else ""
        where = "" if is_trump else " in " + cards.SUIT_NAMES[s]
        fam = code & 3
        if fam:
            i = 1 if is_trump else 0
            name = ("double " if fam == 2 else "") + word + "family" + where
            pts = T.DOUBLE_FAMILY_POINTS[i] if fam == 2 else T.FAMILY_POINTS[i]
            faces = [s * 8 + r for r in (RA, RT, RK, RQ, RJ)] * fam
            out.append((name, pts, faces, _FAMILY))
        for _ in range(code >> 2):
            out.append((word + "pair" + where, T.PAIR_POINTS[1 if is_trump else 0], [s * 8 + RK, s * 8 + RQ],
                        _FAMILY))
    for r in _FOUR_RANKS:
        pts = four_points(hand, r)
        if pts:
            eight = pts == T.EIGHT_POINTS
            faces = [s * 8 + r for s in range(4)] * (2 if eight else 1)
            out.append((("eight " if eight else "four ") + _RANK_WORDS[r], pts, faces, _FOUR))
    pts = binokel_points(hand)
    if pts:
        double = pts == T.BINOKEL_POINTS[1]
        out.append(("double binokel" if double else "binokel", pts, [_QS, _JD] * (2 if double else 1),
                    _BINOKEL))
    nine = trump * 8 + R9
    for _ in range(hand[nine]):
        out.append(("trump nine", T.TRUMP_NINE_POINTS, [nine], _NINE))
    return out
