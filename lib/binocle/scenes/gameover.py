"""The end of the game: who won and why, the final scores; A goes back to the title.
Its words are made while the game is there (said()); the game is then let go as for the title
(App.to_title), and the screen drawn with adafruit_display_text's bitmap_labels over the heap
a fresh start has: the library is loaded with this screen and forgotten with it."""

import displayio
import terminalio

from binocle import buttons as B
from engine.rules import state_class
from binocle import ui, words


class GameOver:
    UNLOAD = (__name__, "adafruit_display_text.bitmap_label", "adafruit_display_text",
              "adafruit_ticks")
    KEYS = ((B.A, "again"), (B.START, "again"), (B.B, "again"))

    def __init__(self, app, words_of):
        """words_of: said(session), the game's words (the game is gone now)."""
        self.app = app
        head, why, scores = words_of
        self.group = displayio.Group()
        self.group.append(ui.panel(0, 0, ui.W, ui.H, ui.DARK))
        self.group.append(label(head, 8, 2, ui.YELLOW, 2))
        self.why = label(why, 2, 28)
        self.group.append(self.why)
        self.group.append(label(scores, 8, 80))                   # below 4 lines of why
        self.group.append(label("A: back to the title", 8, 116, ui.GREY))

    def update(self, now):
        pass

    def again(self):
        self.app.to_title()


def said(session):
    """The screen's words, made at the game's end: (who won, why in up to 4 lines, the final
    scores' lines)."""
    obs = session.observation()
    names = session.names
    head = "You win!" if obs.winner == 0 else "%s wins" % names[obs.winner]
    lines = words.wrap(reason(obs, names))[:4]       # 4 lines at most above the scores
    scores = ["%-5s %5d" % (names[p], obs.scores[p]) for p in range(len(names))]
    return head, "\n".join(lines), "\n".join(scores)


def label(s, x, y, color=ui.WHITE, scale=1):
    """A label of the terminal font, its top-left corner at (x, y), lines 12 pixels apart
    (the library imported here, after the game is let go)."""
    from adafruit_display_text.bitmap_label import Label
    return Label(terminalio.FONT, text=s, color=color, scale=scale, line_spacing=1.0,
                 anchor_point=(0, 0), anchored_position=(x, y))


def reason(obs, names):
    """Why the game ended, in words: a knock and its count (hoyle 9), or who reached the
    target, and any tie-break that decided it or came on the way (rules.md hoyle 9, french 1,
    binokel 8)."""
    t = obs.target
    if obs.knock is not None:
        p, claim, correct = obs.knock
        said = "%s knocked with %d.\nA knock needs %d: " % (names[p], claim, t)
        return said + ("it wins the game at once." if correct else "short, it loses the game.")
    out = ""
    sheet = obs.sheet
    game = state_class(obs.rules)
    n = len(names)
    raised = 0
    if n == 2:
        from engine.twohand import NOTE_TARGET_RAISED     # loaded already: the game's own
        for row in sheet:
            raised += row[game.ROW_NOTE] == NOTE_TARGET_RAISED
    if raised:
        from engine.hoyle import TARGET_STEP               # only hoyle raises its target
        out = "Both passed the target, so it rose by %d%s, to %d.\n" % (
            TARGET_STEP, " (%d times)" % raised if raised > 1 else "", t)
    for row in sheet[:-1]:
        s = row[game.ROW_SCORES]
        top = max(s)
        if top >= t and raised == 0 and len([x for x in s if x == top]) > 1:
            out += "Equal scores: one more deal.\n"
            break
    s = sheet[-1][game.ROW_SCORES] if sheet else obs.scores
    reached = [p for p in range(n) if s[p] >= t]
    w = obs.winner
    if len(reached) > 1:
        both = " and ".join([names[p] for p in reached])
        if n == 3 and sheet and sheet[-1][game.ROW_SOLOIST] == w:
            return out + "%s reached %d: the soloist wins." % (both, t)
        return out + "%s reached %d: the higher score wins." % (both, t)
    return out + "%s reached %d." % (names[w], t)
