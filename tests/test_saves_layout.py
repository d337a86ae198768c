"""The saves file in one piece: deploy reads where saves/binocle.sav lies on the drive's FAT,
writes it again in one run of clusters when it is in pieces (a cut at any step leaves the old
or the new file whole), makes it in one piece when it is not there, and otherwise leaves a
note that the board shows on its title screen (docs/saves.md).

The drive: a PyBadge's 2 MB FAT12 image (1 KB clusters, 2,028 of them) filled with 8 KB files,
every other one removed, so that free room lies in holes of 8 clusters; a journal written there
takes 31 of them.
"""

import io
import os
import shutil

import pytest

from tests.failing_drive import FailingDrive
from tests.test_deploy import V1, new_image, small_bundle
from tools.users import deploy, drives, manifest
from tools.users import fat
from binocle import saveload, store                     # noqa: E402 (test_deploy put lib/ on the path)
from binocle.nvmstore import KIND_SETTINGS, KIND_STATS, FileNvm, NvmStore
from binocle.settings import Settings
from binocle.stats import Stats
from engine import record
from engine.rules import new_game

JOURNAL = "saves/binocle.sav"
NOTE = "saves/binocle-in-pieces.txt"
NEED = 248                  # clusters of 1 KB the journal takes


def a_game(actions=40, seed=7):
    """(settings, statistics, record) of a hoyle game at its action `actions`."""
    s = Settings()
    s.level = 0
    state = new_game("hoyle", seed)
    for _ in range(actions):
        state.apply(state.observation(state.current_player()).legal[0])
    stats = Stats()
    stats.b[5] = 3
    return s.to_bytes(), bytes(stats.b), record.encode(state)


def journal_bytes(settings, stats, rec):
    """A journal that saved the game after each of its last 12 actions."""
    f = io.BytesIO(b"\xff" * store.SIZE)
    j = store.Journal(f)
    for n in range(len(rec) - 12, len(rec) + 1):
        assert j.save(settings, stats, rec[:7], memoryview(rec)[7:n])
    return f.getvalue()


def read_back(data, tmp_path, note=False):
    """What the board finds at start in this journal (and a note beside it, if given)."""
    folder = tmp_path / "board"
    shutil.rmtree(str(folder), ignore_errors=True)
    (folder / "saves").mkdir(parents=True)
    (folder / "saves" / "binocle.sav").write_bytes(data)
    if note:
        (folder / "saves" / saveload.PIECES).write_bytes(b"x")
    nvm = FileNvm(str(folder / "nvm.bin"))
    got = saveload.open_saves(nvm, str(folder / "saves" / "binocle.sav"))
    got.journal.f.close()
    return got


def fill(d, count=None):
    """8 KB files in fill/ until the drive is full (or count of them); their paths."""
    d.makedirs("fill")
    paths = []
    while (count is None and d.free() >= 9216) or (count is not None and len(paths) < count):
        paths.append("fill/f%03d.bin" % len(paths))
        d.write(paths[-1], bytes([len(paths) & 0xFF]) * 8192)
    return paths


def fragmented(path, journal):
    """A drive whose journal is in pieces of 8 clusters, with no run of free room that takes
    it; the filler files still there, in order."""
    new_image(path)
    with drives.ImageDrive(path) as d:
        paths = fill(d)
        for p in paths[::2]:
            d.remove(p)
        d.write(JOURNAL, journal)
        assert [n for _c, n in d.file_runs(JOURNAL)] == [8] * 31
        assert max(n for _c, n in d.free_runs()) < NEED
        return paths[1::2]


@pytest.fixture(scope="module")
def game():
    settings, stats, rec = a_game()
    return settings, stats, rec, journal_bytes(settings, stats, rec)


@pytest.fixture
def v1(tmp_path):
    return small_bundle(tmp_path, "1.0.0", V1)


def run(folder, drive):
    out = io.StringIO()
    deploy.deploy(folder, drive, out=out)
    return out.getvalue()


def saves_lines(text):
    return [line for line in text.splitlines() if line.startswith("saves")]


def on_image(path):
    with drives.ImageDrive(path) as d:
        files = d.files()
        return (d.file_runs(JOURNAL) if JOURNAL in files else None, d.read(JOURNAL),
                NOTE in files, sorted(p for p in files if p.endswith(manifest.TMP_SUFFIX)))


def free_room(path, fillers, n=40):
    """Remove the last n filler files: their holes and those between make one run."""
    with drives.ImageDrive(path) as d:
        for p in fillers[-n:]:
            d.remove(p)
        return max(n for _c, n in d.free_runs())


# -- the allocator ------------------------------------------------------------------------------

def test_the_image_gives_a_file_the_first_run_of_free_clusters_that_takes_it(tmp_path):
    path = str(tmp_path / "d.img")
    fat.make_image(path)
    with drives.ImageDrive(path) as d:
        for i in range(6):
            d.write("f%d" % i, b"x" * 3000)                    # 3 clusters each, from 2 on
        d.remove("f1")
        d.remove("f3")
        d.write("two", b"y" * 2000)
        d.write("four", b"z" * 4000)
        assert d.file_runs("two") == [(5, 2)]                  # f1's hole, first
        assert d.file_runs("four") == [(20, 4)]                # past f5: no hole of 4 before
        d.write("one", b"w")
        assert d.file_runs("one") == [(7, 1)]
        assert d.read("four") == b"z" * 4000


# -- deploy -------------------------------------------------------------------------------------

def test_a_journal_in_pieces_is_written_again_in_one_with_the_game_kept(tmp_path, game, v1):
    settings, stats, rec, data = game
    path = str(tmp_path / "d.img")
    fillers = fragmented(path, data)
    assert free_room(path, fillers) == 256          # 32 files, between two clusters of fill/
    with drives.ImageDrive(path) as d:
        text = run(v1, d)
    assert saves_lines(text) == [
        "saves: saves/binocle.sav was in 31 pieces: written again in one, saves kept"]
    runs, back, noted, left = on_image(path)
    assert len(runs) == 1 and runs[0][1] == NEED and back == data and not noted and left == []
    got = read_back(back, tmp_path)
    assert (got.settings, got.stats, got.record, got.notes) == (settings, stats, rec, [])
    with drives.ImageDrive(path) as d:
        assert saves_lines(run(v1, d)) == ["saves: saves/binocle.sav in one piece: nothing to do"]


def test_no_run_of_room_leaves_the_journal_and_a_note_the_title_shows(tmp_path, game, v1):
    settings, stats, rec, data = game
    path = str(tmp_path / "d.img")
    fillers = fragmented(path, data)
    with drives.ImageDrive(path) as d:
        before = d.file_runs(JOURNAL)
        out = io.StringIO()
        deploy.deploy(v1, d, dry_run=True, out=out)
        assert saves_lines(out.getvalue()) == [
            "saves: saves/binocle.sav in 31 pieces, and no 248 KB in a row free to write it "
            "again: it would be left as it is, the board told (free room and deploy again)"]
        text = run(v1, d)
    assert saves_lines(text) == [
        "saves: saves/binocle.sav in 31 pieces, and no 248 KB in a row free to write it again: "
        "left as it is, the board says so (free room and deploy again)"]
    runs, back, noted, left = on_image(path)
    assert runs == before and back == data and noted and left == []
    with drives.ImageDrive(path) as d:
        assert d.read(NOTE) == deploy.NOTE_TEXT.encode("ascii")
    got = read_back(back, tmp_path, note=True)
    assert got.record == rec and got.notes == [saveload.MSG_PIECES]
    assert got.notes[0].split("\n") == ["Saves file in pieces: a", "power cut may harm files:",
                                        "free room, deploy again."]
    assert max(len(line) for line in got.notes[0].split("\n")) <= 26

    assert free_room(path, fillers) == 256              # room freed; the same version again
    with drives.ImageDrive(path) as d:
        text = run(v1, d)
    assert "the drive already holds binocle 1.0.0\n" in text
    assert "\nspace: 253,952 bytes more in use while the saves file is written, " in text
    assert saves_lines(text) == [
        "saves: saves/binocle.sav was in 31 pieces: written again in one, saves kept"]
    runs, back, noted, left = on_image(path)
    assert len(runs) == 1 and back == data and not noted and left == []
    assert read_back(back, tmp_path).notes == []


def test_a_journal_not_there_is_made_in_one_piece_and_takes_in_the_nvm_at_first_start(
        tmp_path, game, v1):
    settings, stats, rec, _data = game
    path = str(tmp_path / "d.img")
    new_image(path)
    with drives.ImageDrive(path) as d:
        out = io.StringIO()
        deploy.deploy(v1, d, dry_run=True, out=out)
        assert saves_lines(out.getvalue()) == [
            "saves: saves/binocle.sav would be made, in one piece (248 KB)"]
        assert not d.exists(JOURNAL)
        text = run(v1, d)
    assert saves_lines(text) == ["saves: saves/binocle.sav made, in one piece (248 KB)"]
    runs, back, noted, left = on_image(path)
    assert len(runs) == 1 and back == b"\xff" * store.SIZE and not noted and left == []
    # The first start after an update from a version that kept everything in the nvm.
    folder = tmp_path / "board"
    (folder / "saves").mkdir(parents=True)
    (folder / "saves" / "binocle.sav").write_bytes(back)
    nvm = FileNvm(str(folder / "nvm.bin"))
    nv = NvmStore(nvm)
    assert nv.save_blob(KIND_SETTINGS, settings) and nv.save_blob(KIND_STATS, stats)
    assert nv.save_game(rec)
    got = saveload.open_saves(nvm, str(folder / "saves" / "binocle.sav"))
    assert got.migrate and got.nvm_game and got.notes == []
    assert (got.settings, got.stats, got.record) == (settings, stats, rec)
    assert got.journal.keep(got.settings, got.stats, rec[:7], rec)     # as app.write_entry does
    got.journal.f.close()
    again = saveload.open_saves(FileNvm(str(folder / "blank.bin")),
                                str(folder / "saves" / "binocle.sav"))
    again.journal.f.close()
    assert not again.migrate and (again.settings, again.stats, again.record) == (settings, stats, rec)


def test_every_cut_of_the_remake_leaves_the_game_and_a_rerun_finishes(tmp_path, game, v1):
    settings, stats, rec, data = game
    base = str(tmp_path / "base.img")
    fillers = fragmented(base, data)
    with drives.ImageDrive(base) as d:
        run(v1, d)                                     # the update; no room: the note
    free_room(base, fillers)
    probe = str(tmp_path / "probe.img")
    shutil.copyfile(base, probe)
    with drives.ImageDrive(probe) as d:
        counting = FailingDrive(d)
        assert saves_lines(run(v1, counting))[0].endswith("written again in one, saves kept")
    assert counting.steps == 3               # the new file, its rename over the old, the note
    image = str(tmp_path / "d.img")
    for n in range(counting.steps + 1):
        shutil.copyfile(base, image)
        with drives.ImageDrive(image) as d:
            if n < counting.steps:
                with pytest.raises(deploy.DeployError, match="Run deploy again to finish the saves"):
                    run(v1, FailingDrive(d, fail_after_steps=n))
        runs, back, noted, left = on_image(image)
        assert back == data, n                         # the old or the new file, whole
        got = read_back(back, tmp_path)
        assert (got.settings, got.stats, got.record) == (settings, stats, rec), n
        with drives.ImageDrive(image) as d:
            text = run(v1, d)
        runs, back, noted, left = on_image(image)
        assert len(runs) == 1 and back == data and left == [], n
        assert saves_lines(text)[0].startswith("saves: saves/binocle.sav "), n


def test_a_cut_in_the_update_before_the_saves_step_is_finished_by_a_rerun(tmp_path, game, v1):
    settings, stats, rec, data = game
    base = str(tmp_path / "base.img")
    free_room(base, fragmented(base, data))
    probe = str(tmp_path / "probe.img")
    shutil.copyfile(base, probe)
    with drives.ImageDrive(probe) as d:
        counting = FailingDrive(d)
        run(v1, counting)
    image = str(tmp_path / "d.img")
    for n in range(counting.steps):
        shutil.copyfile(base, image)
        with drives.ImageDrive(image) as d:
            with pytest.raises(deploy.DeployError, match="run deploy again"):
                run(v1, FailingDrive(d, fail_after_steps=n))
        assert on_image(image)[1] == data, n
        with drives.ImageDrive(image) as d:
            run(v1, d)
        runs, back, noted, left = on_image(image)
        assert len(runs) == 1 and back == data and left == [], n


def test_no_run_of_room_for_a_journal_not_there_is_said_by_the_note(tmp_path, game, v1):
    path = str(tmp_path / "d.img")
    fragmented(path, game[3])
    with drives.ImageDrive(path) as d:
        d.remove(JOURNAL)
        assert saves_lines(run(v1, d)) == [
            "saves: no 248 KB in a row free for saves/binocle.sav: not made; the board makes it "
            "in pieces and says so (free room and deploy again)"]
        assert not d.exists(JOURNAL) and d.read(NOTE) == deploy.NOTE_TEXT.encode("ascii")
        fill(d)
        assert d.free() == 7168
        assert saves_lines(run(v1, d)) == [
            "saves: no room for saves/binocle.sav (248 KB needed, 7 KB free): not made; the "
            "board keeps settings and statistics in its nvm"]
        assert not d.exists(NOTE)                  # the title says "No room for saves" instead


# -- drives that cannot tell ----------------------------------------------------------------------

def test_a_plain_folder_cannot_tell_and_its_saves_are_left_alone(tmp_path, game, v1):
    from tests.test_deploy import BOOT_OUT
    data = game[3]
    root = tmp_path / "CIRCUITPY"
    (root / "saves").mkdir(parents=True)
    (root / "boot_out.txt").write_bytes(BOOT_OUT)
    (root / "saves" / "binocle.sav").write_bytes(data)
    d = drives.DirDrive(str(root))
    assert d.file_runs(JOURNAL) is None and d.free_runs() is None
    lines = saves_lines(run(v1, d))
    assert len(lines) == 1
    assert lines[0] == "saves: %s, so the board makes or keeps saves/binocle.sav as it is" % (
        d.why_unknown)
    assert os.listdir(str(root / "saves")) == ["binocle.sav"]
    assert (root / "saves" / "binocle.sav").read_bytes() == data
    shutil.rmtree(str(root / "saves"))
    run(v1, d)
    assert not (root / "saves").exists()


def test_a_mounted_fat_drive_is_read_from_its_device_without_writing_it(tmp_path, game,
                                                                       monkeypatch):
    path = str(tmp_path / "d.img")
    fragmented(path, game[3])
    with drives.ImageDrive(path) as d:
        want = d.file_runs(JOURNAL)
        free = d.free_runs()
    with open(path, "rb") as f:
        before = f.read()
    (tmp_path / "mnt" / "saves").mkdir(parents=True)
    d = drives.DirDrive(str(tmp_path / "mnt"))
    monkeypatch.setattr(drives, "mount_of", lambda root: (path, "vfat", ""))
    assert d.file_runs(JOURNAL) == want and d.free_runs() == free
    monkeypatch.setattr(drives, "mount_of", lambda root: (path, "vfat", "saves"))
    assert d.file_runs("binocle.sav") == want                # a drive mounted from a subfolder
    monkeypatch.setattr(drives, "mount_of", lambda root: (path, "ext4", ""))
    assert d.file_runs(JOURNAL) is None
    assert d.why_unknown == "%s is not a FAT drive (ext4 on %s)" % (d.root, path)
    gone = str(tmp_path / "nodev")
    monkeypatch.setattr(drives, "mount_of", lambda root: (gone, "vfat", ""))
    assert d.free_runs() is None
    assert d.why_unknown == "cannot read %s (No such file or directory)" % gone
    monkeypatch.setattr(drives, "mount_of", lambda root: (__file__, "vfat", ""))
    assert d.free_runs() is None
    assert d.why_unknown.startswith("cannot read the FAT of %s (" % __file__)
    with open(path, "rb") as f:
        assert f.read() == before


SAMPLE = """\
22 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw
25 22 0:21 / /proc rw,nosuid shared:12 - proc proc rw
97 22 8:17 / /media/ann/CIRCUITPY rw,nosuid,nodev,relatime shared:52 - vfat /dev/sdb1 rw,uid=1000
98 22 8:33 / /media/ann/My\\040Board rw,relatime - vfat /dev/sdc rw
99 22 8:17 /games /srv/games rw,relatime shared:53 master:52 - vfat /dev/sdb1 rw
"""


def test_mountinfo_gives_the_device_under_a_mount():
    assert drives.parse_mountinfo(SAMPLE) == [
        ("/", "/", "ext4", "/dev/sda2"), ("/proc", "/", "proc", "proc"),
        ("/media/ann/CIRCUITPY", "/", "vfat", "/dev/sdb1"),
        ("/media/ann/My Board", "/", "vfat", "/dev/sdc"),
        ("/srv/games", "/games", "vfat", "/dev/sdb1")]
    assert drives.mount_of("/media/ann/CIRCUITPY", SAMPLE) == ("/dev/sdb1", "vfat", "")
    assert drives.mount_of("/media/ann/CIRCUITPY/lib", SAMPLE) == ("/dev/sdb1", "vfat", "lib")
    assert drives.mount_of("/media/ann/My Board", SAMPLE) == ("/dev/sdc", "vfat", "")
    assert drives.mount_of("/srv/games/x", SAMPLE) == ("/dev/sdb1", "vfat", "games/x")
    assert drives.mount_of("/home/ann", SAMPLE) == ("/dev/sda2", "ext4", "home/ann")
    assert drives.mount_of("/media/ann/CIRCUITPYX", SAMPLE) == ("/dev/sda2", "ext4",
                                                                 "media/ann/CIRCUITPYX")
    assert drives.mount_of("/x", "garbage\n\n1 2 3\n") is None
