"""Stand-in for CircuitPython's audiocore module (see _hw.py): RawSample only."""

import array

import _hw


class RawSample(_hw.Native):
    _WRITABLE = ("sample_rate",)

    def __init__(self, buffer, *, channel_count=1, sample_rate=8000, single_buffer=True):
        if not isinstance(buffer, (bytearray, bytes, array.array)):
            raise _hw.refuse(ValueError("buffer must be a bytearray or array of type 'h', 'H', 'b', or 'B'"))
        self._keep("_buffer", buffer)
        self._keep("_channels", _hw.check_int(channel_count, "channel_count", 1, 2))
        self._keep("sample_rate", _hw.check_int(sample_rate, "sample_rate", 1))
        self._keep("_single", bool(single_buffer))

    def _check(self, name, value):
        return _hw.check_int(value, "sample_rate", 1)

    def deinit(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *args):
        pass
