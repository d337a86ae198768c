"""The pause menu (START at the table); in hoyle, while the person may knock, its last line
is the knock, with his count against the target ("Knock: 640 of 1000"): confirm.knock."""

from engine.actions import KNOCK
from binocle import ui, words
from binocle.scenes.base import MenuScene

_ITEMS = (("Resume", "resume"), ("Hint", "hint"), ("Last trick", "last"), ("Score sheet", "sheet"),
          ("Rules help", "rules"), ("Settings", "settings"), ("New game", "new_game"))


class Pause(MenuScene):
    OVERLAY = False                   # a whole screen: the table sleeps under it (App.cover)
    UNLOAD = (__name__,)              # seen now and then: forgotten when closed

    def __init__(self, app, table):
        self.app = app
        self.table = table
        items = [t for t, _ in _ITEMS]
        if table.picking() and KNOCK in table.obs.legal:     # a card to play, the knock open
            items.append(words.choice(table.session, table.obs, KNOCK))
        self.menu = ui.Menu("Paused", items, y=8, rows=len(items))
        self.group = self.menu.group

    def choose(self):
        i = self.menu.index
        if i < len(_ITEMS):
            getattr(self, _ITEMS[i][1])()
        else:
            from binocle.scenes.confirm import knock      # its code only when chosen
            knock(self.app, self.table)

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
