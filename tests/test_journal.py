"""The journal on the drive (lib/binocle/store.py) and reading the saves back at start
(lib/binocle/saveload.py): layout, bytes, bases, cut writes, damage, versions, the move
from an older version's nvm, and the modes without a writable journal."""

import io
import os
import sys

if "lib" not in sys.path:
    sys.path.append("lib")

from binocle import nvmstore, saveload, store
from binocle.nvmstore import KIND_GAME, KIND_SETTINGS, KIND_STATS, NvmStore
from binocle.saveload import open_saves
from binocle.stats import Stats
from binocle.store import BLOCK, GROUPS, SIZE, Journal, place
from engine import record
from engine.rng import Rng
from engine.rules import new_game
from tests.device import helpers

SETTINGS = b"\x01\x01\x02\x01\x01\x00\x00\x00\x01\x02\x01\x01"


def ref_crc(data):
    """CRC-16/CCITT-FALSE bit by bit, independent of the module's table."""
    crc = 0xFFFF
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def drive():
    """A blank journal file in RAM."""
    return io.BytesIO(b"\xff" * SIZE)


def nvm(n=8192):
    return bytearray(b"\xff" * n)


def game_record(rules, seed, actions):
    state = new_game(rules, seed)
    rng = Rng(seed ^ 0x5EED)
    for _ in range(actions):
        state.apply(helpers.random_policy(rng, state))
    return record.encode(state)


def long_record(n, seed=3):
    """n bytes: a binokel record's header, then action bytes (the journal does not read
    them; a game this long is rare but possible)."""
    rng = Rng(seed)
    return game_record("binokel", seed, 0) + bytes(rng.below(128) for _ in range(n - 7))


def save(j, rec, stats=b"\x02" * 212, settings=SETTINGS):
    if rec is None:
        return j.save(settings, stats)
    return j.save(settings, stats, rec[:7], memoryview(rec)[7:])


def load(f, nv=None):
    return open_saves(nv if nv is not None else nvm(), f)


# -- layout ------------------------------------------------------------------------------

def test_layout_keeps_recent_entries_out_of_each_others_erase_sectors():
    assert SIZE == (GROUPS + 6) * 4096 == 253952
    lap = 8 * GROUPS
    spots = [place(s) for s in range(1, lap + 1)]
    assert len(set(spots)) == lap
    assert min(spots) == 5 * 4096 and max(spots) == (5 + GROUPS) * 4096 - BLOCK
    for s in range(1, 2 * lap):
        for k in range(1, GROUPS - 1):             # the last C-2 entries: 8 blocks apart at least
            assert abs(place(s) - place(s + k)) >= 4096, (s, k)
    for which in (0, 1):                            # bases: a pad group on each side
        first = store.BASES[which] * 4096
        assert all(abs(first - p) >= 4096 and abs(first + 4096 - p) >= 4096 for p in spots)
    assert store.BASES == (1, 3)


def test_messages_fit_the_screen():
    lines = store.MSG_TOO_LONG.split("\n")
    for m in (saveload.MSG_DRIVE_DAMAGED, saveload.MSG_DRIVE_LOST, saveload.MSG_NEWER_DRIVE,
              saveload.MSG_READ_ONLY, saveload.MSG_NO_ROOM, saveload.MSG_READ_ONLY_NEW):
        lines += m.split("\n")
    assert max(len(line) for line in lines) <= 26


def test_crc_is_ccitt_false():
    assert store.crc16(b"123456789") == 0x29B1
    rng = Rng(4)
    data = bytes(rng.below(256) for _ in range(600))
    assert store.crc16(data, 5, 555) == ref_crc(data[5:555])


# -- bytes -------------------------------------------------------------------------------

def test_an_entry_is_where_and_as_the_docstring_draws_it():
    f = drive()
    j = Journal(f)
    rec = game_record("hoyle", 2, 30)
    stats = Stats().b
    assert save(j, rec, stats)
    b = f.getvalue()[place(1):place(1) + BLOCK]
    assert len(stats) == 194                        # stats.py: three rule sets
    payload = bytes([12]) + SETTINGS + bytes([194]) + bytes(stats) + b"\x01" + rec
    n = len(payload)
    head = b"\xb1\x0c\x04\x01" + (1).to_bytes(4, "little") + n.to_bytes(2, "little")
    assert b[:10] == head
    assert b[10] | b[11] << 8 == ref_crc(head + payload)
    assert b[12:12 + n] == payload
    assert f.getvalue()[:place(1)] == b"\xff" * place(1)
    assert save(j, None, stats)                     # no game: kind 0
    b = f.getvalue()[place(2):place(2) + BLOCK]
    assert b[4] == 2 and b[12 + 1 + 12 + 1 + 194] == 0 and b[8] == 1 + 12 + 1 + 194 + 1


def test_a_long_record_goes_into_a_base_the_entries_name():
    f = drive()
    j = Journal(f)
    rec = long_record(3000)
    settings, stats = SETTINGS, bytes(212)
    room = BLOCK - (14 + len(settings) + len(stats)) - 8     # tail bytes beside a base
    assert save(j, rec[:room + 7])                             # whole
    assert j.base is None
    assert save(j, rec[:room + 8])                             # a base: the whole record
    assert j.base == (2, 0, room + 8) and j.seq == 3
    data = f.getvalue()
    at = store.BASES[0] * 4096
    part = data[at:at + BLOCK]
    assert part[2] == 5 and part[4] == 2 and part[12:14] == b"\x00\x01"
    for n in (room + 9, 2 * room + 8):                         # tails after the base
        assert save(j, rec[:n]) and j.base[0] == 2
        assert load(f).record == rec[:n]
    assert save(j, rec[:2 * room + 9])                         # outgrown: base 1
    assert j.base == (6, 1, 2 * room + 9)
    assert save(j, rec)                                        # 3000 bytes: base 0, 7 parts
    assert j.base == (8, 0, 3000)
    got = load(f)
    assert got.record == rec and got.base == (8, 0, 3000) and got.notes == []
    assert got.journal.seq == 9 and got.journal.base == got.base


def test_a_record_too_long_keeps_the_last_one_that_fitted():
    f = drive()
    j = Journal(f)
    cap = store.PARTS * store.PART + store.ROOM - 10 - len(SETTINGS) - 212   # a base and a tail
    rec = long_record(cap + 40)
    assert cap == 4234                              # with today's settings and statistics
    assert save(j, rec[:cap - 3]) and save(j, rec[:cap])
    assert not save(j, rec[:cap + 1])
    assert not save(j, rec[:cap + 30], stats=b"\x05" * 212)    # statistics still go on
    got = load(f)
    assert got.record == rec[:cap] and got.stats == b"\x05" * 212
    j.new_game()
    assert save(j, rec[:20]) and load(f).record == rec[:20]


# -- cuts and damage ---------------------------------------------------------------------

class CutFile(io.BytesIO):
    """Writes stop for good after `left` bytes, in order, as through a file on the desktop."""

    def __init__(self, data, left):
        super().__init__(data)
        self.left = left

    def write(self, b):
        m = max(0, min(len(b), self.left))
        self.left -= m
        super().write(bytes(b[:m]))
        self.seek(len(b) - m, 1)
        return len(b)


def test_a_write_cut_at_any_byte_keeps_the_entry_before():
    f = drive()
    j = Journal(f)
    recs = [long_record(n) for n in (200, 201, 600)]
    for r in recs[:2]:
        assert save(j, r)
    before = f.getvalue()
    for new, writes in ((long_record(250), 1), (recs[2], 3)):  # an entry; a base's 2 parts too
        whole = io.BytesIO(before)
        j2 = Journal(whole, 2, j.base)
        save(j2, new)
        entry = whole.getvalue()[place(j2.seq):place(j2.seq) + 12]
        need = (writes - 1) * BLOCK + 12 + (entry[8] | entry[9] << 8)   # the rest: don't care
        for k in list(range(0, 40)) + list(range(40, writes * BLOCK, 13)) + [need - 1, need]:
            cut = CutFile(before, k)
            j2 = Journal(cut, 2, j.base)
            save(j2, new)
            got = load(io.BytesIO(cut.getvalue()))
            want = new if k >= need else recs[1]
            assert got.record == want and got.notes == [], k


def test_damage_to_the_newest_entry_falls_back_and_to_a_base_loses_only_the_game():
    f = drive()
    j = Journal(f)
    rec = long_record(900)
    for n in (800, 850, 900):
        assert save(j, rec[:n], stats=bytes([n % 256]) * 212)
    good = f.getvalue()
    rng = Rng(8)
    for trial in range(40):
        data = bytearray(good)
        n = good[place(4) + 8] | good[place(4) + 9] << 8
        data[place(4) + rng.below(12 + n)] ^= 1 << rng.below(8)     # the newest entry
        got = load(io.BytesIO(bytes(data)))
        assert got.record == rec[:850] and got.stats == bytes([850 % 256]) * 212
    data = bytearray(good)
    data[store.BASES[0] * 4096 + BLOCK + 20] ^= 4                  # the base's second part
    got = load(io.BytesIO(bytes(data)))
    assert got.record is None and got.stats == bytes([900 % 256]) * 212
    assert got.notes == ["Saved game damaged:\nnew start."]


def test_garbage_and_lost_journals_say_so_and_use_the_backup():
    nv = nvm()
    NvmStore(nv).save_pair(SETTINGS, Stats().b)
    rng = Rng(9)
    junk = bytes(rng.below(256) for _ in range(SIZE))
    got = load(io.BytesIO(junk), nv)
    assert got.notes == [saveload.MSG_DRIVE_DAMAGED] and got.settings == SETTINGS
    assert got.migrate and got.journal.seq >= 0
    got = load(drive(), nv)                         # blank, and the backup came from no journal
    assert got.notes == [] and got.settings == SETTINGS
    marked = Stats()
    marked.mark(40)
    NvmStore(nv).save_pair(SETTINGS, marked.b)
    got = load(drive(), nv)
    assert got.notes == [saveload.MSG_DRIVE_LOST] and got.stats == bytes(marked.b)


def test_an_entry_of_a_newer_version_is_not_used():
    f = drive()
    j = Journal(f)
    assert save(j, game_record("french", 1, 20))
    data = bytearray(f.getvalue())
    at = place(1)
    data[at + 3] = 2
    crc = store.crc16(data, at + 12, at + 12 + (data[at + 8] | data[at + 9] << 8),
                      store.crc16(data, at, at + 10))
    data[at + 10:at + 12] = bytes((crc & 0xFF, crc >> 8))
    got = load(io.BytesIO(bytes(data)))
    assert got.notes == [saveload.MSG_NEWER_DRIVE] and got.record is None
    assert got.journal.seq == 1                     # ours go on after it


def test_records_an_engine_cannot_read_are_refused_with_the_right_line():
    f = drive()
    j = Journal(f)
    rec = game_record("hoyle", 5, 12)
    for bad, line in ((rec[:1] + b"\x05" + rec[2:], "Saved game: from a newer\nversion, not used."),
                      (rec[:2] + b"\x80" + rec[3:], "Saved game: from a newer\nversion, not used."),
                      (b"\x00" + rec[1:], "Saved game damaged:\nnew start.")):
        assert save(j, bad)
        got = load(f)
        assert got.record is None and got.notes == [line]


# -- where the journal is --------------------------------------------------------------

def old_version_nvm(rec):
    """An nvm as the version before the journal left it: settings, statistics, a game."""
    nv = nvm()
    s = NvmStore(nv)
    old_stats = bytearray(199)
    old_stats[0] = 1
    old_stats[5] = 3                                # deals in hoyle, easy: 3
    assert s.save_blob(KIND_SETTINGS, SETTINGS) and s.save_blob(KIND_STATS, bytes(old_stats))
    assert s.save_game(rec)
    return nv


def test_an_older_versions_saves_move_into_a_new_journal():
    rec = game_record("binokel", 4, 60)
    nv = old_version_nvm(rec)
    got = load(drive(), nv)
    assert got.migrate and got.nvm_game and got.notes == []
    assert got.settings == SETTINGS and got.record == rec and len(got.stats) == 199
    stats = Stats(got.stats)
    assert stats.ok and stats.get(0, 0)[2] == 3


def test_modes_without_a_journal_to_write(tmp_path, monkeypatch):
    rec = game_record("hoyle", 1, 10)
    ram = old_version_nvm(rec)
    got = open_saves(ram, None)                             # bytes in RAM: no drive at all
    assert got.notes == [] and got.record == rec and not got.backup and not got.migrate
    rec2 = game_record("hoyle", 1, 11)
    assert save(got.journal, rec2, stats=b"\x03" * 212)       # the nvm takes the game too
    again = open_saves(ram, None)
    assert again.record == rec2 and again.stats == b"\x03" * 212
    assert save(again.journal, None) and open_saves(ram, None).record is None
    got = open_saves(nvm(), str(tmp_path / "no" / "such" / "dir" / "x.sav"))
    assert got.journal is None and got.backup and got.notes == [saveload.MSG_NO_ROOM]
    path = str(tmp_path / "saves" / "binocle.sav")
    got = open_saves(nvm(), path)                           # made: SIZE bytes of 0xFF
    assert got.journal is not None and got.migrate and os.path.getsize(path) == SIZE
    save(got.journal, rec)
    got.journal.f.close()
    opened = saveload._open

    def read_only(p, mode):                                 # the drive in update mode
        if "+" in mode or "w" in mode:
            raise OSError(30, "Read-only filesystem")
        return opened(p, mode)

    monkeypatch.setattr(saveload, "_open", read_only)
    got = open_saves(nvm(), path)
    assert got.journal is None and not got.backup and got.record == rec
    assert got.notes == [saveload.MSG_READ_ONLY]
    os.remove(path)                                         # no journal yet, and read-only
    got = open_saves(nvm(), path)
    assert got.journal is None and got.backup and got.notes == [saveload.MSG_READ_ONLY_NEW]


def test_a_journal_file_cut_short_is_made_again(tmp_path):
    path = str(tmp_path / "saves" / "binocle.sav")
    os.mkdir(str(tmp_path / "saves"))
    with open(path, "wb") as fh:
        fh.write(b"\xff" * 5000)                    # the first start cut while making it
    got = open_saves(nvm(), path)
    assert got.journal is not None and os.path.getsize(path) == SIZE
    rec = game_record("french", 2, 25)
    assert save(got.journal, rec)
    got.journal.f.close()
    again = open_saves(nvm(), path)
    assert again.record == rec and not again.migrate
    again.journal.f.close()


def test_the_desktop_file_nvm_has_its_journal_beside_it(tmp_path):
    path = str(tmp_path / "nvm.bin")
    fn = nvmstore.FileNvm(path)
    assert saveload.journal_for(fn) == path + ".sav"
    got = open_saves(fn)
    assert os.path.getsize(path + ".sav") == SIZE and got.journal is not None
    got.journal.f.close()
    assert saveload.journal_for(bytearray(8)) is None


def test_the_backup_pair_is_one_assignment():
    class Counting(bytearray):
        writes = 0

        def __setitem__(self, key, value):
            Counting.writes += 1
            bytearray.__setitem__(self, key, value)

    nv = Counting(b"\xff" * 4096)
    s = NvmStore(nv)
    assert s.save_pair(SETTINGS, bytes(212)) and Counting.writes == 1
    assert s.save_pair(SETTINGS[:-1] + b"\x00", b"\x07" * 212) and Counting.writes == 2
    again = NvmStore(nv)
    assert again.load_blob(KIND_SETTINGS) == (SETTINGS[:-1] + b"\x00", None)
    assert again.load_blob(KIND_STATS) == (b"\x07" * 212, None)
    assert not s.save_pair(SETTINGS, bytes(310))              # too long: nothing written
    assert Counting.writes == 2 and again.load_game() == (None, None)
    assert KIND_GAME == 1
