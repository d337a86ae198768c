"""python -m tools ui-memory: the stand-ins' sizes, names that stay, and a measured session.

The guests here run under MicroPython's WASI build as the tool's does: a small main() collects
only between the steps of a generator (that build's collector loses what a running Python
frame alone holds)."""

import ast
import json
import os
import shutil
import tempfile

from tools import mpy
from tools.lab import uimem


def guest_main():
    """The guest's main loop, as tools/lab/uimem_guest.py has it: PLAN and main(), which runs
    plan() and collects between its steps."""
    with open(uimem.GUEST_FILE) as f:
        text = f.read()
    parts = []
    for node in ast.parse(text).body:
        if (isinstance(node, ast.Assign) and [getattr(n, "id", "") for n in node.targets] == ["PLAN"]
                or isinstance(node, ast.FunctionDef) and node.name == "main"):
            parts.append(ast.get_source_segment(text, node))
    assert len(parts) == 2, parts
    return "\n\n\n".join(parts) + "\n"


# The end of every guest module here: collection off, then the guest's main loop. It is called
# from a script of two lines (RUN): only small frames are on the stack when it collects. (The
# tool's run script, uimem.GUEST_RUN, turns collection off before it imports its guest: with
# that script, the module _FORGET forgets keeps 5.1 of its 6.7 KB in this layout of the heap.)
RUN = "import guest\nguest.main()\n"


def run_guest(source):
    """Run a guest module (source, collection off, the guest's main loop) under MicroPython
    from the repository root; its output lines."""
    work = tempfile.mkdtemp(prefix="uimem-guest-")
    try:
        with open(os.path.join(work, "guest.py"), "w") as f:
            f.write(source + "\nimport gc\ngc.disable()\n\n" + guest_main())
        with open(os.path.join(work, "run.py"), "w") as f:
            f.write("import sys\nsys.path.insert(0, '.')\nsys.path.append('/t')\n" + RUN)
        out, err = os.path.join(work, "out"), os.path.join(work, "err")
        status = mpy.run("/t/run.py", heap="8m", stdout=out, stderr=err, dirs=((work, "/t"),))
        with open(out) as f:
            text = f.read()
        with open(err) as f:
            assert status == 0, f.read()
        return text.splitlines()
    finally:
        shutil.rmtree(work, ignore_errors=True)


# Each kind of object made 16 times after the stand-ins' shells are measured; the heap they
# take here, less what the stand-ins take, plus what the firmware's would, per object.
_SIZES = """
import sys
sys.path.insert(0, "tests/device/firmware")
import gc
import _hw
_hw.start("pybadge")
import board, displayio, terminalio, vectorio, _sizes

FONT = terminalio.FONT.bitmap
SHEET = "assets/cards.bmp"
KINDS = (
    ("Group()", lambda: displayio.Group()),
    ("Group(x, y, scale)", lambda: displayio.Group(x=3, y=4, scale=2)),
    ("TileGrid, 1 tile", lambda: displayio.TileGrid(FONT, pixel_shader=INK[0], tile_width=6, tile_height=12)),
    ("TileGrid, 4 tiles", lambda: displayio.TileGrid(FONT, pixel_shader=INK[0], width=4, tile_width=6,
                                                     tile_height=12)),
    ("TileGrid, 26 tiles", lambda: displayio.TileGrid(FONT, pixel_shader=INK[0], width=26,
                                                      tile_width=6, tile_height=12)),
    ("Palette(1)", lambda: displayio.Palette(1)),
    ("Palette(16)", lambda: displayio.Palette(16)),
    ("Bitmap(3, 4, 2)", lambda: displayio.Bitmap(3, 4, 2)),
    ("Bitmap(76, 51, 2)", lambda: displayio.Bitmap(76, 51, 2)),
    ("Bitmap(160, 140, 16)", lambda: displayio.Bitmap(160, 140, 16)),
    ("Rectangle", lambda: vectorio.Rectangle(pixel_shader=INK[0], width=5, height=7)),
    ("OnDiskBitmap(path)", lambda: displayio.OnDiskBitmap(SHEET)),
)
INK = [None]
HOLD = [None] * 16


def fill(make):
    for i in range(16):
        HOLD[i] = make()


def firmware(n):
    # (firmware bytes, stand-in bytes) of the objects made: an OnDiskBitmap with its Palette
    real = own = 0
    for i in range(n):
        o = HOLD[i]
        for part in ((o, o.pixel_shader) if type(o) is displayio.OnDiskBitmap else (o,)):
            real += _sizes.firmware_bytes(part)
            own += _sizes.stand_in_bytes(part)
    return real, own


def drop():
    for i in range(16):
        HOLD[i] = None


def plan():
    yield from _sizes.calibrate(board, SHEET)
    INK[0] = displayio.Palette(2)
    k = 0
    while k < len(KINDS):
        yield 1
        before = gc.mem_alloc()
        fill(KINDS[k][1])
        yield 1
        took = gc.mem_alloc() - before
        real, own = firmware(16)
        print("%s|%d" % (KINDS[k][0], (took - own + real) // 16))
        drop()
        k += 1
    yield 2
"""


def sizes():
    return dict((line.split("|")[0], int(line.split("|")[1])) for line in run_guest(_SIZES) if "|" in line)


def test_the_stand_ins_count_as_the_firmwares_objects_under_micropython():
    got = sizes()
    # CircuitPython 10 on a SAMD51, as tests/device/firmware/_sizes.py documents them
    want = {"Group()": 80, "Group(x, y, scale)": 80,
            "TileGrid, 1 tile": 96, "TileGrid, 4 tiles": 96, "TileGrid, 26 tiles": 128,
            "Palette(1)": 32, "Palette(16)": 272,
            "Bitmap(3, 4, 2)": 64, "Bitmap(76, 51, 2)": 48 + 624, "Bitmap(160, 140, 16)": 48 + 11200,
            "Rectangle": 96,
            "OnDiskBitmap(path)": 48 + 96 + 48 + 272}      # its open file, seek map, Palette(16)
    for name, n in want.items():
        assert abs(got[name] - n) <= 1, (name, got[name], n)


_FORGET = """
import sys, gc, micropython
sys.path.append("lib")
import binocle
import engine.rules     # the engine stays loaded (a game has it): measure only what is forgotten

A = [0, 0, 0]
NAMES = [0, 0]


def names():
    micropython.qstr_info()


def plan():
    yield 1
    A[0] = gc.mem_alloc()
    __import__("binocle.stats")
    yield 1
    A[1] = gc.mem_alloc()
    print("names loaded")
    names()
    binocle.forget("binocle.stats", "binocle.settings", "no.such.module")
    yield 1
    A[2] = gc.mem_alloc()
    print("names forgotten")
    names()
    print("|%d|%d|%s|%s" % (A[1] - A[0], A[2] - A[0], "stats" in dir(binocle), "binocle.stats" in sys.modules))
    yield 2
"""


def test_a_forgotten_module_gives_its_code_back_and_keeps_its_names():
    lines = run_guest(_FORGET)
    loaded, left, attr, listed = lines[-1].split("|")[1:]
    assert attr == "False" and listed == "False"
    assert int(left) < int(loaded) // 2, lines           # the code went
    pools = [line for line in lines if line.startswith("qstr pool")]
    assert pools[0] == pools[1]                          # every name it interned stays


def test_the_board_keeps_names_in_tables_that_double():
    assert uimem.board_names_bytes(0) == 0
    assert uimem.board_names_bytes(20) == 144             # 24 + 20 * 6
    assert uimem.board_names_bytes(21) == 144 + 272       # then 40 entries: 264 -> 272
    assert uimem.board_names_bytes(1100) == 144 + 272 + 512 + 992 + 1952 + 3872


def test_each_moment_is_the_median_of_the_sessions():
    """A moment as measured in the session giving its median: an outlier of one session (the
    collector keeping a dead block) does not reach the figures."""
    a = {("title", 0): (100, "title", {}), ("peak 1", 1): (900, "action 3", {"x": 1})}
    b = {("title", 0): (104, "title", {}), ("peak 1", 1): (5000, "action 9", {"x": 2})}
    c = {("title", 0): (96, "title", {}), ("peak 1", 1): (905, "action 3", {"x": 3})}
    m = uimem.median_moments([a, b, c])
    assert m == {("title", 0): (100, "title", {}), ("peak 1", 1): (905, "action 3", {"x": 3})}
    assert uimem.median_moments([a]) == a


def test_a_session_is_measured_moment_by_moment():
    work = tempfile.mkdtemp(prefix="uimem-test-")
    try:
        found = uimem.measure(uimem.ROOT, ("binokel",), work, kinds=("mpy",))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    r = found["binokel"]["mpy"]
    assert r["notes"] == []
    rows = dict(((row["moment"], row["deal"]), row) for row in r["rows"])
    keys = [(key, deal) for key, _run, _label, deal in uimem.ROWS if (key, deal) in rows]
    assert [(row["moment"], row["deal"]) for row in r["rows"]] == keys      # in the order met
    for key in (("title", 0), ("peak 1", 1), ("score sheet at the deal's end", 1),
                ("rules help (pause menu)", 2), ("saved game resumed", 0), ("statistics", 0),
                ("continued after the statistics", 0), ("peak again", 0)):
        assert key in rows, key
    kb = dict((k, row["bytes"] / 1024.0) for k, row in rows.items())
    assert 30 < kb[("title", 0)] < 100
    assert kb[("title", 0)] + 30 < kb[("peak 1", 1)] < 200                   # the engine, the AI, a deal
    assert abs(kb[("title after the restart", 0)] - kb[("title", 0)]) < 2     # the same start
    # a game left for the title is let go: its names and its record stay, not its code
    assert kb[("title after leaving the game", 0)] < kb[("title", 0)] + 8
    assert kb[("statistics", 0)] + 20 < kb[("peak 1", 1)]
    assert r["live_peak"] == max(row["bytes"] for row in r["rows"])
    assert r["margin_kb"] == uimem.MARGIN_KB["mpy"][1]        # binokel's margin, not two-hand's
    assert r["pool_kb"] == round(r["live_peak"] / 1024.0 + r["margin_kb"], 1)
    title = rows[("title", 0)]["parts"]
    assert 0 < title["displayio"] < title["displayio_standins"]            # the stand-ins weigh more
    assert title["names"] > 300 and title["name_tables"] > 0
    for row in r["rows"]:
        assert row["bytes"] > 0 and os.path.sep not in row["label"]


def test_the_guest_is_its_file_with_the_drives_names(tmp_path):
    drive = tmp_path / "drive"
    with open(str(drive) + ".names.json", "w") as f:
        json.dump({"RULE_SETS": "BuiltinFont", "RULES": "isupper"}, f)
    uimem.write_guest(str(tmp_path), str(drive))
    with open(uimem.GUEST_FILE) as f:
        source = f.read()
    guest = (tmp_path / "guest.py").read_text()
    assert (tmp_path / "run.py").read_text() == uimem.GUEST_RUN
    # the file, line by line, but for its code's names the drive renamed (its comments and
    # strings as they are); the rule set's id is the app's registry's (engine/rules.py)
    changed = [(a, b) for a, b in zip(source.splitlines(), guest.splitlines()) if a != b]
    assert len(guest.splitlines()) == len(source.splitlines())
    assert changed == [
        ("RULES = sys.argv[1]", "isupper = sys.argv[1]"),
        ("    return rules.RULE_SETS.index(RULES)", "    return rules.BuiltinFont.index(isupper)"),
        ('                                                   sys.modules["engine.rules"].RULE_SETS'
         '[setting("rules_id")]))',
         '                                                   sys.modules["engine.rules"].BuiltinFont'
         '[setting("rules_id")]))')]
    from tools.users import names
    assert (tmp_path / "flash-names.txt").read_text() == " ".join(names.firmware_names())


def test_more_sessions_than_the_measuring_micropython_takes_are_refused_in_one_line(capsys):
    assert uimem.main(["--runs", "7"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ui-memory: --runs: at most 6 (") and err.count("\n") == 1


def test_a_run_must_end_on_the_rule_set_asked_for():
    assert uimem.played_rules("M|title|0|1|2|3|4\nE|9000 frames, 0 refusals, rules binokel\n") == "binokel"
    assert uimem.played_rules("M|title|0|1|2|3|4\n") is None
    assert uimem.played_rules("E|9000 frames, 0 refusals\n") is None


def test_the_guests_own_names_stay_apart_from_the_names_the_game_is_given():
    # the drive renamed the game's `frames` to S; the guest has its own S and a stand-in's
    # method mem_free that the app calls by that name
    guest = ("S = {}\n"
             "class Gc:\n"
             "    def mem_free(self):\n"
             "        return 0\n"
             "def frames(n):\n"
             "    S['n'] = n\n"
             "    return app.frames\n")
    mapping = {"frames": "S", "scene": "mem_free"}
    got = uimem.guest_mapping(guest, mapping)
    assert got == {"frames": "S", "scene": "mem_free", "S": "guest_S"}
    from tools.users import names
    text = names.apply(guest, got)
    assert "guest_S = {}" in text and "def S(n):" in text and "guest_S['n'] = n" in text
    assert "def mem_free(self):" in text and "return app.S" in text
