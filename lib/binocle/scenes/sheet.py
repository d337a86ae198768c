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
        self.group.append(ui.text(lines[0], 2, 2, ui.YELLOW))
        self.body = ui.block(2, 2 + ui.LINE, ui.CHARS, 8)
        ui.set_lines(self.body, lines[1:])
        self.group.append(self.body)
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

    A heading and a block of rows: the deal number in a 5-character column, then one
    equal column per player; a line under the heading."""
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
        self.wide = (ui.CHARS - _DEAL_W) // len(names)     # characters per player column
        self.head = ui.text(columns("Deal", [n[:5] for n in names], self.wide), 2, 1, ui.YELLOW)
        self.body = ui.block(2, 4 + ui.LINE, ui.CHARS, _ROWS)
        self.group.append(self.head)
        self.group.append(self.body)
        self.group.append(ui.panel(0, ui.LINE + 2, ui.W, 1, ui.GREY))
        more = "A: next deal" if table is not None else "A/B: back"
        if table is not None and table.session.game_over():
            more = "A: the result"
        self.foot = ui.text(more, 2, 116, ui.GREY)
        self.group.append(self.foot)
        self.fill()

    def fill(self):
        sheet = self.obs.sheet
        for r in range(_ROWS):
            k = self.page * _ROWS + r
            if k < len(sheet):
                row = sheet[k]
                line = columns(str(row[0]), [cell(self.obs.rules, row, p) for p in range(len(self.names))],
                               self.wide)
            else:
                line = "none yet" if k == 0 else ""
            ui.set_line(self.body, r, line)

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


def columns(first, cells, wide):
    """A row of the sheet: `first` in the deal column, then each cell in its column."""
    line = first + " " * (_DEAL_W - len(first))
    for c in cells:
        line += c + " " * (wide - len(c))
    return line


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
        scores = ui.block(8, 40, 16, len(names))
        ui.set_lines(scores, ["%-5s %5d" % (names[p], obs.scores[p]) for p in range(len(names))])
        self.group.append(scores)
        self.group.append(ui.text("A: back to the title", 8, 100, ui.GREY))
        self.winner = obs.winner

    def update(self, now):
        pass

    def again(self):
        from binocle.scenes.title import Title
        self.app.session = None
        self.app.replace(Title(self.app))
