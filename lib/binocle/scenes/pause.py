"""The pause menu (START at the table)."""

from binocle import ui
from binocle.scenes.base import MenuScene

_ITEMS = (("Resume", "resume"), ("Hint", "hint"), ("Last trick", "last"), ("Score sheet", "sheet"),
          ("Rules help", "rules"), ("Settings", "settings"), ("New game", "new_game"))


class Pause(MenuScene):
    OVERLAY = False                   # a whole screen: the table sleeps under it (App.cover)
    UNLOAD = (__name__,)              # seen now and then: forgotten when closed

    def __init__(self, app, table):
        self.app = app
        self.table = table
        self.menu = ui.Menu("Paused", [t for t, _ in _ITEMS], y=8, rows=7)
        self.group = self.menu.group

    def choose(self):
        getattr(self, _ITEMS[self.menu.index][1])()

    def resume(self):
        self.app.pop()

    def hint(self):
        self.app.pop()
        top = self.app.top()
        if hasattr(top, "hint"):
            top.hint()

    def last(self):
        self.app.pop()
        self.table.show_last_trick()

    def sheet(self):
        from binocle.scenes.sheet import Sheet
        self.app.push(Sheet(self.app, self.table.session.observation(), self.table.session.names))

    def rules(self):
        from binocle.scenes.help import Help
        self.app.push(Help(self.app, self.table.session.rules))

    def settings(self):
        from binocle.scenes.settingsview import SettingsScreen
        self.app.push(SettingsScreen(self.app))

    def new_game(self):
        from binocle.scenes.confirm import Confirm
        self.app.push(Confirm(self.app, "Leave this game?", self.app.to_title))
