"""tools/selfplay.py: the loop the tools play their games through."""

import pytest

from engine.rules import new_game
from engine.state import PH_PLAY, IllegalAction
from tools import opponents, selfplay


def greedy_seats(n):
    return [opponents.new_opponent("greedy", p) for p in range(n)]


def by_hand(state, seats, steps):
    """The loop written out: steps actions, each seat choosing from its observation."""
    out = []
    for _ in range(steps):
        p = state.current_player()
        a = seats[p].choose(state.observation(p))
        state.apply(a)
        out.append(a)
    return out


@pytest.mark.parametrize("rules", ["hoyle", "french", "binokel"])
def test_a_deal_is_the_loop_written_out(rules):
    state = new_game(rules, 4)
    seen = []
    n = selfplay.play_deal(state, greedy_seats(state.PLAYERS), lambda s, p, obs, a: seen.append(a))
    assert state.is_deal_over() and not state.is_game_over() and len(state.sheet) == 1
    assert state.nactions == n == len(seen)
    again = new_game(rules, 4)
    assert by_hand(again, greedy_seats(again.PLAYERS), n) == seen
    assert again.sheet == state.sheet
    # from the pause between deals, the dealer deals the next deal first, then it is played
    m = selfplay.play_deal(state, greedy_seats(state.PLAYERS))
    assert len(state.sheet) == 2 and state.deal_number == 2 and state.nactions == n + m
    assert seen == by_hand(new_game(rules, 4), greedy_seats(state.PLAYERS), n)


def test_a_seat_is_an_object_with_choose_or_a_function():
    state = new_game("french", 9)
    seats = greedy_seats(2)
    assert selfplay.play(state, [seats[0], seats[1].choose], limit=7) == 7
    assert state.nactions == 7
    assert bytes(state.history) == bytes(_history(by_hand(new_game("french", 9), greedy_seats(2), 7)))


def _history(acts):
    from engine.state import append_varint
    out = bytearray()
    for a in acts:
        append_varint(out, a)
    return out


def test_watch_sees_each_action_before_it_is_applied_and_until_stops_before_a_decision():
    state = new_game("binokel", 2)
    watched = []

    def watch(s, p, obs, a):
        assert p == s.current_player() == obs.player and a in obs.legal
        watched.append(s.nactions)

    def first_card(s, obs):
        assert obs.player == s.current_player()
        return obs.phase == PH_PLAY
    n = selfplay.play(state, greedy_seats(3), first_card, watch)
    assert state.phase == PH_PLAY and state.nactions == n > 0
    assert watched == list(range(n))
    assert state.observation(state.current_player()).legal          # the card is not played


def test_limit_zero_and_a_game_over_play_nothing():
    state = new_game("hoyle", 1)
    assert selfplay.play(state, greedy_seats(2), limit=0) == 0 and state.nactions == 0
    selfplay.play(state, greedy_seats(2))
    assert state.is_game_over()
    done = state.nactions
    assert selfplay.play(state, greedy_seats(2)) == 0 and selfplay.play_deal(state, greedy_seats(2)) == 0
    assert state.nactions == done


def test_an_illegal_choice_raises_and_leaves_the_player_to_move():
    state = new_game("hoyle", 3)
    movers = []

    def third_is_illegal(obs):
        movers.append(obs.player)
        return -1 if state.nactions == 2 else obs.legal[0]
    with pytest.raises(IllegalAction):
        selfplay.play(state, [third_is_illegal] * 2)
    assert state.nactions == 2 and len(movers) == 3 and state.current_player() == movers[2]
