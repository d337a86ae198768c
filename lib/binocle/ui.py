"""Drawing helpers shared by the scenes: the card sheet, text, panels and a menu.

The game screen is 160x128 (layout below); a larger screen shows it centred.

    y   0 +--------------------------------+  status: scores, stock, trump
       12 |  opponent's melds / opponents  |
       40 |  trick area            stock   |
       70 |  your melds (hoyle, french)    |
       96 |  your hand, cursor card raised |
      128 +--------------------------------+
"""

import displayio
import terminalio
import vectorio
from adafruit_display_text import bitmap_label

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

FONT = terminalio.FONT
W = const(160)
H = const(128)
LINE = const(12)          # terminalio.FONT is 6x12
CHARS = const(26)         # characters on one line

# The card sheet (tools/gen_assets.py): 20x28 tiles, 8 to a row, 40 tiles.
CARD_W = const(20)
CARD_H = const(28)
BACK = const(32)
SLOT = const(33)
SUIT_SIGN = const(34)     # + suit: the suit symbol alone
BLANK = const(38)
# A card that cannot be played now is drawn through a second palette: white, ink
# and red (entries 1, 2, 3) take the sheet's dim colours (entries 4, 5, 6).
_DIM_FROM = const(4)

WHITE = const(0xFFFFFF)
YELLOW = const(0xF8D820)
GREY = const(0xA0A0A0)
GREEN = const(0x0B6623)
DARK = const(0x043A12)
INK = const(0x101010)
RED = const(0xE04040)


class Sheet:
    """The card sprite sheet, loaded once; every card on screen is a 1-tile TileGrid over it."""

    def __init__(self, path):
        import sys
        import adafruit_imageload
        from binocle import forget
        self.bitmap, self.palette = adafruit_imageload.load(
            path, bitmap=displayio.Bitmap, palette=displayio.Palette)
        forget(*[name for name in sys.modules if name.startswith("adafruit_imageload")])  # used once
        self.palette.make_transparent(0)
        n = len(self.palette)
        self.dim = displayio.Palette(n)
        for i in range(n):
            self.dim[i] = self.palette[_DIM_FROM + i - 1 if 1 <= i <= 3 else i]
        self.dim.make_transparent(0)

    def sprite(self, tile=BLANK, x=0, y=0):
        return displayio.TileGrid(self.bitmap, pixel_shader=self.palette, width=1, height=1,
                                  tile_width=CARD_W, tile_height=CARD_H, default_tile=tile, x=x, y=y)

    def show(self, sprite, tile, dim=False):
        """Set a card sprite's tile, dimmed or not (changing only what differs)."""
        if sprite[0] != tile:
            sprite[0] = tile
        shader = self.dim if dim else self.palette
        if sprite.pixel_shader is not shader:
            sprite.pixel_shader = shader


_solid = []          # (colour, palette): panels of one colour share a palette


def solid(color):
    """A one-colour palette for panels."""
    for c, p in _solid:
        if c == color:
            return p
    p = displayio.Palette(1)
    p[0] = color
    _solid.append((color, p))
    return p


def panel(x, y, w, h, color=DARK):
    return vectorio.Rectangle(pixel_shader=solid(color), width=w, height=h, x=x, y=y)


def text(s, x, y, color=WHITE, background=None):
    """A label whose top-left corner is at (x, y)."""
    lab = bitmap_label.Label(FONT, text=s, color=color, background_color=background,
                             anchor_point=(0, 0), anchored_position=(x, y))
    return lab


def set_text(lab, s):
    """Change a label only when its text changes (a change redraws it)."""
    if lab.text != s:
        lab.text = s


class Menu:
    """A framed list with a cursor: rows scroll when there are more items than fit.

    Items are strings; the scene decides what choosing one does."""

    def __init__(self, title, items, x=4, y=14, w=152, rows=6, index=0):
        self.group = displayio.Group()
        self.items = items
        self.rows = min(rows, len(items))
        self.top = 0
        h = LINE * (self.rows + 1) + 6
        self.group.append(panel(x, y, w, h, INK))
        self.group.append(panel(x + 1, y + 1, w - 2, h - 2, DARK))
        self.title = text(title, x + 4, y + 2, YELLOW)
        self.group.append(self.title)
        self.bar = panel(x + 2, y + 3 + LINE, w - 4, LINE, GREEN)
        self.group.append(self.bar)
        self.labels = []
        for r in range(self.rows):
            lab = text("", x + 6, y + 3 + LINE * (r + 1))
            self.labels.append(lab)
            self.group.append(lab)
        self.y0 = y + 3 + LINE
        self.index = 0
        self.select(index)

    def select(self, i):
        n = len(self.items)
        self.index = i % n if n else 0
        if self.index < self.top:
            self.top = self.index
        elif self.index >= self.top + self.rows:
            self.top = self.index - self.rows + 1
        for r in range(self.rows):
            k = self.top + r
            s = self.items[k] if k < n else ""
            if r == 0 and self.top > 0:
                s = s + " ^"
            elif r == self.rows - 1 and self.top + self.rows < n:
                s = s + " v"
            set_text(self.labels[r], s[:CHARS - 1])
        self.bar.y = self.y0 + LINE * (self.index - self.top)

    def move(self, step):
        self.select(self.index + step)

    def set_item(self, i, s):
        self.items[i] = s
        self.select(self.index)
