"""The board's nvm (microcontroller.nvm): a backup copy of settings and statistics, and
all the saves of the versions before the journal (store.py); the desktop's stand-in.

    NvmStore(nvm).load_blob(KIND_STATS)       # (bytes, None), (None, None) or (None, line)
    write_backup(nvm, settings, stats)        # one assignment: one erase on a board

The nvm's layout (N = 8192 on SAMD51 and ESP32-S3, 4096 on RP2040): three regions of two
slots. A save goes to the slot that does not hold the newest good copy:

    offset  0          settings   slot 0      64 bytes
            64         settings   slot 1
            128        statistics slot 0     320 bytes
            448        statistics slot 1
            768        game       slot 0     G = (N - 768) // 2 bytes
            768 + G    game       slot 1     (written by older versions; cleared once
                                              the journal has taken their game)

A slot keeps its payload right-aligned against an 11-byte header at its very end:

    +-----------+-------------+-----+-----+----+---+-------+-----+----+
    | not used  | payload     | seq | len |kind|ver| magic | crc |mark|
    +-----------+-------------+-----+-----+----+---+-------+-----+----+
                  len bytes      2     2    1    1    2      2    1

    seq    16-bit little-endian, wrapping: a is newer than b when (a - b) mod 2**16
           lies in 1..32767. Its low byte is never 0x00 or 0xFF (blank memory).
    kind   1 game, 2 settings, 3 statistics: must match the region
    ver    1 (0: the first test builds, a 10-byte header without kind)
    magic  0xB1 0x0C
    crc    CRC-16/CCITT-FALSE of the payload and the header bytes before it
    mark   seq's low byte again, written last

Written a byte at a time (a file on the desktop), a cut loses only the slot being
written. On a board one assignment erases all of the nvm and writes it again, so a cut
can blank it: hence the journal, and only a backup here. A fresh board (0xFF, or 0x00 as
the ESP32-S3 reads a missing blob) gives no save and no message; bytes we cannot read
give a short message and a fresh start.
"""

import sys

from engine import record
from engine.rules import ROWS, OPTIONS
from binocle.store import crc16

KIND_GAME = 1
KIND_SETTINGS = 2
KIND_STATS = 3
FORMAT = 1

_HEAD = 11                          # header bytes from version 1 on
_HEAD0 = 10                         # version 0: no kind byte
_MAGIC0 = 0xB1
_MAGIC1 = 0x0C
_BLOBS = 768                        # the settings and statistics regions together
_MIN_GAME_SLOT = 512                # so at least 1792 bytes of nvm
_START = (0, _BLOBS, 0, 128)        # per kind: region start
_SLOT = (0, 0, 64, 320)             # per kind: slot size (the game's depends on N)
NAMES = ("", "Saved game", "Settings", "Statistics")

# States of a slot: CRC and mark still blank (never finished: ours cut short, or none);
# someone else's bytes; our magic but a bad field or CRC; good; good from a newer version.
_BLANK, _OTHER, _DAMAGED, _GOOD, _NEWER = 0, 1, 2, 3, 4

# Player-facing lines: at most 26 characters each.
MSG_DAMAGED = "%s damaged:\nnew start."
MSG_NEWER = "%s: from a newer\nversion, not used."
MSG_FOREIGN = "%s: unknown data\nfound; new start."


def write_backup(nvm, settings, stats):
    """Settings and statistics into the nvm, in one assignment (one erase on a board)."""
    return NvmStore(nvm).save_pair(settings, stats)


def clear_nvm_game(nvm):
    """Forget an older version's game in the nvm, once the journal holds it."""
    return NvmStore(nvm).clear_game()


def check_record(data):
    """None if the engine can replay these record bytes, else the line to show."""
    what = NAMES[KIND_GAME]
    if len(data) < record.HEADER_SIZE:
        return MSG_DAMAGED % what
    if data[0] != record.FORMAT_VERSION:
        return (MSG_NEWER if data[0] > record.FORMAT_VERSION else MSG_DAMAGED) % what
    if data[1] >= len(ROWS) or data[2] & ~ROWS[data[1]][OPTIONS]:
        return MSG_NEWER % what          # a good CRC: a newer engine wrote it (a rule set or option bit)
    try:
        record.read_header(data)
    except record.RecordError:
        return MSG_DAMAGED % what
    return None


def newer(a, b):
    """True if sequence number a comes after b (serial-number arithmetic, 16 bits)."""
    d = (a - b) & 0xFFFF
    return 0 < d < 0x8000


def next_seq(seq):
    seq = (seq + 1) & 0xFFFF
    while (seq & 0xFF) == 0 or (seq & 0xFF) == 0xFF:
        seq = (seq + 1) & 0xFFFF
    return seq


class NvmStore:
    """The nvm's slots (layout above): read them, and write a region's next copy."""

    def __init__(self, nvm):
        self.nvm = nvm
        game = (len(nvm) - _BLOBS) // 2
        if game < _MIN_GAME_SLOT:
            raise ValueError("nvm of %d bytes is too small for the saves" % len(nvm))
        self._slot = (0, game) + _SLOT[2:]
        self.last = [None, None, None, None]    # per kind: (slot, seq) of the newest copy

    def slot_size(self, kind):
        return self._slot[kind]

    def capacity(self, kind=KIND_GAME):
        """The longest payload a slot of this kind holds (its size less the header)."""
        return self._slot[kind] - _HEAD

    def load_game(self):
        """(record bytes, None), (None, None) when there is no game, or (None, message)."""
        data, msg = self.load_blob(KIND_GAME)
        if not data:
            return None, msg
        msg = check_record(data)
        return (None, msg) if msg else (data, None)

    def load_blob(self, kind):
        """(payload bytes, None), (None, None) on a fresh board, or (None, message).
        Notes which slot holds the newest copy (the next save takes the other)."""
        size = self._slot[kind]
        area = self.nvm[_START[kind]:_START[kind] + 2 * size]
        best = None                 # (state, seq, start, stop) of the newest good copy
        worst = _BLANK              # the worst state short of good
        for s in range(2):
            got = _check(area, s * size, (s + 1) * size, kind)
            if got[0] >= _GOOD and (best is None or newer(got[1], best[1])):
                best = got
                self.last[kind] = (s, got[1])
            elif got[0] < _GOOD:
                worst = max(worst, got[0])
        if best is None:
            self.last[kind] = (-1, 0)
            if worst == _BLANK:
                return None, None
            return None, (MSG_DAMAGED if worst == _DAMAGED else MSG_FOREIGN) % NAMES[kind]
        if best[0] == _NEWER:
            return None, MSG_NEWER % NAMES[kind]
        return bytes(area[best[2]:best[3]]), None

    def save_game(self, data):
        return self.save_blob(KIND_GAME, data)

    def clear_game(self):
        """Forget the game: a newer, empty copy, so a cut leaves the old game or none."""
        return self.save_blob(KIND_GAME, b"")

    def save_blob(self, kind, data):
        """Keep data as the kind's newest copy; False (nothing changed) if it does not fit."""
        at = self._next(kind, data)
        if at is None:
            return False
        end, image = at
        self.nvm[end - len(image):end] = image     # one assignment: one erase
        return True

    def save_pair(self, settings, stats):
        """Settings and statistics in one assignment of the first 768 bytes."""
        one = self._next(KIND_SETTINGS, settings)
        two = self._next(KIND_STATS, stats)
        if one is None or two is None:
            return False
        area = bytearray(self.nvm[0:_BLOBS])
        for end, image in (one, two):
            area[end - len(image):end] = image
        self.nvm[0:_BLOBS] = area
        return True

    def _next(self, kind, data):
        """(end, bytes) of data's copy in the slot after the newest; None if too long."""
        n = len(data)
        if n > self.capacity(kind):
            return None
        if self.last[kind] is None:
            self.load_blob(kind)                # find which slot holds the newest copy
        slot, seq = self.last[kind]
        slot = 0 if slot < 0 else 1 - slot
        seq = next_seq(seq)
        image = bytearray(n + _HEAD)
        image[0:n] = data
        head = (seq & 0xFF, seq >> 8, n & 0xFF, n >> 8, kind, FORMAT, _MAGIC0, _MAGIC1)
        for i in range(8):
            image[n + i] = head[i]
        crc = crc16(image, 0, n + 8)
        image[n + 8] = crc & 0xFF
        image[n + 9] = crc >> 8
        image[n + 10] = seq & 0xFF
        self.last[kind] = (slot, seq)
        return _START[kind] + (slot + 1) * self._slot[kind], image


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
    return (_NEWER if ver > FORMAT else _GOOD), seq, start, end - head


class FileNvm:
    """A file standing in for microcontroller.nvm on the desktop: a fixed-size byte array
    whose every assignment reaches the file at once, as on the board. Its journal is the
    file of the same name with .sav added, standing in for the drive's."""

    def __init__(self, path, size=8192):
        self.path = path
        self.size = size
        self.journal = path + ".sav"
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
