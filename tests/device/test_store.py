"""The saves under MicroPython too: the journal (lib/binocle/store.py) written and read back
(lib/binocle/saveload.py), bases, cut writes, damage, the nvm's format (nvmstore.py) with cut
writes, bit flips, blank and foreign memory, format versions 0 and 2, and the allocation of
a save during play."""

import sys

if "lib" not in sys.path:
    sys.path.append("lib")

from binocle import saveload, store
from binocle.nvmstore import KIND_SETTINGS, KIND_STATS, NvmStore
from binocle.saveload import open_saves
from binocle.stats import Stats
from binocle.store import BLOCK, SIZE, Journal, place
from engine import record
from engine.rng import Rng
from tests.device import helpers

DAMAGED = "Saved game damaged:\nnew start."
SETTINGS = b"\x01\x01\x02\x01\x01\x00\x00\x00\x01\x02\x01\x01"


class RamFile:
    """A file of SIZE bytes in RAM with the calls the journal makes; writes stop for good
    after `left` bytes (a power cut) if given."""

    def __init__(self, data=None, left=-1):
        self.data = bytearray(data) if data is not None else bytearray(b"\xff" * SIZE)
        self.pos = 0
        self.left = left

    def seek(self, pos):
        self.pos = pos
        return pos

    def write(self, b):
        n = len(b)
        if self.left < 0:
            self.data[self.pos:self.pos + n] = b        # no copy: allocation is measured
        else:
            m = min(n, self.left)
            self.left -= m
            self.data[self.pos:self.pos + m] = b[:m]
        self.pos += n
        return n

    def readinto(self, buf):
        n = len(buf)
        buf[:] = self.data[self.pos:self.pos + n]
        self.pos += n
        return n


def blank(n=8192, fill=0xFF):
    return bytearray(bytes([fill]) * n)


def save(j, rec, stats=None):
    stats = stats if stats is not None else bytes(212)
    if rec is None:
        return j.save(SETTINGS, stats)
    return j.save(SETTINGS, stats, rec[:7], memoryview(rec)[7:])


def records():
    state = helpers.random_game("binokel", 5, max_deals=1000)
    return record.encode(state)


# -- the journal ---------------------------------------------------------------------------

def test_store_journal_round_trip_with_bases():
    rec = records()
    assert len(rec) > 1200
    f = RamFile()
    j = Journal(f)
    for n in (7, 100, 300, 560, 900, len(rec)):
        assert save(j, rec[:n], bytes([n & 0xFF]) * 212)
        got = open_saves(blank(), f)
        assert got.record == rec[:n] and got.stats == bytes([n & 0xFF]) * 212, n
        assert got.settings == SETTINGS and got.notes == []
    assert j.base is not None and got.base == j.base
    assert helpers.fingerprint(record.replay(got.record)) == \
        helpers.fingerprint(record.replay(rec))
    assert save(j, None) and open_saves(blank(), f).record is None


def test_store_journal_cut_keeps_the_previous_entry():
    rec = records()
    f = RamFile()
    j = Journal(f)
    assert save(j, rec[:200]) and save(j, rec[:201])
    before = bytes(f.data)
    for new, writes in ((rec[:260], 1), (rec[:700], 3)):
        for k in (0, 1, 11, 12, 100, 300, 511, 512, 700, 1023, 1100, 1535, 1536):
            if k > writes * BLOCK:
                continue
            cut = RamFile(before, k)
            save(Journal(cut, 2, j.base), new)
            got = open_saves(blank(), RamFile(cut.data))
            assert got.record in (rec[:201], new) and got.notes == [], k
            if k < (writes - 1) * BLOCK + 12:
                assert got.record == rec[:201], k


def test_store_journal_damage_and_versions():
    rec = records()
    f = RamFile()
    j = Journal(f)
    for n in (600, 650):
        assert save(j, rec[:n])
    at = place(j.seq)
    d = RamFile(f.data)
    d.data[at + 40] ^= 0x20                         # the newest entry: the one before it
    assert open_saves(blank(), d).record == rec[:600]
    d = RamFile(f.data)
    d.data[store.BASES[0] * 4096 + 30] ^= 1         # the base: the game, not the statistics
    got = open_saves(blank(), d)
    assert got.record is None and got.notes == [DAMAGED] and got.stats == bytes(212)
    d = RamFile(f.data)
    d.data[at + 3] = 2                              # a newer version's entry, CRC made good
    n = d.data[at + 8] | d.data[at + 9] << 8
    crc = store.crc16(d.data, at + 12, at + 12 + n, store.crc16(d.data, at, at + 10))
    d.data[at + 10] = crc & 0xFF
    d.data[at + 11] = crc >> 8
    got = open_saves(blank(), d)
    assert got.record is None and got.notes == [saveload.MSG_NEWER_DRIVE]


def test_store_a_save_allocates_almost_nothing():
    import gc
    if not hasattr(gc, "mem_alloc"):                # CPython: nothing to count with
        return
    rec = records()
    f = RamFile()
    j = Journal(f)
    stats = Stats()
    body = bytearray(rec[7:600])
    head = rec[:7]
    assert j.save(SETTINGS, stats.b, head, body)    # the base: written once
    was = gc.isenabled()
    gc.disable()                                    # (no collect: the WASI build's is unsafe)
    try:
        before = gc.mem_alloc()
        for _ in range(20):
            j.save(SETTINGS, stats.b, head, body)
        used = gc.mem_alloc() - before
    finally:
        if was:
            gc.enable()
    assert used <= 20 * 64, used                    # two small memoryviews, no copies
    assert open_saves(blank(), f).record == head + body


# -- the nvm's backup format -----------------------------------------------------------------

def slot_end(n, slot):
    """Where a game slot ends in an nvm of n bytes (saveload's docstring)."""
    return 768 + (slot + 1) * ((n - 768) // 2)


def two_saves(n=8192):
    """An nvm holding two records of one game: the older in slot 0, the newer in slot 1."""
    state = helpers.random_game("hoyle", 12, max_deals=1)
    data = record.encode(state)
    old, new = data[:-3], data[:-2]
    nvm = blank(n)
    s = NvmStore(nvm)
    assert s.save_game(old) and s.save_game(new)
    return nvm, old, new, data


def test_store_crc_of_known_bytes():
    assert store.crc16(b"123456789") == 0x29B1
    assert store.crc16(bytes(range(256))) == 0x3FBD
    assert store.crc16(b"xx123456789yy", 2, 11) == 0x29B1


def test_store_nvm_round_trip_8k_and_4k():
    for n in (8192, 4096):
        nvm = blank(n)
        rec = record.encode(helpers.random_game("binokel", 5, max_deals=1))
        s = NvmStore(nvm)
        assert s.load_game() == (None, None)
        assert s.save_game(rec) and s.save_blob(KIND_SETTINGS, b"\x01\x00\x02")
        again = NvmStore(nvm)
        assert again.load_game() == (rec, None)
        assert again.load_blob(KIND_SETTINGS) == (b"\x01\x00\x02", None)
        assert again.clear_game() and NvmStore(nvm).load_game() == (None, None)
        assert again.save_pair(SETTINGS, b"\x07" * 212)
        assert NvmStore(nvm).load_blob(KIND_STATS) == (b"\x07" * 212, None)
        assert NvmStore(nvm).load_blob(KIND_SETTINGS) == (SETTINGS, None)


def test_store_nvm_cut_write_keeps_the_previous_save():
    nvm, old, new, longer = two_saves()
    after = bytearray(nvm)
    assert NvmStore(after).save_game(longer)        # goes to slot 0, the older one
    end = slot_end(8192, 0)
    start = end - len(longer) - 11
    assert after[:start] == nvm[:start] and after[end:] == nvm[end:]
    total = end - start
    for k in (0, 1, len(longer) // 2, len(longer), len(longer) + 5, total - 1, total):
        cut = bytearray(nvm)
        cut[start:start + k] = after[start:start + k]      # a power cut after k bytes
        want = longer if k == total else new
        assert NvmStore(cut).load_game() == (want, None), k


def test_store_nvm_bit_flips_are_detected():
    nvm, old, new, _ = two_saves()
    end = slot_end(8192, 1)
    for back in (1, 2, 4, 6, 9, 11, 12, 40, len(new) + 11):
        flipped = bytearray(nvm)
        flipped[end - back] ^= 0x10
        assert NvmStore(flipped).load_game() == (old, None), back
        flipped[slot_end(8192, 0) - 20] ^= 0x01            # the older copy too
        assert NvmStore(flipped).load_game()[0] is None


def test_store_nvm_blank_and_foreign_memory():
    for fill in (0xFF, 0x00):
        assert NvmStore(blank(4096, fill)).load_game() == (None, None)
    rng = Rng(3)
    junk = bytearray(8192)
    for i in range(8192):
        junk[i] = rng.below(256)
    s = NvmStore(junk)
    assert s.load_game() == (None, "Saved game: unknown data\nfound; new start.")
    assert s.load_blob(KIND_SETTINGS)[0] is None
    rec = record.encode(helpers.random_game("french", 2, max_deals=1))
    assert s.save_game(rec) and NvmStore(junk).load_game() == (rec, None)


def test_store_nvm_versions_0_and_2():
    nvm, old, new, _ = two_saves(4096)
    end = slot_end(4096, 1)
    v2 = bytearray(nvm)
    v2[end - 6] = 2                                        # version 2, CRC made good again
    crc = store.crc16(v2, end - 11 - len(new), end - 3)
    v2[end - 3] = crc & 0xFF
    v2[end - 2] = crc >> 8
    assert NvmStore(v2).load_game() == (None, "Saved game: from a newer\nversion, not used.")
    v0 = blank(4096)                                       # version 0: no kind byte
    n = len(new)
    body = bytes(new) + bytes([9, 0, n & 0xFF, n >> 8, 0, 0xB1, 0x0C])
    crc = store.crc16(body)
    v0[end - n - 10:end] = body + bytes([crc & 0xFF, crc >> 8, 9])
    assert NvmStore(v0).load_game() == (new, None)
    v0[end - 12] ^= 1
    assert NvmStore(v0).load_game() == (None, DAMAGED)


def test_store_unknown_rules_and_options_are_from_a_newer_version():
    nvm, old, new, _ = two_saves(4096)
    newer = "Saved game: from a newer\nversion, not used."
    for bad in (new[:1] + b"\x03" + new[2:], new[:2] + b"\x08" + new[3:]):
        nv = blank(4096)
        assert NvmStore(nv).save_game(bad)
        assert NvmStore(nv).load_game() == (None, newer)


def test_store_nvm_too_long_is_refused_and_changes_nothing():
    nvm, old, new, _ = two_saves(4096)
    before = bytes(nvm)
    s = NvmStore(nvm)
    assert not s.save_game(bytes(s.capacity() + 1))
    assert bytes(nvm) == before and s.load_game() == (new, None)
