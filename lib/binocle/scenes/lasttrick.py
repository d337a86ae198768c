"""The last trick, and only the last (rules.md hoyle 10): any button closes it. A box over
the middle of the table, from y 24 down over the trick area (to y 74 with two hands, 79
with three): the scores and the prompt line above it (y 0 to 23), the person's hand below
it stay in view. Each card has its player's name beside it."""

import displayio

from binocle import buttons as B
from binocle import ui

TOP = 24              # under the status block's two lines: the prompt stays readable
_SLOT = 50            # a card, its player's name (4 characters) beside it, a gap


class LastTrick:
    OVERLAY = True
    UNLOAD = (__name__,)              # seen now and then: forgotten when closed
    KEYS = tuple((b, "close") for b in range(B.COUNT))

    def __init__(self, app, obs, names):
        self.app = app
        self.group = displayio.Group()
        g = self.group
        n = len(names)
        trick = obs.last_trick or ()
        h = (55 if n == 3 else 50) if trick else 16   # the current trick's cards hidden whole
        g.append(ui.panel(2, TOP, 156, h, ui.INK))
        g.append(ui.panel(3, TOP + 1, 154, h - 2, ui.DARK))
        if not trick:
            g.append(ui.text("No trick taken yet", 8, TOP + 2, ui.YELLOW))
            return
        g.append(ui.text("Last trick: %s won" % names[obs.leader], 8, TOP + 2, ui.YELLOW))
        x = (ui.W - len(trick) * _SLOT + 4) // 2
        y = TOP + 14 + (h - 44) // 2
        for i in range(len(trick)):
            seat = (obs.last_leader + i) % n
            g.append(app.art.sprite(trick[i], x, y))
            g.append(ui.text(names[seat][:4], x + 22, y + 8, ui.WHITE, width=4))
            x += _SLOT

    def update(self, now):
        pass

    def close(self):
        self.app.pop()
