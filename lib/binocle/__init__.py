"""Binocle for CircuitPython handhelds: the device app."""

import sys


def forget(*names):
    """Drop modules nobody needs now, so the collector can free their code.

    A SAMD51 keeps the code of every imported module in RAM (about 40 bytes a
    line from source). Screens seen now and then (title, score sheet, help,
    menus) and code used once (how a game begins, reading the saves) are
    forgotten when done; the next import compiles them again.
    """
    for name in names:
        if sys.modules.pop(name, None) is None:
            continue
        dot = name.rfind(".")
        if dot > 0:
            parent = sys.modules.get(name[:dot])
            leaf = name[dot + 1:]
            if parent is not None and hasattr(parent, leaf):
                delattr(parent, leaf)


def forget_since(kept):
    """Forget the game's modules (engine, binocle) not named in kept, a tuple of module names
    taken at start: leaving a game for the title, the heap goes back to a fresh start's. The
    names they interned stay (the board never frees a name), so importing them again costs
    their code only."""
    gone = [n for n in sys.modules if n not in kept and
            (n.startswith("engine") or n.startswith("binocle"))]
    forget(*gone)
