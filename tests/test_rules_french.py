"""docs/rules.md `french`: one or more tests per numbered rule (what differs from `hoyle`)."""

import pytest

from engine import actions, cards
from engine.rules import new_game
from engine.state import PH_BETWEEN, PH_PLAY
from tests.device import helpers as H
from tests.scenarios import game as stacked, texts, melds_offered, win_trick, meld, play_first_legal, \
    finish_stock_phase

PLAIN = "AS AS AH AH AD AD TS TS TH TH TD TD"


def game(pone, turnup="TC", stock="", dealer=None, **options):
    return stacked(pone, turnup, stock, dealer, rules="french", **options)


def play_out_deal(state):
    while not state.is_deal_over():
        play_first_legal(state)


# -- rule 1: the game to 1500, no knocking ----------------------------------------------

def test_french_rule_1_target_1500_and_never_a_knock():
    state = new_game("french", 4)
    assert state.target == 1500
    rng = H.Rng(4)
    while state.deal_number < 3 and not state.is_game_over():
        assert actions.KNOCK not in state.legal_actions()
        state.apply(H.random_policy(rng, state))


def test_french_rule_1_target_option():
    assert new_game("french", 1, target=1000).target == 1000
    with pytest.raises(ValueError):
        new_game("french", 1, target=1234)


def _deal_gains():
    state = game(PLAIN)
    play_out_deal(state)
    return state.scores()


def _deal_from(start):
    state = game(PLAIN)
    state.score = list(start)
    play_out_deal(state)
    return state


def test_french_rule_1_higher_total_wins_once_a_player_reaches_1500():
    g = _deal_gains()
    assert g[0] != g[1]
    high = 0 if g[0] > g[1] else 1
    state = _deal_from((1500 - g[0], 1500 - g[1]))           # both reach 1500 exactly: a tie
    assert state.scores() == [1500, 1500] and state.phase == PH_BETWEEN and state.winner() == -1
    start = [1500, 1500]
    start[1 - high] += 1 + abs(g[0] - g[1])                   # the lower gainer ends one ahead
    state = _deal_from((start[0] - g[0], start[1] - g[1]))
    assert state.winner() == 1 - high
    state = _deal_from((1490, 0))                             # one reaches: he is also higher
    assert state.winner() == 0 and state.scores()[0] == 1490 + g[0]


def test_french_rule_1_nobody_at_the_target_deals_again():
    state = _deal_from((0, 0))
    assert state.phase == PH_BETWEEN and state.legal_actions() == [actions.DEAL]


# -- rule 2: announcements and the trump nine ---------------------------------------------

def test_french_rule_2_one_announcement_after_a_trick_before_drawing():
    state = game("KH QH AS AS AD AD AC AC TS TS TD TD", stock="JS 9S")
    win_trick(state, "AS")
    assert meld(state, "pair in hearts") == 20
    assert state.phase == PH_PLAY and state.hands[0][cards.parse("JS")] == 1


def test_french_rule_2_pair_then_family_but_not_family_then_pair():
    state = game("AH TH KH QH JH AS AS AD AD AC TS TD")
    win_trick(state, "AS")
    assert meld(state, "pair in hearts") == 20
    win_trick(state, "AS")
    assert meld(state, "family in hearts AH TH JH + KH QH from the table") == 100
    state = game("AH TH KH QH JH QH AS AS AD AD AC TS")
    win_trick(state, "AS")
    assert meld(state, "family in hearts") == 100
    win_trick(state, "AS")
    assert not melds_offered(state, "pair in hearts")


def test_french_rule_2_exchange_scores_ten_and_turned_up_nine_gives_dealer_ten():
    state = game("9C AS AS AH AH AD AD TS TS TH TH KD", turnup="AC")
    win_trick(state, "AS")
    H.act(state, "exchange")
    assert state.scores() == [10, 0] and cards.name(state.turnup) == "9C"
    assert game(PLAIN, turnup="9C").scores() == [0, 10]


# -- rule 3: the last draw ------------------------------------------------------------------

def test_french_rule_3_last_stock_card_shown_loser_takes_turnup():
    state = game(PLAIN, turnup="KC")
    finish_stock_phase(state)
    w = state.leader
    shown = state.shown_card
    assert shown >= 0
    assert state.observation(1 - w).shown_card == shown     # the opponent saw it
    assert state.turnup_taken == (1 - w, cards.parse("KC"))
    assert state.observation(w).turnup_taker == (1 - w, cards.parse("KC"))


def test_french_rule_3_hoyle_shows_no_card():
    state = stacked(PLAIN, turnup="KC")
    finish_stock_phase(state)
    assert state.shown_card == -1


# -- rule 4: the French meld table --------------------------------------------------------

@pytest.mark.parametrize("pone, turnup, name, points", [
    ("KH QH AS AS AD AD AC AC TS TS TD TD", "JC", "pair in hearts", 20),
    ("KC QC AS AS AD AD AH AH TS TS TD TD", "JD", "pair in clubs", 20),
    ("KC QC AS AS AD AD AH AH TS TS TD TD", "JC", "trump pair", 40),
    ("AH TH KH QH JH AS AS AD AD AC TS TD", "JC", "family in hearts", 100),
    ("AC TC KC QC JC AS AS AD AD AH TS TD", "9C", "trump family", 150),
    ("AC AC TC TC KC KC QC QC JC JC AS AS", "9C", "double trump family", 1500),
    ("QS JD AS AS AD AD AH AH TS TS TD TH", "JC", "binocle", 40),
    ("QS QS JD JD AS AS AD AD AH AH TS TD", "JC", "double binocle", 300),
    ("AS AH AD AC TS TS TD TD TH TH KD KH", "JC", "four aces", 100),
    ("KS KH KD KC AS AS AD AD AH AH TS TD", "JC", "four kings", 80),
    ("QS QH QD QC AS AS AD AD AH AH TS TD", "JC", "four queens", 60),
    ("JS JH JD JC AS AS AD AD AH AH TS TD", "9C", "four jacks", 40),
    ("KS KH KD KC QS QH QD QC AS AS AD TD", "JC", "round", 240),
    ("AS AS AH AH AD AD AC AC TS TS TD TD", "JC", "eight aces", 1000),
    ("KS KS KH KH KD KD KC KC AS AS AD AD", "JC", "eight kings", 1000),
    ("QS QS QH QH QD QD QC QC AS AS AD AD", "JC", "eight queens", 1000),
    ("JS JS JH JH JD JD JC JC AS AS AD AD", "9C", "eight jacks", 1000),
    ("9C AS AS AH AH AD AD TS TS TH TH KD", "JC", "trump nine", 10),
])
def test_french_rule_4_meld_values(pone, turnup, name, points):
    state = game(pone, turnup=turnup)
    win_trick(state, "TS" if "aces" in name else "AS")
    assert meld(state, name + " ") == points


def test_french_rule_4_round_after_four_kings_extends_it():
    state = game("KS KH KD KC QS QH QD QC AS AS AD TD", turnup="JC")
    win_trick(state, "AS")
    assert meld(state, "four kings") == 80
    win_trick(state, "AS")
    assert meld(state, "round QS QH QD QC + KS KH KD KC from the table") == 240
    win_trick(state, "AD")
    assert not melds_offered(state, "four queens")


def test_french_rule_4_trump_family_then_double_trump_family():
    state = game("AC AC TC TC KC KC QC QC JC JC AS AS", turnup="9C")
    win_trick(state, "AS")
    assert meld(state, "trump family") == 150
    win_trick(state, "AS")
    assert meld(state, "double trump family AC TC KC QC JC + AC TC KC QC JC from the table") == 1500


def test_french_rule_4_trump_nine_scores_once_by_exchange_or_alone():
    state = game("9C 9C AS AS AH AH AD AD TS TS TH KD", turnup="AC")
    win_trick(state, "AS")
    assert "exchange the trump nine for the turn-up" in texts(state)
    assert meld(state, "trump nine 9C") == 10
    assert state.tables[0].count() == 1                      # shown on the table
    win_trick(state, "AS")
    H.act(state, "exchange")                                 # the other nine
    assert state.scores()[0] == 20 and state.spent9[0] == 0
    win_trick(state, "AH")
    assert "exchange the trump nine for the turn-up" not in texts(state)
    assert not melds_offered(state, "trump nine")


def test_french_rule_4_exchanged_nine_cannot_be_announced_again():
    state = game("9C AS AS AH AH AD AD TS TS TH TH KD", turnup="9C")
    assert state.scores() == [0, 10]                         # dealer's turned-up nine
    win_trick(state, "AS")
    H.act(state, "exchange")                                 # the pone gets the spent nine
    assert state.spent9[0] == 1
    win_trick(state, "AS")
    assert not melds_offered(state, "trump nine") and "exchange" not in " ".join(texts(state))
