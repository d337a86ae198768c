"""Stand-in for CircuitPython's digitalio module (see _hw.py): DigitalInOut, Direction, Pull,
DriveMode. An output keeps the value written; an input reads its pull."""

import _hw


class _Enum(_hw.Native):
    def __init__(self, *args, **kw):
        raise _hw.refuse(TypeError("cannot create '%s' instances" % type(self).__name__))

    def __repr__(self):
        return "digitalio.%s.%s" % (type(self).__name__, self._name)


class Direction(_Enum):
    pass


class Pull(_Enum):
    pass


class DriveMode(_Enum):
    pass


def _member(cls, name):
    m = object.__new__(cls)
    m._keep("_name", name)
    setattr(cls, name, m)


for _c, _names in ((Direction, ("INPUT", "OUTPUT")), (Pull, ("UP", "DOWN")),
                   (DriveMode, ("PUSH_PULL", "OPEN_DRAIN"))):
    for _n in _names:
        _member(_c, _n)


class DigitalInOut(_hw.Native):
    _WRITABLE = ("direction", "value", "pull", "drive_mode")

    def __init__(self, pin):
        self._keep("_pin", _hw.claim(pin, "pin"))
        self._keep("direction", Direction.INPUT)
        self._keep("pull", None)
        self._keep("drive_mode", None)
        self._keep("value", False)

    def _check(self, name, value):
        if self._pin is None:
            raise _hw.refuse(ValueError("Object has been deinitialized and can no longer be used."))
        out = self.direction is Direction.OUTPUT
        if name == "direction":
            if not isinstance(value, Direction):
                raise _hw.refuse(ValueError("Invalid direction"))
            self._keep("drive_mode", DriveMode.PUSH_PULL if value is Direction.OUTPUT else None)
            self._keep("pull", None)
            return value
        if name == "value":
            if not out:
                raise _hw.refuse(AttributeError("Cannot set value when direction is input."))
            return bool(value)
        if name == "pull":
            if out:
                raise _hw.refuse(AttributeError("Pull not used when direction is output."))
            if value is not None and not isinstance(value, Pull):
                raise _hw.refuse(ValueError("Invalid pull"))
            return value
        if not out:
            raise _hw.refuse(AttributeError("Drive mode not used when direction is input."))
        if not isinstance(value, DriveMode):
            raise _hw.refuse(ValueError("Invalid drive_mode"))
        return value

    def switch_to_output(self, value=False, drive_mode=DriveMode.PUSH_PULL):
        self.direction = Direction.OUTPUT
        self.drive_mode = drive_mode
        self.value = value

    def switch_to_input(self, pull=None):
        self.direction = Direction.INPUT
        self.pull = pull

    def deinit(self):
        if self._pin is not None:
            _hw.release(self._pin)
            self._keep("_pin", None)

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.deinit()
