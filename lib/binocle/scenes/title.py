"""The title screen: choose a rule set, the AI's level and the options, then play.
The game's name is a bitmap_label of adafruit_display_text (the font scaled 2x), loaded with the
title and forgotten with it; the menu is the game's own text."""

import displayio
import terminalio
from adafruit_display_text.bitmap_label import Label

from engine.rules import find, RULE_SETS, OPTIONS, OPT_PACK64, OPT_NO_GRAND, OPT_TARGET
from binocle import ui
from binocle.words import rule_title
from binocle.settings import TARGETS, LEVEL_NAMES
from binocle.scenes.settingsview import OptionMenu, line

_OPTIONS = ("rules", "level", "pack", "grand", "target")     # LEFT/RIGHT change their value


class Title(OptionMenu):
    OVERLAY = False
    UNLOAD = (__name__, "binocle.scenes.settingsview",     # seen now and then: forgotten when closed
              "adafruit_display_text.bitmap_label", "adafruit_display_text", "adafruit_ticks")

    def __init__(self, app):
        self.app = app
        self.group = displayio.Group()
        self.group.append(ui.panel(0, 0, ui.W, ui.H, ui.GREEN))
        for i, f in enumerate((29, 23, 31, 7)):            # A of clubs, 10D, AC... a fan of cards
            self.group.append(app.art.sprite(f, 104 + i * 12, 2 + (i % 2) * 3))
        self.group.append(Label(terminalio.FONT, text="Binocle", color=ui.YELLOW, scale=2,
                                line_spacing=1.0, anchor_point=(0, 0), anchored_position=(4, 4)))
        self.keys = []
        self.menu = None
        self.said = False
        self.rebuild()

    def items(self):
        st = self.app.settings
        have = find(RULE_SETS[st.rules_id])[OPTIONS]           # the options of the rule set
        keys = ["continue"] if self.app.saved else []
        keys += ["play", "rules", "level"]
        if have & OPT_PACK64:
            keys.append("pack")
        if have & OPT_NO_GRAND:
            keys.append("grand")
        if have & OPT_TARGET:
            keys.append("target")
        keys += ["stats", "help", "settings"]
        self.keys = keys
        return [self.text(k) for k in keys]

    def text(self, key):
        st = self.app.settings
        if key == "continue":
            return "Continue saved game"
        if key == "play":
            return "New game" if self.app.saved else "Play"
        if key == "stats":
            return "Statistics"
        if key == "rules":
            return "Rules: " + rule_title(RULE_SETS[st.rules_id])
        if key == "level":
            return line(st, "level")                    # the words of the settings screen
        if key == "pack":
            return "Pack: %d cards" % (64 if st.pack64 else 48)
        if key == "grand":
            return "Grand binocle: " + ("On" if st.grand else "Off")
        if key == "target":
            return "Game to: %d" % TARGETS[st.target]
        if key == "help":
            return "Rules help"
        return "Settings"

    def update(self, now):
        if not self.said and self.app.notes:          # a damaged save: say it once
            self.said = True
            self.app.toast(" ".join(self.app.notes), 5000)
            del self.app.notes[:]

    def back(self):
        pass

    def reveal(self):
        """Back on top after the scene above closed."""
        self.rebuild()

    def option(self, step):
        key = self.keys[self.menu.index]
        if key not in _OPTIONS:
            return False
        st = self.app.settings
        if key == "rules":
            st.rules_id = (st.rules_id + step) % len(RULE_SETS)
        elif key == "level":
            st.level = (st.level + step) % len(LEVEL_NAMES)
        elif key == "pack":
            st.pack64 ^= 1
        elif key == "grand":
            st.grand ^= 1
        else:
            st.target = (st.target + step) % len(TARGETS)
        self.app.save_settings()
        self.rebuild()                  # the rule set's option lines differ
        return True

    def choose(self):
        key = self.keys[self.menu.index]
        if key == "continue":
            self.app.resume_game()       # the game, else a new title that says why not
        elif key == "play":
            # Said at once, before the game loads (from .py files that takes a SAMD51 2-3 s:
            # python -m tools bench --waits); the table clears it. Here, not in the app: this
            # module is let go with the title, so the lines cost nothing during play.
            self.app.toast("Dealing...")
            self.app.display.refresh()
            self.app.start_game(self.app.new_seed())
        elif key == "stats":
            from binocle.scenes.statsview import StatsScreen
            self.app.push(StatsScreen(self.app))
        elif key == "help":
            from binocle.scenes.help import Help
            self.app.push(Help(self.app, RULE_SETS[self.app.settings.rules_id]))
        elif key == "settings":
            from binocle.scenes.settingsview import SettingsScreen
            self.app.push(SettingsScreen(self.app))
        else:
            self.option(1)

    def rebuild(self):
        """The menu made anew (a rule set's option lines differ), the cursor where it was."""
        index = 0
        if self.menu is not None:
            index = self.menu.index
            self.group.remove(self.menu.group)
        self.menu = ui.Menu(None, self.items(), y=34, rows=7, index=index)
        self.group.append(self.menu.group)
