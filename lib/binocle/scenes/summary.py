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
        lines = summary_lines(obs, names, words.swap_rank(table.session))
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


# Short texts kept in a tuple: literals of 10 characters or fewer are interned, names kept for
# good on the board (docs/memory.md); a tuple's texts go with the module.
# 0 the swap's rank, 1 and 2 a knock's count, 3 the last trick, 4 and 5 a row's format.
_TEXTS = ("9", "enough", "too few", "+10", "%-10s", "%%%ds")


def summary_lines(obs, names, rank=_TEXTS[0]):
    """The heading, then at most 8 lines of 26 characters: how the deal went, a table of
    what each player scored in it, a row for each kind of points (cards, melds, the last
    trick's 10 under whoever took it, the deal, the score now), in every rule set alike;
    rank: the trump 9 swap's (7 with the 64-card pack)."""
    row = obs.sheet[-1]
    game = state_class(obs.rules)               # its ROW_* fields (engine/state.py)
    number = row[game.ROW_NUMBER]
    if kind(obs.rules) == THREE_HAND:
        from engine.binokel import CONTRACT_DURCH
        solo = row[game.ROW_SOLOIST]
        bid = row[game.ROW_BID]
        contract = row[game.ROW_CONTRACT]
        gains = game.gains_of(row)
        if row[game.ROW_SURRENDERED]:
            return _gave_up(number, names, solo, bid, contract, gains) + _scores(obs, names)
        out = ["Deal %d: %s played alone" % (number, names[solo]),
               "%s at %d: %s" % (CONTRACT_WORDS[contract], bid, "made it" if gains[solo] > 0 else "went down")]
        marks = ["*" if p == solo else "" for p in range(3)]
        if contract == CONTRACT_DURCH:
            return out + _table(names, marks, None, None, -1, gains, obs.scores) + ["* the soloist"]
        melds = [0, 0, 0]
        if obs.melds:
            for p in range(3):
                if obs.tricks_won[p]:
                    for m in obs.melds[p]:
                        melds[p] += m[1]
        cardpts = [gains[p] - melds[p] if p != solo and gains[p] > 0 else 0 for p in range(3)]
        cardpts[solo] = 250 - cardpts[0] - cardpts[1] - cardpts[2]    # with the buried cards
        last = _last_taker(obs, 3)
        if last >= 0:
            cardpts[last] -= 10
        return out + _table(names, marks, cardpts, melds, last, gains, obs.scores) + ["* with the buried cards"]
    from engine.twohand import NOTE_TARGET_RAISED
    score = row[game.ROW_SCORES]
    before = obs.sheet[-2][game.ROW_SCORES] if len(obs.sheet) > 1 else (0, 0)
    out = ["Deal %d over" % number]
    if obs.knock is not None:
        p, claim, correct = obs.knock
        out.append("%s knocked: %d, %s" % (names[p], claim, _TEXTS[1] if correct else _TEXTS[2]))
    last = _last_taker(obs, 2) if obs.hand_sizes == (0, 0) else -1
    melds = list(row[game.ROW_BONUS])
    if last >= 0:
        melds[last] -= 10
    out += _table(names, ("", ""), row[game.ROW_CARDS], melds, last,
                  [score[p] - before[p] for p in range(2)], score)
    out.append("Melds: with the trump %ss" % rank)     # the trump 9 swap, a 9 turned up
    if row[game.ROW_NOTE] == NOTE_TARGET_RAISED:
        out.append("Both reached it: now %d" % obs.target)
    return out


def _last_taker(obs, n):
    """Who took the deal's last trick (its 10), -1 if the deal ended before it."""
    if not obs.last_trick or (n == 3 and sum(obs.tricks_won) < 15):
        return -1
    from engine.tricks import winning_index
    return (obs.last_leader + winning_index(obs.last_trick, n, obs.trump)) % n


def _table(names, marks, cardpts, melds, last, gains, scores):
    """A column per player, a row per kind of points: what each number is, it says."""
    n = len(names)
    w = 16 // n                                # 8 or 5 characters a column
    f = _TEXTS[4] + (_TEXTS[5] % w) * n
    rows = [f % (("",) + tuple([names[p] + marks[p] for p in range(n)]))]
    if cardpts is not None:
        rows.append(f % (("Cards",) + tuple(cardpts)))
        rows.append(f % (("Melds",) + tuple(melds)))
        if last >= 0:
            rows.append(f % (("Last trick",) + tuple([_TEXTS[3] if p == last else "" for p in range(n)])))
    rows.append(f % (("Deal",) + tuple(["%+d" % g for g in gains])))
    rows.append(f % (("Score",) + tuple(scores)))
    return rows


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
