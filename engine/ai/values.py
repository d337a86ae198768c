"""How much a card is worth keeping: the AI's static hand knowledge.

Every figure is in game points. `keep_value` prices a card by what it may
still do: win a trick later (a top card, a trump), make a meld while the
stock lasts, or be lost (an unguarded ten).
"""

from engine.cards import RA, RT, RK, RQ, RJ

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

# Keep-value weights (points).
_TOP = const(9)          # a top card of a plain suit (nothing higher unseen): its points win again later
_TRUMP = const(6)        # every trump, for its power to ruff
_TRUMP_STEP = const(2)   # per rank step of a trump above the nine
_MARRIAGE = const(10)    # marriage partner held (plain suit), doubled in trumps
_BINOCLE = const(20)     # binocle partner held (Q spades + J diamonds)
_SEQUENCE = const(15)    # sequence card with three or more of the five trumps held
_FOUR = const(6)         # four-of-a-rank card with three or more suits of that rank held
_BARE_TEN = const(-6)    # an unguarded ten (the ace unseen elsewhere): likely lost
_ACE = const(4)          # an ace of a plain suit, even when not a top

_QS = const(4)       # queen of spades
_JD = const(19)      # jack of diamonds
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
        v += _TRUMP + _TRUMP_STEP * r
    elif is_top(f, mine, played):
        v += _TOP
    elif r == RA:
        v += _ACE
    if r == RT and s != trump and unseen_copies(s * 8 + RA, mine, played) > 0:
        v += _BARE_TEN
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
            v += _MARRIAGE * (2 if s == trump else 1)
    if f == _QS and mine[_JD] or f == _JD and mine[_QS]:
        v += _BINOCLE
    if s == trump and r >= RJ:
        held = 0
        for rr in (RA, RT, RK, RQ, RJ):
            if mine[trump * 8 + rr]:
                held += 1
        if held >= 3:
            v += _SEQUENCE
    if r in _FOUR_RANKS:
        suits = 0
        for ss in range(4):
            if mine[ss * 8 + r]:
                suits += 1
        if suits >= 3:
            v += _FOUR
    return v
