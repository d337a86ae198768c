"""The engine's invariants, for the property tests, the device suite and python -m tools fuzz:
every card somewhere exactly once, 250 points in the tricks of a deal played to its last
trick, the scores the sum of the score sheet. Runs under MicroPython too (tests/device)."""

from engine import cards, rules
from engine.state import PH_BETWEEN, PH_OVER


def three_hand(state):
    """True for a game of a three-hand rule set (binokel: bidding, the Dabb), engine/rules.py."""
    return rules.find(state.RULES)[rules.KIND] == rules.THREE_HAND


def card_census(state):
    """Count of every face over every place a card can be (32 counts)."""
    tot = bytearray(32)
    for group in (state.hands, state.won):
        for counts in group:
            for f in range(32):
                tot[f] += counts[f]
    for i in range(state.trick_n):
        tot[state.trick[i]] += 1
    if three_hand(state):
        if not state.dabb_shown:
            for f in state.dabb:
                tot[f] += 1
        for f in range(32):
            tot[f] += state.buried[f]
    else:
        for t in state.tables:
            for r in t.recs:
                tot[r & 31] += 1
        for i in range(state.stock_pos, len(state.stock)):
            tot[state.stock[i]] += 1
        if state.turnup >= 0:
            tot[state.turnup] += 1
    return tot


def pack_of(state):
    return cards.new_pack(getattr(state, "pack64", False))


def trick_points_of_deal(state):
    """Points won in tricks in the finished deal, plus buried points (binokel): 250 in full."""
    total = 0
    for p in range(state.PLAYERS):
        total += state.cardpts[p]
    if three_hand(state):
        total += cards.card_points(state.buried)
    else:
        total += cards.LAST_TRICK_POINTS      # the last trick is scored with the melds
    return total


def deal_finished_fully(state):
    """True after a deal that ran to its last trick (no knock, surrender or lost Durch)."""
    if not (state.phase == PH_BETWEEN or state.phase == PH_OVER):
        return False
    if three_hand(state):
        return (0 <= state.contract < 4 and not state.surrendered) and state.trick_n == 0 \
            and cards.count(state.hands[0]) == 0
    return state.knock is None


def sheet_totals(state):
    """Each player's sum over the score sheet (plus melds of a deal still in play)."""
    totals = [0] * state.PLAYERS
    for row in state.sheet:
        gains = state.gains_of(row)
        for p in range(state.PLAYERS):
            totals[p] += gains[p]
    if not three_hand(state) and state.phase != PH_BETWEEN and state.phase != PH_OVER:
        for p in range(2):
            totals[p] += state.deal_pts[p]
    return totals
