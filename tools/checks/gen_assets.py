"""Write assets/cards.bmp: the card art, drawn from pixel patterns in code.

    python -m tools gen-assets [--out DIR] [--check]

Every glyph is a pattern of rows below, so the file is byte-identical on every
machine. `--check` rebuilds the sheet in memory and exits 1 if the file on
disk differs; tests/test_assets.py does the same.

The file: a 4-bit indexed Windows BMP, 160 x 140 px, BITMAPINFOHEADER, BI_RGB,
16 palette entries, rows bottom-up, each row padded to 4 bytes. Tiles are
20 x 28 px, 8 across and 5 down; tile t sits at column t % 8, row t // 8,
so its top-left pixel is (20 * (t % 8), 28 * (t // 8)).

          col 0    1    2    3    4    5    6    7
    row 0   7S   8S   9S   JS   QS   KS   10S  AS     tiles  0..7
    row 1   7H   8H   ...                       AH     tiles  8..15
    row 2   7D   ...                            AD     tiles 16..23
    row 3   7C   ...                            AC     tiles 24..31
    row 4   back slot  S    H    D    C    --   --     tiles 32..39

    face tile   = face = suit * 8 + rank      (0..31, as engine/cards.py)
                  suit 0 S, 1 H, 2 D, 3 C;  rank 0 7, 1 8, 2 9, 3 J, 4 Q, 5 K, 6 10, 7 A
    32 card back, 33 empty slot, 34 + suit the suit alone (trump sign),
    38 and 39 fully transparent

There are no dimmed tiles. The app draws a dimmed card (one that cannot be
played now) with the same face tile and a copy of the palette in which entry
1 takes the colour of 4, 2 that of 5 and 3 that of 6 (1->4, 2->5, 3->6). So
a face tile uses only indices 0, 1, 2, 3, 9, 10 and 11: any other index
would not change under the dim palette.

Clubs and diamonds have inks of their own, 10 and 11, so that one sheet
serves both settings of Suits: the app sets those two entries at run time,
in the normal palette and the dim one. With 2 colours they take the colours
of 2 and 3 (and 5 and 6 when dim): clubs black, diamonds red. With 4 colours
they keep the sheet's own green and blue (13 and 14 when dim).

    index  colour    use                    index  colour    use
      0   0B6623  transparent key (green)     8   6890E0  back light blue
      1   F8F8F0  card white                  9   505050  card edge
      2   101010  ink black (spades)         10   13802A  clubs green
      3   D01818  red (hearts)               11   1A48D0  diamonds blue
      4   9A9A9A  dim face grey (for 1)      12   3C9A50  table light green
      5   404040  dim black (for 2)          13   1E5028  dim green (for 10)
      6   803030  dim red (for 3)            14   34427E  dim blue (for 11)
      7   1838A8  back blue                  15   808080  mid grey

    TILE_W 20  TILE_H 28  COLUMNS 8  ROWS 5  (WIDTH 160, HEIGHT 140, 40 tiles)
    BACK 32  SLOT 33  SUIT_SIGN 34 (+ suit)  BLANK 38  PEEK_W 8

In a hand the cards overlap so that only the left PEEK_W = 8 px (x = 0..7)
of each card shows: the rank (y = 2..8) and a small suit (y = 10..16, shapes
that differ in black alone: a solid spade, a club with gaps between its
leaves, a tall diamond) sit in x = 1..6 at the top-left, and x = 7..8 stay
white. The centre mark uses
x = 9..17. Every card tile has a 1 px edge (index 9) whose corners are cut
diagonally: the three pixels in each corner are index 0, so the app must
make index 0 transparent. The suit signs have a 1 px white rim so black
reads on the green table.
"""

import os
import sys

from tools import ROOT, cli

from PIL import Image

FILENAME = "cards.bmp"

TILE_W = 20
TILE_H = 28
COLUMNS = 8
ROWS = 5
WIDTH = TILE_W * COLUMNS        # 160
HEIGHT = TILE_H * ROWS          # 140
FACES = 32                      # tiles 0..31
BACK = 32
SLOT = 33
SUIT_SIGN = 34                  # 34..37, one per suit
BLANK = 38                      # 38 and 39
TILE_COUNT = COLUMNS * ROWS     # 40
PEEK_W = 8                      # what shows of a card under its right neighbour

TRANSPARENT = 0
WHITE = 1
INK = 2
RED = 3
DIM_FACE = 4                    # the app's dim palette puts these colours
DIM_INK = 5                     # in entries 1, 2 and 3
DIM_RED = 6
BACK_BLUE = 7
BACK_LIGHT = 8
EDGE = 9
CLUBS = 10                      # the app sets these two at run time (Suits)
DIAMONDS = 11
TABLE_LIGHT = 12
DIM_CLUBS = 13                  # their dim colours with 4 colours
DIM_DIAMONDS = 14
MID_GREY = 15

# each suit's ink, by suit code: spades, hearts, diamonds, clubs
SUIT_INK = (INK, RED, DIAMONDS, CLUBS)

# what a face tile may use: the inks the dim palette replaces (1->4, 2->5,
# 3->6; 10 and 11 as the app sets them), plus transparency and the edge, which
# stay as they are
FACE_INDICES = frozenset((TRANSPARENT, WHITE, INK, RED, CLUBS, DIAMONDS, EDGE))

PALETTE = (
    0x0B6623, 0xF8F8F0, 0x101010, 0xD01818, 0x9A9A9A, 0x404040, 0x803030, 0x1838A8,
    0x6890E0, 0x505050, 0x13802A, 0x1A48D0, 0x3C9A50, 0x1E5028, 0x34427E, 0x808080,
)

# -- glyphs: '#' is ink, '.' leaves the pixel as it is ------------------------------

# Corner ranks, 5 x 7, by rank code; '10' is 6 wide, its '1' flagged so it
# cannot pass for a bar next to the card edge.
RANK_GLYPHS = (
    ("#####",
     "....#",
     "...#.",
     "..#..",
     ".#...",
     ".#...",
     ".#..."),
    (".###.",
     "#...#",
     "#...#",
     ".###.",
     "#...#",
     "#...#",
     ".###."),
    (".###.",
     "#...#",
     "#...#",
     ".####",
     "....#",
     "...#.",
     ".##.."),
    ("..###",
     "...#.",
     "...#.",
     "...#.",
     "...#.",
     "#..#.",
     ".##.."),
    (".###.",
     "#...#",
     "#...#",
     "#...#",
     "#.#.#",
     "#..#.",
     ".##.#"),
    ("#...#",
     "#..#.",
     "#.#..",
     "##...",
     "#.#..",
     "#..#.",
     "#...#"),
    (".#.###",
     "##.#.#",
     ".#.#.#",
     ".#.#.#",
     ".#.#.#",
     ".#.#.#",
     ".#.###"),
    ("..#..",
     ".#.#.",
     "#...#",
     "#...#",
     "#####",
     "#...#",
     "#...#"),
)

# Small suits under the corner rank, 5 wide, by suit code: told apart by their
# shapes alone, as spades and clubs share black with 2 colours.
SMALL_SUITS = (
    ("..#..",
     ".###.",
     "#####",
     "#####",
     "#####",
     "..#..",
     ".###."),
    (".#.#.",
     "#####",
     "#####",
     "#####",
     ".###.",
     "..#.."),
    ("..#..",
     ".###.",
     ".###.",
     "#####",
     ".###.",
     ".###.",
     "..#.."),
    (".###.",
     ".###.",
     "#.#.#",
     "#####",
     "#.#.#",
     "..#..",
     ".###."),
)

# Centre marks, about 9 px.
MID_SUITS = (
    ("....#....",
     "...###...",
     "..#####..",
     ".#######.",
     "#########",
     "#########",
     ".##.#.##.",
     "....#....",
     "...###..."),
    (".##...##.",
     "####.####",
     "#########",
     "#########",
     ".#######.",
     "..#####..",
     "...###...",
     "....#...."),
    ("...#...",
     "..###..",
     "..###..",
     ".#####.",
     "#######",
     ".#####.",
     "..###..",
     "..###..",
     "...#..."),
    ("...###...",
     "..#####..",
     "..#####..",
     "##.###.##",
     "#########",
     "##.###.##",
     "....#....",
     "...###..."),
)

# Trump signs, 11 px, drawn with a white rim so black reads on the green table.
BIG_SUITS = (
    (".....#.....",
     "....###....",
     "...#####...",
     "..#######..",
     ".#########.",
     "###########",
     "###########",
     "###########",
     ".###.#.###.",
     ".....#.....",
     "....###....",
     "...#####..."),
    (".###...###.",
     "#####.#####",
     "###########",
     "###########",
     "###########",
     ".#########.",
     "..#######..",
     "...#####...",
     "....###....",
     ".....#....."),
    ("....#....",
     "...###...",
     "...###...",
     "..#####..",
     ".#######.",
     "#########",
     ".#######.",
     "..#####..",
     "...###...",
     "...###...",
     "....#...."),
    ("....###....",
     "...#####...",
     "...#####...",
     "....###....",
     ".###.#.###.",
     "###########",
     "###########",
     ".###.#.###.",
     ".....#.....",
     "....###...."),
)

# Large court letters for the middle of J, Q, K (7 x 9, strokes 2 px).
COURT_LETTERS = {
    3: ("..#####",
        "....##.",
        "....##.",
        "....##.",
        "....##.",
        "....##.",
        "##..##.",
        "##..##.",
        ".####.."),
    4: (".#####.",
        "##...##",
        "##...##",
        "##...##",
        "##...##",
        "##.#.##",
        "##..##.",
        ".###.##",
        "......#"),
    5: ("##...##",
        "##..##.",
        "##.##..",
        "####...",
        "###....",
        "####...",
        "##.##..",
        "##..##.",
        "##...##"),
}


# -- drawing ------------------------------------------------------------------------

class Tile:
    """One 20 x 28 tile as palette indices, row after row."""

    def __init__(self, fill=TRANSPARENT):
        self.px = bytearray([fill]) * (TILE_W * TILE_H)

    def set(self, x, y, c):
        if 0 <= x < TILE_W and 0 <= y < TILE_H:
            self.px[y * TILE_W + x] = c

    def get(self, x, y):
        return self.px[y * TILE_W + x]

    def stamp(self, rows, x0, y0, c):
        for dy, row in enumerate(rows):
            for dx, ch in enumerate(row):
                if ch == "#":
                    self.set(x0 + dx, y0 + dy, c)

    def stamp_centred(self, rows, cx, cy, c):
        """Centre the pattern on (cx, cy); odd sizes land exactly, even ones round left/up."""
        self.stamp(rows, cx - len(rows[0]) // 2, cy - len(rows) // 2, c)


def _card_shape(x, y):
    """0 outside the card, 1 on its edge, 2 inside.

    The corners are cut by a 1-px diagonal, which reads as round at this size.
    """
    def inside(x, y):
        if not (0 <= x < TILE_W and 0 <= y < TILE_H):
            return False
        # the top and bottom two rows are cut in by 2 and 1 px at each end
        cut = max(0, 2 - min(y, TILE_H - 1 - y))
        return cut <= x < TILE_W - cut
    if not inside(x, y):
        return 0
    if all(inside(x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))):
        return 2
    return 1


# worked out once: every card tile starts from it
CARD_SHAPE = bytes(_card_shape(x, y) for y in range(TILE_H) for x in range(TILE_W))


def card_shape(x, y):
    if 0 <= x < TILE_W and 0 <= y < TILE_H:
        return CARD_SHAPE[y * TILE_W + x]
    return 0


def blank_card(face_colour):
    t = Tile()
    t.px = bytearray((TRANSPARENT, EDGE, face_colour)[s] for s in CARD_SHAPE)
    return t


def face_tile(face):
    suit, rank = face >> 3, face & 7
    ink = SUIT_INK[suit]
    t = blank_card(WHITE)
    # the corner: everything inside x = 1..7 so it shows in an overlapped hand;
    # ranks end at x = 6, leaving a white column before the next card's edge
    glyph = RANK_GLYPHS[rank]
    t.stamp(glyph, 7 - len(glyph[0]), 2, ink)
    t.stamp(SMALL_SUITS[suit], 2, 10 if len(SMALL_SUITS[suit]) == 7 else 11, ink)
    # the free area right of the corner; x = 8 stays blank, marks span x = 9..17
    cx = 13
    if rank in COURT_LETTERS:
        t.stamp_centred(COURT_LETTERS[rank], cx, 8, ink)
        t.stamp_centred(MID_SUITS[suit], cx, 19, ink)
    else:
        t.stamp_centred(MID_SUITS[suit], cx, 14, ink)
    return t


def back_tile():
    t = blank_card(BACK_BLUE)
    for y in range(TILE_H):
        for x in range(TILE_W):
            if card_shape(x, y) != 2:
                continue
            # a light frame one pixel in from the edge, a diamond lattice inside it
            frame = card_shape(x - 1, y) == 1 or card_shape(x + 1, y) == 1 or \
                card_shape(x, y - 1) == 1 or card_shape(x, y + 1) == 1
            lattice = (x + y) % 4 == 1 or (x - y) % 4 == 1
            if frame or (lattice and 3 <= x <= TILE_W - 4 and 3 <= y <= TILE_H - 4):
                t.set(x, y, BACK_LIGHT)
    return t


def slot_tile():
    t = Tile()
    for y in range(TILE_H):
        for x in range(TILE_W):
            # measured from the nearest corner so the dots come out symmetric
            mx, my = min(x, TILE_W - 1 - x), min(y, TILE_H - 1 - y)
            if card_shape(x, y) == 1 and (mx + my) % 2 == 0:
                t.set(x, y, TABLE_LIGHT)
    return t


def sign_tile(suit):
    ink = SUIT_INK[suit]
    t = Tile()
    rows = BIG_SUITS[suit]
    x0, y0 = TILE_W // 2 - len(rows[0]) // 2, TILE_H // 2 - len(rows) // 2
    shape = Tile()
    shape.stamp(rows, x0, y0, ink)
    for y in range(TILE_H):
        for x in range(TILE_W):
            if shape.get(x, y):
                t.set(x, y, ink)
            elif any(0 <= x + dx < TILE_W and 0 <= y + dy < TILE_H and shape.get(x + dx, y + dy)
                     for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))):
                t.set(x, y, WHITE)
    return t


def tiles():
    """The 40 tiles in their order in the card art."""
    out = [face_tile(f) for f in range(FACES)]
    for f, t in enumerate(out):
        # the dim palette changes only the inks and the white; anything else would not dim
        if not set(t.px) <= FACE_INDICES:
            raise ValueError("face %d uses indices %s" % (f, sorted(set(t.px) - FACE_INDICES)))
    out.append(back_tile())
    out.append(slot_tile())
    out.extend(sign_tile(s) for s in range(4))
    out.extend(Tile() for _ in range(TILE_COUNT - len(out)))
    return out


def build_image():
    """The card art as a Pillow image in mode P with the palette set."""
    art = Image.new("P", (WIDTH, HEIGHT), TRANSPARENT)
    for i, t in enumerate(tiles()):
        img = Image.frombytes("P", (TILE_W, TILE_H), bytes(t.px))
        art.paste(img, ((i % COLUMNS) * TILE_W, (i // COLUMNS) * TILE_H))
    rgb = []
    for c in PALETTE:
        rgb += [c >> 16, (c >> 8) & 255, c & 255]
    art.putpalette(rgb)
    return art


def bmp4(width, height, pixels, palette):
    """A 4-bit BI_RGB BMP from one palette index per pixel, rows top-down.

    Pillow writes palette BMPs only at 8 bits per pixel; 4 bits halve the
    file on the board's small drive.
    """
    row_bytes = ((width + 1) // 2 + 3) & ~3
    offset = 14 + 40 + 4 * len(palette)
    size = offset + row_bytes * height
    out = bytearray(b"BM")
    out += size.to_bytes(4, "little") + bytes(4) + offset.to_bytes(4, "little")
    for value, n in ((40, 4), (width, 4), (height, 4), (1, 2), (4, 2), (0, 4),
                     (row_bytes * height, 4), (2835, 4), (2835, 4),
                     (len(palette), 4), (len(palette), 4)):
        out += value.to_bytes(n, "little")
    for c in palette:
        out += bytes((c & 255, (c >> 8) & 255, c >> 16, 0))   # B, G, R, 0
    for y in range(height - 1, -1, -1):                       # bottom row first
        row = pixels[y * width:(y + 1) * width]
        if width % 2:
            row += bytes(1)
        packed = bytearray((row[i] << 4) | row[i + 1] for i in range(0, len(row), 2))
        out += packed + bytes(row_bytes - len(packed))
    return bytes(out)


def build_sheet():
    """The bytes of assets/cards.bmp."""
    return bmp4(WIDTH, HEIGHT, build_image().tobytes(), PALETTE)


# -- command line -------------------------------------------------------------------

@cli.command("gen-assets")
def main(argv):
    parser = cli.Parser("gen-assets", "Write the card art %s." % FILENAME)
    parser.add_argument("--out", metavar="DIR", default=os.path.join(ROOT, "assets"),
                        help="folder to write to (default: the repository's assets/)")
    parser.add_argument("--check", action="store_true",
                        help="compare with the file on disk instead of writing it; exit 1 if it differs")
    opts = parser.parse_args(argv)
    parent = os.path.dirname(os.path.abspath(opts.out))
    if not os.path.isdir(opts.out) and not (opts.check or os.path.isdir(parent)):
        raise cli.UsageError("--out: no such folder: %s" % parent)   # one new level, not a tree
    data = build_sheet()
    path = os.path.join(opts.out, FILENAME)
    try:
        return check(path, data) if opts.check else write(path, data)
    except OSError as e:         # e.g. --out names a file or a folder we may not write
        sys.stderr.write("gen-assets: %s: %s\n" % (e.filename or path, e.strerror or e))
        return 2


def check(path, data):
    try:
        with open(path, "rb") as fh:
            same = fh.read() == data
    except FileNotFoundError:
        sys.stderr.write("gen-assets: %s is missing: run python -m tools gen-assets\n" % path)
        return 1
    if not same:
        sys.stderr.write("gen-assets: %s is stale: run python -m tools gen-assets\n" % path)
        return 1
    print("gen-assets: %s is up to date" % path)
    return 0


def write(path, data):
    if not os.path.isdir(os.path.dirname(path)):
        os.mkdir(os.path.dirname(path))
    cli.write_whole(path, data)         # a reader (or a copy to the board) never sees half a file
    print("wrote %s (%d bytes)" % (path, len(data)))
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
