"""docs/rules.md `binokel`: one or more tests per numbered rule, and the worked case.

Stacked deals: seat 2 deals, so seat 0 is forehand, 1 middlehand, 2 rearhand.
"""

import pytest

from engine import actions, cards, melds
from engine.binokel import CONTRACT_DURCH
from engine.rules import new_game
from engine.state import IllegalAction, PH_BETWEEN, PH_BID, PH_BURY, PH_CONTRACT, PH_PLAY
from tests.device import helpers as H

# The worked case's deal: A (forehand) holds a heart family but for the ten, B one heart (AH).
A = "AH KH QH JH 9H AS TS KS QS JS AD TD KD QD JD"
B = "AH AS TS KS QS JS 9S 9S AC AC TC TC KC KC QC"
C = "TH TH KH QH JH 9H AD TD KD QD JD 9D 9D QC JC"
DABB = "JC 9C 9C"


def worked_deal():
    return H.binokel_game(A, B, C, DABB)


def hand(text):
    return cards.counts_of(cards.parse_many(text))


def declare(state, bids, bury, contract=None):
    """Bid ("bid"/"pass" words in turn), bury three cards, then take the contract (a description)."""
    for word in bids.split():
        H.act(state, word)
    for word in bury.split():
        H.act(state, "bury " + word)
    if contract:
        H.act(state, contract)


def to_play(state, bury="JC 9C 9C", trump="spades"):
    """Middle- and rearhand pass, forehand buries and names trump."""
    declare(state, "pass pass", bury, "trump " + trump)


# -- rule 1: players and deal ----------------------------------------------------------------

def test_binokel_rule_1_fifteen_each_and_a_dabb_of_three():
    state = new_game("binokel", 5)
    assert [cards.count(h) for h in state.hands] == [15, 15, 15] and len(state.dabb) == 3
    assert state.forehand == (state.dealer + 1) % 3


def test_binokel_rule_1_dabb_laid_after_the_first_round_of_threes():
    deck = H.binokel_deck(A, B, C, DABB)
    assert deck[:9] == cards.parse_many("AH KH QH AH AS TS TH TH KH")
    assert deck[9:12] == cards.parse_many(DABB)
    assert bytes(worked_deal().dabb) == bytes(cards.parse_many(DABB))


def test_binokel_rule_1_random_first_dealer_then_the_next_player():
    assert {new_game("binokel", s).dealer for s in range(30)} == {0, 1, 2}
    state = worked_deal()
    declare(state, "pass pass", DABB, "surrender with spades")
    assert state.phase == PH_BETWEEN and state.current_player() == 0   # the next dealer deals
    state.apply(actions.DEAL)
    assert state.dealer == 0 and state.forehand == 1 and state.current_player() == 2


# -- rule 2: bidding --------------------------------------------------------------------------

def test_binokel_rule_2_forehand_opens_150_middlehand_speaks_first():
    state = worked_deal()
    assert state.phase == PH_BID and state.current_player() == 1
    assert state.bid == 150 and state.holder == 0
    assert state.legal_actions() == [actions.PASS, actions.BID]


def test_binokel_rule_2_raises_of_ten_rearhand_against_the_survivor():
    state = worked_deal()
    H.act(state, "bid")            # middlehand 160
    assert state.bid == 160 and state.current_player() == 0
    H.act(state, "pass")           # forehand out for good
    assert state.current_player() == 2
    H.act(state, "bid")            # rearhand 170
    assert state.current_player() == 1
    H.act(state, "bid")            # middlehand 180
    H.act(state, "pass")           # rearhand out
    assert state.soloist == 1 and state.bid == 180 and state.phase == PH_BURY


def test_binokel_rule_2_both_pass_forehand_plays_at_150():
    state = worked_deal()
    H.act(state, "pass")
    H.act(state, "pass")
    assert state.soloist == 0 and state.bid == 150


def test_binokel_rule_2_rearhand_outbids_forehand():
    state = worked_deal()
    H.act(state, "pass")           # middlehand
    H.act(state, "bid")            # rearhand 160
    assert state.current_player() == 0
    H.act(state, "bid")            # forehand 170
    H.act(state, "pass")           # rearhand
    assert state.soloist == 0 and state.bid == 170
    assert state.passed == bytearray([0, 1, 1])


def test_binokel_rule_2_bids_stop_at_the_cap():
    state = worked_deal()
    while actions.BID in state.legal_actions():
        state.apply(actions.BID)
    assert state.bid == 2000 and state.legal_actions() == [actions.PASS]


# -- rule 3: the Dabb ---------------------------------------------------------------------------

def test_binokel_rule_3_dabb_shown_to_all_soloist_buries_three():
    state = worked_deal()
    assert state.observation(1).dabb is None
    H.act(state, "pass")
    H.act(state, "pass")
    for p in range(3):
        assert state.observation(p).dabb == bytes(cards.parse_many(DABB))
    assert cards.count(state.hands[0]) == 18
    for word in ("AD", "TD", "KD"):
        H.act(state, "bury " + word)
    assert cards.count(state.hands[0]) == 15 and state.phase == PH_CONTRACT
    assert state.observation(0).buried == bytes(hand("AD TD KD"))
    assert state.observation(1).buried is None and state.observation(2).buried is None


def test_binokel_rule_3_buried_cards_count_for_the_soloist_but_make_no_meld():
    state = worked_deal()
    declare(state, "pass pass", "AD TD KD", "trump spades")
    # trump family 150, heart pair 20, four jacks (JC from the Dabb) 40, binokel 40:
    # the diamond family is gone with its buried ace, ten and king.
    assert state.meld_points[0] == 150 + 20 + 40 + 40
    state.tricks_won[0] = 1
    state.cardpts[0] = 30
    assert state.deal_total(0) == 30 + 250 + 25                  # A, T, K of diamonds: 25


# -- rule 4: the contract -------------------------------------------------------------------------

def test_binokel_rule_4_contract_choices():
    state = worked_deal()
    declare(state, "pass pass", DABB)
    want = sorted([actions.TRUMP + s for s in range(4)] + [actions.SURRENDER + s for s in range(4)]
                  + [actions.DURCH])
    assert state.legal_actions() == want


def test_binokel_rule_4_surrender_scores_minus_bid_and_50_plus_melds():
    state = worked_deal()
    declare(state, "bid pass pass", "9S 9S JC", "surrender with clubs")
    mb = melds.best_total(hand(A), cards.SUIT_C)
    mc = melds.best_total(hand(C), cards.SUIT_C)
    assert state.scores() == [50 + mb, -160, 50 + mc]
    # A: spade and diamond families, heart pair, binokel. C: diamond family, heart pair.
    assert (mb, mc) == (100 + 100 + 20 + 40, 100 + 20)
    assert state.phase == PH_BETWEEN


# -- rule 5: melds -----------------------------------------------------------------------------------

@pytest.mark.parametrize("text, trump, total", [
    ("AS TS KS QS JS", cards.SUIT_S, 150),                        # trump family
    ("AH TH KH QH JH", cards.SUIT_S, 100),                        # plain family
    ("AS AS TS TS KS KS QS QS JS JS", cards.SUIT_S, 1500),        # double trump family
    ("AH AH TH TH KH KH QH QH JH JH", cards.SUIT_S, 1000),        # double plain family
    ("KS QS", cards.SUIT_S, 40),
    ("KH QH", cards.SUIT_S, 20),
    ("KS KS QS QS", cards.SUIT_S, 80),                            # two trump pairs
    ("AS TS KS QS JS KS", cards.SUIT_S, 150),                     # the family's K and Q are not a pair
    ("AS TS KS QS JS KS QS", cards.SUIT_S, 190),                  # a second K and Q beside it are
    ("AS AH AD AC", cards.SUIT_S, 100),
    ("KS KH KD KC", cards.SUIT_H, 80),                            # four kings; no pair without a queen
    ("QS QH QD QC", cards.SUIT_S, 60),
    ("JS JH JD JC", cards.SUIT_S, 40),
    ("AS AS AH AH AD AD AC AC", cards.SUIT_S, 1000),              # eight instead of four
    ("AS AS AH AH AD AD AC", cards.SUIT_S, 100),                  # seven aces: one four
    ("TS TH TD TC 9H 9S 9D 9C", cards.SUIT_C, 10),                # tens and nines: only the trump nine
    ("QS JD", cards.SUIT_H, 40),
    ("QS QS JD JD", cards.SUIT_H, 300),
    ("QS QS JD", cards.SUIT_H, 40),
    ("9S 9S", cards.SUIT_S, 20),
])
def test_binokel_rule_5_meld_types(text, trump, total):
    assert melds.best_total(hand(text), trump) == total


def test_binokel_rule_5_kings_serve_in_a_four_and_a_pair():
    # "KS KH KD KC" with trump hearts scores 80 (four) + 0: KH needs a QH for a pair.
    h = hand("KS KH KD KC QS QH QD QC JD")
    got = melds.best_total(h, cards.SUIT_H)
    # four kings 80 + four queens 60 + trump pair 40 + three plain pairs 60 + binokel 40
    assert got == 80 + 60 + 40 + 60 + 40
    names = sorted(m[0] for m in melds.best_melds(h, cards.SUIT_H))
    assert names == sorted(["four kings", "four queens", "trump pair", "pair in spades", "pair in diamonds",
                            "pair in clubs", "binokel"])


def test_binokel_rule_5_melds_shown_before_the_first_lead():
    state = worked_deal()
    to_play(state)
    assert state.phase == PH_PLAY and state.trick_n == 0
    shown = state.observation(2).melds
    assert [sum(m[1] for m in ms) for ms in shown] == state.meld_points
    # A: trump family, diamond family, heart pair, binokel. B: trump family, a club pair
    # (KC KC QC: one pair), two trump nines. C: diamond family, heart pair.
    assert state.meld_points == [150 + 100 + 20 + 40, 150 + 20 + 20, 100 + 20]


# -- rule 6: play ----------------------------------------------------------------------------------------

def test_binokel_rule_6_worked_case_trick():
    state = worked_deal()
    to_play(state)
    assert state.current_player() == 0          # forehand leads
    H.play(state, "AH")
    assert [state.describe(a) for a in state.legal_actions()] == ["play AH"]   # B's only heart
    H.play(state, "AH")
    hearts = [state.describe(a) for a in state.legal_actions()]
    assert hearts == ["play 9H", "play JH", "play QH", "play KH", "play TH"]   # none beats an ace
    H.play(state, "TH")
    assert state.leader == 0 and state.cardpts == [32, 0, 0]     # the first of two aces wins


def _follow(hand_text, trick_text, trump):
    from engine import tricks
    out = []
    trick = bytearray(cards.parse_many(trick_text))
    tricks.legal_follow(hand(hand_text), trick, len(trick), trump, out)
    return cards.format_faces(out)


def test_binokel_rule_6_follow_and_beat_the_best_card():
    assert _follow("9H AH KH 9S", "TH QH", cards.SUIT_S) == "AH"
    assert _follow("9H KH 9S", "TH AH", cards.SUIT_S) == "9H KH"          # cannot beat: any heart
    assert _follow("9H AH 9S", "TH 9S", cards.SUIT_S) == "9H AH"          # trumped: follow with any


def test_binokel_rule_6_void_trump_and_overtrump():
    assert _follow("9S AS 9D", "TH", cards.SUIT_S) == "9S AS"
    assert _follow("9S AS 9D", "TH TS", cards.SUIT_S) == "AS"             # overtrump the ten
    assert _follow("9S JS 9D", "TH TS", cards.SUIT_S) == "9S JS"          # cannot: still a trump
    assert _follow("9D KC", "TH TS", cards.SUIT_S) == "9D KC"             # no suit, no trump: any


def test_binokel_rule_6_durch_has_no_trumps_and_soloist_leads():
    state = worked_deal()
    declare(state, "bid pass pass", "9S 9S JC", "durch")
    assert state.contract == CONTRACT_DURCH and state.trump == cards.NO_TRUMP
    assert state.current_player() == 1 and state.meld_points == [0, 0, 0]


# -- rule 7: scoring ----------------------------------------------------------------------------------------

def test_binokel_rule_7_worked_case_scores():
    state = worked_deal()
    to_play(state)
    state.soloist, state.bid = 0, 200
    state.meld_points = [150, 0, 0]
    state.buried = bytearray(32)
    state.cardpts = [90, 160, 0]
    state.tricks_won = [4, 11, 0]
    assert state.trump_gains() == [240, 160, 0]
    state.cardpts = [40, 210, 0]
    assert state.trump_gains()[0] == -400                     # 190 < 200: twice the bid lost


def test_binokel_rule_7_melds_need_a_trick_and_buried_points_count():
    state = worked_deal()
    to_play(state)
    state.soloist, state.bid = 0, 150
    state.meld_points = [100, 60, 40]
    state.buried = hand("AD TD 9D")                          # 21 points
    state.cardpts = [130, 99, 0]
    state.tricks_won = [5, 10, 0]
    assert state.trump_gains() == [130 + 100 + 21, 99 + 60, 0]
    state.tricks_won = [0, 15, 0]
    state.cardpts = [0, 229, 0]
    assert state.trump_gains() == [-300, 229 + 60, 0]          # a soloist without a trick loses


def test_binokel_rule_7_full_deal_totals_add_up():
    state = worked_deal()
    to_play(state)
    rng = H.Rng(3)
    while not state.is_deal_over():
        state.apply(H.random_policy(rng, state))
    assert sum(state.cardpts) + 2 == 250                      # the buried JC is worth 2
    gains = state.gains
    for p in range(3):
        total = state.cardpts[p] + (state.meld_points[p] if state.tricks_won[p] else 0) + (2 if p == 0 else 0)
        if p == 0:
            assert gains[p] == (total if total >= 150 and state.tricks_won[0] else -300)
        else:
            assert gains[p] == (total if state.tricks_won[p] else 0)
    assert state.scores() == list(gains)


def _durch_deal():
    solo = "AS AS TS TS KS KS QS QS JS JS 9S 9S AH AH TH"
    other1 = "TH KH KH QH QH JH JH 9H 9H AD AD TD TD KD KD"
    other2 = "QD QD JD JD 9D 9D AC AC TC TC KC KC QC QC JC"
    return H.binokel_game(solo, other1, other2, "JC 9C 9C")


def test_binokel_rule_7_durch_made_scores_1000():
    state = _durch_deal()
    declare(state, "pass pass", "JC 9C 9C", "durch")
    rng = H.Rng(1)
    while not state.is_deal_over():
        if state.current_player() == 0:
            state.apply(state.legal_actions()[-1])           # highest card first
        else:
            state.apply(H.random_policy(rng, state))
    assert state.tricks_won == [15, 0, 0] and state.scores() == [1000, 0, 0]


def test_binokel_rule_7_durch_stops_at_the_first_trick_lost():
    state = _durch_deal()
    declare(state, "pass pass", "AS AS 9S", "durch")
    H.play(state, "TH")
    assert [state.describe(a) for a in state.legal_actions()] == [
        "play 9H", "play JH", "play QH", "play KH", "play TH"]     # cannot beat the ten
    H.play(state, "TH")            # the same card: the soloist's, played first, wins
    H.play(state, "QC")
    assert state.leader == 0 and state.tricks_won == [1, 0, 0]
    H.play(state, "9C")
    H.play(state, "9H")            # no club: any card
    assert [state.describe(a) for a in state.legal_actions()] == [
        "play JC", "play QC", "play KC", "play TC", "play AC"]      # must beat the nine
    H.play(state, "AC")
    assert state.is_deal_over() and state.tricks_won == [1, 0, 1]
    assert state.scores() == [-1000, 0, 0]


# -- rule 8: the end of the game -----------------------------------------------------------------------------

@pytest.mark.parametrize("scores, soloist, winner", [
    ([1500, 1700, 0], 0, 0),        # the soloist first, even when an opponent is higher
    ([1400, 1600, 0], 0, 1),        # else a sole opponent
    ([1400, 1600, 1550], 0, 1),     # both opponents: the higher
    ([1400, 1600, 1600], 0, -1),    # a tie: another deal
    ([1400, 1499, 0], 0, -1),
])
def test_binokel_rule_8_who_wins(scores, soloist, winner):
    state = worked_deal()
    state.score = list(scores)
    state.soloist = soloist
    assert state.game_winner() == winner


def test_binokel_rule_8_checked_after_the_deal():
    state = worked_deal()
    state.score = [0, 0, 1400]
    declare(state, "pass pass", DABB, "surrender with spades")
    assert state.scores() == [-150, 50 + 150 + 20 + 20, 1400 + 50 + 100 + 20]
    assert state.is_game_over() and state.winner() == 2      # rearhand alone reached 1500


def test_binokel_illegal_actions_rejected():
    state = worked_deal()
    with pytest.raises(IllegalAction):
        state.apply(actions.BURY + 5)
    with pytest.raises(IllegalAction):
        state.apply(actions.TRUMP)
    assert state.phase == PH_BID and state.current_player() == 1
