"""What the app's displayio objects, a game, and the code would take in a SAMD51 board's heap:
python -m tools ui-memory [--json]

Walks the simulator's screen tree in the middle of a deal of each rule set
(a menu open over the table, the largest moment) and counts bytes the way
CircuitPython stores them. Bitmaps are exact: Blinka keeps CircuitPython's
layout (rows of 32-bit words, bits per value a power of two). The fixed
costs of the other objects are estimates of CircuitPython's C structs plus
the Python objects around them (figures below). The game in progress adds
what tools/bench.py measures under MicroPython: the engine state and the AI
seats' working memory with the exact endgame's table.
"""

import json
import sys

# Bytes per object besides its bitmap (estimates, see the module docstring).
GROUP = 48                 # struct + list of children ...
GROUP_CHILD = 4            # ... one pointer per child
TILEGRID = 96              # struct incl. dirty areas and transform
PALETTE = 16               # header ...
PALETTE_COLOUR = 12        # ... and per colour (rgb888, rgb565, luma, flags)
SHAPE = 64                 # vectorio.Rectangle
LABEL = 400                # a bitmap_label.Label's Python attributes (its bitmap counted apart)
BITMAP = 32                # bitmap header besides its pixel words
# Measured under MicroPython (python -m tools bench; issue notes): engine state, one AI seat's
# working memory, the hard level's endgame table (shared by every seat and the hint adviser).
ENGINE_STATE = 1488
AI_SEAT = 2600
SOLVER_TABLE = (("easy", 0), ("normal", 5840), ("hard", 7872))


class Count:
    def __init__(self, card_sheet):
        self.card_sheet = card_sheet
        self.seen = set()
        self.parts = {"bitmaps": 0, "tile grids": 0, "palettes": 0, "labels": 0, "groups": 0, "shapes": 0}
        self.sheet = 0

    def once(self, obj):
        if id(obj) in self.seen:
            return False
        self.seen.add(id(obj))
        return True

    def bitmap(self, bmp):
        if self.once(bmp):
            n = BITMAP + bmp._stride * 4 * bmp._bmp_height
            self.parts["bitmaps"] += n
            return n
        return 0

    def palette(self, pal):
        if pal is not None and self.once(pal) and hasattr(pal, "_colors"):
            self.parts["palettes"] += PALETTE + PALETTE_COLOUR * len(pal._colors)

    def walk(self, node):
        import displayio
        import vectorio
        from adafruit_display_text.bitmap_label import Label
        if not self.once(node):
            return
        if isinstance(node, displayio.TileGrid):
            self.parts["tile grids"] += TILEGRID + node._width_in_tiles * node._height_in_tiles
            n = self.bitmap(node._bitmap)
            if n and node._bitmap is self.card_sheet:
                self.sheet = n
            self.palette(node._pixel_shader)
        elif isinstance(node, vectorio.Rectangle):
            self.parts["shapes"] += SHAPE
            self.palette(node.pixel_shader)
        elif isinstance(node, displayio.Group):
            if isinstance(node, Label):
                self.parts["labels"] += LABEL
            self.parts["groups"] += GROUP + GROUP_CHILD * len(node)
            for child in node:
                self.walk(child)

    def total(self):
        return sum(self.parts.values())


def measure(driver, rules, seed):
    """Counts at the first menu over the table in a deal of this rule set."""
    driver.start(rules, seed)
    driver.play_until(("Choice",))
    c = Count(driver.app.sheet.bitmap)
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


# Run under MicroPython: what the modules keep after a collection, loaded from source as on
# the board. Stand-ins replace displayio and the libraries (they are C or not measured here).
# Imports and collections run at module level: the WASI build's collector is unsafe in calls.
_CODE_SCRIPT = """
import sys, gc
sys.path.append("lib")
class Thing:
    def __init__(self, *a, **k):
        pass
class Mod:
    pass
def stub(name):
    m = Mod()
    for attr in ("Group", "Bitmap", "Palette", "TileGrid", "Rectangle", "Label", "GridLayout"):
        setattr(m, attr, Thing)
    m.FONT = None
    sys.modules[name] = m
    return m
for n in ("displayio", "terminalio", "vectorio", "adafruit_imageload", "adafruit_displayio_layout",
          "adafruit_displayio_layout.layouts", "adafruit_displayio_layout.layouts.grid_layout",
          "adafruit_display_text.bitmap_label"):
    stub(n)
stub("adafruit_display_text").bitmap_label = sys.modules["adafruit_display_text.bitmap_label"]
gc.collect()
a0 = gc.mem_alloc()
import engine.rules
import engine.%(rules)s
import engine.ai.player
%(endgame)s
gc.collect()
a1 = gc.mem_alloc()
import binocle.app
import binocle.session
import binocle.scenes.table
import binocle.scenes.choice
import binocle.scenes.pause
gc.collect()
a2 = gc.mem_alloc()
import binocle.scenes.title
import binocle.scenes.sheet
import binocle.scenes.help
import binocle.helptext
gc.collect()
a3 = gc.mem_alloc()
print(a1 - a0, a2 - a1, a3 - a2)
"""


def code_bytes(rules):
    """(engine and AI, the app at the table, title/sheet/help) bytes kept under MicroPython."""
    from tools import mpy
    module = {"hoyle": "hoyle", "french": "french", "binokel": "binokel"}[rules]
    script = _CODE_SCRIPT % {"rules": module,
                             "endgame": "" if rules == "binokel" else "import engine.ai.endgame"}
    status, out, err = mpy.run_source(script, heap="64m")
    if status != 0:
        raise RuntimeError("MicroPython could not measure the code: %s" % err.strip()[-200:])
    return tuple(int(x) for x in out.split())


def main(argv):
    from tools.simdriver import Driver
    rows = report(Driver())
    for r in rows:
        engine, table, menus = code_bytes(r["rules"])
        r["code"] = {"engine_and_ai": engine, "app_at_the_table": table, "title_sheet_help": menus}
        r["with_code"] = r["total"] + engine + table + menus
    if "--json" in argv:
        print(json.dumps(rows))
        return 0
    for r in rows:
        parts = ", ".join("%s %d" % (k, v) for k, v in sorted(r["parts"].items()))
        print("%-8s displayio %6d B (%s; card sheet %d)" % (r["rules"], r["display"], parts, r["sheet"]))
        print("%-8s game in progress %6d B (engine state, AI seats and hint adviser, hard endgame table)"
              % ("", r["game"]))
        print("%-8s total %6d B of a 64 KB budget (%.0f%%)" % ("", r["total"], 100.0 * r["total"] / 65536))
        c = r["code"]
        print("%-8s code kept in RAM (MicroPython, from source): engine and AI %d, app at the table %d, "
              "title/sheet/help %d; with the above %d B (a SAMD51 has about 150 KB free; libraries not counted)"
              % ("", c["engine_and_ai"], c["app_at_the_table"], c["title_sheet_help"], r["with_code"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
