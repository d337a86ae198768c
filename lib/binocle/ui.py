"""Drawing helpers shared by the scenes: the card art, text, panels and a menu.

Only what every board's firmware has (displayio, terminalio, vectorio: only the
SAMD21 builds leave vectorio out, and no board the game knows is one): a line of
text is a TileGrid over the terminal font (one byte a character), a block of
lines one TileGrid, a panel a vectorio rectangle (96 bytes, whatever its size),
the card art an OnDiskBitmap whose pixels stay on the drive.

The game screen is 160x128 (layout below); a larger screen shows it centred.

    y   0 +--------------------------------+  status: scores, the game's target
       12 |  prompt: whose turn, what asked |  (a message: over these two lines)
       24 |  opponent's melds / opponents  |
       44 |  trick area (Dabb)      stock   |
       72 |  your melds (hoyle, french)    |
       99 |  your hand, cursor card raised |
      128 +--------------------------------+
"""

import displayio
import terminalio
import vectorio

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

FONT = terminalio.FONT
W = const(160)
H = const(128)
LINE = const(12)          # terminalio.FONT is 6x12
GLYPH_W = const(6)
CHARS = const(26)         # characters on one line

# The card art (tools/checks/gen_assets.py): 20x28 tiles, 8 to a row, 40 tiles.
CARD_W = const(20)
CARD_H = const(28)
BACK = const(32)
SLOT = const(33)
SUIT_SIGN = const(34)     # + suit: the suit symbol alone
BLANK = const(38)
# A card that cannot be played now is drawn through a second palette: white, ink
# and red (entries 1, 2, 3) take the card art's dim colours (entries 4, 5, 6).
_DIM_FROM = const(4)
# Clubs and diamonds have inks of their own (entries 10, 11), set by the Suits setting:
# as spades and hearts (2, 3), or the card art's green and blue (dim: 13, 14).
_CLUBS = const(10)

WHITE = const(0xFFFFFF)
YELLOW = const(0xF8D820)
GREY = const(0xA0A0A0)
GREEN = const(0x0B6623)
DARK = const(0x043A12)
INK = const(0x101010)
RED = const(0xE04040)


class CardArt:
    """The card images (one bitmap of tiles), loaded once; every card on screen is a 1-tile TileGrid over it."""

    def __init__(self, path, four=0):
        # The pixels stay on the drive: displayio reads the few it draws from the file,
        # so the card art takes no RAM but its object (11 KB as a Bitmap).
        self.bitmap = displayio.OnDiskBitmap(path)
        p = self.palette = self.bitmap.pixel_shader
        p.make_transparent(0)
        n = len(p)
        self.dim = displayio.Palette(n)
        for i in range(n):
            self.dim[i] = p[_DIM_FROM + i - 1 if 1 <= i <= 3 else i]
        self.dim.make_transparent(0)
        self.four = (p[_CLUBS], p[_CLUBS + 1], p[_CLUBS + 3], p[_CLUBS + 4])   # green, blue, dim
        self.suits(four)

    def suits(self, four):
        """Clubs and diamonds in colours of their own (four: 1) or as spades and hearts (0),
        on every card at once: only palette entries change."""
        p, d, c = self.palette, self.dim, self.four
        for k in (0, 1):
            p[_CLUBS + k] = c[k] if four else p[2 + k]
            d[_CLUBS + k] = c[2 + k] if four else d[2 + k]

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
    """A filled rectangle."""
    return vectorio.Rectangle(pixel_shader=solid(color), width=w, height=h, x=x, y=y)


def _font():
    """The terminal font as one bitmap of 6x12 tiles, and the tile of each printable
    ASCII character (32 to 126)."""
    tiles = bytearray(95)
    strip = FONT.bitmap
    if isinstance(strip, displayio.Bitmap):          # CircuitPython: the strip is in flash
        for i in range(95):
            tiles[i] = FONT.get_glyph(32 + i).tile_index
        return strip, tiles
    # Blinka (the simulator) keeps one bitmap per glyph: copy them side by side.
    strip = displayio.Bitmap(GLYPH_W * 95, LINE, 2)
    for i in range(95):
        glyph = FONT.get_glyph(32 + i).bitmap
        for y in range(LINE):
            for x in range(GLYPH_W):
                strip[GLYPH_W * i + x, y] = glyph[x, y]
        tiles[i] = i
    return strip, tiles


# GLYPHS: the text tiles, one bitmap; GLYPH_OF: 95 bytes, ASCII 32..126 -> its tile in GLYPHS
GLYPHS, GLYPH_OF = _font()
_CELL = FONT.get_bounding_box()[:2]      # (6, 12), the layout's GLYPH_W and LINE
_UNKNOWN = const(31)        # characters the font lacks show as '?'
_inks = []                  # ((colour, background), palette): texts share palettes


def ink(color, background):
    """The 2-colour palette of a text (background None: transparent), shared by its texts."""
    for key, p in _inks:
        if key == (color, background):
            return p
    p = displayio.Palette(2)
    p[1] = color
    if background is None:
        p.make_transparent(0)
    else:
        p[0] = background
    _inks.append(((color, background), p))
    return p


def text(s, x, y, color=WHITE, background=None, width=0):
    """A line of text with its top-left corner at (x, y), `width` characters wide
    (0: to the right edge of the game screen). A background fills the whole width."""
    n = width or max(1, (W - x) // GLYPH_W)
    t = displayio.TileGrid(GLYPHS, pixel_shader=ink(color, background), width=n, height=1,
                           tile_width=_CELL[0], tile_height=_CELL[1], default_tile=GLYPH_OF[0], x=x, y=y)
    set_text(t, s)
    return t


def block(x, y, cols, rows, color=WHITE, background=None):
    """Lines of text in one TileGrid, `rows` lines of `cols` characters (a TileGrid
    costs about 96 bytes besides a byte a character: one for a page, not one a line)."""
    return displayio.TileGrid(GLYPHS, pixel_shader=ink(color, background), width=cols, height=rows,
                              tile_width=_CELL[0], tile_height=_CELL[1], default_tile=GLYPH_OF[0], x=x, y=y)


def set_text(t, s):
    """Show s in a text, cut to its width; only the characters that change are redrawn."""
    set_line(t, 0, s)


def set_line(t, row, s):
    """Show s on line `row` of a text or block, cut to its width."""
    n = len(s)
    for i in range(t.width):
        c = ord(s[i]) - 32 if i < n else 0
        tile = GLYPH_OF[c] if 0 <= c < 95 else GLYPH_OF[_UNKNOWN]
        if t[i, row] != tile:
            t[i, row] = tile


def set_lines(t, lines):
    """Fill a block from the top with these lines; the rest blank."""
    for r in range(t.height):
        set_line(t, r, lines[r] if r < len(lines) else "")


class Menu:
    """A framed list with a cursor: rows scroll when there are more items than fit; a '^'
    or 'v' in the last column says so where the line leaves room for it.

    Items are strings of at most `cols` characters; the scene decides what choosing one
    does. A menu without a title (None) has its question said elsewhere (the table's
    prompt line). y and h: the box, which messages keep clear of (App.toast)."""

    def __init__(self, title, items, x=0, y=14, w=W, rows=6, index=0):
        self.group = displayio.Group()
        self.items = items
        self.rows = min(rows, len(items))
        head = LINE if title else 0
        self.y = y
        self.h = LINE * self.rows + head + 4
        self.group.append(panel(x, y, w, self.h, INK))
        self.group.append(panel(x + 1, y + 1, w - 2, self.h - 2, DARK))
        if title:
            self.group.append(text(title, x + 3, y + 2, YELLOW))
        self.y0 = y + 2 + head
        self.bar = panel(x + 2, self.y0, w - 4, LINE, GREEN)
        self.group.append(self.bar)
        self.labels = block(x + 3, self.y0, (w - 4) // GLYPH_W, self.rows)
        self.group.append(self.labels)
        self.top = 0
        self.index = 0
        self.select(index)

    def select(self, i):
        n = len(self.items)
        self.index = i % n if n else 0
        if self.index < self.top:
            self.top = self.index
        elif self.index >= self.top + self.rows:
            self.top = self.index - self.rows + 1
        cols = self.labels.width
        for r in range(self.rows):
            k = self.top + r
            s = self.items[k] if k < n else ""
            if len(s) < cols - 1 and ((r == 0 and self.top) or (r == self.rows - 1 and k + 1 < n)):
                s += " " * (cols - 1 - len(s)) + ("^" if r == 0 and self.top else "v")
            set_line(self.labels, r, s)
        self.bar.y = self.y0 + LINE * (self.index - self.top)

    def move(self, step):
        self.select(self.index + step)

    def set_item(self, i, s):
        self.items[i] = s
        self.select(self.index)
