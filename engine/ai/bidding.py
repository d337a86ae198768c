"""Binokel before the first trick: how high to bid, what to bury, which contract.

A hand is worth its best melds (engine/melds.py) plus the card points it can
expect to take as soloist, estimated card by card (TRICK_WORTH) with a bonus
for trump length. The same estimate decides the bid, the trump and whether
to surrender; burying keeps melds and trumps and banks the points of cards
that would likely be lost (a ten without its ace).
"""

from engine import actions, cards, melds
from engine.cards import RA, RT

# Card points a soloist takes, card by card, by rank code (7 8 9 J Q K T A): plain, trump.
# Fitted by self-play: `python -m tools tune --deals 1500 --seed 1` (1,500 contracts played
# out by the hard level; mean error 15 points). Plain low cards count against the hand.
TRICK_WORTH = (
    (0, 0, -3, -4, -5, -4, 11, 11),
    (15, 15, 15, 15, 17, 19, 23, 26),
)
LONG_TRUMPS = 5          # trumps beyond this many are each worth LONG_TRUMP_BONUS more (or less)
LONG_TRUMP_BONUS = -7
DABB_HOPE = 15           # what the unseen Dabb adds, on average, before it is seen
SURRENDER_SLACK = 30     # surrender when the hand is this far below the bid
BURY_NEVER = 1000        # cost that keeps a card out of the buried three


def trick_estimate(hand, trump):
    total = 0
    ntrumps = 0
    for f in range(32):
        c = hand[f]
        if c:
            is_trump = 1 if f >> 3 == trump else 0
            total += c * TRICK_WORTH[is_trump][f & 7]
            ntrumps += c * is_trump
    if ntrumps > LONG_TRUMPS:
        total += (ntrumps - LONG_TRUMPS) * LONG_TRUMP_BONUS
    return max(0, min(total, 250))


def value(hand, trump):
    return melds.best_total(hand, trump) + trick_estimate(hand, trump)


def best_trump(hand):
    """(suit, value) of the best contract suit for a hand."""
    best, best_v = 0, -1
    for s in range(4):
        v = value(hand, s)
        if v > best_v:
            best, best_v = s, v
    return best, best_v


def bid(obs, margin):
    """BID while the next bid stays within the hand's value (with hope for the Dabb) less margin."""
    _, v = best_trump(obs.hand)
    if obs.bid + 10 <= v + DABB_HOPE - margin and actions.BID in obs.legal:
        return actions.BID, v
    return actions.PASS, v


def bury_cost(hand, f, trump):
    """What burying one copy of f loses: melds, trick power; less the points it banks."""
    if f >> 3 == trump:
        return BURY_NEVER
    before = melds.best_total(hand, trump)
    hand[f] -= 1
    after = melds.best_total(hand, trump)
    hand[f] += 1
    cost = (before - after) * 2 + TRICK_WORTH[0][f & 7] - cards.points(f)
    s = f >> 3
    if f & 7 == RT and not hand[s * 8 + RA]:
        cost -= 6                       # an unguarded ten is better banked
    length = 0
    for r in range(8):
        length += hand[s * 8 + r]
    if length <= 2:
        cost -= 4                       # helps make a void to trump later
    return cost


def bury(obs):
    """The next card to bury: the cheapest for the suit the soloist means to name."""
    return actions.BURY + cheapest_to_bury(bytearray(obs.hand))


def cheapest_to_bury(hand):
    trump, _ = best_trump(hand)
    best, best_cost = -1, BURY_NEVER + 1
    for f in range(32):
        if hand[f]:
            c = bury_cost(hand, f, trump)
            if c < best_cost:                   # (ties: the lowest face, the first found)
                best, best_cost = f, c
    return best


def durch_safe(hand):
    """Every card a top: nothing higher is outside the hand, so every lead wins."""
    for f in range(32):
        if hand[f]:
            base = f & ~7
            for r in range((f & 7) + 1, 8):
                if hand[base + r] < 2:
                    return False
    return True


def contract(obs):
    """(action, value): Durch only when sure, else the best trump, or surrender when hopeless."""
    hand = obs.hand
    if durch_safe(hand):
        return actions.DURCH, 1000
    trump, v = best_trump(hand)
    buried = cards.card_points(obs.buried) if obs.buried is not None else 0
    if v + buried + SURRENDER_SLACK < obs.bid:
        return actions.SURRENDER + trump, v + buried
    return actions.TRUMP + trump, v + buried
