"""Stand-in for CircuitPython's microcontroller module (see _hw.py): Pin, RunMode,
on_next_reset(), reset(), delay_us() and nvm."""

import _hw
from nvm import ByteArray


class Pin(_hw.Native):
    """An IO pin; only the board module makes them (board.D0, board.BUTTON_OUT, ...)."""

    def __init__(self, *args, **kw):
        raise _hw.refuse(TypeError("cannot create 'Pin' instances"))

    def __repr__(self):
        return "board." + self._name


class RunMode(_hw.Native):
    def __init__(self, *args, **kw):
        raise _hw.refuse(TypeError("cannot create 'RunMode' instances"))

    def __repr__(self):
        return "microcontroller.RunMode." + self._name


def _mode(name):
    m = object.__new__(RunMode)
    m._keep("_name", name)
    return m


RunMode.NORMAL = _mode("NORMAL")
RunMode.SAFE_MODE = _mode("SAFE_MODE")
RunMode.UF2 = _mode("UF2")
RunMode.BOOTLOADER = _mode("BOOTLOADER")
_next = [RunMode.NORMAL]


def on_next_reset(run_mode):
    if not isinstance(run_mode, RunMode):
        raise _hw.refuse(TypeError("run_mode must be of type RunMode, not %s" % type(run_mode).__name__))
    _next[0] = run_mode


def reset():
    """On a board this never returns: it restarts in the mode on_next_reset() chose. Here
    the mode is noted in _hw.resets and the call returns."""
    _hw.resets.append(_next[0])
    _next[0] = RunMode.NORMAL


def delay_us(delay):
    _hw.check_int(delay, "delay")


nvm = object.__new__(ByteArray)
