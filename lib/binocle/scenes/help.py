"""Rules help: the board's buttons first, then pages of the project's own summary; LEFT and RIGHT
(or A) turn, B goes back: the foot names RIGHT and B as the board names them."""

import displayio

from binocle import buttons as B
from binocle import ui, helptext, words

_LINES = 8
_MISSING = ("Rules help", "The file assets/help.txt cannot be read: put the game on the board "
                          "again (README, Putting the game on a board).")


class Help:
    UNLOAD = (__name__, "binocle.helptext")     # seen now and then: forgotten when closed
    KEYS = ((B.LEFT, "prev"), (B.UP, "prev"), (B.RIGHT, "next"), (B.DOWN, "next"),
            (B.A, "next"), (B.B, "back"), (B.START, "back"))

    def __init__(self, app, rules):
        self.app = app
        self.rules = rules
        self.path = app.assets + "help.txt"
        self.missing = 0
        try:
            self.count = helptext.count(self.path, rules) + 1      # and the buttons page
        except OSError:
            self.count = 2                                          # _MISSING and the buttons
            self.missing = 1                                        # the news first
        self.page = 0
        self.group = displayio.Group()
        self.group.append(ui.panel(0, 0, ui.W, ui.H, ui.DARK))
        self.title = ui.text("", 2, 1, ui.YELLOW)
        self.group.append(self.title)
        self.lines = ui.block(2, 15, ui.CHARS, _LINES)
        self.group.append(self.lines)
        self.foot = ui.text("", 2, 116, ui.GREY)
        self.group.append(self.foot)
        self.show()

    def show(self):
        labels = self.app.profile.LABELS
        if self.page == self.missing:           # page 1 (2 after the news of a missing file)
            title, body = helptext.buttons_page(labels, self.app.profile.LONG_LABELS)
        elif self.missing:
            title, body = _MISSING
        else:
            try:
                title, body = helptext.page(self.path, self.rules, self.page - 1)
            except (OSError, TypeError, UnicodeError):     # gone or damaged since the start
                title, body = _MISSING
        lines = words.wrap(body, ui.CHARS)
        ui.set_text(self.title, title)
        ui.set_lines(self.lines, lines)
        ui.set_text(self.foot, "%d/%d %s: next, %s: back" % (self.page + 1, self.count,
                                                            labels[B.RIGHT], labels[B.B]))

    def update(self, now):
        pass

    def prev(self):
        self.page = (self.page - 1) % self.count
        self.show()

    def next(self):
        self.page = (self.page + 1) % self.count
        self.show()

    def back(self):
        self.app.pop()
