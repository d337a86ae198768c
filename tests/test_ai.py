"""The AI: memory that tells the truth, honest decisions, exact knocking, hints, sliced thinking."""

import copy

import pytest

from engine import actions, cards
from engine.ai import new_player, levels, LEVELS, DEVICE_LEVELS
from engine.ai.binokel import BinokelMemory
from engine.ai.twohand import TwoHandMemory
from engine.ai.sampler import Sampler
from engine.rng import Rng
from engine.rules import kind, new_game, THREE_HAND
from engine.state import PH_BETWEEN, PH_PLAY, PH_BID, PH_CONTRACT
from tests.test_properties import swap_hidden

RULES = ("hoyle", "french", "binokel")


def play_with(players, state, until=lambda s: s.is_game_over(), on_decision=None):
    while not until(state):
        p = state.current_player()
        obs = state.observation(p)
        if on_decision is not None:
            on_decision(state, p, obs)
        state.apply(players[p].choose(obs))
    return state


def honest_decision(seat, state, p, obs, rng):
    """The seat's decision on obs, checked to be the same when the cards it cannot see are
    swapped (the observation stays equal); None when no such swap exists."""
    other = swap_hidden(state, p, rng)
    if other is None:
        return None
    other_obs = other.observation(p)
    assert other_obs == obs
    a = copy.deepcopy(seat).choose(obs)
    assert a == copy.deepcopy(seat).choose(other_obs)
    return a


def real_holding(state, p):
    held = bytearray(state.hands[p])
    if state.RULES != "binokel":
        for r in state.tables[p].recs:
            held[r & 31] += 1
    return held


@pytest.mark.parametrize("rules", RULES)
def test_memory_never_contradicts_the_real_deal(rules):
    """Caps (voids, cannot-beat) and known cards inferred from observations hold in the true hands."""
    checks = 0
    for seed in range(25):
        state = new_game(rules, seed)
        seats = [new_player(rules, p, "hard", seed) for p in range(state.PLAYERS)]

        def check(state, p, obs):
            nonlocal checks
            if state.phase == PH_BETWEEN:
                return
            m = seats[p].memory
            m.update(obs)
            for q in range(state.PLAYERS):
                if q == p:
                    continue
                held = real_holding(state, q)
                for f in range(32):
                    assert not held[f] or m.may_hold(q, f), (rules, seed, q, cards.name(f))
                    assert m.known[q][f] <= held[f], (rules, seed, q, cards.name(f))
            checks += 1
        play_with(seats, state, lambda s: s.is_game_over() or s.deal_number > 2, check)
    assert checks > 25 * 40


@pytest.mark.parametrize("rules", RULES)
def test_samples_are_consistent_deals(rules):
    for seed in range(10):
        state = new_game(rules, seed)
        seats = [new_player(rules, p, "normal", seed) for p in range(state.PLAYERS)]
        rng = Rng(seed)

        def check(state, p, obs):
            if state.phase == PH_BETWEEN:
                return
            seats[p].memory.update(obs)
            sampler = Sampler(state.PLAYERS, kind(rules) == THREE_HAND)
            assert sampler.sample(obs, seats[p].memory, rng)
            total = bytearray(sampler.hands[p])
            for q in range(state.PLAYERS):
                if q != p:
                    size = obs.hand_sizes[q] - (0 if rules == "binokel" else len(obs.tables[q]))
                    assert cards.count(sampler.hands[q]) == size
                    for f in range(32):
                        total[f] += sampler.hands[q][f]
                        assert not sampler.hands[q][f] or seats[p].memory.may_hold(q, f)
            assert cards.count(sampler.hands[p]) == cards.count(obs.hand)
        play_with(seats, state, lambda s: s.is_game_over() or s.deal_number > 1, check)


def first_card_of_a_defender(seed, seat_of=lambda obs: obs.player):
    """A binokel game of normal seats up to a defender's first card: (the observation of
    seat_of(that defender's observation), his memory)."""
    state = new_game("binokel", seed)
    seats = [new_player("binokel", p, "normal", seed) for p in range(3)]
    while True:
        p = state.current_player()
        obs = state.observation(p)
        if state.phase == PH_PLAY and obs.trump >= 0 and p != obs.soloist:
            q = seat_of(obs)
            obs = state.observation(q)
            seats[q].memory.update(obs)
            return obs, seats[q].memory
        state.apply(seats[p].choose(obs))


def soloist_shares(obs, memory, use_caps, samples=400):
    """Per card dealt (beyond the cards known), the soloist's share of trumps and of plain kings
    and queens, each over the other defender's."""
    sampler = Sampler(3, True)
    rng = Rng(7)
    sol, other = obs.soloist, 3 - obs.soloist - obs.player
    counts = {sol: [0, 0, 0], other: [0, 0, 0]}      # trumps, plain K and Q, every card
    for _ in range(samples):
        assert sampler.sample(obs, memory, rng, use_caps)
        assert sampler.lean == (sol if use_caps else -1)
        for q in (sol, other):
            for f in range(32):
                n = sampler.hands[q][f] - memory.known[q][f]
                counts[q][2] += n
                if f >> 3 == obs.trump:
                    counts[q][0] += n
                elif f & 7 in (cards.RK, cards.RQ):
                    counts[q][1] += n

    def share(i):
        return (counts[sol][i] / counts[sol][2]) / (counts[other][i] / counts[other][2])
    return share(0), share(1)


def test_a_binokel_defender_deals_the_soloist_trumps_and_no_lone_kings_or_queens():
    """A level that infers reads the contract: the soloist named the suit he holds and shows
    his pairs, so the unseen trumps lean his way and plain kings and queens away from him
    (sampler.py _SOLOIST_ODDS); a level that does not infers deals evenly."""
    for seed in range(1, 6):
        obs, memory = first_card_of_a_defender(seed)
        trumps, kings_queens = soloist_shares(obs, memory, True)
        even_trumps, even_kings_queens = soloist_shares(obs, memory, False)
        assert trumps > 1.3 and trumps > even_trumps, seed
        assert kings_queens < 0.3 and kings_queens < even_kings_queens / 2, seed
        assert 0.7 < even_kings_queens < 1.1, seed


def test_the_soloist_and_the_two_hand_games_deal_evenly():
    obs, memory = first_card_of_a_defender(1, lambda obs: obs.soloist)
    sampler = Sampler(3, True)
    assert obs.player == obs.soloist
    assert sampler.sample(obs, memory, Rng(1), True) and sampler.lean == -1
    state = new_game("hoyle", 3)
    seat = new_player("hoyle", 0, "hard", 3)
    seat.choose(state.observation(0))
    assert seat.sampler.lean == -1


@pytest.mark.parametrize("rules", RULES)
def test_same_observation_from_other_hidden_cards_same_decision(rules):
    """Honesty: swap cards the AI cannot see; its observation and its decision stay the same."""
    rng = Rng(99)
    compared = 0
    for seed in range(12):
        state = new_game(rules, seed)
        seats = [new_player(rules, p, "hard", seed) for p in range(state.PLAYERS)]

        def check(state, p, obs):
            nonlocal compared
            if len(obs.legal) < 2:
                return
            if honest_decision(seats[p], state, p, obs, rng) is not None:
                compared += 1
        play_with(seats, state, lambda s: s.is_game_over() or s.deal_number > 1, check)
    assert compared > 100


@pytest.mark.parametrize("rules", RULES)
def test_each_level_deterministic_for_its_seed(rules):
    for level in LEVELS:
        deals = 1 if level == "expert" else 2       # expert is slow: one deal says enough
        runs = []
        for _ in range(2):
            state = new_game(rules, 4)
            seats = [new_player(rules, p, level, 11) for p in range(state.PLAYERS)]
            play_with(seats, state, lambda s: s.is_game_over() or s.deal_number > deals)
            runs.append(bytes(state.history))
        assert runs[0] == runs[1]


@pytest.mark.parametrize("rules", RULES)
def test_each_deal_draws_from_its_own_stream(rules):
    """A seat that played the first deal and a new seat of the same seed draw the same random
    numbers from the second deal's first decision on: what happened before does not matter."""
    state = new_game(rules, 6)
    seats = [new_player(rules, p, "hard", 20 + p) for p in range(state.PLAYERS)]
    play_with(seats, state, lambda s: s.deal_number > 1 and len(s.legal_actions()) > 1)
    p = state.current_player()
    obs = state.observation(p)
    fresh = new_player(rules, p, "hard", 20 + p)
    used = seats[p]
    assert used.rng.get_state() != Rng(20 + p).get_state()      # the first deal drew from it
    assert used.choose(obs) == fresh.choose(obs)
    assert used.rng.get_state() == fresh.rng.get_state() != Rng(20 + p).get_state()


def test_ai_knocks_exactly_when_its_count_reaches_the_target():
    knocks = 0
    for seed in range(30):
        state = new_game("hoyle", seed)
        seats = [new_player("hoyle", p, "normal", seed) for p in range(2)]

        def check(state, p, obs):
            nonlocal knocks
            if actions.KNOCK not in obs.legal:
                return
            count = state.score[p] + state.cardpts[p]
            chosen = copy.deepcopy(seats[p]).choose(obs)
            assert (chosen == actions.KNOCK) == (count >= state.target), (seed, count, chosen)
            knocks += chosen == actions.KNOCK
        play_with(seats, state, on_decision=check)
        assert state.knock is None or state.knock[2]       # never a wrong knock
    assert knocks >= 20


def test_easy_does_not_count():
    state = new_game("hoyle", 3)
    seats = [new_player("hoyle", p, "easy", 3) for p in range(2)]
    play_with(seats, state, lambda s: s.is_game_over() or s.deal_number > 8)
    assert state.knock is None


@pytest.mark.parametrize("rules", RULES)
def test_hints_are_legal_with_a_reason(rules):
    state = new_game(rules, 5)
    seats = [new_player(rules, p, "normal", 5) for p in range(state.PLAYERS)]
    helper = new_player(rules, 0, "hard", 77)
    seen = set()

    def check(state, p, obs):
        if p != 0:
            return
        action, reason = copy.deepcopy(helper).hint(obs)
        helper.memory.update(obs)
        assert action in obs.legal
        assert reason and "\n" not in reason and len(reason) < 80
        seen.add(obs.phase)
    play_with(seats, state, lambda s: s.is_game_over() or s.deal_number > 2, check)
    assert PH_PLAY in seen


def test_thinking_yields_between_samples_and_agrees_with_choose():
    state = new_game("french", 2)
    seats = [new_player("french", p, "hard", 2) for p in range(2)]
    sliced = 0
    while state.deal_number == 1 and sliced < 10:
        p = state.current_player()
        obs = state.observation(p)
        a = copy.deepcopy(seats[p])
        steps = sum(1 for _ in a.thinking(obs))
        if obs.phase == PH_PLAY and len(obs.trick) == 0 and len(obs.legal) > 2:
            assert steps >= 4          # hard samples 12 deals, one step each
            sliced += 1
        assert a.decision == copy.deepcopy(seats[p]).choose(obs)
        state.apply(seats[p].choose(obs))
    assert sliced >= 3


def test_unknown_level_rejected():
    with pytest.raises(ValueError):
        new_player("hoyle", 0, "grandmaster")


def test_memory_counts_card_points_like_the_engine():
    state = new_game("french", 8)
    seats = [new_player("french", p, "normal", 8) for p in range(2)]

    def check(state, p, obs):
        m = seats[p].memory
        if state.phase != PH_BETWEEN:
            m.update(obs)
            assert m.cardpts == state.cardpts
    play_with(seats, state, lambda s: s.is_game_over() or s.deal_number > 2, check)


def test_memory_reset_each_deal():
    m = TwoHandMemory(2, 12)
    m.played[5] = 2
    m.known[1][7] = 1
    m.turnup = 9
    m.reset(3)
    assert bytes(m.played) == bytes(32) == bytes(m.known[1]) and m.deal == 3 and m.turnup == -1


def test_memory_reads_binokel_melds_by_kind_not_by_name():
    """What a shown meld tells of a hand comes from its kind code (engine/melds.py KIND_*):
    renaming every meld leaves the memory the same; moving melds to one kind changes it
    (a card serves once per kind, so two kinds can show two copies of it)."""
    state = new_game("binokel", 3)
    seats = [new_player("binokel", p, "hard", 3) for p in range(3)]
    play_with(seats, state, lambda s: s.observation(0).melds is not None)
    obs = state.observation(0)
    kinds = set(m[3] for ms in obs.melds for m in ms)
    assert len(kinds) > 1

    def known(melds):
        m = BinokelMemory(3, 0)
        o = copy.copy(obs)
        o.melds = melds
        m.update(o)
        return [bytes(k) for k in m.known]

    renamed = tuple(tuple(("meld %d" % i, pts, faces, kind) for i, (_n, pts, faces, kind) in enumerate(ms))
                    for ms in obs.melds)
    one_kind = tuple(tuple((name, pts, faces, 0) for name, pts, faces, _k in ms) for ms in obs.melds)
    assert any(any(k) for k in known(obs.melds))
    assert known(renamed) == known(obs.melds)
    assert known(one_kind) != known(obs.melds)


def test_only_the_expert_sets_the_desktop_columns():
    """The device levels read 0 in the contracts column and their seats are not engine/ai/expert.py's,
    so a board never loads it; the expert's are, in every rule set."""
    for level in DEVICE_LEVELS:
        p = levels.params(level)
        assert levels.flag(p, levels.CONTRACTS) == 0
        for rules in ("hoyle", "french", "binokel"):
            assert type(new_player(rules, 0, level, 1)).__module__ != "engine.ai.expert"
    assert levels.flag(levels.params("expert"), levels.CONTRACTS) > 0
    for rules in ("hoyle", "french", "binokel"):
        assert type(new_player(rules, 0, "expert", 1)).__module__ == "engine.ai.expert"
    assert not hasattr(new_player("hoyle", 0, "expert", 1), "expert")     # binokel only
    assert hasattr(new_player("binokel", 0, "expert", 1), "expert")


def test_expert_binokel_bids_and_contracts_honestly():
    """Expert's sampled bid limit and contract: other hidden cards, same observation, same decision."""
    rng = Rng(5)
    compared = 0
    for seed in range(5):
        state = new_game("binokel", seed)
        seats = [new_player("binokel", p, "expert", seed) for p in range(3)]

        def check(state, p, obs):
            nonlocal compared
            if obs.phase not in (PH_BID, PH_CONTRACT) or len(obs.legal) < 2:
                return
            a = honest_decision(seats[p], state, p, obs, rng)
            if a is None:
                return
            assert a == copy.deepcopy(seats[p]).choose(obs)
            assert a in obs.legal
            compared += 1
        play_with(seats, state, lambda s: s.is_game_over() or s.phase == PH_PLAY or s.deal_number > 1, check)
    assert compared >= 10


def test_expert_surrenders_a_bid_out_of_reach_and_keeps_a_fair_one():
    state = new_game("binokel", 3)
    seats = [new_player("binokel", p, "hard", 3) for p in range(3)]
    soloist = (state.dealer + 1) % 3          # everyone passes: forehand plays at 150
    while state.phase != PH_CONTRACT:
        p = state.current_player()
        obs = state.observation(p)
        state.apply(actions.PASS if state.phase == PH_BID else seats[p].choose(obs))
    decisions = []
    for bid in (150, 700):
        state.bid = bid
        expert = new_player("binokel", soloist, "expert", 9)
        decisions.append(expert.choose(state.observation(soloist)))
    assert actions.TRUMP <= decisions[0] < actions.TRUMP + 4
    assert actions.SURRENDER <= decisions[1] < actions.SURRENDER + 4


def hinted_game(rules, seed, shared, deals=3):
    """Hard seats and a hard adviser answering for seat 0 (its hint is played), each with its
    own working buffers or all in seat 1's: the actions and reasons, in order."""
    state = new_game(rules, seed)
    seats = [None] * state.PLAYERS
    for p in range(1, state.PLAYERS):
        seats[p] = new_player(rules, p, "hard", seed * 7 + p, 0, None, seats[1] if shared else None)
    adviser = new_player(rules, 0, "hard", seed * 7, 0, None, seats[1] if shared else None)
    log = []
    while not state.is_game_over() and state.deal_number < deals:
        p = state.current_player()
        obs = state.observation(p)
        if p == 0:
            a, why = adviser.hint(obs)
            log.append((a, why))
        else:
            a = seats[p].choose(obs)
            log.append(a)
        state.apply(a)
    return log


def test_seats_that_share_working_buffers_decide_as_with_their_own():
    for rules, seed in (("hoyle", 4), ("french", 5), ("binokel", 6)):
        shared = hinted_game(rules, seed, True)
        assert len(shared) > 100
        assert shared == hinted_game(rules, seed, False), rules


# -- pondering: the last tricks searched on the opponent's time -------------------------------

def at_the_last_tricks(rules, seed, cards_left):
    """Hard against hard to the first decision with cards_left cards in the mover's hand after
    the stock: (state, seats, the seat that ponders)."""
    state = new_game(rules, seed)
    seats = [new_player(rules, p, "hard", seed * 7 + p) for p in (0, 1)]
    while True:
        p = state.current_player()
        obs = state.observation(p)
        if obs.phase == PH_PLAY and obs.turnup < 0 and cards.count(obs.hand) == cards_left:
            return state, seats, 1 - p
        state.apply(seats[p].choose(obs))


def test_pondering_a_right_guess_decides_without_a_search_of_its_own():
    state, seats, me = at_the_last_tricks("french", 3, 10)
    seat = seats[me]
    assert sum(1 for _ in seat.pondering(state.observation(me))) > 10
    guess = seat.ponder_key % 32        # the card it guessed
    assert seat.ponder_search is not None and guess in state.observation(1 - me).legal
    nodes = seat.solver.nodes
    move = seat.endgame_move                # the pondered search has ended: its move
    state.apply(guess)
    assert state.current_player() == me     # (not a trick he completed and won)
    assert seat.choose(state.observation(me)) == move
    assert seat.solver.nodes == nodes and seat.ponder_search is None


def test_pondering_a_wrong_guess_searches_afresh():
    state, seats, me = at_the_last_tricks("hoyle", 5, 9)
    seat = seats[me]
    for _ in seat.pondering(state.observation(me)):
        pass
    other = [a for a in state.observation(1 - me).legal if a != seat.ponder_key % 32]
    assert other
    state.apply(other[0])
    while state.current_player() != me:
        state.apply(seats[1 - me].choose(state.observation(1 - me)))
    obs = state.observation(me)
    assert seat.choose(obs) in obs.legal
    assert 0 < seat.endgame_nodes and seat.ponder_search is None


def test_a_pondered_search_taken_over_early_spends_no_more_than_a_decision():
    state, seats, me = at_the_last_tricks("french", 3, 10)
    seat = seats[me]
    steps = 0
    for _ in seat.pondering(state.observation(me)):
        steps += 1
        if seat.ponder_search is not None and seat.endgame_nodes > 100:
            break                           # the person played early: a little of the search
    state.apply(seat.ponder_key % 32)
    assert state.current_player() == me
    before = seat.endgame_nodes
    seat.choose(state.observation(me))
    horizon = levels.flag(seat.p, levels.HORIZON)
    assert before <= 200 and horizon < seat.endgame_nodes - before + 200 <= horizon + 400
    assert seat.endgame_limit == before + horizon


def test_only_hard_ponders_and_only_in_the_last_tricks():
    state = new_game("hoyle", 2)
    seats = [new_player("hoyle", p, "hard", 2) for p in (0, 1)]
    p = state.current_player()
    assert list(seats[1 - p].pondering(state.observation(1 - p))) == []     # the stock is open
    assert seats[1 - p].ponder_search is None
    state, seats, me = at_the_last_tricks("hoyle", 2, 8)
    normal = new_player("hoyle", me, "normal", 2)
    assert list(normal.pondering(state.observation(me))) == [] and normal.ponder_search is None
    assert [levels.flag(levels.params(lv), levels.PONDER) > 0 for lv in LEVELS] == [False, False, True, False]


def test_a_guess_that_wins_him_the_trick_leaves_nothing_to_take_over():
    """He follows and the guessed card wins: the pondered position is his lead, never this
    seat's turn. After he leads the other card of that face, the card this seat's turn sees
    last is the guessed one again, yet it searches afresh, with a decision's budget."""
    for seed in range(1, 60):
        state, seats, me = at_the_last_tricks("french", seed, 9)
        while state.current_player() != me or state.observation(me).trick:
            p = state.current_player()
            state.apply(seats[p].choose(state.observation(p)))
        state.apply(seats[me].choose(state.observation(me)))     # this seat leads: he follows
        seat = seats[me]
        he = 1 - me
        for _ in seat.pondering(state.observation(me)):
            pass
        if seat.ponder_search is None:
            continue                        # the deal ended before this seat led
        guess = seat.ponder_key % 32
        state.apply(guess)
        if state.current_player() != he or guess not in state.observation(he).legal:
            continue                        # not won by him, or not his face twice
        state.apply(guess)
        obs = state.observation(me)
        assert seat.choose(obs) in obs.legal
        assert seat.endgame_limit == seat.endgame_budget(cards.count(obs.hand))
        return
    raise AssertionError("no guess that won him the trick with its face twice in his hand")
