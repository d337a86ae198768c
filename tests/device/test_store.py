"""The save format of lib/binocle/store.py under MicroPython too: round trips, cut writes,
bit flips, blank and foreign memory, format versions 0 and 2 (issue: autosave)."""

import sys

if "lib" not in sys.path:
    sys.path.append("lib")

from binocle import store
from binocle.store import KIND_GAME, KIND_SETTINGS, Store
from engine import record
from engine.rng import Rng
from tests.device import helpers

DAMAGED = "Saved game damaged:\nnew start."


def blank(n=8192, fill=0xFF):
    return bytearray(bytes([fill]) * n)


def slot_end(n, slot):
    """Where a game slot ends in an nvm of n bytes (module docstring)."""
    return 768 + (slot + 1) * ((n - 768) // 2)


def two_saves(n=8192):
    """An nvm holding two records of one game: the older in slot 0, the newer in slot 1."""
    state = helpers.random_game("hoyle", 12, max_deals=1)
    data = record.encode(state)
    old, new = data[:-3], data[:-2]
    nvm = blank(n)
    s = Store(nvm)
    assert s.save_game(old) and s.save_game(new)
    return nvm, old, new, data


def test_store_crc_of_known_bytes():
    assert store.crc16(b"123456789") == 0x29B1
    assert store.crc16(bytes(range(256))) == 0x3FBD
    assert store.crc16(b"xx123456789yy", 2, 11) == 0x29B1


def test_store_round_trip_8k_and_4k():
    for n in (8192, 4096):
        nvm = blank(n)
        rec = record.encode(helpers.random_game("binokel", 5, max_deals=1))
        s = Store(nvm)
        assert s.load_game() == (None, None)
        assert s.save_game(rec) and s.save_blob(KIND_SETTINGS, b"\x01\x00\x02")
        again = Store(nvm)
        assert again.load_game() == (rec, None)
        assert again.load_blob(KIND_SETTINGS) == (b"\x01\x00\x02", None)
        assert helpers.fingerprint(record.replay(again.load_game()[0])) == \
            helpers.fingerprint(record.replay(rec))
        assert again.clear_game() and Store(nvm).load_game() == (None, None)


def test_store_cut_write_keeps_the_previous_save():
    nvm, old, new, longer = two_saves()
    after = bytearray(nvm)
    assert Store(after).save_game(longer)                  # goes to slot 0, the older one
    end = slot_end(8192, 0)
    start = end - len(longer) - 11
    assert after[:start] == nvm[:start] and after[end:] == nvm[end:]
    total = end - start
    for k in (0, 1, len(longer) // 2, len(longer), len(longer) + 5, total - 1, total):
        cut = bytearray(nvm)
        cut[start:start + k] = after[start:start + k]      # a power cut after k bytes
        want = longer if k == total else new
        assert Store(cut).load_game() == (want, None), k


def test_store_bit_flips_are_detected():
    nvm, old, new, _ = two_saves()
    end = slot_end(8192, 1)
    for back in (1, 2, 4, 6, 9, 11, 12, 40, len(new) + 11):
        flipped = bytearray(nvm)
        flipped[end - back] ^= 0x10
        assert Store(flipped).load_game() == (old, None), back
        flipped[slot_end(8192, 0) - 20] ^= 0x01            # the older copy too
        assert Store(flipped).load_game()[0] is None


def test_store_blank_and_foreign_memory():
    for fill in (0xFF, 0x00):
        assert Store(blank(4096, fill)).load_game() == (None, None)
    rng = Rng(3)
    junk = bytearray(8192)
    for i in range(8192):
        junk[i] = rng.below(256)
    s = Store(junk)
    assert s.load_game() == (None, "Saved game: unknown data\nfound; new start.")
    assert s.load_blob(KIND_SETTINGS)[0] is None
    rec = record.encode(helpers.random_game("french", 2, max_deals=1))
    assert s.save_game(rec) and Store(junk).load_game() == (rec, None)


def test_store_versions_0_and_2():
    nvm, old, new, _ = two_saves(4096)
    end = slot_end(4096, 1)
    v2 = bytearray(nvm)
    v2[end - 6] = 2                                        # version 2, CRC made good again
    crc = store.crc16(v2, end - 11 - len(new), end - 3)
    v2[end - 3] = crc & 0xFF
    v2[end - 2] = crc >> 8
    assert Store(v2).load_game() == (None, "Saved game: from a newer\nversion, not used.")
    v0 = blank(4096)                                       # version 0: no kind byte
    n = len(new)
    body = bytes(new) + bytes([9, 0, n & 0xFF, n >> 8, 0, 0xB1, 0x0C])
    crc = store.crc16(body)
    v0[end - n - 10:end] = body + bytes([crc & 0xFF, crc >> 8, 9])
    assert Store(v0).load_game() == (new, None)
    v0[end - 12] ^= 1
    assert Store(v0).load_game() == (None, DAMAGED)


def test_store_too_long_is_refused_and_changes_nothing():
    nvm, old, new, _ = two_saves(4096)
    before = bytes(nvm)
    s = Store(nvm)
    assert not s.save_game(bytes(s.capacity() + 1))
    assert bytes(nvm) == before and s.load_game() == (new, None)
