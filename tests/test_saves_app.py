"""Never lose a game: the app saves after every action and picks the game up again after a
power cut; settings and statistics survive; damaged saves give a message and a fresh start.
(The app on a desktop keeps its journal in RAM here, as the board keeps it on its drive.)"""

import io
import sys

import pytest

from tools.checks.simdriver import Driver
from tools.users.sim import load_paths

load_paths()
from binocle import nvmstore, saveload, store as nvstore  # noqa: E402
from binocle.stats import Stats                 # noqa: E402
from engine import record                        # noqa: E402


class RamNvm(bytearray):
    """The board's nvm and, beside it, its drive's journal file: both in RAM."""

    def __init__(self):
        bytearray.__init__(self, b"\xff" * 8192)
        self.journal = io.BytesIO(b"\xff" * nvstore.SIZE)


@pytest.fixture(scope="module")
def d():
    return Driver(RamNvm())


def play_actions(d, n):
    """Play on (the person by buttons) until the game has at least n actions."""
    while d.app.session.state.nactions < n:
        if not d.person_move():
            d.tick()


def fingerprint(session):
    state = session.state
    return (bytes(state.history), state.scores(), state.observation(0).key(), state.current_player())


def reopened(d):
    """What a board switched on now would find."""
    return saveload.open_saves(d.nvm)


def test_switched_off_mid_deal_the_game_goes_on_at_the_same_point(d):
    d.start("hoyle", 7)
    play_actions(d, 23)
    before = fingerprint(d.app.session)
    played = bytes(d.app.session.ai[1].memory.played)
    d.boot()                                       # power off and on: a new app, the same saves
    d.title()
    title = d.scene()
    assert title.keys[0] == "continue" and title.menu.items[0] == "Continue saved game"
    d.press(d.B.A)
    assert d.scene_name() in ("Table", "Choice")
    assert fingerprint(d.app.session) == before
    # the AI's card memory was rebuilt by the replay, as it was in play
    assert bytes(d.app.session.ai[1].memory.played) == played


def test_leaving_a_game_for_the_title_lets_it_go_and_continue_takes_it_up_again(d):
    d.start("hoyle", 7)
    play_actions(d, 23)
    # On a board these are loaded by the game only; here earlier tests loaded them before the
    # app started, so the app is told they were not there at its start.
    game = ("binocle.session", "binocle.scenes.table", "binocle.scenes.tableview",
            "binocle.scenes.layout")
    d.app.fresh = tuple(n for n in d.app.fresh if n not in game)
    d.pause_item("New game")
    d.wait_for(("Confirm",), 50)
    before = fingerprint(d.app.session)             # the table waits under the question
    saved = record.encode(d.app.session.state)
    assert len(saved) == 7 + len(before[0]) and d.app.kept == len(before[0])
    d.press(d.B.DOWN)
    d.press(d.B.A)                                   # Yes: leave this game
    assert d.scene_name() == "Title" and d.app.session is None
    assert type(d.app.saved) is bytes and d.app.saved == saved    # the state is let go
    assert reopened(d).record == saved
    assert [n for n in game if n in sys.modules] == []
    title = d.scene()
    assert title.keys[0] == "continue"
    d.press(d.B.A)                                   # Continue saved game
    assert d.scene_name() in ("Table", "Choice")
    assert [n for n in game if n not in sys.modules] == []
    assert fingerprint(d.app.session) == before
    assert record.encode(d.app.session.state) == saved


def test_every_action_is_saved_and_nothing_goes_to_the_nvm(d):
    d.start("binokel", 11)
    nvm_before = bytes(d.nvm)
    for _ in range(40):
        n = d.app.session.state.nactions
        while d.app.session.state.nactions == n:
            if not d.person_move():
                d.tick()
        got = reopened(d)
        assert got.notes == []
        assert got.record[7:] == bytes(d.app.session.state.history)     # header, then every action
    assert bytes(d.nvm) == nvm_before


def test_a_damaged_journal_says_so_and_starts_from_the_backup(d):
    d.start("french", 3)
    play_actions(d, 5)
    data = d.nvm.journal.getbuffer()
    for i in range(len(data)):                     # scribble over the whole file
        data[i] = (i * 7) & 0xFF
    del data
    d.boot()
    assert d.app.saved is None
    assert d.app.notes == ["Saves on the drive damaged: backup used."]
    d.title()
    assert d.scene().keys[0] == "play"
    d.tick()
    assert d.text(d.app.toast_text, 0).startswith("Saves on the drive")
    assert reopened(d).notes == []                 # the journal is whole again


def test_settings_and_statistics_survive_a_restart(d):
    d.app.settings.sort = 1
    d.app.settings.hints = 0
    d.app.save_settings()
    d.start("hoyle", 7)
    d.play_until(("Sheet",))
    deals = d.app.stats.get(0, d.app.settings.level)[2]
    assert deals >= 1
    d.boot()
    assert d.app.settings.sort == 1 and d.app.settings.hints == 0
    assert d.app.stats.get(0, d.app.settings.level)[2] == deals
    d.app.settings.sort, d.app.settings.hints = 0, 1
    d.app.save_settings()


def test_statistics_screen_and_reset(d):
    d.title()
    title = d.scene()
    d.to_line(title, "stats")
    d.press(d.B.A)
    screen = d.scene()
    assert d.scene_name() == "StatsScreen"
    assert screen.menu.items[0] == "< Binocle to 1000 >"        # LEFT/RIGHT: another rule set
    d.press(d.B.UP)                                # to the last line: reset
    d.press(d.B.A)
    assert d.scene_name() == "Confirm"
    d.press(d.B.DOWN)
    d.press(d.B.A)
    cells = Stats().to_bytes()[14:]                 # stats.py: the cells after the game counted
    assert len(cells) == 180 and d.app.stats.to_bytes()[14:] == cells
    assert reopened(d).stats[14:] == cells
    backup = nvmstore.NvmStore(d.nvm).load_blob(nvmstore.KIND_STATS)   # and the nvm's copy
    assert backup[0][14:] == cells and backup[1] is None


def test_stats_count_deals_games_contracts_and_streaks():
    s = Stats()
    s.deal(2, 1, 250, True, 1)
    s.deal(2, 1, -360, False, -1)
    s.game(2, 1, True)
    s.game(2, 1, True)
    s.game(2, 1, False)
    assert s.get(2, 1) == (3, 2, 2, 1, 250, -110, 1, 1, 0, 2)
    assert s.get(0, 0) == (0, 0, 0, 0, None, 0, 0, 0, 0, 0)
    assert Stats(s.to_bytes()).get(2, 1) == s.get(2, 1)
    assert not Stats(b"\x09" + s.to_bytes()[1:]).ok                  # another layout: fresh
    assert Stats(b"\x09" + s.to_bytes()[1:]).get(2, 1)[0] == 0
    assert not Stats(s.to_bytes()[:-1]).ok and not Stats(b"").ok         # a cell cut short
    layout1 = bytearray(199)                                           # 22-byte cells, no key
    layout1[0], layout1[1 + 7 * 22 + 4], layout1[1 + 7 * 22 + 20] = 1, 5, 3
    old = Stats(bytes(layout1))                                        # layout 1: read
    assert old.ok and old.get(2, 1)[2] == 5 and old.get(2, 1)[9] == 3 and not old.counting(bytes(6))
    from binocle.scenes.statsview import stats_table
    names, counts = stats_table(s, 2)            # the statistics screen's two labels
    assert names == ["Level", "Games", " won", "Deals", " won", "Best deal", "Average", "Streak",
                     "Bids made"]
    assert counts == [" Easy Norm.  Hard", "    0     3     0", "    0     2     0", "    0     2     0",
                      "    0     1     0", "    -   250     -", "    -   -55     -", "    0     2     0",
                      "  0/0   1/2   0/0"]
    assert len(stats_table(s, 0)[0]) == 8 == len(stats_table(s, 0)[1])   # no bids in two-hand games


def test_counting_is_keyed_to_the_game_and_goes_once_per_deal():
    two_hand = ((0, 0, (40, 20), (100, 30)), (1, 0, (10, 70), (20, 200)))
    s = Stats()
    s.begin(b"\x00\x00\x07\x00\x00\x00")
    s.count(0, 1, two_hand[:1], False, False)
    s.count(0, 1, two_hand[:1], False, False)             # saved again: counted once
    assert s.get(0, 1)[:4] == (0, 0, 1, 1)
    s.count(0, 1, two_hand, True, False)
    s.count(0, 1, two_hand, True, False)
    assert s.get(0, 1)[:5] == (1, 0, 2, 1, 140) and s.counting(b"\x00\x00\x07\x00\x00\x00")
    s.begin(b"\x00\x00\x08\x00\x00\x00", counted=2, done=1)   # a game its deals were counted of
    s.count(0, 1, two_hand, True, False)
    assert s.get(0, 1)[:3] == (1, 0, 2)
    s.reset()                                              # the game being counted stays
    s.count(0, 1, two_hand, True, False)
    assert s.get(0, 1)[:3] == (0, 0, 0)


def test_a_game_too_long_to_keep_goes_on_unsaved_with_a_message(d):
    d.start("binokel", 11)
    kept = []

    class Full(nvstore.Journal):
        """A journal that keeps nothing past the game's first 30 actions."""

        def save(self, settings, stats, head=None, body=b""):
            if head is not None and len(body) > 30:
                if not self.full:
                    self.full = self.last
                kept.append(self.full)
            return nvstore.Journal.save(self, settings, stats, head, body)

    j = d.app.store
    d.app.store = Full(j.f, j.seq, j.base)
    d.app.store.last = j.last
    said = []
    while d.app.session.state.nactions < 70:
        if d.app.said_too_long and not said:
            said.append(d.text(d.app.toast_text, 0) + " " + d.text(d.app.toast_text, 1))
        if not d.person_move():
            d.tick()
    assert said and said[0].startswith("Game too long to keep: it goes on unsaved.")
    got = reopened(d)
    assert got.notes == [] and len(got.record) == kept[0] and kept[0] <= 7 + 31
    assert bytes(d.app.session.state.history).startswith(got.record[7:])


def test_settings_saved_before_the_suits_and_teaching_lines_keep_their_values():
    """A version with the first 11 fields saved these bytes: they are read, and the newer
    fields keep their defaults (four-colour suits off, explanations in a first game)."""
    from binocle.settings import Settings, FIELDS_V1
    old = Settings()
    old.level, old.sound, old.target = 2, 0, 4
    data = old.to_bytes()[:1 + FIELDS_V1]
    got = Settings()
    got.suits, got.teach, got.taught = 1, 2, 5
    assert got.from_bytes(data)
    assert (got.level, got.sound, got.target) == (2, 0, 4)
    assert (got.suits, got.teach, got.taught) == (1, 2, 5)     # untouched by old bytes
    fresh = Settings()
    assert fresh.from_bytes(data) and (fresh.suits, fresh.teach, fresh.taught) == (0, 1, 0)
    assert not Settings().from_bytes(data[:-1])                 # shorter than any version wrote
    bad = bytearray(old.to_bytes())
    bad[-2] = 3                                                 # teach has 3 values
    assert not Settings().from_bytes(bytes(bad))


def test_teaching_is_on_for_a_rule_sets_first_game_only():
    from binocle.settings import Settings
    s = Settings()
    assert [s.teaching(i) for i in range(3)] == [True, True, True]
    s.taught = 0b101
    assert [s.teaching(i) for i in range(3)] == [False, True, False]
    s.teach = 2
    assert [s.teaching(i) for i in range(3)] == [True, True, True]
    s.teach = 0
    assert [s.teaching(i) for i in range(3)] == [False, False, False]


def test_each_settings_line_offers_as_many_choices_as_its_saved_field_allows():
    from binocle.settings import FIELDS, LIMITS, Settings
    from binocle.scenes.settingsview import LINES, line
    assert [len(c) for k, _l, c in LINES] == [LIMITS[FIELDS.index(k)] for k, _l, _c in LINES]
    s = Settings()
    assert [line(s, k) for k, _l, _c in LINES] == [
        "AI level: Normal", "Animation: Normal", "AI pace: Normal", "Hints: On",
        "Sort cards: High first", "Suits: 2 colours", "Explain rules: First game", "Sound: On"]
