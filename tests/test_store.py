"""The nvm's saves (lib/binocle/nvmstore.py: a backup now, and all saves of older versions):
cut writes, bit flips, garbage, every format version, sizes of real and random games, and
records that replay exactly. The journal on the drive: tests/test_journal.py."""

import sys

if "lib" not in sys.path:
    sys.path.append("lib")

import pytest

from binocle import nvmstore as saveload, store
from binocle.nvmstore import KIND_GAME, KIND_SETTINGS, KIND_STATS, NvmStore as Store
from engine import record
from engine.ai import new_player
from engine.rng import Rng
from engine.rules import RULE_SETS, new_game
from tests.device import helpers

# Region start and slot size of each kind, as the module docstring draws them.
SETTINGS = (0, 64)
STATS = (128, 320)


def game_region(n):
    return 768, (n - 768) // 2


# Random play (helpers.random_policy) to 1500, seeds 0..49: the longest record, its deals.
LONGEST_RANDOM_BINOKEL = 4326
LONGEST_RANDOM_DEALS = 139
# The most bytes one deal of binokel took in those games (bids, plays, burials, deal).
LONGEST_BINOKEL_DEAL = 71
# Three "easy" AI seats to 1500, seeds 0..19: the longest record and its deals.
# ("normal" AI, seeds 0..29, measured the same way: 648 bytes, 11 deals.)
LONGEST_AI_BINOKEL = 482
LONGEST_AI_DEALS = 8


def ref_crc(data):
    """CRC-16/CCITT-FALSE bit by bit, independent of the module's table."""
    crc = 0xFFFF
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def slot_image(payload, seq, kind, ver=1, magic=(0xB1, 0x0C)):
    """A slot's payload and header as the docstring draws them (version 0: no kind byte)."""
    n = len(payload)
    head = [seq & 0xFF, seq >> 8, n & 0xFF, n >> 8] + ([kind] if ver else []) + [ver] + list(magic)
    body = bytes(payload) + bytes(head)
    crc = ref_crc(body)
    return body + bytes([crc & 0xFF, crc >> 8, seq & 0xFF])


def put(nvm, region, slot, image):
    end = region[0] + (slot + 1) * region[1]
    nvm[end - len(image):end] = image


def blank(n=8192, fill=0xFF):
    return bytearray([fill]) * n


class Cut:
    """An nvm whose writes stop for good after `left` bytes: a power cut mid-write.
    Bytes go in ascending order, as through FileNvm."""

    def __init__(self, data, left):
        self.data = data
        self.left = left
        self.written = 0
        self.calls = 0

    def __len__(self):
        return len(self.data)

    def __getitem__(self, key):
        return self.data[key]

    def __setitem__(self, key, value):
        value = bytes(value)
        self.written += len(value)
        self.calls += 1
        m = min(len(value), self.left)
        self.data[key.start:key.start + m] = value[:m]
        self.left -= m


def game_record(rules, seed, actions):
    """The record of a seeded random game after `actions` actions."""
    state = new_game(rules, seed)
    rng = Rng(seed ^ 0x5EED)
    for _ in range(actions):
        state.apply(helpers.random_policy(rng, state))
    return record.encode(state)


def load(nvm, kind):
    """What a restarted board loads of one kind."""
    return Store(nvm).load_game() if kind == KIND_GAME else Store(nvm).load_blob(kind)


def saved(records, n=8192, kind=KIND_GAME):
    """An nvm after saving each payload in turn."""
    nvm = blank(n)
    s = Store(nvm)
    for r in records:
        assert s.save_blob(kind, r)
    return nvm


# -- format ---------------------------------------------------------------------------

def test_crc_matches_the_bitwise_definition():
    assert store.crc16(b"123456789") == 0x29B1
    assert store.crc16(b"") == 0xFFFF
    rng = Rng(11)
    data = bytes(rng.below(256) for _ in range(700))
    for start, end in ((0, 700), (5, 6), (100, 613)):
        assert store.crc16(data, start, end) == ref_crc(data[start:end])


def test_layout_for_8k_and_4k():
    assert (Store(blank(8192)).capacity(), Store(blank(4096)).capacity()) == (3701, 1653)
    assert game_region(8192) == (768, 3712) and game_region(4096) == (768, 1664)
    s = Store(blank(4096))
    assert (s.capacity(KIND_SETTINGS), s.capacity(KIND_STATS)) == (53, 309)
    assert Store(blank(1792)).capacity() == 501
    with pytest.raises(ValueError):
        Store(blank(1791))


def test_bytes_are_where_the_docstring_draws_them():
    nvm = blank()
    s = Store(nvm)
    assert s.save_blob(KIND_SETTINGS, b"abc")
    assert nvm[64 - 14:64] == slot_image(b"abc", 1, KIND_SETTINGS)
    assert nvm[:64 - 14] == blank(50) and nvm[64:] == blank(8192 - 64)
    assert s.save_blob(KIND_SETTINGS, b"de")
    assert nvm[128 - 13:128] == slot_image(b"de", 2, KIND_SETTINGS)
    rec = game_record("hoyle", 1, 30)
    assert s.save_game(rec) and s.save_game(rec + b"\x05")
    assert nvm[768 + 3712 - 11 - len(rec):768 + 3712] == slot_image(rec, 1, KIND_GAME)
    assert nvm[8192 - 12 - len(rec):] == slot_image(rec + b"\x05", 2, KIND_GAME)


def test_messages_fit_the_screen():
    lines = store.MSG_TOO_LONG.split("\n")
    for name in ("Saved game", "Settings", "Statistics"):
        for pattern in (saveload.MSG_DAMAGED, saveload.MSG_NEWER, saveload.MSG_FOREIGN):
            lines += (pattern % name).split("\n")
    assert max(len(line) for line in lines) == 24


def test_sequence_numbers_wrap_and_skip_blank_bytes():
    assert saveload.newer(1, 0xFFFE) and not saveload.newer(0xFFFE, 1)
    assert saveload.newer(0x8001, 1) is False and saveload.newer(0x8000, 1) is True
    assert [saveload.next_seq(s) for s in (1, 0xFE, 0xFFFE, 0x1FE)] == [2, 0x101, 1, 0x201]
    nvm = blank()
    put(nvm, SETTINGS, 1, slot_image(b"old", 0xFFFD, KIND_SETTINGS))
    s = Store(nvm)
    for i in range(4):
        assert s.save_blob(KIND_SETTINGS, bytes([i]))
        assert Store(nvm).load_blob(KIND_SETTINGS) == (bytes([i]), None)
    assert nvm[64 - 1] == 2 and nvm[128 - 1] == 3        # seqs 0xFFFE, 1, 2, 3 in turn


# -- fresh, round trip, too long ------------------------------------------------------

@pytest.mark.parametrize("size", [8192, 4096])
@pytest.mark.parametrize("fill", [0xFF, 0x00])
def test_fresh_board_has_no_save_and_no_message(size, fill):
    s = Store(blank(size, fill))
    assert s.load_game() == (None, None)
    assert s.load_blob(KIND_SETTINGS) == (None, None)
    assert s.load_blob(KIND_STATS) == (None, None)


def test_round_trip_of_every_kind_and_clear():
    nvm = blank(4096)
    s = Store(nvm)
    rec = game_record("french", 3, 120)
    assert s.save_game(rec) and s.save_blob(KIND_SETTINGS, b"\x01\x02")
    assert s.save_blob(KIND_STATS, b"")
    again = Store(nvm)                                     # after a restart
    assert again.load_game() == (rec, None)
    assert again.load_blob(KIND_SETTINGS) == (b"\x01\x02", None)
    assert again.load_blob(KIND_STATS) == (b"", None)
    assert again.clear_game()
    assert Store(nvm).load_game() == (None, None)
    assert Store(nvm).load_blob(KIND_SETTINGS) == (b"\x01\x02", None)


def test_a_record_too_long_changes_nothing():
    for size in (8192, 4096):
        nvm = blank(size)
        s = Store(nvm)
        assert s.save_game(game_record("binokel", 2, 40))
        assert s.save_game(game_record("binokel", 2, 41))
        before = bytes(nvm)
        cap = s.capacity()
        assert not s.save_game(bytes(cap + 1))
        assert bytes(nvm) == before
        assert Store(nvm).load_game() == (game_record("binokel", 2, 41), None)
        full = game_record("binokel", 2, 41) + bytes(cap - len(game_record("binokel", 2, 41)))
        assert s.save_game(full) and Store(nvm).load_game() == (full, None)


# -- cut writes -----------------------------------------------------------------------

def cut_everywhere(before, kind, new, expect_old, expect_new, late=None):
    """Cut the save of `new` onto a copy of `before` at every byte; return the write size.

    A cut in the last 3 bytes (CRC and mark) expects `late` if given: a first save
    with its magic written but not its mark is a damaged save."""
    probe = Cut(bytearray(before), 1 << 30)
    assert Store(probe).save_blob(kind, new)
    assert probe.calls == 1                                # one assignment: one flash erase
    total = probe.written
    for k in range(total + 1):
        nvm = bytearray(before)
        Store(Cut(nvm, k)).save_blob(kind, new)
        got = load(nvm, kind)
        want = expect_new if k == total else late if late and k >= total - 3 else expect_old
        assert got == want, k
        s = Store(nvm)                                     # saving still works afterwards
        assert s.save_blob(kind, b"") and s.save_blob(kind, new)
        assert load(nvm, kind)[0] == new
    return total


def test_a_game_save_cut_at_every_byte_keeps_the_previous_one():
    r = [game_record("binokel", 4, n) for n in (150, 151, 160)]
    short = game_record("hoyle", 9, 3)
    two = saved(r[:2])
    for new in (r[2], short, r[1][:-1] + b"\x07"):        # longer, shorter, same length
        assert cut_everywhere(two, KIND_GAME, new, (r[1], None), (new, None)) == len(new) + 11
    one = saved(r[:1])                                     # the other slot still blank
    cut_everywhere(one, KIND_GAME, r[1], (r[0], None), (r[1], None))
    for fill in (0xFF, 0x00):                              # the very first save
        cut_everywhere(blank(8192, fill), KIND_GAME, r[0], (None, None), (r[0], None),
                       (None, "Saved game damaged:\nnew start."))


def test_clear_and_settings_cut_at_every_byte():
    r = [game_record("french", 5, n) for n in (60, 61)]
    nvm = saved(r)
    for k in range(12):
        cut = bytearray(nvm)
        Store(Cut(cut, k)).clear_game()
        assert Store(cut).load_game() == ((None, None) if k == 11 else (r[1], None))
    two = saved([b"first", b"second"], kind=KIND_SETTINGS)
    cut_everywhere(two, KIND_SETTINGS, b"third!", (b"second", None), (b"third!", None))


# -- damage ---------------------------------------------------------------------------

def covered(nvm, region, slot):
    """Positions of a good slot's payload and header: what its CRC and mark guard."""
    end = region[0] + (slot + 1) * region[1]
    n = nvm[end - 9] | nvm[end - 8] << 8
    return range(end - 11 - n, end)


def test_random_bit_flips_are_detected():
    rng = Rng(2024)
    r = [game_record("hoyle", 6, 200), game_record("hoyle", 6, 201)]
    good = saved(r)
    region = game_region(8192)
    newest = covered(good, region, 1)
    older = covered(good, region, 0)
    places = (list(newest), list(older) + list(newest), list(range(768, 8192)))
    seen = set()
    for trial in range(600):
        nvm = bytearray(good)
        where = places[trial % 3]                          # the newest copy, both, anywhere
        for _ in range(1 + rng.below(3)):                  # 1 to 3 bits
            nvm[where[rng.below(len(where))]] ^= 1 << rng.below(8)
        hit = [p for p in range(8192) if nvm[p] != good[p]]
        if not any(p in newest for p in hit):
            want = (r[1], None)
        elif not any(p in older for p in hit):
            want = (r[0], None)
        else:
            want = (None, "Saved game damaged:\nnew start.")
        assert Store(nvm).load_game() == want, trial
        seen.add(want[0])
    assert seen == set([r[0], r[1], None])


def test_both_copies_damaged_gives_a_message():
    rng = Rng(7)
    r = [game_record("binokel", 8, 90), game_record("binokel", 8, 91)]
    good = saved(r)
    region = game_region(8192)
    for trial in range(100):
        nvm = bytearray(good)
        for slot in (0, 1):
            span = covered(good, region, slot)
            pos = span[rng.below(len(span) - 6)]           # payload or seq/len/kind/version
            nvm[pos] ^= 1 << rng.below(8)
        assert Store(nvm).load_game() == (None, "Saved game damaged:\nnew start.")


def test_random_garbage_never_loads():
    rng = Rng(99)
    for trial in range(60):
        size = 4096 if trial % 2 else 8192
        nvm = bytearray(rng.below(256) for _ in range(size))
        if trial % 3 == 0:                                 # our magic at a header's place
            for end in (768 + (size - 768) // 2, size, 64, 448):
                nvm[end - 5:end - 3] = b"\xb1\x0c"
        names = ("", "Saved game", "Settings", "Statistics")
        for kind in (KIND_GAME, KIND_SETTINGS, KIND_STATS):
            message = saveload.MSG_DAMAGED if trial % 3 == 0 else saveload.MSG_FOREIGN
            assert load(nvm, kind) == (None, message % names[kind]), (trial, kind)
        rec = game_record("french", trial, 20)
        assert Store(nvm).save_game(rec) and Store(nvm).load_game() == (rec, None)


def test_garbage_in_one_region_spares_the_others():
    nvm = saved([b"\x03\x01"], kind=KIND_SETTINGS)
    rng = Rng(5)
    for i in range(768, 8192):
        nvm[i] = rng.below(256)
    assert Store(nvm).load_blob(KIND_SETTINGS) == (b"\x03\x01", None)
    assert Store(nvm).load_game() == (None, "Saved game: unknown data\nfound; new start.")


def test_foreign_magic():
    nvm = blank()
    rec = game_record("hoyle", 1, 10)
    put(nvm, game_region(8192), 0, slot_image(rec, 1, KIND_GAME, magic=(0x42, 0x43)))
    assert Store(nvm).load_game() == (None, "Saved game: unknown data\nfound; new start.")
    put(nvm, game_region(8192), 1, slot_image(rec, 2, KIND_GAME))
    assert Store(nvm).load_game() == (rec, None)


def test_a_slot_of_another_kind_is_not_taken():
    nvm = blank()
    put(nvm, STATS, 0, slot_image(b"stats?", 1, KIND_SETTINGS))
    assert Store(nvm).load_blob(KIND_STATS) == (None, "Statistics damaged:\nnew start.")


# -- format versions ------------------------------------------------------------------

def test_newer_format_version_is_not_used():
    rec = game_record("hoyle", 2, 25)
    newer = "Saved game: from a newer\nversion, not used."
    nvm = blank()
    put(nvm, game_region(8192), 0, slot_image(rec, 5, KIND_GAME))
    put(nvm, game_region(8192), 1, slot_image(rec + b"\x01", 6, KIND_GAME, ver=2))
    s = Store(nvm)
    assert s.load_game() == (None, newer)
    assert s.save_game(rec)                                # a new game overwrites the older copy
    assert Store(nvm).load_game() == (rec, None)
    nvm = blank()
    put(nvm, game_region(8192), 0, slot_image(rec, 7, KIND_GAME))
    put(nvm, game_region(8192), 1, slot_image(rec + b"\x01", 6, KIND_GAME, ver=2))
    assert Store(nvm).load_game() == (rec, None)           # ours is the newer copy
    nvm = blank()
    put(nvm, game_region(8192), 1, slot_image(b"\x09" + rec[1:], 1, KIND_GAME))
    assert Store(nvm).load_game() == (None, newer)         # a newer engine's record format
    for other in (rec[:1] + b"\x07" + rec[2:],             # a rule set this engine lacks
                  rec[:2] + b"\x04" + rec[3:],             # an option bit hoyle lacks
                  b"\x01\x01\x01" + rec[3:],                # french's low bits: not used
                  b"\x01\x02\x10" + rec[3:]):               # binokel has no options
        nvm = blank()
        put(nvm, game_region(8192), 1, slot_image(other, 1, KIND_GAME))
        assert Store(nvm).load_game() == (None, newer), other[:3]
    nvm = blank()
    put(nvm, game_region(8192), 1, slot_image(b"\x00" + rec[1:], 1, KIND_GAME))
    assert Store(nvm).load_game() == (None, "Saved game damaged:\nnew start.")
    for known in (b"\x01\x00\x03", b"\x01\x01\xf0", b"\x01\x02\x00"):
        assert saveload.check_record(known + rec[3:]) is None


def test_a_flipped_version_byte_falls_back():
    r = [game_record("french", 3, 30), game_record("french", 3, 31)]
    nvm = saved(r)
    nvm[8192 - 6] = 2                                      # would read as a newer version
    assert Store(nvm).load_game() == (r[0], None)


def test_version_0_is_read_then_replaced():
    rec = game_record("binokel", 1, 70)
    nvm = blank(4096)
    region = game_region(4096)
    put(nvm, region, 1, slot_image(rec, 40, KIND_GAME, ver=0))
    put(nvm, SETTINGS, 0, slot_image(b"\x02", 3, 0, ver=0))
    s = Store(nvm)
    assert s.load_game() == (rec, None)
    assert s.load_blob(KIND_SETTINGS) == (b"\x02", None)
    longer = game_record("binokel", 1, 71)
    assert s.save_game(longer)
    end = region[0] + region[1]
    assert nvm[end - 11 - len(longer):end] == slot_image(longer, 41, KIND_GAME)
    assert Store(nvm).load_game() == (longer, None)
    bad = bytearray(slot_image(rec, 40, KIND_GAME, ver=0))
    bad[3] ^= 4
    nvm = blank(4096)
    put(nvm, region, 0, bytes(bad))
    assert Store(nvm).load_game() == (None, "Saved game damaged:\nnew start.")


# -- whole games ----------------------------------------------------------------------

@pytest.mark.parametrize("rules", RULE_SETS)
def test_saved_games_replay_to_the_same_state(rules, tmp_path):
    for seed in range(10):
        size = 4096 if seed % 2 else 8192
        nvm = saveload.FileNvm(str(tmp_path / ("nvm%d" % seed)), size) if seed < 2 else blank(size)
        s = Store(nvm)
        state = new_game(rules, seed)
        rng = Rng(seed ^ 0x5EED)
        last = None
        while not state.is_game_over() and state.deal_number <= 4:
            state.apply(helpers.random_policy(rng, state))
            rec = record.encode(state)
            if s.save_game(rec):
                last = rec
            if state.nactions % 97 == 0 or state.is_game_over():
                data, msg = Store(nvm).load_game()         # as after switching off here
                assert (data, msg) == (last, None)
        data, msg = Store(nvm).load_game()
        assert msg is None and data == last == record.encode(state)
        again = record.replay(data)
        assert again.nactions == state.nactions
        assert again.scores() == state.scores()
        assert helpers.fingerprint(again) == helpers.fingerprint(state)


def deal_sizes(data):
    """Bytes of each deal of a binokel record (DEAL, 98, starts the next one)."""
    sizes = [0]
    for a in record.decode_actions(data):
        sizes[-1] += 1 if a < 128 else 2                   # binokel's actions are below 2**14
        if a == 98:
            sizes.append(0)
    return sizes


def test_longest_random_binokel_game_is_refused_cleanly():
    longest = None
    most = 0
    for seed in range(50):
        state = helpers.random_game("binokel", seed, max_deals=1000)
        assert state.is_game_over()
        most = max([most] + deal_sizes(record.encode(state)))
        if longest is None or state.nactions > longest.nactions:
            longest = state
    rec = record.encode(longest)
    assert (len(rec), longest.deal_number) == (LONGEST_RANDOM_BINOKEL, LONGEST_RANDOM_DEALS)
    assert most == LONGEST_BINOKEL_DEAL
    nvm = blank()
    s = Store(nvm)
    fits = rec[:s.capacity()]
    assert s.save_game(fits) and not s.save_game(rec)      # the app shows MSG_TOO_LONG
    assert Store(nvm).load_game() == (fits, None)
    assert LONGEST_BINOKEL_DEAL * 52 <= s.capacity() < LONGEST_BINOKEL_DEAL * 53
    assert LONGEST_BINOKEL_DEAL * 23 <= Store(blank(4096)).capacity() < LONGEST_BINOKEL_DEAL * 24


def test_ai_binokel_games_to_1500_fit_even_in_4k():
    longest = None
    for seed in range(20):
        state = new_game("binokel", seed)
        bots = [new_player("binokel", p, "easy", seed * 7 + p) for p in range(3)]
        while not state.is_game_over():
            p = state.current_player()
            state.apply(bots[p].choose(state.observation(p)))
        if longest is None or state.nactions > longest.nactions:
            longest = state
    rec = record.encode(longest)
    assert (len(rec), longest.deal_number) == (LONGEST_AI_BINOKEL, LONGEST_AI_DEALS)
    nvm = blank(4096)
    assert Store(nvm).save_game(rec) and Store(nvm).load_game() == (rec, None)


# -- the desktop stand-in -------------------------------------------------------------

def test_file_nvm_behaves_like_a_bytearray(tmp_path):
    path = str(tmp_path / "nvm.bin")
    f = saveload.FileNvm(path, 4096)
    assert len(f) == 4096 and f[0:4096] == blank(4096) and f[-1] == 0xFF
    f[10:13] = b"abc"
    f[-1] = 7
    again = saveload.FileNvm(path, 4096)                      # written through at once
    assert again[9:14] == b"\xffabc\xff" and again[4095] == 7
    assert again[4090:] == b"\xff" * 5 + b"\x07"
    with pytest.raises(ValueError):
        again[0:2] = b"abc"
    with pytest.raises(IndexError):
        again[4096]
    with open(path, "rb") as fh:
        assert len(fh.read()) == 4096
    bigger = saveload.FileNvm(path, 8192)                     # a short file is padded blank
    assert bigger[4095] == 7 and bigger[4096:] == blank(4096)
    rec = game_record("hoyle", 4, 50)
    assert Store(bigger).save_game(rec) and Store(saveload.open_nvm(path)).load_game() == (rec, None)
    assert saveload.open_nvm() == blank(8192)
