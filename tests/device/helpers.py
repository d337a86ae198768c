"""Shared by the tests under CPython and MicroPython: stacked deals, seeded play; the
engine's invariants are tools/checks/invariants.py's (python -m tools fuzz checks them too)."""

from engine import actions, cards
from engine.rng import Rng
from engine.rules import new_game
from tools.checks.invariants import card_census, deal_finished_fully, pack_of, three_hand, \
    trick_points_of_deal   # noqa: F401  (the tests reach them as helpers.card_census ...)


def _faces(spec):
    return cards.parse_many(spec) if isinstance(spec, str) else list(spec)


def _rest(used, pack64):
    """Faces of the pack not in `used`, in face order."""
    left = cards.new_pack(pack64)
    for f in used:
        if left[f] == 0:
            raise ValueError("too many copies of %s" % cards.name(f))
        left[f] -= 1
    out = []
    for f in range(32):
        out.extend([f] * left[f])
    return out


def two_hand_deck(pone, dealer, turnup, stock="", pack64=False):
    """Deal order giving these 12-card hands, turn-up and top of the stock (rules.md hoyle 1)."""
    pone, dealer, stock = _faces(pone), _faces(dealer), _faces(stock)
    turnup = cards.parse(turnup) if isinstance(turnup, str) else turnup
    if len(pone) != 12 or len(dealer) != 12:
        raise ValueError("each hand needs 12 cards")
    deck = []
    for rnd in range(3):
        deck.extend(pone[4 * rnd:4 * rnd + 4])
        deck.extend(dealer[4 * rnd:4 * rnd + 4])
    deck.append(turnup)
    deck.extend(stock)
    deck.extend(_rest(deck, pack64))
    return deck


def two_hand_game(rules, pone, dealer, turnup, stock="", dealer_seat=0, **options):
    deck = two_hand_deck(pone, dealer, turnup, stock, options.get("pack64", False))
    return new_game(rules, 1, deck=deck, dealer=dealer_seat, **options)


def binokel_deck(forehand, middlehand, rearhand, dabb):
    """Deal order giving these 15-card hands and Dabb (rules.md binokel 1)."""
    hands = [_faces(forehand), _faces(middlehand), _faces(rearhand)]
    dabb = _faces(dabb)
    if [len(h) for h in hands] != [15, 15, 15] or len(dabb) != 3:
        raise ValueError("binokel needs three 15-card hands and a 3-card Dabb")
    deck = []
    for rnd in range(5):
        for h in hands:
            deck.extend(h[3 * rnd:3 * rnd + 3])
        if rnd == 0:
            deck.extend(dabb)
    if len(_rest(deck, False)) != 0:
        raise ValueError("the hands and Dabb must hold the whole pack")
    return deck


def binokel_game(forehand, middlehand, rearhand, dabb, dealer_seat=2):
    deck = binokel_deck(forehand, middlehand, rearhand, dabb)
    return new_game("binokel", 1, deck=deck, dealer=dealer_seat)


def act(state, text):
    """Apply the one legal action whose description is `text` (or starts with it)."""
    found = [a for a in state.legal_actions() if state.describe(a) == text]
    if not found:
        found = [a for a in state.legal_actions() if state.describe(a).startswith(text)]
    if len(found) != 1:
        raise AssertionError("%d legal actions match %r: %s" % (
            len(found), text, [state.describe(a) for a in state.legal_actions()]))
    state.apply(found[0])
    return found[0]


def play(state, spec):
    """Apply 'play XX' for each card in a space-separated list."""
    for word in spec.split():
        act(state, "play " + cards.name(cards.parse(word)))


def random_policy(rng, state, knock_one_in=200):
    """A legal action chosen by the seeded generator; knocks rarely, so deals run to the end."""
    legal = state.legal_actions()
    if actions.KNOCK in legal and len(legal) > 1 and rng.below(knock_one_in):
        legal.remove(actions.KNOCK)
    return legal[rng.below(len(legal))]


def random_game(rules, seed, max_deals=40, check=None, **options):
    """Play a seeded random game; call check(state) before every action."""
    state = new_game(rules, seed, **options)
    rng = Rng(seed ^ 0x5EED)
    while not state.is_game_over() and state.deal_number <= max_deals:
        if check is not None:
            check(state)
        state.apply(random_policy(rng, state))
    return state


def fingerprint(state):
    """Everything a state holds, hidden parts included, as a comparable tuple."""
    parts = [bytes(state.history), state.rng.get_state(), state.phase, state.turn]
    for p in range(state.PLAYERS):
        parts.append(state.observation(p).key())
    if three_hand(state):
        parts.append(bytes(state.dabb))
        parts.append(bytes(state.buried))
    else:
        parts.append(bytes(state.stock[state.stock_pos:]))
    for w in state.won:
        parts.append(bytes(w))
    return tuple(parts)


def illegal_actions(rng, state, n):
    """n action ints that are not legal now: small ones and meld-shaped ones."""
    legal = state.legal_actions()
    out = []
    while len(out) < n:
        a = rng.below(256) if rng.below(2) else actions.meld(rng.below(24), rng.below(1 << 15))
        if a not in legal:
            out.append(a)
    return out
