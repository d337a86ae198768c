"""The AI plays every rule set on the device interpreter, with the same decisions as on CPython."""

from engine.ai import new_player
from engine.rules import new_game
from tests.device.test_same_results import checksum

# rule set -> (scores after two deals, actions, record checksum), produced on CPython; the
# device suite checks them again under MicroPython. Regenerate with expected() below.
EXPECTED = (
    ("hoyle", ((351, 389), 111, (39543, 4536))),
    ("french", ((351, 389), 107, (14329, 4152))),
    ("binokel", ((543, -307, 169), 110, (49544, 3752))),
)
LEVELS = ("easy", "normal", "hard")


def result(rules):
    state = new_game(rules, 31)
    seats = [new_player(rules, p, LEVELS[p % 3], 100 + p) for p in range(state.PLAYERS)]
    while not state.is_game_over() and state.deal_number <= 2:
        p = state.current_player()
        obs = state.observation(p)
        a = seats[p].choose(obs)
        assert a in obs.legal
        state.apply(a)
    return tuple(state.scores()), state.nactions, checksum(bytes(state.history))


def expected():
    for rules, _ in EXPECTED:
        print((rules, result(rules)))


def _check(i):
    rules, want = EXPECTED[i]
    got = result(rules)
    assert got == want, "%s: got %r, expected %r" % (rules, got, want)


def test_ai_hoyle_same_decisions():
    _check(0)


def test_ai_french_same_decisions():
    _check(1)


def test_ai_binokel_same_decisions():
    _check(2)
