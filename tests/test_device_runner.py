"""The device suite's runner (tests/device/run.py) on every interpreter of the family: it shows
each failure with its traceback and always ends with "N passed, M failed"; every device test
module is in its list; nothing in tests/device/ leans on a name only MicroPython has; and
`python -m tools device-tests` says so when its filter matches no test (issue 12)."""

import ast
import os
import subprocess
import sys

import pytest

from tests.device import run as runner
from tools import mpy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEVICE = os.path.join(ROOT, "tests", "device")

FAILING = '''
def helper(n):
    assert n == 3, "n is %d" % n


def test_a_passes():
    helper(3)


def test_b_fails_in_a_helper():
    helper(4)


class Odd(Exception):
    def __str__(self):
        raise ValueError("no words")


def test_c_raises_an_exception_without_words():
    raise Odd()
'''
BROKEN = "import no_such_module_here\n"
# Runs the runner on the two modules above; the name of each is filled in.
DRIVER = '''
import sys
if "." not in sys.path:
    sys.path.insert(0, ".")
from tests.device import run
run.run("", ("tests.device.%s", "tests.device.%s"))
'''


@pytest.fixture
def modules():
    """Two throwaway test modules in tests/device: one failing twice, one that cannot import."""
    names = ["_failing_%d" % os.getpid(), "_broken_%d" % os.getpid()]
    for name, text in zip(names, (FAILING, BROKEN)):
        with open(os.path.join(DEVICE, name + ".py"), "w") as fh:
            fh.write(text)
    yield names
    for name in names:
        for path in (os.path.join(DEVICE, name + ".py"),):
            if os.path.exists(path):
                os.remove(path)


def check_report(out, names):
    lines = out.strip().splitlines()
    assert lines[-1] == "1 passed, 3 failed", out
    failing, broken = names
    assert "ok   tests.device.%s.test_a_passes" % failing in lines
    assert "FAIL tests.device.%s.test_b_fails_in_a_helper: AssertionError: n is 4" % failing in lines
    assert "FAIL tests.device.%s.test_c_raises_an_exception_without_words: Odd (its message failed)" % failing in lines
    assert [line for line in lines if line.startswith("FAIL tests.device.%s (import): " % broken)
            and "no_such_module_here" in line]
    # the traceback names the helper's file and line, where the assertion failed
    at = lines.index("FAIL tests.device.%s.test_b_fails_in_a_helper: AssertionError: n is 4" % failing)
    trace = "\n".join(lines[at:at + 8])
    assert "%s.py" % failing in trace and "line 3" in trace and "helper" in trace, trace


def test_the_runner_reports_failures_under_micropython(modules):
    status, out, err = mpy.run_source(DRIVER % tuple(modules))
    check_report(out + err, modules)


def test_the_runner_reports_failures_under_cpython(modules):
    # CPython has no sys.print_exception: traceback.print_exception(e), as on CircuitPython 10
    done = subprocess.run([sys.executable, "-u", "-c", DRIVER % tuple(modules)], cwd=ROOT,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
    check_report(done.stdout, modules)


class _Boom(Exception):
    pass


def _raised():
    try:
        raise _Boom("boom")
    except _Boom as e:
        return e


def test_the_report_takes_the_old_three_argument_traceback(monkeypatch, capsys):
    calls = []

    class OldTraceback:
        @staticmethod
        def print_exception(*args):
            if len(args) != 3:
                raise TypeError("print_exception() missing 2 required positional arguments")
            calls.append(args)

    monkeypatch.delattr(sys, "print_exception", raising=False)
    monkeypatch.setitem(sys.modules, "traceback", OldTraceback)
    e = _raised()
    runner.report(e)
    assert calls == [(_Boom, e, e.__traceback__)]


def test_the_report_prefers_sys_print_exception(monkeypatch):
    shown = []
    monkeypatch.setattr(sys, "print_exception", shown.append, raising=False)
    e = _raised()
    runner.report(e)
    assert shown == [e]


def test_the_report_never_raises(monkeypatch, capsys):
    class NoTraceback:
        @staticmethod
        def print_exception(*args):
            raise RuntimeError("no traceback here")

    monkeypatch.delattr(sys, "print_exception", raising=False)
    monkeypatch.setitem(sys.modules, "traceback", NoTraceback)
    runner.report(_raised())
    assert "(no traceback: RuntimeError: no traceback here)" in capsys.readouterr().out


def test_the_summary_comes_last_even_when_the_run_breaks(capsys):
    class Stop(BaseException):
        pass

    def broken(*args):
        raise Stop()

    real, runner.tests_of = runner.tests_of, broken
    try:
        with pytest.raises(Stop):
            runner.run("", ("tests.device.test_rng",))
    finally:
        runner.tests_of = real
    assert capsys.readouterr().out.strip().splitlines()[-1] == "0 passed, 0 failed"


def test_every_device_test_module_is_in_the_runners_list():
    on_disk = sorted("tests.device." + name[:-3] for name in os.listdir(DEVICE)
                     if name.startswith("test_") and name.endswith(".py"))
    assert sorted(runner.MODULES) == on_disk
    assert len(set(runner.MODULES)) == len(runner.MODULES)


def test_device_tests_says_when_no_test_matches():
    done = subprocess.run([sys.executable, "-m", "tools", "device-tests", "nomatch"], cwd=ROOT,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    assert done.returncode == 2
    assert done.stderr == "device-tests: no test matches 'nomatch'\n" and done.stdout == ""


# -- nothing in tests/device/ assumes MicroPython ----------------------------------------------

# Names only MicroPython (and CircuitPython) have: modules, and attributes of common modules.
MICROPYTHON_MODULES = ("micropython", "machine", "pyb", "utime", "uos", "usys", "ujson", "ustruct",
                       "ucollections", "uio", "urandom", "uasyncio", "ubinascii", "uhashlib", "uselect",
                       "utimeq", "esp", "esp32", "rp2")
MICROPYTHON_ATTRS = (("sys", "print_exception"), ("sys", "atexit"), ("gc", "mem_alloc"), ("gc", "mem_free"),
                     ("gc", "threshold"), ("time", "ticks_ms"), ("time", "ticks_us"), ("time", "ticks_cpu"),
                     ("time", "ticks_diff"), ("time", "ticks_add"), ("time", "sleep_ms"), ("time", "sleep_us"))
GUARDS = ("ImportError", "AttributeError", "NameError", "Exception", "BaseException")


def device_files():
    for folder, _dirs, names in sorted(os.walk(DEVICE)):
        for name in sorted(names):
            if name.endswith(".py") and not name.startswith("_mpy_"):
                path = os.path.join(folder, name)
                with open(path) as fh:
                    yield os.path.relpath(path, ROOT), ast.parse(fh.read())


def _parents(tree):
    up = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            up[child] = node
    return up


def _catches(handler):
    if handler.type is None:
        return True
    names = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(getattr(n, "id", None) in GUARDS for n in names)


def _hasattr_checks(scope, attr):
    for node in ast.walk(scope):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "hasattr" and \
                len(node.args) == 2 and isinstance(node.args[1], ast.Constant) and node.args[1].value == attr:
            return True
    return False


def guarded(node, up, attr=None):
    """Inside a try that catches the failure, or (for an attribute) in a function or module
    that asks hasattr() for it first."""
    child = node
    while child in up:
        parent = up[child]
        if isinstance(parent, ast.Try) and child in parent.body and any(_catches(h) for h in parent.handlers):
            return True
        if attr is not None and isinstance(parent, (ast.FunctionDef, ast.Module)) and _hasattr_checks(parent, attr):
            return True
        child = parent
    return False


def micropython_only(tree):
    """(line, what) of each unguarded use of a MicroPython-only name in a module."""
    up = _parents(tree)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            roots = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for root in roots:
                if root.split(".")[0] in MICROPYTHON_MODULES and not guarded(node, up):
                    out.append((node.lineno, "import " + root))
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if (node.value.id, node.attr) in MICROPYTHON_ATTRS and not guarded(node, up, node.attr):
                out.append((node.lineno, "%s.%s" % (node.value.id, node.attr)))
    return out


def test_nothing_in_the_device_suite_assumes_micropython():
    found = []
    for name, tree in device_files():
        for line, what in micropython_only(tree):
            found.append("%s:%d %s" % (name, line, what))
    assert found == []


def test_the_micropython_check_finds_what_it_should():
    tree = ast.parse("import sys\nimport gc\n"
                     "def report(e):\n    sys.print_exception(e)\n"
                     "def heap():\n    try:\n        return gc.mem_alloc()\n    except AttributeError:\n        return 0\n"
                     "def heap2():\n    if not hasattr(gc, 'mem_free'):\n        return 0\n    return gc.mem_free()\n"
                     "import utime\n"
                     "try:\n    from micropython import const\nexcept ImportError:\n    pass\n")
    assert sorted(micropython_only(tree)) == [(4, "sys.print_exception"), (14, "import utime")]
