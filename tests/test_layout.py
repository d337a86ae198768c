"""Where code lives: the tools stand on their own, the tests may use the tools, never the
other way round. What a tool and a test both need (the engine's invariants, the walk of every
screen, the firmware stand-ins' switch) lives under tools/checks/."""

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def tool_modules():
    """(path from the root, source) of every module under tools/."""
    out = []
    for folder, dirs, files in os.walk(os.path.join(ROOT, "tools")):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for f in sorted(files):
            if f.endswith(".py"):
                path = os.path.join(folder, f)
                with open(path) as fh:
                    out.append((os.path.relpath(path, ROOT).replace(os.sep, "/"), fh.read()))
    return out


def _names_tests(name):
    return name == "tests" or name.startswith("tests.")


def imports_of_tests(source, path="<source>"):
    """(line, what) of each import of the tests package in a module's source: `import tests`,
    `import tests.x as y`, `from tests import x`, `from tests.x import y`, and the calls that
    import by name (__import__("tests..."), importlib.import_module("tests...")). A relative
    import cannot reach tests/ from tools/ and is not looked at."""
    out = []
    for node in ast.walk(ast.parse(source, path)):
        if isinstance(node, ast.Import):
            for a in node.names:
                if _names_tests(a.name):
                    out.append((node.lineno, "import " + a.name))
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and _names_tests(node.module or ""):
                out.append((node.lineno, "from %s import %s" % (node.module, ", ".join(a.name for a in node.names))))
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            f = node.func
            called = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            first = node.args[0].value
            if called in ("__import__", "import_module") and isinstance(first, str) and _names_tests(first):
                out.append((node.lineno, "%s(%r)" % (called, first)))
    return sorted(out)


def test_no_tool_imports_the_tests():
    found = []
    for path, source in tool_modules():
        for line, what in imports_of_tests(source, path):
            found.append("%s:%d %s" % (path, line, what))
    assert found == [], "tools import the tests:\n" + "\n".join(found)


def test_the_check_sees_every_tool_and_every_import_form():
    paths = [p for p, _ in tool_modules()]
    for p in ("tools/__main__.py", "tools/checks/fuzz.py", "tools/checks/pystack.py", "tools/lab/bench/waits.py",
              "tools/checks/invariants.py", "tools/checks/walk.py"):
        assert p in paths, p
    source = ("import os, tests\n"
              "import tests.device.helpers as H\n"
              "from tests import rulesdoc\n"
              "from tests.device.screens import Walk, drive\n"
              "def f():\n"
              "    from tests.device import screens\n"
              "    __import__('tests.device.standins')\n"
              "    importlib.import_module('tests.savesim')\n"
              "import testsuite\n"
              "from testing import tests\n"
              "from . import tests\n"
              "from engine import tests\n")
    assert imports_of_tests(source) == [
        (1, "import tests"), (2, "import tests.device.helpers"), (3, "from tests import rulesdoc"),
        (4, "from tests.device.screens import Walk, drive"), (6, "from tests.device import screens"),
        (7, "__import__('tests.device.standins')"), (8, "import_module('tests.savesim')")]


def tools_imported(source):
    """(line, module) of each module of tools a source imports: tools.checks.walk for both
    `import tools.checks.walk` and `from tools.checks import walk`."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "tools"]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "tools":
            for a in node.names:
                whole = node.module + "." + a.name
                is_module = os.path.exists(os.path.join(ROOT, *whole.split("."))) or \
                    os.path.exists(os.path.join(ROOT, *whole.split(".")) + ".py")
                out.append((node.lineno, whole if is_module else node.module))
    return sorted(out)


def test_the_device_suite_imports_of_the_tools_only_what_its_bundle_carries():
    """tests/device runs under MicroPython, and from a bundle that holds, of tools/, only
    tools/checks' CHECKS (tools/checks/device.py bundle_with_suite): all it imports of the tools."""
    from tools.checks.device import CHECKS
    carried = {"tools", "tools.checks"} | {"tools.checks." + f[:-3] for f in CHECKS if f != "__init__.py"}
    files = [os.path.join("tools", "checks", f) for f in CHECKS]
    for folder, dirs, names in os.walk(os.path.join(ROOT, "tests", "device")):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        files += [os.path.relpath(os.path.join(folder, f), ROOT) for f in sorted(names) if f.endswith(".py")]
    seen, outside = set(), []
    for path in files:
        with open(os.path.join(ROOT, path)) as fh:
            for line, module in tools_imported(fh.read()):
                seen.add(module)
                if module not in carried:
                    outside.append("%s:%d %s" % (path.replace(os.sep, "/"), line, module))
    assert outside == [], "the device suite's bundle lacks: " + ", ".join(outside)
    assert seen == {"tools.checks.invariants", "tools.checks.standins", "tools.checks.walk"}
    assert tools_imported("from tools.checks import walk, standins\nimport tools.mpy\nfrom tools import cli\n"
                          "from tools.checks.walk import Walk\n") == [
        (1, "tools.checks.standins"), (1, "tools.checks.walk"), (2, "tools.mpy"), (3, "tools.cli"),
        (4, "tools.checks.walk")]
