"""Hint reasons (player.why): what the AI weighed for its decision, in one line of the screen,
never the move said again.

Each position is decision number `index` of a seeded game: normal seats play, a hard adviser
for seat 0 is shown each of seat 0's observations and answers at that decision. Where the
rules fix the figure a reason names, the test works it out from the game state itself.
"""

import copy

from engine import actions, cards, tricks
from engine.ai import new_player, announce, levels
from engine.rules import new_game

LINE = 26                                   # characters of one line of the screen
_VERBS = ("lead", "play", "bury", "meld", "knock", "pass", "bid", "trump", "exchange")


def decision(rules, seed, index, level="hard", **columns):
    """(state, obs, adviser, action, reason) at decision `index` (seat 0's) of a seeded game;
    the adviser is the copy that answered, its scratch still in place: a seat of `level`'s
    code with hard's levels.py columns, but for `columns` (horizon=200: engine.ai.levels.HORIZON)."""
    state = new_game(rules, seed)
    seats = [new_player(rules, p, "normal", seed) for p in range(state.PLAYERS)]
    helper = new_player(rules, 0, level, 77)
    params = list(levels.params("hard"))
    for name, value in columns.items():
        params[getattr(levels, name.upper())] = value
    helper.p = tuple(params)
    for n in range(index + 1):
        p = state.current_player()
        obs = state.observation(p)
        if n == index:
            assert p == 0
            adviser = copy.deepcopy(helper)
            action, reason = adviser.hint(obs)
            assert says_more(reason, state.describe(action))
            return state, obs, adviser, action, reason
        if p == 0:
            helper.observe(obs)
        state.apply(seats[p].choose(obs))


def says_more(reason, move):
    """One line of the screen, and not the move restated."""
    assert reason and len(reason) <= LINE, reason
    assert move not in reason and reason.split()[0].rstrip(":") not in _VERBS, (reason, move)
    return True


def trick_points(obs, f):
    return cards.points(f) + sum(cards.points(g) for g in obs.trick)


def beats_best(obs, f):
    best = obs.trick[tricks.winning_index(obs.trick, len(obs.trick), obs.trump)]
    return tricks.beats(f, best, obs.trump)


def card_faces(obs):
    return [actions.play_face(a) for a in obs.legal if actions.is_play(a)]


# -- card play ----------------------------------------------------------------------------

def test_a_lead_of_a_cheap_card_says_what_it_risks():
    state, obs, _, a, reason = decision("hoyle", 1, 0)
    f = actions.play_face(a)
    assert not obs.trick and f >> 3 != obs.trump
    assert cards.points(f) == 0 and reason == "a low card: loses nothing"


def test_a_lead_with_nothing_higher_out_says_so():
    state, obs, adviser, a, reason = decision("hoyle", 5, 84)
    f = actions.play_face(a)
    assert not obs.trick and f >> 3 != obs.trump
    assert reason == "the higher cards are gone"
    for g in range(f + 1, (f | 7) + 1):           # every higher card of the suit: seen or ours
        assert adviser.memory.played[g] + adviser.chooser.mine[g] == 2


def test_a_card_that_cannot_win_says_what_it_gives():
    state, obs, _, a, reason = decision("hoyle", 1, 4)
    f = actions.play_face(a)
    assert not any(beats_best(obs, g) for g in card_faces(obs))
    assert reason == "can't beat %s: gives %d" % (cards.name(obs.trick[0]), cards.points(f))
    assert reason == "can't beat TH: gives 0"


def test_a_duck_says_it_keeps_the_winners():
    state, obs, _, a, reason = decision("hoyle", 6, 135)
    f = actions.play_face(a)
    assert not beats_best(obs, f) and any(beats_best(obs, g) for g in card_faces(obs))
    assert reason == "gives %d, keeps big cards" % cards.points(f)


def test_winning_the_trick_names_its_points():
    state, obs, _, a, reason = decision("hoyle", 1, 6)
    f = actions.play_face(a)
    assert beats_best(obs, f) and len(obs.trick) == 1
    assert reason == "wins the trick: %d points" % trick_points(obs, f) == "wins the trick: 10 points"


def test_the_exact_search_out_of_nodes_gives_way_to_a_search_to_a_horizon():
    # 7 cards left and a level that solves 7 exactly, but its 1,500 nodes run out
    state, obs, adviser, a, reason = decision("hoyle", 28, 37, endgame=7)
    assert cards.count(obs.hand) == 7 == adviser.p[levels.ENDGAME]
    assert not adviser.chooser.rolled and adviser.solver.leaf > 0     # not played out
    assert reason == "looked 2 tricks ahead"         # within a quarter of the horizon's 900 nodes


def test_a_played_out_card_names_its_mean_result():
    # the same without a search to a horizon: the expert's code plays every card out instead
    state, obs, adviser, a, reason = decision("hoyle", 28, 37, level="expert", endgame=7, horizon=0)
    ch = adviser.chooser
    assert ch.rolled and ch.runs >= 1 and cards.count(obs.hand) == 7 and not adviser.solver.done
    assert ch.totals[actions.play_face(a)] // ch.runs == 14
    assert reason == "gains 14 on average"


def test_a_board_level_whose_search_runs_out_weighs_one_trick():
    # the same with hard's code: a level a board offers plays nothing out (no Rollout to load)
    state, obs, adviser, a, reason = decision("hoyle", 28, 37, endgame=7, horizon=0)
    ch = adviser.chooser
    assert not ch.rolled and ch.runs == 1 and not adviser.solver.done and not hasattr(adviser, "rollout")
    assert actions.play_face(a) >> 3 == obs.trump and not obs.trick
    assert reason == "a trump, to use up theirs"


def test_a_search_to_a_horizon_says_how_far_it_looked():
    state, obs, adviser, a, reason = decision("hoyle", 1, 31)    # the stock gone, 12 cards each
    assert obs.turnup < 0 and cards.count(obs.hand) == 12
    assert reason == "looked 1 trick ahead"
    state, obs, adviser, a, reason = decision("hoyle", 1, 38)
    assert obs.turnup < 0 and cards.count(obs.hand) == 9
    assert reason == "looked 3 tricks ahead"
    state, obs, adviser, a, reason = decision("hoyle", 1, 38, horizon=200)
    assert reason == "looked 2 tricks ahead"                    # less budget, less far


def test_a_binokel_card_played_out_is_compared_with_the_next_best():
    state, obs, adviser, a, reason = decision("binokel", 1, 19)
    ch = adviser.chooser
    f = actions.play_face(a)
    others = [g for g in ch.candidates(obs) if g != f]
    runner = max(others, key=lambda g: (ch.totals[g], -others.index(g)))
    margin = (ch.totals[f] - ch.totals[runner]) // ch.runs
    if margin > 0:
        assert reason == "does %d better than %s" % (margin, cards.name(runner))
    else:
        assert reason == "%s would do as well" % cards.name(runner)


def test_the_solved_endgame_says_what_it_takes_of_what_is_left():
    state, obs, adviser, a, reason = decision("hoyle", 1, 42)
    left = 10 + sum(cards.points(f) * (2 - adviser.memory.played[f]) for f in range(32))
    left += sum(cards.points(f) for f in obs.trick)
    assert left == 78
    assert reason == "gets you 12 of 78 left"
    assert adviser.solver.value == 12 or 78 - adviser.solver.value == 12


# -- announcing and knocking --------------------------------------------------------------

def test_the_turn_up_exchange_names_the_card_taken():
    state, obs, _, a, reason = decision("hoyle", 1, 7)
    assert a == actions.EXCHANGE
    assert reason == "scores 10 and gets you %s" % cards.name(obs.turnup) == "scores 10 and gets you AH"


def test_a_meld_says_whether_it_is_the_biggest():
    state, obs, adviser, a, reason = decision("french", 1, 10)
    kinds = adviser.kinds_by_trump[obs.trump]
    pts = announce.meld_points(kinds, a)
    assert reason == "the biggest meld: 20" and pts == 20
    assert all(announce.meld_points(kinds, b) <= 20 for b in obs.legal if actions.is_meld(b))


def test_a_small_meld_first_says_more_can_follow():
    state, obs, adviser, a, reason = decision("hoyle", 1, 19)
    kinds = adviser.kinds_by_trump[obs.trump]
    assert reason == "40 now, it can grow later"
    assert any(announce.meld_points(kinds, b) > 40 for b in obs.legal if actions.is_meld(b))


def test_not_knocking_names_the_count_and_the_target():
    state, obs, adviser, a, reason = decision("hoyle", 1, 56)
    assert a == actions.PASS and obs.target == 1000
    assert reason == "your %d is short of 1000" % adviser.my_count(obs) == "your 248 is short of 1000"


# -- binokel's bidding, Dabb and contract -------------------------------------------------

def test_a_bid_names_the_hands_value():
    state, obs, _, a, reason = decision("binokel", 1, 67)
    assert a == actions.BID and reason == "hand worth about 199"


def test_a_pass_names_the_value_and_the_next_bid():
    state, obs, _, a, reason = decision("binokel", 1, 1)
    assert a == actions.PASS
    assert reason == "worth 147, short of %d" % (obs.bid + 10) == "worth 147, short of 170"


def test_burying_names_the_points_banked():
    state, obs, _, a, reason = decision("binokel", 1, 71)
    assert reason == "its %d points are yours" % cards.points(a - actions.BURY) == "its 4 points are yours"


def test_the_trump_named_says_what_the_hand_makes_against_the_bid():
    state, obs, _, a, reason = decision("binokel", 1, 74)
    assert actions.TRUMP <= a < actions.TRUMP + 4
    assert reason == "can make about 242 of %d" % obs.bid == "can make about 242 of 190"


# -- every hint of whole deals ------------------------------------------------------------

def test_every_hint_of_two_deals_fits_a_line_and_says_more_than_the_move():
    for rules in ("hoyle", "french", "binokel"):
        state = new_game(rules, 5)
        seats = [new_player(rules, p, "normal", 5) for p in range(state.PLAYERS)]
        helper = new_player(rules, 0, "hard", 77)
        seen = set()
        while state.deal_number <= 2 and not state.is_game_over():
            p = state.current_player()
            obs = state.observation(p)
            if p == 0 and len(obs.legal) > 1:
                a, reason = copy.deepcopy(helper).hint(obs)
                assert says_more(reason, state.describe(a))
                seen.add(reason.split()[0])
            if p == 0:
                helper.observe(obs)
            state.apply(seats[p].choose(obs))
        assert len(seen) >= 5, (rules, seen)          # several kinds of reason, not one
