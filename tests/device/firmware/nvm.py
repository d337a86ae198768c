"""Stand-in for CircuitPython's nvm module (see _hw.py): ByteArray, the type of
microcontroller.nvm, over _hw.nvm (8 KB, blank 0xFF when the board starts)."""

import _hw


def _span(key, n):
    """(start, stop) of an int or a slice over n bytes; only steps of 1."""
    if isinstance(key, slice):
        if key.step is not None and key.step != 1:
            raise _hw.refuse(NotImplementedError("only slices with step=1 (aka None) are supported"))
        start = 0 if key.start is None else key.start
        stop = n if key.stop is None else key.stop
        if start < 0:
            start += n
        if stop < 0:
            stop += n
        start = min(max(start, 0), n)
        return start, min(max(stop, start), n)
    i = _hw.check_int(key, "index")
    if i < 0:
        i += n
    if not 0 <= i < n:
        raise _hw.refuse(IndexError("bytearray index out of range"))
    return i, i + 1


class ByteArray(_hw.Native):
    def __init__(self, *args, **kw):
        raise _hw.refuse(TypeError("cannot create 'ByteArray' instances: use microcontroller.nvm"))

    def __len__(self):
        return len(_hw.nvm)

    def __bool__(self):
        return True

    def __getitem__(self, key):
        start, stop = _span(key, len(_hw.nvm))
        if isinstance(key, slice):
            return bytearray(b ^ _hw.NVM_FLIP for b in _hw.nvm[start:stop])
        return _hw.nvm[start] ^ _hw.NVM_FLIP

    def __setitem__(self, key, value):
        start, stop = _span(key, len(_hw.nvm))
        if not isinstance(key, slice):
            _hw.nvm[start] = _hw.check_int(value, "value", 0, 255) ^ _hw.NVM_FLIP
            return
        if not isinstance(value, (bytes, bytearray, memoryview)):
            raise _hw.refuse(NotImplementedError("array/bytes required on right side"))
        if len(value) != stop - start:
            raise _hw.refuse(ValueError("Slice and value different lengths."))
        _hw.nvm[start:stop] = bytes(b ^ _hw.NVM_FLIP for b in value)
