"""Stand-in for CircuitPython's bitmaptools module (see _hw.py): readinto() only, which the
image loader uses when the firmware has it (the PyBadge's does). It writes each pixel
through the Bitmap stand-in, so a pixel beyond the bitmap's value_count is refused."""

import _hw


def readinto(bitmap, file, bits_per_pixel, element_size=1, reverse_pixels_in_element=False,
             swap_bytes_in_element=False, reverse_rows=False):
    from displayio import Bitmap
    if not isinstance(bitmap, Bitmap):
        raise _hw.refuse(TypeError("bitmap must be of type Bitmap, not %s" % type(bitmap).__name__))
    bpp = _hw.check_int(bits_per_pixel, "bits_per_pixel")
    size = _hw.check_int(element_size, "element_size")
    if size not in (1, 2, 4):
        raise _hw.refuse(ValueError("invalid element_size %d, must be, 1, 2, or 4" % size))
    if bpp not in (1, 2, 4, 8, 16, 24, 32) or (bpp == 24 and size != 1):
        raise _hw.refuse(ValueError("invalid element size %d for bits_per_pixel %d" % (size, bpp)))
    w, h = bitmap.width, bitmap.height
    per_row = (w * bpp + size * 8 - 1) // (size * 8) * size
    mask = (1 << bitmap.bits_per_value) - 1
    for y in range(h):
        row = file.read(per_row)
        if len(row) != per_row:
            raise EOFError()
        if swap_bytes_in_element and size > 1:
            row = _swap(row, size)
        y_draw = h - 1 - y if reverse_rows else y
        for x in range(w):
            bitmap[x, y_draw] = _pixel(row, x, bpp, reverse_pixels_in_element) & mask


def _swap(row, size):
    out = bytearray(len(row))
    for i in range(0, len(row), size):
        for j in range(size):
            out[i + j] = row[i + size - 1 - j]
    return out


def _pixel(row, x, bpp, msb_first):
    if bpp < 8:
        per = 8 // bpp
        shift = bpp * ((per - 1 - x % per) if msb_first else x % per)
        return (row[x // per] >> shift) & ((1 << bpp) - 1)
    n = bpp // 8
    v = 0
    for j in range(n - 1, -1, -1):            # little-endian, as the board reads memory
        v = v << 8 | row[x * n + j]
    return v
