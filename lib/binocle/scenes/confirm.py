"""A yes/no question over the screen before (No first)."""

from binocle import ui
from binocle.scenes.base import MenuScene


class Confirm(MenuScene):
    UNLOAD = (__name__,)

    def __init__(self, app, question, on_yes):
        self.app = app
        self.on_yes = on_yes
        self.menu = ui.Menu(question, ["No", "Yes"], y=40, rows=2)
        self.group = self.menu.group

    def choose(self):
        self.app.pop()
        if self.menu.index == 1 and self.on_yes() is False:
            self.app.toast("Only possible on a board")
