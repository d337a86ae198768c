"""engine/ and the device app (lib/binocle, code.py) keep to what CircuitPython offers
(DESIGN.md); the device suite proves the engine runs there."""

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENGINE = os.path.join(ROOT, "engine")
APP = os.path.join(ROOT, "lib", "binocle")
ALLOWED_IMPORTS = {"micropython", "engine"}
# What the app may import on the board: the modules of the PyBadge's and PyGamer's firmware
# (which has no vectorio, so neither adafruit_displayio_layout's grid) and the image loader.
APP_IMPORTS = ALLOWED_IMPORTS | {
    "binocle", "displayio", "terminalio", "board", "keypad", "analogio", "supervisor",
    "microcontroller", "time", "gc", "sys", "os", "json", "storage", "array", "audiocore", "audioio",
    "digitalio", "traceback", "adafruit_imageload"}
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
    for name, _, tree in app_modules():
        for root in imported_roots(tree):
            assert root in APP_IMPORTS, "%s imports %s" % (name, root)


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
