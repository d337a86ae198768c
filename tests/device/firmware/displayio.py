"""Stand-in for CircuitPython's displayio module (see _hw.py): Bitmap, Palette, TileGrid,
Group, OnDiskBitmap, ColorConverter, Colorspace, CIRCUITPYTHON_TERMINAL. Since CircuitPython 9
the display classes live in busdisplay, fourwire, ...: not here; nor release_displays (the
game never lets the board's display go).

Constructors take exactly the firmware's arguments (Bitmap's three positionally only,
TileGrid's and Group's options by keyword only). Stricter than the firmware in two places,
both bugs on a board too: a Bitmap value must be below its value_count (the firmware takes
anything its bits per value hold, and the palette has no colour for it), and a TileGrid's
default_tile must be a tile of its bitmap (the firmware keeps whatever byte it is given)."""

import _hw

_int = _hw.check_int
# A Bitmap's values and a TileGrid's tiles are kept with this bit flipped. On a board they are
# the firmware's, out of reach of the collector's guesses; here they are bytes in the measured
# heap, and four small values in a row would read as the address of a block there
# (tools/lab/uimem.py), keeping garbage alive. Flipped, no word of them falls inside that heap.
_FLIP = 0x80


def _xy(index, width, height, what):
    """(x, y) of an int index or an (x, y) tuple; IndexError outside."""
    if isinstance(index, slice):
        raise _hw.refuse(NotImplementedError("Slices not supported"))
    if isinstance(index, tuple):
        if len(index) != 2:
            raise _hw.refuse(ValueError("tuple/list has wrong length"))
        x, y = _int(index[0], "x"), _int(index[1], "y")
    else:
        i = _int(index, "index")
        if i < 0 or i >= width * height:
            raise _hw.refuse(IndexError("%s index out of bounds" % what))
        x, y = i % width, i // width
    if not (0 <= x < width and 0 <= y < height):
        raise _hw.refuse(IndexError("%s index out of bounds" % what))
    return x, y


class Colorspace(_hw.Native):
    def __init__(self, *args, **kw):
        raise _hw.refuse(TypeError("cannot create 'Colorspace' instances"))


for _name in ("RGB888", "RGB565", "RGB565_SWAPPED", "RGB555", "RGB555_SWAPPED", "BGR565",
              "BGR565_SWAPPED", "BGR555", "BGR555_SWAPPED", "L8"):
    _c = object.__new__(Colorspace)
    _c._keep("_name", _name)
    setattr(Colorspace, _name, _c)


class Bitmap(_hw.Native):
    def __init__(self, *args, **kw):
        _hw.no_keywords(kw, "Bitmap")
        if len(args) != 3:
            raise _hw.refuse(TypeError("function takes 3 positional arguments but %d were given" % len(args)))
        width = _int(args[0], "width", 0, 32767)
        height = _int(args[1], "height", 0, 32767)
        count = _int(args[2], "value_count", 1, 65536)
        bits = 1
        while (count - 1) >> bits:
            bits = bits * 2 if bits < 8 else bits + 8
        self._keep("width", width)
        self._keep("height", height)
        self._keep("bits_per_value", bits)
        self._keep("_count", count)
        self._keep("_v", bytearray(bytes([_FLIP]) * (width * height)) if bits <= 8 else [_FLIP] * (width * height))

    def __getitem__(self, index):
        if type(index) is int and 0 <= index < len(self._v):
            return self._v[index] ^ _FLIP
        x, y = _xy(index, self.width, self.height, "Bitmap")
        return self._v[y * self.width + x] ^ _FLIP

    def __setitem__(self, index, value):
        if type(index) is int and 0 <= index < len(self._v):
            self._v[index] = self._value(value) ^ _FLIP
            return
        x, y = _xy(index, self.width, self.height, "Bitmap")
        self._v[y * self.width + x] = self._value(value) ^ _FLIP

    def _value(self, value):
        return _int(value, "value", 0, self._count - 1)

    def fill(self, value):
        v = self._value(value) ^ _FLIP
        for i in range(len(self._v)):
            self._v[i] = v

    def dirty(self, x1=0, y1=0, x2=-1, y2=-1):
        for v in (x1, y1, x2, y2):
            _int(v, "x1/y1/x2/y2")

    def deinit(self):
        pass


class Palette(_hw.Native):
    _WRITABLE = ("dither",)

    def __init__(self, color_count, *, dither=False):
        n = _int(color_count, "color_count", 1, 32767)
        self._keep("dither", bool(dither))
        self._keep("_colors", [0] * n)
        self._keep("_clear", bytearray(n))

    def _check(self, name, value):
        return bool(value)

    def __len__(self):
        return len(self._colors)

    def __bool__(self):
        return True

    def _index(self, i, name="index"):
        if isinstance(i, slice):
            raise _hw.refuse(NotImplementedError("Slices not supported"))
        i = _int(i, name)
        n = len(self._colors)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise _hw.refuse(IndexError("Palette index out of range"))
        return i

    def __getitem__(self, index):
        return self._colors[self._index(index)]

    def __setitem__(self, index, value):
        i = self._index(index)
        if isinstance(value, (bytes, bytearray)):
            if len(value) not in (3, 4):
                raise _hw.refuse(ValueError("color buffer must be 3 bytes (RGB) or 4 bytes (RGB + pad byte)"))
            value = value[0] << 16 | value[1] << 8 | value[2]
        elif isinstance(value, (tuple, list)):
            if len(value) != 3:
                raise _hw.refuse(ValueError("color must be 3 values"))
            value = _int(value[0], "r", 0, 255) << 16 | _int(value[1], "g", 0, 255) << 8 | _int(value[2], "b", 0, 255)
        elif isinstance(value, int) and not isinstance(value, bool):
            if not 0 <= value <= 0xFFFFFF:
                raise _hw.refuse(TypeError("color must be between 0x000000 and 0xffffff"))
        else:
            raise _hw.refuse(TypeError("color buffer must be a buffer, tuple, list, or int"))
        self._colors[i] = value

    def make_transparent(self, palette_index):
        self._clear[self._palette_index(palette_index)] = 1

    def make_opaque(self, palette_index):
        self._clear[self._palette_index(palette_index)] = 0

    def is_transparent(self, palette_index):
        return self._clear[self._palette_index(palette_index)] == 1

    def _palette_index(self, i):
        return _int(i, "palette_index", 0, len(self._colors) - 1)


class ColorConverter(_hw.Native):
    _WRITABLE = ("dither",)

    def __init__(self, *, input_colorspace=None, dither=False):
        if input_colorspace is not None and not isinstance(input_colorspace, Colorspace):
            raise _hw.refuse(TypeError("input_colorspace must be a Colorspace"))
        self._keep("dither", bool(dither))
        self._keep("_clear", None)

    def _check(self, name, value):
        return bool(value)

    def convert(self, color):
        return _int(color, "color")

    def make_transparent(self, color):
        if self._clear is not None:
            raise _hw.refuse(RuntimeError("Only one color can be transparent at a time"))
        self._keep("_clear", _int(color, "color"))

    def make_opaque(self, color):
        self._keep("_clear", None)


class OnDiskBitmap(_hw.Native):
    """A BMP read from the drive a row at a time: width, height and pixel_shader (its
    palette, or a ColorConverter for true colour)."""

    def __init__(self, file):
        # Given a path, the firmware opens the file and keeps it open (_sizes.py counts it).
        self._keep("_opened", isinstance(file, str))
        if isinstance(file, str):
            with open(file, "rb") as f:
                head = f.read(54)
                self._read(f, head)
        else:
            head = file.read(54)
            self._read(file, head)

    def _read(self, f, head):
        if len(head) < 54 or head[0:2] != b"BM":
            raise _hw.refuse(ValueError("Invalid BMP file"))
        self._keep("width", _le(head, 18))
        self._keep("height", _le(head, 22))
        depth = head[28] | head[29] << 8
        colors = _le(head, 46) or (1 << depth if depth <= 8 else 0)
        if not colors:
            self._keep("pixel_shader", ColorConverter())
            return
        p = Palette(colors)
        f.seek(14 + _le(head, 14))
        for i in range(colors):
            c = f.read(4)
            p[i] = c[2] << 16 | c[1] << 8 | c[0]
        self._keep("pixel_shader", p)


def _le(b, at):
    return b[at] | b[at + 1] << 8 | b[at + 2] << 16 | b[at + 3] << 24


def _is_shader(p):
    return isinstance(p, (Palette, ColorConverter))


class TileGrid(_hw.Native):
    _WRITABLE = ("hidden", "x", "y", "flip_x", "flip_y", "transpose_xy", "pixel_shader", "bitmap")

    def __init__(self, bitmap, *, pixel_shader, width=1, height=1, tile_width=0, tile_height=0,
                 default_tile=0, x=0, y=0):
        if not isinstance(bitmap, (Bitmap, OnDiskBitmap)):
            raise _hw.refuse(TypeError("unsupported bitmap type"))
        if not _is_shader(pixel_shader):
            raise _hw.refuse(TypeError("unsupported pixel_shader type"))
        tw = _int(tile_width, "tile_width", 0, 65535) or bitmap.width
        th = _int(tile_height, "tile_height", 0, 65535) or bitmap.height
        if bitmap.width % tw:
            raise _hw.refuse(ValueError("Tile width must exactly divide bitmap width"))
        if bitmap.height % th:
            raise _hw.refuse(ValueError("Tile height must exactly divide bitmap height"))
        tiles = (bitmap.width // tw) * (bitmap.height // th)
        w = _int(width, "width", 1, 65535)
        h = _int(height, "height", 1, 65535)
        default_tile = _int(default_tile, "default_tile", 0, tiles - 1)
        self._keep("bitmap", bitmap)
        self._keep("pixel_shader", pixel_shader)
        self._keep("width", w)
        self._keep("height", h)
        self._keep("tile_width", tw)
        self._keep("tile_height", th)
        self._keep("x", _int(x, "x", -32768, 32767))
        self._keep("y", _int(y, "y", -32768, 32767))
        self._keep("hidden", False)
        self._keep("flip_x", False)
        self._keep("flip_y", False)
        self._keep("transpose_xy", False)
        self._keep("_tiles", tiles)
        t = bytearray(w * h) if tiles <= 256 else [0] * (w * h)
        for i in range(w * h):
            t[i] = default_tile ^ _FLIP
        self._keep("_t", t)
        self._keep("_in_group", False)

    def _check(self, name, value):
        if name in ("x", "y"):
            return _int(value, name, -32768, 32767)
        if name == "pixel_shader":
            if not _is_shader(value):
                raise _hw.refuse(TypeError("unsupported pixel_shader type"))
            return value
        if name == "bitmap":
            if not isinstance(value, (Bitmap, OnDiskBitmap)):
                raise _hw.refuse(TypeError("unsupported bitmap type"))
            if (value.width, value.height) != (self.bitmap.width, self.bitmap.height):
                raise _hw.refuse(ValueError("New bitmap must be same size as old bitmap"))
            return value
        return bool(value)

    def contains(self, touch_tuple):
        x, y = touch_tuple[0], touch_tuple[1]
        return (self.x <= x < self.x + self.width * self.tile_width
                and self.y <= y < self.y + self.height * self.tile_height)

    def __getitem__(self, index):
        if type(index) is int and 0 <= index < len(self._t):
            return self._t[index] ^ _FLIP
        x, y = _xy(index, self.width, self.height, "Tile")
        return self._t[y * self.width + x] ^ _FLIP

    def __setitem__(self, index, value):
        if not (type(index) is int and 0 <= index < len(self._t)):
            x, y = _xy(index, self.width, self.height, "Tile")
            index = y * self.width + x
        self._t[index] = _int(value, "tile", 0, self._tiles - 1) ^ _FLIP


def _layer(layer):
    if not isinstance(layer, (Group, TileGrid)) and not _is_shape(layer):
        raise _hw.refuse(ValueError("Layer must be a Group or TileGrid subclass"))
    if layer._in_group:
        raise _hw.refuse(ValueError("Layer already in a group"))
    return layer


def _is_shape(layer):
    """A vectorio shape (the module is the firmware's too, so only when it was imported)."""
    import sys
    shapes = sys.modules.get("vectorio")
    return shapes is not None and isinstance(layer, shapes.Rectangle)


class Group(_hw.Native):
    _WRITABLE = ("hidden", "scale", "x", "y")

    def __init__(self, *, scale=1, x=0, y=0):
        self._keep("scale", _int(scale, "scale", 1, 32767))
        self._keep("x", _int(x, "x", -32768, 32767))
        self._keep("y", _int(y, "y", -32768, 32767))
        self._keep("hidden", False)
        self._keep("_layers", [])
        self._keep("_in_group", False)

    def __setattr__(self, name, value):
        # A Python subclass (a library's Label) keeps attributes of its own, as
        # on the board; the Group's own are the firmware's.
        if type(self) is not Group and ((name not in Group._WRITABLE and not hasattr(Group, name))
                                        or isinstance(getattr(type(self), name, None), property)):
            object.__setattr__(self, name, value)
        else:
            _hw.Native.__setattr__(self, name, value)

    def _check(self, name, value):
        if name == "scale":
            return _int(value, "scale", 1, 32767)
        if name in ("x", "y"):
            return _int(value, name, -32768, 32767)
        return bool(value)

    def _i(self, index):
        if isinstance(index, slice):
            raise _hw.refuse(NotImplementedError("Slices not supported"))
        i = _int(index, "index")
        n = len(self._layers)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise _hw.refuse(IndexError("Group index out of range"))
        return i

    def append(self, layer):
        self._layers.append(_layer(layer))
        layer._keep("_in_group", True)

    def insert(self, index, layer):
        self._layers.insert(_int(index, "index"), _layer(layer))
        layer._keep("_in_group", True)

    def index(self, layer):
        for i in range(len(self._layers)):
            if self._layers[i] is layer:
                return i
        raise _hw.refuse(ValueError("object not in sequence"))

    def pop(self, i=-1):
        layer = self._layers.pop(self._i(i))
        layer._keep("_in_group", False)
        return layer

    def remove(self, layer):
        self.pop(self.index(layer))

    def sort(self, key=None, reverse=False):
        self._layers.sort(key=key, reverse=reverse)

    def __bool__(self):
        return len(self._layers) > 0

    def __len__(self):
        return len(self._layers)

    def __contains__(self, item):
        for layer in self._layers:
            if layer is item:
                return True
        return False

    def __iter__(self):
        return iter(list(self._layers))

    def __getitem__(self, index):
        return self._layers[self._i(index)]

    def __setitem__(self, index, layer):
        i = self._i(index)
        old = self._layers[i]
        if layer is not old:
            _layer(layer)
            old._keep("_in_group", False)
            self._layers[i] = layer
            layer._keep("_in_group", True)

    def __delitem__(self, index):
        self.pop(index)


CIRCUITPYTHON_TERMINAL = Group()
