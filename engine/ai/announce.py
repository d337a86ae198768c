"""Which announcement to make after winning a trick in the stock phase (hoyle, french).

A meld is worth its points, plus part of a bigger meld of the same class
that it leaves open and that the seat already holds every card of (a royal
marriage now and the sequence later beats the sequence alone, rules.md
hoyle 6). Among ways to lay the same meld, the one taking more cards from
the table keeps fresh cards in hand. The exchange of the trump nine is worth
its 10 and the turn-up card.
"""

from engine import actions
from engine import melddata as T
from engine.ai import values

_LATER = 70          # per cent of a later extension's points counted now (it needs another trick won)
_MIN_TRICKS_LEFT = 2  # stock tricks needed to count on an extension at all


def kind_row(kinds, kind):
    o = kind * T.KIND_STRIDE
    return o, kinds[o], kinds[o + 1] * 10, kinds[o + 2]


def meld_points(kinds, a):
    return kinds[actions.meld_kind(a) * T.KIND_STRIDE + 1] * 10


def table_cards_used(kinds, a):
    o = actions.meld_kind(a) * T.KIND_STRIDE
    sources = actions.meld_sources(a)
    n = 0
    for i in range(kinds[o + 2]):
        src = (sources >> (2 * i)) & 3
        if kinds[o + 3 + i] & 32:
            n += (0, 1, 1, 2)[src]
        elif src:
            n += 1
    return n


def contains(kinds, big, small):
    """Every card of kind `small` is also in kind `big`."""
    ob, _, _, nb = kind_row(kinds, big)
    os_, _, _, ns = kind_row(kinds, small)
    for i in range(ns):
        slot = kinds[os_ + 3 + i]
        found = False
        for j in range(nb):
            other = kinds[ob + 3 + j]
            if other & 31 == slot & 31 and (other & 32 or not slot & 32):
                found = True
        if not found:
            return False
    return True


def holds_all(kinds, kind, mine):
    o, _, _, n = kind_row(kinds, kind)
    for i in range(n):
        slot = kinds[o + 3 + i]
        if mine[slot & 31] < (2 if slot & 32 else 1):
            return False
    return True


def extension_bonus(kinds, kind_count, kind, mine):
    """Points of the best bigger meld of the same class that grows out of `kind` and is in hand."""
    _, cls, pts, _ = kind_row(kinds, kind)
    best = 0
    for k2 in range(kind_count):
        _, cls2, pts2, _ = kind_row(kinds, k2)
        if cls2 == cls and pts2 > pts and pts2 > best and contains(kinds, k2, kind) and holds_all(kinds, k2, mine):
            best = pts2
    return best


def choose(obs, kinds, kind_count, mine, stock_tricks_left, played):
    """(action, points it scores now) for the announcement phase."""
    # Values in quarter points: the number of table cards used breaks ties.
    best = actions.PASS
    best_value = 0
    best_pts = 0
    for a in obs.legal:
        if a == actions.EXCHANGE:
            pts = 10
            value = (pts + values.keep_value(obs.turnup, mine, played, obs.trump, True) // 2) * 4
        elif actions.is_meld(a):
            pts = meld_points(kinds, a)
            value = pts * 4 + table_cards_used(kinds, a)
            if stock_tricks_left >= _MIN_TRICKS_LEFT:
                value += extension_bonus(kinds, kind_count, actions.meld_kind(a), mine) * _LATER * 4 // 100
        else:
            continue
        if value > best_value:
            best, best_value, best_pts = a, value, pts
    return best, best_pts
