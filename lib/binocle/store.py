"""Saves that survive a power cut: the game in progress, settings and statistics, kept
in the board's non-volatile memory (microcontroller.nvm) as two copies of each.

    store = Store(saveload.open_nvm("nvm.bin")) # the file only where there is no board
    data, message = store.load_game()           # a record to replay, or a line to show
                                                # (reading is in saveload.py, used at start)
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

# Player-facing lines: at most 26 characters each.
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


class Store:
    def __init__(self, nvm):
        self.nvm = nvm
        game = (len(nvm) - _BLOBS) // 2
        if game < _MIN_GAME_SLOT:
            raise ValueError("nvm of %d bytes is too small for the saves" % len(nvm))
        self._slot = (0, game) + _SLOT[2:]
        self.last = [None, None, None, None]    # per kind: (slot, seq) of the newest copy
        self._buf = bytearray(0)                # reused for game saves: no garbage per action

    def slot_size(self, kind):
        return self._slot[kind]

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
        from binocle import saveload
        return saveload.load_game(self)

    def clear_game(self):
        """Forget the game: a newer, empty copy, so a cut leaves the old game or none."""
        return self._write(KIND_GAME, b"")

    # -- settings, statistics ---------------------------------------------------------

    def save_blob(self, kind, data):
        return self._write(kind, data)

    def load_blob(self, kind):
        """(payload bytes, None), (None, None) on a fresh board, or (None, message)."""
        from binocle import saveload
        return saveload.load_blob(self, kind)

    # -- slots --------------------------------------------------------------------------

    def _write(self, kind, data):
        n = len(data)
        if n > self.capacity(kind):
            return False
        if self.last[kind] is None:
            self.load_blob(kind)                # find which slot holds the newest copy
        slot, seq = self.last[kind]
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
        self.last[kind] = (slot, seq)
        return True

