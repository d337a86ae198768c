"""Seeded games of every rule set, checked at every step (runs under CPython and MicroPython)."""

from engine import record
from engine.rng import Rng
from engine.rules import RULE_SETS
from engine.variants import variants
from engine.state import IllegalAction
from tests.device import helpers

GAMES_PER_RULE_SET = 3


def _check_game(rules, seed, **options):
    rng = Rng(seed + 77)
    deals = [0]

    def check(state):
        assert helpers.card_census(state) == helpers.pack_of(state)
        legal = state.legal_actions()
        assert legal, "no legal action before the end"
        assert legal == sorted(legal)
        before = helpers.fingerprint(state)
        for bad in helpers.illegal_actions(rng, state, 2):
            try:
                state.apply(bad)
            except IllegalAction:
                pass
            else:
                raise AssertionError("illegal action %d accepted" % bad)
            assert helpers.fingerprint(state) == before
        if helpers.deal_finished_fully(state) and state.deal_number != deals[0]:
            deals[0] = state.deal_number
            assert helpers.trick_points_of_deal(state) == 250

    state = helpers.random_game(rules, seed, check=check, **options)
    again = record.replay(record.encode(state))
    assert helpers.fingerprint(again) == helpers.fingerprint(state)
    return state


def test_games_of_every_variant():
    played = []
    for name, rules, options in variants():          # each rule set, and each with an option
        for seed in range(GAMES_PER_RULE_SET):
            played.append(_check_game(rules, seed, options=options).RULES)
    assert len(played) == len(variants()) * GAMES_PER_RULE_SET and "hoyle" in played


def test_clone_is_equal_and_independent():
    for rules in RULE_SETS:
        state = helpers.random_game(rules, 11, max_deals=1)
        copy = state.clone()
        assert helpers.fingerprint(copy) == helpers.fingerprint(state)
        if not copy.is_game_over():
            copy.apply(copy.legal_actions()[0])
            assert helpers.fingerprint(copy) != helpers.fingerprint(state)
