"""Stacked two-hand deals for the rule tests: name the pone's hand, the rest is filled in harmlessly.

Seat 1 deals, so seat 0 is the pone and leads first.
"""

from engine import actions, cards, tricks
from engine.state import PH_ANNOUNCE, PH_KNOCK, PH_PLAY
from tests.device import helpers as H

# Filler order for the cards nobody named: those least likely to form melds first.
_HARMLESS_RANKS = (cards.R7, cards.R8, cards.R9, cards.RT, cards.RJ, cards.RA, cards.RQ, cards.RK)


def _harmless_key(f):
    return (_HARMLESS_RANKS.index(cards.rank_of(f)), f == cards.parse("JD"), f)


def game(pone, turnup="TC", stock="", dealer=None, rules="hoyle", **options):
    """Seat 0 (pone) holds `pone`; unless named, the dealer gets the 12 most harmless
    cards left and the stock the rest, most harmless first, after `stock`."""
    pone_faces = cards.parse_many(pone)
    stock_faces = cards.parse_many(stock)
    named = pone_faces + [cards.parse(turnup)] + stock_faces
    if dealer is not None:
        named += cards.parse_many(dealer)
    left = cards.new_pack(options.get("pack64", False))
    for f in named:
        assert left[f] > 0, "too many copies of " + cards.name(f)
        left[f] -= 1
    rest = sorted([f for f in range(32) for _ in range(left[f])], key=_harmless_key)
    if dealer is None:
        dealer_faces, rest = rest[:12], rest[12:]
    else:
        dealer_faces = cards.parse_many(dealer)
    return H.two_hand_game(rules, pone_faces, dealer_faces, turnup, stock_faces + rest,
                           dealer_seat=1, **options)


def texts(state):
    return [state.describe(a) for a in state.legal_actions()]


def melds_offered(state, name):
    return [t for t in texts(state) if t.startswith("meld " + name + " ")]


def losing_card(state, p):
    """A card of p's hand that loses to the card led: lowest points, no trump if possible."""
    led = state.trick[0]
    best = None
    for f in range(32):
        if state.hands[p][f] and not tricks.beats(f, led, state.trump):
            key = (f >> 3 == state.trump, cards.points(f), f)
            if best is None or key < best[0]:
                best = (key, f)
    assert best is not None, "the dealer cannot lose this trick"
    return best[1]


def win_trick(state, lead):
    """Seat 0 leads `lead` and the dealer throws a losing card; seat 0 wins."""
    assert state.current_player() == 0 and state.phase == PH_PLAY
    H.act(state, "play " + lead)
    state.apply(losing_card(state, 1))
    assert state.leader == 0


def meld(state, text):
    """Announce the meld whose description starts with `text`; return the points scored."""
    before = state.scores()[state.current_player()]
    p = state.current_player()
    H.act(state, "meld " + text)
    return state.scores()[p] - before


def play_first_legal(state):
    legal = [a for a in state.legal_actions() if a != actions.KNOCK]
    state.apply(actions.PASS if state.phase in (PH_ANNOUNCE, PH_KNOCK) else legal[0])


def finish_stock_phase(state):
    """Play on with the first legal card and no announcements until the stock is gone."""
    while state.in_stock_phase():
        play_first_legal(state)


