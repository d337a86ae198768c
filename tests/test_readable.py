"""The screen as a player reads it, through the simulator driver: in every rule set, every
text fits its place (nothing is cut off at 160x128), and a message never covers the trick,
the Dabb or the lines of a menu. A whole deal is played by buttons with a hint asked at
every decision, and the pause menu's screens are opened on the way; every frame is read.
"""

import pytest

from tools.checks.simdriver import Driver


SEEDS = {"hoyle": 7, "french": 3, "binokel": 11}


class Reader:
    """Watches the app's texts and its message band while the driver plays."""

    def __init__(self, d, monkeypatch):
        from binocle import ui, words
        self.d = d
        self.cut = []                     # (scene, text, room) of texts longer than their place
        self.covered = []                 # (scene, message, what it covered)
        self.messages = []
        self.ui = ui
        real_line = ui.set_line
        real_wrap = words.wrap

        def set_line(t, row, s):
            room = min(t.width, (ui.W - t.x) // ui.GLYPH_W) if t.x >= 0 else t.width
            if len(s.rstrip()) > room and (self.where(), s) not in [c[:2] for c in self.cut]:
                self.cut.append((self.where(), s, room))
            real_line(t, row, s)

        def toast(text, ms=1800):
            lines = real_wrap(text, ui.CHARS)
            self.messages.append(text)
            if len(lines) > 3 or max(len(x) for x in lines) > ui.CHARS:
                self.cut.append((self.where(), text, "3 lines"))
            real_toast(text, ms)

        real_toast = d.app.toast
        monkeypatch.setattr(ui, "set_line", set_line)
        monkeypatch.setattr(d.app, "toast", toast)
        real_tick = d.tick

        def tick(ms=40):
            real_tick(ms)
            self.check_band()

        monkeypatch.setattr(d, "tick", tick)

    def where(self):
        return self.d.scene_name()

    def check_band(self):
        app = self.d.app
        if app.toast_box.hidden:
            return
        y0 = app.toast_box.y
        y1 = y0 + app.toast_panel.height
        top = app.top()
        boxes = []
        menu = getattr(top, "menu", None)
        if menu is not None:
            boxes.append(("menu", menu.y, menu.y + menu.h))
        if top is None or getattr(top, "OVERLAY", False) or hasattr(top, "view"):
            for s in app.scenes:
                if hasattr(s, "view") and not s.asleep:
                    for what, sprites in (("trick", s.view.trick), ("Dabb", s.view.extra)):
                        for sp in sprites:
                            if not sp.hidden:
                                boxes.append((what, sp.y, sp.y + self.ui.CARD_H))
        for what, b0, b1 in boxes:
            if b0 < y1 and y0 < b1:
                text = self.d.text(app.toast_text, 0)
                item = (self.where(), text, what)
                if item not in self.covered:
                    self.covered.append(item)


def hint_and_peek(d, name):
    """At each decision of the person's: ask for a hint (SELECT) first."""
    s = d.scene()
    if name == "Choice" or (name == "Table" and s.waiting and s.picking()):
        key = (d.app.session.state.nactions, name)
        if getattr(d, "_hinted", None) != key:
            d._hinted = key
            d.press(d.B.SELECT)
            for _ in range(400):
                if d.app.hint_job is None:
                    break
                d.tick()


@pytest.fixture(scope="module")
def driver():
    return Driver()


@pytest.mark.parametrize("rules", ["hoyle", "french", "binokel"])
def test_a_deal_reads_whole_and_messages_keep_clear(driver, rules, monkeypatch):
    d = driver
    d.app.settings.hints = 1
    r = Reader(d, monkeypatch)
    d.title()
    d.start(rules, SEEDS[rules], fast=False)
    d.app.settings.anim, d.app.settings.pace = 1, 0          # slides and holds, quickly
    d.play_until(("Table",))
    for item in ("Score sheet", "Rules help", "Settings", "Last trick"):
        d.pause_item(item)
        for _ in range(3):
            d.tick()
        for _ in range(20):                                 # page through the help
            if d.scene_name() != "Help":
                break
            d.press(d.B.RIGHT)
        while d.scene_name() not in ("Table", "Choice"):
            d.press(d.B.B)
    d.play_until(("Sheet",), on_scene=hint_and_peek)
    assert "Summary" in d.seen and "Choice" in d.seen
    assert any(m.startswith("Hint: ") for m in r.messages)
    if rules == "binokel":
        assert "Melds" in d.seen
    assert r.cut == []
    assert r.covered == []


def test_the_title_and_its_screens_read_whole(driver, monkeypatch):
    d = driver
    r = Reader(d, monkeypatch)
    for rules in ("hoyle", "french", "binokel"):
        d.title()
        title = d.scene()
        d.to_line(title, "rules")
        while d.app.settings.rules_name() != rules:
            d.press(d.B.RIGHT)
        for key in ("stats", "help", "settings"):
            d.to_line(d.scene(), key)
            d.press(d.B.A)
            for _ in range(12):
                if d.scene_name() == "Title":
                    break
                d.press(d.B.DOWN)
            if d.scene_name() != "Title":
                d.press(d.B.B)
            d.tick()
    d.start("hoyle", 7)                 # the title closes: its modules are forgotten again
    assert r.cut == []
    assert r.covered == []
