"""The statistics screen: one rule set at a time, a table of each level's counts drawn with
two bitmap_labels of adafruit_display_text (the rows' names, and the counts in columns of the
terminal font's fixed width; one bitmap each, where a label's TileGrid a character would
take 32 KB here), loaded with this screen and forgotten with it. The line below it turns to
the next rule set (A or LEFT/RIGHT); the line under that resets everything, after asking."""

import displayio
import terminalio
from adafruit_display_text.bitmap_label import Label

from engine.rules import kind, RULE_SETS, THREE_HAND
from binocle import ui
from binocle.words import rule_title
from binocle.settings import LEVEL_NAMES
from binocle.scenes.settingsview import OptionMenu

# The table's rows: what each line of a level's column counts (9 characters at most).
ROWS = ("Level", "Games", " won", "Deals", " won", "Best deal", "Average", "Streak", "Bids made")


class StatsScreen(OptionMenu):
    OVERLAY = False
    UNLOAD = (__name__, "binocle.scenes.settingsview",     # seen now and then: forgotten when closed
              "adafruit_display_text.bitmap_label", "adafruit_display_text", "adafruit_ticks")

    def __init__(self, app):
        self.app = app
        self.rules_id = app.settings.rules_id
        self.group = displayio.Group()
        self.group.append(ui.panel(0, 0, ui.W, ui.H, ui.DARK))
        self.table = None
        self.menu = None
        self.build()

    def build(self):
        """The table and the menu of the rule set shown, made anew."""
        index = 0
        if self.menu is not None:
            index = self.menu.index
            self.group.remove(self.table)
            self.group.remove(self.menu.group)
        names, counts = stats_table(self.app.stats, self.rules_id)
        self.table = displayio.Group()
        self.table.append(label(names, 1, ui.YELLOW))
        self.table.append(label(counts, 56, ui.WHITE))        # 17 characters: to x = 158
        self.group.append(self.table)
        items = ["< %s >" % rule_title(RULE_SETS[self.rules_id]), "Reset statistics..."]
        self.menu = ui.Menu(None, items, y=ui.H - ui.LINE - 4, rows=1, index=index)
        self.group.append(self.menu.group)

    def choose(self):
        if self.menu.index == len(self.menu.items) - 1:
            from binocle.scenes.confirm import Confirm
            self.app.push(Confirm(self.app, "Reset statistics?", self.reset))
        else:
            self.option(1)

    def option(self, step):
        """LEFT/RIGHT anywhere but the reset line: the next (previous) rule set."""
        if self.menu.index == len(self.menu.items) - 1:
            return False
        self.rules_id = (self.rules_id + step) % len(RULE_SETS)
        self.build()
        return True

    def reset(self):
        self.app.stats.reset()
        self.app.save_stats()
        self.build()
        self.menu.select(len(self.menu.items) - 1)


def label(lines, x, color):
    """A bitmap_label of the terminal font, its top-left corner at (x, 2), lines 12 pixels apart."""
    return Label(terminalio.FONT, text="\n".join(lines), color=color, line_spacing=1.0,
                 anchor_point=(0, 0), anchored_position=(x, 2))


def stats_table(stats, rules_id):
    """The statistics of one rule set: (the rows' names, the lines of counts), a column a level
    right-aligned in 5, 6 and 6 characters under its name (cut to 4 and a dot if longer than
    5), '-' where there is nothing to count yet; bids made of bids played in binokel."""
    rows = 9 if kind(RULE_SETS[rules_id]) == THREE_HAND else 8
    cols = []
    for lv in range(len(LEVEL_NAMES)):
        games, won, deals, dwon, best, total, made, failed, _streak, longest = stats.get(rules_id, lv)
        level = LEVEL_NAMES[lv]                 # str.capitalize() is not in CircuitPython
        level = level[:1].upper() + (level[1:] if len(level) <= 5 else level[1:4] + ".")
        col = [level, games, won, deals, dwon]
        col += [best, total // deals] if deals else ["-", "-"]
        col.append(longest)
        if rows == 9:
            col.append("%d/%d" % (made, made + failed))
        cols.append(col)
    lines = ["%5s%6s%6s" % (cols[0][r], cols[1][r], cols[2][r]) for r in range(rows)]
    return list(ROWS[:rows]), lines
