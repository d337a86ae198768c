"""A lesson of a game that teaches itself (binocle/teach.py): a panel over the top of the
table, or of its menu, with a title, a few lines from assets/teach.txt and the button that
goes on; the person's hand stays in view below it. Several lessons due at one moment show
one after the other, each read from the file when its turn comes. Loaded when a lesson is
due, forgotten when the last one closes; a lesson the file lacks (or a file gone or
damaged) is skipped without a word."""

import displayio

from binocle import buttons as B
from binocle import forget, teach, ui, words

_LINES = 6                            # of 26 characters (tests/test_teach.py checks the file)


def offer(app, rules, mask):
    """The lessons of the mask (teach.KEYS bits), in order, over the scene on top; nothing if
    the file has none of them."""
    scene = Lesson(app, rules, mask)
    if scene.mask < 0:
        forget(__name__)
    else:
        app.clear_toast()             # the band at the top would cover the title
        app.push(scene)


class Lesson:
    OVERLAY = True
    UNLOAD = (__name__,)
    KEYS = ((B.A, "next"),)

    def __init__(self, app, rules, mask):
        self.app = app
        self.rules = rules
        self.mask = mask
        self.group = displayio.Group()
        h = ui.LINE * (_LINES + 2) + 5        # down to the hand's top edge, the hand in view
        self.group.append(ui.panel(0, 0, ui.W, h, ui.INK))
        self.group.append(ui.panel(1, 1, ui.W - 2, h - 2, ui.DARK))
        self.title = ui.text("", 2, 2, ui.YELLOW)
        self.group.append(self.title)
        self.lines = ui.block(2, 2 + ui.LINE, ui.CHARS, _LINES)
        self.group.append(self.lines)
        self.foot = ui.text("", 2, h - ui.LINE - 2, ui.GREY)
        self.group.append(self.foot)
        self.show()

    def show(self):
        """The next lesson of the mask the file has; mask -1 when none is left."""
        m = self.mask
        i = 0
        while m:
            if m & 1 << i:
                m &= ~(1 << i)
                try:
                    page = teach.read("%steach.txt" % self.app.assets, self.rules, teach.KEYS[i])
                except (OSError, ValueError):        # gone or damaged: no lessons, no word
                    page = None
                    m = 0
                if page is not None:
                    self.mask = m
                    self.draw(page[0], words.wrap(page[1], ui.CHARS)[:_LINES], m)
                    return
            i += 1
        self.mask = -1

    def draw(self, title, lines, more):
        ui.set_text(self.title, title)
        ui.set_lines(self.lines, lines)
        ui.set_text(self.foot, "%s: %s" % (self.app.profile.LABELS[B.A], "next lesson" if more else "back to the game"))

    def update(self, now):
        pass

    def next(self):
        if self.mask > 0:
            self.show()               # the next lesson of this moment
            if self.mask >= 0:
                return
        self.app.pop()
