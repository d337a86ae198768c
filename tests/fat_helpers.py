"""Looking at FAT images from outside tools/users/fat.py, and an image file that a cut stops.

- mkfs_image: the drive tests/data/make-circuitpy-mkfs.sh made with mkfs.fat and mcopy;
- read_with_pyfatfs: every file as PyPI's pyfatfs reads it (its warnings count as failures);
- fat_problems: the image checked here byte by byte, the test's own fsck;
- fsck: fsck.fat -n's verdict, when dosfstools is installed;
- CutImage: an ImageDrive whose file stops taking writes after N of them.
"""

import gzip
import os
import shutil
import struct
import subprocess
import warnings

from tools.users import drives

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "circuitpy-mkfs.img.gz")


def mkfs_image(path):
    """A fresh 2 MB CircuitPython drive as mkfs.fat and mcopy make it: 512-byte clusters, two
    FATs, boot_out.txt and code.py as short names with the NT case bits, settings.toml with a
    long name, an empty folder lib."""
    with gzip.open(FIXTURE, "rb") as src, open(str(path), "wb") as dst:
        shutil.copyfileobj(src, dst)
    return str(path)


# -- pyfatfs --------------------------------------------------------------------------------------

def _cased(entry):
    """A short name in the case its byte 12 gives (pyfatfs shows it in upper case)."""
    base, _, ext = entry.get_short_name().partition(".")
    if entry.ntres & 0x08:
        base = base.lower()
    if entry.ntres & 0x10:
        ext = ext.lower()
    return base + "." + ext if ext else base


def read_with_pyfatfs(path):
    """{path: bytes} of every file in the image, read by pyfatfs; names as FatFs shows them."""
    from pyfatfs.PyFatFS import PyFatFS
    from pyfatfs._exceptions import NotAnLFNEntryException
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # not closed cleanly, FATs differ, a broken long name
        fs = PyFatFS(str(path), read_only=True)
        try:
            pf = fs.fs

            def walk(folder, shown):
                dirs, files, _special = folder.get_entries()
                for e in dirs + files:
                    try:
                        name = e.get_long_name()
                    except NotAnLFNEntryException:
                        name = _cased(e)
                    if e.is_directory():
                        walk(e, shown + name + "/")
                    elif e.get_cluster():
                        data = b"".join(pf.read_cluster_contents(c)
                                        for c in pf.get_cluster_chain(e.get_cluster()))
                        out[shown + name] = data[:e.filesize]
                    else:
                        out[shown + name] = b""
            walk(pf.root_dir, "")
        finally:
            fs.close()
    return out


# -- the test's own check -------------------------------------------------------------------------

def fat_problems(path):
    """What is wrong in a FAT12/16 image, as short lines (none: sound).

    FAT copies that differ, a "not closed cleanly" mark, an entry whose chain meets a free,
    bad or outside cluster, a cluster in two chains, a chain that does not fit its file's
    size, a folder with a size, clusters taken that no entry reaches, long-name slots with
    no entry after them, a name twice in one folder."""
    with open(str(path), "rb") as f:
        img = f.read()
    sector, per, reserved, copies, root_count, total16, _media, fat_sectors = \
        struct.unpack_from("<HBHBHHBH", img, 11)
    total = total16 or struct.unpack_from("<L", img, 32)[0]
    size = sector * per
    fat_at = reserved * sector
    root_at = fat_at + copies * fat_sectors * sector
    data_at = root_at + -(-root_count * 32 // sector) * sector
    count = (total * sector - data_at) // size
    bits = 12 if count < 4085 else 16
    bad = (1 << bits) - 9
    fats = [img[fat_at + i * fat_sectors * sector:fat_at + (i + 1) * fat_sectors * sector]
            for i in range(copies)]
    fat = fats[0]
    problems = []
    if len(set(fats)) > 1:
        problems.append("FAT copies differ")
    if img[38] == 0x29 and img[37] & 1:
        problems.append("marked not closed cleanly")

    def nxt(c):
        if bits == 16:
            return fat[2 * c] | fat[2 * c + 1] << 8
        v = fat[c + c // 2] | fat[c + c // 2 + 1] << 8
        return v >> 4 if c & 1 else v & 0xFFF

    owner = {}

    def chain(c, what):
        out = []
        while True:
            if not 2 <= c < count + 2:
                problems.append("%s: cluster %d is outside the drive" % (what, c))
                return out
            if c in owner:
                problems.append("%s: cluster %d is also %s's" % (what, c, owner[c]))
                return out
            v = nxt(c)
            if v == 0 or v == bad:
                problems.append("%s: its chain meets %s cluster %d" % (
                    what, "a free" if v == 0 else "a bad", c))
                return out
            owner[c] = what
            out.append(c)
            if v > bad:
                return out
            c = v

    def folder(slots, prefix):
        names, run = set(), []
        for s in slots:
            if s[0] == 0:
                break
            if s[0] == 0xE5:
                if run:
                    problems.append("%s: long-name slots with no entry" % (prefix or "/"))
                run = []
                continue
            if s[11] & 0x3F == 0x0F:
                if s[0] & 0x40:
                    if run:
                        problems.append("%s: long-name slots with no entry" % (prefix or "/"))
                    run = [s]
                elif run and s[0] == (run[-1][0] & 0x1F) - 1 and s[13] == run[0][13]:
                    run.append(s)
                else:
                    problems.append("%s: a long-name slot out of order" % (prefix or "/"))
                    run = []
                continue
            if s[11] & 0x08 or s[0:11] in (b".          ", b"..         "):
                if run:
                    problems.append("%s: long-name slots with no entry" % (prefix or "/"))
                run = []
                continue
            check = 0
            for b in s[0:11]:
                check = (((check & 1) << 7) + (check >> 1) + b) & 0xFF
            if run and (run[-1][0] & 0x1F != 1 or run[0][13] != check):
                problems.append("%s: long-name slots that do not fit their entry" % (prefix or "/"))
                run = []
            if run:
                units = b"".join(r[1:11] + r[14:26] + r[28:32] for r in reversed(run))
                name = units.decode("utf-16-le").split("\0")[0]
            else:
                name = s[0:8].rstrip(b" ").decode("cp437")
                if s[8:11].strip():
                    name += "." + s[8:11].rstrip(b" ").decode("cp437")
            run = []
            path = prefix + name
            if name.upper() in names:
                problems.append("%s is listed twice" % path)
            names.add(name.upper())
            start, length = struct.unpack_from("<HL", s, 26)
            if s[11] & 0x10:
                if length:
                    problems.append("%s/ has a size" % path)
                clusters = chain(start, path) if start else []
                if not clusters:
                    problems.append("%s/ has no cluster" % path)
                    continue
                body = b"".join(img[data_at + (c - 2) * size:data_at + (c - 1) * size] for c in clusters)
                folder([body[i:i + 32] for i in range(0, len(body), 32)], path + "/")
            else:
                clusters = chain(start, path) if start else []
                if len(clusters) != -(-length // size):
                    problems.append("%s: %d bytes in %d clusters" % (path, length, len(clusters)))
        if run:
            problems.append("%s: long-name slots with no entry" % (prefix or "/"))

    root = img[root_at:root_at + root_count * 32]
    folder([root[i:i + 32] for i in range(0, len(root), 32)], "")
    lost = [c for c in range(2, count + 2) if c not in owner and nxt(c) not in (0, bad)]
    if lost:
        problems.append("%d clusters taken that no entry reaches" % len(lost))
    return problems


def fsck(path):
    """None when fsck.fat is not installed; else the problems fsck.fat -n reports (none: clean)."""
    if not shutil.which("fsck.fat"):
        return None
    done = subprocess.run(["fsck.fat", "-n", str(path)], capture_output=True, text=True)
    lines = [line for line in (done.stdout + done.stderr).splitlines()
             if line.strip() and not line.startswith("fsck.fat ") and not line.startswith(str(path) + ":")]
    if done.returncode and not lines:
        lines = ["fsck.fat -n exited with %d" % done.returncode]
    return lines


# -- a cut ----------------------------------------------------------------------------------------

class CutImage(drives.ImageDrive):
    """An ImageDrive whose image file stops taking writes after cut_after of them (None: never),
    as when a cable is pulled or Ctrl-C pressed between two writes; writes counts them."""

    def __init__(self, path, cut_after=None):
        self.cut_after = cut_after
        self.writes = 0
        super().__init__(path)

    def _open_file(self, writable):
        f = super()._open_file(writable)
        return _CutFile(f, self) if writable else f


class _CutFile:
    def __init__(self, f, drive):
        self._f = f
        self._drive = drive

    def write(self, data):
        d = self._drive
        if d.cut_after is not None and d.writes >= d.cut_after:
            raise drives.DriveGone("the drive went away (simulated: cut before write %d)"
                                   % (d.writes + 1))
        d.writes += 1
        return self._f.write(data)

    def __getattr__(self, name):
        return getattr(self._f, name)
