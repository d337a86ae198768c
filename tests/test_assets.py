"""assets/cards.bmp is exactly what tools/checks/gen_assets.py draws, and it has the layout the app relies on.

The file is decoded here by hand rather than through the generator, so a
mistake in the generator's BMP writer cannot hide itself.
"""

import os
import struct
import subprocess
import sys

import pytest

from tools.checks import gen_assets as G

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATH = os.path.join(ROOT, "assets", "cards.bmp")

PALETTE = (
    0x0B6623, 0xF8F8F0, 0x101010, 0xD01818, 0x9A9A9A, 0x404040, 0x803030, 0x1838A8,
    0x6890E0, 0x505050, 0x13802A, 0x1A48D0, 0x3C9A50, 0x1E5028, 0x34427E, 0x808080,
)
# the app dims a card by drawing it with a copy of the palette in which
# entries 1, 2, 3 (card white, ink, red) get the colours of 4, 5, 6, and
# clubs' and diamonds' inks (10, 11) those of 13, 14 (4 colours); with 2
# colours (the default) 10 and 11 are 2 and 3, and dim 5 and 6
DIM_MAP = {1: 4, 2: 5, 3: 6, 10: 13, 11: 14}
DIM_PALETTE = tuple(PALETTE[DIM_MAP.get(i, i)] for i in range(16))
TWO = {10: 2, 11: 3}
TWO_PALETTE = tuple(PALETTE[TWO.get(i, i)] for i in range(16))
INK = (2, 3, 11, 10)                                # spades, hearts, diamonds, clubs
# pixels of a card tile outside its cut corners: 3 per corner
CORNERS = {(0, 0), (1, 0), (0, 1), (18, 0), (19, 0), (19, 1),
           (0, 26), (0, 27), (1, 27), (19, 26), (18, 27), (19, 27)}


@pytest.fixture(scope="module")
def data():
    with open(PATH, "rb") as fh:
        return fh.read()


@pytest.fixture(scope="module")
def pixels(data):
    """Palette index per pixel, rows top-down, decoded from the 4-bit bottom-up rows."""
    offset = struct.unpack_from("<I", data, 10)[0]
    out = bytearray()
    for y in range(140):
        row = data[offset + (139 - y) * 80:offset + (140 - y) * 80]
        for b in row:
            out += bytes((b >> 4, b & 15))
    return bytes(out)


def tile(pixels, t):
    x0, y0 = (t % 8) * 20, (t // 8) * 28
    return tuple(pixels[(y0 + y) * 160 + x0:(y0 + y) * 160 + x0 + 20] for y in range(28))


def colours(rows):
    return set(b"".join(rows))


def test_file_matches_generator(data):
    assert G.build_sheet() == data, "assets/cards.bmp is stale: run python -m tools gen-assets"


def test_constants():
    assert (G.TILE_W, G.TILE_H, G.COLUMNS, G.ROWS, G.WIDTH, G.HEIGHT) == (20, 28, 8, 5, 160, 140)
    assert (G.FACES, G.BACK, G.SLOT, G.SUIT_SIGN, G.BLANK) == (32, 32, 33, 34, 38)
    assert (G.TILE_COUNT, G.PEEK_W) == (40, 8)
    assert not hasattr(G, "DIM")                    # no dimmed tiles any more
    assert (G.WHITE, G.INK, G.RED, G.DIM_FACE, G.DIM_INK, G.DIM_RED) == (1, 2, 3, 4, 5, 6)
    assert (G.CLUBS, G.DIAMONDS, G.DIM_CLUBS, G.DIM_DIAMONDS) == (10, 11, 13, 14)
    assert G.FACE_INDICES == {0, 1, 2, 3, 9, 10, 11}
    assert G.PALETTE == PALETTE
    assert len(G.tiles()) == 40


def test_header(data):
    assert len(data) == 11318
    assert data[:2] == b"BM"
    size, reserved, offset = struct.unpack_from("<III", data, 2)
    assert (size, reserved, offset) == (11318, 0, 118)
    header = struct.unpack_from("<IiiHHIIiiII", data, 14)
    # size, width, height (> 0: bottom-up), planes, bpp, BI_RGB, image bytes, 72 dpi, colours used/important
    assert header == (40, 160, 140, 1, 4, 0, 11200, 2835, 2835, 16, 16)


def test_palette(data):
    entries = [struct.unpack_from("<BBBB", data, 54 + 4 * i) for i in range(16)]
    assert entries == [(c & 255, (c >> 8) & 255, c >> 16, 0) for c in PALETTE]
    assert entries[0] == (0x23, 0x66, 0x0B, 0)      # the transparent key, table green
    assert entries[3] == (0x18, 0x18, 0xD0, 0)      # red
    # the dim colours stay in the sheet's palette: the app copies them into 1, 2, 3
    assert entries[4:7] == [(0x9A, 0x9A, 0x9A, 0), (0x40, 0x40, 0x40, 0), (0x30, 0x30, 0x80, 0)]


def test_loads_as_the_app_loads_it(pixels):
    # the app reads the sheet's pixels from the drive: displayio.OnDiskBitmap
    displayio = pytest.importorskip("displayio")
    sheet = displayio.OnDiskBitmap(PATH)
    palette = sheet.pixel_shader
    assert (sheet.width, sheet.height, len(palette)) == (160, 140, 16)
    assert [palette[i] for i in range(16)] == list(PALETTE)
    assert bytes(sheet._get_pixel(x, y) for y in range(140) for x in range(160)) == pixels


def test_face_tiles(pixels):
    faces = [tile(pixels, f) for f in range(32)]
    assert len(set(faces)) == 32
    for f, rows in enumerate(faces):
        ink = INK[f >> 3]                           # each suit its own
        assert colours(rows) == {0, 1, 9, ink}, f
        assert {(x, y) for y in range(28) for x in range(20) if rows[y][x] == 0} == CORNERS
        assert rows[1][1] == rows[0][2] == rows[2][0] == rows[27][10] == rows[14][19] == 9
    # what shows of a card in an overlapped hand names it on its own
    strips = [tuple(r[:8] for r in rows) for rows in faces]
    assert len(set(strips)) == 32
    for rows in faces:
        # no ink in x = 7..8: the corner stays clear of the next card's edge
        assert all(r[7] == r[8] == 1 for r in rows[2:26])


def test_dim_palette():
    assert DIM_PALETTE[:7] == (0x0B6623, 0x9A9A9A, 0x404040, 0x803030, 0x9A9A9A, 0x404040, 0x803030)
    assert DIM_PALETTE[7:10] == PALETTE[7:10] and DIM_PALETTE[12:] == PALETTE[12:]
    assert DIM_PALETTE[10:12] == (0x1E5028, 0x34427E)


def test_four_colours_and_two():
    """With 4 colours the suits' inks are four colours, and four others when dim; with 2
    (the palette as the app sets it) spades and clubs are black, hearts and diamonds red."""
    assert len({PALETTE[i] for i in INK}) == len({DIM_PALETTE[i] for i in INK}) == 4
    assert [TWO_PALETTE[i] for i in INK] == [0x101010, 0xD01818, 0xD01818, 0x101010]
    for i in INK:                                   # every ink stands out on the face, dim or not
        for pal, face in ((PALETTE, PALETTE[1]), (DIM_PALETTE, PALETTE[4])):
            assert contrast(pal[i], face) >= 3.0, (i, hex(pal[i]))


def contrast(a, b):
    """The WCAG contrast ratio of two colours."""
    def lum(c):
        out = 0
        for shift, w in ((16, 0.2126), (8, 0.7152), (0, 0.0722)):
            v = (c >> shift & 255) / 255
            out += w * (v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4)
        return out
    la, lb = sorted((lum(a), lum(b)))
    return (lb + 0.05) / (la + 0.05)


def test_faces_dim_through_the_palette(pixels):
    """Drawn with the dim palette, a face tile is the old dimmed tile: no card white, ink or red left."""
    for f in range(32):
        normal = tile(pixels, f)
        # each pixel's index, mapped to the index whose colour the dim palette shows there
        dim = tuple(bytes(DIM_MAP.get(c, c) for c in r) for r in normal)
        assert dim != normal, f
        assert not colours(dim) & {1, 2, 3, 10, 11}, f
        assert colours(dim) == {0, 9, 4, DIM_MAP[INK[f >> 3]]}, f
        # and the colours really are those: the dim palette on the tile's indices
        # gives the same RGB as the normal palette on the mapped indices
        assert [DIM_PALETTE[c] for r in normal for c in r] == [PALETTE[c] for r in dim for c in r]
        assert {DIM_PALETTE[c] for r in normal for c in r} == \
            {0x0B6623, 0x505050, 0x9A9A9A, (0x404040, 0x803030, 0x34427E, 0x1E5028)[f >> 3]}, f


def test_generator_refuses_a_face_that_would_not_dim(monkeypatch):
    draw = G.face_tile

    def face_tile(face):
        t = draw(face)
        if face == 5:
            t.set(10, 10, G.DIM_INK)        # already dim: the dim palette would leave it alone
        return t

    monkeypatch.setattr(G, "face_tile", face_tile)
    with pytest.raises(ValueError, match=r"^face 5 uses indices \[5\]$"):
        G.tiles()


def test_back_slot_and_blanks(pixels):
    back = tile(pixels, 32)
    assert colours(back) == {0, 7, 8, 9}
    assert {(x, y) for y in range(28) for x in range(20) if back[y][x] == 0} == CORNERS
    slot = tile(pixels, 33)
    assert colours(slot) == {0, 12}
    # inside the edge: rows 1 and 26 start past the cut corner
    assert all(slot[y][x] == 0 for y in range(1, 27) for x in range(2, 18))
    assert all(slot[y][x] == 0 for y in range(2, 26) for x in range(1, 19))
    # dots only where the cards have their edge, every other pixel
    edge = {(x, y) for y in range(28) for x in range(20) if back[y][x] == 9}
    dots = {(x, y) for y in range(28) for x in range(20) if slot[y][x] == 12}
    assert dots < edge and len(dots) == 44 and len(edge) == 84
    for t in (38, 39):
        assert tile(pixels, t) == (bytes(20),) * 28


def test_suit_signs(pixels):
    for suit in range(4):
        rows = tile(pixels, 34 + suit)
        ink = INK[suit]
        assert colours(rows) == {0, 1, ink}
        xs = [x for y in range(28) for x in range(20) if rows[y][x] == ink]
        ys = [y for y in range(28) for x in range(20) if rows[y][x] == ink]
        assert 9 <= max(xs) - min(xs) + 1 <= 11 and 10 <= max(ys) - min(ys) + 1 <= 12
        assert abs((max(xs) + min(xs)) / 2 - 9.5) <= 1 and abs((max(ys) + min(ys)) / 2 - 13.5) <= 1
        assert rows[0] == rows[27] == bytes(20)
    assert len({tile(pixels, 34 + s) for s in range(4)}) == 4


def test_main_bad_arguments(capsys, monkeypatch, data):
    monkeypatch.setattr(G, "build_sheet", lambda: data)      # keep the test fast
    for argv in (["--bogus"], ["--out"], ["extra"], ["--out", os.path.join(PATH, "x")]):
        assert G.main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith("gen-assets: ") and err.count("\n") == 1 and "Traceback" not in err


def test_main_writes_and_checks(capsys, monkeypatch, tmp_path, data):
    monkeypatch.setattr(G, "build_sheet", lambda: data)      # test_file_matches_generator covers it
    out = str(tmp_path / "a")
    assert G.main(["--out", out, "--check"]) == 1
    assert "missing" in capsys.readouterr().err
    assert G.main(["--out", out]) == 0
    assert os.listdir(out) == ["cards.bmp"]          # no temporary file left
    with open(os.path.join(out, "cards.bmp"), "rb") as fh:
        assert fh.read() == data
    assert G.main(["--out", out, "--check"]) == 0
    with open(os.path.join(out, "cards.bmp"), "ab") as fh:
        fh.write(b"\0")
    capsys.readouterr()
    assert G.main(["--out", out, "--check"]) == 1
    err = capsys.readouterr().err
    assert "stale" in err and err.count("\n") == 1


def run_tools(*args):
    return subprocess.run([sys.executable, "-m", "tools", "gen-assets", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_command_line():
    result = run_tools("--check")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.endswith("cards.bmp is up to date\n")
    bad = run_tools("--no-such-option")
    assert bad.returncode == 2
    assert bad.stderr == "gen-assets: unrecognized arguments: --no-such-option\n"
