"""Game records: bytes, replay, and clear errors on bad input (issue: records)."""

from engine import record
from engine.rules import new_game
from tests.device import helpers


def test_header_layout():
    state = new_game("french", 0x01020304)
    data = record.encode(state)
    assert len(data) == record.HEADER_SIZE
    assert data[:record.HEADER_SIZE] == bytes([record.FORMAT_VERSION, 1, 0, 4, 3, 2, 1])
    assert record.read_header(data) == ("french", 0, 0x01020304)


def test_options_kept():
    state = new_game("hoyle", 5, pack64=True, grand_binocle=False)
    assert record.read_header(record.encode(state)) == ("hoyle", 3, 5)
    assert record.replay(record.encode(state)).pack64


def test_replay_every_prefix_identical():
    for rules in ("hoyle", "french", "binokel"):
        state = helpers.random_game(rules, 3, max_deals=1)
        data = record.encode(state)
        n = len(record.decode_actions(data))
        assert n == state.nactions
        for upto in (0, 1, n // 3, n // 2, n):
            part = record.replay(data, upto)
            assert part.nactions == upto
        assert helpers.fingerprint(record.replay(data)) == helpers.fingerprint(state)


def test_a_few_bytes_per_action():
    for rules in ("hoyle", "french", "binokel"):
        state = helpers.random_game(rules, 9, max_deals=2)
        body = len(record.encode(state)) - record.HEADER_SIZE
        assert body <= 3 * state.nactions
        assert body < 1.3 * state.nactions


def _rejects(data, words):
    try:
        record.replay(data)
    except record.RecordError as e:
        assert words in str(e), str(e)
    else:
        raise AssertionError("accepted %r" % (data,))


def test_bad_records_rejected():
    good = record.encode(helpers.random_game("hoyle", 4, max_deals=1))
    _rejects(b"", "too short")
    _rejects(bytes([9]) + good[1:], "format 9")
    _rejects(good[:1] + bytes([7]) + good[2:], "unknown rule set")
    _rejects(good + bytes([0x81]), "ends inside an action")
    _rejects(good[:record.HEADER_SIZE] + bytes([0x7F]), "not legal")
    _rejects(good[:record.HEADER_SIZE] + bytes([0xFF, 0xFF, 0xFF, 0xFF, 0x01]), "too long")


def test_stacked_game_has_no_record():
    state = helpers.two_hand_game("hoyle", "AS " * 2 + "TS " * 2 + "KS KS QS QS JS JS 9S 9S",
                                  "AH AH TH TH KH KH QH QH JH JH 9H 9H", "AD")
    try:
        record.encode(state)
    except record.RecordError:
        pass
    else:
        raise AssertionError("stacked game encoded")
