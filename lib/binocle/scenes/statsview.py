"""The statistics screen: one rule set at a time, a table of each level's counts (a
GridLayout of adafruit_displayio_layout, a label of adafruit_display_text in each column,
loaded with this screen and forgotten with it). The line below it turns to the next rule
set (A or LEFT/RIGHT); the line under that resets everything, after asking."""

import displayio
import terminalio
from adafruit_display_text.label import Label
from adafruit_displayio_layout.layouts.grid_layout import GridLayout

from engine.rules import kind, RULE_SETS, THREE_HAND
from binocle import ui
from binocle.words import rule_title
from binocle.settings import LEVEL_NAMES
from binocle.scenes.settingsview import OptionMenu

# The table's rows: what each line of a level's column counts.
ROWS = ("Level", "Games", " won", "Deals", " won", "Best deal", "Average", "Streak", "Bids made")


class StatsScreen(OptionMenu):
    OVERLAY = False
    UNLOAD = (__name__, "binocle.scenes.settingsview",     # seen now and then: forgotten when closed
              "adafruit_displayio_layout.layouts.grid_layout", "adafruit_displayio_layout.layouts",
              "adafruit_displayio_layout", "adafruit_display_text.label", "adafruit_display_text")

    def __init__(self, app):
        self.app = app
        self.rules_id = app.settings.rules_id
        self.group = displayio.Group()
        self.group.append(ui.panel(0, 0, ui.W, ui.H, ui.DARK))
        self.grid = None
        self.menu = None
        self.build()

    def build(self):
        """The table and the menu of the rule set shown, made anew."""
        index = 0
        if self.menu is not None:
            index = self.menu.index
            self.group.remove(self.grid)
            self.group.remove(self.menu.group)
        cols = stats_table(self.app.stats, self.rules_id)
        # 32 units of about 5 pixels: the row names take 11 (9 characters), each level 7
        self.grid = GridLayout(x=2, y=2, width=ui.W - 2, height=ui.LINE * len(cols[0]), grid_size=(32, 1))
        for c in range(len(cols)):
            text = Label(terminalio.FONT, text="\n".join(cols[c]), line_spacing=1.0,
                         color=ui.YELLOW if c == 0 else ui.WHITE)
            self.grid.add_content(text, grid_position=(0 if c == 0 else 4 + 7 * c, 0),
                                  cell_size=(11 if c == 0 else 7, 1), cell_anchor_point=(0, 0))
        self.group.append(self.grid)
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


def stats_table(stats, rules_id):
    """The statistics of one rule set as columns of lines: the row names, then each level's
    name and counts, the counts right-aligned in 5 characters ('-' where there is nothing to
    count yet; bids made of bids played in binokel)."""
    rows = 9 if kind(RULE_SETS[rules_id]) == THREE_HAND else 8
    out = [list(ROWS[:rows])]
    for lv in range(len(LEVEL_NAMES)):
        games, won, deals, dwon, best, total, made, failed, _streak, longest = stats.get(rules_id, lv)
        level = LEVEL_NAMES[lv]                 # str.capitalize() is not in CircuitPython
        col = [(level[:1].upper() + level[1:]), games, won, deals, dwon]
        col += [best, total // deals] if deals else ["-", "-"]
        col.append(longest)
        if rows == 9:
            col.append("%d/%d" % (made, made + failed))
        out.append(["%5s" % v for v in col])
    return out
