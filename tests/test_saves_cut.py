"""A power cut at every page boundary of every write of whole games, on the model of each
board CircuitPython runs the game on (tests/flashmodel.py): the game comes back at most one
action short, settings and statistics are never lost, no other file's byte is touched, and
every finished deal and game is counted exactly once.

Which cuts (deterministic): every step (an erase half done, an erase done, each page
programmed) of the first saves of a game, of every save that finishes a deal or the game
or deals the next, of every save writing more than one sector (a base, the nvm backup), of
a settings change and of a statistics reset; of the other saves three: the erase half done,
the erase done, and one page further on, a different page each save, so that over a game
every page boundary of the journal's write is cut many times (about 4,000 cuts over the
three games, 2,500 more where the journal starts at each place in a sector).
"""

import pytest

from tests import flashmodel as fm
from tests.savesim import Board, Shell, begin, recorded, step
from engine import actions, record                  # noqa: E402 (savesim sets the path)

# (board, offset of the file's first block in its drive sector, rules, seed).
CASES = (("samd51", 5, "binokel", 2), ("rp2040", 3, "hoyle", 4), ("esp32s3", 7, "french", 1))


def saved(app):
    """What the app would find after switching on: (record, statistics, settings)."""
    s = app.saved
    rec = None if s is None else bytes(s) if isinstance(s, bytes) else record.encode(s)
    return rec, bytes(app.stats.b), bytes(app.settings_bytes)


def found(board, images):
    """What a board with these flash images loads at start, and whether all was quiet."""
    live = board.images()
    live = {d: bytearray(i) for d, i in live.items()}
    board.load(images)
    try:
        app = Shell(board)
        got = saved(app)
        notes = list(app.notes)
        intact = board.drive.intact()
    finally:
        board.load(live)
    return got, notes, intact


def erases(log):
    return sum(1 for _dev, op, _args in log if op == "erase")


def cut_points(log, full, i):
    n = len(log)
    if full or n < 4:
        return range(n + 1)
    return (1, 2, 3 + i % (n - 2))


def check_save(board, app, move, full, count, i=0):
    """Save one move, then cut that save at each chosen step and load what is left."""
    before = saved(app)
    images = {d: bytearray(i) for d, i in board.images().items()}
    board.power.log = []
    deals = len(app.session.state.sheet) if app.session else 0
    move()
    board.idle()                                   # the drive's write-back, a second later
    log = board.power.log
    board.power.log = None
    after = saved(app)
    big = erases(log) > 1 or (app.session is not None and len(app.session.state.sheet) != deals)
    for k in cut_points(log, full or big, i):
        got, notes, intact = found(board, fm.replay(images, log, k))
        assert intact, "a cut touched another file (step %d of %d)" % (k, len(log))
        assert got in (before, after), "step %d of %d" % (k, len(log))
        assert notes == [], notes
        count[0] += 1
    return log


@pytest.mark.parametrize("case", CASES, ids=["-".join(map(str, c[:3])) for c in CASES])
def test_a_cut_anywhere_in_a_whole_game_loses_at_most_the_last_action(case):
    name, offset, rules, seed = case
    board = Board(name, offset)
    app = Shell(board)
    count = [0]
    app.settings.sort = 1                          # a setting changed, then a game
    check_save(board, app, app.save_settings, True, count)
    game = recorded(rules, seed)
    check_save(board, app, lambda: begin(app, game), True, count)
    for i, a in enumerate(game.moves):
        check_save(board, app, lambda: step(app, board, a), i < 5 or a == actions.DEAL, count, i)
    assert app.saved is None and app.session.state.is_game_over()
    check_save(board, app, lambda: (app.stats.reset(), app.save_stats()), True, count)
    assert count[0] > 800


def test_no_cut_touches_another_file_wherever_the_journal_lies():
    """The journal's first block at each of the 8 places in a drive sector, on the driver
    that erases at every block written: every step of 8 saves around the game's first
    base (its record outgrows an entry) and of the game's last save."""
    game = recorded("binokel", 3)
    for offset in range(8):
        board = Board("esp32s3", offset)
        app = Shell(board)
        begin(app, game)
        bases = 0
        for i, a in enumerate(game.moves):
            near = app.store.base is None and len(app.saved.history) > 250
            if near or i == len(game.moves) - 1:
                log = check_save(board, app, lambda: step(app, board, a), True, [0], i)
                bases += erases(log) > 1
            else:
                step(app, board, a)
        assert bases == 1


def test_the_backup_is_written_every_second_game_and_a_cut_in_it_loses_nothing():
    board = Board("samd51", 2)
    app = Shell(board)
    erases = []
    for seed in (1, 2, 3):
        game = recorded("hoyle", seed)
        begin(app, game)
        for a in game.moves[:-1]:
            step(app, board, a)
        log = check_save(board, app, lambda: step(app, board, game.moves[-1]), True, [0])
        erases.append(sum(1 for dev, op, _ in log if op == "erase" and dev is board.nvm.flash))
        if seed == 2:
            backup = bytes(app.stats.b)
    assert erases == [0, 1, 0]                     # games 1 and 3 leave the nvm alone
    board.drive.flash.data[:] = b"\xff" * len(board.drive.flash.data)     # the journal lost
    app = Shell(board)
    assert bytes(app.stats.b) == backup and app.stats.get(0, 1)[0] == 2
    assert app.notes == ["Saves on the drive lost: backup used."]
    assert Shell(board).notes == []                # said once: the journal has it again


def test_cutting_between_any_two_writes_counts_every_deal_and_game_once():
    """Switch off after each save (none cut short) and go on from what was saved: at the
    end the statistics are those of the game played without a stop."""
    game = recorded("binokel", 7, "easy")
    ref = Board("esp32s3")
    app = Shell(ref)
    begin(app, game)
    for a in game.moves:
        step(app, ref, a)
    want = bytes(app.stats.b)
    ends = [i for i, a in enumerate(game.moves) if a == actions.DEAL] + [len(game.moves) - 1]
    stops = sorted(set(j for i in ends for j in (i - 1, i, i + 1) if 0 <= j < len(game.moves)))
    for stop in stops:
        board = Board("esp32s3")
        app = Shell(board)
        begin(app, game)
        for a in game.moves[:stop + 1]:
            step(app, board, a)
        board.switch_off()
        app = Shell(board)                          # switched on again
        if app.saved is not None:
            assert app.resume_session()
            assert app.session.state.nactions == stop + 1
            for a in game.moves[stop + 1:]:
                step(app, board, a)
        assert bytes(app.stats.b) == want, stop
