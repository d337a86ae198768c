"""A fixed seed gives the same game on every interpreter.

The expected figures were produced on CPython; the device suite checks them
again under MicroPython. If the rules or the generator change on purpose,
regenerate them with: python -c "from tests.device.test_same_results import expected; expected()"
"""

from engine import record
from tests.device import helpers

# rule set, options -> (final scores, winner, actions, deals, record checksum)
EXPECTED = (
    ("hoyle", {}, ((614, 1046), 1, 230, 4, (2777, 10070))),
    ("hoyle", {"pack64": True}, ((1008, 822), 0, 441, 6, (5799, 13129))),
    ("french", {}, ((1513, 1127), 0, 435, 8, (24979, 17292))),
    ("binokel", {}, ((1629, 618, -2375), 0, 899, 28, (5998, 39677))),
)
SEED = 20261130


def checksum(data):
    """Adler-32 in two 16-bit halves: small ints on every board."""
    a = 1
    b = 0
    for byte in data:
        a = (a + byte) % 65521
        b = (b + a) % 65521
    return (b, a)


def result(rules, options):
    state = helpers.random_game(rules, SEED, max_deals=30, **options)
    data = record.encode(state)
    return (tuple(state.scores()), state.winner(), state.nactions, state.deal_number, checksum(data))


def expected():
    for rules, options, _ in EXPECTED:
        print((rules, options, result(rules, options)))


def _check(i):
    rules, options, want = EXPECTED[i]
    got = result(rules, options)
    assert got == want, "%s %s: got %r, expected %r" % (rules, options, got, want)


def test_hoyle_same_result():
    _check(0)


def test_hoyle_64_same_result():
    _check(1)


def test_french_same_result():
    _check(2)


def test_binokel_same_result():
    _check(3)
