"""The scene table: every scene's keys name real methods, and three buttons reach everything."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "lib"))
os.environ.setdefault("BLINKA_FORCEBOARD", "GENERIC_LINUX_PC")

from binocle import buttons as B                     # noqa: E402
from binocle import helptext, words                  # noqa: E402
from binocle.scenes import (choice, confirm, gameover, help, lasttrick, lesson, melds, pause,   # noqa: E402
                            settingsview, sheet, statsview, summary, table, title)

SCENES = (
    title.Title, table.Table, choice.Choice, lasttrick.LastTrick, melds.Melds, pause.Pause,
    settingsview.SettingsScreen, confirm.Confirm, summary.Summary, sheet.Sheet, gameover.GameOver, help.Help,
    statsview.StatsScreen, lesson.Lesson,
)
# The Feather ESP32-S3 Reverse TFT has three buttons: B (held: START), A (held: SELECT), RIGHT.
THREE = (B.RIGHT, B.A, B.B, B.START, B.SELECT)
# Lists and the hand cursor wrap, so these are reached by their partner on three buttons.
PARTNERS = (("up", "down"), ("prev", "next"), ("left", "right"), ("jump_row", "right"))


def test_every_key_names_a_method():
    for scene in SCENES:
        assert scene.KEYS, scene.__name__
        for button, name in scene.KEYS:
            assert 0 <= button < B.COUNT
            assert callable(getattr(scene, name, None)), "%s.%s" % (scene.__name__, name)


def test_a_button_does_one_thing_per_scene():
    for scene in SCENES:
        pressed = [b for b, _ in scene.KEYS]
        assert len(pressed) == len(set(pressed)), scene.__name__


def test_three_buttons_reach_every_function():
    for scene in SCENES:
        reach = set(name for b, name in scene.KEYS if b in THREE)
        if hasattr(scene, "change") and "right" in reach:
            reach.add("down")              # OptionMenu.change: RIGHT moves where DOWN is missing
        for b, name in scene.KEYS:
            if name in reach:
                continue
            partner = [p for n, p in PARTNERS if n == name]
            assert partner and partner[0] in reach, "%s: %s needs a fourth button" % (scene.__name__, name)


def test_every_scene_answers_a():
    for scene in SCENES:
        assert B.A in [b for b, _ in scene.KEYS], scene.__name__


PYBADGE = ("left", "right", "up", "down", "A", "B", "START", "SELECT")
FEATHER = (None, "D2", None, None, "D1", "D0", None, None)
FEATHER_LONG = ((B.START, "hold D0"), (B.SELECT, "hold D1"))


def test_the_buttons_page_names_each_boards_buttons():
    assert helptext.buttons_page(PYBADGE, ()) == ("Buttons", (
        "Move: right/left. Choose: A. Last trick: B. Menu: START. Hint: SELECT. "
        "Any button hurries the cards on."))
    assert helptext.buttons_page(FEATHER, FEATHER_LONG)[1] == (
        "Move: D2. Choose: D1. Last trick: D0. Menu: hold D0. Hint: hold D1. "
        "Any button hurries the cards on.")


HELP = os.path.join(ROOT, "assets", "help.txt")


def help_pages(rules):
    return [helptext.page(HELP, rules, k) for k in range(helptext.count(HELP, rules))]


def test_each_rule_set_reads_its_own_help_pages_in_order():
    """What a beginner needs first (the game, the cards, their order and points, a deal), the
    meld table after."""
    firsts = {"hoyle": "Binocle", "french": "French binocle", "binokel": "Binokel, 3 hands"}
    for rules, n in (("hoyle", 13), ("french", 12), ("binokel", 11)):
        pages = help_pages(rules)
        titles = [t for t, _ in pages]
        assert len(pages) == n and titles[0] == firsts[rules]
        assert titles[1:4] == ["Cards", "Card points", "A deal"]
        assert pages[1:3] == help_pages("hoyle")[1:3]                  # "all"
        assert helptext.page(HELP, rules, n) is None
        if rules != "binokel":
            assert titles.index("Meld table") > titles.index("The end")
    assert [t for t, _ in help_pages("french")[3:11]] == [t for t, _ in help_pages("hoyle")[3:11]]
    assert "Knocking" not in [t for t, _ in help_pages("french")]
    assert help_pages("binokel")[4] == ("Dabb and trump", (
        "The Dabb is shown to all. The soloist takes it, buries 3 cards (their points count for "
        "him), then names trump or Durch (all 15 tricks), or gives up at once."))
    assert help_pages("binokel")[5] == ("Giving up", (
        "The soloist may give up when he names trump, before any card is played: he loses his "
        "bid. The others score 50 each and their melds, counted with the trump he named."))
    assert help_pages("hoyle")[11] == ("Knocking", (
        "Think you have 1000 with the points in your tricks? Choose Knock in the pause menu "
        "before you play: it shows your count. Right: you win at once. Short: you lose at once."))


def test_rules_help_pages_fit_the_screen():
    for rules in ("hoyle", "french", "binokel"):
        pages = help_pages(rules) + [helptext.buttons_page(FEATHER, FEATHER_LONG),
                                     helptext.buttons_page(PYBADGE, ()), help._MISSING]
        assert len(pages) >= 5
        for title_text, body in pages:
            assert len(title_text) <= 26, title_text
            lines = words.wrap(body, 26)
            assert len(lines) <= 8, (title_text, lines)
            assert max(len(line) for line in lines) <= 26


def test_wrap_breaks_at_spaces():
    assert words.wrap("Follow suit and win the trick if you can", 12) == [
        "Follow suit", "and win the", "trick if you", "can"]
    assert words.wrap("one\ntwo", 26) == ["one", "two"]


def scene_classes():
    """Every class of lib/binocle/scenes with a key table and its own constructor (MenuScene is
    only their base)."""
    import importlib
    import inspect
    out = set()
    folder = os.path.join(ROOT, "lib", "binocle", "scenes")
    for f in sorted(os.listdir(folder)):         # every module there, a new one too
        if not f.endswith(".py") or f == "__init__.py":
            continue
        module = importlib.import_module("binocle.scenes." + f[:-3])
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and hasattr(cls, "KEYS") and "__init__" in vars(cls):
                out.add(name)
    return out


def test_the_scene_lists_hold_every_scene():
    from tools.checks import walk
    assert scene_classes() == set(s.__name__ for s in SCENES) == set(walk.SCENES)


def test_every_screen_opens_on_the_simulator():
    """The device suite's walk (tools/checks/walk.py) on the simulator's profile: each screen
    opened in each rule set, on Blinka's displayio (its buttons are pressed on the boards'
    firmware stand-ins, under MicroPython: Blinka draws every frame, too slowly for that)."""
    from tools.checks.simdriver import Driver
    from tools.checks import walk as screens
    d = Driver()
    walk = screens.Walk(d.app, d.press, d.tick, (), "Simulator")
    for rules in screens.RULES:
        assert walk.run(rules) == []
        missing = [s for s in screens.SCENES if s not in walk.scenes_opened(rules)]
        assert missing == ([] if rules == "binokel" else ["Melds"]), (rules, missing)
