"""Saves that survive a power cut: the game in progress, settings and statistics, kept
in the board's non-volatile memory (microcontroller.nvm) as two copies of each.

    store = Store(open_nvm("nvm.bin"))          # the file only where there is no board
    data, message = store.load_game()           # a record to replay, or a line to show
    if not store.save_game(record.encode(state)):
        show(MSG_TOO_LONG)

The area of N bytes (8192 on SAMD51 and ESP32-S3, 4096 on RP2040) holds three regions
of two slots. A save goes to the slot that does not hold the newest good copy, so the
newest copy is never the one being overwritten:

    offset  0          settings   slot 0      64 bytes
            64         settings   slot 1
            128        statistics slot 0     320 bytes
            448        statistics slot 1
            768        game       slot 0     G = (N - 768) // 2 bytes:
            768 + G    game       slot 1         3712 (8 KB), 1664 (4 KB)

A slot keeps its payload right-aligned against an 11-byte header at its very end, so
that one assignment (one flash erase on the board) writes payload first, header last:

    slot start                                               slot end
    +-----------+-------------+-----+-----+----+---+-------+-----+----+
    | not used  | payload     | seq | len |kind|ver| magic | crc |mark|
    +-----------+-------------+-----+-----+----+---+-------+-----+----+
                  len bytes      2     2    1    1    2      2    1

    seq    16-bit little-endian, wrapping: a is newer than b when (a - b) mod 2**16
           lies in 1..32767. Its low byte is never 0x00 or 0xFF (blank memory).
    len    payload bytes, little-endian
    kind   1 game, 2 settings, 3 statistics: must match the region
    ver    FORMAT_VERSION. Later versions keep all 11 header bytes where they are,
           so the CRC of a newer save can still be checked.
    magic  0xB1 0x0C
    crc    CRC-16/CCITT-FALSE of the payload and the header bytes before it
    mark   seq's low byte again, written last. The slot being overwritten holds the
           copy from two saves back (or blank memory), whose mark differs from the
           new seq's low byte, so a header cut short never reads as good. A cut in
           the payload leaves that slot's old header, older than the other slot's
           copy, which loading takes. A cut at any byte loses only the save in progress.

Format version 0 (the first test builds) had no kind byte: a 10-byte header
seq len ver magic crc mark, the kind implied by the region. It is read as it
stands; the next save of that region writes version 1 into the other slot.

A fresh board (0xFF, or 0x00 as ESP32-S3 reads a missing blob) gives no save and no
message, as does a first save cut before its magic: a region counts as blank while the
CRC and mark places of both slots are blank. Data we cannot read gives no save and a
short message for the player. (On the board each nvm assignment rewrites the flash
block holding the area, or ESP32-S3's whole NVS blob: a cut then can blank it all.)
"""

import sys

from engine import record

FORMAT_VERSION = 1
KIND_GAME = 1
KIND_SETTINGS = 2
KIND_STATS = 3

_HEAD = 11                          # header bytes from version 1 on
_HEAD0 = 10                         # version 0: no kind byte
_MAGIC0 = 0xB1
_MAGIC1 = 0x0C
_BLOBS = 768                        # the settings and statistics regions together
_MIN_GAME_SLOT = 512                # so at least 1792 bytes of nvm: less holds no real game

# Per kind (index): region start and slot size; the game's depends on the area size.
_START = (0, _BLOBS, 0, 128)
_SLOT = (0, 0, 64, 320)
_NAMES = ("", "Saved game", "Settings", "Statistics")

# States of a slot: CRC and mark still blank (never finished: ours cut short, or none);
# someone else's bytes; our magic but a bad field or CRC; good; good from a newer version.
_BLANK, _OTHER, _DAMAGED, _GOOD, _NEWER = 0, 1, 2, 3, 4

# Player-facing lines: at most 26 characters each.
_MSG_DAMAGED = "%s damaged:\nnew start."
_MSG_NEWER = "%s: from a newer\nversion, not used."
_MSG_FOREIGN = "%s: unknown data\nfound; new start."
MSG_TOO_LONG = "Game too long to keep:\nit goes on unsaved."


def _crc_table():
    t = [0] * 256
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) & 0xFFFF if c & 0x8000 else (c << 1) & 0xFFFF
        t[i] = c
    return t


_TABLE = _crc_table()


def crc16(data, start=0, end=-1, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of data[start:end], without slicing.

    Every value stays below 2**24, a small int on every board."""
    if end < 0:
        end = len(data)
    t = _TABLE
    for i in range(start, end):
        crc = ((crc << 8) & 0xFFFF) ^ t[(crc >> 8) ^ data[i]]
    return crc


def newer(a, b):
    """True if sequence number a comes after b (serial-number arithmetic, 16 bits)."""
    d = (a - b) & 0xFFFF
    return 0 < d < 0x8000


def next_seq(seq):
    seq = (seq + 1) & 0xFFFF
    while (seq & 0xFF) == 0 or (seq & 0xFF) == 0xFF:
        seq = (seq + 1) & 0xFFFF
    return seq


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


class Store:
    def __init__(self, nvm):
        self.nvm = nvm
        game = (len(nvm) - _BLOBS) // 2
        if game < _MIN_GAME_SLOT:
            raise ValueError("nvm of %d bytes is too small for the saves" % len(nvm))
        self._slot = (0, game) + _SLOT[2:]
        self._last = [None, None, None, None]   # per kind: (slot, seq) of the newest copy
        self._buf = bytearray(0)                # reused for game saves: no garbage per action

    def capacity(self, kind=KIND_GAME):
        """The longest payload a slot of this kind holds (its size less the header)."""
        return self._slot[kind] - _HEAD

    # -- the game in progress ---------------------------------------------------------

    def save_game(self, data):
        """Keep a game record; False (and nothing changed) if it does not fit:
        then show MSG_TOO_LONG. The last record that fitted stays loadable."""
        return self._write(KIND_GAME, data)

    def load_game(self):
        """(record bytes, None), (None, None) when there is no game, or (None, message)."""
        data, msg = self.load_blob(KIND_GAME)
        if not data:
            return None, msg
        try:
            record.read_header(data)
        except record.RecordError:
            # A good CRC but no record this engine reads: a newer engine wrote it.
            pattern = _MSG_NEWER if data[0] > record.FORMAT_VERSION else _MSG_DAMAGED
            return None, pattern % _NAMES[KIND_GAME]
        return data, None

    def clear_game(self):
        """Forget the game: a newer, empty copy, so a cut leaves the old game or none."""
        return self._write(KIND_GAME, b"")

    # -- settings, statistics ---------------------------------------------------------

    def save_blob(self, kind, data):
        return self._write(kind, data)

    def load_blob(self, kind):
        """(payload bytes, None), (None, None) on a fresh board, or (None, message)."""
        size = self._slot[kind]
        area = self.nvm[_START[kind]:_START[kind] + 2 * size]
        best = None                     # (state, seq, start, stop) of the newest good copy
        worst = _BLANK                  # the worst state short of good
        for s in range(2):
            got = self._check(area, s * size, (s + 1) * size, kind)
            if got[0] >= _GOOD and (best is None or newer(got[1], best[1])):
                best = got
                self._last[kind] = (s, got[1])
            elif got[0] < _GOOD:
                worst = max(worst, got[0])
        if best is None:
            self._last[kind] = (-1, 0)
            if worst == _BLANK:
                return None, None
            return None, (_MSG_DAMAGED if worst == _DAMAGED else _MSG_FOREIGN) % _NAMES[kind]
        if best[0] == _NEWER:
            return None, _MSG_NEWER % _NAMES[kind]
        return bytes(area[best[2]:best[3]]), None

    # -- slots --------------------------------------------------------------------------

    def _check(self, area, first, end, kind):
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

    def _write(self, kind, data):
        n = len(data)
        if n > self.capacity(kind):
            return False
        if self._last[kind] is None:
            self.load_blob(kind)                # find which slot holds the newest copy
        slot, seq = self._last[kind]
        slot = 0 if slot < 0 else 1 - slot
        seq = next_seq(seq)
        total = n + _HEAD
        buf = self._buf
        if len(buf) < total:
            buf = bytearray((total + 255) & ~255)   # grows in steps, then is reused
            if kind == KIND_GAME:
                self._buf = buf
        buf[0:n] = data
        for i, b in enumerate((seq & 0xFF, seq >> 8, n & 0xFF, n >> 8, kind, FORMAT_VERSION,
                               _MAGIC0, _MAGIC1)):
            buf[n + i] = b
        crc = crc16(buf, 0, n + 8)
        buf[n + 8] = crc & 0xFF
        buf[n + 9] = crc >> 8
        buf[n + 10] = seq & 0xFF
        end = _START[kind] + (slot + 1) * self._slot[kind]
        self.nvm[end - total:end] = memoryview(buf)[0:total]   # one assignment: one erase
        self._last[kind] = (slot, seq)
        return True

