"""engine/ and the device app (lib/binocle, code.py) keep to what CircuitPython offers
(DESIGN.md); the device suite proves the engine runs there. Below: no method, keyword or
built-in the board's Python lacks, in those, in tests/device/, in what it imports from
tools/checks/ and in the tools' guests that run under MicroPython (checked by name in the
source, each flagged feature tried there)."""

import ast
import builtins
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENGINE = os.path.join(ROOT, "engine")
APP = os.path.join(ROOT, "lib", "binocle")
ALLOWED_IMPORTS = {"micropython", "engine"}
# What the app may import on the board: modules of the firmware of every board it knows
# (vectorio too: only SAMD21 builds leave it out), and the libraries the bundle ships, only
# on the screens seen without a game (LIBRARY_SCREENS): the card art is an OnDiskBitmap, the
# game's own texts are the terminal font.
LIBRARIES = {"adafruit_display_text"}
LIBRARY_SCREENS = {os.path.join("scenes", f) for f in ("title.py", "statsview.py", "gameover.py")}
APP_IMPORTS = ALLOWED_IMPORTS | {
    "binocle", "displayio", "vectorio", "terminalio", "board", "keypad", "analogio", "supervisor",
    "microcontroller", "time", "gc", "sys", "os", "json", "storage", "array", "audiocore", "audioio",
    "digitalio", "traceback"}
DESKTOP_ONLY = (os.path.join("boards", "sim.py"),)     # the simulator's profile (pygame)
MAX_LINES = 400


def modules(root=ENGINE):
    """Every module of a tree and its packages (engine/ai, binocle/scenes)."""
    for folder, _dirs, names in sorted(os.walk(root)):
        for name in sorted(names):
            rel = os.path.relpath(os.path.join(folder, name), root)
            if name.endswith(".py") and rel not in DESKTOP_ONLY:
                path = os.path.join(folder, name)
                with open(path) as fh:
                    source = fh.read()
                yield rel, source, ast.parse(source)


def app_modules():
    for item in modules(APP):
        yield item
    for name in ("code.py", "boot.py"):
        with open(os.path.join(ROOT, name)) as fh:
            source = fh.read()
        yield name, source, ast.parse(source)


def imported_roots(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            yield (node.module or "").split(".")[0]


def test_app_imports_only_what_the_board_has():
    seen = set()
    for name, _, tree in app_modules():
        for root in imported_roots(tree):
            if root in LIBRARIES:
                assert name in LIBRARY_SCREENS, "%s imports %s" % (name, root)
                seen.add((name, root))
                continue
            assert root in APP_IMPORTS, "%s imports %s" % (name, root)
    s = os.path.join("scenes", "")
    assert seen == {(s + "title.py", "adafruit_display_text"), (s + "gameover.py", "adafruit_display_text"),
                    (s + "statsview.py", "adafruit_display_text")}


def test_app_has_no_dicts_sets_or_fstrings():
    banned = (ast.Dict, ast.DictComp, ast.Set, ast.SetComp, ast.JoinedStr)
    for name, _, tree in app_modules():
        for node in ast.walk(tree):
            assert not isinstance(node, banned), "%s line %d: %s" % (name, node.lineno, type(node).__name__)


def test_app_modules_stay_small():
    for name, source, _ in app_modules():
        assert source.count("\n") <= MAX_LINES, "%s has %d lines" % (name, source.count("\n"))


def test_engine_imports_only_engine_and_micropython():
    for name, _, tree in modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                roots = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                roots = [(node.module or "").split(".")[0]]
            else:
                continue
            for root in roots:
                assert root in ALLOWED_IMPORTS, "%s imports %s" % (name, root)


def test_micropython_import_is_guarded():
    for name, _, tree in modules():
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module == "micropython":
                raise AssertionError("%s: unguarded 'from micropython import'" % name)


def test_const_only_at_module_level():
    for name, _, tree in modules():
        top = set(id(n) for n in tree.body)
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name != "const":
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Call) and getattr(inner.func, "id", "") == "const":
                        raise AssertionError("%s: const() inside %s" % (name, node.name))
        assert top


def test_no_dicts_sets_or_fstrings_in_the_engine():
    # Dicts and sets iterate in another order on the board; f-strings differ in corner cases.
    banned = (ast.Dict, ast.DictComp, ast.Set, ast.SetComp, ast.JoinedStr)
    for name, _, tree in modules():
        for node in ast.walk(tree):
            assert not isinstance(node, banned), "%s line %d: %s" % (name, node.lineno, type(node).__name__)
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("dict", "set", "frozenset"):
                raise AssertionError("%s line %d: %s()" % (name, node.lineno, node.func.id))


def test_ai_package_is_checked_too():
    names = [name for name, _, _ in modules()]
    assert os.path.join("ai", "endgame.py") in names and "state.py" in names


def test_engine_modules_stay_small():
    for name, source, _ in modules():
        assert source.count("\n") <= MAX_LINES, "%s has %d lines" % (name, source.count("\n"))


def test_the_device_suite_compiles_every_app_file():
    from tests.device.test_app_logic import APP_FILES
    listed = set(APP_FILES)
    on_disk = set(["code.py", "boot.py"] + [os.path.join("lib", "binocle", rel) for rel, _, _ in modules(APP)])
    assert listed == on_disk


# -- what the board's Python lacks (issue 18) ----------------------------------------------------
#
# CircuitPython is MicroPython underneath: its str, int, bytes and exceptions have fewer
# methods than CPython's, and its built-in functions and methods take few keyword arguments.
# Code that uses one of those runs on the desktop (CPython, Blinka) and stops on the board.
# Each feature below was tried under MicroPython's WASI build (tools/mpy.py) and fails there;
# test_each_flagged_feature_fails_under_micropython tries them all again, with the controls
# in WORKS (tried too, and working there, so not flagged).

# Methods no built-in type has there, by name: (name, a call that fails).
METHODS = (
    ("capitalize", "'ab'.capitalize()"), ("title", "'ab'.title()"), ("zfill", "'1'.zfill(3)"),
    ("casefold", "'A'.casefold()"), ("expandtabs", "'a\\tb'.expandtabs()"),
    ("format_map", "'{a}'.format_map({'a': 1})"), ("swapcase", "'a'.swapcase()"),
    ("removeprefix", "'ab'.removeprefix('a')"), ("removesuffix", "'ab'.removesuffix('b')"),
    ("ljust", "'a'.ljust(3)"), ("rjust", "'a'.rjust(3)"), ("isalnum", "'a'.isalnum()"),
    ("isidentifier", "'a'.isidentifier()"), ("isdecimal", "'1'.isdecimal()"),
    ("isnumeric", "'1'.isnumeric()"), ("isprintable", "'a'.isprintable()"), ("istitle", "'A'.istitle()"),
    ("isascii", "'a'.isascii()"), ("translate", "'a'.translate({97: 98})"),
    ("maketrans", "str.maketrans('a', 'b')"), ("bit_count", "(5).bit_count()"),
    ("bit_length", "(5).bit_length()"), ("as_integer_ratio", "(1.5).as_integer_ratio()"),
    ("is_integer", "(1.5).is_integer()"), ("with_traceback", "ValueError().with_traceback(None)"),
    ("add_note", "ValueError().add_note('x')"),
)
# Attributes missing there (read by name, not through getattr with a default).
ATTRIBUTES = (
    ("__qualname__", "int.__qualname__"), ("__mro__", "int.__mro__"),
    ("__traceback__", "ValueError().__traceback__"), ("__context__", "ValueError().__context__"),
    ("__cause__", "ValueError().__cause__"), ("__doc__", "len.__doc__"),
)
# Keyword arguments refused there: (function, keyword, a call that fails). ".name" is a method.
KEYWORDS = (
    ("int", "base", "int('ff', base=16)"), ("str", "encoding", "str(b'a', encoding='utf-8')"),
    ("str", "errors", "str(b'a', 'utf-8', errors='strict')"), ("bytes", "encoding", "bytes('a', encoding='utf-8')"),
    ("bytearray", "encoding", "bytearray('a', encoding='utf-8')"), ("sum", "start", "sum([1], start=2)"),
    ("zip", "strict", "zip([1], [2], strict=True)"), ("round", "ndigits", "round(1.25, ndigits=1)"),
    ("pow", "mod", "pow(2, 3, mod=5)"), ("print", "flush", "print('', end='', flush=True)"),
    ("open", "newline", "open('README.md', newline='')"),
    (".split", "sep", "'a b'.split(sep=' ')"), (".split", "maxsplit", "'a b'.split(maxsplit=1)"),
    (".rsplit", "maxsplit", "'a b'.rsplit(maxsplit=1)"), (".encode", "encoding", "'a'.encode(encoding='utf-8')"),
    (".decode", "encoding", "b'a'.decode(encoding='utf-8')"), (".decode", "errors", "b'a'.decode('utf-8', errors='strict')"),
    (".to_bytes", "byteorder", "(1).to_bytes(2, byteorder='little')"),
    (".to_bytes", "signed", "(-1).to_bytes(2, 'little', signed=True)"),
    (".from_bytes", "byteorder", "int.from_bytes(b'a', byteorder='little')"),
    (".from_bytes", "signed", "int.from_bytes(b'a', 'little', signed=True)"),
    (".find", "start", "'ab'.find('b', start=1)"), (".count", "start", "'ab'.count('b', start=1)"),
    (".replace", "count", "'aa'.replace('a', 'b', count=1)"), (".startswith", "start", "'ab'.startswith('b', start=1)"),
    (".hex", "sep", "b'ab'.hex(sep=':')"), (".pop", "index", "[1].pop(index=0)"),
)
# Slices with a step other than 1: only lists take them there (str, bytes and tuple do not).
STEP_SLICE = "'abc'[::-1]"
# Tried there and working, so not flagged (and the prober's controls).
WORKS = ("{1: 2} | {3: 4}", "[1].copy()", "eval('f\"{1=}\"')", "'a=b'.partition('=')", "'a'.center(3)",
         "'{a}'.format(a=1)", "(1).to_bytes(2, 'little')", "int.from_bytes(b'a', 'little')",
         "sorted([2, 1], key=abs, reverse=True)", "min([], default=0)", "max([1], key=abs)",
         "list(enumerate('a', start=1))", "open('README.md', mode='rb', encoding=None).close()",
         "'a'.splitlines(keepends=True)", "[2, 1].sort(key=abs, reverse=True)", "[1, 2][::-1]",
         "dict(a=1)", "'a b'.split(' ', 1)")
# The names MicroPython's builtins module holds there; a name CPython has beyond these (ascii,
# format, vars, breakpoint, FileNotFoundError, ModuleNotFoundError, ...) is a NameError there.
MICROPYTHON_BUILTINS = frozenset("""
    ArithmeticError AssertionError AttributeError BaseException EOFError Ellipsis Exception
    GeneratorExit ImportError IndentationError IndexError KeyError KeyboardInterrupt LookupError
    MemoryError NameError NotImplemented NotImplementedError OSError OverflowError RuntimeError
    StopAsyncIteration StopIteration SyntaxError SystemExit TypeError UnicodeError ValueError
    ZeroDivisionError __build_class__ __import__ __name__ abs all any bin bool bytearray bytes
    callable chr classmethod compile complex delattr dict dir divmod enumerate eval exec execfile
    filter float frozenset getattr globals hasattr hash help hex id input int isinstance issubclass
    iter len list locals map max memoryview min next object oct open ord pow print property range
    repr reversed round set setattr slice sorted staticmethod str sum super tuple type zip
""".split())
CPYTHON_ONLY_BUILTINS = frozenset(n for n in dir(builtins) if n not in MICROPYTHON_BUILTINS and
                                  not n.startswith("__"))
# False alarms, each with why: (file, line's what).
ALLOWED = (
    # a deliberate refusal: the nvm stand-in must refuse a stepped slice, as the firmware does
    ("tests/device/test_standins.py", "[::step]"),
)


# Tools' guests: files that run only under MicroPython, beside the game on its stand-ins.
GUESTS = ("tools/lab/uimem_guest.py", "tools/lab/bench/guest.py", "tools/lab/bench/waits_guest.py")


def device_code():
    """Every file that runs on the board or in the device suite: engine/, the app, code.py,
    boot.py, tests/device/ (with the firmware stand-ins), the modules of tools/checks/ the
    suite imports (tools/checks/device.py's CHECKS, put in the suite's bundle; the folder's other
    tools run on the desktop only) and the tools' guests (GUESTS)."""
    for name, source, tree in modules():
        yield "engine/" + name.replace(os.sep, "/"), tree
    for name, source, tree in app_modules():
        yield (name if name in ("code.py", "boot.py") else "lib/binocle/" + name.replace(os.sep, "/")), tree
    for rel, source, tree in modules(os.path.join(ROOT, "tests", "device")):
        if not os.path.basename(rel).startswith("_mpy_"):
            yield "tests/device/" + rel.replace(os.sep, "/"), tree
    from tools.checks.device import CHECKS
    for name in CHECKS:
        with open(os.path.join(ROOT, "tools", "checks", name)) as fh:
            yield "tools/checks/" + name, ast.parse(fh.read())
    for name in GUESTS:
        with open(os.path.join(ROOT, name)) as fh:
            yield name, ast.parse(fh.read())


def _bound(tree):
    """Names a module binds itself (they may shadow a builtin)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            out.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.arg):
            out.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                out.add((a.asname or a.name).split(".")[0])
    return out


def cpython_only(tree):
    """(line, what) of each use of a feature the board's Python lacks."""
    methods = set(n for n, _ in METHODS)
    attributes = set(n for n, _ in ATTRIBUTES)
    keywords = set((f, k) for f, k, _ in KEYWORDS)
    bound = _bound(tree)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute):
                name = "." + node.func.attr
                if node.func.attr in methods:
                    out.append((node.lineno, name + "()"))
            else:
                name = getattr(node.func, "id", "")
            for kw in node.keywords:
                if (name, kw.arg) in keywords:
                    out.append((node.lineno, "%s(%s=)" % (name, kw.arg)))
        elif isinstance(node, ast.Attribute) and node.attr in attributes:
            out.append((node.lineno, "." + node.attr))
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and \
                node.id in CPYTHON_ONLY_BUILTINS and node.id not in bound:
            out.append((node.lineno, node.id))
        elif isinstance(node, ast.Slice) and node.step is not None and \
                not (isinstance(node.step, ast.Constant) and node.step.value == 1):
            out.append((node.lineno, "[::step]"))
    return sorted(out)


def test_nothing_on_the_board_uses_what_its_python_lacks():
    found = []
    for name, tree in device_code():
        for line, what in cpython_only(tree):
            if (name, what) not in ALLOWED:
                found.append("%s:%d %s" % (name, line, what))
    assert found == []


def test_the_check_covers_the_app_the_engine_the_device_suite_and_the_guests():
    names = [name for name, _ in device_code()]
    for name in ("code.py", "boot.py", "engine/state.py", "engine/ai/endgame.py", "lib/binocle/app.py",
                 "lib/binocle/scenes/statsview.py", "lib/binocle/boards/pybadge.py", "tests/device/run.py",
                 "tests/device/firmware/displayio.py", "tools/lab/uimem_guest.py",
                 "tools/lab/bench/waits_guest.py", "tools/checks/walk.py", "tools/checks/standins.py",
                 "tools/checks/invariants.py"):
        assert name in names, name
    assert "lib/binocle/boards/sim.py" not in names            # the desktop's own board


def test_the_check_finds_what_it_should():
    tree = ast.parse(
        "import traceback\n"
        "def f(s, e, n, data):\n"
        "    a = s.capitalize() + s.title() + str(n).zfill(3)\n"
        "    b = int(s, base=16) + n.bit_count() + sum(data, start=1)\n"
        "    c = s.split(sep=' ') + s[::-1] + data[::2]\n"
        "    d = e.__traceback__, ascii(s), format(n, '03d')\n"
        "    try:\n        pass\n    except FileNotFoundError:\n        pass\n"
        "    print(s, end='', flush=True)\n"
        "    return s[:2] + s[1:3:1] + s.upper() + s.center(5) + '{x}'.format(x=1) + s.split(' ', 1)[0]\n"
        "def vars():\n    return vars\n")
    assert cpython_only(tree) == [
        (3, ".capitalize()"), (3, ".title()"), (3, ".zfill()"),
        (4, ".bit_count()"), (4, "int(base=)"), (4, "sum(start=)"),
        (5, ".split(sep=)"), (5, "[::step]"), (5, "[::step]"),
        (6, ".__traceback__"), (6, "ascii"), (6, "format"),
        (9, "FileNotFoundError"), (11, "print(flush=)")]


PROBE = """
import builtins
missing = []
for code in %r:
    try:
        eval(code)
    except Exception:
        continue
    missing.append(code)
print("WORKED", repr(missing))
broken = []
for code in %r:
    try:
        eval(code)
    except Exception as e:
        broken.append((code, repr(e)))
print("FAILED", repr(broken))
print("BUILTINS", " ".join(sorted(dir(builtins))))
"""


def test_each_flagged_feature_fails_under_micropython():
    from tools import mpy
    flagged = [c for _, c in METHODS] + [c for _, c in ATTRIBUTES] + [c for _, _, c in KEYWORDS] + [STEP_SLICE]
    status, out, err = mpy.run_source(PROBE % (flagged, WORKS))
    lines = dict(line.split(" ", 1) for line in out.strip().splitlines())
    assert status == 0, out + err
    assert lines["WORKED"] == "[]"          # every flagged feature fails there
    assert lines["FAILED"] == "[]"          # and every control works
    there = set(lines["BUILTINS"].split()) - {"__class__", "__dict__", "__repl_print__"}
    assert there == MICROPYTHON_BUILTINS
