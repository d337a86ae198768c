"""The score sheet: every deal's running totals, a page at a time."""

import displayio

from engine.rules import kind, state_class, THREE_HAND
from binocle import buttons as B
from binocle import ui

_ROWS = 7             # deals on one page of the score sheet
_DEAL_W = 5           # characters of the deal-number column


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
        if kind(obs.rules) == THREE_HAND:
            more = "*: soloist   " + more
        self.foot = ui.text(more, 2, 116, ui.GREY)
        self.group.append(self.foot)
        self.note = ui.text("", 2, 103, ui.GREY)   # binokel: says what an "x" on the page means
        self.group.append(self.note)
        self.fill()

    def fill(self):
        sheet = self.obs.sheet
        game = state_class(self.obs.rules)          # its ROW_* fields (engine/state.py)
        note = ""
        for r in range(_ROWS):
            k = self.page * _ROWS + r
            if k < len(sheet):
                row = sheet[k]
                line = columns(str(row[game.ROW_NUMBER]),
                               [cell(self.obs.rules, row, p) for p in range(len(self.names))], self.wide)
                if "x" in line:
                    note = "x: gave up, lost the bid"
            else:
                line = "none yet" if k == 0 else ""
            ui.set_line(self.body, r, line)
        ui.set_text(self.note, note)

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
        session = self.table.session
        if session.game_over():
            from binocle.scenes.gameover import GameOver, said
            words_of = said(session)
            self.table = self.obs = session = None       # nothing here keeps the game
            self.app.to_title(GameOver, words_of)
        else:
            self.table.next_deal()


def columns(first, cells, wide):
    """A row of the sheet: `first` in the deal column, then each cell in its column."""
    line = first + " " * (_DEAL_W - len(first))
    for c in cells:
        line += c + " " * (wide - len(c))
    return line


def cell(rules, row, p):
    """A player's running total after a deal; '*' marks the soloist (binokel), 'x' a soloist
    who gave up."""
    game = state_class(rules)
    if kind(rules) == THREE_HAND:
        mark = ""
        if row[game.ROW_SOLOIST] == p:
            mark = "x" if row[game.ROW_SURRENDERED] else "*"
        return "%d%s" % (row[game.ROW_SCORES][p], mark)
    return str(row[game.ROW_SCORES][p])
