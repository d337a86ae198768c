"""A lesson of a game that teaches itself (binocle/teach.py): a panel over the top of the
table, or of its menu, with a title, a few lines from assets/teach.txt and the button that
goes on; the person's hand stays in view below it. Several lessons due at one moment show
one after the other. Their texts are read from the file when they are due, and teach.py is
forgotten before the first shows (its code would be RAM besides the table's); this module is
forgotten when the last closes. A lesson the file lacks (or a file gone or damaged) is
skipped without a word."""

import displayio

from binocle import buttons as B
from binocle import forget, ui, words

_LINES = 6                            # of 26 characters (tests/test_teach.py checks the file)


def offer(app, rules, mask):
    """The lessons of the mask (teach.KEYS bits), in order, over the scene on top; nothing if
    the file has none of them."""
    pages = read(app.assets, rules, mask)
    if pages:
        app.clear_toast()             # the band at the top would cover the title
        app.push(Lesson(app, pages))
    else:
        forget(__name__)


def read(assets, rules, mask):
    """[(title, lines)] of the mask's lessons the file has, in KEYS order; [] if it cannot be
    read."""
    from binocle import teach
    pages = []
    try:
        for i in range(len(teach.KEYS)):
            if mask & 1 << i:
                page = teach.read("%steach.txt" % assets, rules, teach.KEYS[i])
                if page is not None:
                    pages.append((page[0], words.wrap(page[1], ui.CHARS)[:_LINES]))
    except (OSError, ValueError):     # gone or damaged: no lessons, no word
        pages = []
    teach = None
    forget("binocle.teach", "binocle.helptext")     # helptext: teach.read() reads the file with it
    return pages


class Lesson:
    OVERLAY = True
    UNLOAD = (__name__,)
    KEYS = ((B.A, "next"),)

    def __init__(self, app, pages):
        self.app = app
        self.pages = pages            # those still to show, the one on screen first
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
        self.draw()

    def draw(self):
        title, lines = self.pages[0]
        ui.set_text(self.title, title)
        ui.set_lines(self.lines, lines)
        more = "next lesson" if len(self.pages) > 1 else "back to the game"
        ui.set_text(self.foot, "%s: %s" % (self.app.profile.LABELS[B.A], more))

    def update(self, now):
        pass

    def next(self):
        self.pages.pop(0)
        if self.pages:
            self.draw()               # the next lesson of this moment
        else:
            self.app.pop()
