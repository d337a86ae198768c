"""The end of a deal: what it scored, the score sheet, and the end of the game."""

import displayio

from binocle import buttons as B
from binocle import ui, words

_ROWS = 7             # deals on one page of the score sheet
_DEAL_W = 5           # characters of the deal-number column


class Summary:
    """What the deal scored; A shows the score sheet."""
    UNLOAD = (__name__,)              # seen now and then: forgotten when closed
    KEYS = ((B.A, "next"), (B.B, "next"), (B.RIGHT, "next"), (B.START, "next"))

    def __init__(self, app, table):
        self.app = app
        self.table = table
        obs = table.session.observation()
        names = table.session.names
        self.group = displayio.Group()
        self.group.append(ui.panel(0, 0, ui.W, ui.H, ui.DARK))
        lines = summary_lines(obs, names)
        for i in range(min(len(lines), 9)):
            self.group.append(ui.text(lines[i][:ui.CHARS], 2, 2 + i * ui.LINE, ui.YELLOW if i == 0 else ui.WHITE))
        self.group.append(ui.text("A: score sheet", 2, 116, ui.GREY))

    def update(self, now):
        pass

    def next(self):
        self.app.pop()
        self.app.push(Sheet(self.app, self.table.session.observation(), self.table.session.names, self.table))


def summary_lines(obs, names):
    row = obs.sheet[-1]
    if obs.rules == "binokel":
        number, _dealer, solo, bid, contract, surrendered, gains, _score = row
        if surrendered:
            out = ["Deal %d: %s gave up" % (number, names[solo]), "at %d" % bid]
        else:
            made = "made it" if gains[solo] > 0 else "went down"
            out = ["Deal %d: %s played" % (number, names[solo]),
                   "%s at %d: %s" % (words.CONTRACT_WORDS[contract], bid, made)]
        for p in range(3):
            melded = 0
            if obs.melds:
                for m in obs.melds[p]:
                    melded += m[1]
            out.append("%-5s melds %3d  %+d" % (names[p], melded, gains[p]))
    else:
        number, _dealer, bonus, cardpts, _score, note = row
        out = ["Deal %d over" % number]
        if obs.knock is not None:
            p, claim, correct = obs.knock
            out.append("%s knocked: %s" % (names[p], "right" if correct else "wrong"))
        for p in range(2):
            out.append("%-4s melds %d cards %d" % (names[p], bonus[p], cardpts[p]))
        if note == 1:
            out.append("Both reached it: now %d" % obs.target)
    out.append("")
    out.append("Score " + "  ".join("%s %d" % (names[p][:4], obs.scores[p]) for p in range(len(names))))
    out.append("Game to %d" % obs.target)
    return out


class Sheet:
    """Every deal's running totals, a page at a time; A goes on (next deal or game over).

    A table of texts: the deal number in a 5-character column, then one equal column
    per player; a line under the heading row."""
    UNLOAD = (__name__,)
    KEYS = ((B.A, "next"), (B.B, "back"), (B.UP, "up"), (B.LEFT, "up"), (B.DOWN, "down"),
            (B.RIGHT, "down"), (B.START, "next"))

    def __init__(self, app, obs, names, table=None):
        self.app = app
        self.table = table            # None: looked at from the pause menu
        self.obs = obs
        self.names = names
        self.page = max(0, (len(obs.sheet) - 1) // _ROWS)
        self.group = displayio.Group()
        self.group.append(ui.panel(0, 0, ui.W, ui.H, ui.DARK))
        wide = (ui.CHARS - _DEAL_W) // len(names)          # characters per player column
        self.cells = []
        for r in range(_ROWS + 1):
            y = 1 + r * ui.LINE + (3 if r else 0)
            # the deal column reaches the right edge, under the others: "none yet" fits
            row = [ui.text("", 2, y, ui.YELLOW if r == 0 else ui.WHITE)]
            for p in range(len(names)):
                row.append(ui.text("", 2 + ui.GLYPH_W * (_DEAL_W + p * wide), y,
                                   ui.YELLOW if r == 0 else ui.WHITE, width=wide - 1))
            for lab in row:
                self.group.append(lab)
            self.cells.append(row)
        self.group.append(ui.panel(0, ui.LINE + 2, ui.W, 1, ui.GREY))
        more = "A: next deal" if table is not None else "A/B: back"
        if table is not None and table.session.game_over():
            more = "A: the result"
        self.foot = ui.text(more, 2, 116, ui.GREY)
        self.group.append(self.foot)
        self.fill()

    def fill(self):
        cells = self.cells
        ui.set_text(cells[0][0], "Deal")
        for p in range(len(self.names)):
            ui.set_text(cells[0][p + 1], self.names[p][:5])
        sheet = self.obs.sheet
        for r in range(_ROWS):
            k = self.page * _ROWS + r
            row = sheet[k] if k < len(sheet) else None
            ui.set_text(cells[r + 1][0], "" if row is None else str(row[0]))
            for p in range(len(self.names)):
                ui.set_text(cells[r + 1][p + 1], "" if row is None else cell(self.obs.rules, row, p))
        if not sheet:
            ui.set_text(cells[1][0], "none yet")

    def update(self, now):
        pass

    def up(self):
        if self.page > 0:
            self.page -= 1
            self.fill()

    def down(self):
        if (self.page + 1) * _ROWS < len(self.obs.sheet):
            self.page += 1
            self.fill()

    def back(self):
        if self.table is None:
            self.app.pop()
        else:
            self.next()

    def next(self):
        self.app.pop()
        if self.table is None:
            return
        if self.table.session.game_over():
            self.app.push(GameOver(self.app, self.table.session))
        else:
            self.table.next_deal()


def cell(rules, row, p):
    """A player's running total after a deal; '*' marks the binokel soloist."""
    if rules == "binokel":
        return "%d%s" % (row[7][p], "*" if row[2] == p else "")
    return str(row[4][p])


class GameOver:
    UNLOAD = (__name__,)
    KEYS = ((B.A, "again"), (B.START, "again"), (B.B, "again"))

    def __init__(self, app, session):
        self.app = app
        obs = session.observation()
        names = session.names
        self.group = displayio.Group()
        self.group.append(ui.panel(0, 0, ui.W, ui.H, ui.DARK))
        head = "You win!" if obs.winner == 0 else "%s wins" % names[obs.winner]
        self.group.append(ui.text(head, 8, 16, ui.YELLOW))
        for p in range(len(names)):
            self.group.append(ui.text("%-5s %5d" % (names[p], obs.scores[p]), 8, 40 + p * ui.LINE))
        self.group.append(ui.text("A: back to the title", 8, 100, ui.GREY))
        self.winner = obs.winner

    def update(self, now):
        pass

    def again(self):
        from binocle.scenes.title import Title
        self.app.session = None
        self.app.replace(Title(self.app))
