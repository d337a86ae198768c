"""Binokel: the contract and every player's melds, shown to all before the first trick;
after the soloist gave up, what the others score instead (50 and their melds) and no
melds of his."""

from binocle import buttons as B
from binocle import ui, words
from binocle.scenes.base import MenuScene


class Melds(MenuScene):
    UNLOAD = (__name__,)              # seen once a deal: forgotten when closed
    KEYS = ((B.UP, "up"), (B.LEFT, "up"), (B.DOWN, "down"), (B.RIGHT, "down"),
            (B.A, "close"), (B.B, "close"), (B.START, "close"))

    def __init__(self, app, obs, names):
        self.app = app
        solo = obs.soloist
        gave_up = obs.contract[1]
        # the contract first ('West 280, trump Spades'); after giving up the title says it
        lines = [] if gave_up else ["%s %d, trump %s" % (names[solo], obs.bid, words.SUIT_WORDS[obs.trump])]
        for p in range(len(names)):
            shown = obs.melds[p]
            total = 0
            for m in shown:
                total += m[1]
            if gave_up and p == solo:
                lines.append("%s: -%d, the bid" % (names[p], obs.bid))
                continue
            if gave_up:
                from engine.binokel import SURRENDER_BONUS
                lines.append("%s: %d + melds %d" % (names[p], SURRENDER_BONUS, total))
            else:
                lines.append("%s: %d" % (names[p], total))
            for name, pts, _faces, _kind in shown:
                lines.append("  %s %d" % (words.short_kind(name), pts))
        title = "%s gave up (A: summary)" % names[solo] if gave_up else "Melds shown (A: play)"
        self.menu = ui.Menu(title, lines, y=12, rows=7)
        self.group = self.menu.group

    def close(self):
        self.app.pop()
