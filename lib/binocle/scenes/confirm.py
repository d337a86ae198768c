"""A yes/no question, a whole screen of its own (No first)."""

from binocle import ui
from binocle.scenes.base import MenuScene


class Confirm(MenuScene):
    OVERLAY = False                   # drawn whole: the menu it came from is not cut in half
    UNLOAD = (__name__,)

    def __init__(self, app, question, on_yes):
        self.app = app
        self.on_yes = on_yes
        self.menu = ui.Menu(question, ["No", "Yes"], y=40, rows=2)
        self.group = self.menu.group

    def choose(self):
        self.app.pop()
        if self.menu.index == 1:
            self.on_yes()
