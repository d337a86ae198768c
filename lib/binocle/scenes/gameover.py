"""The end of the game: who won, the final scores; A goes back to the title."""

import displayio

from binocle import buttons as B
from binocle import ui


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
        self.app.to_title()
