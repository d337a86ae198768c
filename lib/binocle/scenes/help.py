"""Rules help: pages of the project's own summary, LEFT/RIGHT to turn, B to go back."""

import displayio

from binocle import buttons as B
from binocle import ui, helptext, words

_LINES = 8


class Help:
    UNLOAD = (__name__, "binocle.helptext")     # seen now and then: forgotten when closed
    KEYS = ((B.LEFT, "prev"), (B.UP, "prev"), (B.RIGHT, "next"), (B.DOWN, "next"),
            (B.A, "next"), (B.B, "back"), (B.START, "back"))

    def __init__(self, app, rules):
        self.app = app
        self.pages = helptext.pages(rules, app.profile.LABELS, app.profile.LONG_LABELS)
        self.page = 0
        self.group = displayio.Group()
        self.group.append(ui.panel(0, 0, ui.W, ui.H, ui.DARK))
        self.title = ui.text("", 2, 1, ui.YELLOW)
        self.group.append(self.title)
        self.lines = []
        for i in range(_LINES):
            lab = ui.text("", 2, 15 + i * ui.LINE)
            self.lines.append(lab)
            self.group.append(lab)
        self.foot = ui.text("", 2, 116, ui.GREY)
        self.group.append(self.foot)
        self.show()

    def show(self):
        title, body = self.pages[self.page]
        lines = words.wrap(body, ui.CHARS)
        ui.set_text(self.title, title)
        for i in range(_LINES):
            ui.set_text(self.lines[i], lines[i] if i < len(lines) else "")
        ui.set_text(self.foot, "%d/%d  >: next  B: back" % (self.page + 1, len(self.pages)))

    def update(self, now):
        pass

    def prev(self):
        self.page = (self.page - 1) % len(self.pages)
        self.show()

    def next(self):
        self.page = (self.page + 1) % len(self.pages)
        self.show()

    def back(self):
        self.app.pop()
