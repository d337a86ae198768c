"""The saves during play: a journal file on the drive, one entry per action.

    j = Journal(f)                              # f: saves/binocle.sav opened "r+b"
    j.save(settings, stats, head, body)         # settings, statistics and the game at once
    j.new_game()                                # the next game is another record

Reading it back, the backup copy of settings and statistics in the board's nvm, and
making the file are in saveload.py, used at start and then forgotten.

Why a file: on every board the whole of microcontroller.nvm is one flash erase unit (the
SAMD51 erases its one 8 KB block and programs it again at every assignment, the RP2040
erases its one 4 KB sector, the ESP32-S3 erases its NVS blob and sets it anew), so a cut
while it is written can blank all of it, and each write wears that one unit. The drive
erases 4 KB sectors: the journal spreads the saves over many of them, so that each sector
takes an erase every C saves, and a cut while any one sector is erased and programmed
again only loses entries newer ones replace.

The file: SIZE bytes in blocks of 512, in groups of 8 (4 KB, the drive's erase sector).
Where the file's blocks fall in the drive's sectors is unknown, so a sector can hold the
end of one group and the start of the next: every group written has, on each side, a group
never written after the file is made (pad) or one holding only journal entries:

    group   0    1       2    3       4    5 ... 5+C-1     5+C
            pad  base 0  pad  base 1  pad  journal (C=56)  pad

Entry s (its sequence number) goes to block i // C of journal group i % C, i = s % 8C:
two entries fewer than C - 1 apart are at least 8 blocks apart, never in one sector, so a
cut while entry s is written, whatever it erases, leaves entries s-1 to s-(C-2) whole. The
other blocks of its sector hold entries C - 1 or more saves older.

Every block:

    0   0xB1 0x0C  magic (a written block never starts with 0xFF)
    2   kind       4 an entry, 5 a part of a base
    3   version    FORMAT; later versions keep these 12 bytes where they are
    4   seq        4 bytes, little-endian, below 2**30 (a small int on every board)
    8   n          payload bytes, little-endian (at most 500)
    10  crc        CRC-16/CCITT-FALSE of bytes 0..9 and of the payload
    12  payload

An entry's payload: the settings bytes and the statistics bytes (each after a 1-byte
length), then the game:

    0                                             no game
    1, the record                                 the whole record (engine/record.py)
    2, base seq (4), base no. (1), base length (2), the tail
                                                  the record is the base and this tail

A record too long for an entry goes into a base: up to 8 parts, each a block of its own
group, payload: part index, parts, base length (2), up to 496 bytes of the record. Its
seq is drawn from the same count as the entries'. A new base goes to the other of the two
groups, and only the entries after it name it: a cut while a base is written leaves the
entries that name the older one. Records are appended to and never rewritten, so a base
stays good for the rest of its game; it is written again when the tail outgrows an entry,
every 270 bytes or so of actions (one to three times in an AI game).

Settings and statistics ride in every entry, with the game they belong to: the statistics
that count a finished deal are saved with the action that finished it, so a cut never
keeps one without the other (stats.py keys the count to the game).
"""

BLOCK = 512
FORMAT = 1
KIND_ENTRY = 4
KIND_BASE = 5
ROOM = BLOCK - 12             # payload bytes in a block
PART = ROOM - 4               # record bytes in a part of a base
PARTS = 8
GROUPS = 56                   # C: journal groups (the wear figures in docs/saves.md follow it)
FIRST = 5                     # the first journal group
BASES = (1, 3)                # the groups of base 0 and base 1
SIZE = (FIRST + GROUPS + 1) * 8 * BLOCK     # 253,952 bytes
PATH = "/saves/binocle.sav"

# Player-facing lines: at most 26 characters each.
MSG_TOO_LONG = "Game too long to keep:\nit goes on unsaved."

# CRC-16/CCITT-FALSE, four bits at a time: a table of 16 values instead of 256.
_NIB = (0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50A5, 0x60C6, 0x70E7,
        0x8108, 0x9129, 0xA14A, 0xB16B, 0xC18C, 0xD1AD, 0xE1CE, 0xF1EF)


def crc16(data, start=0, end=-1, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of data[start:end], without slicing.

    Every value stays below 2**20, a small int on every board."""
    if end < 0:
        end = len(data)
    t = _NIB
    for i in range(start, end):
        b = data[i]
        crc = ((crc << 4) & 0xFFFF) ^ t[(crc >> 12) ^ (b >> 4)]
        crc = ((crc << 4) & 0xFFFF) ^ t[(crc >> 12) ^ (b & 15)]
    return crc


def place(seq):
    """Byte offset in the file of the block holding entry `seq`."""
    i = seq % (8 * GROUPS)
    return ((FIRST + i % GROUPS) * 8 + i // GROUPS) * BLOCK


class Journal:
    def __init__(self, f, seq=0, base=None):
        self.f = f
        self.seq = seq              # the last sequence number used
        self.base = base            # (seq, which, length) of the game's base, or None
        self.buf = bytearray(BLOCK)     # every block is made here: no garbage per save
        self.last = 0               # the record length of the last save
        self.full = 0               # once a record is too long: the length kept

    def new_game(self):
        self.base = None
        self.last = 0
        self.full = 0

    def keep(self, settings, stats, head, saved):
        """save() of the game to continue: None, its record (bytes) or its state."""
        if saved is None:
            return self.save(settings, stats)
        body = memoryview(saved)[7:] if isinstance(saved, bytes) else saved.history
        return self.save(settings, stats, head, body)

    def save(self, settings, stats, head=None, body=b""):
        """One entry: settings, statistics and the game (head: the record's 7 header bytes,
        body: its actions; head None: no game). False when the record is too long: the
        entry then keeps the longest one that fitted (show MSG_TOO_LONG)."""
        p = 14 + len(settings) + len(stats)     # where the game's part starts
        room = BLOCK - p - 8                     # tail bytes after a base reference
        ok = True
        n = 0
        b = None
        if head is not None:
            n = 7 + len(body)
            if self.full:
                n = self.full
                ok = False
            b = self.base
            if b is None or n - b[2] > room:
                if n <= room + 7:
                    b = None                     # the whole record fits in the entry
                elif n - PARTS * PART <= room:
                    b = self._base(head, body, n if n < PARTS * PART else PARTS * PART)
                else:
                    n = self.full = self.last
                    b = self.base
                    ok = False
            if n < 7:
                head = None                      # nothing of it was ever kept
        buf = self.buf
        buf[12] = len(settings)
        buf[13:13 + len(settings)] = settings
        q = 13 + len(settings)
        buf[q] = len(stats)
        buf[q + 1:p] = stats
        if head is None:
            buf[p] = 0
            p += 1
        elif b is None:
            buf[p] = 1
            buf[p + 1:p + 8] = head
            p += 8
            buf[p:p + n - 7] = memoryview(body)[0:n - 7]
            p += n - 7
        else:
            buf[p] = 2
            _le(buf, p + 1, b[0], 4)
            buf[p + 5] = b[1]
            _le(buf, p + 6, b[2], 2)
            p += 8
            buf[p:p + n - b[2]] = memoryview(body)[b[2] - 7:n - 7]
            p += n - b[2]
        self.seq += 1
        self._write(KIND_ENTRY, self.seq, p - 12, place(self.seq))
        self.last = n
        return ok

    def _base(self, head, body, m):
        """Write the first m bytes of the record as a base; its (seq, which, length)."""
        which = 1 if self.base is not None and self.base[1] == 0 else 0
        self.seq += 1
        parts = (m + PART - 1) // PART
        buf = self.buf
        mv = memoryview(body)
        for j in range(parts):
            start = j * PART
            end = min(m, start + PART)
            buf[12] = j
            buf[13] = parts
            _le(buf, 14, m, 2)
            if j == 0:
                buf[16:23] = head
                buf[23:16 + end] = mv[0:end - 7]
            else:
                buf[16:16 + end - start] = mv[start - 7:end - 7]
            self._write(KIND_BASE, self.seq, 4 + end - start, (BASES[which] * 8 + j) * BLOCK)
        self.base = (self.seq, which, m)
        return self.base

    def _write(self, kind, seq, n, at):
        buf = self.buf
        buf[0] = 0xB1
        buf[1] = 0x0C
        buf[2] = kind
        buf[3] = FORMAT
        _le(buf, 4, seq, 4)
        _le(buf, 8, n, 2)
        crc = crc16(buf, 12, 12 + n, crc16(buf, 0, 10))
        _le(buf, 10, crc, 2)
        self.f.seek(at)
        self.f.write(buf)


def _le(buf, at, v, n):
    for i in range(n):
        buf[at + i] = (v >> (8 * i)) & 0xFF
