"""The statistics screen: one rule set at a time (A or LEFT/RIGHT turn to the next);
the last line resets everything, after asking."""

from engine.rules import kind, RULE_SETS, THREE_HAND
from binocle import ui
from binocle.words import rule_title
from binocle.settings import LEVEL_NAMES
from binocle.scenes.settingsview import OptionMenu


class StatsScreen(OptionMenu):
    OVERLAY = False
    UNLOAD = (__name__, "binocle.scenes.settingsview")     # seen now and then: forgotten when closed

    def __init__(self, app):
        self.app = app
        self.rules_id = app.settings.rules_id
        self.group = None
        self.build()

    def build(self):
        lines = ["< %s >" % rule_title(RULE_SETS[self.rules_id])] + stats_lines(self.app.stats, self.rules_id)
        lines.append("Reset statistics...")
        self.menu = ui.Menu("Statistics", lines, y=8, rows=8)
        if self.group is None:
            import displayio
            self.group = displayio.Group()
        else:
            self.group.pop()
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


def stats_lines(stats, rules_id):
    """The statistics screen's lines for one rule set (26 characters at most)."""
    out = []
    for lv in range(len(LEVEL_NAMES)):
        games, won, deals, dwon, best, total, made, failed, _streak, longest = stats.get(rules_id, lv)
        level = LEVEL_NAMES[lv]                 # str.capitalize() is not in CircuitPython
        out.append("%s: games %d, won %d" % (level[:1].upper() + level[1:], games, won))
        if deals:
            out.append(" deals %d won %d" % (deals, dwon))
            out.append(" best %d avg %d" % (best, total // deals))
        if kind(RULE_SETS[rules_id]) == THREE_HAND and made + failed:    # contracts: binokel
            out.append(" contracts %d/%d made" % (made, made + failed))
        if longest:
            out.append(" longest streak %d" % longest)
    return out
