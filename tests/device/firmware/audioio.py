"""Stand-in for CircuitPython's audioio module (see _hw.py): AudioOut. What it plays is
noted in _hw.played as (sample rate, loop)."""

import _hw
from audiocore import RawSample


class AudioOut(_hw.Native):
    def __init__(self, left_channel, *, right_channel=None, quiescent_value=0x8000):
        _hw.claim(left_channel, "left_channel")
        if right_channel is not None:
            if right_channel is left_channel:
                raise _hw.refuse(ValueError("left_channel and right_channel must be different"))
            _hw.claim(right_channel, "right_channel")
        self._keep("_pins", (left_channel, right_channel))
        self._keep("_quiet", _hw.check_int(quiescent_value, "quiescent_value", 0, 0xFFFF))
        self._keep("playing", False)
        self._keep("paused", False)

    def play(self, sample, *, loop=False):
        if not isinstance(sample, RawSample):
            raise _hw.refuse(TypeError("sample must be an audio sample, not %s" % type(sample).__name__))
        _hw.played.append((sample.sample_rate, bool(loop)))
        self._keep("playing", True)

    def stop(self):
        self._keep("playing", False)
        self._keep("paused", False)

    def pause(self):
        if not self.playing:
            raise _hw.refuse(RuntimeError("Not playing"))
        self._keep("paused", True)

    def resume(self):
        self._keep("paused", False)

    def deinit(self):
        for p in self._pins:
            if p is not None:
                _hw.release(p)

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.deinit()
