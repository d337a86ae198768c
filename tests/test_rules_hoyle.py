"""docs/rules.md `hoyle`: one or more tests per numbered rule, and every consequence of rule 6.

Deals are stacked with tests/scenarios.py: seat 1 deals, so seat 0 is the
pone, who leads first.
"""

import pytest

from engine import actions, cards, tricks
from engine.rules import new_game
from engine.state import IllegalAction, PH_ANNOUNCE, PH_BETWEEN, PH_KNOCK, PH_PLAY
from engine.twohand import NOTE_TARGET_RAISED
from tests.device import helpers as H
from tests.scenarios import game, texts, melds_offered, losing_card, win_trick, meld, play_first_legal, \
    finish_stock_phase

PLAIN = "AS AS AH AH AD AD TS TS TH TH TD TD"


# -- rule 1: the deal -----------------------------------------------------------------

def test_hoyle_rule_1_twelve_cards_each_turnup_and_stock():
    state = new_game("hoyle", 3)
    assert [cards.count(h) for h in state.hands] == [12, 12]
    assert state.stock_left() == 23 and state.turnup >= 0
    assert state.trump == state.turnup >> 3
    assert state.current_player() == 1 - state.dealer      # the pone leads
    big = new_game("hoyle", 3, pack64=True)
    assert [cards.count(h) for h in big.hands] == [12, 12] and big.stock_left() == 39


def test_hoyle_rule_1_pone_gets_cards_first_four_at_a_time():
    deck = H.two_hand_deck("AS AS TS TS KH KH QH QH JD JD 9C 9C",
                           "AH AH TH TH KD KD QD QD JC JC 9S 9S", "KC")
    assert deck[:4] == cards.parse_many("AS AS TS TS") and deck[4:8] == cards.parse_many("AH AH TH TH")
    state = new_game("hoyle", 1, deck=deck, dealer=1)
    assert cards.format_counts(state.hands[0]) == "AS AS TS TS KH KH QH QH JD JD 9C 9C"
    assert cards.name(state.turnup) == "KC"


def test_hoyle_rule_1_turned_up_nine_scores_dix_for_the_dealer():
    assert game(PLAIN, turnup="9C").scores() == [0, 10]
    assert game(PLAIN, turnup="JC").scores() == [0, 0]


def test_hoyle_rule_1_with_64_cards_the_seven_is_dix():
    assert game(PLAIN, turnup="7C", pack64=True).scores() == [0, 10]
    assert game(PLAIN, turnup="9C", pack64=True).scores() == [0, 0]


def test_hoyle_rule_1_first_dealer_random_then_alternating():
    assert {new_game("hoyle", seed).dealer for seed in range(20)} == {0, 1}
    state = new_game("hoyle", 8)
    first = state.dealer
    while not state.is_deal_over():
        play_first_legal(state)
    assert state.deal_number == 1 and state.phase == PH_BETWEEN
    state.apply(actions.DEAL)
    assert state.dealer == 1 - first and state.current_player() == first


# -- rule 2: the stock phase ----------------------------------------------------------

def test_hoyle_rule_2_no_need_to_follow_or_trump_while_stock_lasts():
    state = game(PLAIN)
    H.act(state, "play AH")
    follows = sorted(a for a in state.legal_actions() if actions.is_play(a))
    assert follows == sorted(f for f in range(32) if state.hands[1][f])


def test_hoyle_rule_2_winner_announces_once_then_draws_first():
    state = game("KS QS AS AS AH AH AD AD TS TS TH TH", stock="JH QH")
    win_trick(state, "AS")
    assert state.phase == PH_ANNOUNCE and state.current_player() == 0
    assert meld(state, "marriage in spades") == 20
    assert state.phase == PH_PLAY and state.current_player() == 0   # one announcement, then play
    assert state.hands[0][cards.parse("JH")] == 1                   # the winner drew the top card
    assert state.hands[1][cards.parse("QH")] == 1                   # then the loser
    assert state.stock_left() == 21


def test_hoyle_rule_2_last_draw_winner_takes_stock_loser_the_turnup():
    state = game(PLAIN, turnup="KC")
    while state.stock_left() > 1 or state.phase != PH_PLAY or state.trick_n:
        play_first_legal(state)
    last = state.stock[state.stock_pos]
    leader = state.leader
    before = [bytearray(h) for h in state.hands]
    play_first_legal(state)
    play_first_legal(state)
    if state.phase == PH_ANNOUNCE:
        state.apply(actions.PASS)
    w = state.leader
    assert not state.in_stock_phase() and state.stock_left() == 0
    assert state.turnup_taken == (1 - w, cards.parse("KC"))
    for p, gets in ((w, last), (1 - w, cards.parse("KC"))):
        played = state.last_trick[0 if p == leader else 1]
        want = bytearray(before[p])
        want[played] -= 1
        want[gets] += 1
        assert state.hands[p] == want
        assert cards.count(state.hands[p]) == 12


def test_hoyle_rule_2_no_melds_after_the_last_draw():
    state = game("KS QS KH QH KD QD AS AH AD AC TS TH")
    finish_stock_phase(state)
    assert state.tricks_won[0] + state.tricks_won[1] == 12
    while not state.is_deal_over():
        assert state.phase != PH_ANNOUNCE
        assert not any(actions.is_meld(a) or a == actions.EXCHANGE for a in state.legal_actions())
        play_first_legal(state)


# -- rule 3: melded cards lie on the table --------------------------------------------

def test_hoyle_rule_3_melded_cards_visible_playable_and_taken_back():
    state = game("KS QS AS AS AH AH AD AD TS TS TH TH")
    win_trick(state, "AS")
    meld(state, "marriage in spades")
    opp_view = state.observation(1)
    assert sorted(r & 31 for r in opp_view.tables[0]) == sorted(cards.parse_many("KS QS"))
    assert state.hands[0][cards.parse("KS")] == 0 and opp_view.hand_sizes == (12, 12)
    H.act(state, "play KS from table")
    assert state.tables[0].count() == 1
    finish_stock_phase(state)
    assert state.tables[0].count() == 0 and state.tables[1].count() == 0
    assert cards.count(state.hands[0]) == cards.count(state.hands[1]) == 12


# -- rule 4: dix ----------------------------------------------------------------------------

def test_hoyle_rule_4_exchange_the_nine_for_the_turnup():
    state = game("9C AS AS AH AH AD AD TS TS TH TH KD", turnup="AC")
    win_trick(state, "AS")
    assert "exchange the trump nine for the turn-up" in texts(state)
    H.act(state, "exchange")
    assert state.scores()[0] == 10
    assert cards.name(state.turnup) == "9C" and state.hands[0][cards.parse("AC")] == 1
    assert state.phase == PH_PLAY            # the exchange was the one announcement


def test_hoyle_rule_4_second_nine_exchanged_for_the_first_also_scores():
    state = game("9C AS AS AH AH AD TD TS TS TH TH KD", turnup="AC",
                 dealer="9C AD 9S JS JS 9D 9D JD JD 9H 9H JH")
    win_trick(state, "AS")
    H.act(state, "exchange")
    H.play(state, "KD AD")                   # the dealer wins a trick
    assert state.leader == 1 and state.phase == PH_ANNOUNCE
    H.act(state, "exchange")
    assert state.scores() == [10, 10]
    assert cards.name(state.turnup) == "9C"
    assert state.hands[1][cards.parse("9C")] == 1 and state.spent9[1] == 1
    assert not state.can_exchange(0) and not state.can_exchange(1)   # each nine scores once


def test_hoyle_rule_4_turned_up_nine_may_still_be_exchanged():
    state = game("9C AS AS AH AH AD AD TS TS TH TH KD", turnup="9C")
    assert state.scores() == [0, 10]
    win_trick(state, "AS")
    H.act(state, "exchange")
    assert state.scores() == [10, 10] and not state.can_exchange(0)


def test_hoyle_rule_4_sixty_four_cards_exchange_the_seven():
    state = game("7C AS AS AH AH AD AD TS TS TH TH KD", turnup="AC", pack64=True)
    win_trick(state, "AS")
    H.act(state, "exchange")
    assert state.scores()[0] == 10 and cards.name(state.turnup) == "7C"


def test_hoyle_rule_4_exchange_and_meld_not_both_after_one_trick():
    state = game("9C KH QH AS AS AH AD AD TS TS TH KD", turnup="AC")
    win_trick(state, "AS")
    assert "exchange the trump nine for the turn-up" in texts(state) and melds_offered(state, "marriage")
    H.act(state, "exchange")
    assert state.phase == PH_PLAY and state.scores()[0] == 10


# -- rule 5: the meld table -----------------------------------------------------------------

@pytest.mark.parametrize("pone, name, points", [
    ("KH QH AS AS AD AD AC AC TS TS TD TD", "marriage in hearts", 20),
    ("KC QC AS AS AD AD AH AH TS TS TD TD", "royal marriage", 40),
    ("AC TC KC QC JC AS AS AD AD AH TS TD", "sequence", 150),
    ("QS JD AS AS AD AD AH AH TS TS TD TH", "binocle", 40),
    ("QS QS JD JD AS AS AD AD AH AH TS TD", "double binocle", 80),
    ("KS QS JD AS AS AD AD AH AH TS TD TH", "grand binocle", 80),
    ("AS AH AD AC TS TS TD TD TH TH KD KH", "four aces", 100),
    ("KS KH KD KC AS AS AD AD AH AH TS TD", "four kings", 80),
    ("QS QH QD QC AS AS AD AD AH AH TS TD", "four queens", 60),
    ("JS JH JD JC AS AS AD AD AH AH TS TD", "four jacks", 40),
    ("AS AS AH AH AD AD AC AC TS TS TD TD", "eight aces", 200),
    ("KS KS KH KH KD KD KC KC AS AS AD AD", "eight kings", 160),
    ("QS QS QH QH QD QD QC QC AS AS AD AD", "eight queens", 120),
    ("JS JS JH JH JD JD JC JC AS AS AD AD", "eight jacks", 80),
])
def test_hoyle_rule_5_meld_values(pone, name, points):
    state = game(pone, turnup="9C" if name == "sequence" else "JC" if "JC" not in pone else "9C")
    win_trick(state, "TS" if "aces" in name else "AS")
    assert meld(state, name + " ") == points


def test_hoyle_rule_5_grand_binocle_is_an_option():
    pone = "KS QS JD AS AS AD AD AH AH TS TD TH"
    state = game(pone, grand_binocle=False)
    win_trick(state, "AS")
    assert not melds_offered(state, "grand binocle") and melds_offered(state, "binocle")
    state = game(pone)
    win_trick(state, "AS")
    assert melds_offered(state, "grand binocle")


# -- rule 6: what makes an announcement legal ------------------------------------------------

def test_hoyle_rule_6_royal_marriage_then_sequence_is_legal():
    state = game("AC TC KC QC JC AS AS AD AD AH TS TD", turnup="9H", stock="9S 9S 9D 9D")
    state = game("AC TC KC QC JC AS AS AD AD AH TS TD", turnup="JC")
    win_trick(state, "AS")
    assert meld(state, "royal marriage") == 40
    win_trick(state, "AS")
    assert melds_offered(state, "sequence") == ["meld sequence AC TC JC + KC QC from the table"]
    assert meld(state, "sequence AC TC JC + KC QC") == 150


def test_hoyle_rule_6_sequence_then_royal_marriage_is_not():
    state = game("AC TC KC QC JC QC AS AS AD AD AH TS", turnup="JC")
    win_trick(state, "AS")
    assert meld(state, "sequence") == 150
    win_trick(state, "AS")
    assert not melds_offered(state, "royal marriage")   # a new QC with the sequence's KC


def test_hoyle_rule_6_binocle_then_double_binocle_is_legal():
    state = game("QS QS JD JD AS AS AD AD AH AH TS TD")
    win_trick(state, "AS")
    assert meld(state, "binocle QS JD") == 40
    win_trick(state, "AS")
    assert meld(state, "double binocle QS JD + QS JD from the table") == 80


def test_hoyle_rule_6_double_binocle_then_single_is_not():
    state = game("QS QS JD JD AS AS AD AD AH AH TS TD")
    win_trick(state, "AS")
    assert meld(state, "double binocle") == 80
    win_trick(state, "AS")
    assert not melds_offered(state, "binocle")


def test_hoyle_rule_6_two_single_binocles_then_no_double():
    state = game("QS QS JD JD AS AS AD AD AH AH TS TD")
    win_trick(state, "AS")
    assert meld(state, "binocle QS JD") == 40
    win_trick(state, "AS")
    assert melds_offered(state, "binocle") == ["meld binocle QS JD"]   # fresh cards only
    assert meld(state, "binocle QS JD") == 40
    win_trick(state, "AD")
    assert not melds_offered(state, "double binocle")


def test_hoyle_rule_6_four_kings_then_eight_kings_scores_both():
    state = game("KS KS KH KH KD KD KC KC AS AS AD AD")
    win_trick(state, "AS")
    assert meld(state, "four kings KS KH KD KC") == 80
    win_trick(state, "AS")
    assert meld(state, "eight kings KS KH KD KC + KS KH KD KC from the table") == 160
    assert state.scores()[0] == 240


def test_hoyle_rule_6_eight_kings_first_never_the_four():
    state = game("KS KS KH KH KD KD KC KC AS AS AD AD")
    win_trick(state, "AS")
    assert meld(state, "eight kings") == 160
    win_trick(state, "AS")
    assert not melds_offered(state, "four kings")


def test_hoyle_rule_6_broken_four_kings_cannot_be_formed_again():
    state = game("KS KS KH KD KC AS AS AD AD AH TS TD")
    win_trick(state, "AS")
    assert meld(state, "four kings KS KH KD KC") == 80
    H.act(state, "play KS from table")
    state.apply(losing_card(state, 1))
    assert state.leader == 0 and state.hands[0][cards.parse("KS")] == 1
    if state.phase == PH_ANNOUNCE:
        assert not melds_offered(state, "four kings")    # the new KS and the three left
        state.apply(actions.PASS)
    win_trick(state, "AS")
    assert not melds_offered(state, "four kings")


def test_hoyle_rule_6_married_queen_whose_king_was_played_marries_no_new_king():
    state = game("KH KH QH AS AS AD AD AC TS TS TD TC")
    win_trick(state, "AS")
    assert meld(state, "marriage in hearts KH QH") == 20
    H.act(state, "play KH from table")
    state.apply(losing_card(state, 1))
    if state.phase == PH_ANNOUNCE:
        assert not melds_offered(state, "marriage in hearts")
        state.apply(actions.PASS)
    win_trick(state, "AS")
    assert state.hands[0][cards.parse("KH")] == 1
    assert not melds_offered(state, "marriage in hearts")


def test_hoyle_rule_6_four_kings_and_four_queens_make_at_most_220():
    # Seed 000's worked case. The pone draws TS TH TD TC, the dealer 9S 9S 9H 9H.
    state = game("KS KH KD KC QS QH QD QC AS AS AH AD", turnup="JC", stock="TS 9S TH 9S TD 9H TC 9H")
    total = 0
    for text, lead in (("four kings", "AS"), ("royal marriage", "AS"), ("marriage in spades", "AH"),
                       ("marriage in hearts", "AD")):
        win_trick(state, lead)
        total += meld(state, text)
    assert total == 80 + 40 + 20 + 20
    # Only QD of the eight is still concealed: it makes the fourth marriage or four queens, not both.
    win_trick(state, "TS")
    assert sorted(melds_offered(state, "four queens") + melds_offered(state, "marriage in diamonds")) == [
        "meld four queens QD + QS QH QC from the table", "meld marriage in diamonds QD + KD from the table"]
    total += meld(state, "four queens")
    assert total == 220
    win_trick(state, "TH")
    assert not melds_offered(state, "marriage in diamonds")


def test_hoyle_rule_6_one_card_in_three_classes():
    state = game("KS QS JD QH QD QC AS AS AD AD AC AC", turnup="JH")
    win_trick(state, "AS")
    assert meld(state, "marriage in spades KS QS") == 20
    win_trick(state, "AS")
    assert meld(state, "binocle JD + QS from the table") == 40
    win_trick(state, "AD")
    assert meld(state, "four queens QH QD QC + QS from the table") == 60


def test_hoyle_rule_6_a_meld_needs_a_fresh_card():
    state = game("KS KH KD KC QS QH QD QC AS AS AH AD", turnup="JC")
    win_trick(state, "AS")
    meld(state, "four kings")
    win_trick(state, "AS")
    meld(state, "four queens")
    win_trick(state, "AH")
    # Every marriage would use a king and a queen already on the table.
    assert not [t for t in texts(state) if "marriage" in t]


# -- rule 7: the last twelve tricks -------------------------------------------------------

def _follow(hand_text, led_text, trump):
    out = []
    trick = bytearray(cards.parse_many(led_text))
    tricks.legal_follow(cards.counts_of(cards.parse_many(hand_text)), trick, len(trick), trump, out)
    return cards.format_faces(out)


def test_hoyle_rule_7_follow_suit_and_win_if_possible():
    assert _follow("9H KH AH AS 9C", "TH", cards.SUIT_C) == "AH"
    assert _follow("9H QH AS 9C", "TH", cards.SUIT_C) == "9H QH"      # cannot win: any heart
    assert _follow("TH AS 9C", "TH", cards.SUIT_C) == "TH"             # the same card does not win


def test_hoyle_rule_7_void_must_trump_else_anything():
    assert _follow("AS 9C JC", "TH", cards.SUIT_C) == "9C JC"
    assert _follow("AS KD", "TH", cards.SUIT_C) == "AS KD"
    assert _follow("9C AC AS", "TC", cards.SUIT_C) == "AC"             # trump led: overtrump


def _rule_7_by_the_text(hand, led, trump):
    """rules.md hoyle 7 written out directly, for two players."""
    held = [f for f in range(32) if hand[f]]
    suit = [f for f in held if f >> 3 == led >> 3]
    if suit:
        higher = [f for f in suit if f & 7 > led & 7]
        return higher or suit
    trumps = [f for f in held if f >> 3 == trump]
    return trumps or held


def test_hoyle_rule_7_every_follow_in_random_deals_obeys_the_rule():
    checked = 0
    for seed in range(60):
        state = new_game("hoyle", seed)
        rng = H.Rng(seed)
        while not state.is_deal_over():
            if state.phase == PH_PLAY and not state.in_stock_phase() and state.trick_n == 1:
                plays = [a for a in state.legal_actions() if actions.is_play(a)]
                assert plays == _rule_7_by_the_text(state.hands[state.turn], state.trick[0], state.trump)
                checked += 1
            state.apply(H.random_policy(rng, state, knock_one_in=30000))
    assert checked > 60 * 11


# -- rule 8: when points are scored ------------------------------------------------------

def test_hoyle_rule_8_melds_at_once_cards_and_last_trick_at_the_end():
    state = game("KS QS AS AS AH AH AD AD TS TS TH TH")
    win_trick(state, "AS")
    assert meld(state, "marriage in spades") == 20
    assert state.scores() == [20, 0]            # the trick's 11+ card points are not scored yet
    while not state.is_deal_over():
        play_first_legal(state)
    last = 0 if state.deal_pts[0] - 20 == 10 else 1
    assert state.deal_pts[last] - (20 if last == 0 else 0) == 10    # the last trick: 10
    assert sum(state.cardpts) == 240
    assert state.scores() == [state.deal_pts[0] + state.cardpts[0], state.deal_pts[1] + state.cardpts[1]]
    assert state.sheet[-1][state.ROW_CARDS] == tuple(state.cardpts)


# -- rule 9: the game and knocking -------------------------------------------------------

def test_hoyle_rule_9_knock_before_the_first_lead():
    state = game(PLAIN)
    assert actions.KNOCK in state.legal_actions()
    H.act(state, "play AS")
    assert actions.KNOCK in state.legal_actions()       # the other player's chance, then his card


def test_hoyle_rule_9_correct_knock_wins_at_once():
    for start, winner in ((989, 0), (988, 1)):   # 989 + 11 reaches 1000 exactly; 988 does not
        state = game(PLAIN)
        state.score[0] = start
        win_trick(state, "AS")
        assert state.cardpts[0] == 11             # the ace and the dealer's nine
        H.act(state, "knock")
        assert state.is_game_over() and state.winner() == winner
        assert state.knock == (0, start + 11, winner == 0)


def test_hoyle_rule_9_wrong_knock_loses_at_once():
    state = game(PLAIN)
    state.score = [900, 100]
    win_trick(state, "AS")
    H.act(state, "knock")
    assert state.is_game_over() and state.winner() == 1
    assert state.knock[2] is False


def test_hoyle_rule_9_other_player_may_knock_after_the_winner():
    state = game(PLAIN)
    state.score = [0, 995]
    win_trick(state, "AS")
    H.act(state, "play AS")
    assert state.current_player() == 1
    H.act(state, "knock")
    assert state.winner() == 0                # seat 1 has no card points yet: 995 < 1000


def _play_out_deal(state):
    while not state.is_deal_over():
        play_first_legal(state)


def _deal_result(start_scores):
    state = game(PLAIN)
    state.score = list(start_scores)
    _play_out_deal(state)
    return state


def test_hoyle_rule_9_knock_after_the_last_trick_winner_first():
    state = game(PLAIN)
    while state.phase != PH_KNOCK:
        play_first_legal(state)
    assert state.current_player() == state.leader          # the last trick's winner
    assert state.legal_actions() == [actions.PASS, actions.KNOCK]
    state.apply(actions.PASS)
    assert state.current_player() == 1 - state.leader
    state.apply(actions.PASS)
    assert state.phase == PH_BETWEEN


def test_hoyle_rule_9_exactly_one_reaching_the_target_wins():
    plain = _deal_result((0, 0))
    gains = plain.scores()
    assert gains[0] > 0 and gains[1] > 0
    state = _deal_result((1000 - gains[0], 0))
    assert state.is_game_over() and state.winner() == 0 and state.scores()[0] == 1000


def test_hoyle_rule_9_both_reaching_raises_the_target_by_250():
    gains = _deal_result((0, 0)).scores()
    state = _deal_result((1000 - gains[0], 1000 - gains[1]))
    assert not state.is_game_over() and state.target == 1250 and state.scores() == [1000, 1000]
    assert state.sheet[-1][state.ROW_NOTE] == NOTE_TARGET_RAISED      # the sheet notes the raised target


def test_hoyle_rule_9_raised_target_then_one_reaches_it():
    gains = _deal_result((0, 0)).scores()
    state = _deal_result((1000 - gains[0], 1000 - gains[1]))
    assert state.target == 1250
    state.apply(actions.DEAL)
    probe = state.clone()
    _play_out_deal(probe)
    gain = probe.scores()[0] - state.scores()[0]
    state.score = [1250 - gain, 1000]
    _play_out_deal(state)
    assert state.scores()[0] == 1250 and state.scores()[1] < 1250 and state.winner() == 0


def test_hoyle_rule_9_neither_reaching_deals_again():
    state = _deal_result((0, 0))
    assert state.phase == PH_BETWEEN and state.target == 1000 and state.winner() == -1
    assert state.legal_actions() == [actions.DEAL]


# -- rule 10: what a player may look at ---------------------------------------------------

def test_hoyle_rule_10_only_the_last_trick_and_the_stock_count():
    state = game(PLAIN)
    win_trick(state, "AS")
    first = bytes(state.last_trick)
    win_trick(state, "AH")
    for p in (0, 1):
        obs = state.observation(p)
        assert obs.last_trick == bytes(state.last_trick) != first
        assert obs.stock_left == 23 - 4 and obs.turnup == state.turnup
        assert not hasattr(obs, "won") and obs.tricks_won == (2, 0)


def test_hoyle_rule_10_irregular_actions_are_rejected():
    state = game(PLAIN)
    with pytest.raises(IllegalAction):
        state.apply(cards.parse("KC"))            # a card the pone does not hold
    with pytest.raises(IllegalAction):
        state.apply(actions.EXCHANGE)             # no trick won yet
    with pytest.raises(IllegalAction):
        state.apply(actions.DEAL)


def test_a_meld_uses_table_cards_exactly_when_its_sources_say_so():
    # The meld menu marks the one of two alike lines that reuses table cards by its sources.
    from engine.ai import new_player
    seen = 0
    for rules in ("hoyle", "french"):
        state = new_game(rules, 3)
        seats = [new_player(rules, p, "normal", 3) for p in range(2)]
        while state.deal_number <= 3 and not state.is_game_over():
            p = state.current_player()
            obs = state.observation(p)
            for a in obs.legal:
                if actions.is_meld(a):
                    assert bool(actions.meld_sources(a)) == ("from the table" in state.describe(a)), a
                    seen += bool(actions.meld_sources(a))
            state.apply(seats[p].choose(obs))
    assert seen > 0
