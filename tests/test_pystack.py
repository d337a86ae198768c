"""python -m tools pystack: the model of CircuitPython's Python stack is right on
known cases, as a real CircuitPython 10.2.1 measured them, and the app's deepest use over every
screen (and the engine's deals spliced onto the walk's way in) stays under 80% of a SAMD51
board's 2,048 bytes."""

import os
import runpy
import sys

import pytest

from tools.checks import pystack

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = os.path.join(ROOT, "tests", "data", "pystack_cases.py")

# What `micropython tests/data/pystack_cases.py` printed on CircuitPython 10.2.1's unix port
# built 32-bit (-m32) with MICROPY_ENABLE_PYSTACK, no settrace, not stackless (as a SAMD51's).
MEASURED = [
    "module: 64",
    "plain: 88",
    "two arguments: 96",
    "locals: 120",
    "try: 120",
    "try in try, except as: 136",
    "a call in a call: 112",
    "method: 96",
    "bound method: 104",
    "bound method, keyword: 112",
    "bound method in an attribute: 104",
    "getattr(obj, name)(): 104",
    "callable instance: 104",
    "__init__: 104",
    "class body: 88",
    "generator: 64",
    "f(*args): 112",
    "f(**kw): 120",
    "obj.m(*args): 104",
    "closure: 104",
    "list comprehension: 120",
    "generator expression: 64",
    "lambda: 88",
]

KNOWN = '''def add(a, b):
    c = a + b
    return c


def guarded(x):
    try:
        return x()
    except ValueError:
        return None


def counting(n):
    for i in range(n):
        yield i
'''


def test_a_frame_by_hand():
    # 20 bytes of mp_code_state_t, 4 a slot, 12 an exception handler, rounded up to 8
    assert pystack.frame_bytes(1, 0) == 24
    assert pystack.frame_bytes(5, 0) == 40
    assert pystack.frame_bytes(7, 1) == 64                 # 20 + 28 + 12 = 60
    assert pystack.args_bytes(0, 0) == 8                   # self alone: 4, rounded up
    assert pystack.args_bytes(2, 1) == 24                  # 4 x (1 + 2 + 2)
    assert pystack.LIMIT == 1638


def test_preludes_of_known_functions(tmp_path):
    src = tmp_path / "known.py"
    src.write_text(KNOWN)
    module = pystack.read_mpy(pystack.compile_mpy(str(src)))
    add, guarded, counting = module.children
    assert (add.n_state, add.n_exc_stack, add.n_pos, add.generator) == (5, 0, 2, False)   # a, b, c + 2
    assert add.cost == 40
    assert (guarded.n_state, guarded.n_exc_stack, guarded.cost) == (7, 1, 64)
    assert counting.generator and counting.cost == 0        # its state lives in the heap
    assert module.cost == 24 and module.children[0].lines == [2, 3]


def test_the_known_cases_as_circuitpython_measured_them():
    tracer = pystack.Tracer([CASES], [])
    out = []
    with tracer:
        runpy.run_path(CASES, init_globals={"use": tracer.total, "print": lambda *a: out.append(
            " ".join(str(x) for x in a))}, run_name="__main__")
    assert out == MEASURED


def test_every_function_of_the_app_pairs_with_mpy_cross():
    count = 0
    for path in pystack.app_files():
        model = pystack.SourceModel(path)
        count += len(model.functions)
        assert sum(1 for _ in model.raw.walk()) == len(model.functions), path
    assert count > 700


def test_the_calibration_compares_call_by_call_and_as_a_bag():
    model = ["board pybadge", "variant hoyle title", "a.f 100", "a.g 120", "variant hoyle pause",
             "a.f 90", "a.g 96"]
    real = ["board pybadge", "variant hoyle title", "a.f 100", "a.g 128", "variant hoyle pause",
            "a.g 96", "a.f 90", "a.h 200"]
    c = pystack.compare(model, real)
    assert (c["variants"], c["same_calls"], c["calls"], c["equal"], c["differences"]) == (3, 2, 2, 1, {-8: 1})
    assert (c["other_calls"], c["bag_calls"], c["bag_found"]) == (1, 2, 2)
    assert (c["model_peak"], c["real_peak"], c["peaks_equal"]) == (120, 200, 1)


def test_a_mistake_on_the_command_line_is_one_line(capsys):
    assert pystack.main(["--calibrate", os.path.join(ROOT, "no-such-file")]) == 2
    assert capsys.readouterr().err.startswith("pystack: cannot read")
    assert pystack.main(["--top", "0"]) == 2


@pytest.fixture(scope="module")
def figure():
    path = list(sys.path)
    try:
        return pystack.measure()
    finally:
        sys.path[:] = path


def test_the_app_keeps_under_80_percent_of_the_pystack(figure):
    assert figure["peak_bytes"] < pystack.LIMIT, pystack._report(figure, 40, sys.stdout)
    assert figure["peak_bytes"] == max(figure["walk"]["peak_bytes"], figure["deals"]["peak_bytes"])
    assert sum(size for _, size in figure["chain"]) == figure["peak_bytes"]


def test_the_walk_reaches_the_app_as_a_board_does(figure):
    walk = figure["walk"]
    assert walk["calls"] > 1000000 and walk["peak_bytes"] > 1000
    under, first = walk["chain"][0], walk["chain"][1]
    assert first[0] == "lib/binocle/app.py:%d App.tick" % _line("App.tick")
    assert under[1] == figure["board_under_app_tick"]
    assert figure["board_under_app_tick"] < figure["board_under_a_key_handler"]


def _line(qualname):
    model = pystack.SourceModel(os.path.join(ROOT, "lib", "binocle", "app.py"))
    return [line for (name, line) in model.functions if name == qualname][0]
