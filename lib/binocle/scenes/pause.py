"""The pause menu (START at the table); in hoyle, while the person may knock, its last line
is the knock, with his count against the target ("Knock: 640 of 1000")."""

from engine import actions
from engine.state import PH_PLAY
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
        obs = table.obs
        if table.waiting and obs.phase == PH_PLAY and actions.KNOCK in obs.legal:
            items.append(words.choice(table.session, obs, actions.KNOCK))
        self.menu = ui.Menu("Paused", items, y=8, rows=len(items))
        self.group = self.menu.group

    def choose(self):
        i = self.menu.index
        if i < len(_ITEMS):
            getattr(self, _ITEMS[i][1])()
        else:
            self.knock()

    def knock(self):
        """The last line: a knock at once when the person's count reaches the target; else
        the question first (a knock short of it loses the game)."""
        t = self.table
        if t.session.person_count(t.obs) >= t.obs.target:
            self.knocked()
        else:
            from binocle.scenes.confirm import ask
            ask(self.app, t.session, t.obs, actions.KNOCK, self.knocked)

    def knocked(self):
        self.app.pop()                    # this menu (a question above it has gone already)
        t = self.table
        if t.asleep:
            t.wake()
        t.person_does(actions.KNOCK)

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
