# The game as code.py starts it on a PyBadge, CircuitPython's own modules standing in
# (tests/device/firmware), played through the moments of a session; the heap is printed at
# each. The guest of tools/lab/uimem.py (python -m tools ui-memory), which writes it out, its
# names renamed as the drive's (uimem.write_guest), and runs it under MicroPython's WASI
# build with the drive at /, the stand-ins at /firmware and this file (as guest.py) at /uimem:
#     micropython run.py RULES RUN SEED SHAPE BMP PAD
# RUN 1: a fresh board; 2: the board on again. PAD: unused, its length moves the heap
# (uimem.run_guest). It runs only there: it imports the stand-ins and the drive's modules.
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
    """The other names the board's firmware keeps in flash (those tools/users/names.py gives the
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


def rules_id():
    """RULES's id, as the title's setting holds it: its index in the registry, the app's own
    (engine/rules.py RULE_SETS, loaded with the app's settings)."""
    rules = sys.modules.get("engine.rules")
    if rules is None:
        raise RuntimeError("the title is on and the app has not loaded engine.rules")
    return rules.RULE_SETS.index(RULES)


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
    (tools/lab/uimem.py checked that they are these)."""
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
    yield from cycle("rules", rules_id(), "rules_id")
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
    print("E|%d frames, %d refusals, rules %s" % (S["frames"], len(_hw.refused),
                                                   sys.modules["engine.rules"].RULE_SETS[setting("rules_id")]))
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
