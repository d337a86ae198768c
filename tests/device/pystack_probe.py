"""The Python frame stack in use whenever the app calls the firmware, on every screen: the
measurement that tools/checks/pystack.py's model is checked against.

    micropython tests/device/pystack_probe.py [board_id ...]    (from the repository root)

Runs the screen walk of tools/checks/walk.py (each board of its PROFILES, or those named) with
every function and method of the firmware stand-ins wrapped: each call first prints one line,
"<stand-in> <bytes>", the bytes being micropython.pystack_use() there (on a CircuitPython built
with MICROPY_ENABLE_PYSTACK and a pystack large enough for the suite's frames as well as the
app's). `python -m tools pystack --calibrate FILE` runs the same walk under CPython, where
tools/checks/pystack.py's model sets `use`, and compares the two line by line. Not a test module:
tests/device/run.py does not run it.
"""

import sys

if "." not in sys.path:
    sys.path.insert(0, ".")
if "lib" not in sys.path:
    sys.path.append("lib")

try:
    from micropython import pystack_use as use
except ImportError:
    pass                                 # tools/checks/pystack.py gives the model's `use`

from tools.checks import standins, walk

# Called for these too, but by the suite's own bookkeeping, or as Python calls them.
SKIP = ("_hw",)
METHODS = ("__init__", "__getitem__", "__setitem__", "__len__", "__contains__")
_done = []                               # the classes wrapped since install()


def note(name):
    print(name, use())


def wrapped(name, f):
    def stand_in(*args, **kw):
        note(name)
        return f(*args, **kw)
    return stand_in


def wrap_class(prefix, cls):
    if cls in _done:
        return
    _done.append(cls)
    for key in list(cls.__dict__):
        f = cls.__dict__[key]
        if type(f) is type(note) and (not key.startswith("_") or key in METHODS):
            setattr(cls, key, wrapped(prefix + key, f))


def wrap(module_name):
    module = sys.modules[module_name]
    for key in list(module.__dict__):
        value = module.__dict__[key]
        if key.startswith("_"):
            continue
        if type(value) is type(note):
            setattr(module, key, wrapped(module_name + "." + key, value))
        elif isinstance(value, type) and value.__name__ == key:
            wrap_class(module_name + "." + key + ".", value)


def install(board):
    """standins.install, then every stand-in imported and wrapped before the app sees it."""
    hw = plain_install(board)
    del _done[:]
    for name in standins.FIRMWARE:
        if name not in SKIP:
            __import__(name)
            wrap(name)
    return hw


plain_install = standins.install


def marked(variant):
    def step(walk, label, *args):
        print("variant", walk.rules, label)
        return variant(walk, label, *args)
    return step


def main(boards):
    walk.Walk.variant = marked(walk.Walk.variant)
    standins.install = install
    try:
        for board_id, name in walk.PROFILES:
            if not boards or board_id in boards:
                print("board", board_id)
                walk.walk_board(board_id, name)
    finally:
        standins.install = plain_install


main(sys.argv[1:])
