"""Stand-in for CircuitPython's busdisplay module (see _hw.py): BusDisplay, the type of
board.DISPLAY. The board's own display holds its only display slot, as on the PyBadge,
PyGamer and Feather: making another is refused ("Too many displays")."""

import _hw


class BusDisplay(_hw.Native):
    _WRITABLE = ("root_group", "auto_refresh", "brightness", "rotation")

    def __init__(self, *args, **kw):
        raise _hw.refuse(RuntimeError("Too many displays"))

    def _check(self, name, value):
        if name == "root_group":
            from displayio import Group
            if value is not None and not isinstance(value, Group):
                raise _hw.refuse(TypeError("root_group must be of type Group, not %s" % type(value).__name__))
            if value is not None and value is not self.root_group and value._in_group:
                raise _hw.refuse(ValueError("Group already used"))
            if self.root_group is not None:
                self.root_group._keep("_in_group", False)
            if value is not None:
                value._keep("_in_group", True)
            return value
        if name == "brightness":
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value <= 1:
                raise _hw.refuse(ValueError("brightness must be 0-1"))
            return value
        if name == "rotation":
            if _hw.check_int(value, "rotation") % 90:
                raise _hw.refuse(ValueError("Display rotation must be in 90 degree increments"))
            return value
        return bool(value)

    def refresh(self, *, target_frames_per_second=None, minimum_frames_per_second=0):
        self._keep("_refreshes", self._refreshes + 1)
        return True


def _builtin(width, height):
    """The board's display, as the firmware makes it at start."""
    d = object.__new__(BusDisplay)
    d._keep("width", width)
    d._keep("height", height)
    d._keep("bus", None)
    d._keep("root_group", None)
    d._keep("auto_refresh", True)
    d._keep("brightness", 1.0)
    d._keep("rotation", 0)
    d._keep("_refreshes", 0)
    return d
