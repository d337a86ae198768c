"""The title screen: choose a rule set, the AI's level and the options, then play."""

import displayio

from engine.rules import find, OPTIONS, OPT_PACK64, OPT_NO_GRAND, OPT_TARGET
from binocle import ui, words
from binocle.settings import RULES, TARGETS, LEVEL_NAMES
from binocle.scenes.base import MenuScene


class Title(MenuScene):
    OVERLAY = False
    UNLOAD = (__name__,)              # seen now and then: forgotten when closed

    def __init__(self, app):
        self.app = app
        self.group = displayio.Group()
        self.group.append(ui.panel(0, 0, ui.W, ui.H, ui.GREEN))
        for i, f in enumerate((29, 23, 31, 7)):            # A of clubs, 10D, AC... a fan of cards
            self.group.append(app.sheet.sprite(f, 104 + i * 12, 2 + (i % 2) * 3))
        name = displayio.Group(x=4, y=4, scale=2)
        name.append(ui.text("Binocle", 0, 0, ui.YELLOW, width=7))
        self.group.append(name)
        self.keys = []
        self.menu = ui.Menu("New game", self.items(), x=4, y=34, w=152, rows=6)
        self.group.append(self.menu.group)
        self.said = False

    def items(self):
        st = self.app.settings
        have = find(RULES[st.rules])[OPTIONS]           # the options of the rule set
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
            return words.rule_title(RULES[st.rules])
        if key == "level":
            return "AI: " + LEVEL_NAMES[st.level]
        if key == "pack":
            return "Pack: %d cards" % (64 if st.pack64 else 48)
        if key == "grand":
            return "Grand binocle: " + ("on" if st.grand else "off")
        if key == "target":
            return "Game to %d" % TARGETS[st.target]
        if key == "help":
            return "Rules help"
        return "Settings"

    def refresh(self):
        items = self.items()
        self.menu.items = items
        self.menu.select(self.menu.index)

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

    def choose(self):
        key = self.keys[self.menu.index]
        st = self.app.settings
        if key == "continue":
            self.app.resume_game()       # the game, else a new title that says why not
            return
        if key == "play":
            self.app.start_game(self.app.new_seed())
            return
        elif key == "rules":
            st.rules = (st.rules + 1) % len(RULES)
            self.rebuild()
        elif key == "level":
            st.level = (st.level + 1) % len(LEVEL_NAMES)
        elif key == "pack":
            st.pack64 ^= 1
        elif key == "grand":
            st.grand ^= 1
        elif key == "target":
            st.target = (st.target + 1) % len(TARGETS)
        elif key == "stats":
            from binocle.scenes.statsview import StatsScreen
            self.app.push(StatsScreen(self.app))
            return
        elif key == "help":
            from binocle.scenes.help import Help
            self.app.push(Help(self.app, RULES[st.rules]))
            return
        else:
            from binocle.scenes.settingsview import SettingsScreen
            self.app.push(SettingsScreen(self.app))
            return
        self.app.save_settings()
        self.refresh()

    def rebuild(self):
        """The rule set changed: its option lines differ, so the menu is made anew."""
        index = self.menu.index
        self.group.remove(self.menu.group)
        self.menu = ui.Menu("New game", self.items(), x=4, y=34, w=152, rows=6, index=index)
        self.group.append(self.menu.group)
