"""Stand-in for CircuitPython's vectorio module (see _hw.py): Rectangle, the one shape the
game draws. Every board the game knows has vectorio (only SAMD21 builds leave it out).

Keyword-only arguments as the firmware's: pixel_shader, width, height, x, y, color_index;
a width or height below 1 is refused."""

import _hw

_int = _hw.check_int


class Rectangle(_hw.Native):
    _WRITABLE = ("hidden", "x", "y", "width", "height", "color_index", "pixel_shader", "location")

    def __init__(self, *, pixel_shader, width, height, x=0, y=0, color_index=0):
        import displayio
        if not isinstance(pixel_shader, (displayio.Palette, displayio.ColorConverter)):
            raise _hw.refuse(TypeError("unsupported pixel_shader type"))
        self._keep("pixel_shader", pixel_shader)
        self._keep("width", _int(width, "width", 1, 32767))
        self._keep("height", _int(height, "height", 1, 32767))
        self._keep("x", _int(x, "x", -32768, 32767))
        self._keep("y", _int(y, "y", -32768, 32767))
        self._keep("color_index", _int(color_index, "color_index", 0, 65535))
        self._keep("hidden", False)
        self._keep("_in_group", False)

    def _check(self, name, value):
        if name in ("width", "height"):
            return _int(value, name, 1, 32767)
        if name in ("x", "y"):
            return _int(value, name, -32768, 32767)
        if name == "color_index":
            return _int(value, name, 0, 65535)
        if name == "pixel_shader":
            import displayio
            if not isinstance(value, (displayio.Palette, displayio.ColorConverter)):
                raise _hw.refuse(TypeError("unsupported pixel_shader type"))
            return value
        if name == "location":
            object.__setattr__(self, "x", _int(value[0], "x", -32768, 32767))
            object.__setattr__(self, "y", _int(value[1], "y", -32768, 32767))
            return (self.x, self.y)
        return bool(value)
