"""The handheld app in the simulator, headless: scripted buttons play real deals.

Every person's move goes through the input layer and the scenes' key tables
(tools/checks/simdriver.py); the AI seats think through the app's sliced loop.
"""

import os

import pytest

from tools.checks.simdriver import Driver
from engine import record



def same_colour(pixel, rgb):
    """The screen is 16-bit (RGB565): a colour comes back within a few steps of itself."""
    want = ((rgb >> 16) & 0xFF, (rgb >> 8) & 0xFF, rgb & 0xFF)
    return all(abs(pixel[i] - want[i]) <= 8 for i in range(3))


GREEN = 0x0B6623        # the table
SEEDS = {"hoyle": 7, "french": 3, "binokel": 11}


@pytest.fixture(scope="module")
def d():
    return Driver()


def picking(d, want_trick=False, want_illegal=False):
    """Play on until the person is to pick a card (with a trick led / with cards not allowed)."""
    for _ in range(20000):
        s = d.scene()
        if d.scene_name() == "Table" and s.picking():
            illegal = [k for k in range(len(s.slots)) if s.slots[k][1] not in s.obs.legal]
            if (not want_trick or s.obs.trick) and (not want_illegal or illegal):
                return s
            d.person_move()
        elif not d.person_move():
            d.tick()
    raise AssertionError("the person never got to pick a card")


@pytest.mark.parametrize("rules", ["hoyle", "french", "binokel"])
def test_a_whole_deal_by_buttons_to_the_score_sheet(d, rules, tmp_path):
    d.seen = []
    d.start(rules, SEEDS[rules])
    sheet = d.play_until(("Sheet",))
    session = d.app.session
    obs = session.observation()
    assert len(obs.sheet) == 1
    for scene in ("Table", "Choice", "Summary", "Sheet"):
        assert scene in d.seen
    # the score sheet on screen is the engine's
    row = obs.sheet[0]
    shown = d.text(sheet.body, 0).split()
    assert shown[0] == "1"
    total = session.state.ROW_SCORES
    for p in range(session.players()):
        assert shown[p + 1].rstrip("*") == str(row[total][p])
        assert obs.scores[p] == row[total][p]
    # the actions the app sent replay to the same game in a fresh engine
    replay = record.replay(record.encode(session.state))
    assert replay.scores() == session.state.scores()
    assert replay.sheet == session.state.sheet
    path = d.shot(str(tmp_path / ("sheet-%s.png" % rules)))
    assert os.path.getsize(path) > 500
    d.press(d.B.A)                                   # on to the next deal
    assert d.scene_name() in ("Table", "Choice", "GameOver")


def test_the_cursor_card_stands_raised(d):
    d.start("hoyle", 7)
    t = picking(d)
    k = t.cursor
    raised = t.sprite_of(k)
    assert raised.y == t.lay.hand_y - 5
    assert not same_colour(d.pixel(raised.x + 3, t.lay.hand_y - 3), GREEN)    # the card's face, above the row
    d.press(d.B.RIGHT)
    assert t.cursor == (k + 1) % len(t.slots)
    moved = t.sprite_of(t.cursor)
    assert moved.y == t.lay.hand_y - 5
    assert raised.y == t.lay.hand_y
    assert same_colour(d.pixel(raised.x + 3, t.lay.hand_y - 3), GREEN)    # back down: table shows there


def test_cards_that_cannot_be_played_are_dimmed(d):
    d.start("binokel", SEEDS["binokel"])
    t = picking(d, want_trick=True, want_illegal=True)
    dimmed = 0
    for k in range(len(t.slots)):
        face, action, _src = t.slots[k]
        sprite = t.sprite_of(k)
        assert sprite[0] == face
        if action in t.obs.legal:
            assert sprite.pixel_shader is d.app.art.palette
        else:
            assert sprite.pixel_shader is d.app.art.dim
            dimmed += 1
    assert dimmed > 0
    # a dimmed card's face is grey on screen: look inside the last card, which nothing covers
    last = t.sprite_of(len(t.slots) - 1)
    colour = d.pixel(last.x + 15, last.y + 24)
    assert same_colour(colour, 0x9A9A9A if t.slots[-1][1] not in t.obs.legal else 0xF8F8F0)


def test_trump_is_shown(d):
    d.start("hoyle", 7)
    t = picking(d)
    obs = t.obs
    assert t.view.turnup[0] == obs.turnup and not t.view.turnup.hidden
    assert obs.turnup >> 3 == obs.trump
    assert not same_colour(d.pixel(t.view.turnup.x + 10, t.view.turnup.y + 14), GREEN)
    d.start("binokel", SEEDS["binokel"])
    t = picking(d, want_trick=True)
    assert t.obs.trump >= 0
    assert t.view.turnup[0] == 34 + t.obs.trump and not t.view.turnup.hidden


def test_hint_moves_the_cursor_and_gives_a_reason(d):
    d.app.settings.hints = 1
    d.start("french", SEEDS["french"])
    t = picking(d)
    d.press(d.B.SELECT)
    for _ in range(2000):
        if d.app.hint_job is None:
            break
        d.tick()
    action, why = d.app.session.hint
    assert action in t.obs.legal
    assert t.slots[t.cursor][1] == action
    assert d.text(d.app.toast_text, 0).startswith("Hint: play ")
    assert why


def test_the_rules_help_says_so_when_its_file_is_gone(d, tmp_path):
    d.start("binokel", 11)
    assets, d.app.assets = d.app.assets, str(tmp_path) + "/"     # a drive without help.txt
    try:
        missing_help_file(d)
    finally:
        d.app.assets = assets


def missing_help_file(d):
    picking(d)
    d.pause_item("Rules help")
    assert d.scene_name() == "Help"
    assert d.text(d.scene().title) == "Rules help"
    assert d.text(d.scene().lines, 0).startswith("The file assets/help.txt")
    d.press(d.B.RIGHT)
    assert d.text(d.scene().title) == "Buttons"
    d.press(d.B.RIGHT)
    assert d.text(d.scene().title) == "Rules help"            # two pages, round and round
    d.press(d.B.B)
    assert d.scene_name() == "Pause"


def test_pause_menu_leads_to_the_sheet_and_back(d):
    d.start("hoyle", 7)
    t = picking(d)
    d.pause_item("Score sheet")
    assert d.scene_name() == "Sheet"
    assert d.text(d.scene().body, 0) == "none yet"
    d.press(d.B.B)
    assert d.scene_name() == "Pause"
    d.press(d.B.B)
    assert d.scene() is t and t.picking()


def test_the_table_lets_its_sprites_go_under_a_whole_screen(d):
    d.start("hoyle", 7)
    t = picking(d)
    cursor, hand = t.cursor, [t.slots[k][0] for k in range(t.hand_n)]
    d.pause_item("Rules help")                                  # over the pause menu
    assert d.scene_name() == "Help"
    assert t.asleep and len(t.group) == 0 and t.view.hand == ()
    assert d.text(d.scene().title) == "Buttons"                # the board's buttons first
    d.press(d.B.B)                                              # the pause menu: a whole screen too
    assert d.scene_name() == "Pause" and t.asleep
    d.press(d.B.B)
    assert d.scene() is t and t.picking() and t.cursor == cursor
    assert [t.slots[k][0] for k in range(t.hand_n)] == hand
    raised = t.sprite_of(cursor)                                # the hand is drawn anew, cursor up
    assert raised.y == t.lay.hand_y - 5 and not raised.hidden
    assert not same_colour(d.pixel(raised.x + 3, t.lay.hand_y - 3), GREEN)


def test_screens_seen_now_and_then_are_forgotten_when_they_close(d):
    import sys
    d.start("hoyle", 7)
    t = picking(d)
    assert "binocle.scenes.title" not in sys.modules           # closed when the game began
    d.pause_item("Score sheet")                                 # over the pause menu
    assert d.scene_name() == "Sheet"
    assert "binocle.scenes.sheet" in sys.modules and "binocle.scenes.pause" in sys.modules
    d.press(d.B.B)
    assert "binocle.scenes.sheet" not in sys.modules
    assert "binocle.scenes.pause" in sys.modules                # the pause menu is still open
    d.press(d.B.B)
    assert "binocle.scenes.pause" not in sys.modules
    assert "binocle.scenes.table" in sys.modules and d.scene() is t
    d.press(d.B.START)                                          # and it comes back when needed
    assert d.scene_name() == "Pause"
    d.press(d.B.B)


def test_a_press_finishes_a_card_slide(d):
    d.start("hoyle", 7)
    t = picking(d)
    d.app.settings.anim = 3                # slow slides
    d.press(d.B.A)                         # play the card under the cursor: it slides
    assert t.anim.busy()
    d.press(d.B.B)
    assert not t.anim.busy()
    d.app.settings.anim, d.app.settings.pace = 0, 0


def test_the_card_art_stays_on_the_drive(d):
    """The card art is an OnDiskBitmap: its pixels are read from the drive, never kept in RAM
    (what the game keeps is measured by `python -m tools ui-memory`, docs/memory.md)."""
    for rules in ("hoyle", "binokel"):
        d.start(rules, 7)
        assert type(d.app.art.bitmap).__name__ == "OnDiskBitmap"


def test_settings_show_the_version_and_guard_the_firmware_update(d):
    from binocle.version import VERSION
    d.start("hoyle", 7)
    picking(d)
    d.pause_item("Settings")
    menu = d.scene().menu
    assert d.scene_name() == "SettingsScreen"
    assert menu.items[-2] == "Version " + VERSION
    assert menu.items[1] == "Animation: Off"
    d.press(d.B.DOWN)
    d.press(d.B.A)                                     # animation steps on
    assert menu.items[1] == "Animation: Fast" and d.app.settings.anim == 1
    d.press(d.B.UP)                                    # wraps to the last line
    d.press(d.B.UP)
    assert menu.index == len(menu.items) - 1
    d.press(d.B.A)                                     # Firmware update...: not on the simulator,
    assert d.scene_name() == "SettingsScreen"          # said before anything is asked
    assert d.text(d.app.toast_text, 0) == "Only possible on a board"
    d.press(d.B.LEFT)                                  # not an option line: the cursor moves
    assert menu.index == len(menu.items) - 2
    d.press(d.B.UP)
    d.press(d.B.RIGHT)                                 # an option line: its value changes
    assert menu.index == len(menu.items) - 3 and menu.items[-3] == "Sound: Off"
    d.press(d.B.LEFT)
    assert menu.items[-3] == "Sound: On" and d.app.settings.sound == 1
    d.app.settings.anim = 0


def test_settings_show_the_free_memory_on_a_board(d, monkeypatch):
    import gc
    monkeypatch.setattr(gc, "mem_free", lambda: 37 * 1024 + 500, raising=False)   # CircuitPython's
    d.start("hoyle", 7)
    picking(d)
    d.pause_item("Settings")
    menu = d.scene().menu
    assert menu.items[-3].startswith("Version ") and menu.items[-2] == "Free memory 37 KB"
    d.press(d.B.UP)
    d.press(d.B.A)                                     # the last line is still the update
    assert d.text(d.app.toast_text, 0) == "Only possible on a board"
    d.press(d.B.UP)
    d.press(d.B.A)                                     # the memory line does nothing
    assert d.scene_name() == "SettingsScreen" and menu.index == len(menu.items) - 2
    d.press(d.B.B)


def test_cards_click_when_the_sound_is_on(d):
    from binocle.boards import sim
    d.start("hoyle", 7)
    d.app.settings.sound = 0
    picking(d)
    del sim.tones[:]
    d.person_move()
    assert sim.tones == []
    d.app.settings.sound = 1
    picking(d)
    del sim.tones[:]
    d.person_move()
    assert sim.tones[0] == (880, 15)


def test_a_correct_knock_wins_the_game_through_the_pause_menu(d):
    d.app.settings.hints = 1
    d.start("hoyle", 7)
    d.app.session.state.score[0] = 990            # ten card points short of the game
    for _ in range(20000):
        s = d.scene()
        if d.scene_name() == "Table" and s.picking() and d.app.session.person_can_knock(s.obs):
            break
        if not d.person_move():
            d.tick()
    state = d.app.session.state
    count = state.score[0] + state.cardpts[0]     # the engine's own count for the knock
    assert count >= 1000
    assert [d.text(d.app.toast_text, r) for r in range(3)] == [
        "You have %d of 1000:" % count, "knock in the menu to win", ""]
    d.press(d.B.START)
    pause = d.scene()
    assert d.scene_name() == "Pause" and pause.menu.items[-1] == "Knock: %d of 1000" % count
    d.press(d.B.UP)                               # the menu wraps: its last line
    d.press(d.B.A)                                # enough: no question, the knock at once
    import sys
    assert "binocle.scenes.confirm" not in sys.modules and "binocle.scenes.pause" not in sys.modules
    summary = d.wait_for(("Summary",), 200)
    assert d.app.session.game_over() and d.app.session.state.winner() == 0
    assert d.text(summary.body, 0) == "You knocked: %d, enough" % count
    d.press(d.B.A)
    assert d.scene_name() == "Sheet"
    d.press(d.B.A)
    over = d.scene()
    assert d.scene_name() == "GameOver"
    assert over.why.text.split("\n") == [
        "You knocked with %d." % count, "A knock needs 1000: it", "wins the game at once."]
    assert d.app.saved is None                    # a finished game leaves no save behind
    d.press(d.B.A)
    assert d.scene_name() == "Title" and d.scene().keys[0] == "play"
