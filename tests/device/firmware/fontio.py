"""Stand-in for CircuitPython's fontio module (see _hw.py): BuiltinFont (the type of
terminalio.FONT, made only by the firmware) and Glyph."""

import _hw


class BuiltinFont(_hw.Native):
    def __init__(self, *args, **kw):
        raise _hw.refuse(TypeError("cannot create 'BuiltinFont' instances"))

    def get_bounding_box(self):
        return (self._w, self._h)

    def get_glyph(self, codepoint):
        c = _hw.check_int(codepoint, "codepoint")
        if 0x20 <= c <= 0x7E:
            index = c - 0x20
        else:
            index = -1
            for k in range(len(self._extra)):
                if ord(self._extra[k]) == c:
                    index = 0x7F - 0x20 + k
            if index < 0:
                return None
        return Glyph(self.bitmap, index, self._w, self._h, 0, 0, self._w, 0)


class Glyph(_hw.Native):
    def __init__(self, bitmap, tile_index, width, height, dx, dy, shift_x, shift_y):
        self._keep("bitmap", bitmap)
        self._keep("tile_index", tile_index)
        self._keep("width", width)
        self._keep("height", height)
        self._keep("dx", dx)
        self._keep("dy", dy)
        self._keep("shift_x", shift_x)
        self._keep("shift_y", shift_y)


import sys as _sys
if _sys.implementation.name == "cpython":
    # The desktop's typing names for a library's annotations (adafruit_display_text imports it
    # after `typing`, which CircuitPython lacks: there neither import runs).
    FontProtocol = BuiltinFont
