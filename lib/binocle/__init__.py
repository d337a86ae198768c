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
