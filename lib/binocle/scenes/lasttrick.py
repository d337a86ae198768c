"""The last trick, and only the last (rules.md hoyle 10): any button closes it. A box over
the top of the table (y 13 to 71): the person's melded cards (y 72) and hand stay in view."""

import displayio

from binocle import buttons as B
from binocle import ui


class LastTrick:
    OVERLAY = True
    UNLOAD = (__name__,)              # seen now and then: forgotten when closed
    KEYS = tuple((b, "close") for b in range(B.COUNT))

    def __init__(self, app, obs, names):
        self.app = app
        self.group = displayio.Group()
        g = self.group
        g.append(ui.panel(10, 13, 140, 59, ui.INK))
        g.append(ui.panel(11, 14, 138, 57, ui.DARK))
        trick = obs.last_trick or ()
        if not trick:
            g.append(ui.text("No trick taken yet", 16, 17, ui.YELLOW))
            return
        n = len(names)
        g.append(ui.text("Last trick: %s won" % names[obs.leader], 14, 15, ui.YELLOW))
        for i in range(len(trick)):
            seat = (obs.last_leader + i) % n
            x = 20 + i * 42
            g.append(app.art.sprite(trick[i], x, 28))
            g.append(ui.text(names[seat][:5], x - 2, 58, ui.WHITE))

    def update(self, now):
        pass

    def close(self):
        self.app.pop()
