"""A FAT12/16 volume in a file: read, written in a safe order, and put right after a cut.

The file system of a PyBadge's 2 MB drive, as CircuitPython's FatFs formats it (make_image).
ImageDrive (tools/users/drives.py) reads and writes an image file through Volume; DirDrive reads
the FAT of the device under a mounted drive through it, never writing. Offsets below are in
bytes, numbers little-endian. The image, in order:

    | reserved sectors | FAT copy 1 | ... | FAT copy N | root folder  | cluster 2 | 3 | ...
      (the boot sector   (sectors per FAT each)         (root entries  (sectors per cluster
       first)                                             x 32 bytes)   each: the data)

The boot sector's fields used here (Microsoft's FAT specification):

    0-2    jump (0xEB or 0xE9 first)           3-10   maker's name
    11-12  bytes per sector (512 to 4096)      13     sectors per cluster (1 to 128)
    14-15  reserved sectors (the FATs follow)  16     FAT copies
    17-18  root folder entries                 19-20  total sectors (0: see 32-35)
    21     media byte (0xF8)                   22-23  sectors per FAT (0: FAT32, refused)
    24-27  sectors per track, heads            28-31  hidden sectors (0)
    32-35  total sectors, when over 65,535
    36     drive number (0x80)                 37     bit 0: not closed cleanly (Windows,
    38     0x29: the fields 39-61 are there           Linux, pyfatfs set it while writing)
    39-42  volume id                           43-53  volume label
    54-61  "FAT12   " or "FAT16   "            510-511  0x55 0xAA

Fewer than 4,085 clusters make FAT12, fewer than 65,525 FAT16. The FAT holds one entry per
cluster, from cluster 0: FAT16's are 2 bytes; FAT12's are 12 bits, two in 3 bytes (entry c
starts at byte c + c // 2: an even c takes the low 12 bits of the 16 there, an odd c the
high 12). An entry is 0 for a free cluster, the next cluster of the chain, 0xFF7 (0xFFF7)
for a bad one, and above that at the chain's end. Entries 0 and 1 hold the media byte and
an end mark.

A folder entry is a slot of 32 bytes:

    0-10   short name: 8 + 3 upper-case characters padded with spaces; byte 0 is 0xE5 in an
           entry removed, 0x00 where the folder's entries end
    11     attributes: 0x08 volume label, 0x10 folder, 0x20 archive; 0x0F marks a long-name slot
    12     case of the short name (FatFs, Windows, mtools and Linux write and read it): 0x08 the
           base in lower case, 0x10 the extension in lower case. "boot_out.txt" is stored as
           BOOT_OUTTXT with 0x18 and no long name; "Code.py" needs a long name
    13-19  creation time and date, access date      20-21  first cluster, high half (FAT32 only)
    22-25  write time and date                      26-27  first cluster       28-31  size

A long name takes slots just before its short entry, its last part first: byte 0 numbers the
part (0x40 added on the last), 13 UTF-16 characters sit in bytes 1-10, 14-25 and 28-31, byte
11 is 0x0F and byte 13 the checksum of the short name. Names compare without case.

Written here rather than through a FAT library, for the order of the writes: a cut
(a pulled cable, Ctrl-C) between any two of them leaves, at worst, clusters taken
that no entry reaches or long-name slots without an entry, never an entry on a free
cluster or two entries on the same clusters. A file's data goes first, then the FAT
(each copy in turn), then its entry; a removal writes the entry first, then the FAT;
a rename replacing a file removes the old entry, then rewrites the renamed one's
slots in one write (the new name is never longer than the .tmp-binocle one), then
frees the old clusters. Entries are never moved, so no folder is rewritten whole.
On opening, Volume._check puts right in memory what a cut (or another tool's cut)
can leave; repair() writes that before the first change.
"""

import struct
import time


class NotAnImage(Exception):
    """The file named as a disk image is not a FAT one: a mistake on the command line."""


class DriveError(Exception):
    """A drive problem, said in one line (every Drive in tools/users/drives.py raises it too)."""


class DriveFull(DriveError):
    pass


_LFN = 0x0F
_VOLUME = 0x08
_FOLDER = 0x10
_ARCHIVE = 0x20
_LOWER_BASE = 0x08
_LOWER_EXT = 0x10
_GONE = 0xE5
_SLOT = 32
_DOTS = (b".          ", b"..         ")
_SHORT_OK = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789$%'-_@~`!(){}^#&")
_LONG_BAD = frozenset('\\/:*?"<>|')


# -- names and folder slots -----------------------------------------------------------------------

def fold(name):
    """A name as FAT compares it, without case: CODE.PY is code.py."""
    return name.upper()


def short_form(name):
    """(11-byte short name, case bits) of a name stored without a long name, or None.

    As FatFs and Windows do: a name of at most 8 + 3 characters that short names
    allow, each part in one case ("boot_out.txt", "LIB", "code.PY"), keeps its
    case in byte 12; any other name ("Code.py", "manifest.json") needs a long one."""
    base, dot, ext = name.rpartition(".")
    if not dot:
        base, ext = name, ""
    if not base or len(base) > 8 or len(ext) > 3 or (dot and not ext):
        return None
    for part in (base, ext):
        if part not in (part.upper(), part.lower()) or not set(part.upper()) <= _SHORT_OK:
            return None
    bits = (_LOWER_BASE if base != base.upper() else 0) | (_LOWER_EXT if ext != ext.upper() else 0)
    return (base.upper().ljust(8) + ext.upper().ljust(3)).encode("ascii"), bits


def _short_text(short, bits=0):
    """The name a short entry shows, in the case its bits give."""
    base, ext = short[:8].rstrip(b" "), short[8:11].rstrip(b" ")
    if base[:1] == b"\x05":
        base = b"\xe5" + base[1:]
    base, ext = base.decode("cp437"), ext.decode("cp437")
    if bits & _LOWER_BASE:
        base = base.lower()
    if bits & _LOWER_EXT:
        ext = ext.lower()
    return base + "." + ext if ext else base


def _basis(name):
    """The two parts of the short name beside a long one: upper case, spaces and inner dots
    dropped, other characters short names do not allow as _, cut to 8 and 3."""
    up = name.upper().lstrip(". ")
    base, dot, ext = up.rpartition(".")
    if not dot:
        base, ext = up, ""

    def clean(part):
        return "".join(c if c in _SHORT_OK else "_" for c in part if c not in " .")
    return clean(base)[:8], clean(ext)[:3]


def _checksum(short):
    s = 0
    for b in short:
        s = (((s & 1) << 7) + (s >> 1) + b) & 0xFF
    return s


def _long_slots(name, short):
    """The long-name slots of name in the order they are stored (its last part first)."""
    units = name.encode("utf-16-le")
    if len(units) // 2 % 13:
        units += b"\0\0"
    units += b"\xff" * (-len(units) % 26)
    count = len(units) // 26
    check = _checksum(short)
    slots = []
    for k in range(count, 0, -1):
        part = units[(k - 1) * 26:k * 26]
        slot = bytearray(_SLOT)
        slot[0] = k | (0x40 if k == count else 0)
        slot[1:11] = part[0:10]
        slot[11] = _LFN
        slot[13] = check
        slot[14:26] = part[10:22]
        slot[28:32] = part[22:26]
        slots.append(slot)
    return slots


def _long_text(slots):
    units = b"".join(bytes(s[1:11]) + bytes(s[14:26]) + bytes(s[28:32]) for s in reversed(slots))
    return units.decode("utf-16-le", "replace").split("\0")[0].rstrip("\uffff")


def _short_slot(short, attr, bits, cluster, size, like=None):
    """A short entry, with the times of the entry `like` (a renamed file) or of now."""
    slot = bytearray(_SLOT)
    if like is not None:
        slot[13:26] = like[13:26]
    else:
        t = time.localtime()
        date = (max(t.tm_year, 1980) - 1980) << 9 | t.tm_mon << 5 | t.tm_mday
        clock = t.tm_hour << 11 | t.tm_min << 5 | t.tm_sec // 2
        struct.pack_into("<BHHH", slot, 13, 0, clock, date, date)
        struct.pack_into("<HH", slot, 22, clock, date)
    slot[0:11] = short
    slot[11] = attr
    slot[12] = bits
    struct.pack_into("<HL", slot, 26, cluster & 0xFFFF, size)
    struct.pack_into("<H", slot, 20, 0)
    return slot


class _Entry:
    """A file or folder: the slots first..last of its folder (long-name slots, then the short one)."""

    __slots__ = ("folder", "first", "last", "name", "short", "attr", "cluster", "size", "keys")

    def __init__(self, folder, first, last, name, slot):
        self.folder, self.first, self.last, self.name = folder, first, last, name
        self.short = bytes(slot[0:11])
        self.attr = slot[11]
        self.cluster, self.size = struct.unpack_from("<HL", slot, 26)
        self.keys = (fold(name), fold(_short_text(self.short)))     # found by either

    def is_folder(self):
        return bool(self.attr & _FOLDER)

    def named(self, name):
        return fold(name) in self.keys


class _Folder:
    """A folder's slots as on the image: where each one is, and its 32 bytes."""

    def __init__(self, cluster, offsets, raw):
        self.cluster = cluster          # 0: the fixed root folder of FAT12/16
        self.offsets = offsets
        self.raw = raw
        self._scan = None

    def slot(self, i):
        return self.raw[i * _SLOT:(i + 1) * _SLOT]

    def changed(self):
        self._scan = None

    def entries(self):
        return self.scan()[0]

    def scan(self):
        """(entries, long-name slots no entry owns, index of the slot that ends the folder)."""
        if self._scan is None:
            self._scan = self._parse()
        return self._scan

    def _parse(self):
        entries, orphans, run = [], [], []
        end = len(self.offsets)
        for i in range(len(self.offsets)):
            s = self.slot(i)
            if s[0] == 0:
                end = i
                break
            if s[0] == _GONE:
                orphans += run
                run = []
            elif s[11] & 0x3F == _LFN:
                part = s[0] & 0x1F
                if s[0] & 0x40 and part:
                    orphans += run
                    run = [i]
                elif run and part == (self.slot(run[-1])[0] & 0x1F) - 1 \
                        and s[13] == self.slot(run[0])[13] and part:
                    run.append(i)
                else:
                    orphans += run + [i]
                    run = []
            elif s[11] & _VOLUME or bytes(s[0:11]) in _DOTS:
                orphans += run
                run = []
            else:
                slots = [self.slot(j) for j in run]
                if run and slots[-1][0] & 0x1F == 1 and slots[0][13] == _checksum(s[0:11]):
                    entries.append(_Entry(self, run[0], i, _long_text(slots), s))
                else:
                    orphans += run
                    entries.append(_Entry(self, i, i, _short_text(s[0:11], s[12]), s))
                run = []
        return entries, orphans + run, end


# -- a volume -------------------------------------------------------------------------------------

class Volume:
    """A FAT12/16 volume in an image file: its geometry, FAT and folders held in memory,
    every change written through at once in the order this module's docstring gives."""

    def __init__(self, f, name):
        self.f, self.name = f, name
        f.seek(0)
        boot = f.read(512)
        why = _not_fat(boot)
        if why:
            raise NotAnImage("%s is not a FAT disk image (%s)" % (name, why))
        (self.sector, per_cluster, reserved, self.copies, self.root_count, total16, _media,
         fat_sectors) = struct.unpack_from("<HBHBHHBH", boot, 11)
        if fat_sectors == 0:
            raise DriveError("%s: only FAT12/FAT16 images are supported" % name)
        total = total16 or struct.unpack_from("<L", boot, 32)[0]
        self.cluster_bytes = self.sector * per_cluster
        self.fat_at = reserved * self.sector
        self.fat_bytes = fat_sectors * self.sector
        self.root_at = self.fat_at + self.copies * self.fat_bytes
        self.data_at = self.root_at + -(-self.root_count * _SLOT // self.sector) * self.sector
        self.clusters = (total * self.sector - self.data_at) // self.cluster_bytes
        if self.clusters < 1:
            raise NotAnImage("%s is not a FAT disk image (no room for data)" % name)
        if self.clusters >= 65525:
            raise DriveError("%s: only FAT12/FAT16 images are supported" % name)
        self.bits = 12 if self.clusters < 4085 else 16
        if self.fat_bytes * 8 // self.bits < self.clusters + 2:
            raise NotAnImage("%s is not a FAT disk image (its FAT is too small)" % name)
        f.seek(0, 2)
        if f.tell() < total * self.sector:
            raise DriveError("%s is cut short: %s of its %s bytes" % (
                name, format(f.tell(), ","), format(total * self.sector, ",")))
        self.eoc = (1 << self.bits) - 1
        self.bad = self.eoc - 8
        self.boot = bytearray(boot)
        fats = [self._read(self.fat_at + i * self.fat_bytes, self.fat_bytes)
                for i in range(self.copies)]
        self.fat = bytearray(fats[0])
        self.touched = [0, self.fat_bytes] if len(set(fats)) > 1 else None
        self.free = sum(1 for c in range(2, self.clusters + 2) if self.get(c) == 0)
        self.folders = {}
        self.fixes = {}                 # folder: slots to write when the image is first written
        self.notes = []
        self._check(len(set(fats)) > 1)

    # the image file

    def _read(self, at, n):
        self.f.seek(at)
        parts = []
        while n > 0:
            part = self.f.read(n)
            if not part:
                raise DriveError("%s is cut short (nothing at byte %s)" % (self.name, format(at, ",")))
            parts.append(part)
            n -= len(part)
        return b"".join(parts)

    def _write(self, at, data):
        """One write: the unit a cut falls between."""
        self.f.seek(at)
        view = memoryview(bytes(data))
        while view:
            view = view[self.f.write(view):]

    # the FAT

    def get(self, c):
        fat = self.fat
        if self.bits == 12:
            at = c + c // 2
            v = fat[at] | fat[at + 1] << 8
            return v >> 4 if c & 1 else v & 0xFFF
        return fat[2 * c] | fat[2 * c + 1] << 8

    def put(self, c, v):
        old = self.get(c)
        self.free += (v == 0) - (old == 0)
        fat = self.fat
        if self.bits == 12:
            at = c + c // 2
            if c & 1:
                fat[at] = (fat[at] & 0x0F) | (v << 4 & 0xF0)
                fat[at + 1] = v >> 4 & 0xFF
            else:
                fat[at] = v & 0xFF
                fat[at + 1] = (fat[at + 1] & 0xF0) | (v >> 8 & 0x0F)
        else:
            at = 2 * c
            struct.pack_into("<H", fat, at, v)
        lo, hi = at, at + 2
        if self.touched:
            lo, hi = min(lo, self.touched[0]), max(hi, self.touched[1])
        self.touched = [lo, hi]

    def flush_fat(self):
        """Write the FAT's changed sectors to each copy in turn, the first one first: it is the
        one FatFs reads, and the one taken when a cut left the copies different."""
        if not self.touched:
            return
        lo = self.touched[0] // self.sector * self.sector
        hi = min(self.fat_bytes, -(-self.touched[1] // self.sector) * self.sector)
        for i in range(self.copies):
            self._write(self.fat_at + i * self.fat_bytes + lo, self.fat[lo:hi])
        self.touched = None

    def valid(self, c):
        return 2 <= c < self.clusters + 2

    def chain(self, c):
        out = []
        while c and len(out) <= self.clusters:
            v = self.get(c) if self.valid(c) else 0
            if v == 0 or v == self.bad:
                break
            out.append(c)
            if v > self.bad:
                return out
            c = v
        if c == 0 and not out:
            return out
        raise DriveError("%s has a broken cluster chain at cluster %d" % (self.name, c))

    def at(self, c):
        return self.data_at + (c - 2) * self.cluster_bytes

    def alloc(self, n):
        """A chain of n free clusters, in the FAT in memory only (flush_fat writes it): the
        first run of n free ones in a row (so a file lies in one piece where there is room),
        else the first n free ones."""
        if n > self.free:
            raise DriveFull("no space left on %s" % self.name)
        runs = self.free_runs()
        fit = [first for first, count in runs if count >= n]
        if fit:
            got = list(range(fit[0], fit[0] + n))
        else:
            got = [c for first, count in runs for c in range(first, first + count)][:n]
        for a, b in zip(got, got[1:] + [self.eoc]):
            self.put(a, b)
        return got

    def free_runs(self):
        """The free clusters as runs [(first, count)], lowest first."""
        return runs_of(c for c in range(2, self.clusters + 2) if self.get(c) == 0)

    def file_runs(self, path):
        """The clusters of the file at path as runs, or None if there is no such file."""
        entry = self.find(path)
        if entry is None or entry.is_folder():
            return None
        return runs_of(self.chain(entry.cluster))

    def release(self, c):
        for x in self.chain(c):
            self.put(x, 0)

    def write_clusters(self, clusters, data):
        """The data into these clusters: one write for each run of neighbours, the last padded."""
        size = self.cluster_bytes
        data = bytes(data) + bytes(-len(data) % size)
        i = 0
        while i < len(clusters):
            j = i + 1
            while j < len(clusters) and clusters[j] == clusters[j - 1] + 1:
                j += 1
            self._write(self.at(clusters[i]), data[i * size:j * size])
            i = j

    def read_clusters(self, clusters, size):
        parts, i = [], 0
        while i < len(clusters):
            j = i + 1
            while j < len(clusters) and clusters[j] == clusters[j - 1] + 1:
                j += 1
            parts.append(self._read(self.at(clusters[i]), (j - i) * self.cluster_bytes))
            i = j
        return b"".join(parts)[:size]

    # folders

    def folder(self, cluster):
        found = self.folders.get(cluster)
        if found is None:
            if cluster == 0:
                offsets = [self.root_at + _SLOT * i for i in range(self.root_count)]
                raw = bytearray(self._read(self.root_at, _SLOT * self.root_count))
            else:
                offsets, raw = [], bytearray()
                for c in self.chain(cluster):
                    offsets += range(self.at(c), self.at(c) + self.cluster_bytes, _SLOT)
                    raw += self._read(self.at(c), self.cluster_bytes)
            found = self.folders[cluster] = _Folder(cluster, offsets, raw)
        return found

    def write_slots(self, folder, first, last, short_first=False):
        """Slots first..last as they are in memory, one write for each run of them that is
        contiguous on the image. A new entry's runs go in order, so its short entry (in the
        last run) comes after its long name; a removal writes the short entry's run first.
        Either way a cut between leaves only long-name slots without an entry."""
        runs = []
        for i in range(first, last + 1):
            if runs and folder.offsets[i] == folder.offsets[runs[-1][1]] + _SLOT:
                runs[-1][1] = i
            else:
                runs.append([i, i])
        for a, b in (reversed(runs) if short_first else runs):
            self._write(folder.offsets[a], folder.raw[a * _SLOT:(b + 1) * _SLOT])
        folder.changed()

    def contiguous(self, folder, first, last):
        return folder.offsets[last] - folder.offsets[first] == (last - first) * _SLOT

    def lookup(self, folder, name):
        key = fold(name)
        for e in folder.entries():
            if key in e.keys:
                return e
        return None

    def find(self, path):
        """The entry of path (names without case), or None."""
        folder, entry = self.folder(0), None
        for part in [p for p in path.split("/") if p]:
            if entry is not None:
                if not entry.is_folder() or entry.cluster == 0:
                    return None
                folder = self.folder(entry.cluster)
            entry = self.lookup(folder, part)
            if entry is None:
                return None
        return entry

    def parent(self, path):
        """(folder, name) of path; DriveError when its folder is missing."""
        head, _, name = path.strip("/").rpartition("/")
        if not name or name in (".", "..") or set(name) & _LONG_BAD or len(name) > 255 \
                or any(ord(c) < 32 for c in name):
            raise DriveError("%r is not a name a FAT drive can hold" % path)
        if not head:
            return self.folder(0), name
        e = self.find(head)
        if e is None or not e.is_folder():
            raise DriveError("%s: no folder %s on %s" % (path, head, self.name))
        return self.folder(e.cluster), name

    def short_name(self, folder, name, skip=()):
        """(short name, case bits, needs a long name) for a new entry of folder; the short
        names in skip are those of entries on their way out (a rename's own)."""
        taken = set(e.short for e in folder.entries()) - set(skip)
        form = short_form(name)
        if form and form[0] not in taken:
            return form[0], form[1], False
        base, ext = _basis(name)
        plain = (base.ljust(8) + ext.ljust(3)).encode("ascii")
        if fold(name) == base + ("." + ext if ext else "") and plain not in taken:
            return plain, 0, True        # "Code.py": CODE.PY and the long name
        for k in range(1, 1000000):
            tail = "~%d" % k
            short = ((base[:8 - len(tail)] + tail).ljust(8) + ext.ljust(3)).encode("ascii")
            if short not in taken:
                return short, 0, True
        raise DriveError("%s: no short name left for %s" % (self.name, name))

    def slots_for(self, name):
        return 1 if short_form(name) else 1 + -(-len(name.encode("utf-16-le")) // 26)

    def room(self, folder, n):
        """Index of the first n free slots in a row of folder, or None."""
        run = 0
        for i in range(len(folder.offsets)):
            if folder.raw[i * _SLOT] in (0, _GONE):
                run += 1
                if run == n:
                    return i - n + 1
            else:
                run = 0
        return None

    def growth(self, folder, n):
        """Clusters folder must grow by to take an entry of n slots."""
        if self.room(folder, n) is not None:
            return 0
        if folder.cluster == 0:
            raise DriveFull("the top folder of %s is full (%d names)" % (self.name, self.root_count))
        tail = 0
        while tail < len(folder.offsets) and folder.raw[(len(folder.offsets) - tail - 1) * _SLOT] in (0, _GONE):
            tail += 1
        return -(-(n - tail) * _SLOT // self.cluster_bytes)

    def grow(self, folder):
        """One more cluster for folder: zeroed first, then linked in the FAT."""
        last = self.chain(folder.cluster)[-1]
        c = self.alloc(1)[0]
        self._write(self.at(c), bytes(self.cluster_bytes))
        self.put(last, c)
        self.flush_fat()
        folder.offsets += range(self.at(c), self.at(c) + self.cluster_bytes, _SLOT)
        folder.raw += bytes(self.cluster_bytes)
        folder.changed()

    def add(self, folder, name, attr, cluster, size, like=None, skip=()):
        """A new entry in the first free slots that can take it (the folder grows if need be)."""
        short, bits, long = self.short_name(folder, name, skip)
        slots = (_long_slots(name, short) if long else []) + \
            [_short_slot(short, attr, bits, cluster, size, like)]
        while self.room(folder, len(slots)) is None:
            self.growth(folder, len(slots))        # DriveFull for a full root folder
            self.grow(folder)
        first = self.room(folder, len(slots))
        for k, s in enumerate(slots):
            folder.raw[(first + k) * _SLOT:(first + k + 1) * _SLOT] = s
        self.write_slots(folder, first, first + len(slots) - 1)

    def drop(self, entry):
        """Mark the entry's slots removed, its short entry first (its clusters stay taken)."""
        folder = entry.folder
        for i in range(entry.first, entry.last + 1):
            folder.raw[i * _SLOT] = _GONE
        self.write_slots(folder, entry.first, entry.last, short_first=True)

    def point(self, entry, cluster, size):
        """The entry's first cluster and size, and the time now: one slot written."""
        folder, i = entry.folder, entry.last
        old = folder.slot(i)
        slot = _short_slot(bytes(old[0:11]), old[11], old[12], cluster, size)
        slot[13:20] = old[13:20]                     # created: as it was
        folder.raw[i * _SLOT:(i + 1) * _SLOT] = slot
        self.write_slots(folder, i, i)

    # changes (the module's docstring says in which order and why)

    def write_file(self, path, data):
        folder, name = self.parent(path)
        old = self.lookup(folder, name)
        if old is not None and old.is_folder():
            raise DriveError("%s is a folder on %s" % (path, self.name))
        same = old is not None and old.name == name
        n = -(-len(data) // self.cluster_bytes)
        grow = 0 if same else self.growth(folder, self.slots_for(name))
        if n + grow > self.free:
            raise DriveFull("no space left on %s for %s" % (self.name, path))
        clusters = self.alloc(n)
        self.write_clusters(clusters, data)
        self.flush_fat()
        first = clusters[0] if clusters else 0
        if same:
            self.point(old, first, len(data))
        else:
            if old is not None:
                self.drop(old)
            self.add(folder, name, _ARCHIVE, first, len(data))
        if old is not None and old.cluster:
            self.release(old.cluster)
            self.flush_fat()

    def rename(self, src, dst):
        entry = self.find(src)
        if entry is None:
            raise DriveError("%s: no such file on %s" % (src, self.name))
        if entry.is_folder():
            raise DriveError("%s: renaming folders is not supported" % src)
        folder, name = self.parent(dst)
        old = self.lookup(folder, name)
        if old is entry:
            old = None
        elif old is not None and old.is_folder():
            raise DriveError("%s is a folder on %s" % (dst, self.name))
        if old is not None:
            self.drop(old)
        skip = [entry.short] + ([old.short] if old is not None else [])
        short, bits, long = self.short_name(folder, name, skip)
        slots = (_long_slots(name, short) if long else []) + \
            [_short_slot(short, entry.attr, bits, entry.cluster, entry.size, like=entry.folder.slot(entry.last))]
        width = entry.last - entry.first + 1
        if folder is entry.folder and len(slots) <= width and \
                self.contiguous(folder, entry.first, entry.last):
            # In place, one write: the new name in the old one's first slots, the rest marked
            # removed (left at the end, where the next new name can take them with what follows).
            for k, s in enumerate(slots):
                i = entry.first + k
                folder.raw[i * _SLOT:(i + 1) * _SLOT] = s
            for i in range(entry.first + len(slots), entry.last + 1):
                folder.raw[i * _SLOT] = _GONE
            self.write_slots(folder, entry.first, entry.last)
        else:
            self.drop(entry)
            self.add(folder, name, entry.attr, entry.cluster, entry.size,
                     like=entry.folder.slot(entry.last), skip=skip)
        if old is not None and old.cluster:
            self.release(old.cluster)
            self.flush_fat()

    def remove(self, path):
        entry = self.find(path)
        if entry is None:
            raise DriveError("%s: no such file on %s" % (path, self.name))
        if entry.is_folder():
            raise DriveError("%s is a folder on %s" % (path, self.name))
        self.drop(entry)
        if entry.cluster:
            self.release(entry.cluster)
            self.flush_fat()

    def makedir(self, path):
        folder, name = self.parent(path)
        old = self.lookup(folder, name)
        if old is not None:
            if not old.is_folder():
                raise DriveError("%s is a file on %s, not a folder" % (path, self.name))
            return
        if 1 + self.growth(folder, self.slots_for(name)) > self.free:
            raise DriveFull("no space left on %s for the folder %s" % (self.name, path))
        c = self.alloc(1)[0]
        body = _short_slot(_DOTS[0], _FOLDER, 0, c, 0) + _short_slot(_DOTS[1], _FOLDER, 0, folder.cluster, 0)
        self._write(self.at(c), body + bytes(self.cluster_bytes - len(body)))
        self.flush_fat()
        self.add(folder, name, _FOLDER, c, 0)

    # what a cut can leave

    def _check(self, copies_differ):
        """Put right in memory what a write cut short can leave (repair() writes it).

        This tool's own cuts leave only the first and the last two kinds below; other
        writers' (pyfatfs writes an entry before the FAT that allocates its clusters, and
        rewrites a whole folder for each change) leave all of them, and then a FAT library
        fails on the next read or fsck.fat finds clusters in two files even after a rerun:
        - long-name slots that belong to no entry; old slots after a folder's end marker;
        - a name twice in a folder, or an entry on the first cluster an earlier entry holds
          (a folder rewritten in place, cut part-way): the later entry goes;
        - a file on a free cluster: emptied (a folder there goes); a chain that runs into
          a free, bad or taken cluster or off the drive: ends before it, the size cut to fit;
        - a chain longer than its file needs: the rest freed;
        - clusters taken that no entry reaches (a cut between the FAT and the entry): freed;
        - FAT copies that differ (a cut between them): the first, written first, goes to
          all; the "not closed cleanly" mark: cleared.
        Folders are walked from the root, entries in order: the earlier of two claims wins."""
        counts = {}

        def count(what, n=1):
            counts[what] = counts.get(what, 0) + n

        owned = bytearray(self.clusters + 2)
        size = self.cluster_bytes
        todo = [0]
        while todo:
            folder = self.folder(todo.pop(0))
            entries, orphans, end = folder.scan()
            for i in orphans:
                folder.raw[i * _SLOT] = _GONE
                self._fix(folder, i)
            count("long-name slots without a file, cleared", len(orphans))
            stale = [i for i in range(end, len(folder.offsets)) if any(folder.slot(i))]
            for i in stale:
                folder.raw[i * _SLOT:(i + 1) * _SLOT] = bytes(_SLOT)
                self._fix(folder, i)
            count("old slots after the end of a folder, cleared", len(stale))
            seen = set()
            for e in entries:
                keys = set(e.keys)
                chain, why = ([], "twice") if keys & seen else self._walk(e.cluster, owned)
                seen |= keys
                if why and not chain and (e.is_folder() or why != "free"):
                    self._forget(e)             # a copy of another entry, or a folder lost
                    count(_LOST_ENTRY[why])
                    continue
                if why and not chain:
                    count("files on a free cluster, emptied")
                elif why:
                    count(_CUT_CHAIN[why])
                    self.put(chain[-1], self.eoc)
                if e.is_folder():
                    if e.size:
                        self._set(e, e.cluster, 0)
                    todo.append(e.cluster)
                    continue
                need = -(-e.size // size)
                if len(chain) > need:
                    count("chains longer than their file, cut")
                    for c in chain[need:]:
                        owned[c] = 0
                        self.put(c, 0)
                    if need:
                        self.put(chain[need - 1], self.eoc)
                    chain = chain[:need]
                elif len(chain) < need and not why:
                    count("files shorter than their size, size set")
                first = chain[0] if chain else 0
                if first != e.cluster or len(chain) < need:
                    self._set(e, first, min(e.size, len(chain) * size))
            folder.changed()
        lost = [c for c in range(2, self.clusters + 2)
                if not owned[c] and self.get(c) not in (0, self.bad)]
        for c in lost:
            self.put(c, 0)
        count("clusters no file used, freed", len(lost))
        count("FAT copies that differed, made equal", int(copies_differ))
        count("a mark of a drive not closed cleanly, cleared", int(self._dirty_mark()))
        found = ["%s: %d" % (what, n) for what, n in sorted(counts.items()) if n]
        if found:
            self.notes.append("%s held what writes cut short leave; put right before writing "
                              "(%s)" % (self.name, "; ".join(found)))

    def _walk(self, c, owned):
        """(clusters of the chain from c that are sound and no one else's, what stopped it)."""
        chain = []
        while c:
            if not self.valid(c):
                return chain, "outside"
            if owned[c]:
                return chain, "taken"
            v = self.get(c)
            if v == 0 or v == self.bad:
                return chain, "free" if v == 0 else "bad"
            owned[c] = 1
            chain.append(c)
            if v > self.bad:
                break
            c = v
        return chain, None

    def _fix(self, folder, i):
        self.fixes.setdefault(folder, set()).add(i)

    def _forget(self, entry):
        for i in range(entry.first, entry.last + 1):
            entry.folder.raw[i * _SLOT] = _GONE
            self._fix(entry.folder, i)

    def _set(self, entry, cluster, size):
        i = entry.last
        struct.pack_into("<HL", entry.folder.raw, i * _SLOT + 26, cluster, size)
        self._fix(entry.folder, i)

    def repair(self):
        """Write what _check put right: folders' slots first, then the FAT, then the boot sector."""
        for folder, slots in self.fixes.items():
            run = None
            for i in sorted(slots):
                if run and i == run[1] + 1 and self.contiguous(folder, run[0], i):
                    run[1] = i
                    continue
                if run:
                    self._write(folder.offsets[run[0]], folder.raw[run[0] * _SLOT:(run[1] + 1) * _SLOT])
                run = [i, i]
            if run:
                self._write(folder.offsets[run[0]], folder.raw[run[0] * _SLOT:(run[1] + 1) * _SLOT])
        self.fixes = {}
        self.flush_fat()
        if self._dirty_mark():
            self.boot[37] &= 0xFE
            self._write(0, self.boot)
        self.notes = []

    def _dirty_mark(self):
        """The "not closed cleanly" bit that Windows, Linux and pyfatfs set while writing."""
        return self.boot[38] == 0x29 and self.boot[37] & 1


# What _check says of an entry it removes, and of a chain it cuts short.
_LOST_ENTRY = {"twice": "names listed twice in a folder, the later removed",
               "taken": "entries on clusters an earlier one holds, removed",
               "free": "folders on a free cluster, removed",
               "bad": "entries on a bad cluster, removed",
               "outside": "entries on a cluster outside the drive, removed"}
_CUT_CHAIN = {"taken": "chains running into clusters an earlier one holds, cut",
              "free": "chains running into a free cluster, cut",
              "bad": "chains running into a bad cluster, cut",
              "outside": "chains running outside the drive, cut"}


def _not_fat(boot):
    """Why a boot sector is not a FAT one, or ''."""
    if len(boot) < 512 or boot[510:512] != b"\x55\xaa":
        return "no boot sector signature"
    if boot[0] not in (0xEB, 0xE9):
        return "no jump at its start"
    sector, per_cluster, reserved, copies = struct.unpack_from("<HBHB", boot, 11)
    if sector not in (512, 1024, 2048, 4096) or per_cluster not in (1, 2, 4, 8, 16, 32, 64, 128):
        return "sector or cluster size %d x %d" % (sector, per_cluster)
    if not reserved or not copies:
        return "no reserved sector or no FAT"
    return ""


def runs_of(clusters):
    """Clusters in chain order as runs [(first, count)] of neighbours."""
    out = []
    for c in clusters:
        if out and c == out[-1][0] + out[-1][1]:
            out[-1] = (out[-1][0], out[-1][1] + 1)
        else:
            out.append((c, 1))
    return out


# -- a fresh drive image --------------------------------------------------------------------------

def make_image(path, size_kb=2048, label="CIRCUITPY", volume_id=0x20240901):
    """A freshly formatted FAT12 image laid out as CircuitPython formats its drive.

    CircuitPython's FatFs (f_mkfs with FM_FAT and automatic cluster size) makes
    one FAT, 512 root entries and 1 KB clusters on a 2 MB drive: 2028 clusters,
    2,076,672 bytes free. pyfatfs's own mkfs differs (two FATs, 224 root
    entries, a label cut to 8 characters), so the few fields are written here.
    """
    sector = 512
    sectors = size_kb * 1024 // sector
    per_cluster = 1
    for bound in (1, 4, 16, 64, 256, 512):     # FatFs's table, in units of 4096 sectors
        if bound > sectors // 4096:
            break
        per_cluster *= 2
    root_entries = 512 if sectors > 256 else 64
    fat_sectors = -(-((sectors // per_cluster * 3 + 1) // 2 + 3) // sector)
    data_start = 1 + fat_sectors + root_entries * 32 // sector
    clusters = (sectors - data_start) // per_cluster
    if not 16 <= clusters <= 4084 or sectors >= 0x10000:
        raise ValueError("FAT12 images from 64 KB up to about 4 MB only, not %d KB" % size_kb)
    boot = bytearray(sector)
    boot[0:11] = b"\xEB\x3C\x90MSDOS5.0"
    struct.pack_into("<HBHBHHBHHHLL", boot, 11, sector, per_cluster, 1, 1, root_entries,
                     sectors, 0xF8, fat_sectors, 63, 255, 0, 0)
    struct.pack_into("<BBBL", boot, 36, 0x80, 0, 0x29, volume_id)
    boot[43:54] = label.upper().ljust(11).encode("ascii")
    boot[54:62] = b"FAT12   "
    boot[510:512] = b"\x55\xAA"
    fat = bytearray(fat_sectors * sector)
    fat[0:3] = b"\xF8\xFF\xFF"                  # entries 0 and 1: media byte, end of chain
    root = bytearray(root_entries * 32)
    root[0:11] = boot[43:54]
    root[11] = 0x08                             # the volume label's entry
    with open(path, "wb") as f:
        f.write(boot)
        f.write(fat)
        f.write(root)
        f.truncate(sectors * sector)
    return path
