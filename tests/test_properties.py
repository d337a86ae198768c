"""Seeded random games, thousands per rule set, checked for the invariants of the rules.

Every step: every card is somewhere exactly once; a player to act has a legal
action. Every finished deal: 250 points were won in tricks (with the last
trick, and the Dabb's buried points in binokel). Sampled steps: illegal
actions are rejected and change nothing; an observation does not change when
cards its player cannot see are swapped. Every game: replaying its record
rebuilds the same state; the scores are the sum of the score sheet.
"""

import pytest

from engine import record
from engine.rules import THREE_HAND, kind
from engine.variants import variants
from engine.rng import Rng
from engine.state import IllegalAction, PH_ANNOUNCE, PH_BETWEEN, PH_OVER
from tests.device import helpers as H
from tools.checks import invariants as I

VARIANTS = dict((v[0], v[1:]) for v in variants())     # engine/rules.py: name: (rule set, options)
MAX_DEALS = 4
SAMPLE_EVERY = 37      # steps between the costly checks


def options_of(name):
    rules, options = VARIANTS[name]
    return rules, {"options": options}


def games_of(name):
    """2000 games of each rule set, 1000 with an option."""
    return 1000 if VARIANTS[name][1] else 2000


class Checker:
    def __init__(self, seed):
        self.rng = Rng(seed ^ 0xC0DE)
        self.steps = 0
        self.deal_checked = 0
        self.counts = {"steps": 0, "illegal": 0, "hidden_swaps": 0, "deals": 0}

    def __call__(self, state):
        assert I.card_census(state) == I.pack_of(state)
        assert state.legal_actions(), "no legal action before the end"
        self.check_deal_end(state)
        self.steps += 1
        self.counts["steps"] += 1
        if self.steps % SAMPLE_EVERY == 0:
            self.check_illegal(state)
            self.check_hidden(state)

    def check_deal_end(self, state):
        if state.phase not in (PH_BETWEEN, PH_OVER) or self.deal_checked == state.deal_number:
            return
        self.deal_checked = state.deal_number
        if I.deal_finished_fully(state):
            assert I.trick_points_of_deal(state) == 250
            self.counts["deals"] += 1

    def check_illegal(self, state):
        before = H.fingerprint(state)
        for bad in H.illegal_actions(self.rng, state, 3):
            with pytest.raises(IllegalAction):
                state.apply(bad)
            self.counts["illegal"] += 1
        assert H.fingerprint(state) == before

    def check_hidden(self, state):
        for p in range(state.PLAYERS):
            other = swap_hidden(state, p, self.rng)
            if other is None:
                continue
            assert other.observation(p) == state.observation(p)
            assert H.fingerprint(other) != H.fingerprint(state)
            self.counts["hidden_swaps"] += 1


def hidden_places(state, p):
    """Where the cards player p cannot see lie: ("counts", vector) or ("list", faces, first index)."""
    places = [("counts", state.hands[q], 0) for q in range(state.PLAYERS) if q != p]
    if I.three_hand(state):
        if not state.dabb_shown:
            places.append(("list", state.dabb, 0))
        elif p != state.soloist:
            places.append(("counts", state.buried, 0))
    else:
        places.append(("list", state.stock, state.stock_pos))
    return places


def slots(place):
    kind, seq, start = place
    return [f for f in range(32) if seq[f]] if kind == "counts" else list(range(start, len(seq)))


def face_in(place, slot):
    return slot if place[0] == "counts" else place[1][slot]


def replace(place, slot, face):
    kind, seq, _ = place
    if kind == "counts":
        seq[slot] -= 1
        seq[face] += 1
    else:
        seq[slot] = face


def swap_hidden(state, p, rng):
    """A clone in which two cards of different faces, both hidden from p, trade places."""
    other = state.clone()
    places = [pl for pl in hidden_places(other, p) if slots(pl)]
    if len(places) < 2:
        return None
    for _ in range(20):
        i = rng.below(len(places))
        j = rng.below(len(places))
        if i == j:
            continue
        a_slots, b_slots = slots(places[i]), slots(places[j])
        a = a_slots[rng.below(len(a_slots))]
        b = b_slots[rng.below(len(b_slots))]
        fa, fb = face_in(places[i], a), face_in(places[j], b)
        if fa != fb:
            replace(places[i], a, fb)
            replace(places[j], b, fa)
            return other
    return None


def check_game(name, seed, totals):
    rules, options = options_of(name)
    checker = Checker(seed)
    state = H.random_game(rules, seed, max_deals=MAX_DEALS, check=checker, **options)
    again = record.replay(record.encode(state))
    assert H.fingerprint(again) == H.fingerprint(state)
    assert state.scores() == I.sheet_totals(state)
    for key, value in checker.counts.items():
        totals[key] = totals.get(key, 0) + value


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_random_games_keep_every_invariant(name):
    totals = {}
    games = games_of(name)
    for seed in range(games):
        check_game(name, seed, totals)
    # The checks really ran: many steps, deals, rejected actions and hidden swaps.
    assert totals["steps"] > games * 40
    assert totals["deals"] > games
    assert totals["illegal"] > games * 3
    assert totals["hidden_swaps"] > games


def test_the_variants_are_the_registry_s():
    assert sorted(VARIANTS) == ["binokel", "french", "hoyle", "hoyle-nogrand", "hoyle64"]
    assert options_of("hoyle64") == ("hoyle", {"options": 1}) and games_of("hoyle64") == 1000
    assert games_of("french") == 2000


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_points_of_is_what_the_action_scores(name):
    # GameState.points_of (what the app shows beside a meld) against applying it on a copy
    rules, opts = options_of(name)
    from engine.rules import new_game
    checked = 0
    for seed in range(40):
        state = new_game(rules, seed, **opts)
        rng = Rng(seed)
        while not state.is_game_over() and state.deal_number <= 2:
            legal = state.legal_actions()
            p = state.current_player()
            for a in legal:
                if state.phase != PH_ANNOUNCE:          # card plays, bids, knocks: nothing at once
                    assert state.points_of(a) == 0
                    continue
                copy = state.clone()
                before = copy.score[p]
                copy.apply(a)
                assert state.points_of(a) == copy.score[p] - before
                checked += state.points_of(a) > 0
            state.apply(legal[rng.below(len(legal))])
    assert checked == 0 if kind(rules) == THREE_HAND else checked > 100     # binokel scores no action at once
