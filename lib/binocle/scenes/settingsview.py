"""The settings screen (from the title or the pause menu), and what the menus with option
lines share (the title, settings, statistics): LEFT and RIGHT change the value of the line
under the cursor; on other lines they move the cursor as UP and DOWN do. Those screens
forget this module with them (their UNLOAD)."""

from binocle import buttons as B
from binocle import ui
from binocle.scenes.base import MenuScene

# (key, label, choices): the lines in this order. A setting's value is the index of its
# choice (binocle/settings.py keeps the values; tests/test_saves_app.py checks that every
# choice tuple is as long as the field's LIMITS there).
LINES = (
    ("level", "AI level", ("Easy", "Normal", "Hard")),
    ("anim", "Animation", ("Off", "Fast", "Normal", "Slow")),
    ("pace", "AI pace", ("Fast", "Normal", "Slow")),
    ("hints", "Hints", ("Off", "On")),
    ("sort", "Sort cards", ("High first", "Low first")),
    ("suits", "Suits", ("2 colours", "4 colours")),
    ("teach", "Explain rules", ("Off", "First game", "Always")),
    ("sound", "Sound", ("Off", "On")),        # listed only on boards with a speaker
)


def line(settings, key):
    """A setting's line: 'AI level: Normal'."""
    for k, label, choices in LINES:
        if k == key:
            return "%s: %s" % (label, choices[getattr(settings, key)])
    return key

class OptionMenu(MenuScene):
    KEYS = ((B.UP, "up"), (B.LEFT, "left"), (B.DOWN, "down"), (B.RIGHT, "right"),
            (B.A, "choose"), (B.B, "back"), (B.START, "back"), (B.SELECT, "back"))

    def left(self):
        self.change(-1)

    def right(self):
        self.change(1)

    def change(self, step):
        """An option line takes its next (previous) value; other lines move the cursor, and
        so does every line on a board whose one direction button is RIGHT (Feather)."""
        if self.app.profile.LABELS[B.DOWN] is None or not self.option(step):
            self.menu.move(step)

    def option(self, step):
        """Step the value of the line under the cursor if it is an option line."""
        return False


class SettingsScreen(OptionMenu):
    """A or LEFT/RIGHT on a line change its value; B goes back. Below them: the installed
    version, on a board the free memory (the heap with the game under this menu), and
    the way into the board's bootloader for a CircuitPython update."""
    OVERLAY = False
    UNLOAD = (__name__,)

    def __init__(self, app):
        from binocle.version import VERSION
        self.app = app
        # The sound line only where the board has a speaker.
        self.keys = [row for row in LINES if row[0] != "sound" or getattr(app.profile, "tone", None)]
        items = [line(app.settings, k) for k, _, _ in self.keys]
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
        if self.menu.index == len(self.menu.items) - 1:
            if not can_update():
                self.app.toast("Only possible on a board")
                return
            from binocle.scenes.confirm import Confirm
            self.app.push(Confirm(self.app, "Restart for an update?", firmware_update))
            return
        self.option(1)

    def option(self, step):
        i = self.menu.index
        if i >= len(self.keys):
            return False                    # the version, memory and update lines
        key, _label, choices = self.keys[i]
        st = self.app.settings
        setattr(st, key, (getattr(st, key) + step) % len(choices))
        self.menu.set_item(i, line(st, key))
        if key == "suits":
            self.app.art.suits(st.suits)        # the cards under this menu change now
        self.app.save_settings()
        return True


def can_update():
    """The board can restart into its UF2 bootloader (not the simulator)."""
    try:
        import microcontroller
        return hasattr(microcontroller, "on_next_reset") and hasattr(microcontroller.RunMode, "UF2")
    except (ImportError, AttributeError):
        return False


def firmware_update():
    """Restart into the UF2 bootloader: its drive then takes a CircuitPython .uf2
    (python -m tools firmware)."""
    import microcontroller
    microcontroller.on_next_reset(microcontroller.RunMode.UF2)
    microcontroller.reset()
