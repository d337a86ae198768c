"""The exact endgame solver (engine/ai/endgame.py): hand-made endings and a plain minimax."""

from engine import cards, tricks
from engine.ai.endgame import Solver
from engine.rng import Rng

HEARTS = cards.SUIT_H
DIAMONDS = cards.SUIT_D


def hand(text):
    return cards.counts_of(cards.parse_many(text))


def solve(h0, h1, trump, leader, led="", max_nodes=100000):
    """Solver answer for hands in notation; `led` is a card already led by leader."""
    trick = bytearray(2)
    if led:
        trick[0] = cards.parse(led)
    return Solver(8).solve(hand(h0), hand(h1), trump, leader, trick, 1 if led else 0, max_nodes)


# -- the reference: every line of play, no pruning -------------------------------

def brute(hands, trump, leader, trick, trick_n):
    """Points player 0 wins from here under best play, by trying every legal line."""
    if trick_n == 0:
        if cards.count(hands[leader]) == 0:
            return 0
        options = [f for f in range(32) if hands[leader][f]]
        mover = leader
    else:
        options = []
        tricks.legal_follow(hands[1 - leader], trick, 1, trump, options)
        mover = 1 - leader
    values = []
    for f in options:
        hands[mover][f] -= 1
        if trick_n == 0:
            values.append(brute(hands, trump, leader, bytearray([f, 0]), 1))
        else:
            values.append(_after_trick(hands, trump, leader, bytearray([trick[0], f])))
        hands[mover][f] += 1
    return max(values) if mover == 0 else min(values)


def _after_trick(hands, trump, leader, trick):
    winner = (leader + tricks.winning_index(trick, 2, trump)) % 2
    won = cards.points(trick[0]) + cards.points(trick[1])
    if cards.count(hands[0]) + cards.count(hands[1]) == 0:
        won += 10
    return (won if winner == 0 else 0) + brute(hands, trump, winner, None, 0)


def value_of_move(hands, trump, leader, trick, trick_n, move):
    """Exact value after the player to move plays `move` (it must be legal)."""
    hands = [bytearray(hands[0]), bytearray(hands[1])]
    mover = leader if trick_n == 0 else 1 - leader
    legal = [f for f in range(32) if hands[mover][f]]
    if trick_n:
        legal = []
        tricks.legal_follow(hands[mover], trick, 1, trump, legal)
    assert move in legal, "illegal move %s" % cards.name(move)
    hands[mover][move] -= 1
    if trick_n == 0:
        return brute(hands, trump, leader, bytearray([move, 0]), 1)
    return _after_trick(hands, trump, leader, bytearray([trick[0], move]))


def random_endgame(rng, n, pack64=False, led=False):
    """(hands, trump, leader, trick, trick_n): n cards each from a shuffled double pack,
    or n and n + 1 with a card led."""
    pack = []
    for f in range(32):
        if f & 7 >= cards.lowest_rank(pack64):
            pack.append(f)
            pack.append(f)
    rng.shuffle(pack)
    trump = rng.below(4)
    leader = rng.below(2)
    hands = [bytearray(32), bytearray(32)]
    pos = 0
    for p in (0, 1):
        for _ in range(n + (1 if led and p != leader else 0)):
            hands[p][pack[pos]] += 1
            pos += 1
    trick = bytearray(2)
    trick[0] = pack[pos]
    return hands, trump, leader, trick, 1 if led else 0


def check_against_brute(solver, rng, n, pack64, led):
    hands, trump, leader, trick, trick_n = random_endgame(rng, n, pack64, led)
    want = brute([bytearray(hands[0]), bytearray(hands[1])], trump, leader, trick, trick_n)
    value, move, exact = solver.solve(hands[0], hands[1], trump, leader, trick, trick_n, 10000000)
    where = "%s | %s trump %d leader %d led %s" % (
        cards.format_counts(hands[0]), cards.format_counts(hands[1]), trump, leader,
        cards.name(trick[0]) if trick_n else "-")
    assert exact and value == want, "%s: solver %d, brute force %d" % (where, value, want)
    got = value_of_move(hands, trump, leader, trick, trick_n, move)
    assert got == want, "%s: move %s makes %d, not %d" % (where, cards.name(move), got, want)


# -- hand-made endings --------------------------------------------------------

def test_last_trick_takes_ten_more():
    # AS KS: 11 + 4, and 10 for the last trick.
    assert solve("AS", "KS", HEARTS, 0) == (25, cards.parse("AS"), True)
    assert solve("KS", "AS", HEARTS, 0) == (0, cards.parse("KS"), True)
    assert solve("KS", "AS", HEARTS, 1) == (0, cards.parse("AS"), True)


def test_identical_cards_first_played_wins():
    assert solve("TS", "TS", HEARTS, 0) == (30, cards.parse("TS"), True)
    assert solve("TS", "TS", HEARTS, 1) == (0, cards.parse("TS"), True)


def test_void_follower_must_trump():
    # 9H is trump and player 1 has no spade: he trumps, 11 + 0 + 10 are his.
    assert solve("AS", "9H", HEARTS, 0)[0] == 0
    # No trump in hand: anything goes, and the ace wins.
    assert solve("AS", "9H", DIAMONDS, 0)[0] == 21


def test_forced_trump_decides_the_lead():
    # Lead AS: player 1 must trump with TH (21 for him), then AD takes his 9D and the
    # last 10 (21). Lead AD first: 11, then TH trumps AS with the last trick (31).
    assert solve("AS AD", "TH 9D", HEARTS, 0) == (21, cards.parse("AS"), True)


def test_must_win_if_he_can():
    # Lead KS: the ace must take it (15), then 9S takes AC with the last trick: 0.
    # Lead AC: player 1 keeps his ace (discards 9S), so AC takes 11, then KS loses 25.
    assert solve("KS AC", "AS 9S", DIAMONDS, 0) == (11, cards.parse("AC"), True)


def test_card_already_led():
    # AS led: player 1 must follow with TS and cannot beat it (21 to player 0); then KH
    # trumps QD with the last trick (17 to player 1).
    assert solve("QD", "TS KH", HEARTS, 0, led="AS") == (21, cards.parse("TS"), True)
    # Player 1 led AS and player 0 must beat it if he can: no higher spade, so any spade.
    assert solve("TS KH", "QD", HEARTS, 1, led="AS") == (17, cards.parse("TS"), True)


def test_sliced_search_matches_and_small_budget_is_flagged():
    rng = Rng(77)
    hands, trump, leader, trick, trick_n = random_endgame(rng, 5)
    whole = Solver(8)
    full = whole.solve(hands[0], hands[1], trump, leader, trick, trick_n, 1000000)
    assert full[2] and whole.nodes > 20
    sliced = Solver(8)
    sliced.start(hands[0], hands[1], trump, leader, trick, trick_n)
    slices = 1
    while not sliced.step(7):
        slices += 1
    assert (sliced.value, sliced.move, sliced.nodes) == (full[0], full[1], whole.nodes)
    assert slices == (whole.nodes + 6) // 7
    value, move, exact = Solver(8).solve(hands[0], hands[1], trump, leader, trick, trick_n, 10)
    assert not exact and value == -1


def test_search_allocates_nothing():
    import gc
    if not hasattr(gc, "mem_alloc"):    # CPython: nothing to measure
        return
    positions = [([hand("AS AS TH TH 9D"), hand("KS QS TD TD JC")], HEARTS, 0, bytearray(2), 0)]
    rng = Rng(5)
    positions.append(random_endgame(rng, 6))
    positions.append(random_endgame(rng, 5, False, True))
    solver = Solver(8)
    for hands, trump, leader, trick, trick_n in positions:
        before = gc.mem_alloc()         # no gc.collect(): it breaks the WASI build (run.py)
        solver.start(hands[0], hands[1], trump, leader, trick, trick_n)
        done = solver.step(1000000)
        assert gc.mem_alloc() - before == 0 and done and solver.nodes > 10


def test_bad_hand_sizes_rejected():
    for h0, h1, led in (("AS", "KS QS", ""), ("", "", ""), ("AS", "KS", "QS")):
        try:
            solve(h0, h1, HEARTS, 0, led)
        except ValueError:
            continue
        raise AssertionError("accepted %r %r %r" % (h0, h1, led))


# -- agreement with the reference ---------------------------------------------

def test_agrees_with_brute_force_on_small_endgames():
    rng = Rng(2024)
    solver = Solver(6)          # small: entries get replaced, and kept across positions
    for i in range(40):
        check_against_brute(solver, rng, 1 + i % 4, i % 5 == 4, i % 3 == 2)
