"""Reading the saves back at start, and the backup copy in the board's nvm: used at start,
then forgotten (and briefly again when the backup is written).

    got = open_saves(nvm)        # microcontroller.nvm, a FileNvm, or bytes in RAM
    got.settings, got.stats      # bytes, or None on a fresh board
    got.record                   # the saved game's record, or None
    got.journal                  # a store.Journal to save into during play, or None
    got.backup                   # no journal: settings and statistics go to nvm only
    got.notes                    # lines for the title screen (at most 26 characters)

Where the saves are (docs/saves.md has what a cut costs on each board):

- The journal, saves/binocle.sav on the drive (store.py), takes every action with the
  settings and statistics. It is made the first time the drive can be written; what the
  nvm held then (a game and all of an older version) goes into its first entry.
- The nvm keeps a backup of settings and statistics, written at the end of every second
  game and when the statistics are reset: one assignment (one erase) each time.
- No journal and none can be made (a full drive; a drive the board may not write):
  settings and statistics are kept in the nvm, written when they change; the game in
  progress is not kept. A journal the board may not write (the update mode of boot.py):
  it is read, and nothing is written this time. The title screen says which.
- No drive at all (bytes in RAM on the desktop): the nvm takes every save, as before.

The nvm's layout, its slots and the desktop's stand-in for it: nvmstore.py.
"""

import os
import sys

from binocle.nvmstore import (KIND_GAME, KIND_SETTINGS, KIND_STATS, MSG_DAMAGED, NAMES,
                              NvmStore, open_nvm, check_record, clear_nvm_game)
from binocle.nvmstore import FileNvm    # noqa: F401 (tools/users/sim.py takes it from here)
from binocle.stats import marked
from binocle.store import (BLOCK, FORMAT, KIND_ENTRY, KIND_BASE, ROOM, PART, PARTS, SIZE,
                           BASES, PATH, Journal, crc16, place)

# Player-facing lines: at most 26 characters each.
MSG_DRIVE_DAMAGED = "Saves on the drive\ndamaged: backup used."
MSG_DRIVE_LOST = "Saves on the drive\nlost: backup used."
MSG_NEWER_DRIVE = "Saves: from a newer\nversion, not used."
MSG_READ_ONLY = "Drive read-only: this\nsession is not saved."
MSG_NO_ROOM = "No room for saves on the\ndrive: game not kept."
MSG_READ_ONLY_NEW = "Drive read-only: the game\nin progress is not kept."
MSG_PIECES = "Saves file in pieces: a\npower cut may harm files:\nfree room, deploy again."
# Deploy writes this note beside the journal when the journal lies in pieces on the drive and
# no run of free room takes it in one (tools/users/deploy.py; the board cannot read the FAT).
PIECES = "binocle-in-pieces.txt"


class Found:
    """What open_saves() found."""

    def __init__(self):
        self.settings = None
        self.stats = None
        self.record = None
        self.journal = None
        self.base = None            # (seq, which, length) of the record's base in the journal
        self.backup = False
        self.migrate = False        # the journal is new: the app writes its first entry now
        self.nvm_game = False       # the nvm holds an older version's game
        self.game_read = True       # the entry's game part read back whole (or it had none)
        self.notes = []


def open_saves(nvm, journal=None):
    """Everything saved, from the journal if it has an entry, else from the nvm."""
    got = Found()
    if journal is None:
        journal = journal_for(nvm)
    f, how = _open_journal(journal)
    entries = []
    newer = data = False
    top = 0
    if f is not None:
        entries, newer, top, data = _newest(f)
    if entries:
        _take_newest(got, f, entries)
    else:
        nv = NvmStore(nvm)
        got.settings = _note(got, nv.load_blob(KIND_SETTINGS))
        got.stats = _note(got, nv.load_blob(KIND_STATS))
        got.record = _note(got, nv.load_game())
        got.nvm_game = got.record is not None
        if newer:
            got.notes.append(MSG_NEWER_DRIVE)
        elif f is not None and data:
            got.notes.append(MSG_DRIVE_DAMAGED)
        elif f is not None and marked(got.stats):
            got.notes.append(MSG_DRIVE_LOST)    # blank, but the backup came from a journal
    if how == "rw":
        got.journal = Journal(f, top, got.base)
        got.journal.last = len(got.record) if got.record else 0
        got.migrate = not entries
    elif how == "ram":
        got.journal = NvmJournal(nvm)           # the desktop's RAM: the nvm takes it all
    elif how == "ro":
        got.notes.append(MSG_READ_ONLY)
    else:
        got.backup = True
        if how != "ram":
            got.notes.append(MSG_NO_ROOM if how == "none" else MSG_READ_ONLY_NEW)
    if isinstance(journal, str):
        try:
            os.stat(journal[:journal.rfind("/") + 1] + PIECES)
            got.notes.append(MSG_PIECES)
        except OSError:
            pass
    return got


def _take_newest(got, f, entries):
    """The newest entry whose game reads back whole (its base too): a cut can leave the
    newest entry on the flash and the base it names not yet (the drive writes a block into
    blank flash at once, past the sector it holds in RAM), and then the entry before it,
    one action short, is the game. If none of them reads, the newest's settings and
    statistics, and the game is said to be lost."""
    for entry in entries:
        got.notes = []
        _take(got, f, entry)
        if got.game_read:
            return
    got.notes = []
    _take(got, f, entries[0])


class NvmJournal(Journal):
    """Where there is no drive at all (bytes in RAM on the desktop, no wear to mind): the
    nvm takes every save, game and all, with the journal's calls."""

    def __init__(self, nvm):
        Journal.__init__(self, None)
        self.s = NvmStore(nvm)

    def new_game(self):
        pass

    def save(self, settings, stats, head=None, body=b""):
        ok = True
        if head is None:
            self.s.clear_game()
        else:
            ok = self.s.save_game(bytes(head) + bytes(body))
        self.s.save_pair(settings, stats)
        return ok


def restore(app, nvm):
    """What was saved, into the app at its start: the journal to save into, settings,
    statistics, the game to continue, lines for the title screen; a new journal takes in
    what the nvm held."""
    from binocle.stats import Stats
    if nvm is None:
        nvm = open_nvm(getattr(app.profile, "NVM_PATH", None))
    got = open_saves(nvm)
    app.nvm, app.store, app.nvm_only = nvm, got.journal, got.backup
    if got.settings is not None and not app.settings.from_bytes(got.settings):
        got.notes.insert(0, "Settings unreadable:\nback to defaults.")
    app.stats = Stats(got.stats)
    if not app.stats.ok:
        got.notes.append("Statistics unreadable:\nstarted afresh.")
    for msg in got.notes:
        app.note(msg)
    app.saved = got.record
    app.record_head = got.record[:7] if got.record else None
    app.settings_bytes = app.settings.to_bytes()
    app.said_too_long = False
    if got.migrate:
        app.write_entry()
        if got.nvm_game and on_flash(got.journal.f):
            clear_nvm_game(nvm)                 # the journal has it now, on the flash
    elif app.store is not None:
        # One entry now, what was already saved: a PyBadge's drive takes its 4 KB sector
        # cache from the heap's pool at the first write, and keeps it. Now the pool has
        # room; after a game is replayed it may not, and without the cache every save
        # would erase the drive's scratch sector (supervisor's external_flash.c).
        app.write_entry()


def on_flash(f):
    """Put what was written to the journal on the flash now; False where that cannot be
    made sure of (the older version's game then stays in the nvm, where it is read only
    if the journal has no entry). CircuitPython keeps the drive's
    last written 4 KB sector in RAM for up to a second: os.sync() writes it back
    (supervisor_flash_flush) and nothing else; f.flush() would also rewrite the file's
    directory entry, in a sector other files share. A journal given as a file-like object
    (the tests' flash model) has its own sync()."""
    sync = getattr(f, "sync", None)
    if sync is None and sys.implementation.name == "circuitpython":
        sync = getattr(os, "sync", None)
    if sync is None:
        return sys.implementation.name != "circuitpython"      # a desktop file: written
    sync()
    return True


def _note(got, pair):
    if pair[1]:
        got.notes.append(pair[1])
    return pair[0]


# -- the journal file ------------------------------------------------------------------

def journal_for(nvm):
    """Where the journal is: the nvm's own `journal` (a path or a file), the board's
    drive, or nowhere (bytes in RAM on the desktop)."""
    j = getattr(nvm, "journal", None)
    if j is not None:
        return j
    if sys.implementation.name == "circuitpython":
        return PATH
    return None


def _open(path, mode):
    if sys.implementation.name == "cpython":
        return open(path, mode, buffering=0)    # every write reaches the file at once
    return open(path, mode)


def _open_journal(target):
    """(file, how): how is "rw", "ro" (read only), "rofs" or "none" (none there, none to be
    made: the drive read-only, or full) or "ram" (no drive at all)."""
    if target is None:
        return None, "ram"
    if not isinstance(target, str):
        return target, "rw"                     # a file-like object (tests)
    try:
        size = os.stat(target)[6]
    except OSError:
        size = -1
    if size == SIZE:
        try:
            return _open(target, "r+b"), "rw"
        except OSError:
            pass
        try:
            return _open(target, "rb"), "ro"
        except OSError:
            return None, "none"
    try:
        return _make(target), "rw"
    except OSError as e:                        # 30: a drive the board may not write
        return None, "rofs" if e.args and e.args[0] == 30 else "none"


def _make(path):
    """A new journal: SIZE bytes of 0xFF (blank flash) in the folder of the player's files."""
    cut = path.rfind("/")
    if cut > 0:
        try:
            os.mkdir(path[:cut])
        except OSError:
            pass                                # it is there already
    try:
        os.remove(path)
    except OSError:
        pass
    blank = b"\xff" * BLOCK
    try:
        with _open(path, "wb") as f:
            for _ in range(SIZE // BLOCK):
                f.write(blank)
    except OSError:
        try:
            os.remove(path)                     # a file cut short by a full drive
        except OSError:
            pass
        raise
    return _open(path, "r+b")


def _header(buf):
    """(kind, version, seq, n) of a block that may be ours, else None (no CRC check); the
    block's header is drawn in store.py."""
    if buf[0] != 0xB1 or buf[1] != 0x0C or buf[7] >= 0x40:
        return None
    n = buf[8] | buf[9] << 8
    if n > ROOM:
        return None
    return buf[2], buf[3], buf[4] | buf[5] << 8 | buf[6] << 16 | buf[7] << 24, n


def _good(buf, n):
    return crc16(buf, 12, 12 + n, crc16(buf, 0, 10)) == buf[10] | buf[11] << 8


FALLBACK = 4        # entries tried, newest first, for one whose game reads back whole


def _newest(f):
    """(entries, newer, top, data): the newest entries whose CRC holds (at most FALLBACK,
    newest first), as (block bytes, seq); whether the newest came from a newer version
    (then entries is empty); its seq, where the next entries go on from (0: none); whether
    anything was ever written but the first entry (a cut in the first start's write of
    it loses nothing: the nvm still holds all). Only a whole entry counts: a block a cut left half erased
    can look like one of ours."""
    buf = bytearray(BLOCK)
    found = []
    data = False
    f.seek(0)
    for b in range(SIZE // BLOCK):
        f.readinto(buf)
        if buf[0] != 0xFF and b * BLOCK != place(1):
            data = True         # not just the first entry, cut while it was written
        h = _header(buf)
        if h is not None and h[0] == KIND_ENTRY and place(h[2]) == b * BLOCK:
            found.append(h[2])
    found.sort()
    out = []
    top = 0
    for i in range(len(found) - 1, -1, -1):
        f.seek(place(found[i]))
        f.readinto(buf)
        h = _header(buf)
        if h is not None and _good(buf, h[3]):
            if not out:
                top = h[2]
                if h[1] > FORMAT:
                    return [], True, top, data
            out.append((bytes(buf), h[2]))
            if len(out) == FALLBACK:
                break
    return out, False, top, data


def read_entry(f, seq):
    """What entry `seq` holds (a Found, its journal unset), or None if it is not whole."""
    buf = bytearray(BLOCK)
    f.seek(place(seq))
    f.readinto(buf)
    h = _header(buf)
    if h is None or h[0] != KIND_ENTRY or h[2] != seq or not _good(buf, h[3]):
        return None
    got = Found()
    _take(got, f, (bytes(buf), seq))
    return got


def _take(got, f, entry):
    """Settings, statistics and the game from an entry (its base read back if it has one);
    got.game_read False if the game it names does not read back whole."""
    buf, seq = entry
    got.record = got.base = None
    got.game_read = False
    end = 12 + (buf[8] | buf[9] << 8)
    p = 12
    parts = []
    for _ in range(2):
        n = buf[p]
        if p + 1 + n >= end:
            got.notes.append(MSG_DAMAGED % NAMES[KIND_GAME])
            return
        parts.append(buf[p + 1:p + 1 + n])
        p += 1 + n
    got.settings, got.stats = parts
    kind = buf[p]
    got.game_read = True
    if kind == 0:
        return
    base = None
    rec = None
    if kind == 1:
        rec = buf[p + 1:end]
    elif kind == 2 and p + 8 <= end:
        base = (buf[p + 1] | buf[p + 2] << 8 | buf[p + 3] << 16 | buf[p + 4] << 24,
                buf[p + 5], buf[p + 6] | buf[p + 7] << 8)
        rec = _read_base(f, base)
        if rec is not None:
            rec += buf[p + 8:end]
    got.game_read = rec is not None
    msg = MSG_DAMAGED % NAMES[KIND_GAME] if rec is None else check_record(rec)
    if msg:
        got.notes.append(msg)
        return
    got.record = bytes(rec)
    got.base = base


def _read_base(f, base):
    """The first `length` bytes of a record from the base (seq, which, length), or None."""
    seq, which, m = base
    if which > 1 or m < 7 or m > PARTS * PART:
        return None
    out = bytearray(m)
    buf = bytearray(BLOCK)
    parts = (m + PART - 1) // PART
    for j in range(parts):
        f.seek((BASES[which] * 8 + j) * BLOCK)
        f.readinto(buf)
        h = _header(buf)
        n = min(PART, m - j * PART)
        if h is None or h[0] != KIND_BASE or h[2] != seq or h[3] != 4 + n or not _good(buf, h[3]) \
                or buf[12] != j or buf[13] != parts or buf[14] | buf[15] << 8 != m:
            return None
        out[j * PART:j * PART + n] = buf[16:16 + n]
    return out
