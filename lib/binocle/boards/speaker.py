"""Short beeps on the PyBadge's and PyGamer's speaker (board.SPEAKER, enabled by
board.SPEAKER_ENABLE): one period of a square wave looped for a few milliseconds.
A board whose speaker cannot be set up stays silent; the game never stops for it."""

import array
import time

_LEN = 16                     # samples in one period of the wave
_audio = None
_wave = None


def _setup():
    global _audio, _wave
    import audiocore
    import audioio
    import board
    import digitalio
    enable = digitalio.DigitalInOut(board.SPEAKER_ENABLE)
    enable.switch_to_output(value=True)
    _wave = array.array("H", [0xB000] * (_LEN // 2) + [0x5000] * (_LEN // 2))
    _audio = (audioio.AudioOut(board.SPEAKER), audiocore, enable)


def tone(freq, ms):
    """Play freq Hz for ms milliseconds (blocking: keep ms small)."""
    global _audio
    if _audio is False:
        return
    try:
        if _audio is None:
            _setup()
        out, audiocore, _enable = _audio
        sample = audiocore.RawSample(_wave, sample_rate=freq * _LEN)
        out.play(sample, loop=True)
        time.sleep(ms / 1000)
        out.stop()
    except Exception:           # no speaker after all: silence from now on
        _audio = False
