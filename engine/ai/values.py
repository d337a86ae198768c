"""How much a card is worth keeping: the AI's static hand knowledge.

Every figure is in game points and comes from the table below, so the
arena (tools/arena.py) can tune them. `keep_value` prices a card by what it
may still do: win a trick later (a top card, a trump), make a meld while
the stock lasts, or be lost (an unguarded ten).
"""

from engine.cards import RA, RT, RK, RQ, RJ

# Keep-value weights (points). Index names below; 12 small ints.
W = [
    9,    # 0 a top card of a plain suit (nothing higher unseen): its points win again later
    6,    # 1 every trump, for its power to ruff
    2,    # 2 per rank step of a trump above the nine
    10,   # 3 marriage partner held (plain suit), doubled in trumps
    20,   # 4 binocle partner held (Q spades + J diamonds)
    15,   # 5 sequence card with three or more of the five trumps held
    6,    # 6 four-of-a-rank card with three or more suits of that rank held
    -6,   # 7 an unguarded ten (the ace unseen elsewhere): likely lost
    4,    # 8 an ace of a plain suit, even when not a top
    3,    # 9 trump nine while the turn-up can still be taken (dix)
    0,    # 10 reserved
    0,    # 11 reserved
]
W_TOP, W_TRUMP, W_TRUMP_STEP, W_MARRIAGE, W_BINOCLE, W_SEQUENCE, W_FOUR, W_BARE_TEN, W_ACE, W_DIX = range(10)

_QS = 4       # queen of spades
_JD = 19      # jack of diamonds
_FOUR_RANKS = (RA, RK, RQ, RJ)


def unseen_copies(f, mine, played):
    return 2 - mine[f] - played[f]


def is_top(f, mine, played):
    """No higher card of the suit is still out of our sight."""
    base = f & ~7
    for r in range((f & 7) + 1, 8):
        if unseen_copies(base + r, mine, played) > 0:
            return False
    return True


def keep_value(f, mine, played, trump, melds_open):
    """What keeping card f is worth; mine = cards we hold (hand and table), played = seen played."""
    s = f >> 3
    r = f & 7
    v = 0
    if s == trump:
        v += W[W_TRUMP] + W[W_TRUMP_STEP] * r
    elif is_top(f, mine, played):
        v += W[W_TOP]
    elif r == RA:
        v += W[W_ACE]
    if r == RT and s != trump and unseen_copies(s * 8 + RA, mine, played) > 0:
        v += W[W_BARE_TEN]
    if melds_open:
        v += meld_potential(f, mine, trump)
    return v


def meld_potential(f, mine, trump):
    """Rough value of f for melds still to come (two-hand stock phase)."""
    s = f >> 3
    r = f & 7
    v = 0
    if r == RK or r == RQ:
        partner = s * 8 + (RQ if r == RK else RK)
        if mine[partner]:
            v += W[W_MARRIAGE] * (2 if s == trump else 1)
    if f == _QS and mine[_JD] or f == _JD and mine[_QS]:
        v += W[W_BINOCLE]
    if s == trump and r >= RJ:
        held = 0
        for rr in (RA, RT, RK, RQ, RJ):
            if mine[trump * 8 + rr]:
                held += 1
        if held >= 3:
            v += W[W_SEQUENCE]
    if r in _FOUR_RANKS:
        suits = 0
        for ss in range(4):
            if mine[ss * 8 + r]:
                suits += 1
        if suits >= 3:
            v += W[W_FOUR]
    return v
