"""The end of a deal: what it scored; A shows the score sheet."""

import displayio

from engine.rules import kind, state_class, THREE_HAND
from binocle import buttons as B
from binocle import ui, words

CONTRACT_WORDS = words.SUIT_WORDS + ("Durch",)      # by ROW_CONTRACT: a trump suit or Durch


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
        self.group.append(ui.text("To %d.  A: score sheet" % obs.target, 2, 116, ui.GREY))

    def update(self, now):
        pass

    def next(self):
        self.app.pop()                    # this screen's code and texts go before the sheet comes
        from binocle.scenes.sheet import Sheet
        self.app.push(Sheet(self.app, self.table.session.observation(), self.table.session.names, self.table))


def summary_lines(obs, names):
    """The heading, then at most 8 lines of 26 characters: how the deal went, a table of
    what each player scored in it (and how), the scores now."""
    row = obs.sheet[-1]
    game = state_class(obs.rules)               # its ROW_* fields (engine/state.py)
    number = row[game.ROW_NUMBER]
    n = len(names)
    if kind(obs.rules) == THREE_HAND:
        from engine.binokel import CONTRACT_DURCH
        solo = row[game.ROW_SOLOIST]
        bid = row[game.ROW_BID]
        contract = row[game.ROW_CONTRACT]
        surrendered = row[game.ROW_SURRENDERED]
        gains = game.gains_of(row)
        if surrendered:
            return _gave_up(number, names, solo, bid, contract, gains) + _scores(obs, names)
        out = ["Deal %d: %s played" % (number, names[solo])]
        out.append("%s at %d: %s" % (CONTRACT_WORDS[contract], bid,
                                     "made it" if gains[solo] > 0 else "went down"))
        out.append(_row("", "cards", "melds", "deal"))
        counted = [0, 0, 0]
        if obs.melds:
            for p in range(3):
                if obs.tricks_won[p]:
                    for m in obs.melds[p]:
                        counted[p] += m[1]
        cardpts = [gains[p] - counted[p] if p != solo and gains[p] > 0 else 0 for p in range(3)]
        cardpts[solo] = 250 - cardpts[0] - cardpts[1] - cardpts[2]    # with the buried cards
        known = contract != CONTRACT_DURCH
        for p in range(3):
            out.append(_row(names[p] + ("*" if p == solo else ""), cardpts[p] if known else "",
                            counted[p] if known else "", "%+d" % gains[p]))
        out.append("* with the buried cards" if known else "* the soloist")
    else:
        from engine.twohand import NOTE_TARGET_RAISED
        bonus = row[game.ROW_BONUS]
        cardpts = row[game.ROW_CARDS]
        score = row[game.ROW_SCORES]
        before = obs.sheet[-2][game.ROW_SCORES] if len(obs.sheet) > 1 else (0, 0)
        out = ["Deal %d over" % number]
        if obs.knock is not None:
            p, claim, correct = obs.knock
            out.append("%s knocked: %d, %s" % (names[p], claim, "enough" if correct else "too few"))
        out.append(_row("", "melds*", "cards", "deal"))
        for p in range(2):
            out.append(_row(names[p], bonus[p], cardpts[p], "%+d" % (score[p] - before[p])))
        out.append("* with dix and last trick")
        if row[game.ROW_NOTE] == NOTE_TARGET_RAISED:
            out.append("Both reached it: now %d" % obs.target)
    return out + _scores(obs, names)


def _scores(obs, names):
    n = len(names)
    return [("%-6s" + "%6s" * n) % (("Score",) + tuple(names)),
            ("%-6s" + "%6d" * n) % (("",) + tuple(obs.scores))]


def _gave_up(number, names, solo, bid, contract, gains):
    """Binokel, the soloist gave up (rules.md binokel 4): the heading, what it cost him and
    what the others scored (50 and their melds, valued with the trump he named), in words."""
    from engine.binokel import SURRENDER_BONUS
    out = ["Deal %d: %s gave up" % (number, names[solo]), "The bid of %d is lost;" % bid,
           "the others get %d + their" % SURRENDER_BONUS, "melds, with %s trump" % words.SUIT_WORDS[contract]]
    for p in range(3):
        if p == solo:
            out.append("%-5s%6s (the bid)" % (names[p], "%+d" % gains[p]))
        else:
            out.append("%-5s%6s = %d + %d" % (names[p], "%+d" % gains[p], SURRENDER_BONUS,
                                              gains[p] - SURRENDER_BONUS))
    return out


def _row(name, a, b, c):
    return "%-5s%7s%6s%6s" % (name, a, b, c)
