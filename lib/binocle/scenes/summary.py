"""The end of a deal: what it scored; A shows the score sheet."""

import displayio

from engine.rules import kind, state_class, THREE_HAND
from binocle import buttons as B
from binocle import ui, words


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
        self.app.pop()                    # this screen's code and texts go before the sheet comes
        from binocle.scenes.sheet import Sheet
        self.app.push(Sheet(self.app, self.table.session.observation(), self.table.session.names, self.table))


def summary_lines(obs, names):
    row = obs.sheet[-1]
    game = state_class(obs.rules)               # its ROW_* fields (engine/state.py)
    number = row[game.ROW_NUMBER]
    if kind(obs.rules) == THREE_HAND:
        solo = row[game.ROW_SOLOIST]
        bid = row[game.ROW_BID]
        gains = game.gains_of(row)
        if row[game.ROW_SURRENDERED]:
            out = ["Deal %d: %s gave up" % (number, names[solo]), "at %d" % bid]
        else:
            made = "made it" if gains[solo] > 0 else "went down"
            out = ["Deal %d: %s played" % (number, names[solo]),
                   "%s at %d: %s" % (words.CONTRACT_WORDS[row[game.ROW_CONTRACT]], bid, made)]
        for p in range(3):
            melded = 0
            if obs.melds:
                for m in obs.melds[p]:
                    melded += m[1]
            out.append("%-5s melds %3d  %+d" % (names[p], melded, gains[p]))
    else:
        from engine.twohand import NOTE_TARGET_RAISED
        bonus = row[game.ROW_BONUS]
        cardpts = row[game.ROW_CARDS]
        out = ["Deal %d over" % number]
        if obs.knock is not None:
            p, claim, correct = obs.knock
            out.append("%s knocked: %s" % (names[p], "right" if correct else "wrong"))
        for p in range(2):
            out.append("%-4s melds %d cards %d" % (names[p], bonus[p], cardpts[p]))
        if row[game.ROW_NOTE] == NOTE_TARGET_RAISED:
            out.append("Both reached it: now %d" % obs.target)
    out.append("")
    out.append("Score " + "  ".join("%s %d" % (names[p][:4], obs.scores[p]) for p in range(len(names))))
    out.append("Game to %d" % obs.target)
    return out
