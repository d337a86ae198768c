"""The settings screen (from the title or the pause menu)."""

from binocle import ui
from binocle.settings import TABLE
from binocle.scenes.base import MenuScene


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
            from binocle.scenes.confirm import Confirm
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
