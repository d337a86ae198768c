"""Never lose a game: the app saves after every action and picks the game up again after a
power cut; settings and statistics survive; damaged saves give a message and a fresh start."""

import pytest

from tools.simdriver import Driver
from tools.sim import load_paths

load_paths()
from binocle import store as nvstore          # noqa: E402
from binocle.stats import Stats               # noqa: E402


@pytest.fixture(scope="module")
def d():
    return Driver()


def play_actions(d, n):
    """Play on (the person by buttons) until the game has at least n actions."""
    while d.app.session.state.nactions < n:
        if not d.person_move():
            d.tick()


def fingerprint(session):
    state = session.state
    return (bytes(state.history), state.scores(), state.observation(0).key(), state.current_player())


def test_switched_off_mid_deal_the_game_goes_on_at_the_same_point(d):
    d.start("hoyle", 7)
    play_actions(d, 23)
    before = fingerprint(d.app.session)
    played = bytes(d.app.session.ai[1].memory.played)
    d.boot()                                       # power off and on: a new app, the same nvm
    d.title()
    title = d.scene()
    assert title.keys[0] == "continue" and title.menu.items[0] == "Continue saved game"
    d.press(d.B.A)
    assert d.scene_name() in ("Table", "Choice")
    assert fingerprint(d.app.session) == before
    # the AI's card memory was rebuilt by the replay, as it was in play
    assert bytes(d.app.session.ai[1].memory.played) == played


def test_every_action_is_saved(d):
    d.start("binokel", 11)
    store = d.app.store
    for _ in range(40):
        n = d.app.session.state.nactions
        while d.app.session.state.nactions == n:
            if not d.person_move():
                d.tick()
        data, msg = store.load_game()
        assert msg is None
        assert data[7:] == bytes(d.app.session.state.history)     # header, then every action


def test_a_damaged_save_says_so_and_starts_fresh(d):
    d.start("french", 3)
    play_actions(d, 5)
    nvm = d.nvm
    for i in range(768, len(nvm)):                 # scribble over both game slots
        nvm[i] = (i * 7) & 0xFF
    d.boot()
    assert d.app.saved is None
    assert d.app.notes == ["Saved game: unknown data found; new start."]
    d.title()
    assert d.scene().keys[0] == "play"
    d.tick()
    assert d.text(d.app.toast_lines[0]).startswith("Saved game: unknown")


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
    assert screen.menu.items[0].startswith("> ")
    d.press(d.B.UP)                                # to the last line: reset
    d.press(d.B.A)
    assert d.scene_name() == "Confirm"
    d.press(d.B.DOWN)
    d.press(d.B.A)
    assert d.app.stats.to_bytes() == Stats().to_bytes()
    data, msg = d.app.store.load_blob(nvstore.KIND_STATS)
    assert data == Stats().to_bytes() and msg is None


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
    assert Stats(b"\x09" + s.to_bytes()[1:]).get(2, 1)[0] == 0          # another layout: fresh
    from binocle.scenes.statsview import stats_lines
    assert stats_lines(s, 2) == ["Easy: games 0, won 0", "Normal: games 3, won 2", " deals 2 won 1",
                                 " best 250 avg -55", " contracts 1/2 made", " longest streak 2",
                                 "Hard: games 0, won 0"]


def test_a_game_too_long_to_keep_goes_on_unsaved_with_a_message(d):
    class SmallStore(nvstore.Store):
        """A store whose game slot holds 60-byte records (a real one holds 3701)."""
        def capacity(self, kind=nvstore.KIND_GAME):
            return 60 if kind == nvstore.KIND_GAME else nvstore.Store.capacity(self, kind)

    d.start("binokel", 11)
    d.app.store = SmallStore(bytearray(b"\xff" * 8192))
    said = []
    while d.app.session.state.nactions < 70:
        if d.app.said_too_long and not said:
            said.append(d.text(d.app.toast_lines[0]) + " " + d.text(d.app.toast_lines[1]))
        if not d.person_move():
            d.tick()
    assert said and said[0].startswith("Game too long to keep: it goes on unsaved.")
    data, msg = d.app.store.load_game()
    assert msg is None and len(data) == 60                      # the last record that fitted
    assert bytes(d.app.session.state.history).startswith(data[7:])
