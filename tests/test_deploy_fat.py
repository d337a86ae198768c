"""deploy --image on drives as real ones are made, and after a cut at any write of the image.

tests/data/circuitpy-mkfs.img.gz is a fresh 2 MB drive made by mkfs.fat and mcopy
(tests/data/make-circuitpy-mkfs.sh says exactly how): like FatFs (CircuitPython) and
Windows, mtools keeps boot_out.txt as the short entry BOOT_OUTTXT with the NT case bits
(byte 12) and no long name. Other drives here get such entries written byte by byte.
Every result is read back by pyfatfs (names cased from byte 12 by the test), checked by
fat_helpers.fat_problems (this suite's own check of the FAT and the folders) and, when
dosfstools is installed, by fsck.fat -n.
"""

import io
import os
import shutil
import struct
import warnings

import pytest

from tests.fat_helpers import CutImage, _CutFile, fat_problems, fsck, mkfs_image, read_with_pyfatfs
from tests.test_deploy import BOOT_OUT, PLAYER, V1, V2, small_bundle
from tools.users import bundle, deploy, drives, manifest
from tools.users import fat

from binocle import startup     # noqa: E402  (tests.test_deploy put lib/ on the path)

SETTINGS = b"# settings of your own\n"       # in the mkfs.fat drive, with boot_out.txt and code.py
KEEP = dict(PLAYER, **{"boot_out.txt": BOOT_OUT, "settings.toml": SETTINGS})


@pytest.fixture(autouse=True)
def no_fsync(monkeypatch):
    """Hundreds of deploys here: their fsync of the image changes nothing a test reads back."""
    monkeypatch.setattr(drives.ImageDrive, "sync", lambda self: None)


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("game") / "bundle")
    bundle.build(out)
    return out


@pytest.fixture(scope="module")
def v1(tmp_path_factory):
    return small_bundle(tmp_path_factory.mktemp("v1"), "1.0.0", V1)


@pytest.fixture(scope="module")
def v2(tmp_path_factory):
    return small_bundle(tmp_path_factory.mktemp("v2"), "2.0.0", V2)


def run(folder, drive):
    out = io.StringIO()
    deploy.deploy(folder, drive, out=out)
    return out.getvalue()


def player_drive(path):
    """The mkfs.fat drive with the player's files on it too (saves/game.bin, settings.bin, notes.txt)."""
    mkfs_image(path)
    with drives.ImageDrive(str(path)) as d:
        d.makedirs("saves")
        for name, data in PLAYER.items():
            d.write(name, data)
    return str(path)


def root_slots(path):
    """The root folder's live 32-byte slots, in order (removed ones and the end left out)."""
    with open(str(path), "rb") as f:
        img = f.read()
    sector, _per, reserved, copies, count, _t, _m, fat_sectors = struct.unpack_from("<HBHBHHBH", img, 11)
    at = (reserved + copies * fat_sectors) * sector
    slots = [img[at + 32 * i:at + 32 * (i + 1)] for i in range(count)]
    live = []
    for s in slots:
        if s[0] == 0:
            break
        if s[0] != 0xE5:
            live.append(s)
    return live


def short_entries(path, short):
    """The root's live short entries named short (11 bytes), each with the slot before it."""
    live = root_slots(path)
    return [(s, live[i - 1] if i else None) for i, s in enumerate(live)
            if s[0:11] == short and s[11] != 0x0F]


def startup_check(files, tmp_path):
    """The board's start-up check over these files ({path: bytes}), put in a folder."""
    dest = tmp_path / "seen"
    shutil.rmtree(str(dest), ignore_errors=True)
    dest.mkdir()
    for path, data in files.items():
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return startup.check(str(dest))


def assert_sound(image, folder, tmp_path, keep=KEEP, why=""):
    """The image holds folder's bundle byte for byte as pyfatfs reads it, the files in keep as
    they were, no temporary file; the start-up check passes; the FAT and folders are sound by
    this suite's check and, when it is installed, by fsck.fat -n."""
    m = manifest.read(os.path.join(folder, manifest.NAME))
    seen = read_with_pyfatfs(image)
    for f in m["files"]:
        assert manifest.sha256(seen.get(f["path"], b"")) == f["sha256"], (why, f["path"])
    assert seen.get(manifest.NAME) == manifest.dumps(m), why
    for name, data in keep.items():
        assert seen.get(name) == data, (why, name)
    assert not [p for p in seen if p.endswith(manifest.TMP_SUFFIX)], why
    assert startup_check(seen, tmp_path) == [], why
    assert fat_problems(image) == [], why
    assert fsck(image) in (None, []), (why, fsck(image))


# -- names as FatFs, Windows and mtools keep them -------------------------------------------------

def test_short_names_keep_their_case_as_fatfs_and_windows_write_them():
    form = fat.short_form
    assert form("boot_out.txt") == (b"BOOT_OUTTXT", 0x18)
    assert form("__init__.py") == (b"__INIT__PY ", 0x18)
    assert form("lib") == (b"LIB        ", 0x08)
    assert form("LIB") == (b"LIB        ", 0x00)
    assert form("code.PY") == (b"CODE    PY ", 0x08)
    assert form("README.txt") == (b"README  TXT", 0x10)
    assert form("x1.py") == (b"X1      PY ", 0x18)
    for name in ("Code.py", "manifest.json", "settings.toml", "code.py.tmp-binocle", "a.b.py",
                 ".hidden", "x y.py", "caf\u00e9.py", "abcdefghi.py", "a+b.py", "dot."):
        assert form(name) is None, name


def test_the_drive_mkfs_fat_and_mcopy_made_reads_as_a_board_shows_it(tmp_path):
    image = mkfs_image(tmp_path / "mkfs.img")
    [(boot, before)] = short_entries(image, b"BOOT_OUTTXT")
    assert boot[12] == 0x18 and before[11] != 0x0F          # the premise: no long name
    assert fat_problems(image) == [] and fsck(image) in (None, [])
    with drives.ImageDrive(image) as d:
        assert d.files() == {"boot_out.txt": len(BOOT_OUT), "code.py": 22,
                             "settings.toml": len(SETTINGS)}
        assert d.read("boot_out.txt") == d.read("BOOT_OUT.TXT") == BOOT_OUT
        assert d.exists("Boot_Out.Txt") and d.exists("lib") and d.exists("LIB")
        assert d.repairs() == [] and d.cluster_size() == 512


def test_deploy_onto_the_drive_mkfs_fat_and_mcopy_made(tmp_path, game):
    image = mkfs_image(tmp_path / "mkfs.img")
    assert deploy.main(["--image", image, "--bundle", game, "--yes"]) == 0
    keep = {"boot_out.txt": BOOT_OUT, "settings.toml": SETTINGS}
    assert_sound(image, game, tmp_path, keep)
    [(code, before)] = short_entries(image, b"CODE    PY ")      # replaced, not doubled
    assert code[12] == 0x18 and before[11] != 0x0F             # lower case, as FatFs writes it
    [(lib, _)] = short_entries(image, b"LIB        ")            # the game went into mcopy's lib
    assert lib[12] == 0x08
    with drives.ImageDrive(image) as d:
        assert "nothing to do" in run(game, d)


def _slot(short, attr, bits, cluster, size):
    return short + struct.pack("<BBBHHHHHHHL", attr, bits, 0, 0x6000, 0x5974, 0x5974, 0, 0x6000,
                               0x5974, cluster, size)


def nt_drive(path):
    """A drive of make_image's layout whose entries are written here byte by byte, as FatFs
    and Windows leave them: boot_out.txt, code.PY, lib/, README.TXT and NOTES.txt."""
    fat.make_image(str(path))
    with open(str(path), "r+b") as f:
        img = bytearray(f.read())
        sector, per, reserved, copies, count, _t, _m, fat_sectors = \
            struct.unpack_from("<HBHBHHBH", img, 11)
        fat_at, size = reserved * sector, sector * per
        root = fat_at + copies * fat_sectors * sector
        data = root + count * 32
        code = b"print('old')\n"
        entries = [_slot(b"BOOT_OUTTXT", 0x20, 0x18, 2, len(BOOT_OUT)),
                   _slot(b"CODE    PY ", 0x20, 0x08, 3, len(code)),
                   _slot(b"LIB        ", 0x10, 0x08, 4, 0),
                   _slot(b"README  TXT", 0x20, 0x00, 0, 0),
                   _slot(b"NOTES   TXT", 0x20, 0x10, 5, 5)]
        for i, e in enumerate(entries):
            img[root + 32 * (i + 1):root + 32 * (i + 2)] = e      # slot 0: the volume label
        for c, body in ((2, BOOT_OUT), (3, code), (5, b"mine\n"),
                        (4, _slot(b".          ", 0x10, 0, 4, 0) + _slot(b"..         ", 0x10, 0, 0, 0))):
            img[data + (c - 2) * size:data + (c - 2) * size + len(body)] = body
        img[fat_at + 3:fat_at + 9] = b"\xff\xff\xff\xff\xff\xff"   # clusters 2 to 5: end of chain
        f.seek(0)
        f.write(img)
    return str(path)


def test_entries_with_the_nt_case_bits_written_byte_by_byte(tmp_path, v1):
    image = nt_drive(tmp_path / "nt.img")
    assert fat_problems(image) == [] and fsck(image) in (None, [])
    with drives.ImageDrive(image) as d:
        assert d.files() == {"boot_out.txt": len(BOOT_OUT), "code.PY": 13, "README.TXT": 0,
                             "NOTES.txt": 5}
        assert d.read("CODE.PY") == d.read("code.py") == b"print('old')\n"
        assert d.exists("lib") and d.exists("Lib") and d.exists("readme.txt")
        d.write("readme.txt", b"now in lower case\n")            # replaces README.TXT
    with drives.ImageDrive(image) as d:
        assert d.files()["readme.txt"] == 18 and "README.TXT" not in d.files()
        run(v1, d)
    keep = {"boot_out.txt": BOOT_OUT, "NOTES.txt": b"mine\n", "readme.txt": b"now in lower case\n"}
    assert_sound(image, v1, tmp_path, keep)
    [(code, before)] = short_entries(image, b"CODE    PY ")
    assert code[12] == 0x18 and before[11] != 0x0F
    [(lib, _)] = short_entries(image, b"LIB        ")
    [(readme, _)] = short_entries(image, b"README  TXT")
    assert (lib[12], readme[12]) == (0x08, 0x18)
    with drives.ImageDrive(image) as d:
        assert sorted(p for p in d.files() if p.startswith("lib/")) == [
            "lib/binocle/__init__.py", "lib/binocle/app.py", "lib/binocle/version.py"]


def test_a_mounted_folder_whose_names_are_in_other_cases(tmp_path, v1, v2):
    """A drive mounted where the host keeps case, showing short names in upper case."""
    root = tmp_path / "CIRCUITPY"
    (root / "LIB").mkdir(parents=True)
    (root / "SAVES").mkdir()
    (root / "BOOT_OUT.TXT").write_bytes(BOOT_OUT)
    (root / "Code.py").write_bytes(b"print('hello')\n")
    (root / "SAVES" / "GAME.BIN").write_bytes(PLAYER["saves/game.bin"])
    d = drives.DirDrive(str(root))
    assert d.exists("boot_out.txt") and d.read("boot_out.txt") == BOOT_OUT
    run(v1, d)
    run(v2, d)
    assert sorted(os.listdir(str(root))) == ["BOOT_OUT.TXT", "LIB", "SAVES", "assets", "boot.py",
                                             "code.py", "engine", "manifest.json"]
    assert os.listdir(str(root / "LIB")) == ["binocle"]
    m = manifest.read(os.path.join(v2, manifest.NAME))
    for f in m["files"]:
        assert manifest.sha256(d.read(f["path"])) == f["sha256"], f["path"]
    assert not d.exists("engine/old.py")
    assert (root / "SAVES" / "GAME.BIN").read_bytes() == PLAYER["saves/game.bin"]
    assert "nothing to do" in run(v2, d)


# -- cuts -----------------------------------------------------------------------------------------

def writes_of(folder, base, tmp_path):
    """How many writes of the image file a deploy of folder onto base makes."""
    probe = str(tmp_path / "probe.img")
    shutil.copyfile(base, probe)
    with CutImage(probe) as d:
        run(folder, d)
    os.remove(probe)
    return d.writes


def assert_the_board_would_not_start_half_a_game(image, tmp_path, why):
    """Its start-up check finds something, or every file the drive's manifest lists is whole."""
    with drives.ImageDrive(image) as d:
        files = dict((p, d.read(p)) for p in d.files())
    if startup_check(files, tmp_path) == [] and manifest.NAME in files:
        for f in manifest.loads(files[manifest.NAME])["files"]:
            assert manifest.sha256(files.get(f["path"], b"")) == f["sha256"], (why, f["path"])


def cut_and_rerun(base, folder, tmp_path, cuts, total):
    image = str(tmp_path / "cut.img")
    for n in cuts:
        why = "cut before write %d of %d" % (n + 1, total)
        shutil.copyfile(base, image)
        with CutImage(image, cut_after=n) as d:
            with pytest.raises(deploy.DeployError, match="went away.*run deploy again"):
                run(folder, d)
        assert_the_board_would_not_start_half_a_game(image, tmp_path, why)
        with drives.ImageDrive(image) as d:
            text = run(folder, d)           # after the last writes, only the FAT is left to fix
        assert "done: binocle" in text or "its file system is put right" in text, why
        assert_sound(image, folder, tmp_path, why=why)


@pytest.mark.parametrize("start", ["fresh", "update"])
def test_a_deploy_cut_at_every_write_of_the_image_is_finished_by_a_rerun(start, tmp_path, v1, v2):
    """The reduced bundle v2 (11 files: new and old folders, a removal, code.py last) onto the
    mkfs.fat drive with the player's files, fresh or over v1: cut before each write of the
    image file in turn (every one: some 50 to 80), then deploy again."""
    base = player_drive(tmp_path / "base.img")
    if start == "update":
        with drives.ImageDrive(base) as d:
            run(v1, d)
    total = writes_of(v2, base, tmp_path)
    assert total >= 40
    cut_and_rerun(base, v2, tmp_path, range(total), total)


@pytest.mark.parametrize("start", ["fresh", "update"])
def test_the_game_cut_at_every_twelfth_write_is_finished_by_a_rerun(start, tmp_path, game, v1):
    """The whole game onto the mkfs.fat drive, fresh or over v1 (some 450 writes each): cut
    before every 12th write, from the 1st fresh and from the 7th as an update, then deploy again."""
    base = player_drive(tmp_path / "base.img")
    if start == "update":
        with drives.ImageDrive(base) as d:
            run(v1, d)
    total = writes_of(game, base, tmp_path)
    assert total >= 300
    cut_and_rerun(base, game, tmp_path, range(0 if start == "fresh" else 6, total, 12), total)


# -- what other writers' cuts left ----------------------------------------------------------------

def damaged_drive(path):
    """The mkfs.fat drive with, written byte by byte, what cut writes of pyfatfs and others leave:
    an entry on a free cluster, an entry twice, two chains sharing a cluster, long-name slots
    without their entry, an old entry after the folder's end, clusters no entry reaches (in
    the first FAT only, so the copies differ) and the "not closed cleanly" mark."""
    mkfs_image(path)
    with open(str(path), "r+b") as f:
        img = bytearray(f.read())
    sector, _per, reserved, copies, count, _t, _m, fat_sectors = struct.unpack_from("<HBHBHHBH", img, 11)
    fat_at = reserved * sector
    root = fat_at + copies * fat_sectors * sector

    def link(c, v, copy=None):
        for k in ([copy] if copy is not None else range(copies)):
            at = fat_at + k * fat_sectors * sector + c + c // 2
            w = img[at] | img[at + 1] << 8
            w = (w & 0x000F) | v << 4 if c & 1 else (w & 0xF000) | v
            img[at:at + 2] = struct.pack("<H", w)
    live = len(root_slots(path))
    orphan = bytearray(_slot(b"NOTHING TXT", 0x0F, 0, 0, 0))
    orphan[0] = 0x41
    orphan[13] = 0x99
    slots = [_slot(b"LOST    PY ", 0x20, 0x18, 200, 700),          # its clusters never got taken
             _slot(b"A       TXT", 0x20, 0x18, 300, 1000),
             _slot(b"B       TXT", 0x20, 0x18, 301, 512),          # A's second cluster
             _slot(b"A       TXT", 0x20, 0x18, 300, 1000),         # A again
             bytes(orphan), _slot(b"C       TXT", 0x20, 0x18, 0, 0)]
    for i, s in enumerate(slots):
        img[root + 32 * (live + i):root + 32 * (live + i + 1)] = s
    img[root + 32 * 40:root + 32 * 41] = _slot(b"STALE   TXT", 0x20, 0, 0, 0)
    link(300, 301)
    link(301, 0xFFF)
    link(400, 401, copy=0)
    link(401, 0xFFF, copy=0)
    img[37] |= 1
    with open(str(path), "wb") as f:
        f.write(img)
    return str(path)


def test_what_cut_writes_left_is_put_right_before_the_plan(tmp_path, v1):
    image = damaged_drive(tmp_path / "damaged.img")
    found = " / ".join(fat_problems(image))
    for what in ("FAT copies differ", "not closed cleanly", "LOST.PY: its chain meets a free",
                 "B.TXT: cluster 301 is also A.TXT's", "A.TXT is listed twice", "do not fit their entry",
                 "clusters taken that no entry reaches"):
        assert what in found
    assert fsck(image) != []
    before = open(image, "rb").read()
    with drives.ImageDrive(image) as d:
        [note] = d.repairs()
        assert "put right before writing" in note and "clusters no file used, freed: 2" in note
        files = d.files()
        assert (files["lost.py"], files["a.txt"], files["c.txt"]) == (0, 1000, 0)
        assert "b.txt" not in files and "stale.txt" not in files   # B.TXT sat on A.TXT's cluster
        out = io.StringIO()
        deploy.deploy(v1, d, dry_run=True, out=out)
    assert "put right before writing" in out.getvalue() and "dry run" in out.getvalue()
    assert open(image, "rb").read() == before                     # a dry run writes nothing
    with drives.ImageDrive(image) as d:
        text = run(v1, d)
    assert "note: %s held what writes cut short leave" % image in text
    assert_sound(image, v1, tmp_path, keep={"boot_out.txt": BOOT_OUT, "settings.toml": SETTINGS})
    with drives.ImageDrive(image) as d:
        assert d.files()["a.txt"] == 1000 and d.repairs() == []


def test_a_repair_cut_at_any_write_is_finished_by_the_next_run(tmp_path, v1):
    """The rerun that puts a damaged drive right is itself cut, before each of its first writes
    (the repair's, then the deploy's): the run after that still ends with a sound drive."""
    damaged = damaged_drive(tmp_path / "damaged.img")
    image = str(tmp_path / "cut.img")
    for n in range(12):
        shutil.copyfile(damaged, image)
        with CutImage(image, cut_after=n) as d:
            with pytest.raises(deploy.DeployError, match="went away"):
                run(v1, d)
        with drives.ImageDrive(image) as d:
            assert "done: binocle" in run(v1, d)
        assert_sound(image, v1, tmp_path, keep={"boot_out.txt": BOOT_OUT, "settings.toml": SETTINGS},
                     why="cut before write %d" % (n + 1))


@pytest.mark.skipif(fsck(os.devnull) is None,
                    reason="fsck.fat (Debian's dosfstools) is not installed: results here are "
                           "checked by pyfatfs and by fat_helpers.fat_problems only")
def test_fsck_fat_and_the_tests_own_check_agree(tmp_path, v1):
    clean = mkfs_image(tmp_path / "clean.img")
    damaged = damaged_drive(tmp_path / "damaged.img")
    assert fsck(clean) == [] and fat_problems(clean) == []
    assert fsck(damaged) and fat_problems(damaged)
    with drives.ImageDrive(damaged) as d:
        run(v1, d)
    assert fsck(damaged) == [] and fat_problems(damaged) == []


def test_a_drive_made_sound_needs_only_its_repair(tmp_path, v1):
    image = player_drive(tmp_path / "done.img")
    with drives.ImageDrive(image) as d:
        run(v1, d)
    with open(image, "r+b") as f:                                  # a cut's leftover: the mark
        f.seek(37)
        mark = f.read(1)[0]
        f.seek(37)
        f.write(bytes([mark | 1]))
    with drives.ImageDrive(image) as d:
        text = run(v1, d)
    assert "its file system is put right" in text
    assert_sound(image, v1, tmp_path)


class PyfatfsDrive(drives.Drive):
    """An image written through pyfatfs 1.1.0 alone, as deploy --image once did: it rewrites a
    whole folder for each change and writes an entry before the FAT that allocates its
    clusters. Its file stops taking writes after cut_after of them (CutImage's way)."""

    def __init__(self, path, cut_after=None):
        from pyfatfs.PyFatFS import PyFatBytesIOFS
        self.name = path
        self.cut_after = None           # opening it (marking it in use) is not cut
        self.writes = 0
        self._raw = open(path, "r+b")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.fs = PyFatBytesIOFS(_CutFile(self._raw, self))
        self.cut_after = cut_after
        self.writes = 0

    def _real(self, path):
        """pyfatfs's own path for a path, matched without case (it shows BOOT_OUT.TXT)."""
        real = ""
        for part in [p for p in path.split("/") if p]:
            try:
                names = self.fs.listdir(real or "/")
            except Exception:
                names = []
            same = [n for n in names if n.upper() == part.upper()]
            real = (real + "/" if real else "") + (same[0] if same else part)
        return real

    def files(self):
        return dict((p.lstrip("/"), self.fs.getsize(p)) for p in self.fs.walk.files("/"))

    def read(self, path):
        return self.fs.readbytes(self._real(path))

    def write(self, path, data):
        with self.fs.openbin(self._real(path), "w") as f:
            f.write(data)

    def rename(self, src, dst):
        data = self.read(src)
        if self.exists(dst):
            self.remove(dst)
        self.write(dst, data)
        self.remove(src)

    def remove(self, path):
        self.fs.remove(self._real(path))
        self.fs.fs.flush_fat()

    def makedirs(self, path):
        self.fs.makedirs(self._real(path), recreate=True)

    def exists(self, path):
        return self.fs.exists(self._real(path))

    def free(self):
        table = self.fs.fs.fat
        return sum(1 for v in table[2:] if v == 0) * self.cluster_size()

    def cluster_size(self):
        return self.fs.fs.bytes_per_cluster

    def close(self):
        try:
            self.fs.close()
        except drives.DriveGone:    # the cut stops its last writes too: let it forget the file
            self.fs.fs.initialized = False
            self.fs.close()
        self._raw.close()


# v1 and v2 with ten more modules in lib/binocle, half of them gone in v2: as pyfatfs names
# them, the folder then spans clusters, and each removal shifts entries across them.
MODS = dict(("lib/binocle/mod_%02d.py" % i, "M = %d\n" % i) for i in range(10))
V1_MODS = dict(V1, **MODS)
V2_MODS = dict(V2, **dict((p, None if i < 5 else "M = %d  # v2\n" % i)
                          for i, p in enumerate(sorted(MODS))))


def test_an_update_through_pyfatfs_cut_anywhere_is_finished_by_a_rerun(tmp_path):
    """The reported failure. An update written by pyfatfs alone (as deploy --image once did),
    cut before a write, leaves entries on free clusters, clusters in two chains, names twice,
    lost clusters, FAT copies that differ; every rerun then failed. Here each rerun (this
    tool's) finishes the update and leaves a sound drive. The update makes some 330 writes
    and every 16th is cut, from the 4th. (Cut at each of the 328 writes, once, in four minutes:
    27 cuts left a chain on a free cluster, 11 a cluster in two chains, 7 a name twice, and
    every rerun ended with a sound drive.)"""
    v1 = small_bundle(tmp_path, "1.0.0", V1_MODS)
    v2 = small_bundle(tmp_path, "2.0.0", V2_MODS)
    base = player_drive(tmp_path / "base.img")
    with drives.ImageDrive(base) as d:
        run(v1, d)
    probe = str(tmp_path / "probe.img")
    shutil.copyfile(base, probe)
    with PyfatfsDrive(probe) as d:
        run(v2, d)
        total = d.writes
    assert total > 100
    image = str(tmp_path / "cut.img")
    damage = set()
    for n in range(3, total, 16):
        why = "pyfatfs cut before write %d of %d" % (n + 1, total)
        shutil.copyfile(base, image)
        with PyfatfsDrive(image, cut_after=n) as d:
            with pytest.raises(Exception):      # DeployError, or pyfatfs's own on the way
                run(v2, d)
        for problem in fat_problems(image):
            damage.update(k for k in ("meets a free", "is also", "listed twice", "no entry",
                                      "copies differ", "bytes in") if k in problem)
        with drives.ImageDrive(image) as d:
            text = run(v2, d)
        assert "done: binocle" in text or "its file system is put right" in text, why
        assert_sound(image, v2, tmp_path, why=why)
    assert damage & {"meets a free", "is also", "listed twice"}, damage
