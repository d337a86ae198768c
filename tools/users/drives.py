"""Where deploy writes: a mounted CIRCUITPY drive, or a FAT disk image file.

Every Drive takes relative paths with forward slashes, and matches names
without case, as FAT does (CODE.PY is code.py). DirDrive is a mounted drive (any
directory); ImageDrive is a FAT12/16 image file, read and written by tools.users.fat,
so tests run on the same file system as a PyBadge's 2 MB drive. find_circuitpy looks
for a mounted board, mount_of for the device under a mount.
"""

import glob
import os
import re
import shutil
import struct
import sys

from tools.users import fat

LABELS = ("CIRCUITPY", "BINOCLE")   # CircuitPython's drive name, and the one boot.py gives it


class DriveGone(fat.DriveError):
    """The drive went away part-way through (a pulled cable)."""


class Drive:
    name = "drive"

    def files(self):
        """{path: size} of every file on the drive."""
        raise NotImplementedError

    def read(self, path):
        raise NotImplementedError

    def write(self, path, data):
        """Create or replace a file; its folder must exist."""
        raise NotImplementedError

    def rename(self, src, dst):
        """Rename src to dst, replacing dst if it exists."""
        raise NotImplementedError

    def remove(self, path):
        raise NotImplementedError

    def makedirs(self, path):
        raise NotImplementedError

    def exists(self, path):
        raise NotImplementedError

    def free(self):
        """Free bytes."""
        raise NotImplementedError

    def cluster_size(self):
        """Bytes per allocation unit: every file takes whole ones."""
        raise NotImplementedError

    def read_only(self):
        """True when the computer may not write the drive."""
        return False

    # Where a file lies: read from the drive's FAT, or None when this drive cannot tell
    # (why_unknown says why, in a few words).
    why_unknown = "this drive does not show where its files lie"

    def file_runs(self, path):
        """The file's clusters as runs [(first cluster, count)] in its chain's order (one
        run: the file lies in one piece), or None when this drive cannot tell."""
        return None

    def free_runs(self):
        """The free clusters as runs [(first cluster, count)], or None when it cannot tell."""
        return None

    def repairs(self):
        """What repair() would put right (sentences): damage a cut write left."""
        return []

    def repair(self):
        """Write what repairs() lists (the first change of a drive does it too)."""

    def sync(self):
        """Make sure everything written has reached the drive."""

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# -- a mounted drive ------------------------------------------------------------------------------

class DirDrive(Drive):
    def __init__(self, path):
        if not os.path.isdir(path):
            raise fat.DriveError("%s is not a directory" % path)
        self.root = path
        self.name = path

    def _p(self, path):
        """The host's path for a drive path, each name matched without case as FAT does:
        a drive mounted where the host keeps case (or shows short names in upper case)
        may hold BOOT_OUT.TXT or Code.py for boot_out.txt and code.py."""
        full = self.root
        for name in [p for p in path.split("/") if p]:
            full = os.path.join(full, self._match(full, name) or name)
        return full

    @staticmethod
    def _match(folder, name):
        """The name in folder that is name without case: itself first, else the first sorted."""
        try:
            names = os.listdir(folder)
        except OSError:
            return None
        if name in names:
            return name
        same = sorted(n for n in names if fat.fold(n) == fat.fold(name))
        return same[0] if same else None

    def _new(self, path, keep=None):
        """The host's path to write path at, in the case asked for: a file of that name in
        another case (CODE.PY for code.py) is removed first, so it is replaced, not doubled
        (unless it is keep, a file being renamed)."""
        head, _, name = path.rpartition("/")
        folder = self._p(head)
        there = self._match(folder, name)
        if there is not None and there != name:
            other = os.path.join(folder, there)
            if other != keep and not os.path.isdir(other):
                os.remove(other)
        return os.path.join(folder, name)

    def files(self):
        out = {}
        for top, _dirs, names in os.walk(self.root):
            for name in names:
                full = os.path.join(top, name)
                rel = os.path.relpath(full, self.root).replace(os.sep, "/")
                try:
                    out[rel] = os.path.getsize(full)
                except OSError:
                    pass
        return out

    def read(self, path):
        with open(self._p(path), "rb") as f:
            return f.read()

    def write(self, path, data):
        with open(self._new(path), "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())    # on the board's flash before the rename makes it count

    def rename(self, src, dst):
        src = self._p(src)
        os.replace(src, self._new(dst, keep=src))

    def remove(self, path):
        os.remove(self._p(path))

    def makedirs(self, path):
        os.makedirs(self._p(path), exist_ok=True)

    def exists(self, path):
        return os.path.exists(self._p(path))

    def free(self):
        return shutil.disk_usage(self.root).free

    def cluster_size(self):
        if hasattr(os, "statvfs"):
            st = os.statvfs(self.root)
            return st.f_frsize or st.f_bsize
        return _windows_cluster(self.root)

    def read_only(self):
        if hasattr(os, "statvfs") and os.statvfs(self.root).f_flag & getattr(os, "ST_RDONLY", 1):
            return True
        return not os.access(self.root, os.W_OK)

    def sync(self):
        if hasattr(os, "sync"):
            os.sync()

    def file_runs(self, path):
        return self._layout(lambda vol, inside: vol.file_runs(_join(inside, path)))

    def free_runs(self):
        return self._layout(lambda vol, inside: vol.free_runs())

    def _layout(self, ask):
        """ask(volume, the root's path inside it) on the FAT of the device under the mount,
        opened read-only after os.sync() (never written), or None (why_unknown says why)."""
        self.sync()
        where = mount_of(self.root)
        if where is None:
            self.why_unknown = "no mount found for %s (only Linux lists them)" % self.root
            return None
        device, fstype, inside = where
        if fstype not in ("vfat", "msdos", "fat"):
            self.why_unknown = "%s is not a FAT drive (%s on %s)" % (self.root, fstype, device)
            return None
        try:
            f = open(device, "rb", buffering=0)
        except OSError as e:
            self.why_unknown = "cannot read %s (%s)" % (device, e.strerror or e)
            return None
        try:
            return ask(fat.Volume(f, device), inside)
        except (fat.DriveError, fat.NotAnImage, struct.error, ValueError, IndexError,
                OverflowError) as e:
            self.why_unknown = "cannot read the FAT of %s (%s)" % (device, e)
            return None
        finally:
            f.close()


def _windows_cluster(root):
    import ctypes
    sectors, size, free, total = (ctypes.c_ulong() for _ in range(4))
    drive = os.path.splitdrive(os.path.abspath(root))[0] + "\\"
    if ctypes.windll.kernel32.GetDiskFreeSpaceW(drive, ctypes.byref(sectors), ctypes.byref(size),
                                                ctypes.byref(free), ctypes.byref(total)):
        return sectors.value * size.value
    return 4096


# -- a FAT image file -----------------------------------------------------------------------------

class ImageDrive(Drive):
    """A FAT12/16 disk image file, as a PyBadge's drive (opened for writing on the first change).

    fat.Volume reads and writes it, in an order of writes that a cut (a pulled cable,
    Ctrl-C) between any two of them cannot make unsound (tools/users/fat.py says how). On
    opening, the volume puts right in memory what a cut (or another tool's cut) can leave;
    the first change writes that first (repairs() says what it was), so a rerun of deploy
    starts from a sound drive and fsck.fat finds nothing after it.
    """

    def __init__(self, path):
        if not os.path.isfile(path):
            raise fat.DriveError("no such image file: %s" % path)
        self.image = path
        self.name = path
        self._f = self._open_file(writable=False)
        self._writable = False
        try:
            self._vol = fat.Volume(self._f, path)
        except (fat.DriveError, fat.NotAnImage):
            self._f.close()
            raise
        except (struct.error, ValueError, IndexError, OverflowError) as e:
            self._f.close()
            raise fat.NotAnImage("%s is not a FAT disk image (%s)" % (path, e))

    def _open_file(self, writable):
        """The image file, unbuffered: each write reaches it when it is made, in order."""
        try:
            return open(self.image, "r+b" if writable else "rb", buffering=0)
        except OSError as e:
            raise fat.DriveError("cannot %s %s: %s" % ("write" if writable else "read", self.image,
                                                  e.strerror or e))

    def _rw(self):
        if not self._writable:
            f = self._open_file(writable=True)
            self._f.close()
            self._f = self._vol.f = f
            self._writable = True
            self._vol.repair()
        return self._vol

    def repairs(self):
        return list(self._vol.notes)

    def repair(self):
        self._rw()

    def _file(self, path):
        entry = self._vol.find(path)
        if entry is None:
            raise fat.DriveError("%s: no such file on %s" % (path, self.image))
        if entry.is_folder():
            raise fat.DriveError("%s is a folder" % path)
        return entry

    def files(self):
        out = {}

        def walk(folder, prefix):
            for e in folder.entries():
                if not e.is_folder():
                    out[prefix + e.name] = e.size
                elif e.cluster:
                    walk(self._vol.folder(e.cluster), prefix + e.name + "/")
        walk(self._vol.folder(0), "")
        return out

    def read(self, path):
        entry = self._file(path)
        return self._vol.read_clusters(self._vol.chain(entry.cluster), entry.size)

    def free(self):
        return self._vol.free * self._vol.cluster_bytes

    def cluster_size(self):
        return self._vol.cluster_bytes

    def file_runs(self, path):
        self._file(path)
        return self._vol.file_runs(path)

    def free_runs(self):
        return self._vol.free_runs()

    def write(self, path, data):
        self._rw().write_file(path, data)

    def rename(self, src, dst):
        self._rw().rename(src, dst)

    def remove(self, path):
        self._file(path)
        self._rw().remove(path)

    def makedirs(self, path):
        parts = [p for p in path.split("/") if p]
        for depth in range(1, len(parts) + 1):
            sub = "/".join(parts[:depth])
            entry = self._vol.find(sub)
            if entry is None:
                self._rw().makedir(sub)
            elif not entry.is_folder():
                raise fat.DriveError("%s is a file on %s, not a folder" % (sub, self.image))

    def exists(self, path):
        return self._vol.find(path) is not None

    def sync(self):
        if self._writable:
            os.fsync(self._f.fileno())

    def close(self):
        if self._f is not None:
            self._f.close()
            self._f = None


# -- finding a board, and the device under a mount ------------------------------------------------

_PLACES = ("Volumes/%s", "media/%s", "media/*/%s", "run/media/*/%s", "mnt/%s", "mnt/*/%s")


def _mount_points():
    """Mount points listed by Linux (spaces come escaped as \\040)."""
    try:
        with open("/proc/mounts") as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    out = []
    for line in lines:
        fields = line.split()
        if len(fields) > 1:
            out.append(_unescape(fields[1]))
    return out


def _windows_drives(labels):
    import ctypes
    import string
    kernel32 = ctypes.windll.kernel32
    kernel32.SetErrorMode(1)      # no "insert a disk" box for an empty card reader
    found = []
    name = ctypes.create_unicode_buffer(261)
    for letter in string.ascii_uppercase:
        root = letter + ":\\"
        if kernel32.GetVolumeInformationW(root, name, len(name), None, None, None, None, 0):
            if name.value.upper() in labels:
                found.append(root)
    return found


def find_circuitpy(base="/", labels=LABELS):
    """Paths of mounted drives labelled CIRCUITPY or BINOCLE, sorted.

    base moves the search under another folder (for tests); Windows looks at
    the drive letters' volume labels instead."""
    if sys.platform == "win32" and base == "/":
        return _windows_drives(labels)
    found = set()
    for label in labels:
        for place in _PLACES:
            for path in glob.glob(os.path.join(base, place % label)):
                if os.path.isdir(path):
                    found.add(path)
    if base == "/":
        for point in _mount_points():
            if os.path.basename(point) in labels and os.path.isdir(point):
                found.add(point)
    return sorted(found)


def _join(inside, path):
    return "/".join(p for p in inside.split("/") + path.split("/") if p)


def _unescape(field):
    """A path as /proc lists it: spaces and the like come as \\040."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


def parse_mountinfo(text):
    """[(mount point, root inside the file system, type, device)] from /proc/self/mountinfo,
    whose lines read (proc(5))

        36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue

    (id, parent, major:minor, root, mount point, options, optional fields, -, type, source)."""
    out = []
    for line in text.splitlines():
        fields = line.split()
        if "-" not in fields[6:]:
            continue
        dash = fields.index("-", 6)
        if len(fields) < dash + 3 or dash < 6:
            continue
        out.append((_unescape(fields[4]), _unescape(fields[3]), fields[dash + 1],
                    _unescape(fields[dash + 2])))
    return out


def mount_of(path, text=None):
    """(device, file system type, path of `path` inside that file system) of the mount that
    holds path (the last of the longest mount points above it), or None (no Linux mountinfo)."""
    if text is None:
        try:
            with open("/proc/self/mountinfo") as f:
                text = f.read()
        except OSError:
            return None
    full = os.path.realpath(path)
    best = None
    for point, root, fstype, device in parse_mountinfo(text):
        if full == point or full.startswith(point.rstrip("/") + "/"):
            if best is None or len(point) >= len(best[0]):
                best = (point, root, fstype, device)
    if best is None:
        return None
    point, root, fstype, device = best
    rest = full[len(point.rstrip("/")):]
    return device, fstype, _join(root, rest)
