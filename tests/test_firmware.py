"""python -m tools firmware: UF2 checks, the bootloader drive, the copy.

UF2 files are built here block by block from the format (github.com/microsoft/uf2);
bootloader drives are directories holding INFO_UF2.TXT as the bootloaders write it
(uf2-samdx1: "UF2 Bootloader ...", tinyuf2: "TinyUF2 Bootloader ...", CRLF lines).
"""

import os
import struct
import subprocess
import sys

import pytest

from tools.users import firmware

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SAMD51 = 0x55114460
ESP32S3 = 0xC47E5767
RP2040 = 0xE48BFF56

PYBADGE_INFO = ("UF2 Bootloader v3.15.0 SFHWRO\r\nModel: PyBadge\r\n"
                "Board-ID: SAMD51J19A-PyBadge-M4\r\n")
FEATHER_INFO = ("TinyUF2 Bootloader 0.18.2 - tinyusb (0.15.0-325-g1a4e7a5)\r\n"
                "Model: Adafruit Feather ESP32-S3 Reverse TFT\r\n"
                "Board-ID: ESP32S3-FeatherRevTFT-revC\r\nDate: Jan  8 2024\r\n")
BOOT = "double-click reset, or use the game's Settings > Firmware update"


def block(number, count, family=SAMD51, payload=256, flags=0x00002000, end=0x0AB16F30,
          magic=(0x0A324655, 0x9E5D5157)):
    """One 512-byte UF2 block; its data is the block number repeated, padded with 0xFF."""
    head = struct.pack("<8I", magic[0], magic[1], flags, 0x4000 + number * 256, payload,
                       number, count, family)
    data = bytes([number & 0xFF]) * min(payload, 476)
    return head + data + b"\xff" * (476 - len(data)) + struct.pack("<I", end)


def uf2(n, family=SAMD51, changes=None):
    """n blocks for one family; changes = {block number: {field: value}} for broken files."""
    changes = changes or {}
    return b"".join(block(i, n, **dict({"family": family}, **changes.get(i, {}))) for i in range(n))


def put(path, data):
    with open(path, "wb") as f:
        f.write(data)
    return str(path)


def make_drive(tmp_path, label, info, extra=("INDEX.HTM", "CURRENT.UF2")):
    drive = tmp_path / label
    drive.mkdir()
    if info is not None:
        (drive / "INFO_UF2.TXT").write_bytes(info.encode("ascii"))
    for name in extra:
        (drive / name).write_bytes(b"x")
    return str(drive)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def listing(drive):
    return {n: read(os.path.join(drive, n)) for n in sorted(os.listdir(drive))}


@pytest.fixture
def pybadge(tmp_path):
    return make_drive(tmp_path, "PYBADGEBOOT", PYBADGE_INFO)


@pytest.fixture
def feather(tmp_path):
    return make_drive(tmp_path, "FTHRS3BOOT", FEATHER_INFO)


def ok(capsys, *argv):
    """stdout lines of a successful run."""
    assert firmware.main(list(argv)) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return captured.out.splitlines()


def refused(capsys, *argv, status=1):
    """The one stderr line of a refused run (no traceback, nothing on stdout)."""
    assert firmware.main(list(argv)) == status
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.endswith("\n")
    assert "Traceback" not in captured.err
    return captured.err[:-1]


# -- accepted copies ----------------------------------------------------------------

def test_pybadge_copy_is_byte_identical(capsys, tmp_path, pybadge):
    data = uf2(20, SAMD51)
    src = put(tmp_path / "adafruit-circuitpython-pybadge-en_US-9.2.1.uf2", data)
    before = listing(pybadge)
    out = ok(capsys, "--uf2", src, "--drive", pybadge)
    dest = os.path.join(pybadge, "adafruit-circuitpython-pybadge-en_US-9.2.1.uf2")
    assert read(dest) == data
    after = listing(pybadge)
    del after["adafruit-circuitpython-pybadge-en_US-9.2.1.uf2"]
    assert after == before                      # nothing else touched
    assert out == [
        "UF2: %s, 20 blocks for SAMD51" % src,
        "board: PyBadge at %s (Board-ID SAMD51J19A-PyBadge-M4, UF2 Bootloader v3.15.0 SFHWRO)" % pybadge,
        "copying 10240 bytes to %s" % dest,
        "  10240 / 10240 bytes written",
        "done: the board restarts with the new CircuitPython; then run python -m tools deploy",
        "(the drive disappears; a warning that it was not ejected properly is harmless)",
    ]


def test_feather_s3_copy_is_byte_identical(capsys, tmp_path, feather):
    data = uf2(3, ESP32S3)
    src = put(tmp_path / "fw.uf2", data)
    out = ok(capsys, "--uf2", src, "--drive", feather)
    assert read(os.path.join(feather, "fw.uf2")) == data
    assert out[:2] == [
        "UF2: %s, 3 blocks for ESP32-S3" % src,
        "board: Feather ESP32-S3 Reverse TFT at %s (Board-ID ESP32S3-FeatherRevTFT-revC, "
        "TinyUF2 Bootloader 0.18.2 - tinyusb (0.15.0-325-g1a4e7a5))" % feather,
    ]


def test_pygamer_and_early_pybadge_board_ids(capsys, tmp_path):
    src = put(tmp_path / "fw.uf2", uf2(2, SAMD51))
    gamer = make_drive(tmp_path, "PYGAMERBOOT", "UF2 Bootloader v3.6.0 SFHWRO\r\nModel: PyGamer\r\n"
                                                "Board-ID: SAMD51J19A-PyGamer-M4\r\n")
    assert ok(capsys, "--uf2", src, "--drive", gamer, "--dry-run")[1].startswith("board: PyGamer at ")
    early = make_drive(tmp_path, "BADGEBOOT", "UF2 Bootloader v2.0.0\nModel: pyBadge Express\n"
                                              "Board-ID: SAMD51G19A-pyBadge-v0\n")
    assert ok(capsys, "--uf2", src, "--drive", early, "--dry-run")[1].startswith("board: PyBadge at ")


def test_other_samd51_board_takes_its_model_name(capsys, tmp_path):
    drive = make_drive(tmp_path, "BOOT", "UF2 Bootloader v3.0\nModel: Badge\nBoard-ID: SAMD51J19A-Badge-v0\n")
    src = put(tmp_path / "fw.uf2", uf2(2, ESP32S3))
    assert refused(capsys, "--uf2", src, "--drive", drive) == (
        "firmware: UF2 for ESP32-S3 but the board is a Badge (SAMD51); "
        "get the Badge build from circuitpython.org")


def test_info_file_name_case_is_ignored(capsys, tmp_path):
    drive = make_drive(tmp_path, "PYBADGEBOOT", None)
    put(os.path.join(drive, "info_uf2.txt"), PYBADGE_INFO.encode())
    src = put(tmp_path / "fw.uf2", uf2(1))
    ok(capsys, "--uf2", src, "--drive", drive)
    assert os.path.exists(os.path.join(drive, "fw.uf2"))


def test_dry_run_writes_nothing(capsys, tmp_path, pybadge):
    src = put(tmp_path / "fw.uf2", uf2(4))
    before = listing(pybadge)
    out = ok(capsys, "--uf2", src, "--drive", pybadge, "--dry-run")
    assert listing(pybadge) == before
    assert out[2:] == ["dry run: would copy 2048 bytes to %s; nothing written"
                       % os.path.join(pybadge, "fw.uf2")]


def test_drive_vanishing_at_the_final_flush_is_the_restart(capsys, tmp_path, pybadge, monkeypatch):
    def gone(fd):
        raise OSError(5, "Input/output error")
    monkeypatch.setattr(firmware.os, "fsync", gone)
    src = put(tmp_path / "fw.uf2", uf2(2))
    out = ok(capsys, "--uf2", src, "--drive", pybadge)
    assert out[3:5] == [
        "  1024 / 1024 bytes written",
        "the drive went away during the final flush (Input/output error): the board is restarting",
    ]


# -- files refused ----------------------------------------------------------------------

def test_wrong_family_refused_and_nothing_written(capsys, tmp_path, pybadge, feather):
    before = listing(pybadge)
    src = put(tmp_path / "s3.uf2", uf2(3, ESP32S3))
    assert refused(capsys, "--uf2", src, "--drive", pybadge) == (
        "firmware: UF2 for ESP32-S3 but the board is a PyBadge (SAMD51); "
        "get the PyBadge build from circuitpython.org")
    assert listing(pybadge) == before
    src = put(tmp_path / "rp.uf2", uf2(3, RP2040))
    assert refused(capsys, "--uf2", src, "--drive", feather) == (
        "firmware: UF2 for RP2040 but the board is a Feather ESP32-S3 Reverse TFT (ESP32-S3); "
        "get the Feather ESP32-S3 Reverse TFT build from circuitpython.org")
    src = put(tmp_path / "odd.uf2", uf2(1, 0x12345678))
    assert refused(capsys, "--uf2", src, "--drive", pybadge) == (
        "firmware: UF2 for family 0x12345678 but the board is a PyBadge (SAMD51); "
        "get the PyBadge build from circuitpython.org")


@pytest.mark.parametrize("name, data", [
    ("notes.txt", b"hello, this is not firmware\n" * 40),
    ("firmware.bin", bytes(range(256)) * 8),                # a raw image, 2048 bytes
    ("short.uf2", b"UF2"),
])
def test_non_uf2_refused(capsys, tmp_path, pybadge, name, data):
    src = put(tmp_path / name, data)
    assert refused(capsys, "--uf2", src, "--drive", pybadge) == (
        "firmware: %s: not a UF2 file: block 0 has no UF2 magic" % src)
    assert name not in os.listdir(pybadge)


def test_empty_file_refused(capsys, tmp_path, pybadge):
    src = put(tmp_path / "empty.uf2", b"")
    assert refused(capsys, "--uf2", src, "--drive", pybadge) == (
        "firmware: %s: not a UF2 file: it is empty" % src)


def test_truncated_uf2_refused(capsys, tmp_path, pybadge):
    data = uf2(10)
    src = put(tmp_path / "cut.uf2", data[:-100])
    assert refused(capsys, "--uf2", src, "--drive", pybadge) == (
        "firmware: %s: truncated UF2: 5020 bytes is not a whole number of 512-byte blocks" % src)
    src = put(tmp_path / "last.uf2", data[:-512])              # the last block missing
    assert refused(capsys, "--uf2", src, "--drive", pybadge) == (
        "firmware: %s: truncated UF2: 9 of its 10 blocks" % src)
    src = put(tmp_path / "gap.uf2", data[:5 * 512] + data[6 * 512:])   # block 5 missing
    assert refused(capsys, "--uf2", src, "--drive", pybadge) == (
        "firmware: %s: bad UF2: block 5 is numbered 6 (blocks missing or out of order)" % src)
    src = put(tmp_path / "long.uf2", data + data[:512])        # one block too many
    assert refused(capsys, "--uf2", src, "--drive", pybadge) == (
        "firmware: %s: bad UF2: block 10 is numbered 0 (blocks missing or out of order)" % src)
    assert set(os.listdir(pybadge)) == {"INFO_UF2.TXT", "INDEX.HTM", "CURRENT.UF2"}


def test_inconsistent_family_ids_refused(capsys, tmp_path, pybadge):
    src = put(tmp_path / "mixed.uf2", uf2(4, SAMD51, {2: {"family": ESP32S3}}))
    assert refused(capsys, "--uf2", src, "--drive", pybadge) == (
        "firmware: %s: bad UF2: block 2 is for ESP32-S3, block 0 for SAMD51 (mixed family ids)" % src)
    src = put(tmp_path / "noflag.uf2", uf2(4, SAMD51, {3: {"flags": 0}}))
    assert refused(capsys, "--uf2", src, "--drive", pybadge) == (
        "firmware: %s: bad UF2: block 3 has no family id (flag 0x00002000)" % src)
    src = put(tmp_path / "none.uf2", uf2(4, SAMD51, {0: {"flags": 0}}))
    assert refused(capsys, "--uf2", src, "--drive", pybadge) == (
        "firmware: %s: bad UF2: block 0 has no family id (flag 0x00002000)" % src)


@pytest.mark.parametrize("changes, text", [
    ({1: {"magic": (0x0A324655, 0)}}, "bad UF2: block 1 has no UF2 magic"),
    ({2: {"end": 0}}, "bad UF2: block 2 has no end magic"),
    ({1: {"payload": 477}}, "bad UF2: block 1 has a payload of 477 bytes (at most 476)"),
    ({0: {"magic": (0, 0x9E5D5157)}}, "not a UF2 file: block 0 has no UF2 magic"),
])
def test_damaged_blocks_refused(capsys, tmp_path, pybadge, changes, text):
    src = put(tmp_path / "bad.uf2", uf2(3, SAMD51, changes))
    assert refused(capsys, "--uf2", src, "--drive", pybadge) == "firmware: %s: %s" % (src, text)


def test_block_counts_must_agree(capsys, tmp_path, pybadge):
    data = uf2(3)[:512] + block(1, 4) + block(2, 3)
    src = put(tmp_path / "count.uf2", data)
    assert refused(capsys, "--uf2", src, "--drive", pybadge) == (
        "firmware: %s: bad UF2: block 1 says 4 blocks, block 0 says 3" % src)
    src = put(tmp_path / "fewer.uf2", b"".join(block(i, 2) for i in range(3)))
    assert refused(capsys, "--uf2", src, "--drive", pybadge) == (
        "firmware: %s: bad UF2: 3 blocks but they say 2" % src)


def test_check_uf2_counts_blocks_and_family():
    assert firmware.check_uf2(uf2(7, ESP32S3)) == (7, ESP32S3)
    assert firmware.check_uf2(uf2(1)) == (1, SAMD51)


# -- drives refused ----------------------------------------------------------------------

def test_directory_without_info_refused(capsys, tmp_path):
    drive = make_drive(tmp_path, "USBSTICK", None, extra=("photo.jpg",))
    src = put(tmp_path / "fw.uf2", uf2(2))
    assert refused(capsys, "--uf2", src, "--drive", drive) == (
        "firmware: not a UF2 bootloader drive: %s has no INFO_UF2.TXT (%s)" % (drive, BOOT))
    assert os.listdir(drive) == ["photo.jpg"]


def test_circuitpython_drive_refused(capsys, tmp_path):
    drive = make_drive(tmp_path, "CIRCUITPY", None, extra=("boot_out.txt", "code.py"))
    src = put(tmp_path / "fw.uf2", uf2(2))
    assert refused(capsys, "--uf2", src, "--drive", drive) == (
        "firmware: not a UF2 bootloader drive: %s is CircuitPython's own drive (%s)" % (drive, BOOT))


def test_missing_drive_refused(capsys, tmp_path):
    src = put(tmp_path / "fw.uf2", uf2(2))
    gone = str(tmp_path / "NOPE")
    assert refused(capsys, "--uf2", src, "--drive", gone) == (
        "firmware: %s: no such drive (not a directory)" % gone)


def test_unknown_board_refused_unless_forced(capsys, tmp_path):
    drive = make_drive(tmp_path, "RPI-RP2", "UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\n"
                                            "Board-ID: RPI-RP2\n")
    src = put(tmp_path / "fw.uf2", uf2(2, RP2040))
    assert refused(capsys, "--uf2", src, "--drive", drive) == (
        "firmware: unknown board at %s (Board-ID RPI-RP2, Model: Raspberry Pi RP2): not one of "
        "the game's boards; --force copies without the chip check" % drive)
    assert "fw.uf2" not in os.listdir(drive)
    out = ok(capsys, "--uf2", src, "--drive", drive, "--force")
    assert out[1:3] == ["board: Raspberry Pi RP2 at %s (Board-ID RPI-RP2, UF2 Bootloader v3.0)" % drive,
                        "unknown board: no chip check (--force)"]
    assert read(os.path.join(drive, "fw.uf2")) == uf2(2, RP2040)


def test_info_without_board_id_is_unknown(capsys, tmp_path):
    drive = make_drive(tmp_path, "ODDBOOT", "UF2 Bootloader v1\n")
    src = put(tmp_path / "fw.uf2", uf2(2))
    assert refused(capsys, "--uf2", src, "--drive", drive) == (
        "firmware: unknown board at %s (no Board-ID in INFO_UF2.TXT): not one of the game's "
        "boards; --force copies without the chip check" % drive)


# -- finding the drive -------------------------------------------------------------------

def test_finds_the_one_bootloader_drive(capsys, tmp_path, monkeypatch):
    media = tmp_path / "media"
    media.mkdir()
    make_drive(media, "CIRCUITPY", None, extra=("boot_out.txt",))
    drive = make_drive(media, "PYBADGEBOOT", PYBADGE_INFO)
    monkeypatch.setattr(firmware, "search_roots", lambda: [str(media / "*")])
    src = put(tmp_path / "fw.uf2", uf2(2))
    out = ok(capsys, "--uf2", src)
    assert out[1].startswith("board: PyBadge at %s " % drive)
    assert read(os.path.join(drive, "fw.uf2")) == uf2(2)


def test_no_drive_or_several_refused(capsys, tmp_path, monkeypatch):
    media = tmp_path / "media"
    media.mkdir()
    monkeypatch.setattr(firmware, "search_roots", lambda: [str(media / "*")])
    src = put(tmp_path / "fw.uf2", uf2(2))
    assert refused(capsys, "--uf2", src) == (
        "firmware: no UF2 bootloader drive found (%s; or give --drive PATH)" % BOOT)
    a = make_drive(media, "FTHRS3BOOT", FEATHER_INFO)
    b = make_drive(media, "PYBADGEBOOT", PYBADGE_INFO)
    assert refused(capsys, "--uf2", src) == (
        "firmware: several UF2 bootloader drives: %s, %s; choose one with --drive" % (a, b))


def test_search_roots_per_platform(monkeypatch):
    monkeypatch.setattr(firmware.sys, "platform", "linux")
    assert firmware.search_roots() == ["/media/*", "/media/*/*", "/run/media/*/*"]
    monkeypatch.setattr(firmware.sys, "platform", "darwin")
    assert firmware.search_roots() == ["/Volumes/*"]
    monkeypatch.setattr(firmware.sys, "platform", "win32")
    roots = firmware.search_roots()
    assert roots[0] == "C:\\" and roots[-1] == "Z:\\" and len(roots) == 24


# -- the command line ------------------------------------------------------------------

def test_missing_uf2_file_refused(capsys, tmp_path, pybadge):
    gone = str(tmp_path / "nowhere.uf2")
    assert refused(capsys, "--uf2", gone, "--drive", pybadge) == "firmware: %s: no such file" % gone
    assert refused(capsys, "--uf2", str(tmp_path), "--drive", pybadge) == (
        "firmware: %s: a directory, not a .uf2 file" % tmp_path)


def test_usage_errors_exit_2(capsys):
    assert refused(capsys, status=2) == "firmware: the following arguments are required: --uf2"
    assert refused(capsys, "--uf2", "x.uf2", "--bogus", status=2) == (
        "firmware: unrecognized arguments: --bogus")


def test_help_exits_0(capsys):
    assert firmware.main(["--help"]) == 0
    assert capsys.readouterr().out.startswith("usage: python -m tools firmware [-h] --uf2 FILE")


def test_a_real_process_prints_no_traceback(tmp_path):
    src = put(tmp_path / "notes.txt", b"plain text\n")
    run = subprocess.run([sys.executable, "-m", "tools.users.firmware", "--uf2", src, "--drive", str(tmp_path)],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 1
    assert run.stdout == ""
    assert run.stderr == "firmware: %s: not a UF2 file: block 0 has no UF2 magic\n" % src
