"""Binokel: every player's melds, shown to all before the first trick."""

from binocle import buttons as B
from binocle import ui, words
from binocle.scenes.base import MenuScene


class Melds(MenuScene):
    KEYS = ((B.UP, "up"), (B.LEFT, "up"), (B.DOWN, "down"), (B.RIGHT, "down"),
            (B.A, "close"), (B.B, "close"), (B.START, "close"))

    def __init__(self, app, obs, names):
        self.app = app
        lines = []
        for p in range(len(names)):
            shown = obs.melds[p]
            total = 0
            for m in shown:
                total += m[1]
            lines.append("%s: %d" % (names[p], total))
            for name, pts, _faces, _kind in shown:
                lines.append("  %s %d" % (words.short_kind(name), pts))
        self.menu = ui.Menu("Melds shown (A: play)", lines, y=12, rows=7)
        self.group = self.menu.group

    def close(self):
        self.app.pop()
