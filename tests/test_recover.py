"""A screen that fails (a bug, such as a method the board's Python lacks) does not stop the
game: the app says so and goes back to the game as saved after its last action, or to the
title; the saved game stays (issue 18). In the simulator, headless, by buttons."""

import pytest

from tools.checks.simdriver import Driver
from engine import record

SORRY_GAME = "Sorry, a screen failed (AttributeError). Back to the game."
SORRY_TITLE = "Sorry, a screen failed (AttributeError). Back to the title."


@pytest.fixture(scope="module")
def d():
    return Driver()


def boom(*args, **kw):
    raise AttributeError("'str' object has no attribute 'capitalize'")


def message(d):
    return " ".join(d.text(d.app.toast_text, r) for r in range(3)).strip()


def playing(d, actions=12):
    """Play on until the person is to pick a card, some actions into the game."""
    while True:
        s = d.scene()
        if d.scene_name() == "Table" and s.picking() and d.app.session.state.nactions >= actions:
            return s
        if not d.person_move():
            d.tick()


def continue_after_power_cut(d):
    d.boot()
    d.title()
    assert d.scene().keys[0] == "continue"
    d.press(d.B.A)
    assert d.scene_name() in ("Table", "Choice")


def test_a_failing_screen_over_the_table_goes_back_to_the_game_as_saved(d, monkeypatch):
    d.start("hoyle", 7)
    playing(d)
    game = record.encode(d.app.session.state)
    done = d.app.session.state.nactions
    d.press(d.B.START)
    pause = d.wait_for(("Pause",), 50)
    monkeypatch.setattr(type(pause), "sheet", boom)          # the score sheet cannot open
    for _ in range(pause.menu.items.index("Score sheet")):
        d.press(d.B.DOWN)
    d.press(d.B.A)
    assert d.scene_name() in ("Table", "Choice")
    assert message(d) == SORRY_GAME
    assert record.encode(d.app.session.state) == game         # rebuilt from the save: nothing lost
    d.person_move()                                           # and the game goes on
    assert d.app.session.state.nactions > done
    continue_after_power_cut(d)


def test_a_table_that_keeps_failing_goes_to_the_title_and_the_game_stays_saved(d, monkeypatch):
    from binocle.scenes import table
    d.start("french", 3)
    playing(d)
    game = record.encode(d.app.session.state)
    monkeypatch.setattr(table.Table, "update", boom)
    d.tick()                                                  # fails: back to the game, rebuilt
    assert d.scene_name() == "Table" and message(d) == SORRY_GAME
    d.tick()                                                  # fails again before any button
    assert d.scene_name() == "Title" and message(d) == SORRY_TITLE
    assert d.scene().keys[0] == "continue"
    monkeypatch.undo()
    d.press(d.B.A)                                            # Continue saved game
    assert d.scene_name() in ("Table", "Choice")
    assert record.encode(d.app.session.state) == game


def test_a_screen_failing_on_the_title_goes_back_to_the_title(d, monkeypatch):
    from binocle.scenes import statsview
    d.title()
    d.app.session = None                                      # as on the title after a game
    title = d.scene()
    monkeypatch.setattr(statsview.StatsScreen, "__init__", boom)
    d.to_line(title, "stats")
    d.press(d.B.A)
    assert d.scene_name() == "Title" and message(d) == SORRY_TITLE
    assert d.app.session is None
    d.press(d.B.DOWN)                                         # the title works on
    assert d.scene_name() == "Title"


def test_a_title_that_keeps_failing_stops_the_game(d, monkeypatch):
    from binocle.scenes import title
    d.title()
    d.app.session = None
    monkeypatch.setattr(title.Title, "update", boom)
    monkeypatch.setattr(title.Title, "UNLOAD", ())            # the new title is of this class too:
    monkeypatch.setattr(d.app, "fresh", d.app.fresh + (title.__name__,))   # not imported anew
    d.tick()                                                  # a new title ...
    assert d.scene_name() == "Title" and message(d) == SORRY_TITLE
    with pytest.raises(AttributeError):
        d.tick()                                              # ... fails too: code.py's message
    monkeypatch.undo()
    d.title()


def test_out_of_memory_is_left_to_code_py(d, monkeypatch):
    from binocle.scenes import table

    def no_memory(*args):
        raise MemoryError()
    d.start("hoyle", 7)
    monkeypatch.setattr(table.Table, "update", no_memory)
    with pytest.raises(MemoryError):
        d.tick()
    monkeypatch.undo()
