"""Reading the saves back (store.py has the layout): done once when the app starts,
then forgotten, so its code is not kept during play. Also where the saves live:
the board's nvm, or a file standing in for it on the desktop."""

import sys

from engine import record
from binocle.store import (FORMAT_VERSION, KIND_GAME, crc16, newer, _START, _NAMES, _HEAD, _HEAD0,
                           _MAGIC0, _MAGIC1)

# States of a slot: CRC and mark still blank (never finished: ours cut short, or none);
# someone else's bytes; our magic but a bad field or CRC; good; good from a newer version.
_BLANK, _OTHER, _DAMAGED, _GOOD, _NEWER = 0, 1, 2, 3, 4

# Player-facing lines: at most 26 characters each.
_MSG_DAMAGED = "%s damaged:\nnew start."
_MSG_NEWER = "%s: from a newer\nversion, not used."
_MSG_FOREIGN = "%s: unknown data\nfound; new start."


def load_game(store):
    """(record bytes, None), (None, None) when there is no game, or (None, message)."""
    data, msg = load_blob(store, KIND_GAME)
    if not data:
        return None, msg
    try:
        record.read_header(data)
    except record.RecordError:
        # A good CRC but no record this engine reads: a newer engine wrote it.
        pattern = _MSG_NEWER if data[0] > record.FORMAT_VERSION else _MSG_DAMAGED
        return None, pattern % _NAMES[KIND_GAME]
    return data, None


def load_blob(store, kind):
    """(payload bytes, None), (None, None) on a fresh board, or (None, message).
    Notes in the store which slot holds the newest copy (the next save takes the other)."""
    size = store.slot_size(kind)
    area = store.nvm[_START[kind]:_START[kind] + 2 * size]
    best = None                     # (state, seq, start, stop) of the newest good copy
    worst = _BLANK                  # the worst state short of good
    for s in range(2):
        got = _check(area, s * size, (s + 1) * size, kind)
        if got[0] >= _GOOD and (best is None or newer(got[1], best[1])):
            best = got
            store.last[kind] = (s, got[1])
        elif got[0] < _GOOD:
            worst = max(worst, got[0])
    if best is None:
        store.last[kind] = (-1, 0)
        if worst == _BLANK:
            return None, None
        return None, (_MSG_DAMAGED if worst == _DAMAGED else _MSG_FOREIGN) % _NAMES[kind]
    if best[0] == _NEWER:
        return None, _MSG_NEWER % _NAMES[kind]
    return bytes(area[best[2]:best[3]]), None


def _check(area, first, end, kind):
    """(state, seq, payload start, payload end) of the slot area[first:end]."""
    if area[end - 5] != _MAGIC0 or area[end - 4] != _MAGIC1:
        b = area[end - 1]
        if (b == 0 or b == 0xFF) and area[end - 2] == b and area[end - 3] == b:
            return _BLANK, 0, 0, 0
        return _OTHER, 0, 0, 0
    ver = area[end - 6]
    head = _HEAD if ver else _HEAD0
    seq = area[end - head] | area[end - head + 1] << 8
    start = end - head - (area[end - head + 2] | area[end - head + 3] << 8)
    if start < first or area[end - 1] != seq & 0xFF or (ver and area[end - 7] != kind):
        return _DAMAGED, 0, 0, 0
    if crc16(area, start, end - 3) != area[end - 3] | area[end - 2] << 8:
        return _DAMAGED, 0, 0, 0
    return (_NEWER if ver > FORMAT_VERSION else _GOOD), seq, start, end - head


class FileNvm:
    """A file standing in for microcontroller.nvm on the desktop: a fixed-size byte array
    whose every assignment reaches the file at once, as on the board."""

    def __init__(self, path, size=8192):
        self.path = path
        self.size = size
        try:
            with open(path, "rb") as f:
                have = len(f.read())
        except OSError:
            have = 0
        with open(path, "ab") as f:             # a new or short file reads as blank flash
            f.write(b"\xff" * max(0, size - have))

    def __len__(self):
        return self.size

    def _span(self, key):
        if not isinstance(key, slice):
            key = key + self.size if key < 0 else key
            if not 0 <= key < self.size:
                raise IndexError("nvm index out of range")
            return key, key + 1
        start, stop, step = key.indices(self.size)
        if step != 1:
            raise ValueError("nvm slices take no step")
        return start, max(start, stop)

    def __getitem__(self, key):
        start, stop = self._span(key)
        with open(self.path, "rb") as f:
            f.seek(start)
            data = bytearray(f.read(stop - start))
        return data if isinstance(key, slice) else data[0]

    def __setitem__(self, key, value):
        start, stop = self._span(key)
        if not isinstance(key, slice):
            value = bytes((value,))
        if len(value) != stop - start:
            raise ValueError("nvm slices keep their length")
        with open(self.path, "r+b") as f:
            f.seek(start)
            f.write(value)


def open_nvm(path_for_desktop=None, size=8192):
    """microcontroller.nvm on a board; else a FileNvm at the path, else RAM (lost at exit)."""
    nvm = None
    if sys.implementation.name != "cpython":   # Blinka's desktop module has no nvm
        try:
            import microcontroller
            nvm = getattr(microcontroller, "nvm", None)
        except ImportError:
            pass
    if nvm is not None:
        return nvm
    if path_for_desktop:
        return FileNvm(path_for_desktop, size)
    return bytearray(b"\xff" * size)
