"""python -m tools deploy on real FAT12 images of a PyBadge's 2 MB drive (tools.users.fat.make_image).

Every deploy here ends with the board's own start-up check (lib/binocle/startup.py)
run over the image's files; the player's save and settings files and a file of
their own are compared byte for byte after everything.
"""

import hashlib
import io
import os
import re
import shutil
import subprocess
import sys

import pytest

from tests.failing_drive import FailingDrive
from tools.users import bundle, deploy, drives, manifest
from tools.users import fat

sys.path.insert(0, os.path.join(bundle.ROOT, "lib"))
from binocle import startup     # noqa: E402

BOOT_OUT = (b"Adafruit CircuitPython 9.2.1 on 2024-11-20; Adafruit PyBadge with samd51j19\r\n"
            b"Board ID:pybadge\r\nUID:A1B2C3D4E5F6\r\n")
PLAYER = {"saves/game.bin": bytes(range(256)) * 3, "settings.bin": b"\x01\x02\x00\x01",
          "notes.txt": b"my own file\n"}


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def new_image(path, size_kb=2048, boot_out=BOOT_OUT):
    """A fresh drive as the board leaves it, plus the player's own files."""
    fat.make_image(str(path), size_kb)
    with drives.ImageDrive(str(path)) as d:
        if boot_out is not None:
            d.write("boot_out.txt", boot_out)
        d.makedirs("saves")
        for name, data in PLAYER.items():
            d.write(name, data)
    return str(path)


@pytest.fixture(scope="module")
def blank(tmp_path_factory):
    return new_image(tmp_path_factory.mktemp("img") / "blank.img")


@pytest.fixture
def image(blank, tmp_path):
    path = str(tmp_path / "drive.img")
    shutil.copyfile(blank, path)
    return path


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("game") / "bundle")
    bundle.build(out)
    return out


def small_bundle(tmp_path, name, files):
    """A bundle of a handful of files (no third-party libraries), built by tools.users.bundle."""
    root = tmp_path / ("src-" + name)
    base = {"code.py": "import binocle.app\n", "boot.py": "import storage\n",
            "engine/__init__.py": "", "lib/binocle/__init__.py": "",
            "lib/binocle/version.py": 'VERSION = "%s"\n' % name, "assets/cards.bmp": "BM" + "x" * 900}
    base.update(files)
    for path, text in base.items():
        if text is None:
            continue
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    out = str(tmp_path / ("bundle-" + name))
    bundle.build(out, root=str(root), site=str(tmp_path), mpy=False)    # sizes as written
    return out


V1 = {"engine/rules.py": "RULES = 1\n", "engine/old.py": "OLD = 'gone in v2'\n",
      "lib/binocle/app.py": "import board\n" + "# padding\n" * 40}
V2 = {"engine/rules.py": "RULES = 2\n",                      # same size, other bytes
      "engine/old.py": None,
      "lib/binocle/app.py": "import board\nimport engine\n" + "# padding\n" * 90,
      "lib/binocle/extra.py": "EXTRA = True\n", "assets/more/deck.bmp": "BM" + "y" * 3000}


@pytest.fixture
def v1(tmp_path):
    return small_bundle(tmp_path, "1.0.0", V1)


@pytest.fixture
def v2(tmp_path):
    return small_bundle(tmp_path, "2.0.0", V2)


def run(folder, drive, **kw):
    out = io.StringIO()
    deploy.deploy(folder, drive, out=out, **kw)
    return out.getvalue()


def deploy_image(folder, image, **kw):
    with drives.ImageDrive(image) as d:
        return run(folder, d, **kw)


def problems(image, tmp_path):
    """The board's start-up check over the image's files, copied out to a folder."""
    dest = tmp_path / "extracted"
    shutil.rmtree(str(dest), ignore_errors=True)
    with drives.ImageDrive(image) as d:
        for path in d.files():
            target = dest / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(d.read(path))
    return startup.check(str(dest))


def assert_holds(image, folder):
    """The image has the bundle's files, byte for byte, and the player's files untouched."""
    m = manifest.read(os.path.join(folder, manifest.NAME))
    with drives.ImageDrive(image) as d:
        files = d.files()
        for f in m["files"]:
            assert manifest.sha256(d.read(f["path"])) == f["sha256"], f["path"]
        assert d.read(manifest.NAME) == manifest.dumps(m)
        for name, data in PLAYER.items():
            assert d.read(name) == data, name
        assert d.read("boot_out.txt") == BOOT_OUT
    assert not [p for p in files if p.endswith(manifest.TMP_SUFFIX)]
    return files


# -- whole deploys --------------------------------------------------------------------------------

def test_a_fresh_deploy_of_the_game(image, game, tmp_path):
    with drives.ImageDrive(image) as d:
        free = d.free()
        plan = deploy.make_plan(d, manifest.read(os.path.join(game, manifest.NAME)))
    text = deploy_image(game, image)
    with drives.ImageDrive(image) as d:
        used = free - d.free()
    assert used <= plan.peak <= used + 4 * 1024      # the space check counts whole clusters
    assert "done: binocle" in text and re.search(r"\[ *1/\d+\] manifest.json", text)
    assert problems(image, tmp_path) == []
    files = assert_holds(image, game)
    assert set(files) == set(f["path"] for f in manifest.read(
        os.path.join(game, manifest.NAME))["files"]) | {manifest.NAME, "boot_out.txt"} | set(PLAYER) \
        | {"saves/binocle.sav"}           # the saves file, made in one piece (test_saves_layout.py)
    assert files["saves/binocle.sav"] == 253952
    again = deploy_image(game, image)
    assert "nothing to do" in again
    assert "saves: saves/binocle.sav in one piece: nothing to do" in again


def test_an_update_brings_the_library_the_screens_use(image, game, tmp_path):
    # the title, statistics and game over import lib/label.mpy: a drive holding another build of
    # it (an older pinned version) gets the bundle's, as it gets the game's changed modules
    deploy_image(game, image)
    with drives.ImageDrive(image) as d:
        d.write("lib/label.mpy", b"C\x06older library")
        plan = deploy.make_plan(d, manifest.read(os.path.join(game, manifest.NAME)))
    assert (plan.added, plan.changed, plan.remove) == ([], ["lib/label.mpy"], [])
    deploy_image(game, image)
    assert problems(image, tmp_path) == []
    assert "lib/label.mpy" in assert_holds(image, game)


def test_a_pybadge_is_told_to_take_mpy_files(tmp_path, v1):
    text = deploy_image(v1, new_image(tmp_path / "badge.img"), dry_run=True)
    assert "note: the game goes as .py files" in text and "deploy without --py" in text
    feather = BOOT_OUT.replace(b"Board ID:pybadge", b"Board ID:adafruit_feather_esp32s3_reverse_tft")
    text = deploy_image(v1, new_image(tmp_path / "feather.img", boot_out=feather), dry_run=True)
    assert "note:" not in text                      # 2 MB of PSRAM: room from .py


def test_an_update_changes_adds_and_removes(image, v1, v2, tmp_path):
    deploy_image(v1, image)
    with drives.ImageDrive(image) as d:
        d.write("lib/user_lib.py", b"# the player's own library\n")
    with drives.ImageDrive(image) as d:
        plan = deploy.make_plan(d, manifest.read(os.path.join(v2, manifest.NAME)))
    assert plan.added == ["assets/more/deck.bmp", "lib/binocle/extra.py"]
    assert plan.changed == ["engine/rules.py", "lib/binocle/app.py", "lib/binocle/version.py"]
    assert plan.remove == ["engine/old.py"]
    deploy_image(v2, image)
    assert problems(image, tmp_path) == []
    files = assert_holds(image, v2)
    assert "engine/old.py" not in files
    with drives.ImageDrive(image) as d:
        assert d.read("lib/user_lib.py") == b"# the player's own library\n"


def test_a_drive_too_small_is_refused_before_any_write(tmp_path, game):
    image = new_image(tmp_path / "small.img", size_kb=96)     # the game takes more
    before = sha(image)
    with drives.ImageDrive(image) as d:
        with pytest.raises(deploy.DeployError, match="not enough space"):
            run(game, d)
    assert sha(image) == before


def test_dry_run_writes_nothing(image, v1, v2):
    deploy_image(v1, image)
    before = sha(image)
    text = deploy_image(v2, image, dry_run=True)
    assert sha(image) == before
    assert "add    lib/binocle/extra.py" in text and "remove engine/old.py" in text
    assert "dry run: nothing written" in text
    assert deploy.main(["--image", image, "--bundle", v2, "--dry-run"]) == 0
    assert sha(image) == before


def test_a_dry_run_with_nothing_to_write_says_so(image, v1):
    deploy_image(v1, image)
    text = deploy_image(v1, image, dry_run=True)
    assert re.search(r"^space: nothing to write, [0-9,]+ free$", text, re.M), text
    assert "more in use while writing" not in text and "dry run: nothing written" in text


# -- .mpy or .py for the board's CircuitPython -----------------------------------------------------

def boot_out(version):
    return BOOT_OUT.replace(b"9.2.1", version.encode())


def image_files(image):
    with drives.ImageDrive(image) as d:
        return dict((p, d.read(p)) for p in d.files())


def test_deploy_writes_mpy_files_with_nothing_set(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("MPY_CROSS", raising=False)
    image = new_image(tmp_path / "badge.img", boot_out=boot_out("10.2.1"))
    assert deploy.main(["--image", image, "--yes"]) == 0
    out = capsys.readouterr().out
    assert "files (.mpy)" in out and "note:" not in out
    files = image_files(image)
    modules = [p for p in files if p.endswith((".py", ".mpy")) and p not in PLAYER]
    assert sorted(p for p in modules if p.endswith(".py")) == ["boot.py", "code.py"]
    assert len(modules) > 50 and files["engine/state.mpy"][:4] == b"C\x06\x00\x1f"
    assert problems(image, tmp_path) == []


def test_a_circuitpython_whose_mpy_format_is_unchecked_gets_py_files_only(tmp_path, capsys):
    image = new_image(tmp_path / "future.img", boot_out=boot_out("11.0.0"))
    before = sha(image)
    assert deploy.main(["--image", image, "--yes"]) == 1
    out, err = capsys.readouterr()
    assert "bundle:" not in out                 # refused before anything was built
    assert err == ("deploy: the board runs CircuitPython 11.0.0, whose .mpy format the game has not "
                   "been checked with (CircuitPython 9 and 10 are): send .py files with --py\n")
    assert sha(image) == before
    assert deploy.main(["--image", image, "--yes", "--py"]) == 0
    assert "files (.py)" in capsys.readouterr().out
    files = image_files(image)
    assert "engine/state.py" in files and not [p for p in files if p.endswith(".mpy")]


def test_a_bundle_of_mpy_files_is_checked_against_the_board(tmp_path, capsys):
    folder = str(tmp_path / "bundle")
    bundle.build(folder)
    image = new_image(tmp_path / "future.img", boot_out=boot_out("11.0.0"))
    before = sha(image)
    assert deploy.main(["--image", image, "--bundle", folder, "--yes"]) == 1
    assert "whose .mpy format the game has not been checked" in capsys.readouterr().err
    assert sha(image) == before
    for version, major in (("9.0.0", 9), ("9.2.9", 9), ("10.2.1", 10), ("10.3.0-alpha.4", 10)):
        deploy.check_mpy(version, major, 6)
        deploy.check_mpy(version, major, None)
    with pytest.raises(deploy.DeployError, match="format 5; CircuitPython 10.2.1 loads format 6"):
        deploy.check_mpy("10.2.1", 10, 5)


def test_how_a_bundle_is_built_is_not_chosen_with_bundle(tmp_path, v1, capsys):
    image = new_image(tmp_path / "badge.img")
    assert deploy.main(["--image", image, "--bundle", v1, "--py"]) == 2
    assert capsys.readouterr().err == ("deploy: --py and --mpy-cross choose how a bundle is built: "
                                       "not with --bundle\n")
    assert deploy.main(["--image", image, "--py", "--mpy-cross", "x"]) == 2
    assert "not allowed with" in capsys.readouterr().err


def test_a_mounted_folder_works_the_same(tmp_path, v1, v2):
    drive = tmp_path / "CIRCUITPY"
    (drive / "saves").mkdir(parents=True)
    (drive / "boot_out.txt").write_bytes(BOOT_OUT)
    (drive / "saves" / "game.bin").write_bytes(PLAYER["saves/game.bin"])
    run(v1, drives.DirDrive(str(drive)))
    run(v2, drives.DirDrive(str(drive)))
    assert startup.check(str(drive)) == []
    assert not (drive / "engine" / "old.py").exists()
    assert (drive / "saves" / "game.bin").read_bytes() == PLAYER["saves/game.bin"]


def test_the_start_up_check_itself(tmp_path):
    drive = tmp_path / "drive"
    (drive / "lib").mkdir(parents=True)
    assert startup.check(str(drive)) == []                  # copied by hand: nothing to check
    files = {"code.py": b"print(1)\n", "lib/a.py": b"A = 1\n", "lib/b.py": b"B = 2\n"}
    for path, data in files.items():
        (drive / path).write_bytes(data)
    m = {"format": 1, "game": "binocle", "version": "1",
         "files": [manifest.entry(p, d) for p, d in sorted(files.items())]}
    manifest.write(str(drive), m)
    assert startup.check(str(drive)) == [] == startup.check(str(drive) + "/")
    (drive / "lib" / "a.py").write_bytes(b"A = 10\n")
    (drive / "lib" / "b.py").unlink()
    (drive / "code.py.tmp-binocle").write_bytes(b"pri")
    assert startup.check(str(drive)) == ["wrong size lib/a.py", "missing lib/b.py",
                                         "leftover code.py.tmp-binocle"]
    (drive / "manifest.json").write_bytes(b'{"files": [{"pa')
    assert startup.check(str(drive)) == ["manifest.json unreadable"]


# -- interrupted deploys --------------------------------------------------------------------------

def steps(folder, image):
    """How many changes (writes, renames, removals, folders) a deploy makes on this image."""
    probe = str(image) + ".probe"
    shutil.copyfile(image, probe)
    with drives.ImageDrive(probe) as d:
        counting = FailingDrive(d)
        run(folder, counting)
    os.remove(probe)
    return counting.steps


@pytest.mark.parametrize("start", ["fresh", "update"])
def test_a_deploy_cut_at_every_step_is_seen_at_start_and_finished_by_a_rerun(
        start, image, v1, v2, tmp_path):
    if start == "update":
        deploy_image(v1, image)
    base = str(tmp_path / "base.img")
    shutil.copyfile(image, base)
    total = steps(v2, base)
    assert total >= 15
    for n in range(total):
        shutil.copyfile(base, image)
        with drives.ImageDrive(image) as d:
            with pytest.raises(deploy.DeployError, match="run deploy again"):
                run(v2, FailingDrive(d, fail_after_steps=n))
        found = problems(image, tmp_path)
        assert found, "step %d: the board would not notice" % n
        deploy_image(v2, image)
        assert problems(image, tmp_path) == [], "step %d" % n
        files = assert_holds(image, v2)
        assert "engine/old.py" not in files, "step %d" % n


def test_a_write_cut_short_leaves_a_partial_temporary_file(image, v1, tmp_path):
    with drives.ImageDrive(image) as d:
        with pytest.raises(deploy.DeployError, match="went away"):
            run(v1, FailingDrive(d, fail_after_writes=3))
    with drives.ImageDrive(image) as d:
        tmp = [p for p in d.files() if p.endswith(manifest.TMP_SUFFIX)]
        partial = [p for p in tmp if p != deploy.MARKER][0]
        whole = manifest.by_path(manifest.read(os.path.join(v1, manifest.NAME)))
        assert d.files()[partial] < whole[partial[:-len(manifest.TMP_SUFFIX)]]["size"]
    assert "leftover " + partial in problems(image, tmp_path)


# -- verification and refusals --------------------------------------------------------------------

class Corrupting(drives.Drive):
    """Gives back one file's bytes with a bit flipped: a failing drive."""

    def __init__(self, inner, victim):
        self.inner, self.victim, self.name = inner, victim, inner.name

    def read(self, path):
        data = self.inner.read(path)
        if path == self.victim + manifest.TMP_SUFFIX:
            data = bytes([data[0] ^ 1]) + data[1:]
        return data

    def write(self, path, data):
        self.inner.write(path, data)

    def rename(self, src, dst):
        self.inner.rename(src, dst)

    def remove(self, path):
        self.inner.remove(path)

    def makedirs(self, path):
        self.inner.makedirs(path)

    def files(self):
        return self.inner.files()

    def exists(self, path):
        return self.inner.exists(path)

    def free(self):
        return self.inner.free()

    def cluster_size(self):
        return self.inner.cluster_size()


def test_a_corrupted_file_is_caught_by_reading_it_back(image, v1, tmp_path):
    with drives.ImageDrive(image) as d:
        with pytest.raises(deploy.DeployError, match="lib/binocle/version.py did not read back"):
            run(v1, Corrupting(d, "lib/binocle/version.py"))
    assert problems(image, tmp_path)
    deploy_image(v1, image)
    assert problems(image, tmp_path) == []
    assert_holds(image, v1)


@pytest.mark.parametrize("boot_out, why", [
    (BOOT_OUT.replace(b"pybadge", b"feather_m4_express"), "not one the game supports"),
    (BOOT_OUT.replace(b"9.2.1", b"8.2.10"), "CircuitPython 8.2.10; the game needs 9"),
    (b"Adafruit CircuitPython 9.2.1 on 2024-11-20; Adafruit PyBadge with samd51j19\r\n",
     "no Board ID"),
    (None, "no boot_out.txt"),
])
def test_a_board_that_does_not_fit_is_refused(tmp_path, v1, boot_out, why):
    image = new_image(tmp_path / "other.img", boot_out=boot_out)
    before = sha(image)
    with drives.ImageDrive(image) as d:
        with pytest.raises(deploy.DeployError, match=why):
            run(v1, d)
    assert sha(image) == before


def test_boot_out_as_circuitpython_writes_it():
    assert deploy.parse_boot_out(BOOT_OUT.decode()) == (9, "9.2.1", "pybadge")
    text = ("Adafruit CircuitPython 10.0.0-beta.2-5-g1234-dirty on 2025-06-01; "
            "Adafruit Feather ESP32-S3 Reverse TFT with ESP32S3\nBoard ID:"
            "adafruit_feather_esp32s3_reverse_tft\nUID:0011\n")
    assert deploy.parse_boot_out(text) == (10, "10.0.0-beta.2-5-g1234-dirty",
                                           "adafruit_feather_esp32s3_reverse_tft")


def test_files_of_the_player_are_never_removed_even_if_a_manifest_lists_them(image, v1, tmp_path):
    bad = {"format": 1, "game": "binocle", "version": "0.0.1", "files": [
        manifest.entry("saves/game.bin", PLAYER["saves/game.bin"]),
        manifest.entry("settings.bin", PLAYER["settings.bin"]), manifest.entry("boot_out.txt", b"")]}
    with drives.ImageDrive(image) as d:
        d.write(manifest.NAME, manifest.dumps(bad))
    deploy_image(v1, image)
    assert_holds(image, v1)


def test_a_manifest_of_another_program_is_not_overwritten(image, v1):
    with drives.ImageDrive(image) as d:
        d.write(manifest.NAME, b'{"format": 1, "game": "other", "version": "1", "files": []}')
    with drives.ImageDrive(image) as d:
        with pytest.raises(deploy.DeployError, match="another program"):
            run(v1, d)


def test_a_drive_the_computer_may_not_write_is_refused(image, v1):
    before = sha(image)
    with drives.ImageDrive(image) as d:
        d.read_only = lambda: True          # as boot.py leaves it when the game starts normally
        with pytest.raises(deploy.DeployError, match="read-only.*hold SELECT"):
            run(v1, d)
    assert sha(image) == before


def test_the_command_fails_in_one_line(tmp_path, capsys, v1):
    assert deploy.main(["--image", str(tmp_path / "none.img"), "--bundle", v1]) == 2
    err = capsys.readouterr().err
    assert err.startswith("deploy: no such image file") and err.count("\n") == 1
    not_fat = tmp_path / "zeros.img"
    not_fat.write_bytes(b"\0" * 65536)
    assert deploy.main(["--image", str(not_fat), "--bundle", v1]) == 2     # a mistake: 2
    err = capsys.readouterr().err
    assert err == "deploy: --image: %s is not a FAT disk image (no boot sector signature)\n" % not_fat
    assert deploy.main(["--image", "a.img", "--drive", "/mnt/x"]) == 2
    assert "not allowed with" in capsys.readouterr().err


def test_find_circuitpy_looks_where_systems_mount_drives(tmp_path):
    for place in ("media/alice/CIRCUITPY", "run/media/bob/BINOCLE", "Volumes/CIRCUITPY",
                  "media/alice/USBSTICK"):
        (tmp_path / place).mkdir(parents=True)
    found = drives.find_circuitpy(base=str(tmp_path))
    assert found == sorted(str(tmp_path / p) for p in (
        "media/alice/CIRCUITPY", "run/media/bob/BINOCLE", "Volumes/CIRCUITPY"))


def test_a_fresh_image_is_laid_out_as_circuitpython_formats_its_drive(tmp_path):
    path = fat.make_image(str(tmp_path / "fresh.img"))
    assert os.path.getsize(path) == 2048 * 1024
    with drives.ImageDrive(path) as d:
        assert (d.free(), d.cluster_size(), d.files()) == (2076672, 1024, {})
    with open(path, "rb") as f:
        assert f.read(62)[43:62] == b"CIRCUITPY  FAT12   "


@pytest.mark.skipif(not shutil.which("fsck.fat"), reason="dosfstools is not installed")
def test_deployed_images_pass_fsck(image, v1, v2):
    deploy_image(v1, image)
    deploy_image(v2, image)
    check = subprocess.run(["fsck.fat", "-n", image], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout
    assert "Reclaimed" not in check.stdout and "Duplicate" not in check.stdout, check.stdout
