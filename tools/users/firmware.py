"""Install CircuitPython: python -m tools firmware --uf2 FILE [--drive PATH] [--dry-run] [--force]

Copies a CircuitPython .uf2 to the board's UF2 bootloader drive (PYBADGEBOOT,
PYGAMERBOOT, FTHRS3BOOT), after checking that the file is a whole UF2 for the
chip of the board the drive belongs to. Get the drive with a double-click of
reset, or from the game: Settings > Firmware update.

The checks follow the UF2 format (github.com/microsoft/uf2, README.md): 512-byte
blocks, each with the magic numbers 0x0A324655 0x9E5D5157 at its start and
0x0AB16F30 at its end, at most 476 payload bytes, sequential block numbers, the
total count in every block, and a family id (flag 0x00002000) naming the chip.
The drive holds INFO_UF2.TXT ("Board-ID: SAMD51J19A-PyBadge-M4"); its Board-ID
tells the chip. A refusal is one line on stderr and exit status 1 (2 for a bad
command line); nothing is written then.
"""

import glob
import os
import string
import struct
import sys

from tools import cli

BLOCK = 512
MAGIC_START0 = 0x0A324655        # "UF2\n"
MAGIC_START1 = 0x9E5D5157
MAGIC_END = 0x0AB16F30
FLAG_FAMILY_ID = 0x00002000
MAX_PAYLOAD = 476                # 512 - 32 header bytes - 4 end magic
HEADER = struct.Struct("<8I")    # magic0 magic1 flags addr payload blockNo numBlocks family
MAX_FILE = 64 * 1024 * 1024      # a 16 MB flash image is 32 MB as UF2; more is not firmware

# Family ids from microsoft/uf2 utils/uf2families.json.
SAMD51 = 0x55114460
SAMD21 = 0x68ED2B88
ESP32S2 = 0xBFDD4EEE
ESP32S3 = 0xC47E5767
RP2040 = 0xE48BFF56
NRF52840 = 0xADA52840
FAMILY_NAMES = {SAMD51: "SAMD51", SAMD21: "SAMD21", ESP32S2: "ESP32-S2",
                ESP32S3: "ESP32-S3", RP2040: "RP2040", NRF52840: "nRF52840"}

# Board-ID prefix (case ignored) -> (board name, family id); the first match wins, so the
# game's boards come before the bare chip names. Ids from the bootloaders' sources:
# microsoft/uf2-samdx1 boards/arcade_pybadge, arcade_pygamer; adafruit/tinyuf2
# ports/espressif/boards/adafruit_feather_esp32s3_reverse_tft. A None name takes the
# drive's "Model:" line.
BOARDS = (
    ("SAMD51J19A-PyBadge", ("PyBadge", SAMD51)),
    ("SAMD51G19A-pyBadge", ("PyBadge", SAMD51)),      # early bootloader, drive BADGEBOOT
    ("SAMD51J19A-PyGamer", ("PyGamer", SAMD51)),
    ("ESP32S3-FeatherRevTFT", ("Feather ESP32-S3 Reverse TFT", ESP32S3)),
    ("SAMD51", (None, SAMD51)),
    ("ESP32S3", (None, ESP32S3)),
)

INFO_NAME = "INFO_UF2.TXT"
HOW_TO_BOOT = "double-click reset, or use the game's Settings > Firmware update"
CHUNK = 64 * BLOCK               # progress granularity; the file still goes in one stream


class Refused(Exception):
    """Why nothing was copied: one line for stderr, exit status 1."""


def build_parser():
    p = cli.Parser("firmware", "Check a CircuitPython .uf2 against the board's chip and copy it to "
                            "the board's UF2 bootloader drive (" + HOW_TO_BOOT + ").")
    p.add_argument("--uf2", required=True, metavar="FILE", help="the CircuitPython .uf2 file")
    p.add_argument("--drive", metavar="PATH",
                   help="the bootloader drive (default: the one mounted drive holding INFO_UF2.TXT)")
    p.add_argument("--dry-run", action="store_true", help="check everything, write nothing")
    p.add_argument("--force", action="store_true",
                   help="copy even when the drive's Board-ID is not a known board "
                        "(the UF2 is still checked)")
    return p


def family_name(family):
    return FAMILY_NAMES.get(family, "family 0x%08X" % family)


# -- the UF2 file ------------------------------------------------------------------

def check_uf2(data):
    """(blocks, family id) of a well-formed UF2; Refused says what is wrong."""
    if not data:
        raise Refused("not a UF2 file: it is empty")
    if len(data) < 8 or struct.unpack_from("<2I", data) != (MAGIC_START0, MAGIC_START1):
        raise Refused("not a UF2 file: block 0 has no UF2 magic")
    if len(data) % BLOCK:
        raise Refused("truncated UF2: %d bytes is not a whole number of %d-byte blocks"
                      % (len(data), BLOCK))
    count = len(data) // BLOCK
    total = family = None
    for i in range(count):
        at = i * BLOCK
        m0, m1, flags, _addr, payload, number, blocks, fam = HEADER.unpack_from(data, at)
        if (m0, m1) != (MAGIC_START0, MAGIC_START1):
            raise Refused("bad UF2: block %d has no UF2 magic" % i)
        if struct.unpack_from("<I", data, at + BLOCK - 4)[0] != MAGIC_END:
            raise Refused("bad UF2: block %d has no end magic" % i)
        if payload > MAX_PAYLOAD:
            raise Refused("bad UF2: block %d has a payload of %d bytes (at most %d)"
                          % (i, payload, MAX_PAYLOAD))
        if number != i:
            raise Refused("bad UF2: block %d is numbered %d (blocks missing or out of order)"
                          % (i, number))
        if not flags & FLAG_FAMILY_ID:
            # Without it the bootloader cannot refuse a file for another chip, nor can we.
            raise Refused("bad UF2: block %d has no family id (flag 0x%08X)" % (i, FLAG_FAMILY_ID))
        if i == 0:
            total, family = blocks, fam
            continue
        if blocks != total:
            raise Refused("bad UF2: block %d says %d blocks, block 0 says %d" % (i, blocks, total))
        if fam != family:
            # Joined files for several chips are valid UF2, but not one firmware to check.
            raise Refused("bad UF2: block %d is for %s, block 0 for %s (mixed family ids)"
                          % (i, family_name(fam), family_name(family)))
    if count < total:
        raise Refused("truncated UF2: %d of its %d blocks" % (count, total))
    if count > total:
        raise Refused("bad UF2: %d blocks but they say %d" % (count, total))
    return count, family


def read_uf2(path):
    """The file's bytes; Refused when it cannot be read."""
    if not os.path.exists(path):
        raise Refused("%s: no such file" % path)
    if os.path.isdir(path):
        raise Refused("%s: a directory, not a .uf2 file" % path)
    try:
        size = os.path.getsize(path)
        if size > MAX_FILE:
            raise Refused("%s: not a UF2 file: %d bytes is too large for firmware" % (path, size))
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise Refused("%s: cannot read: %s" % (path, e.strerror or e))


# -- the bootloader drive -------------------------------------------------------------

def info_path(drive):
    """The drive's INFO_UF2.TXT in whatever case it is listed (FAT ignores case), or None."""
    try:
        names = os.listdir(drive)
    except OSError:
        return None
    for name in names:
        if name.upper() == INFO_NAME:
            full = os.path.join(drive, name)
            if os.path.isfile(full):
                return full
    return None


def read_info(path):
    """(first line, {lower-case key: value}) of an INFO_UF2.TXT."""
    try:
        with open(path, "rb") as f:
            text = f.read(4096).decode("ascii", "replace")
    except OSError as e:
        raise Refused("%s: cannot read: %s" % (path, e.strerror or e))
    lines = text.splitlines()
    fields = {}
    for line in lines[1:]:
        key, sep, value = line.partition(":")
        if sep:
            fields[key.strip().lower()] = value.strip()
    return (lines[0].strip() if lines else ""), fields


def board_for(board_id, model):
    """(board name, family id) for a Board-ID, or None when no prefix matches."""
    for prefix, (name, family) in BOARDS:
        if board_id.upper().startswith(prefix.upper()):
            return name or model or board_id, family
    return None


def search_roots():
    """Glob patterns of the directories where removable drives get mounted here."""
    if sys.platform == "darwin":
        return ["/Volumes/*"]
    if sys.platform.startswith("win"):
        # A and B are floppy letters: probing them can stall.
        return ["%s:\\" % c for c in string.ascii_uppercase[2:]]
    return ["/media/*", "/media/*/*", "/run/media/*/*"]


def find_drives():
    """Every mounted directory holding INFO_UF2.TXT, in a stable order."""
    found = []
    for pattern in search_roots():
        for path in sorted(glob.glob(pattern)):
            if os.path.isdir(path) and info_path(path) and path not in found:
                found.append(path)
    return found


def pick_drive(given):
    if given is not None:
        if not os.path.isdir(given):
            raise Refused("%s: no such drive (not a directory)" % given)
        return given
    drives = find_drives()
    if not drives:
        raise Refused("no UF2 bootloader drive found (%s; or give --drive PATH)" % HOW_TO_BOOT)
    if len(drives) > 1:
        raise Refused("several UF2 bootloader drives: %s; choose one with --drive"
                      % ", ".join(drives))
    return drives[0]


def check_drive(drive, force):
    """(board name, family id or None, description) of a bootloader drive; Refused otherwise."""
    info = info_path(drive)
    if info is None:
        if any(n.lower() == "boot_out.txt" for n in _listdir(drive)):
            raise Refused("not a UF2 bootloader drive: %s is CircuitPython's own drive (%s)"
                          % (drive, HOW_TO_BOOT))
        raise Refused("not a UF2 bootloader drive: %s has no %s (%s)" % (drive, INFO_NAME, HOW_TO_BOOT))
    version, fields = read_info(info)
    board_id = fields.get("board-id", "")
    model = fields.get("model", "")
    found = board_for(board_id, model) if board_id else None
    if found is None:
        what = "Board-ID %s" % board_id if board_id else "no Board-ID in %s" % INFO_NAME
        if not force:
            raise Refused("unknown board at %s (%s%s): not one of the game's boards; --force copies "
                          "without the chip check" % (drive, what, ", Model: " + model if model else ""))
        return model or board_id or "unknown board", None, "%s, %s" % (what, version)
    name, family = found
    return name, family, "Board-ID %s, %s" % (board_id, version)


def _listdir(path):
    try:
        return os.listdir(path)
    except OSError:
        return []


def _same(a, b):
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def article(name):
    return "an" if name[:1].upper() in "AEIOU" else "a"


# -- copying ------------------------------------------------------------------------

def copy(data, dest, out):
    """Write data to dest in one open-write-fsync stream. The bootloader flashes and
    restarts once the last block arrives, so the drive may vanish during the final
    flush: returns the OSError seen then (None when all went through)."""
    total = len(data)
    tty = out.isatty()
    try:
        f = open(dest, "wb")
    except OSError as e:
        raise Refused("cannot write %s: %s" % (dest, e.strerror or e))
    done = 0
    try:
        while done < total:
            f.write(data[done:done + CHUNK])
            done = min(done + CHUNK, total)
            if tty:
                out.write("\r  %d / %d bytes" % (done, total))
                out.flush()
    except OSError as e:
        _close_quietly(f)
        if tty:
            out.write("\n")
        raise Refused("copy failed after %d of %d bytes: %s; the board stays in its bootloader, "
                      "try again" % (done, total, e.strerror or e))
    out.write("%s  %d / %d bytes written\n" % ("\r" if tty else "", done, total))
    try:
        f.flush()
        os.fsync(f.fileno())
        f.close()
    except OSError as e:
        _close_quietly(f)
        return e
    return None


def _close_quietly(f):
    try:
        f.close()
    except OSError:
        pass


# -- command line ---------------------------------------------------------------------

def run(args, out):
    data = read_uf2(args.uf2)
    try:
        blocks, family = check_uf2(data)
    except Refused as e:
        raise Refused("%s: %s" % (args.uf2, e))
    drive = pick_drive(args.drive)
    name, board_family, about = check_drive(drive, args.force)
    if board_family is not None and family != board_family:
        raise Refused("UF2 for %s but the board is %s %s (%s); get the %s build from circuitpython.org"
                      % (family_name(family), article(name), name, family_name(board_family), name))
    dest = os.path.join(drive, os.path.basename(args.uf2))
    if os.path.exists(dest) and _same(dest, args.uf2):
        raise Refused("%s is already on the drive; copy it from somewhere else" % args.uf2)
    if not os.access(drive, os.W_OK):
        raise Refused("cannot write to %s (mounted read-only?)" % drive)

    out.write("UF2: %s, %d blocks for %s\n" % (args.uf2, blocks, family_name(family)))
    out.write("board: %s at %s (%s)\n" % (name, drive, about))
    if board_family is None:
        out.write("unknown board: no chip check (--force)\n")
    if args.dry_run:
        out.write("dry run: would copy %d bytes to %s; nothing written\n" % (len(data), dest))
        return 0
    out.write("copying %d bytes to %s\n" % (len(data), dest))
    vanished = copy(data, dest, out)
    if vanished is not None:
        out.write("the drive went away during the final flush (%s): the board is restarting\n"
                  % (vanished.strerror or vanished))
    out.write("done: the board restarts with the new CircuitPython; then run python -m tools deploy\n")
    out.write("(the drive disappears; a warning that it was not ejected properly is harmless)\n")
    return 0


@cli.command("firmware")
def main(argv):
    args = build_parser().parse_args(argv)
    try:
        return run(args, sys.stdout)
    except cli.UsageError:
        raise
    except Refused as e:
        sys.stderr.write("firmware: %s\n" % e)
        return 1
    except Exception as e:       # never a traceback: one line says what broke
        sys.stderr.write("firmware: unexpected %s: %s\n" % (type(e).__name__, e))
        return 1


if __name__ == "__main__":
    sys.exit(main())
