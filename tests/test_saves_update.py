"""The saves at the first start after an update from a version that kept them in the nvm,
and the drive's ways of writing that change the order blocks reach the flash: a cut at any
step keeps the game, the settings and the statistics (tests/flashmodel.py models each board;
tests/test_saves_cut.py cuts whole games).

At that start the app writes its first journal entry (what the nvm held) and then clears the
old game from the nvm. On a PyBadge the entry may wait in the drive's RAM cache for up to a
second, so the clearing waits until os.sync() has put it on the flash (saveload.on_flash).
"""

import pytest

from tests import flashmodel as fm
from tests.savesim import Board, Shell, begin, recorded, step
from tests.test_saves_cut import check_save, found, saved
from binocle import store
from binocle.nvmstore import KIND_SETTINGS, KIND_STATS, NvmStore
from binocle.settings import Settings, FIELDS_V1
from engine import record
from engine.rules import new_game

# (board, journal's offset in its drive sector, the drive's blank-block shortcut, scratch).
DRIVES = (("samd51", 5, True, False), ("samd51", 2, False, False), ("samd51", 3, True, True),
          ("samd51", 6, False, True), ("rp2040", 3, False, False), ("esp32s3", 7, False, False))


def old_version(board):
    """The nvm as a version before the journal left it: settings (AI Easy, sound off; the
    11 fields it had), statistics counting 3 hoyle deals, a hoyle game at its action 24."""
    s = Settings()
    s.level, s.sound = 0, 0
    settings = s.to_bytes()[:1 + FIELDS_V1]
    stats = bytearray(199)
    stats[0] = 1
    stats[5] = 3
    game = recorded("hoyle", 4)
    state = new_game("hoyle", game.seed)
    for a in game.moves[:24]:
        state.apply(a)
    rec = record.encode(state)
    nv = NvmStore(board.nvm)
    assert nv.save_blob(KIND_SETTINGS, settings) and nv.save_blob(KIND_STATS, bytes(stats))
    assert nv.save_game(rec)
    return rec


def first_start(board):
    """Switch on after the update, every flash step logged: (images before, log, app)."""
    images = {d: bytearray(i) for d, i in board.images().items()}
    board.power.log = []
    app = Shell(board)
    board.idle()                                    # a second later
    log = board.power.log
    board.power.log = None
    return images, log, app


def make_board(name, offset, shortcut, scratch):
    board = Board(name, offset)
    board.drive.shortcut = shortcut and board.drive.driver == "external"
    if scratch:
        board.drive.scratch = fm.Flash("scratch sector", fm.SECTOR, fm.SECTOR, 256, board.power)
    return board


@pytest.mark.parametrize("case", DRIVES, ids=["%s-%d-%s%s" % (c[0], c[1], "shortcut" if c[2] else "cached",
                                                             "-scratch" if c[3] else "") for c in DRIVES])
def test_a_cut_anywhere_in_the_first_start_after_an_update_keeps_everything(case):
    board = make_board(*case)
    rec = old_version(board)
    images, log, app = first_start(board)
    want = saved(app)
    assert want[0] == rec and app.settings.level == 0 and app.settings.sound == 0
    assert app.stats.get(0, 0)[2] == 3                 # its 3 hoyle deals
    assert NvmStore(board.nvm).load_game()[0] is None          # cleared, after the sync
    assert board.drive.syncs == 1
    nvm_erases = [i for i, (dev, op, _a) in enumerate(log) if dev is board.nvm.flash]
    drive_steps = [i for i, (dev, op, _a) in enumerate(log) if dev is not board.nvm.flash]
    assert nvm_erases and drive_steps and max(drive_steps) < min(nvm_erases)
    for k in range(len(log) + 1):
        got, notes, intact = found(board, fm.replay(images, log, k))
        assert intact, k
        assert got == want and notes == [], "step %d of %d" % (k, len(log))


def test_clearing_the_nvm_before_the_sync_would_lose_the_game():
    """The same cuts with the entry left in the drive's cache while the nvm is cleared (the
    order of the version this replaces): some cut finds neither copy of the game."""
    board = make_board("samd51", 5, False, False)
    board.drive.sync = lambda: None                 # os.sync() writing nothing back
    rec = old_version(board)
    images, log, app = first_start(board)
    lost = 0
    for k in range(len(log) + 1):
        got, notes, _intact = found(board, fm.replay(images, log, k))
        lost += got[0] != rec
    assert lost > 0


@pytest.mark.parametrize("shortcut,scratch", ((True, False), (False, True), (True, True)),
                         ids=["shortcut", "scratch", "shortcut-scratch"])
def test_a_whole_game_cut_anywhere_with_the_drives_other_ways_of_writing(shortcut, scratch):
    """A binokel game, every save cut as in tests/test_saves_cut.py, on a PyBadge's drive
    writing blank blocks straight to the flash, or staging through its scratch sector."""
    board = make_board("samd51", 5, shortcut, scratch)
    app = Shell(board)
    count = [0]
    game = recorded("binokel", 2)
    check_save(board, app, lambda: begin(app, game), True, count)
    for i, a in enumerate(game.moves):
        check_save(board, app, lambda: step(app, board, a), i < 5, count, i)
    assert app.saved is None and app.session.state.is_game_over()
    assert count[0] > 700
    if scratch:
        units = board.units()
        assert units["scratch sector"] > 0


def test_an_entry_whose_base_did_not_reach_the_flash_falls_back_one_action():
    """The newest entry names a base the cut left unwritten (it was in the RAM cache while
    the entry went straight to blank flash): the entry before it is the game."""
    board = make_board("samd51", 5, True, False)
    app = Shell(board)
    game = recorded("binokel", 3)
    begin(app, game)
    bases = 0
    for i, a in enumerate(game.moves):
        base = app.store.base
        before = saved(app)
        images = {d: bytearray(im) for d, im in board.images().items()}
        board.power.log = []
        step(app, board, a)
        log = board.power.log
        board.power.log = None
        if app.store.base is not None and app.store.base is not base:
            bases += 1
            # What the flash holds if the new base's sectors were still in the cache at
            # the cut and the entry had gone straight to the flash: every step but the
            # base's.
            first = board.drive.first
            group = store.BASES[app.store.base[1]] * 8
            sectors = set((first + group + j) // fm.PER for j in range(8))
            keep = [s for s in log if s[0] is not board.drive.flash or
                    (s[2][0] // fm.SECTOR if s[1] == "prog" else s[2][0]) not in sectors]
            assert len(keep) < len(log)
            got, notes, intact = found(board, fm.replay(images, keep, len(keep)))
            assert got == before and notes == [], i
    assert bases >= 1
