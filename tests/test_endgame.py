"""The exact endgame solver against an exhaustive reference on many seeded endgames (CPython)."""

from engine import cards, tricks
from engine.ai.endgame import Solver
from engine.ai.leaf import LEAF_WEIGHTS, leaf_terms, playouts, score
from engine.ai.rollout import Rollout
from engine.rng import Rng
from tests.device.test_endgame import brute, random_endgame


class Reference:
    """Every line of play (engine.tricks rules), memoised on the exact position only."""

    def __init__(self, trump):
        self.trump = trump
        self.memo = {}

    def value(self, hands, leader, trick, trick_n):
        if trick_n == 0:
            return self.trick_start(hands, leader)
        follower = 1 - leader
        legal = []
        tricks.legal_follow(hands[follower], trick, 1, self.trump, legal)
        values = [self.after(hands, leader, trick[0], f) for f in legal]
        return max(values) if follower == 0 else min(values)

    def trick_start(self, hands, leader):
        key = (bytes(hands[0]), bytes(hands[1]), leader)
        if key not in self.memo:
            if not any(hands[leader]):
                self.memo[key] = 0
            else:
                values = []
                for f in range(32):
                    if hands[leader][f]:
                        hands[leader][f] -= 1
                        values.append(self.value(hands, leader, bytearray([f, 0]), 1))
                        hands[leader][f] += 1
                self.memo[key] = max(values) if leader == 0 else min(values)
        return self.memo[key]

    def after(self, hands, leader, lead, f):
        """Value once the follower has played f to lead."""
        follower = 1 - leader
        hands[follower][f] -= 1
        trick = bytearray([lead, f])
        winner = (leader + tricks.winning_index(trick, 2, self.trump)) % 2
        won = cards.points(lead) + cards.points(f)
        if not any(hands[0]) and not any(hands[1]):
            won += 10
        v = (won if winner == 0 else 0) + self.trick_start(hands, winner)
        hands[follower][f] += 1
        return v

    def value_of_move(self, hands, leader, trick, trick_n, move):
        if trick_n:
            legal = []
            tricks.legal_follow(hands[1 - leader], trick, 1, self.trump, legal)
            assert move in legal
            return self.after(hands, leader, trick[0], move)
        assert hands[leader][move]
        hands[leader][move] -= 1
        v = self.value(hands, leader, bytearray([move, 0]), 1)
        hands[leader][move] += 1
        return v


def describe(hands, trump, leader, trick, trick_n):
    return "%s | %s trump %s leader %d led %s" % (
        cards.format_counts(hands[0]), cards.format_counts(hands[1]), cards.SUIT_CHARS[trump],
        leader, cards.name(trick[0]) if trick_n else "-")


def check_many(solver, seed, count, max_cards):
    rng = Rng(seed)
    for i in range(count):
        n = 1 + rng.below(max_cards)
        hands, trump, leader, trick, trick_n = random_endgame(rng, n, rng.below(5) == 0, rng.below(3) == 0)
        ref = Reference(trump)
        want = ref.value(hands, leader, trick, trick_n)
        value, move, exact = solver.solve(hands[0], hands[1], trump, leader, trick, trick_n, 10 ** 7)
        where = describe(hands, trump, leader, trick, trick_n)
        assert exact and value == want, "%s: solver %d, reference %d" % (where, value, want)
        got = ref.value_of_move(hands, leader, trick, trick_n, move)
        assert got == want, "%s: %s makes %d, not %d" % (where, cards.name(move), got, want)


def test_reference_agrees_with_plain_minimax():
    rng = Rng(9)
    for i in range(60):
        hands, trump, leader, trick, trick_n = random_endgame(rng, 1 + i % 4, i % 4 == 3, i % 3 == 0)
        assert Reference(trump).value(hands, leader, trick, trick_n) == brute(
            [bytearray(hands[0]), bytearray(hands[1])], trump, leader, trick, trick_n)


def test_agrees_with_reference_on_2000_endgames():
    check_many(Solver(10), 1, 2000, 6)    # one table for all: entries kept across positions


def test_agrees_with_a_tiny_table():
    check_many(Solver(2), 2, 200, 6)      # four entries: nearly every store replaces one


def play_out(solver, hands, trump, leader, trick, trick_n):
    """Follow the solver's moves to the end; the points player 0 took on the way."""
    hands = [bytearray(hands[0]), bytearray(hands[1])]
    trick = bytearray(trick)
    taken = 0
    while any(hands[0]) or any(hands[1]) or trick_n:
        value, move, exact = solver.solve(hands[0], hands[1], trump, leader, trick, trick_n, 10 ** 7)
        assert exact
        mover = leader if trick_n == 0 else 1 - leader
        hands[mover][move] -= 1
        trick[trick_n] = move
        trick_n += 1
        if trick_n == 2:
            leader = (leader + tricks.winning_index(trick, 2, trump)) % 2
            won = cards.points(trick[0]) + cards.points(trick[1])
            if not any(hands[0]) and not any(hands[1]):
                won += 10
            taken += won if leader == 0 else 0
            trick_n = 0
    return taken


def test_large_endgames_solve_and_the_best_line_scores_the_value():
    rng = Rng(12)
    solver = Solver(14)
    for n, led in ((8, False), (8, True), (9, False), (10, False), (10, True), (11, True), (12, False)):
        hands, trump, leader, trick, trick_n = random_endgame(rng, n, False, led)
        solver.clear()
        value, move, exact = solver.solve(hands[0], hands[1], trump, leader, trick, trick_n, 3000000)
        assert exact and 0 <= value <= 250, describe(hands, trump, leader, trick, trick_n)
        assert solver.nodes <= 3000000
        assert play_out(solver, hands, trump, leader, trick, trick_n) == value


def test_small_budget_is_flagged_and_can_go_on():
    rng = Rng(3)
    hands, trump, leader, trick, trick_n = random_endgame(rng, 10)
    solver = Solver(12)
    value, move, exact = solver.solve(hands[0], hands[1], trump, leader, trick, trick_n, 50)
    assert (value, exact) == (-1, False) and solver.nodes == 50
    assert move == -1 or hands[leader][move]
    while not solver.step(1000):
        pass
    whole = Solver(12)
    assert whole.solve(hands[0], hands[1], trump, leader, trick, trick_n, 10 ** 7) == \
        (solver.value, solver.move, True)
    assert solver.nodes == whole.nodes


def test_a_slice_taken_in_steps_stops_where_one_step_would():
    # TwoHandPlayer.search_endgame takes its slices of 200 nodes in steps of 50, yielding
    # between them: the search must end each slice where one step of 200 would end it.
    rng = Rng(5)
    whole, steps = Solver(7, 6), Solver(7, 6)
    stopped = 0
    for i in range(30):
        n = 7 + i % 6
        hands, trump, leader, trick, trick_n = random_endgame(rng, n, False, i % 4 == 0)
        for s in (whole, steps):
            s.clear()
            s.start(hands[0], hands[1], trump, leader, trick, trick_n, n - 3)
        for stop in (200, 400):
            done = whole.step(stop - whole.nodes)
            while not steps.done and steps.nodes < stop:
                steps.step(min(7, stop - steps.nodes))
            assert (steps.done, steps.nodes, steps.d, steps.bmove[1]) == \
                (done, whole.nodes, whole.d, whole.bmove[1])
            stopped += not done
    assert stopped > 20             # most searches were cut at 200 or 400 nodes, not finished


def test_hash_values_stay_small_ints():
    solver = Solver(10)
    check_many(solver, 4, 100, 6)
    for v in solver.k1 + solver.k2 + solver.chk:
        assert -1 <= v < 2 ** 29


def test_the_last_tricks_bonus_is_the_rules_own():
    # The solver keeps the bonus as a const() of its own (no lookup per node on the board).
    from engine.ai import endgame
    assert endgame._LAST == cards.LAST_TRICK_POINTS


class HorizonReference(Reference):
    """Reference's every line, but trick starts with `leaf` cards or fewer in each hand
    (below the root) are scored by the playouts, as the solver's search to a horizon."""

    def __init__(self, trump, leaf):
        Reference.__init__(self, trump)
        self.leaf = leaf

    def trick_start(self, hands, leader):
        n = cards.count(hands[leader])
        if 0 < n <= self.leaf:                 # at most the points left, as the solver keeps it
            left = cards.card_points(hands[0]) + cards.card_points(hands[1]) + 10
            return min(model_points0(hands, leader, self.trump), left)
        return Reference.trick_start(self, hands, leader)


def test_a_search_to_a_horizon_is_minimax_over_the_tricks_before_it():
    rng = Rng(21)
    solver = Solver(7, 12)
    for i in range(120):
        n = 3 + i % 6
        hands, trump, leader, trick, trick_n = random_endgame(rng, n, i % 5 == 0, i % 3 == 0)
        ahead = 1 + i % 2
        ref = HorizonReference(trump, n - ahead)
        want = ref.value(hands, leader, trick, trick_n)
        solver.start(hands[0], hands[1], trump, leader, trick, trick_n, n - ahead)
        assert solver.step(10 ** 7)
        where = describe(hands, trump, leader, trick, trick_n)
        assert solver.value == want, "%s: solver %d, reference %d" % (where, solver.value, want)
        assert ref.value_of_move(hands, leader, trick, trick_n, solver.move) == want, where


def test_the_first_move_is_searched_first_and_the_table_gives_bounds_to_their_own_horizon():
    rng = Rng(22)
    solver = Solver(7, 12)
    hands, trump, leader, trick, trick_n = random_endgame(rng, 10)
    solver.start(hands[0], hands[1], trump, leader, trick, trick_n, 9)
    assert solver.step(10 ** 7)
    best = solver.move
    for f in range(32):
        if hands[leader][f] and f != best:
            solver.start(hands[0], hands[1], trump, leader, trick, trick_n, 9, f)
            solver.step(1)                       # the root's moves are made and ordered
            assert solver.mv[16] == f              # ply 1, slot 0 (16 slots a ply)
            break
    # The entries of the search to a horizon stay, and order the moves of an exact search,
    # but their bounds serve only that horizon: the exact value, and a best move.
    assert trick_n == 0
    exact = Solver(7, 12)
    want, _move, _done = exact.solve(hands[0], hands[1], trump, leader, trick, trick_n, 10 ** 7)
    value, move, done = solver.solve(hands[0], hands[1], trump, leader, trick, trick_n, 10 ** 7)
    assert (value, done, solver.leaf) == (want, True, 0)
    after = [bytearray(hands[0]), bytearray(hands[1])]
    after[leader][move] -= 1
    assert Solver(7, 12).solve(after[0], after[1], trump, leader, bytearray([move, 0]), 1, 10 ** 7)[0] == want
    fresh = Solver(7, 12)
    for s in (solver, fresh):                  # and back to a horizon: the value of a fresh table
        s.start(hands[0], hands[1], trump, leader, trick, trick_n, 8)
        assert s.step(10 ** 7)
    assert solver.value == fresh.value


def test_a_rollout_from_a_trick_start_leads_by_the_model():
    rng = Rng(23)
    ro = Rollout(2)
    for i in range(200):
        n = 1 + i % 12
        hands, trump, leader, trick, trick_n = random_endgame(rng, n)
        assert ro.run(hands, b"", leader, trump, -1, leader, n)
        whole = (ro.pts[0], ro.pts[1], ro.tricks[0], ro.tricks[1])
        lead = model_lead(hands[leader], trump)
        assert ro.run(hands, b"", leader, trump, lead, leader, n)
        assert (ro.pts[0], ro.pts[1], ro.tricks[0], ro.tricks[1]) == whole
        assert ro.pts[0] + ro.pts[1] == cards.card_points(hands[0]) + cards.card_points(hands[1]) + 10


def model_lead(hand, trump):
    """rollout.py's lead: a plain ace (first suit first), else the lowest card of the longest plain
    suit, else the lowest trump."""
    for t in range(4):
        if t != trump and hand[t * 8 + 7]:
            return t * 8 + 7
    longest = [t for t in range(4) if t != trump and any(hand[t * 8:t * 8 + 8])]
    if longest:
        t = max(longest, key=lambda s: (sum(hand[s * 8:s * 8 + 8]), -s))
        return min(f for f in range(t * 8, t * 8 + 8) if hand[f])
    return min(f for f in range(trump * 8, trump * 8 + 8) if hand[f])


def cash_lead(hand, other, trump):
    """rollout.py's cashing lead: the highest card of the first plain suit that the other hand
    can neither beat nor trump, else None."""
    for t in range(4):
        mine = [f for f in range(t * 8, t * 8 + 8) if hand[f]]
        if t == trump or not mine:
            continue
        if not any(other[t * 8:t * 8 + 8]) and any(other[trump * 8:trump * 8 + 8]):
            continue
        if not any(other[f] for f in range(max(mine) + 1, t * 8 + 8)):
            return max(mine)
    return None


def model_playout(hands, leader, trump, cash):
    """Points player 0 takes from a trick start to the end, both seats by rollout.py's model:
    the leads above (cash: a cashing lead first), the follower's cheapest legal card."""
    hands = [bytearray(hands[0]), bytearray(hands[1])]
    taken = 0
    while any(hands[leader]):
        lead = cash_lead(hands[leader], hands[1 - leader], trump) if cash else None
        if lead is None:
            lead = model_lead(hands[leader], trump)
        hands[leader][lead] -= 1
        legal = []
        tricks.legal_follow(hands[1 - leader], bytearray([lead, 0]), 1, trump, legal)
        f = min(legal, key=lambda c: (c & 7, c >> 3))    # points rise with rank
        hands[1 - leader][f] -= 1
        w = leader if tricks.winning_index(bytearray([lead, f]), 2, trump) == 0 else 1 - leader
        if w == 0:
            taken += cards.points(lead) + cards.points(f) + (10 if not any(hands[0]) else 0)
        leader = w
    return taken


def model_terms(hands, leader, trump):
    """leaf.LEAF_WEIGHTS' terms, player 0's less player 1's, from the hands' counts."""
    def side(h):
        trumps = sum(h[trump * 8:trump * 8 + 8])
        plain = [t for t in range(4) if t != trump]
        voids = sum(1 for t in plain if trumps and not any(h[t * 8:t * 8 + 8]))
        return [trumps, sum(h[t * 8 + 7] for t in plain), h[trump * 8 + 7], cards.card_points(h),
                voids, sum(h[t * 8 + 6] for t in range(4))]
    lead = 1 if leader == 0 else -1
    return [a - b for a, b in zip(side(hands[0]), side(hands[1]))] + [lead, lead * cards.count(hands[0])]


def model_points0(hands, leader, trump, weights=LEAF_WEIGHTS):
    """The mean of the two playouts, from 3 cards in hand corrected by the weighted terms: in
    16ths, rounded down, 0 or more."""
    both = model_playout(hands, leader, trump, False) + model_playout(hands, leader, trump, True)
    if cards.count(hands[0]) < 3:
        return both // 2
    x = sum(w * t for w, t in zip(weights, model_terms(hands, leader, trump)))
    return max(0, (8 * both + x) // 16)


def test_the_searchs_leaf_is_the_mean_of_the_two_model_playouts_corrected():
    rng = Rng(24)
    solver = Solver(7, 12)
    ro = Rollout(2)
    units = [tuple(int(i == j) for j in range(len(LEAF_WEIGHTS))) for i in range(len(LEAF_WEIGHTS))]
    for i in range(600):
        n = 1 + i % 12
        hands, trump, leader, trick, trick_n = random_endgame(rng, n, i % 4 == 0)
        solver.start(hands[0], hands[1], trump, leader, trick, 0)   # its rank masks and suit counts
        where = describe(hands, trump, leader, trick, 0)
        both = model_playout(hands, leader, trump, False) + model_playout(hands, leader, trump, True)
        assert playouts(solver.rm, solver.sc, leader, trump, n) == both, where
        assert score(both, solver.rm, solver.sc, leader, trump, n) == model_points0(hands, leader, trump), where
        terms = [leaf_terms(solver.rm, solver.sc, leader, trump, n, u) for u in units]
        assert terms == model_terms(hands, leader, trump), where
        assert ro.run(hands, b"", leader, trump, -1, leader, n)
        assert ro.pts[0] == model_playout(hands, leader, trump, False), where


def test_a_hand_of_aces_and_tens_has_the_terms_it_shows():
    """Player 0: both trump aces (trumps spades, suit 0), a plain ace and a ten; player 1 four
    plain low cards and no trumps: trumps +2, plain aces +1, trump aces +2, card points
    22 + 11 + 10 - 0, plain voids beside trumps +1 (clubs; player 1 has no trumps to use
    one), tens +1; player 0 leads with 4 cards each."""
    h0, h1 = bytearray(32), bytearray(32)
    h0[7] = 2
    h0[15] = 1
    h0[22] = 1
    h1[8] = h1[9] = h1[16] = h1[24] = 1
    solver = Solver(7, 12)
    solver.start(h0, h1, 0, 0, bytearray(2), 0)
    units = [tuple(int(i == j) for j in range(8)) for i in range(8)]
    assert [leaf_terms(solver.rm, solver.sc, 0, 0, 4, u) for u in units] == [2, 1, 2, 43, 1, 1, 1, 4]
    assert leaf_terms(solver.rm, solver.sc, 1, 0, 4, units[7]) == -4


def test_the_leafs_points_by_rank_bit_are_the_rules_own():
    from engine.ai import leaf
    assert len(set((1 << r) % 11 for r in range(8))) == 8
    for r in range(8):
        assert leaf._BIT_POINTS[(1 << r) % 11] == cards.RANK_POINTS[r]
    for high in range(16):                     # Q K 10 A: ranks 4 to 7
        assert leaf._HIGH_POINTS[high] == sum(cards.RANK_POINTS[4 + r] for r in range(4) if high >> r & 1)
