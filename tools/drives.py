"""Where deploy writes: a mounted CIRCUITPY drive, or a FAT disk image file.

Every Drive takes relative paths with forward slashes. DirDrive is a mounted
drive (any directory); ImageDrive is a FAT12 image file read and written with
PyPI's pyfatfs, so tests run on the same file system as a PyBadge's 2 MB drive;
FailingDrive wraps either and pulls the cable at a chosen step.
"""

import glob
import math
import os
import posixpath
import re
import shutil
import struct
import sys
import warnings

LABELS = ("CIRCUITPY", "BINOCLE")   # CircuitPython's drive name, and the one boot.py gives it


class DriveError(Exception):
    """A drive problem, said in one line."""


class DriveFull(DriveError):
    pass


class DriveGone(DriveError):
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
            raise DriveError("%s is not a directory" % path)
        self.root = path
        self.name = path

    def _p(self, path):
        return os.path.join(self.root, *path.split("/"))

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
        with open(self._p(path), "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())    # on the board's flash before the rename makes it count

    def rename(self, src, dst):
        os.replace(self._p(src), self._p(dst))

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
    """A FAT12/16 disk image, through pyfatfs (opened for writing only on the first change).

    pyfatfs 1.1.0 needs four helps here: it renames by copying (done below with
    its directory entries instead), leaves stale entries when a directory
    shrinks (cleared after each directory write), does not write the FAT after a
    removal on FAT12 (flushed after each removal), and would allocate clusters
    past the end of the volume when it is full (writes check the space first).
    """

    def __init__(self, path):
        if not os.path.isfile(path):
            raise DriveError("no such image file: %s" % path)
        self.image = path
        self.name = path
        self._fs = None
        self._open(writable=False)

    def _open(self, writable):
        from pyfatfs.PyFatFS import PyFatFS
        from pyfatfs._exceptions import PyFATException
        if self._fs is not None:
            self._fs.close()
            self._fs = None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")     # "not cleanly unmounted": deploy copes
                self._fs = PyFatFS(self.image, read_only=not writable)
        except (PyFATException, OSError, ValueError, struct.error, KeyError) as e:
            raise DriveError("%s is not a FAT disk image (%s)" % (self.image, e))
        self._writable = writable
        pf = self._fs.fs
        if pf.fat_type not in (12, 16):
            raise DriveError("%s: only FAT12/FAT16 images are supported" % self.image)
        total = pf.bpb_header["BPB_TotSec16"] or pf.bpb_header["BPB_TotSec32"]
        self._clusters = (total - pf.first_data_sector) // pf.bpb_header["BPB_SecPerClus"]
        if writable:
            update, flush = pf.update_directory_entry, pf.flush_fat
            flushed = [list(pf.fat)]

            def update_and_clear(entry):
                update(entry)
                self._clear_tail(entry)

            def flush_if_changed():          # pyfatfs writes the whole FAT after every file
                if pf.fat != flushed[0]:
                    flush()
                    flushed[0] = list(pf.fat)
            pf.update_directory_entry = update_and_clear
            pf.flush_fat = flush_if_changed

    def _rw(self):
        if not self._writable:
            self._open(writable=True)
        return self._fs

    def _clear_tail(self, entry):
        pf = self._fs.fs
        if entry is pf.root_dir:
            return                   # FAT12's fixed root: pyfatfs zero-fills it already
        used = sum(len(bytes(e)) for e in entry._get_entries_raw())
        chain = list(pf.get_cluster_chain(entry.get_cluster()))
        size = pf.bytes_per_cluster
        for cluster in chain[max(1, math.ceil(used / size)):]:
            pf._write_data_to_address(b"\0" * size, pf.get_data_cluster_address(cluster))

    def _entry(self, path):
        from pyfatfs._exceptions import PyFATException
        try:
            return self._fs.fs.root_dir.get_entry(path)
        except PyFATException:
            raise DriveError("%s: no such file on %s" % (path, self.image))

    def files(self):
        out = {}

        def walk(entry, prefix):
            dirs, files, _special = entry.get_entries()
            for f in files:
                out[prefix + str(f)] = f.filesize
            for d in dirs:
                walk(d, prefix + str(d) + "/")
        walk(self._fs.fs.root_dir, "")
        return out

    def read(self, path):
        entry = self._entry(path)
        if entry.is_directory():
            raise DriveError("%s is a folder" % path)
        return self._fs.readbytes(path)

    def _free_clusters(self):
        fat = self._fs.fs.fat
        return sum(1 for c in range(2, self._clusters + 2) if fat[c] == 0)

    def free(self):
        return self._free_clusters() * self._fs.fs.bytes_per_cluster

    def cluster_size(self):
        return self._fs.fs.bytes_per_cluster

    def write(self, path, data):
        fs = self._rw()
        size = fs.fs.bytes_per_cluster
        need = -(-len(data) // size) + 1           # one more: the folder may grow
        have = self._free_clusters()
        if fs.exists(path):
            have += -(-self._entry(path).filesize // size)
        if need > have:
            raise DriveFull("no space left on %s for %s" % (self.image, path))
        with fs.openbin(path, "w") as f:
            if data:
                f.write(data)

    def rename(self, src, dst):
        from pyfatfs.EightDotThree import EightDotThree
        from pyfatfs.FATDirectoryEntry import FATDirectoryEntry, make_lfn_entry
        fs = self._rw()
        entry = self._entry(src)
        if entry.is_directory():
            raise DriveError("%s: renaming folders is not supported" % src)
        if fs.exists(dst):
            fs.remove(dst)
        parent = entry.get_parent_dir()
        target = self._entry(posixpath.dirname(dst)) if posixpath.dirname(dst) else fs.fs.root_dir
        name = posixpath.basename(dst)
        short = EightDotThree(encoding=fs.fs.encoding)
        short.set_str_name(short.make_8dot3_name(name, target))
        moved = FATDirectoryEntry.new(name=short, tz=fs.tz, encoding=fs.fs.encoding,
                                      attr=entry.attr, cluster=entry.get_cluster(),
                                      filesize=entry.filesize)
        if short.get_unpadded_filename() != name:
            moved.set_lfn_entry(make_lfn_entry(name, short))
        parent.remove_dir_entry(posixpath.basename(src))
        target.add_subdirectory(moved)
        if target is not parent:
            fs.fs.update_directory_entry(parent)
        fs.fs.update_directory_entry(target)
        fs.fs.flush_fat()

    def remove(self, path):
        fs = self._rw()
        self._entry(path)
        fs.remove(path)
        fs.fs.flush_fat()

    def makedirs(self, path):
        self._rw().makedirs(path, recreate=True)

    def exists(self, path):
        return self._fs.exists(path)

    def close(self):
        if self._fs is not None:
            self._fs.close()
            self._fs = None


# -- a drive that goes away -----------------------------------------------------------------------

class FailingDrive(Drive):
    """Pulls the cable after N writes (fail_after_writes) or N changes of any kind
    (fail_after_steps: writes, renames, removals, new folders).

    The write that is cut leaves half its bytes; another change that is cut does
    not happen. After that every operation fails, like a drive that is gone.
    """

    def __init__(self, inner, fail_after_writes=None, fail_after_steps=None):
        self.inner = inner
        self.name = inner.name
        self.fail_after_writes = fail_after_writes
        self.fail_after_steps = fail_after_steps
        self.writes = 0
        self.steps = 0
        self.gone = False

    def _cut(self, is_write, what):
        if self.gone:
            raise DriveGone("the drive went away")
        cut = (self.fail_after_steps is not None and self.steps >= self.fail_after_steps) or \
            (is_write and self.fail_after_writes is not None and self.writes >= self.fail_after_writes)
        self.steps += 1
        self.writes += is_write
        if cut:
            self.gone = True
            self.message = "the drive went away (simulated: cable pulled during %s)" % what
        return cut

    def _live(self):
        if self.gone:
            raise DriveGone("the drive went away")
        return self.inner

    def write(self, path, data):
        if self._cut(True, "writing " + path):
            self.inner.write(path, data[:len(data) // 2])
            raise DriveGone(self.message)
        self.inner.write(path, data)

    def rename(self, src, dst):
        if self._cut(False, "renaming " + src):
            raise DriveGone(self.message)
        self.inner.rename(src, dst)

    def remove(self, path):
        if self._cut(False, "removing " + path):
            raise DriveGone(self.message)
        self.inner.remove(path)

    def makedirs(self, path):
        if self._cut(False, "making " + path):
            raise DriveGone(self.message)
        self.inner.makedirs(path)

    def files(self):
        return self._live().files()

    def read(self, path):
        return self._live().read(path)

    def exists(self, path):
        return self._live().exists(path)

    def free(self):
        return self._live().free()

    def cluster_size(self):
        return self._live().cluster_size()

    def read_only(self):
        return self._live().read_only()

    def sync(self):
        self._live().sync()

    def close(self):
        self.inner.close()


# -- finding a board ------------------------------------------------------------------------------

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
            out.append(re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[1]))
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
