"""engine/ keeps to what CircuitPython offers (DESIGN.md); the device suite proves it runs there."""

import ast
import os

ENGINE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "engine")
ALLOWED_IMPORTS = {"micropython", "engine"}
MAX_LINES = 400


def modules():
    """Every module of engine/ and its packages (engine/ai)."""
    for folder, _dirs, names in sorted(os.walk(ENGINE)):
        for name in sorted(names):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path) as fh:
                    source = fh.read()
                yield os.path.relpath(path, ENGINE), source, ast.parse(source)


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
