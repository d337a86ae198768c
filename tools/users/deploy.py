"""Put the game onto a board's drive, so that the board can always start.

    python -m tools deploy [--drive PATH | --image FILE] [--bundle DIR | --py | --mpy-cross PATH]
                           [--dry-run] [--yes]

Without --drive or --image it looks for a mounted CIRCUITPY or BINOCLE drive.
Without --bundle it builds one for the board (tools/users/bundle.py): .mpy files, for
the CircuitPython versions whose .mpy format is checked (bundle.MPY_FORMATS),
or .py with --py.
Names on the drive are matched without case, as FAT does (CODE.PY is code.py).
It reads boot_out.txt (board, CircuitPython version) and checks the free space
before writing anything, then writes only what changed, in an order that keeps
an interrupted update visible to the board's start-up check (an image that a cut
write left unsound is put right first: drives.ImageDrive):

1. a marker file, binocle-update.tmp-binocle, listing the old files to remove
   (a rerun finds them there once manifest.json is already the new one); it
   stays until the very end, so a cut anywhere leaves a *.tmp-binocle behind;
2. the new manifest.json;
3. the removal of files the old manifest listed and the new one does not
   (nothing else is ever touched: saves, settings, the player's own files).
   The old version stops working at its first replaced module anyway, so its
   files go first and their space serves the new ones;
4. every new or changed file, code.py last (the reload it triggers then runs
   a complete game): each written as NAME.tmp-binocle, read back and compared
   by SHA-256, then renamed over the old one;
5. the saves file, saves/binocle.sav, and its note (all it ever writes in saves/):
   where the drive shows where its files lie (an image; a mounted drive whose
   device the user may read, on Linux), a journal in pieces is written again in
   one piece where a run of free clusters is large enough (as NAME.tmp-binocle,
   read back, then renamed over the old one: a cut leaves the old or the new one
   whole), one not there yet is made in one piece; with no such run, a note
   beside it (saveload.PIECES) that the board shows on its title screen;
6. the removal of the marker.

Run again with nothing to update, it does step 5 alone.
"""

import json
import os
import sys
import shutil
import tempfile

from tools import cli
from tools.users import bundle, drives, manifest
from tools.users import fat

ROOT = bundle.ROOT
MIN_CIRCUITPYTHON = 9
MARKER = "binocle-update" + manifest.TMP_SUFFIX
BOOT_OUT = "boot_out.txt"
# Board profiles whose memory holds the two-hand games from .mpy files and may not from .py
# (docs/memory.md: 145-147 KB of pool from .py, where such a board may have 144.5).
PY_SHORT = ("pybadge", "pygamer")


class DeployError(Exception):
    pass


def _boards():
    lib = os.path.join(ROOT, "lib")
    if lib not in sys.path:
        sys.path.insert(0, lib)
    from binocle import boards     # the app's own table: one list of boards for both
    return boards


# -- what the board says about itself --------------------------------------------------------------

def parse_boot_out(text):
    """(major version or None, version text, board id or None) from boot_out.txt, whose first
    lines CircuitPython writes as

        Adafruit CircuitPython 9.2.1 on 2024-11-20; Adafruit PyBadge with samd51j19
        Board ID:pybadge
    """
    lines = text.replace("\r", "").split("\n")
    major, version, board = None, "", None
    words = lines[0].split()
    if "CircuitPython" in words and words.index("CircuitPython") + 1 < len(words):
        version = words[words.index("CircuitPython") + 1]
        head = version.split(".")[0]
        major = int(head) if head.isdigit() else None
    for line in lines[1:]:
        if line.startswith("Board ID:"):
            board = line[len("Board ID:"):].strip()
    return major, version, board


def check_board(drive):
    """(version, major, board id) of the board, or DeployError when it does not fit."""
    if not drive.exists(BOOT_OUT):
        raise DeployError("no %s on %s: not a CircuitPython drive, or the board has not started "
                          "since it was set up (press reset, then try again)" % (BOOT_OUT, drive.name))
    text = drive.read(BOOT_OUT).decode("utf-8", "replace")
    major, version, board = parse_boot_out(text)
    if major is None:
        raise DeployError("%s on %s does not name a CircuitPython version: is this a "
                          "CircuitPython board?" % (BOOT_OUT, drive.name))
    if major < MIN_CIRCUITPYTHON:
        raise DeployError("the board runs CircuitPython %s; the game needs %d or newer: update "
                          "CircuitPython first (python -m tools firmware)" % (version, MIN_CIRCUITPYTHON))
    boards = _boards()
    if board is None or boards.profile_name(board) is None:
        raise DeployError("the board %s is not one the game supports (%s)" % (
            board or "(no Board ID line)", ", ".join(boards.SUPPORTED)))
    return version, major, board


def check_mpy(version, major, mpy):
    """DeployError unless the board's CircuitPython loads .mpy files of format mpy (None: .py)."""
    if mpy is None:
        return
    known = bundle.MPY_FORMATS.get(major)
    if known is None:
        raise DeployError("the board runs CircuitPython %s, whose .mpy format the game has not been "
                          "checked with (CircuitPython %s are): send .py files with --py"
                          % (version, " and ".join(str(m) for m in sorted(bundle.MPY_FORMATS))))
    if known != mpy:
        raise DeployError("the bundle's .mpy files are format %d; CircuitPython %s loads format %d: "
                          "build the bundle again for this board, or send .py files with --py"
                          % (mpy, version, known))


# -- the bundle -----------------------------------------------------------------------------------

def load_bundle(folder):
    """The manifest of a bundle folder, after checking that its files match it."""
    new = manifest.read(os.path.join(folder, manifest.NAME))
    for f in new["files"]:
        path = os.path.join(folder, *f["path"].split("/"))
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except OSError:
            raise DeployError("the bundle %s lacks %s: build it again" % (folder, f["path"]))
        if len(data) != f["size"] or manifest.sha256(data) != f["sha256"]:
            raise DeployError("the bundle %s does not match its manifest (%s): build it again"
                              % (folder, f["path"]))
        if bundle.is_protected(f["path"]):
            raise DeployError("the bundle holds %s, a file of the player's" % f["path"])
    return new


# -- the plan -------------------------------------------------------------------------------------

class Plan:
    """What a deploy will do, worked out before anything is written."""

    def __init__(self, new):
        self.new = new             # the bundle's manifest
        self.old = None            # the drive's manifest, if readable
        self.write = []            # paths to write, code.py last
        self.added = []
        self.changed = []
        self.unchanged = []
        self.remove = []           # files of the old version, not in the new one
        self.leftovers = []        # *.tmp-binocle of an interrupted deploy
        self.folders = []          # folders to make
        self.notes = []
        self.free = 0
        self.peak = 0              # most extra bytes in use at once while writing
        self.saves = "none"        # what the saves file needs, as the drive is now (saves_plan)


def _fold(path):
    return fat.fold(path)


def _protected(path):
    """A file of the player's or the board's, in any case (SAVES/GAME.BIN too)."""
    return bundle.is_protected(path) or bundle.is_protected(path.lower())


def _old_manifest(drive, have, plan):
    if _fold(manifest.NAME) not in have:
        return None
    try:
        return manifest.loads(drive.read(manifest.NAME), "manifest.json on the drive")
    except manifest.ForeignManifest as e:
        raise DeployError("%s; move it off the drive first" % e)
    except manifest.ManifestError as e:
        plan.notes.append("%s: old game files it listed cannot be found to remove" % e)
        return None


def _pending(drive, have):
    """Removals a deploy cut short had still to do, from its marker."""
    if _fold(MARKER) not in have:
        return []
    try:
        listed = json.loads(drive.read(MARKER).decode("utf-8")).get("remove", [])
    except (ValueError, AttributeError, UnicodeDecodeError):
        return []              # cut while the marker itself was written: the old manifest holds
    return [p for p in listed if isinstance(p, str)]


def make_plan(drive, new):
    """Names on the drive are matched without case, as FAT does: CODE.PY is code.py."""
    plan = Plan(new)
    files = drive.files()
    have = dict((_fold(p), n) for p, n in files.items())    # sizes, by name without case
    plan.notes.extend(drive.repairs())
    plan.old = _old_manifest(drive, have, plan)
    wanted = manifest.by_path(new)
    for path in sorted(wanted):
        f = wanted[path]
        size = have.get(_fold(path))
        if size is None:
            plan.added.append(path)
        elif size != f["size"] or manifest.sha256(drive.read(path)) != f["sha256"]:
            plan.changed.append(path)
        else:
            plan.unchanged.append(path)
    todo = [p for p in plan.added + plan.changed if p != "code.py"]
    plan.write = sorted(todo) + [p for p in plan.added + plan.changed if p == "code.py"]
    old_paths = [f["path"] for f in plan.old["files"]] if plan.old else []
    keep = set(_fold(p) for p in wanted) | {_fold(manifest.NAME)}
    going = {}
    for path in sorted(old_paths + _pending(drive, have)):
        if _fold(path) not in keep and _fold(path) in have and not _protected(path):
            going.setdefault(_fold(path), path)
    plan.remove = sorted(going.values())
    tmp, marker = _fold(manifest.TMP_SUFFIX), _fold(MARKER)
    plan.leftovers = sorted(p for p in files if _fold(p).endswith(tmp) and _fold(p) != marker)
    made = set()
    for path in sorted(wanted):
        parts = path.split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            folder_path = "/".join(parts[:depth])
            if folder_path not in made and not drive.exists(folder_path):
                plan.folders.append(folder_path)
            made.add(folder_path)
    for path in sorted(wanted):
        source = _fold(path[:-4] + ".py")
        if path.endswith(".mpy") and source in have and source not in going:
            plan.notes.append("%s.py on the drive is not the game's and hides the new %s "
                              "(CircuitPython loads .py first): remove it" % (path[:-4], path))
    plan.saves = saves_plan(drive)[0]
    _space(plan, drive, have)
    return plan


def _marker(plan):
    return json.dumps({"version": plan.new["version"], "remove": plan.remove}).encode("utf-8")


def _space(plan, drive, have):
    """Walk the writes in order, counting whole clusters, to find the most space in use at once.

    have: sizes of the drive's files by name without case. A file written over another
    takes its new clusters before it frees the old ones."""
    cluster = drive.cluster_size()

    def size(n):
        return manifest.on_drive(n, cluster)

    def old(path):
        return size(have.get(_fold(path), 0))
    plan.free = drive.free()
    free = plan.free
    for path in plan.leftovers:
        free += old(path)
    free -= size(len(_marker(plan)))
    low = min(plan.free, free)
    free += old(MARKER)
    # New folders take clusters; an existing folder that gets new names may grow by one.
    sizes = manifest.by_path(plan.new)
    fresh = [p for p in sizes if any(p.startswith(d + "/") for d in plan.folders)]
    free -= manifest.dir_bytes(fresh, cluster)
    grown = set(p.rsplit("/", 1)[0] for p in plan.added + plan.changed if "/" in p) - \
        set(plan.folders)
    free -= cluster * len(grown)
    low = min(low, free)
    writes = [(manifest.NAME, len(manifest.dumps(plan.new)))] + \
        [(p, sizes[p]["size"]) for p in plan.write]
    for i, (path, n) in enumerate(writes):
        free -= size(n)              # the .tmp-binocle copy, next to the old file
        low = min(low, free)
        free += old(path)
        if i == 0:
            free += sum(old(p) for p in plan.remove)
    plan.peak = max(0, plan.free - low)
    if plan.saves in ("make", "remake"):         # after the update, where there is room
        journal = size(_saveload().SIZE)
        plan.peak = max(plan.peak, min(plan.free, plan.free - free + journal))


# -- doing it -------------------------------------------------------------------------------------

def _put(drive, path, data, out, counter):
    tmp = path + manifest.TMP_SUFFIX
    out.write("[%s] %s (%s bytes)\n" % (counter, path, format(len(data), ",")))
    drive.write(tmp, data)
    back = drive.read(tmp)
    if manifest.sha256(back) != manifest.sha256(data):
        try:
            drive.remove(tmp)
        except (fat.DriveError, OSError):
            pass
        raise DeployError("%s did not read back as written (%d of %d bytes, SHA-256 differs): "
                          "the drive or its cable is failing; the old %s is still in place"
                          % (path, len(back), len(data), path))
    drive.rename(tmp, path)


def execute(plan, drive, folder, out):
    total = 1 + len(plan.write)
    width = len(str(total))
    drive.repair()                 # what a cut left, before anything else is written
    for path in plan.leftovers:
        out.write("remove leftover %s\n" % path)
        drive.remove(path)
    drive.write(MARKER, _marker(plan))
    for path in plan.folders:
        drive.makedirs(path)
    step = 1
    _put(drive, manifest.NAME, manifest.dumps(plan.new), out, "%*d/%d" % (width, step, total))
    for path in plan.remove:
        out.write("remove %s\n" % path)
        drive.remove(path)
    for path in plan.write:
        step += 1
        with open(os.path.join(folder, *path.split("/")), "rb") as f:
            data = f.read()
        _put(drive, path, data, out, "%*d/%d" % (width, step, total))
    out.write(saves_step(drive))
    drive.remove(MARKER)
    drive.sync()
    sizes = dict((_fold(p), n) for p, n in drive.files().items())
    for f in plan.new["files"]:
        if sizes.get(_fold(f["path"])) != f["size"]:
            raise DeployError("%s has the wrong size on the drive after the update: run deploy "
                              "again" % f["path"])


def has_work(plan, drive):
    """Whether the update writes or removes anything (a repair of the file system aside)."""
    return bool(plan.write or plan.remove or plan.leftovers or drive.exists(MARKER))


def report(plan, out, work):
    old = plan.old["version"] if plan.old else "none"
    out.write("installed: %s, new: %s; %d to add, %d to change, %d to remove, %d unchanged\n" % (
        old, plan.new["version"], len(plan.added), len(plan.changed), len(plan.remove),
        len(plan.unchanged)))
    for note in plan.notes:
        out.write("note: %s\n" % note)
    if work:
        out.write("space: up to %s bytes more in use while writing, %s free\n" % (
            format(plan.peak, ","), format(plan.free, ",")))
    elif plan.saves in ("make", "remake"):
        out.write("space: %s bytes more in use while the saves file is written, %s free\n" % (
            format(_saveload().SIZE, ","), format(plan.free, ",")))
    else:
        out.write("space: nothing to write, %s free\n" % format(plan.free, ","))


def deploy(folder, drive, dry_run=False, out=sys.stdout, confirm=None):
    """Deploy the bundle in folder onto drive; return the plan. confirm(plan) -> bool may stop it."""
    version, major, board = check_board(drive)
    out.write("drive %s: CircuitPython %s on %s\n" % (drive.name, version, board))
    new = load_bundle(folder)
    mpy = bundle.mpy_format(folder, new)
    check_mpy(version, major, mpy)
    if _boards().profile_name(board) in PY_SHORT and mpy is None:
        out.write("note: the game goes as .py files, from which a %s may run short of memory in "
                  "hoyle and french; deploy without --py to send .mpy files (docs/memory.md)\n"
                  % board)
    plan = make_plan(drive, new)
    work = has_work(plan, drive)
    report(plan, out, work)
    if dry_run:
        for path in plan.added:
            out.write("  add    %s\n" % path)
        for path in plan.changed:
            out.write("  change %s\n" % path)
        for path in plan.remove:
            out.write("  remove %s\n" % path)
        for path in plan.leftovers:
            out.write("  remove leftover %s\n" % path)
        out.write(saves_plan(drive)[2])
        out.write("dry run: nothing written\n")
        return plan
    if work and plan.peak > plan.free:
        raise DeployError("not enough space on %s: the update needs up to %s bytes while "
                          "writing and %s are free; delete files you no longer need from the "
                          "drive (your saves are never touched) and try again" % (
                              drive.name, format(plan.peak, ","), format(plan.free, ",")))
    saves = "" if work else saves_plan(drive)
    if not work and not drive.repairs() and saves[0] == "none":
        out.write("the drive already holds binocle %s: nothing to do\n" % new["version"])
        out.write(saves[1])
        return plan
    if drive.read_only():
        raise DeployError("%s is read-only: the board started in play mode; hold SELECT (D2 on "
                          "the Feather ESP32-S3 Reverse TFT) while pressing reset, then try "
                          "again" % drive.name)
    if work and confirm is not None and not confirm(plan):
        raise DeployError("cancelled: nothing written")
    try:
        if work:
            execute(plan, drive, folder, out)
        else:
            repaired = bool(drive.repairs())
            drive.repair()
            out.write("the drive already holds binocle %s%s\n" % (
                new["version"], "; its file system is put right" if repaired else ""))
            out.write(saves_step(drive))
            return plan
    except (fat.DriveError, DeployError, OSError) as e:
        if not work:
            raise DeployError("%s. Run deploy again to finish the saves file (the old one, or "
                              "the new one, is whole)" % _text(e).rstrip("."))
        raise DeployError("%s. The update is incomplete (the board will say so when it starts): "
                          "run deploy again to finish it" % _text(e).rstrip("."))
    out.write("done: binocle %s on %s\n" % (new["version"], drive.name))
    return plan


# -- the saves file -------------------------------------------------------------------------------
#
# The journal (lib/binocle/store.py) is written block by block during play. In one run of
# clusters, its written blocks never share a 4 KB flash sector with another file (its first and
# last groups are never written after it is made); in pieces, a break inside a sector can put a
# journal block beside another file's data, and a cut while that sector is written back can harm
# that file. The board cannot read the FAT (CircuitPython's VfsFat has no block access): deploy
# looks, and leaves a note the board shows when it cannot put it right.

JOURNAL = "saves/binocle.sav"


def _saveload():
    _boards()                      # lib/ on the path
    from binocle import saveload
    return saveload


def note_path():
    return "saves/" + _saveload().PIECES


NOTE_TEXT = ("saves/binocle.sav, the game's saves, lies in pieces on this drive (or will, once\n"
             "the game makes it), and no run of free room was large enough to write it in one:\n"
             "a power cut while the game saves could harm another file. Free some room on the drive and run\n"
             "python -m tools deploy again; it removes this note once the file is in one piece.\n")


def saves_plan(drive):
    """(what to do to the saves file, the line saying it was done, the line saying it would be).

    What: "none" (nothing), "make" (not there: make it), "remake" (in pieces: write it again
    in one), "note" (in pieces, no run of room: the note), "unnote" (one piece: the note goes)."""
    saveload = _saveload()
    size = saveload.SIZE
    free = drive.free_runs()
    if free is None:
        line = "saves: %s, so the board makes or keeps %s as it is\n" % (drive.why_unknown, JOURNAL)
        return "none", line, line
    need = -(-size // drive.cluster_size())
    room = max([n for _c, n in free] or [0]) >= need
    kb = size // 1024
    noted = drive.exists(note_path())
    if not drive.exists(JOURNAL):
        if room:
            return "make", "saves: %s made, in one piece (%d KB)\n" % (JOURNAL, kb), \
                "saves: %s would be made, in one piece (%d KB)\n" % (JOURNAL, kb)
        if sum(n for _c, n in free) >= need:       # the board makes it in pieces: the note
            line = ("saves: no %d KB in a row free for %s: not made; the board makes it in pieces "
                    "and says so (free room and deploy again)\n" % (kb, JOURNAL))
            return "note", line, line.replace("not made", "it would not be made")
        line = ("saves: no room for %s (%d KB needed, %d KB free): not made; the board keeps "
                "settings and statistics in its nvm\n" % (JOURNAL, kb, drive.free() // 1024))
        return "unnote" if noted else "none", line, line      # the note would say otherwise
    have = len(drive.read(JOURNAL))
    if have != size:
        line = "saves: %s is %s bytes, not %s: left as it is (the board makes it again)\n" % (
            JOURNAL, format(have, ","), format(size, ","))
        return "none", line, line
    pieces = len(drive.file_runs(JOURNAL))
    if pieces == 1:
        if noted:
            return "unnote", "saves: %s in one piece; its note removed\n" % JOURNAL, \
                "saves: %s in one piece; its note would be removed\n" % JOURNAL
        line = "saves: %s in one piece: nothing to do\n" % JOURNAL
        return "none", line, line
    if room:
        return "remake", "saves: %s was in %d pieces: written again in one, saves kept\n" % (
            JOURNAL, pieces), "saves: %s in %d pieces: would be written again in one\n" % (
            JOURNAL, pieces)
    line = ("saves: %s in %d pieces, and no %d KB in a row free to write it again: left as it is, "
            "the board says so (free room and deploy again)\n" % (JOURNAL, pieces, kb))
    return "note", line, line.replace("left as it is, the board says so",
                                      "it would be left as it is, the board told")


def saves_step(drive):
    """Do what saves_plan() says; the line saying what was done."""
    what, line, _dry = saves_plan(drive)
    note = note_path()
    if what == "unnote":
        drive.remove(note)
    elif what == "note":
        _write_note(drive, note)
    elif what in ("make", "remake"):
        data = b"\xff" * _saveload().SIZE if what == "make" else drive.read(JOURNAL)
        if not drive.exists("saves"):
            drive.makedirs("saves")
        tmp = JOURNAL + manifest.TMP_SUFFIX
        drive.write(tmp, data)
        if manifest.sha256(drive.read(tmp)) != manifest.sha256(data):
            drive.remove(tmp)
            raise DeployError("%s did not read back as written: the drive or its cable is "
                              "failing; the old one is still in place" % tmp)
        pieces = len(drive.file_runs(tmp) or ())
        if pieces != 1:                      # the drive's own writer chose otherwise
            if what == "remake":
                drive.remove(tmp)
                _write_note(drive, note)
                return ("saves: %s in pieces, and written again it came in %d: left as it is, "
                        "the board says so (free room and deploy again)\n" % (JOURNAL, pieces))
            drive.rename(tmp, JOURNAL)
            _write_note(drive, note)
            return "saves: %s made, in %d pieces: the board says so (free room and deploy " \
                "again)\n" % (JOURNAL, pieces)
        drive.rename(tmp, JOURNAL)
        if drive.exists(note):
            drive.remove(note)
    return line


def _write_note(drive, note):
    text = NOTE_TEXT.encode("ascii")
    if not drive.exists("saves"):
        drive.makedirs("saves")
    if not drive.exists(note) or drive.read(note) != text:
        drive.write(note, text)


# -- the command ----------------------------------------------------------------------------------

def _text(e):
    if isinstance(e, OSError) and e.strerror:
        return "%s: %s" % (e.filename, e.strerror) if e.filename else e.strerror
    return str(e)


def open_drive(args):
    if args.image:
        try:
            return drives.ImageDrive(args.image)
        except fat.NotAnImage as e:
            raise cli.UsageError("--image: %s" % e)
    if args.drive:
        return drives.DirDrive(args.drive)
    found = drives.find_circuitpy()
    if not found:
        raise DeployError("no CIRCUITPY or BINOCLE drive found: connect the board (holding SELECT "
                          "as it starts), or name it with --drive PATH")
    if len(found) > 1:
        raise DeployError("several board drives: %s; choose one with --drive" % ", ".join(found))
    return drives.DirDrive(found[0])


def _ask(plan):
    answer = input("write %d files and remove %d? [y/N] " % (len(plan.write) + 1, len(plan.remove)))
    return answer.strip().lower() in ("y", "yes")


def check_paths(args):
    """A path named on the command line that is not there is a usage error (exit 2)."""
    if args.image and not os.path.isfile(args.image):
        raise cli.UsageError("no such image file: %s" % args.image)
    if args.drive and not os.path.isdir(args.drive):
        raise cli.UsageError("no such drive or folder: %s" % args.drive)
    if args.bundle and not os.path.isdir(args.bundle):
        raise cli.UsageError("no such bundle folder: %s (make one with python -m tools bundle)"
                             % args.bundle)


def build_for(drive, args, work):
    """The bundle for this board, built in work: .mpy unless --py, once the board is known to
    load them (its CircuitPython version, from boot_out.txt)."""
    version, major, _board = check_board(drive)
    if not args.py and not args.mpy_cross:     # another mpy-cross's format is known once built
        check_mpy(version, major, bundle.PINNED_FORMAT)
    folder = os.path.join(work, "bundle")
    built = bundle.build(folder, mpy=not args.py, mpy_cross=args.mpy_cross)
    print("bundle: binocle %s, %d files (%s)" % (built["version"], len(built["files"]) + 1,
                                                 ".py" if args.py else ".mpy"))
    return folder


@cli.command("deploy")
def main(argv):
    parser = cli.Parser("deploy", "Put the game onto a board's drive.")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--drive", metavar="PATH",
                       help="the board's mounted drive (found by itself if not given)")
    where.add_argument("--image", metavar="FILE", help="a FAT disk image file instead of a board")
    parser.add_argument("--bundle", metavar="DIR",
                        help="a bundle folder made by 'python -m tools bundle' (else built now)")
    bundle.add_code_options(parser)
    parser.add_argument("--dry-run", action="store_true", help="only list what would change")
    parser.add_argument("--yes", action="store_true",
                        help="do not ask before writing (asked only at a terminal)")
    args = parser.parse_args(argv)
    check_paths(args)
    if args.bundle and (args.py or args.mpy_cross):
        raise cli.UsageError("--py and --mpy-cross choose how a bundle is built: not with --bundle")
    args.mpy_cross = None if args.py else bundle.resolve_mpy_cross(args.mpy_cross)
    work = None
    try:
        with open_drive(args) as drive:
            folder = args.bundle
            if folder is None:       # after finding the drive: no waiting to hear there is none
                work = tempfile.mkdtemp(prefix="binocle-bundle-")
                folder = build_for(drive, args, work)
            ask = None if args.yes or not sys.stdin.isatty() else _ask
            deploy(folder, drive, dry_run=args.dry_run, confirm=ask)
    except cli.UsageError:
        raise
    except Exception as e:        # every failure as one line, never a traceback
        known = (DeployError, fat.DriveError, manifest.ManifestError, bundle.BundleError, OSError)
        text = _text(e) if isinstance(e, known) else "%s: %s" % (type(e).__name__, e)
        sys.stderr.write("deploy: %s\n" % text)
        return 1
    finally:
        if work:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
