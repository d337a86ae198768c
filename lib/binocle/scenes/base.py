"""What the menu-like screens share: the list keys and the moves of a ui.Menu."""

from binocle import buttons as B

# UP/LEFT and DOWN/RIGHT move (lists wrap, so RIGHT alone reaches every line), A chooses,
# B and the menu buttons go back.
MENU_KEYS = ((B.UP, "up"), (B.LEFT, "up"), (B.DOWN, "down"), (B.RIGHT, "down"),
             (B.A, "choose"), (B.B, "back"), (B.START, "back"), (B.SELECT, "back"))


class MenuScene:
    """A scene drawn over the one below, showing self.menu (a ui.Menu)."""
    OVERLAY = True
    KEYS = MENU_KEYS

    def update(self, now):
        pass

    def up(self):
        self.menu.move(-1)

    def down(self):
        self.menu.move(1)

    def back(self):
        self.app.pop()
