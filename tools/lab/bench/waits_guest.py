# Waits as a player meets them, in the guest: tools/lab/bench/waits.py writes this module out; its
# run script calls setup(), before(), boot(), then step() until it says done, then finish(), and collects
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
    from tools.lab.bench import calibrate
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
    from tools.lab.bench import calibrate, common       # noqa: F401  (finish() reads common)
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
    if G["app"].settings.rules_name() != rules:
        yield from to_line("rules")
        while G["app"].settings.rules_name() != rules:
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
    from tools.lab.bench import calibrate
    from tools.lab.bench.common import implementation
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
