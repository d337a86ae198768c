"""The end of the game: who won and why, the final scores; A goes back to the title."""

import displayio

from binocle import buttons as B
from binocle import ui, words


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
        self.group.append(ui.text(head, 8, 8, ui.YELLOW))
        lines = words.wrap(reason(obs, names))
        self.why = ui.block(2, 24, ui.CHARS, len(lines))
        ui.set_lines(self.why, lines)
        self.group.append(self.why)
        scores = ui.block(8, 68, 16, len(names))
        ui.set_lines(scores, ["%-5s %5d" % (names[p], obs.scores[p]) for p in range(len(names))])
        self.group.append(scores)
        self.group.append(ui.text("A: back to the title", 8, 112, ui.GREY))
        self.winner = obs.winner

    def update(self, now):
        pass

    def again(self):
        self.app.to_title()


def reason(obs, names):
    """Why the game ended, in words: a knock and its count (hoyle 9), or who reached the target."""
    t = obs.target
    if obs.knock is not None:
        p, claim, correct = obs.knock
        said = "%s knocked with %d.\nA knock needs %d: " % (names[p], claim, t)
        return said + ("it wins the game at once." if correct else "short, it loses the game.")
    return "%s reached %d." % (names[obs.winner], t)
