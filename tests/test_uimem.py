"""The memory measure of tools/uimem.py, and forgetting modules under MicroPython."""

from tools import mpy, uimem

_FORGET = """
import sys, gc
sys.path.append("lib")
import binocle
gc.collect()
a0 = gc.mem_alloc()
import binocle.stats
gc.collect()
a1 = gc.mem_alloc()
binocle.forget("binocle.stats", "binocle.settings", "no.such.module")
gc.collect()
a2 = gc.mem_alloc()
print(a1 - a0, a2 - a0, "stats" in dir(binocle), "binocle.stats" in sys.modules)
"""


def test_a_forgotten_module_gives_its_code_back_under_micropython():
    status, out, err = mpy.run_source(_FORGET, heap="16m")
    assert status == 0, err
    loaded, left, attr, listed = out.split()
    assert attr == "False" and listed == "False"
    # Only the names it interned (kept for good by MicroPython) stay behind.
    assert int(left) < int(loaded) // 2, out


def test_the_moments_are_measured_in_the_order_a_player_meets_them():
    found, parts = uimem.code_moments("binokel")
    assert list(found) == [m for m, _f, _p in uimem.MOMENTS]
    assert parts[("table", "forgotten")] < 0         # the title's code went
    assert parts[("table", "game")] > 5000           # engine state and three AI players
    assert found["title"] < found["table"]           # the engine, the AI and a deal come in
    assert found["table"] < found["score sheet"]     # the sheet's code
