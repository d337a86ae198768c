"""The pause menu (START at the table) and the settings screen."""

from binocle import ui
from binocle.settings import TABLE
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
        self.app.cover()                  # the table's sprites go before the sheet comes
        from binocle.scenes.sheet import Sheet
        self.app.push(Sheet(self.app, self.table.session.observation(), self.table.session.names))

    def rules(self):
        self.app.cover()
        from binocle.scenes.help import Help
        self.app.push(Help(self.app, self.table.session.rules))

    def settings(self):
        self.app.push(SettingsScreen(self.app))

    def new_game(self):
        self.app.push(Confirm(self.app, "Leave this game?", self.leave))

    def leave(self):
        from binocle.scenes.title import Title
        self.app.session = None
        self.app.replace(Title(self.app))


class SettingsScreen(MenuScene):
    """A on a line steps through its choices; B goes back. Below them: the installed
    version, on a board the free memory (the heap with the game under this menu), and
    the way into the board's bootloader for a CircuitPython update."""
    OVERLAY = False
    UNLOAD = (__name__,)

    def __init__(self, app):
        from binocle.version import VERSION
        self.app = app
        # The sound line only where the board has a speaker.
        self.keys = [row for row in TABLE if row[0] != "sound" or getattr(app.profile, "tone", None)]
        items = [app.settings.text(k) for k, _, _ in self.keys]
        items.append("Version " + VERSION)
        import gc
        free = getattr(gc, "mem_free", None)            # CircuitPython's; not on the desktop
        if free is not None:
            gc.collect()
            items.append("Free memory %d KB" % (free() // 1024))
        items.append("Firmware update...")
        self.menu = ui.Menu("Settings", items, y=8, rows=7)
        self.group = self.menu.group

    def choose(self):
        i = self.menu.index
        if i == len(self.menu.items) - 1:
            self.app.push(Confirm(self.app, "Restart for update?", firmware_update))
            return
        if i >= len(self.keys):
            return                          # the version and memory lines
        key, _label, choices = self.keys[i]
        self.app.settings.cycle(key, choices)
        self.menu.set_item(i, self.app.settings.text(key))
        self.app.save_settings()


def firmware_update():
    """Restart into the UF2 bootloader: its drive then takes a CircuitPython .uf2
    (python -m tools firmware). Not on the simulator."""
    try:
        import microcontroller
        microcontroller.on_next_reset(microcontroller.RunMode.UF2)
    except (ImportError, AttributeError, NotImplementedError):
        return False
    microcontroller.reset()
    return True


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
