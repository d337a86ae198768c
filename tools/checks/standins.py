"""Put the firmware stand-ins of tests/device/firmware in place of CircuitPython's own modules
for one test or one walk of the screens (tools/checks/walk.py), and take them away after, so
the other tests see what they saw before.

    hw = standins.install("pybadge")     # the board switched on; import the app after this
    ...
    standins.remove()

install() puts the folder first on sys.path and forgets the modules that bind to the
firmware (the stand-ins themselves, the app's `binocle`, the image loader), so the next
import takes the stand-ins; remove() forgets them again and gives back the modules and the
sys.path from before. Runs under CPython, MicroPython and CircuitPython.

While the stand-ins are in, the app's own gc.collect() calls do nothing: MicroPython's WASI
build (run there with collection off, see run.py) loses objects that calling frames hold
when it collects, and the app collects from deep inside its frames; elsewhere a collection
only costs time. Where gc has mem_free() it answers a board's free heap at start (DESIGN.md):
counting the WASI run's 1 GB heap says nothing about a board and takes most of a second.
"""

import gc
import sys

FIRMWARE = ("_hw", "displayio", "vectorio", "terminalio", "fontio", "busdisplay", "board", "keypad", "supervisor",
            "microcontroller", "nvm", "analogio", "digitalio", "audioio", "audiocore", "bitmaptools")
# Libraries the bundle ships (tools/users/bundle.py): on a board under lib/, here from the desktop's
# packages (the device suite's MicroPython is given them under lib/ too: tools/checks/device.py).
LIBRARIES = ("adafruit_display_text", "adafruit_ticks")
BOUND = ("binocle",) + LIBRARIES              # modules that keep what they imported from those
# Built into MicroPython and CircuitPython; on the desktop a look-alike the app may import.
BUILT_IN = ("micropython",)

_saved = []         # (name, module) taken out of sys.modules by install()
_paths = []         # sys.path entries install() added
_before = []        # module names present before install()
_gc = []            # the gc module install() stood in for, when it did


class _NoCollect:
    """gc without collect() (see above); the rest is gc's own."""

    def __init__(self, real):
        self._real = real

    def collect(self):
        pass

    def __getattr__(self, name):
        if name == "mem_free" and hasattr(self._real, name):
            return _board_free
        return getattr(self._real, name)


def _board_free():
    return 150 * 1024


def folder():
    """tests/device/firmware, from the root this file's tools/checks/ lies in (the repository,
    or a bundle with the device suite: tools/checks/device.py)."""
    here = __file__.replace("\\", "/")
    cut = here.rfind("tools/checks/")
    return (here[:cut] if cut >= 0 else "") + "tests/device/firmware"


def _bound(name):
    for prefix in FIRMWARE + BOUND:
        if name == prefix or name.startswith(prefix + "."):
            return True
    return False


def _forget():
    for name in list(sys.modules):
        if _bound(name):
            del sys.modules[name]


def install(board):
    """Switch on a board made of stand-ins; returns the _hw module that drives it."""
    if _paths:
        remove()
    del _before[:]
    for name in list(sys.modules):
        _before.append(name)
        if _bound(name):
            _saved.append((name, sys.modules[name]))
    _forget()
    sys.path.insert(0, folder())
    _paths.append(folder())
    _gc.append(sys.modules.get("gc"))
    sys.modules["gc"] = _NoCollect(gc)
    import _hw
    _hw.start(board)
    return _hw


def active():
    """True when the stand-ins are what `import displayio` gives. On a CircuitPython with the
    firmware's own modules built in, those come first: the stand-ins cannot stand in there."""
    import displayio
    return (getattr(displayio, "__file__", "") or "").replace("\\", "/").startswith(folder())


def foreign():
    """Modules imported since install() from a desktop library folder: something the app
    needs that the stand-ins lack, found among the desktop's look-alikes (Blinka's board,
    vectorio, ...). Should be empty."""
    out = []
    for name in list(sys.modules):
        if name in _before or name in BUILT_IN or name.split(".")[0] in LIBRARIES:
            continue
        path = getattr(sys.modules[name], "__file__", "") or ""
        if "site-packages" in path or "dist-packages" in path:
            out.append(name)
    return out


def remove():
    """Forget the stand-ins and what used them; give back the modules and path of before.
    A second call does nothing."""
    if not _paths:
        return
    _forget()
    for name, module in _saved:
        sys.modules[name] = module
    del _saved[:]
    for path in _paths:
        if path in sys.path:
            sys.path.remove(path)
    del _paths[:]
    if _gc:
        if _gc[0] is None:
            del sys.modules["gc"]
        else:
            sys.modules["gc"] = _gc[0]
        del _gc[:]
