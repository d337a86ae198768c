"""Hint reasons (engine/ai/why.py): what the AI weighed, in one short line, for every kind of decision.

Each position is a seeded game (tests/test_ai.py's way: normal seats play, a hard
adviser for seat 0 sees each of seat 0's observations) or a stacked deal
(tests/scenarios.py); where the rules fix the figure the reason names, the test
works it out from the game state itself.
"""

import copy
import os
import subprocess
import sys

from engine import actions, cards, melds, tricks
from engine.ai import new_player, bidding
from engine.ai.endgame import Solver
from engine.rules import new_game
from engine.state import PH_PLAY, PH_KNOCK
from tests import scenarios
from tests.device import helpers as H

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINE = 26
_VERBS = ("lead", "play", "bury", "meld", "knock", "pass", "bid")


def fits_and_says_more(reason, action_text):
    """One line of the screen (two at most), and not the move restated."""
    assert reason and "\n" not in reason and len(reason) <= 2 * LINE, reason
    assert reason != action_text
    words = reason.replace(":", " ").replace(",", " ").split()
    assert not (words and words[0] in _VERBS), reason
    return True


_GAMES = {}


def decision(rules, seed, index):
    """(state, obs, adviser, action, reason) at decision number `index` of a seeded game
    (it must be seat 0's); the adviser is the copy that answered, its scratch still in place."""
    state = new_game(rules, seed)
    seats = [new_player(rules, p, "normal", seed) for p in range(state.PLAYERS)]
    helper = new_player(rules, 0, "hard", 77)
    for n in range(index + 1):
        p = state.current_player()
        obs = state.observation(p)
        if n == index:
            assert p == 0
            adviser = copy.deepcopy(helper)
            action, reason = adviser.hint(obs)
            return state, obs, adviser, action, reason
        if p == 0:
            helper.memory.update(obs)
        state.apply(seats[p].choose(obs))


def own(state, p, f):
    """Copies of face f seat p holds, hand and table (two hands)."""
    n = state.hands[p][f]
    for r in state.tables[p].recs:
        n += (r & 31) == f
    return n


def unseen(state, p, f):
    """Copies of f neither in seat p's hand or table nor in a trick taken (two hands)."""
    pack = 2 if cards.rank_of(f) >= cards.lowest_rank(state.pack64) else 0
    return pack - own(state, p, f) - state.won[0][f] - state.won[1][f]


# -- card play: lead --------------------------------------------------------------------------

def test_a_trump_lead_says_how_many_trumps_are_still_out():
    state, obs, _, a, reason = decision("hoyle", 1, 8)
    f = actions.play_face(a)
    assert not obs.trick and f >> 3 == obs.trump
    out = sum(unseen(state, 0, obs.trump * 8 + r) for r in range(8))
    assert reason == "draws trumps: %d still out" % out
    assert fits_and_says_more(reason, state.describe(a)) and len(reason) <= LINE


def test_a_top_card_lead_says_nothing_higher_is_out():
    state, obs, _, a, reason = decision("hoyle", 3, 18)
    f = actions.play_face(a)
    assert not obs.trick and f >> 3 != obs.trump
    assert all(unseen(state, 0, g) == 0 for g in range(f + 1, (f | 7) + 1))
    assert reason == "nothing higher is out"


def test_a_low_lead_names_the_meld_card_it_spares():
    state, obs, _, a, reason = decision("hoyle", 1, 0)
    f = actions.play_face(a)
    assert reason == "keeps QH for four queens"      # "; risks only 0" would not fit
    assert f != cards.parse("QH") and cards.points(f) == 0
    queens = sum(1 for s in range(4) if own(state, 0, s * 8 + cards.RQ))
    assert own(state, 0, cards.parse("QH")) and queens >= 3


def test_a_ten_led_while_its_ace_is_out_says_so():
    state, obs, _, a, reason = decision("hoyle", 1, 20)
    f = actions.play_face(a)
    assert cards.rank_of(f) == cards.RT and unseen(state, 0, f | 7) > 0
    assert reason == "unguarded ten: likely lost"


# -- card play: follow -------------------------------------------------------------------------

def test_winning_the_trick_names_its_points_and_the_meld_it_opens():
    # Pone leads KS; the dealer wins with TS (4 + 10) and may then lay the royal marriage (40).
    state = scenarios.game("KS 9H 9D 9C JH JD JC 9H JH 9D JD 9C", turnup="TC",
                           dealer="TS AS QH KH AH JS 9S QD KD KC QC AD")
    state.apply(cards.parse("KS"))
    a, reason = new_player("hoyle", 1, "hard", 1).hint(state.observation(1))
    assert a == cards.parse("TS")
    assert reason == "wins 14 points, melds 40"


def test_winning_a_binokel_trick_names_its_points():
    state, obs, _, a, reason = decision("binokel", 1, 51)
    f = actions.play_face(a)
    assert len(obs.trick) == 2
    best = obs.trick[tricks.winning_index(obs.trick, 2, obs.trump)]
    assert tricks.beats(f, best, obs.trump)
    assert reason == "wins the trick: %d points" % (sum(cards.points(g) for g in obs.trick) + cards.points(f))


def test_a_card_that_cannot_win_names_the_winner_and_what_it_gives():
    state, obs, _, a, reason = decision("hoyle", 1, 4)
    f = actions.play_face(a)
    best = obs.trick[0]
    assert not any(tricks.beats(actions.play_face(b), best, obs.trump) for b in obs.legal)
    assert reason == "can't beat %s: gives %d" % (cards.name(best), cards.points(f))


def test_a_duck_names_the_card_it_saves_and_why():
    # Pone leads 9S (no points); the dealer could trump with AC but keeps it: with AH and AD
    # it may make four aces while the stock lasts.
    state = scenarios.game("9S 9S JS JS QS QS KS KS 9C 9C JC JC", turnup="TC",
                           dealer="AC 9H 9D 9H 9D JH JD JH JD AH TH AD")
    state.apply(cards.parse("9S"))
    a, reason = new_player("hoyle", 1, "hard", 1).hint(state.observation(1))
    f = actions.play_face(a)
    assert not tricks.beats(f, cards.parse("9S"), state.trump)
    assert reason == "keeps AC for four aces"
    assert fits_and_says_more(reason, state.describe(a))


# -- card play: the exact endgame and rollouts -----------------------------------------------------

def test_a_solved_endgame_gives_the_proven_points():
    state, obs, adviser, a, reason = decision("hoyle", 1, 42)
    assert obs.turnup < 0
    value, move, exact = Solver(12).solve(state.hands[0], state.hands[1], state.trump, state.leader,
                                          bytearray(state.trick), state.trick_n, 10 ** 7)
    assert exact
    left = 10 + sum(cards.points(f) * (state.hands[0][f] + state.hands[1][f]) for f in range(32))
    left += sum(cards.points(state.trick[i]) for i in range(state.trick_n))
    assert reason == "solved: takes %d of %d" % (value, left)


def test_a_played_out_card_gives_its_net_points_or_its_margin():
    # Hoyle after the stock, too many cards left to solve: the deal is played to the end.
    state, obs, adviser, a, reason = decision("hoyle", 1, 31)
    ch = adviser.chooser
    runs = adviser.samples(obs)
    assert obs.turnup < 0 and adviser.ctx.rollout is not None and runs == 1     # the only deal left
    f = actions.play_face(a)
    assert reason.startswith("played out: nets %+d" % (ch.totals[f] // runs))
    assert fits_and_says_more(reason, state.describe(a))
    # Binokel: the margin over the next best card, in the seat's deal result.
    state, obs, adviser, a, reason = first(lambda obs, a, why: "over" in why, "binokel", 1)
    ch = adviser.chooser
    runs = adviser.samples(obs)
    f = actions.play_face(a)
    other = cards.parse(reason.split()[-1])
    margin = ch.totals[f] // runs - ch.totals[other] // runs
    assert margin > 0 and reason == "played out: %d over %s" % (margin, cards.name(other))
    assert all(ch.totals[g] // runs <= ch.totals[other] // runs for g in ch.candidates(obs) if g != f)


# -- announcements and the turn-up (two hands) --------------------------------------------------

def test_the_biggest_meld_says_so():
    # Pone wins the first trick holding the whole trump sequence: 150 beats the royal marriage's 40
    # (and the 40 + 150 later would need another trick won).
    state = scenarios.game("AC TC KC QC JC AS 9D 9H JH 9D JD 9S", turnup="9C")
    state.apply(cards.parse("AS"))
    state.apply(state.legal_actions()[0])
    a, reason = new_player("hoyle", 0, "hard", 1).hint(state.observation(0))
    assert state.describe(a) == "meld sequence AC TC KC QC JC"
    assert reason == "the biggest meld: 150"


def test_a_small_meld_first_names_the_bigger_one_it_grows_into():
    state, obs, adviser, a, reason = decision("hoyle", 1, 19)
    assert state.describe(a).startswith("meld binocle")
    assert reason == "40 now, grows into 80"         # the grand binocle, KS added (RULES.md hoyle 6)


def test_a_lone_meld_says_what_it_scores_and_why_now():
    state, obs, adviser, a, reason = decision("hoyle", 1, 10)
    assert state.describe(a) == "meld marriage in spades KS QS"
    assert reason == "20 while the stock lasts"


def test_the_exchange_names_the_turn_up_it_takes():
    state, obs, adviser, a, reason = decision("hoyle", 1, 7)
    assert a == actions.EXCHANGE
    assert reason == "scores 10 and takes %s" % cards.name(obs.turnup)


# -- knocking (hoyle) -------------------------------------------------------------------------

def test_knocking_and_not_knocking_give_the_count_against_the_game():
    said = set()
    for seed in range(12):
        state = new_game("hoyle", seed)
        seats = [new_player("hoyle", p, "normal", seed) for p in range(2)]
        while not state.is_game_over() and len(said) < 2:
            p = state.current_player()
            obs = state.observation(p)
            if actions.KNOCK in obs.legal and len(obs.legal) > 1:
                a, reason = copy.deepcopy(seats[p]).hint(obs)
                count = state.score[p] + state.cardpts[p]
                if a == actions.KNOCK:
                    assert reason == "your %d reaches %d" % (count, state.target)
                    said.add(a)
                elif obs.phase == PH_KNOCK:            # the last call to knock (else a card is played)
                    assert reason == "your %d is short of %d" % (count, state.target)
                    said.add(a)
            state.apply(seats[p].choose(obs))
        if len(said) == 2:
            break
    assert said == {actions.KNOCK, actions.PASS}


# -- binokel before the first trick ---------------------------------------------------------------

def test_a_bid_and_a_pass_give_the_hand_s_value():
    state, obs, _, a, reason = decision("binokel", 1, 1)
    assert a == actions.PASS
    assert reason == "worth %d, short of %d" % (bidding.best_trump(obs.hand)[1], obs.bid + 10)
    state, obs, _, a, reason = decision("binokel", 1, 67)
    assert a == actions.BID
    assert reason == "hand worth about %d" % bidding.best_trump(obs.hand)[1]


def test_burying_names_the_points_banked_and_the_melds_kept():
    state, obs, _, a, reason = decision("binokel", 1, 71)
    f = a - actions.BURY
    hand = bytearray(obs.hand)
    hand[f] -= 1
    trump = bidding.best_trump(bytearray(obs.hand))[0]
    assert reason == "banks %d; melds %d kept" % (cards.points(f), melds.best_total(hand, trump))
    assert cards.points(f) and cards.rank_of(f) != cards.RT
    assert fits_and_says_more(reason, state.describe(a))


def test_naming_trump_gives_the_estimate_against_the_bid():
    state, obs, adviser, a, reason = decision("binokel", 1, 74)
    assert actions.TRUMP <= a < actions.TRUMP + 4
    assert reason == "about %d to make %d" % (bidding.contract(obs)[1], obs.bid)
    # Surrender (engine/ai/binokel.py's _WHY_CONTRACT, 6), worded for the same seat: a hand
    # the AI bid on comes to surrender rarely in play.
    assert adviser.explained(6, obs, actions.SURRENDER + 1, 150) == "only about 150 of %d" % obs.bid


def test_durch_says_every_card_is_a_winner():
    # Forehand holds the aces and tens, the Dabb a ten and both kings of spades: whatever three
    # it buries, nothing higher than any card it keeps is outside its hand.
    deck = H.binokel_deck("AS AS TS TS AH AH TH TH AD AD TD TD AC AC TC",
                          "QS QS JS JS 9S 9S KH KH QH QH JH JH 9H 9H KD",
                          "KD QD QD JD JD 9D 9D KC KC QC QC JC JC 9C 9C", "TC KS KS")
    state = new_game("binokel", 1, deck=deck, dealer=2)
    seats = [new_player("binokel", p, "hard", 1) for p in range(3)]
    said = []
    while state.phase != PH_PLAY:
        p = state.current_player()
        obs = state.observation(p)
        a, reason = copy.deepcopy(seats[p]).hint(obs)
        if p == 0:
            said.append((a, reason))
            if actions.BURY <= a < actions.BURY + 32:
                assert reason == "banks %d; melds 1000 kept" % cards.points(a - actions.BURY)  # eight aces
        state.apply(seats[p].choose(obs))
    assert said[-1] == (actions.DURCH, "every card is a winner")
    assert bidding.durch_safe(state.observation(0).hand)


# -- every decision of a few games ------------------------------------------------------------------

def test_every_reason_fits_the_screen_and_says_more_than_the_move():
    for rules in ("hoyle", "french", "binokel"):
        state = new_game(rules, 2)
        seats = [new_player(rules, p, "normal", 2) for p in range(state.PLAYERS)]
        helper = new_player(rules, 0, "hard", 77)
        short = total = 0
        while not state.is_game_over() and state.deal_number <= 2:
            p = state.current_player()
            obs = state.observation(p)
            if p == 0:
                a, reason = copy.deepcopy(helper).hint(obs)
                helper.memory.update(obs)
                assert fits_and_says_more(reason, state.describe(a))
                # The app shows a ten as 10 (TH: 10H): a capital T is only ever a ten's name.
                assert all(w[0] != "T" or (len(w) == 2 and w[1] in "SHDC") for w in reason.replace(
                    ",", " ").replace(";", " ").replace(":", " ").split()), reason
                if actions.is_play(a) and len(obs.legal) > 1:
                    assert cards.name(actions.play_face(a)) not in reason.split(), reason
                total += 1
                short += len(reason) <= LINE
            state.apply(seats[p].choose(obs))
        assert short == total, rules


def test_an_ai_seat_never_words_a_reason_nor_loads_the_wording():
    code = """
import sys
from engine.rules import new_game
from engine.ai import new_player
from engine.state import PH_BETWEEN
for rules in ("hoyle", "binokel"):
    state = new_game(rules, seed=3)
    seats = [new_player(rules, p, "hard", seed=p + 1) for p in range(state.PLAYERS)]
    while state.phase != PH_BETWEEN and not state.is_game_over():
        p = state.current_player()
        state.apply(seats[p].choose(state.observation(p)))
        assert seats[p].why in ("", "the only choice"), seats[p].why
print("engine.ai.why" in sys.modules)
state = new_game("hoyle", seed=4)
p = state.current_player()
new_player("hoyle", p, "hard", seed=1).hint(state.observation(p))
print("engine.ai.why" in sys.modules)
"""
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["False", "True"]


def first(pred, rules, seed):
    """The first of seat 0's decisions in a seeded game (two deals) whose hint satisfies pred."""
    state = new_game(rules, seed)
    seats = [new_player(rules, p, "normal", seed) for p in range(state.PLAYERS)]
    helper = new_player(rules, 0, "hard", 77)
    while not state.is_game_over() and state.deal_number <= 2:
        p = state.current_player()
        obs = state.observation(p)
        if p == 0:
            adviser = copy.deepcopy(helper)
            a, why = adviser.hint(obs)
            if pred(obs, a, why):
                return state, obs, adviser, a, why
            helper.memory.update(obs)
        state.apply(seats[p].choose(obs))
    raise AssertionError("no such decision")
